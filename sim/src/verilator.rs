//! Co-simulation of generated Verilog with real Verilator, for any design.
//!
//! [`build`] compiles the design with `verilator --cc --exe --build -O3` and the
//! generic harness `sim/verilator/harness.cpp`, whose port code is generated here
//! from the design's port list ([`PortCodec`]). The harness reads batches of input
//! records on stdin and answers with output records on stdout. Builds are cached
//! under `<cache>/verilator/<top>-<hash>/` ([`crate::tools::cache_dir`]: `$PMUGEN_CACHE`,
//! else the user's cache directory), keyed by the Verilog, the harness, the port list
//! and the options.
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

/// Part of the build cache's key: changes whenever the Verilator command line does, so
/// that no binary built with other flags is reused.
const BUILD_FLAGS_VERSION: u32 = 5;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};

use crate::ports::Engine;
use crate::tools::{cache_dir, objcache_flags, require, run_tool, write, ToolError};

const HARNESS: &str = include_str!("../verilator/harness.cpp");

/// Ports as (name, width) in record order.
pub type PortList = Vec<(String, usize)>;

/// How one design's inputs and outputs map to its Verilog ports: the port lists
/// (name, width, without `clock`) and the conversion to and from 64-bit words, each
/// port taking ceil(width/64) words in list order.
pub trait PortCodec<I, O> {
    /// The input ports the harness drives, in record order.
    fn inputs(&self) -> PortList;
    /// The output ports the harness reads, in record order.
    fn outputs(&self) -> PortList;
    /// Append one cycle's input record.
    fn encode(&self, inputs: &I, words: &mut Vec<u64>);
    /// One cycle's outputs from its record.
    fn decode(&self, words: &[u64]) -> O;
}

/// The codec of plain word records: inputs and outputs as the words of their ports,
/// in list order (for harnesses that handle words themselves).
#[derive(Clone, Debug)]
pub struct WordsCodec {
    /// The input ports.
    pub inputs: PortList,
    /// The output ports.
    pub outputs: PortList,
}

impl PortCodec<Vec<u64>, Vec<u64>> for WordsCodec {
    fn inputs(&self) -> PortList {
        self.inputs.clone()
    }
    fn outputs(&self) -> PortList {
        self.outputs.clone()
    }
    fn encode(&self, inputs: &Vec<u64>, words: &mut Vec<u64>) {
        words.extend_from_slice(inputs);
    }
    fn decode(&self, words: &[u64]) -> Vec<u64> {
        words.to_vec()
    }
}

/// Words of a record for these ports.
pub fn record_words(ports: &[(String, usize)]) -> usize {
    ports.iter().map(|(_, width)| width.div_ceil(64)).sum()
}

/// A Verilog port name as Verilator's C++ spells it: an underscore that follows an
/// underscore is written `__05F` (`a__b` becomes `a___05Fb`).
fn cpp_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut previous = ' ';
    for c in name.chars() {
        if c == '_' && previous == '_' {
            out.push_str("__05F");
        } else {
            out.push(c);
        }
        previous = c;
    }
    out
}

/// The C++ statements that copy a record to the ports (`to_ports`) or back.
fn port_code(ports: &[(String, usize)], to_ports: bool) -> String {
    let mut code = String::new();
    let mut word = 0;
    for (name, width) in ports {
        let (name, width) = (cpp_name(name), *width);
        let ctype = match width {
            1..=8 => "CData",
            9..=16 => "SData",
            17..=32 => "IData",
            _ => "QData",
        };
        if width <= 64 {
            let _ = if to_ports {
                writeln!(code, "    top->{name} = ({ctype})in[{word}];")
            } else {
                writeln!(code, "    out[{word}] = (uint64_t)top->{name};")
            };
        } else {
            // Wide ports are arrays of 32-bit words in Verilator.
            for half in 0..width.div_ceil(32) {
                let (source, shift) = (word + half / 2, 32 * (half % 2));
                let _ = if to_ports {
                    writeln!(code, "    top->{name}[{half}] = (uint32_t)(in[{source}] >> {shift});")
                } else if shift == 0 {
                    writeln!(code, "    out[{source}] = (uint64_t)top->{name}[{half}];")
                } else {
                    writeln!(code, "    out[{source}] |= (uint64_t)top->{name}[{half}] << {shift};")
                };
            }
        }
        word += width.div_ceil(64);
    }
    code
}

/// When the harness reads the outputs in each cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sampling {
    /// After the rising edge (the registered outputs of a design).
    #[default]
    AfterEdge,
    /// With the inputs applied, before the edge, and again after it: a block's
    /// combinational outputs are seen with this cycle's inputs and state.
    BeforeAndAfterEdge,
}

impl Sampling {
    /// Output records per cycle.
    pub fn samples(self) -> usize {
        match self {
            Sampling::AfterEdge => 1,
            Sampling::BeforeAndAfterEdge => 2,
        }
    }
}

