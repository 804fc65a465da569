//! pmugen: generate, simulate and report synthesizable performance-monitoring hardware.
mod cli;
mod report_cli;
mod rvfi_flags;
mod sweep_cli;

use anyhow::{bail, Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use cli::{EngineChoice, MonitorArgs, PmuArgs, RunArgs};
use pmugen::design::any::{AnyDesign, DesignCommand};
use pmugen::design::{self, Design};
use pmugen::host::command::HostAction;
use pmugen::toolchain::Tool;
use pmugen::{bench, generate, report, simulate};
use pmugen_hdl::bus::Bus;
use pmugen_hdl::params::MonitorParams;
use pmugen_sim::ports::pmu::{DEFAULT_ADDRESS_WIDTH, DEFAULT_TRACE_DEPTH};
use pmugen_sim::ports::Signals;
use rvfi_flags::{MonitorRvfiArgs, RvfiArgs};

#[derive(Parser)]
#[command(
    name = "pmugen",
    version,
    about = "Generate, simulate and report synthesizable performance-monitoring hardware",
    after_help = "Example:\n  pmugen generate monitor --events 8 --order-width 3 --out generated\n  \
                  pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --out generated\n  \
                  pmugen simulate pmu --cycles 200000 --seed 1 --engine all\n  \
                  pmugen report pmu --threads 1"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `pmugen trace` does.
#[derive(Subcommand)]
enum TraceAction {
    /// Decode a captured stream (hex words or a VCD) into the trace of blocks and the
    /// per-block totals: tables on the terminal, trace.csv and totals.csv in --out.
    #[command(
        after_help = "Example:\n  pmugen trace decode capture.vcd --design generated/pmu_knc_t4_k2_c40_design.json --out target/trace"
    )]
    Decode(pmugen::trace::command::DecodeArgs),
}

