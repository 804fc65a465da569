//! Co-simulation of generated Verilog with real Verilator.
//!
//! [`VerilatorMonitor::build`] compiles the design with `verilator --cc --exe --build
//! -O3` and the generic harness `sim/verilator/harness.cpp`, which reads batches of
//! input records on stdin and answers with output records on stdout. Builds are
//! cached under `target/verilator/<top>-<hash>/`, keyed by the Verilog, the harness
//! and the options.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::ports::{Engine, MonitorInputs, MonitorOutputs};
use crate::tools::{require, run_tool, target_dir};

const HARNESS: &str = include_str!("../verilator/harness.cpp");
const INPUT_BYTES: usize = 16;
const OUTPUT_BYTES: usize = 12;

/// A running Verilator model of one generated monitor.
pub struct VerilatorMonitor {
    child: Child,
    /// `None` once closed (dropping it ends the harness).
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    buffer: Vec<u8>,
}

/// The Verilator executable for `verilog` (top `top`), built if not cached.
/// With `trace`, the model can write a VCD waveform.
pub fn build(verilog: &str, top: &str, trace: bool) -> Result<PathBuf, String> {
    let mut hasher = DefaultHasher::new();
    (verilog, HARNESS, trace).hash(&mut hasher);
    let dir = target_dir().join("verilator").join(format!("{top}-{:016x}", hasher.finish()));
    let exe = dir.join("obj").join("harness");
    if exe.exists() {
        return Ok(exe);
    }
    require(&["verilator", "make", "g++"])?;
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let class = format!("V{top}");
    let harness = HARNESS.replace("PMUGEN_HEADER", &format!("{class}.h")).replace("PMUGEN_TOP", &class);
    std::fs::write(dir.join(format!("{top}.v")), verilog).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("harness.cpp"), harness).map_err(|e| e.to_string())?;
    let verilog_file = format!("{top}.v");
    let mut args = vec![
        "--cc", "--exe", "--build", "-O3", "-j", "2", "--x-assign", "fast", "--x-initial", "fast",
        "-Wno-DECLFILENAME", "--top-module", top, "--Mdir", "obj", "-o", "harness",
        "-CFLAGS", "-O2", "-CFLAGS", "-std=c++17",
    ];
    if trace {
        args.extend(["--trace", "-CFLAGS", "-DPMUGEN_TRACE"]);
    }
    args.extend([verilog_file.as_str(), "harness.cpp"]);
    let (ok, log) = run_tool("verilator", &args, &dir)?;
    if !ok || !exe.exists() {
        return Err(format!("verilator build of {top} failed in {}:\n{log}", dir.display()));
    }
    Ok(exe)
}

impl VerilatorMonitor {
    /// Build (or reuse) and start the model of `verilog`; `vcd` asks for a waveform.
    pub fn start(verilog: &str, top: &str, vcd: Option<&Path>) -> Result<Self, String> {
        let exe = build(verilog, top, vcd.is_some())?;
        let mut command = Command::new(&exe);
        if let Some(path) = vcd {
            command.arg(path);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", exe.display()))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(Self { child, stdin: Some(stdin), stdout, buffer: Vec::new() })
    }

    fn exchange(&mut self, inputs: &[MonitorInputs], outputs: &mut Vec<MonitorOutputs>) -> std::io::Result<()> {
        self.buffer.clear();
        self.buffer.reserve(4 + inputs.len() * INPUT_BYTES);
        self.buffer.extend_from_slice(&(inputs.len() as u32).to_ne_bytes());
        for input in inputs {
            self.buffer.extend_from_slice(&input.events.to_ne_bytes());
            self.buffer.extend_from_slice(&input.reg_wdata.to_ne_bytes());
            self.buffer.extend_from_slice(&[
                input.reset as u8,
                input.start,
                input.stop,
                input.reg_addr,
                input.reg_write as u8,
                0,
                0,
                0,
            ]);
        }
        let stdin = self.stdin.as_mut().expect("open until drop");
        stdin.write_all(&self.buffer)?;
        stdin.flush()?;
        self.buffer.resize(inputs.len() * OUTPUT_BYTES, 0);
        self.stdout.read_exact(&mut self.buffer)?;
        outputs.extend(self.buffer.chunks_exact(OUTPUT_BYTES).map(|record| MonitorOutputs {
            reg_rdata: u32::from_ne_bytes([record[0], record[1], record[2], record[3]]),
            matched: record[4] != 0,
            window: record[5] != 0,
            ser_data: record[6] != 0,
            ser_valid: record[7] != 0,
            ser_last: record[8] != 0,
        }));
        Ok(())
    }
}

impl Engine<MonitorInputs, MonitorOutputs> for VerilatorMonitor {
    fn name(&self) -> &'static str {
        "verilator"
    }

    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        let mut outputs = Vec::with_capacity(1);
        self.step_batch(std::slice::from_ref(inputs), &mut outputs);
        outputs[0]
    }

    fn step_batch(&mut self, inputs: &[MonitorInputs], outputs: &mut Vec<MonitorOutputs>) {
        if let Err(err) = self.exchange(inputs, outputs) {
            panic!("the Verilator model stopped answering: {err}");
        }
    }
}

impl Drop for VerilatorMonitor {
    fn drop(&mut self) {
        // Closing stdin ends the harness, which then closes its waveform.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