/// The harness source for a design's ports.
pub fn harness_source(
    top: &str,
    inputs: &[(String, usize)],
    outputs: &[(String, usize)],
    sampling: Sampling,
) -> String {
    let class = format!("V{top}");
    HARNESS
        .replace("PMUGEN_HEADER", &format!("{class}.h"))
        .replace("PMUGEN_TOP", &class)
        .replace("PMUGEN_INPUT_WORDS", &record_words(inputs).to_string())
        .replace("PMUGEN_OUTPUT_WORDS", &record_words(outputs).to_string())
        .replace("PMUGEN_SAMPLES", &sampling.samples().to_string())
        .replace("PMUGEN_APPLY_INPUTS\n", &port_code(inputs, true))
        .replace("PMUGEN_READ_OUTPUTS\n", &port_code(outputs, false))
}

/// The flags of every Verilator model pmugen builds (the designs' and the SoC's), before
/// the model's own: a C++ model with its executable, built here.
pub const MODEL_FLAGS: [&str; 22] = [
    "--cc",
    "--exe",
    "--build",
    "-O3",
    "-j",
    "2",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    // The C++ at -O1 throughout (Verilator's makefile otherwise compiles the
    // per-cycle code with OPT_FAST, the rest with -Os): the models run as fast as at
    // -O2 and compile in about two thirds of the time, which dominates short runs.
    "-CFLAGS",
    "-O1",
    "-MAKEFLAGS",
    "OPT_FAST=-O1",
    "-MAKEFLAGS",
    "OPT_SLOW=-O1",
    "-MAKEFLAGS",
    "OPT_GLOBAL=-O1",
    // Substitute equations of up to 1000 nodes into their single reader (default
    // 100), so that a chain of small wires read only under a clock enable, like
    // the monitor's comparator stages (docs/monitor.md §7.2), is evaluated only
    // when enabled: at large N and W the stages otherwise stop being substituted
    // and run every cycle, several times slower.
    "--gate-stmts",
    "1000",
    // The model's C++ as one translation unit (Verilator's makefile otherwise compiles
    // each of its files on its own): the runtime's headers are parsed once instead of
    // once per file. The tests build many models side by side, so the files of one
    // model gain nothing from compiling in parallel.
    "-MAKEFLAGS",
    "VM_PARALLEL_BUILDS=0",
];

/// The Verilator executable for `verilog` (top `top`) driven through `harness`,
/// built if not cached ([`cached_build`]). With `trace`, the model can write a VCD
/// waveform.
pub fn build(verilog: &str, top: &str, harness: &str, trace: bool) -> Result<PathBuf, ToolError> {
    let mut hasher = DefaultHasher::new();
    (verilog, harness, trace, MODEL_FLAGS, BUILD_FLAGS_VERSION).hash(&mut hasher);
    let cache = cache_dir().join("verilator");
    let dir = cache.join(format!("{top}-{:016x}", hasher.finish()));
    cached_build(&dir, "obj/harness", |work| {
        require(&["verilator", "make", "g++"])?;
        write(&work.join(format!("{top}.v")), verilog)?;
        write(&work.join("harness.cpp"), harness)?;
        // The first build of a model takes from ten seconds to a few minutes; say so.
        eprintln!("building the Verilator model of {top} (once; cached in {})", cache.display());
        verilate(work, top, trace)
    })
}

/// Verilate `{top}.v` with `harness.cpp` in `work` into `work/obj/harness`.
fn verilate(work: &Path, top: &str, trace: bool) -> Result<(), ToolError> {
    let verilog_file = format!("{top}.v");
    let mut args = MODEL_FLAGS.to_vec();
    args.extend(objcache_flags());
    args.extend(["-Wno-DECLFILENAME", "--top-module", top, "--Mdir", "obj", "-o", "harness", "-CFLAGS", "-std=c++17"]);
    if trace {
        args.extend(["--trace", "-CFLAGS", "-DPMUGEN_TRACE"]);
    }
    args.extend([verilog_file.as_str(), "harness.cpp"]);
    let (ok, log) = run_tool("verilator", &args, work)?;
    if !ok || !work.join("obj").join("harness").exists() {
        return Err(ToolError::Refused { what: format!("verilator build of {top}"), output: log });
    }
    Ok(())
}