#[derive(Subcommand)]
enum Command {
    /// Write the Verilog of a design, with its C header and tables.
    #[command(after_help = "Example:\n  pmugen generate monitor --events 8 --order-width 3 --out generated\n  \
                            pmugen generate pmu --threads 2 --counters 4 --counter-width 48 --event-table my_events.json")]
    Generate {
        #[command(subcommand)]
        design: DesignWithOut,
    },
    /// Simulate a design against its reference model on seeded random stimulus.
    #[command(
        after_help = "Example:\n  pmugen simulate monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --vcd target/m.vcd\n  \
                            pmugen simulate pmu --cycles 1000000 --engine all"
    )]
    Simulate {
        #[command(subcommand)]
        design: DesignWithRun,
    },
    /// Check the budget, synthesize with yosys and place with nextpnr on iCE40, ECP5, Gowin or xc7, write reports.
    #[command(
        after_help = "Example:\n  pmugen report monitor --events 8 --order-width 3 --out target/pmugen/report\n  \
                            pmugen report monitor --sweep --order-width 3\n  pmugen report pmu --threads 4 --counters 2\n  \
                            pmugen report pmu --device lfe5u-85f\n  pmugen report monitor --family all"
    )]
    Report {
        #[command(subcommand)]
        design: report_cli::ReportDesign,
    },
    /// Benchmark native vs Verilator simulation speed over a few sizes.
    #[command(after_help = "Example:\n  pmugen bench monitor --cycles 200000\n  pmugen bench pmu --cycles 200000")]
    Bench {
        #[command(subcommand)]
        design: BenchDesign,
    },
    /// Build a bitstream for a board (monitor N=8, W=3, UART 115200 baud) with yosys, nextpnr and icepack or ecppack.
    #[command(
        after_help = "Example:\n  pmugen build --board icebreaker\n  pmugen build --board hx8k --out target/hx8k\n  \
                      pmugen build --board ulx3s"
    )]
    Build {
        /// The board.
        #[arg(long, value_enum)]
        board: pmugen::build::BoardName,
        /// Output directory (default target/pmugen/board-<board>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The yosys and nextpnr: current (the pinned YoWASP packages, the default) or debian.
        #[arg(long, value_enum, value_name = "TOOLS", default_value = "current")]
        toolchain: pmugen::toolchain::Toolchain,
    },
    /// Talk to a board built by `pmugen build` over its UART.
    #[command(after_help = "Example:\n  pmugen host --port /dev/ttyUSB1 order E3=1,E1=2,E7=3\n  \
                  pmugen host --port /dev/ttyUSB1 open\n  pmugen host --port /dev/ttyUSB1 count\n  \
                  pmugen host --port /dev/ttyUSB1 frames --count 3")]
    Host {
        /// Serial device of the board's UART.
        #[arg(long, value_name = "PATH")]
        port: String,
        /// Baud rate (the board builds use 115200).
        #[arg(long, default_value = "115200")]
        baud: u32,
        #[command(subcommand)]
        action: HostAction,
    },
    /// Work with a PMU's counter-level trace stream.
    #[command(
        after_help = "Example:\n  pmugen trace decode capture.vcd --design generated/pmu_knc_t4_k2_c40_design.json\n  \
                            pmugen trace decode words.hex --threads 1 --counters 2 --counter-width 40 --address-width 32"
    )]
    Trace {
        #[command(subcommand)]
        action: TraceAction,
    },
    /// Plan the measurement of more events than a core has counters over C cores, merge
    /// the counts read back, or run a plan on simulated PMUs (docs/pmu.md §14).
    #[command(after_help = "Example:\n  pmugen plan --events CPU_CLK_UNHALTED,BRANCHES,DATA_READ --cores 12\n  \
                            pmugen plan --merge counts.json --plan target/pmugen/plan/plan.json --low 100\n  \
                            pmugen plan --events BRANCHES,DATA_READ --cores 6 --simulate --stuck-core 1 --engine all")]
    Plan {
        #[command(flatten)]
        pmu: PmuArgs,
        #[command(flatten)]
        plan: pmugen::plan::command::PlanArgs,
    },
    /// The reference SoC (docs/soc.md §2): PicoRV32 with RAM, a console, the PMU, the
    /// monitor and a trace sink. Alone it generates the SoC and builds the example
    /// firmware; `soc build` compiles C firmware, `soc run` runs it under Verilator;
    /// `--board` builds it for an iCE40 board (docs/soc.md §5).
    #[command(after_help = "Example:\n  pmugen soc --out target/pmugen/soc\n  \
                            pmugen soc build my.c --out target/pmugen/soc\n  \
                            pmugen soc run target/pmugen/soc/my.elf --rvfi-log target/my.rvfi\n  \
                            pmugen soc --board icebreaker            # bitstream of the largest system that fits\n  \
                            pmugen soc --board hx8k --simulate       # that system under Verilator, UART decoded")]
    Soc(pmugen::soc::command::SocArgs),
    /// Profile a program from its captured trace (docs/soc.md §4): per block and per
    /// function, each counter's total under its event name, sorted by an event; tables
    /// on the terminal, blocks.csv, functions.csv and an annotated disassembly in --out.
    #[command(after_help = "Example:\n  pmugen soc run target/pmugen/soc/examples/profile.elf\n  \
                            pmugen profile target/pmugen/soc/trace.hex --elf target/pmugen/soc/examples/profile.elf \\\n      \
                            --design target/pmugen/soc/pmu_riscv_t1_k4_c40_p1024_rvfi_picorv32_design.json --sort BRANCH_TAKEN")]
    Profile(pmugen::profile::command::ProfileArgs),
    /// Check the formal properties of a design with SymbiYosys (docs/formal.md):
    /// bounded, proved by k-induction, or their corners covered.
    #[command(after_help = "Example:\n  pmugen prove pmu --threads 1 --counters 1 --trace-depth 2 --mode prove\n  \
                            pmugen prove pmu --mode bmc --depth 12\n  \
                            pmugen prove monitor --events 3 --mode prove\n  \
                            pmugen prove pmu --threads 1 --counters 1 --trace-depth 2 --verilog my_edit.v")]
    Prove {
        #[command(subcommand)]
        design: ProveDesign,
    },
    /// The main job: generate + simulate + report for one configuration.
    #[command(
        after_help = "Example:\n  pmugen flow monitor --events 8 --order-width 3 --cycles 200000\n  pmugen flow pmu --cycles 200000 --no-fmax"
    )]
    Flow {
        #[command(subcommand)]
        design: DesignWithFlow,
    },
}

