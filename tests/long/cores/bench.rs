//! A user's testbench of one real core (SERV or Ibex, from its pinned PyPI package)
//! with the generated `_rvfi` PMU of `--core <that core>` on its RVFI port, no glue:
//! the core, 64 KiB of RAM, a timer (compare at 0x1000_0020, time at 0x1000_0024,
//! its interrupt while time >= compare != 0) and an exit register (0x1000_0004).
//! Seven instances of the PMU (T = 1, K = 4) count the 14 events in each ring
//! (PERF_EVTSEL's USR or OS), programmed through their register ports by the C++
//! harness while the core is held in reset; the harness starts them all in one cycle,
//! releases the core, stops them in the cycle after the exit store, reads every
//! counter and writes the core's own retirement log.
use std::path::{Path, PathBuf};

use pmugen::design::rvfi::RvfiPmuDesign;
use pmugen::design::Design;
use pmugen::soc::cores::{CoreSources, PackagedCore};
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::pmu::regmap::{evtsel, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL};
use pmugen_hdl::rvfi::params::{Core, RvfiOptions, Xlen};
use pmugen_sim::tools::{cache_dir, run_tool, write, ToolError};
use pmugen_sim::verilator::cached_build;

/// PMU instances: 14 events x 2 rings over K = 4 counters each.
pub const INSTANCES: usize = 7;

/// What one run gave.
pub struct Run {
    /// The counter of (event bit, kernel ring) as the PMU read it.
    pub counts: Vec<[u64; 2]>,
    /// The cycle of the start write and of the stop write.
    pub window: (u64, u64),
    /// The core's retirement log: one line per retirement, `cycle pc_rdata pc_wdata
    /// insn mode trap intr rmask wmask` (the cycle in decimal, the rest in hex).
    pub log: String,
    /// The firmware's ELF.
    pub elf: PathBuf,
}

/// The counter (instance, k) of event bit `event` in ring `kernel`.
fn counter_of(event: usize, kernel: bool) -> (usize, usize) {
    let j = event * 2 + kernel as usize;
    (j / 4, j % 4)
}

/// The PMU the testbench instantiates for `core`.
fn pmu(core: Core) -> RvfiPmuDesign {
    let params = PmuParams::new(1, 4, 40, EventTable::riscv_table()).unwrap();
    RvfiPmuDesign::new(params, RvfiOptions::for_core(core, Xlen::Rv32), "riscv.json").unwrap()
}

/// The firmware for `core`, built with Debian's cross compiler into `dir`.
fn firmware(packaged: PackagedCore, dir: &Path) -> (PathBuf, PathBuf) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/long/cores/firmware");
    let (march, defines): (&str, &[&str]) = match packaged {
        PackagedCore::Serv => ("-march=rv32i", &[]),
        PackagedCore::Ibex => ("-march=rv32imc", &["-DUSER_MODE"]),
    };
    let elf = dir.join("workload.elf");
    let mut args =
        vec![march, "-misa-spec=2.2", "-mabi=ilp32", "-Os", "-ffreestanding", "-nostdlib", "-Wall", "-Werror"];
    args.extend(defines);
    let (start, link, c) = (source.join("start.S"), source.join("link.ld"), source.join("workload.c"));
    let paths = [start.to_str().unwrap(), c.to_str().unwrap()];
    args.extend(["-T", link.to_str().unwrap(), "-Wl,--no-warn-rwx-segments", "-o", elf.to_str().unwrap()]);
    args.extend(paths);
    args.push("-lgcc");
    let (ok, log) = run_tool("riscv64-unknown-elf-gcc", &args, dir).unwrap();
    assert!(ok, "building the firmware: {log}");
    let words = pmugen::soc::firmware::load(&elf).unwrap_or_else(|e| panic!("{e:#}"));
    let hex = dir.join("workload.hex");
    std::fs::write(&hex, pmugen::soc::firmware::hex(&words)).unwrap();
    (elf, hex)
}

