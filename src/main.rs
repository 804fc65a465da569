//! pmugen: generate, simulate and report synthesizable performance-monitoring hardware.
use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

use pmugen::host::command::HostAction;
use pmugen::{bench, generate, report, simulate};
use pmugen_hdl::params::{self, MonitorParams};

#[derive(Parser)]
#[command(
    name = "pmugen",
    version,
    about = "Generate, simulate and report synthesizable performance-monitoring hardware",
    after_help = "Example:\n  pmugen generate monitor --events 8 --order-width 3 --out generated\n  \
                  pmugen simulate monitor --events 8 --order-width 3 --cycles 200000 --seed 1\n  \
                  pmugen report monitor --events 8 --order-width 3"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the Verilog of a design.
    #[command(after_help = "Example:\n  pmugen generate monitor --events 8 --order-width 3 --out generated")]
    Generate {
        #[command(subcommand)]
        design: GenerateDesign,
    },
    /// Simulate a design against the reference model on seeded random stimulus.
    #[command(after_help = "Example:\n  pmugen simulate monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --vcd target/m.vcd")]
    Simulate {
        #[command(subcommand)]
        design: SimulateDesign,
    },
    /// Synthesize with yosys, place with nextpnr-ice40, check the budget, write reports.
    #[command(
        after_help = "Example:\n  pmugen report monitor --events 8 --order-width 3 --out target/pmugen/report\n  \
                      pmugen report monitor --sweep --order-width 3"
    )]
    Report {
        #[command(subcommand)]
        design: ReportDesign,
    },
    /// Benchmark native vs Verilator simulation speed for N = 4, 8, 16, 32.
    #[command(after_help = "Example:\n  pmugen bench monitor --cycles 200000")]
    Bench {
        #[command(subcommand)]
        design: BenchDesign,
    },
    /// Build a bitstream for a board (N=8, W=3, UART 115200 baud) with yosys, nextpnr-ice40 and icepack.
    #[command(after_help = "Example:\n  pmugen build --board icebreaker\n  pmugen build --board hx8k --out target/hx8k")]
    Build {
        /// The board.
        #[arg(long, value_enum)]
        board: BoardName,
        /// Output directory (default target/pmugen/board-<board>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
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
    /// The main job: generate + simulate + report for one configuration.
    #[command(after_help = "Example:\n  pmugen flow monitor --events 8 --order-width 3 --cycles 200000")]
    Flow {
        #[command(subcommand)]
        design: FlowDesign,
    },
}

/// Parameters of an event-order monitor (SPEC A.1).
#[derive(Args, Clone, Copy)]
struct MonitorArgs {
    /// N: number of event inputs (2..=32).
    #[arg(long = "events", value_name = "N", default_value = "8", value_parser = parse_events, allow_hyphen_values = true)]
    events: usize,
    /// W: order width in bits per event (2..=8).
    #[arg(long = "order-width", value_name = "W", default_value = "3", value_parser = parse_order_width, allow_hyphen_values = true)]
    order_width: usize,
}

impl MonitorArgs {
    fn params(self) -> MonitorParams {
        MonitorParams { events: self.events, order_width: self.order_width }
    }
}

fn parse_parameter(parameter: params::Parameter, text: &str) -> Result<usize, String> {
    let value: u64 = text.trim().parse().map_err(|_| {
        format!(
            "{} ({}) = '{text}' is not a number; allowed range {}..={}",
            parameter.flag, parameter.name, parameter.min, parameter.max
        )
    })?;
    parameter.check(value).map_err(|err| err.to_string())
}

fn parse_events(text: &str) -> Result<usize, String> {
    parse_parameter(params::EVENTS, text)
}

fn parse_order_width(text: &str) -> Result<usize, String> {
    parse_parameter(params::ORDER_WIDTH, text)
}

fn parse_cycles(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(value) if (1..=10_000_000_000).contains(&value) => Ok(value),
        _ => Err(format!("--cycles = '{text}' is not a number in range 1..=10000000000")),
    }
}

#[derive(Subcommand)]
enum GenerateDesign {
    /// The event-order monitor (SPEC part A).
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        /// Output directory; the file is DIR/event_order_monitor_n{N}_w{W}.v.
        #[arg(long, value_name = "DIR", default_value = "target/pmugen")]
        out: PathBuf,
    },
}

/// Boards with a bitstream flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BoardName {
    /// iCEBreaker, iCE40UP5K-SG48, 12 MHz.
    Icebreaker,
    /// iCE40-HX8K Breakout Board, iCE40HX8K-CT256, 12 MHz.
    Hx8k,
}

/// Which simulation engines run next to the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Engine {
    /// The rust-hdl model, natively.
    Native,
    /// The generated Verilog compiled with Verilator.
    Verilator,
    /// Both, in lockstep with the reference model.
    All,
}

#[derive(Args, Clone)]
struct SimulateArgs {
    #[command(flatten)]
    monitor: MonitorArgs,
    /// Number of clock cycles.
    #[arg(long, value_name = "C", default_value = "100000", value_parser = parse_cycles)]
    cycles: u64,
    /// Stimulus seed (the same seed gives the same stimulus on every engine).
    #[arg(long, value_name = "S", default_value = "1")]
    seed: u64,
    /// Engines to compare with the reference model.
    #[arg(long, value_enum, default_value = "native")]
    engine: Engine,
    /// Write a VCD waveform to FILE: from the native model with `--engine native`,
    /// from Verilator (`--trace`) with `verilator` or `all`.
    #[arg(long, value_name = "FILE")]
    vcd: Option<PathBuf>,
}