#[derive(Subcommand)]
enum DesignWithOut {
    /// The event-order monitor.
    #[command(
        after_help = "Example:\n  pmugen generate monitor --events 2 --order-width 2 --rvfi --rvfi-events CALL,RETURN"
    )]
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        #[command(flatten)]
        rvfi: MonitorRvfiArgs,
        /// Output directory.
        #[arg(long, value_name = "DIR", default_value = "target/pmugen")]
        out: PathBuf,
        /// Wrap the design in a bus slave: top `<top>_axil` (AXI4-Lite) or `<top>_wb`
        /// (Wishbone B4 classic), docs/bus.md.
        #[arg(long, value_name = "BUS", default_value = "none", value_parser = cli::parse_bus)]
        bus: Bus,
        /// Refused: the monitor's bus is as wide as its 32-bit registers (the flag is
        /// the PMU's).
        #[arg(long, value_name = "BITS", value_parser = cli::parse_bus_width, hide = true)]
        bus_width: Option<usize>,
        /// With --bus wishbone: also write <top>_litex.py, the design as a LiteX module
        /// (add_to_soc; docs/litex.md).
        #[arg(long)]
        litex: bool,
    },
    /// The Knights Corner-style core PMU.
    #[command(after_help = "Example:\n  pmugen generate pmu --threads 1 --counters 4 --rvfi --bus wishbone")]
    Pmu {
        #[command(flatten)]
        pmu: PmuArgs,
        #[command(flatten)]
        rvfi: RvfiArgs,
        /// Output directory.
        #[arg(long, value_name = "DIR", default_value = "target/pmugen")]
        out: PathBuf,
        /// Wrap the design in a bus slave: top `<top>_axil` (AXI4-Lite) or `<top>_wb`
        /// (Wishbone B4 classic), docs/bus.md.
        #[arg(long, value_name = "BUS", default_value = "none", value_parser = cli::parse_bus)]
        bus: Bus,
        /// The slave's data width with --bus: 64 (default, one word per register) or
        /// 32 (for 32-bit CPUs: each 64-bit register is two words, +0 low and +4 high,
        /// read low then high, written high then low; top `<top>_axil32` / `<top>_wb32`,
        /// docs/bus.md §8).
        #[arg(long, value_name = "BITS", value_parser = cli::parse_bus_width)]
        bus_width: Option<usize>,
        /// With --bus wishbone --bus-width 32: also write <top>_litex.py, the design as a
        /// LiteX module (add_to_soc; docs/litex.md).
        #[arg(long)]
        litex: bool,
    },
}

#[derive(Subcommand)]
enum DesignWithRun {
    /// The event-order monitor.
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        #[command(flatten)]
        rvfi: MonitorRvfiArgs,
        #[command(flatten)]
        run: RunArgs,
    },
    /// The Knights Corner-style core PMU.
    Pmu {
        #[command(flatten)]
        pmu: PmuArgs,
        #[command(flatten)]
        rvfi: RvfiArgs,
        #[command(flatten)]
        run: RunArgs,
    },
}