/// The testbench's Verilog: the core's instance and bus (`core_part`) and the PMUs.
fn testbench(top: &str, core_part: &str) -> String {
    let pmus = format!(
        "genvar i;\ngenerate for (i = 0; i < {INSTANCES}; i = i + 1) begin : pmus\n    {top} pmu (.clock(clk), \
         .reset(pmu_rst),\n        .rvfi_valid(rvfi_valid), .rvfi_insn(rvfi_insn), .rvfi_trap(rvfi_trap), \
         .rvfi_intr(rvfi_intr), .rvfi_mode(rvfi_mode),\n        .rvfi_pc_rdata(rvfi_pc_rdata), \
         .rvfi_pc_wdata(rvfi_pc_wdata), .rvfi_mem_rmask(rvfi_mem_rmask), .rvfi_mem_wmask(rvfi_mem_wmask),\n        \
         .pm_mark(1'b1), .pid(32'd0), .pmi(), .reg_thread(2'd0), .reg_priv(1'b1), .reg_addr(reg_addr),\n        \
         .reg_wdata(reg_wdata[64*i +: 64]), .reg_write(reg_write[i]), .reg_read(reg_read[i]),\n        \
         .reg_rdata(reg_rdata[64*i +: 64]), .reg_fault(), .trace_data(), .trace_valid(), .trace_ready(1'b1), \
         .trace_last());\nend endgenerate\n"
    );
    format!(
        "module cores_tb(input clk, input pmu_rst, input cpu_rst, input [7:0] reg_addr,\n    input [{n1}:0] \
         reg_write, input [{n1}:0] reg_read, input [{w1}:0] reg_wdata, output [{w1}:0] reg_rdata,\n    output reg \
         exit_valid, output reg [31:0] exit_code,\n    output rvfi_valid, output [31:0] rvfi_insn, output rvfi_trap, \
         output rvfi_intr, output [1:0] rvfi_mode,\n    output [31:0] rvfi_pc_rdata, output [31:0] rvfi_pc_wdata, \
         output [3:0] rvfi_mem_rmask, output [3:0] rvfi_mem_wmask);\n\
         reg [31:0] mem [0:16383];\nreg [1023:0] image;\ninitial begin\n    if ($value$plusargs(\"firmware=%s\", \
         image)) $readmemh(image, mem);\nend\nreg [31:0] mtime = 0, mtimecmp = 0;\nwire timer_irq = mtimecmp != 0 && \
         mtime >= mtimecmp;\n\
         // A data access at `addr`: RAM below 0x1000_0000, else the timer and exit registers.\n\
         task automatic access(input [31:0] addr, input we, input [3:0] be, input [31:0] wdata, output [31:0] rdata,\n\
         output exit);\nbegin\n    rdata = addr[31:28] == 4'd0 ? mem[addr[15:2]] : addr[7:0] == 8'h24 ? mtime : \
         32'd0;\n    if (we && addr[31:28] == 4'd0) begin\n        if (be[0]) mem[addr[15:2]][7:0] = wdata[7:0];\n        \
         if (be[1]) mem[addr[15:2]][15:8] = wdata[15:8];\n        if (be[2]) mem[addr[15:2]][23:16] = wdata[23:16];\n        \
         if (be[3]) mem[addr[15:2]][31:24] = wdata[31:24];\n    end\n    if (we && addr == 32'h10000020) mtimecmp = \
         wdata;\n    exit = we && addr == 32'h10000004;\nend\nendtask\n\
         always @(posedge clk) mtime <= mtime + 1;\nreg [31:0] read_data;\nreg exit_hit;\n{core_part}{pmus}endmodule\n",
        n1 = INSTANCES - 1,
        w1 = 64 * INSTANCES - 1,
    )
}

/// The C++ harness: program, start, run to the exit store, stop, read, log.
fn harness(core: Core) -> String {
    let pmu = pmu(core);
    let table = &pmu.pmu.params.table;
    let mut selects = String::new();
    for instance in 0..INSTANCES {
        let mut row = Vec::new();
        for k in 0..4 {
            let j = instance * 4 + k;
            let (event, kernel) = (j / 2, j % 2 == 1);
            let ring = if kernel { evtsel::OS.lsb } else { evtsel::USR.lsb };
            let select = table.events[event].code as u64 | 1 << ring | 1 << evtsel::EN.lsb;
            row.push(format!("0x{select:x}ull"));
        }
        selects += &format!("{{{}}},", row.join(", "));
    }
    include_str!("harness.cpp")
        .replace("{INSTANCES}", &INSTANCES.to_string())
        .replace("{SELECTS}", &selects)
        .replace("{EVTSEL}", &PERF_EVTSEL.addr.to_string())
        .replace("{GLOBAL_CTRL}", &PERF_GLOBAL_CTRL.addr.to_string())
        .replace("{CNTR}", &PERF_CNTR.addr.to_string())
}