/// The build cached in `dir`, whose product is `dir/product`: `build` makes it in a
/// scratch directory beside `dir`, which is renamed into place only when complete, so
/// builds of the same thing at the same time (tests run in parallel) never write into
/// each other's files and an interrupted build never looks cached. Threads of this
/// process asking for the same `dir` wait for one build. `build`'s error is the
/// caller's own type (a [`ToolError`] converts into it).
pub fn cached_build<E: From<ToolError>>(
    dir: &Path,
    product: &str,
    build: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<PathBuf, E> {
    let finished = dir.join(product);
    if finished.exists() {
        return Ok(finished);
    }
    let lock = model_lock(dir);
    let _building = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if finished.exists() {
        return Ok(finished);
    }
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let work = dir.with_file_name(format!(".building-{name}-{}-{thread}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|source| ToolError::Write { path: work.clone(), source })?;
    if let Err(error) = build(&work) {
        let _ = std::fs::remove_dir_all(&work);
        return Err(error);
    }
    // Publish; if another build of the same thing got there first, use that one.
    if std::fs::rename(&work, dir).is_err() {
        let _ = std::fs::remove_dir_all(&work);
    }
    if finished.exists() {
        Ok(finished)
    } else {
        let what = format!("the build in {}", dir.display());
        Err(ToolError::Refused { what, output: format!("{product} did not appear") }.into())
    }
}

/// The lock of the model cached in `dir`, one per model in this process.
fn model_lock(dir: &Path) -> Arc<Mutex<()>> {
    type Locks = Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>;
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    let mut locks = LOCKS.get_or_init(Locks::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    locks.entry(dir.to_path_buf()).or_default().clone()
}

/// A running Verilator model of one generated design.
pub struct VerilatorEngine<C> {
    codec: C,
    child: Child,
    /// `None` once closed (dropping it ends the harness).
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    words: Vec<u64>,
    bytes: Vec<u8>,
    output_words: usize,
}

impl<C> VerilatorEngine<C> {
    /// Build (or reuse) and start the model of `verilog`; `vcd` asks for a waveform.
    pub fn start<I, O>(verilog: &str, top: &str, codec: C, vcd: Option<&Path>) -> Result<Self, ToolError>
    where
        C: PortCodec<I, O>,
    {
        Self::start_sampling(verilog, top, codec, vcd, Sampling::AfterEdge)
    }

    /// [`VerilatorEngine::start`], reading the outputs as `sampling` says: each decoded
    /// record then holds `sampling.samples()` output records.
    pub fn start_sampling<I, O>(
        verilog: &str,
        top: &str,
        codec: C,
        vcd: Option<&Path>,
        sampling: Sampling,
    ) -> Result<Self, ToolError>
    where
        C: PortCodec<I, O>,
    {
        let (inputs, outputs) = (codec.inputs(), codec.outputs());
        let harness = harness_source(top, &inputs, &outputs, sampling);
        let exe = build(verilog, top, &harness, vcd.is_some())?;
        let mut command = Command::new(&exe);
        if let Some(path) = vcd {
            command.arg(path);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|source| ToolError::Run { tool: exe.display().to_string(), source })?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let output_words = record_words(&outputs) * sampling.samples();
        Ok(Self { codec, child, stdin: Some(stdin), stdout, words: Vec::new(), bytes: Vec::new(), output_words })
    }

    fn exchange<I, O>(&mut self, inputs: &[I], outputs: &mut Vec<O>) -> std::io::Result<()>
    where
        C: PortCodec<I, O>,
    {
        self.words.clear();
        for input in inputs {
            self.codec.encode(input, &mut self.words);
        }
        self.bytes.clear();
        self.bytes.extend_from_slice(&(inputs.len() as u32).to_ne_bytes());
        for word in &self.words {
            self.bytes.extend_from_slice(&word.to_ne_bytes());
        }
        let stdin = self.stdin.as_mut().expect("open until drop");
        stdin.write_all(&self.bytes)?;
        stdin.flush()?;
        self.bytes.resize(inputs.len() * self.output_words * 8, 0);
        self.stdout.read_exact(&mut self.bytes)?;
        self.words.clear();
        self.words.extend(self.bytes.chunks_exact(8).map(|b| u64::from_ne_bytes(b.try_into().expect("8 bytes"))));
        outputs.extend(self.words.chunks_exact(self.output_words).map(|record| self.codec.decode(record)));
        Ok(())
    }
}

impl<I, O, C: PortCodec<I, O>> Engine<I, O> for VerilatorEngine<C> {
    fn name(&self) -> &'static str {
        "verilator"
    }

    fn step(&mut self, inputs: &I) -> O {
        let mut outputs = Vec::with_capacity(1);
        self.step_batch(std::slice::from_ref(inputs), &mut outputs);
        outputs.pop().expect("one output per input")
    }

    fn step_batch(&mut self, inputs: &[I], outputs: &mut Vec<O>) {
        if let Err(err) = self.exchange(inputs, outputs) {
            panic!("the Verilator model stopped answering: {err}");
        }
    }
}

impl<C> Drop for VerilatorEngine<C> {
    fn drop(&mut self) {
        // Closing stdin ends the harness, which then closes its waveform.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_code_splits_wide_ports_into_32_bit_halves() {
        let inputs: PortList =
            [("reset", 1), ("events", 100), ("reg_wdata", 64)].map(|(n, w)| (n.to_string(), w)).into();
        let code = port_code(&inputs, true);
        assert!(code.contains("top->reset = (CData)in[0];"));
        assert!(code.contains("top->events[0] = (uint32_t)(in[1] >> 0);"));
        assert!(code.contains("top->events[3] = (uint32_t)(in[2] >> 32);"));
        assert!(code.contains("top->reg_wdata = (QData)in[3];"));
        assert_eq!(record_words(&inputs), 4);
        let out = port_code(&[("pmi".to_string(), 4), ("wide".to_string(), 70)], false);
        assert!(
            out.contains("out[1] = (uint64_t)top->wide[0];") && out.contains("out[1] |= (uint64_t)top->wide[1] << 32;")
        );
    }
}