#[derive(Subcommand)]
enum DesignWithFlow {
    /// The event-order monitor.
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        #[command(flatten)]
        run: RunArgs,
        /// Output directory for the Verilog and the reports (default target/pmugen/<top>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// The Knights Corner-style core PMU.
    Pmu {
        #[command(flatten)]
        pmu: PmuArgs,
        #[command(flatten)]
        run: RunArgs,
        /// Output directory for the Verilog and the reports (default target/pmugen/<top>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Count logic cells and check the fit, but skip the pin-harness placement that
        /// measures Fmax (the longest step: half an hour for the default on 2 cores);
        /// `pmugen report pmu` measures it.
        #[arg(long)]
        no_fmax: bool,
    },
}

#[derive(Subcommand)]
enum ProveDesign {
    /// The event-order monitor.
    #[command(after_help = "Example:\n  pmugen prove monitor --events 4 --order-width 2 --mode prove")]
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        #[command(flatten)]
        rvfi: MonitorRvfiArgs,
        #[command(flatten)]
        prove: pmugen::prove::ProveArgs,
    },
    /// The Knights Corner-style core PMU.
    #[command(after_help = "Example:\n  pmugen prove pmu --threads 1 --counters 1 --trace-depth 2 --mode prove\n  \
                            pmugen prove pmu --threads 2 --counters 2 --trace-depth 2 --narrow 8")]
    Pmu {
        #[command(flatten)]
        pmu: PmuArgs,
        #[command(flatten)]
        rvfi: RvfiArgs,
        /// Counters of BITS bits instead of CW, for the proof only (docs/formal.md §4):
        /// overflows come within a few cycles and the solver works on narrower sums.
        #[arg(long, value_name = "BITS", conflicts_with = "rvfi")]
        narrow: Option<usize>,
        #[command(flatten)]
        prove: pmugen::prove::ProveArgs,
    },
}

#[derive(Subcommand)]
enum BenchDesign {
    /// The event-order monitor at (N, W) = (4, 3), (8, 3), (16, 4), (32, 5).
    Monitor {
        /// Cycles per engine and configuration.
        #[arg(long, value_name = "C", default_value = "200000", value_parser = cli::parse_cycles)]
        cycles: u64,
        /// Stimulus seed.
        #[arg(long, value_name = "S", default_value = "1", value_parser = cli::parse_seed, allow_hyphen_values = true)]
        seed: u64,
    },
    /// The reference SoC (docs/soc.md §2) under Verilator: a load/store/branch loop, a
    /// warm-cache `soc run` of the example count.c, and `profile` of a one-million-word
    /// capture of a firmware that fills most of the RAM.
    Soc {
        /// Cycles of the loop.
        #[arg(long, value_name = "C", default_value = "20000000", value_parser = cli::parse_cycles)]
        cycles: u64,
        /// The SoC's directory (generated there first, the model cached there).
        #[arg(long, value_name = "DIR", default_value = pmugen::soc::command::DEFAULT_OUT)]
        out: PathBuf,
    },
    /// The PMU with the default table at (T, K, CW) = (1, 2, 40), (4, 2, 40), (4, 4, 64).
    Pmu {
        /// Cycles per engine and configuration.
        #[arg(long, value_name = "C", default_value = "200000", value_parser = cli::parse_cycles)]
        cycles: u64,
        /// Stimulus seed.
        #[arg(long, value_name = "S", default_value = "1", value_parser = cli::parse_seed, allow_hyphen_values = true)]
        seed: u64,
    },
}

fn default_dir(top: &str) -> PathBuf {
    PathBuf::from("target/pmugen").join(top)
}

/// The `--vcd` file, created (with its directory): a directory or an unwritable path
/// is refused naming it.
fn create_vcd(path: &Path) -> Result<std::fs::File> {
    if path.is_dir() {
        bail!("--vcd {}: is a directory; give a file name, e.g. {}", path.display(), path.join("run.vcd").display());
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("--vcd {}: cannot create its directory", path.display()))?;
    }
    std::fs::File::create(path).with_context(|| format!("--vcd {}: cannot write", path.display()))
}