/// Build (once, cached under PMUGEN_CACHE) and run the testbench of `packaged` with
/// its `core` reader in `dir`.
pub fn run(packaged: PackagedCore, core: Core, core_part: &str, dir: &Path) -> Run {
    std::fs::create_dir_all(dir).unwrap();
    let sources: CoreSources = packaged.locate().unwrap_or_else(|e| panic!("{e:#}"));
    let design = pmu(core);
    let (top, pmu_verilog) = (design.top_name(), design.verilog().unwrap());
    let (tb, cpp) = (testbench(&top, core_part), harness(core));
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let texts: Vec<String> = sources.files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    // One translation unit, as pmugen builds its own models (sim/src/verilator.rs); the
    // flags are part of the cache's key.
    let flags = ["--cc", "--exe", "--build", "-O1", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-MAKEFLAGS"];
    let flags = [&flags[..], &["VM_PARALLEL_BUILDS=0"]].concat();
    std::hash::Hash::hash(&(&tb, &cpp, &pmu_verilog, &texts, &flags), &mut hasher);
    let model_dir =
        cache_dir().join("verilator").join(format!("cores_{top}-{:016x}", std::hash::Hasher::finish(&hasher)));
    let model = cached_build(&model_dir, "obj/harness", |work| {
        write(&work.join("cores_tb.v"), &tb)?;
        write(&work.join("pmu.v"), &pmu_verilog)?;
        write(&work.join("harness.cpp"), &cpp)?;
        let define = format!("-D{}", sources.rvfi_define);
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend([define, "--top-module".into(), "cores_tb".into(), "--Mdir".into(), "obj".into()]);
        args.extend(["-o".into(), "harness".into()]);
        args.extend(sources.include_dirs.iter().map(|d| format!("+incdir+{}", d.display())));
        args.extend(sources.files.iter().map(|f| f.display().to_string()));
        args.extend(["pmu.v".into(), "cores_tb.v".into(), "harness.cpp".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        eprintln!("building the testbench of {} with {top} (once; cached)", sources.origin);
        let (ok, log) = run_tool("verilator", &args, work)?;
        if ok {
            Ok(())
        } else {
            Err(ToolError::Refused {
                what: format!("the Verilator build of {} with {top}", sources.origin),
                output: log,
            })
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let (elf, hex) = firmware(packaged, dir);
    let log_path = dir.join("rvfi.log");
    let output = std::process::Command::new(&model)
        .arg(format!("+firmware={}", hex.display()))
        .arg(log_path.to_str().unwrap())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "the testbench failed: {stdout}{}", String::from_utf8_lossy(&output.stderr));
    parse(&stdout, std::fs::read_to_string(&log_path).unwrap(), elf)
}

/// The harness's output: `window W S`, `exit CODE`, `count I K VALUE` lines.
fn parse(stdout: &str, log: String, elf: PathBuf) -> Run {
    let mut run = Run { counts: vec![[0; 2]; 14], window: (0, 0), log, elf };
    for line in stdout.lines() {
        let fields: Vec<u64> = line.split_whitespace().skip(1).filter_map(|f| f.parse().ok()).collect();
        match line.split_whitespace().next() {
            Some("window") => run.window = (fields[0], fields[1]),
            Some("exit") => assert_eq!(fields[0], 0, "the firmware failed:\n{stdout}"),
            Some("count") => {
                let (instance, k) = (fields[0] as usize, fields[1] as usize);
                let j = instance * 4 + k;
                run.counts[j / 2][j % 2] = fields[2];
                assert_eq!(counter_of(j / 2, j % 2 == 1), (instance, k));
            }
            _ => {}
        }
    }
    assert!(run.window.1 > run.window.0, "no window in the harness's output:\n{stdout}");
    run
}