#[derive(Subcommand)]
enum SimulateDesign {
    /// The event-order monitor (SPEC part A).
    Monitor(SimulateArgs),
}

#[derive(Subcommand)]
enum ReportDesign {
    /// The event-order monitor (SPEC part A).
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        /// Output directory for the Verilog, netlists, report.md and report.json.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Sweep N (ignores --events): a report per N, plus sweep.md/json/svg in DIR
        /// (default target/pmugen/sweep_w{W}).
        #[arg(long)]
        sweep: bool,
        /// The N values of the sweep, comma separated (default 2,4,6,8,10,12,16,20,24,28,32).
        #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_events, requires = "sweep")]
        sweep_events: Vec<usize>,
    },
}

#[derive(Subcommand)]
enum BenchDesign {
    /// The event-order monitor (SPEC part A) at (N, W) = (4, 3), (8, 3), (16, 4), (32, 5).
    Monitor {
        /// Cycles per engine and configuration.
        #[arg(long, value_name = "C", default_value = "200000", value_parser = parse_cycles)]
        cycles: u64,
        /// Stimulus seed.
        #[arg(long, value_name = "S", default_value = "1")]
        seed: u64,
    },
}

#[derive(Subcommand)]
enum FlowDesign {
    /// The event-order monitor (SPEC part A).
    Monitor {
        #[command(flatten)]
        simulate: SimulateArgs,
        /// Output directory for the Verilog and the reports.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

fn default_report_dir(params: MonitorParams) -> PathBuf {
    PathBuf::from("target/pmugen").join(params.top_name())
}

fn run_simulation(args: &SimulateArgs) -> Result<()> {
    let params = args.monitor.params();
    let design = pmugen::design::monitor(params);
    if let Some(parent) = args.vcd.as_deref().and_then(|p| p.parent()).filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let mut engines = Vec::new();
    if matches!(args.engine, Engine::Native | Engine::All) {
        engines.push(match (&args.vcd, args.engine) {
            (Some(path), Engine::Native) => design.native_with_vcd(std::fs::File::create(path)?),
            _ => design.native(),
        });
    }
    if matches!(args.engine, Engine::Verilator | Engine::All) {
        engines.push(design.verilator(args.vcd.as_deref()).map_err(anyhow::Error::msg)?);
    }
    println!(
        "simulate {}: {} cycles, seed {}, engines reference + {}",
        params.top_name(),
        args.cycles,
        args.seed,
        engines.iter().map(|e| e.name()).collect::<Vec<_>>().join(" + ")
    );
    let summary = simulate::lockstep(params, &mut engines, args.cycles, args.seed);
    println!("cycles:          {}", summary.cycles);
    println!("matched cycles:  {}", summary.matched_cycles);
    println!("serial frames:   {}", summary.frames);
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
                "reproduce: cargo run --release -- simulate monitor --events {} --order-width {} --cycles {} --seed {} --engine {} --vcd target/mismatch.vcd",
                params.events,
                params.order_width,
                mismatch.cycle + 1,
                args.seed,
                args.engine.to_possible_value().expect("named").get_name()
            );
            bail!("simulation mismatch at cycle {}", mismatch.cycle)
        }
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Generate { design: GenerateDesign::Monitor { monitor, out } } => {
            let path = generate::write_monitor(monitor.params(), &out)?;
            println!("wrote {}", path.display());
        }
        Command::Simulate { design: SimulateDesign::Monitor(args) } => run_simulation(&args)?,
        Command::Report { design: ReportDesign::Monitor { monitor, out, sweep: true, sweep_events } } => {
            let events = if sweep_events.is_empty() { report::sweep::DEFAULT_EVENTS.to_vec() } else { sweep_events };
            let out = out.unwrap_or_else(|| PathBuf::from(format!("target/pmugen/sweep_w{}", monitor.order_width)));
            report::sweep::run(&events, monitor.order_width, &out)?;
        }
        Command::Report { design: ReportDesign::Monitor { monitor, out, .. } } => {
            let params = monitor.params();
            let out = out.unwrap_or_else(|| default_report_dir(params));
            report::run(params, &out)?;
        }
        Command::Build { board: name, out } => {
            let name = name.to_possible_value().expect("named").get_name().to_string();
            let board = pmugen::build::board(&name)?;
            let out = out.unwrap_or_else(|| PathBuf::from(format!("target/pmugen/board-{name}")));
            let summary = pmugen::build::build(&board, &out)?;
            print!("{}", summary.markdown);
            println!("wrote {}", summary.bitstream.display());
        }
        Command::Host { port, baud, action } => pmugen::host::command::run(&port, baud, action)?,
        Command::Bench { design: BenchDesign::Monitor { cycles, seed } } => {
            let mut rows = Vec::new();
            for (events, order_width) in bench::CONFIGURATIONS {
                let params = MonitorParams { events, order_width };
                eprintln!("bench {} ...", params.top_name());
                rows.push(bench::measure(params, cycles, seed).map_err(anyhow::Error::msg)?);
            }
            print!("{}", bench::markdown(&rows, cycles));
        }
        Command::Flow { design: FlowDesign::Monitor { simulate: args, out } } => {
            let params = args.monitor.params();
            let out = out.unwrap_or_else(|| default_report_dir(params));
            let path = generate::write_monitor(params, &out)?;
            println!("wrote {}", path.display());
            run_simulation(&args)?;
            report::run(params, &out)?;
        }
    }
    Ok(())
}