fn run_simulation<I: Clone + Debug, O: Signals + Clone>(
    design: &dyn Design<I, O>,
    args: &RunArgs,
    default_engine: EngineChoice,
) -> Result<()> {
    let engine = args.engine.unwrap_or(default_engine);
    // A waveform file is opened here, before any engine starts, so that a path that
    // cannot be written stops the run naming it (Verilator then writes the same file).
    let vcd_file = match &args.vcd {
        Some(path) => Some(create_vcd(path)?),
        None => None,
    };
    let mut engines = Vec::new();
    if engine.native() {
        engines.push(design.native(vcd_file.filter(|_| engine == EngineChoice::Native)));
    }
    if engine.verilator() {
        engines.push(design.verilator(args.vcd.as_deref()).map_err(anyhow::Error::msg)?);
    }
    let names: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    println!(
        "simulate {}: {} cycles, seed {}, engines reference + {}",
        design.top_name(),
        args.cycles,
        args.seed,
        names.join(" + ")
    );
    let summary = simulate::lockstep(design, &mut engines, args.cycles, args.seed);
    drop(engines);
    if let Some(path) = &args.vcd {
        if std::fs::metadata(path).map_or(true, |m| m.len() == 0) {
            bail!("--vcd {}: no waveform was written", path.display());
        }
    }
    println!("cycles:          {}", summary.cycles);
    let active: Vec<String> = summary.active.iter().map(|(name, count)| format!("{name} {count}")).collect();
    println!("non-zero cycles: {} (reference outputs)", active.join(", "));
    for (name, _) in &summary.engine_time {
        println!("{name:<8} speed:  {:.0} cycles/s", summary.rate(name).unwrap_or(0.0));
    }
    if let Some(path) = &args.vcd {
        println!("waveform:        {}", path.display());
    }
    match &summary.mismatch {
        None => {
            println!("mismatches:      0");
            Ok(())
        }
        Some(mismatch) => {
            println!("mismatches:      1 (run stopped)");
            println!("cycle {}: {} differs:", mismatch.cycle, mismatch.signal);
            for (engine, value) in &mismatch.values {
                println!("  {engine:<10} {value:#x}");
            }
            println!("  inputs: {:?}", mismatch.inputs);
            println!(
                "reproduce: cargo run --release -- simulate {} --cycles {} --seed {} --engine {} --vcd target/mismatch.vcd",
                design.arguments(),
                mismatch.cycle + 1,
                args.seed,
                engine.to_possible_value().expect("named").get_name()
            );
            bail!("simulation mismatch at cycle {}", mismatch.cycle)
        }
    }
}

/// `generate`: the design's files into `out`.
struct Generate<'a> {
    bus: Bus,
    litex: bool,
    out: &'a Path,
}

impl DesignCommand for Generate<'_> {
    type Output = Vec<PathBuf>;
    fn run<I: Clone + Debug + 'static, O: Signals + Clone + 'static>(
        self,
        design: &dyn Design<I, O>,
    ) -> Result<Vec<PathBuf>> {
        generate::write(design, self.bus, self.litex, self.out)
    }
}

/// `simulate`: the engines in lockstep with the reference model.
struct Simulate<'a> {
    run: &'a RunArgs,
    default_engine: EngineChoice,
}

impl DesignCommand for Simulate<'_> {
    type Output = ();
    fn run<I: Clone + Debug + 'static, O: Signals + Clone + 'static>(self, design: &dyn Design<I, O>) -> Result<()> {
        run_simulation(design, self.run, self.default_engine)
    }
}

/// `prove`: SymbiYosys on the design's properties; whether every one passed.
struct Prove<'a>(&'a pmugen::prove::ProveArgs);

impl DesignCommand for Prove<'_> {
    type Output = bool;
    fn run<I: Clone + Debug + 'static, O: Signals + Clone + 'static>(self, design: &dyn Design<I, O>) -> Result<bool> {
        pmugen::prove::command::run(design, self.0)
    }
}

fn flow<I: Clone + Debug, O: Signals + Clone>(
    design: &dyn Design<I, O>,
    run: &RunArgs,
    out: &Path,
    report: impl FnOnce() -> Result<()>,
) -> Result<()> {
    // Every tool the whole flow needs is checked before anything is written or run.
    report::Options::default().toolchain.require(&[Tool::Yosys, Tool::NextpnrIce40])?;
    if run.engine.unwrap_or(EngineChoice::All).verilator() {
        pmugen_sim::tools::require(&["verilator"]).map_err(anyhow::Error::msg)?;
    }
    let paths = generate::write(design, Bus::Bare, false, out)?;
    println!("{}", generate::summary(&paths));
    run_simulation(design, run, EngineChoice::All)?;
    report()
}

fn main() -> Result<()> {
    // Piped into `head` and the like, stop quietly when the reader goes away, as other
    // command-line tools do, instead of panicking on a failed print.
    // SAFETY: called once at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // `sweep` is built from `report`'s own flags (src/sweep_cli.rs), so it joins here.
    let matches = Cli::command().subcommand(sweep_cli::command()).get_matches();
    if let Some(("sweep", matches)) = matches.subcommand() {
        return sweep_cli::run(matches);
    }
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    match cli.command {
        Command::Generate { design: DesignWithOut::Monitor { monitor, rvfi, out, bus, bus_width, litex } } => {
            let bus = cli::monitor_bus(bus, bus_width)?;
            let paths = rvfi.any_design(&monitor)?.run(Generate { bus, litex, out: &out })?;
            println!("{}", generate::summary(&paths));
        }
        Command::Generate { design: DesignWithOut::Pmu { pmu, rvfi, out, bus, bus_width, litex } } => {
            let bus = cli::pmu_bus(bus, bus_width)?;
            let paths = rvfi.any_design(&pmu)?.run(Generate { bus, litex, out: &out })?;
            println!("{}", generate::summary(&paths));
        }
        Command::Simulate { design: DesignWithRun::Monitor { monitor, rvfi, run } } => {
            rvfi.any_design(&monitor)?.run(Simulate { run: &run, default_engine: EngineChoice::Native })?
        }
        Command::Simulate { design: DesignWithRun::Pmu { pmu, rvfi, run } } => {
            rvfi.any_design(&pmu)?.run(Simulate { run: &run, default_engine: EngineChoice::Native })?
        }
        Command::Report { design } => report_cli::run(design)?,
        Command::Prove { design } => {
            let (design, prove) = match design {
                ProveDesign::Monitor { monitor, rvfi, prove } => (rvfi.any_design(&monitor)?, prove),
                ProveDesign::Pmu { pmu, rvfi, narrow, prove } => match (rvfi.options()?, narrow) {
                    (None, Some(bits)) => {
                        let params = pmugen::prove::command::narrowed(pmu.params()?, bits)?;
                        (AnyDesign::Pmu(pmugen::design::pmu::PmuDesign::new(params)), prove)
                    }
                    _ => (rvfi.any_design(&pmu)?, prove),
                },
            };
            if !design.run(Prove(&prove))? {
                std::process::exit(1);
            }
        }
        Command::Build { board: name, out, toolchain } => {
            let name = name.name();
            let board = pmugen::build::board(name)?;
            let out = out.unwrap_or_else(|| PathBuf::from(format!("target/pmugen/board-{name}")));
            let summary = pmugen::build::build(&board, toolchain, &out)?;
            print!("{}", summary.markdown);
            println!("wrote {}", summary.bitstream.display());
        }
        Command::Soc(args) => {
            let code = pmugen::soc::command::main(args)?;
            if code != 0 {
                std::process::exit(code);
            }
        }
        Command::Plan { pmu, plan } => pmugen::plan::command::run(&plan, || pmu.design())?,
        Command::Trace { action: TraceAction::Decode(args) } => pmugen::trace::command::run(&args)?,
        Command::Profile(args) => pmugen::profile::command::run(&args)?,
        Command::Host { port, baud, action } => pmugen::host::command::run(&port, baud, action)?,
        Command::Bench { design: BenchDesign::Monitor { cycles, seed } } => {
            let mut rows = Vec::new();
            for (events, order_width) in [(4, 3), (8, 3), (16, 4), (32, 5)] {
                let design = design::monitor(MonitorParams { events, order_width, options: Default::default() });
                eprintln!("bench {} ...", design.top_name());
                let columns = vec![events.to_string(), order_width.to_string()];
                rows.push(bench::measure(design.as_ref(), columns, cycles, seed).map_err(anyhow::Error::msg)?);
            }
            print!("{}", bench::markdown(&["N", "W"], &rows, cycles));
        }
        Command::Bench { design: BenchDesign::Pmu { cycles, seed } } => {
            let mut rows = Vec::new();
            for (threads, counters, counter_width) in [(1, 2, 40), (4, 2, 40), (4, 4, 64)] {
                let args = PmuArgs {
                    threads,
                    counters,
                    counter_width,
                    event_table: None,
                    trace_depth: DEFAULT_TRACE_DEPTH,
                    address_width: DEFAULT_ADDRESS_WIDTH,
                    profile_entries: 0,
                };
                let design = args.design()?;
                eprintln!("bench {} ...", design.top_name());
                let columns = vec![threads.to_string(), counters.to_string(), counter_width.to_string()];
                rows.push(bench::measure(&design, columns, cycles, seed).map_err(anyhow::Error::msg)?);
            }
            print!("{}", bench::markdown(&["T", "K", "CW"], &rows, cycles));
        }
        Command::Bench { design: BenchDesign::Soc { cycles, out } } => {
            let code = pmugen::soc::command::main(pmugen::soc::command::SocArgs {
                action: None,
                out: Some(out.clone()),
                board: None,
                toolchain: Default::default(),
                no_fmax: false,
                counters: None,
                no_monitor: false,
                simulate: false,
                system: Default::default(),
            })?;
            assert_eq!(code, 0);
            let speed = pmugen::soc::bench::speed(&out, cycles)?;
            let exe = std::env::current_exe()?;
            let warm = pmugen::soc::bench::warm_run(&exe, &out)?;
            eprintln!("bench: profile of a generated capture ...");
            let profile = pmugen::profile::bench::measure(&exe, &out.join("bench-profile"))?;
            eprintln!("bench: profile.c untraced, drained and summarized ...");
            let runs = pmugen::soc::bench::profiling_cost(&exe, &out)?;
            println!("| loop cycles | Verilator speed | warm-cache soc run of count.elf | profile: capture, firmware image, time |");
            println!("|---:|---:|---:|---:|");
            println!(
                "| {cycles} | {:.2} M cycles/s | {warm:.2} s | {} words, {} KiB, {:.2} s |",
                speed / 1e6,
                profile.words,
                profile.image_bytes / 1024,
                profile.seconds
            );
            print!("{}", pmugen::soc::bench::profiling_table(&runs));
        }
        Command::Flow { design: DesignWithFlow::Monitor { monitor, run, out } } => {
            let params = monitor.params();
            let out = out.unwrap_or_else(|| default_dir(&params.top_name()));
            let options = report::Options::default();
            flow(design::monitor(params).as_ref(), &run, &out, || {
                report::run_or_reuse(&params, &out, &options).map(drop)
            })?;
        }
        Command::Flow { design: DesignWithFlow::Pmu { pmu, run, out, no_fmax } } => {
            let design = pmu.design()?;
            let out = out.unwrap_or_else(|| default_dir(&design.top_name()));
            let options = report::Options { fmax: !no_fmax, ..Default::default() };
            flow(&design, &run, &out, || report::run_or_reuse(&design, &out, &options).map(drop))?;
        }
    }
    Ok(())
}
