//! `pmugen report monitor|pmu` (docs/report.md): the command's flags, and the one place
//! that turns them into the report's subject and options, for the report itself and
//! for each job of `pmugen sweep`.
use anyhow::{bail, Result};
use clap::{Subcommand, ValueEnum};
use std::path::PathBuf;

use crate::cli::{self, MonitorArgs, PmuArgs};
use pmugen::design::{self, Design};
use pmugen::report::{self, Subject};
use pmugen::sweep::monitor_view::DEFAULT_EVENTS;
use pmugen_hdl::bus::Bus;

#[derive(Subcommand)]
pub enum ReportDesign {
    /// The event-order monitor.
    #[command(after_help = "Example:\n  pmugen report monitor --events 16 --order-width 4 --matcher compact\n  \
                            pmugen report monitor --family ecp5 --sweep --order-width 3")]
    Monitor {
        #[command(flatten)]
        monitor: MonitorArgs,
        /// Output directory for the Verilog, netlists, report.md and report.json (default target/pmugen/<top>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Sweep N (ignores --events): `pmugen sweep monitor --events LIST` on this
        /// machine's cores, each family's first device, the monitor's seeds 1..3 (or
        /// --seed), into DIR (default target/pmugen/sweep_w{W}): the merged results and
        /// the N view sweep.md and sweep.svg. A job whose result in DIR is of the same
        /// Verilog, pmugen and tool versions is not run again.
        #[arg(long)]
        sweep: bool,
        /// The N values of the sweep, comma separated (default 2,4,6,8,10,12,16,20,24,28,32).
        #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = cli::parse_sweep_events, requires = "sweep")]
        sweep_events: Vec<usize>,
        /// Report N=8/W=3, N=16/W=4 and N=32/W=5 with every combination of --matcher and
        /// --no-serial (ignores those flags), and write compare.md/json in DIR next to the
        /// hand-written RTL figures (default target/pmugen/compare). A configuration whose
        /// report in DIR is of the same Verilog, pmugen and tool versions, and met its budget,
        /// is not run again.
        #[arg(long, conflicts_with = "sweep")]
        compare: bool,
        /// Only count the flip-flops and check the budget (seconds): no FPGA synthesis or placement.
        #[arg(long, conflicts_with_all = ["sweep", "compare"])]
        budget_only: bool,
        /// Report the design behind a bus slave (docs/bus.md): none, axi4lite or wishbone.
        #[arg(long, value_name = "BUS", default_value = "none", value_parser = cli::parse_bus, conflicts_with_all = ["sweep", "compare"])]
        bus: Bus,
        #[command(flatten)]
        fpga: cli::FpgaArgs,
    },
    /// The Knights Corner-style core PMU.
    #[command(after_help = "Example:\n  pmugen report pmu --device lfe5u-85f\n  \
                            pmugen report pmu --threads 2 --counters 2 --family all --no-fmax")]
    Pmu {
        #[command(flatten)]
        pmu: PmuArgs,
        /// Output directory for the Verilog, netlists, report.md and report.json (default target/pmugen/<top>).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Only count the flip-flops and check the budget (seconds): no FPGA synthesis or placement.
        #[arg(long)]
        budget_only: bool,
        /// Count logic cells and check the fit without measuring Fmax: one seed, placed
        /// without routing or timing-driven placement, and no pin-harness placement
        /// (minutes for large configurations). On Gowin the core is still placed in the
        /// pin harness, untimed: that placement is the only count of its LUT4s.
        #[arg(long, conflicts_with_all = ["budget_only", "synth_only"])]
        no_fmax: bool,
        /// Also synthesize every block of the PMU alone (one counter, one event sampler,
        /// the register port, ...) on each family: where the area goes, block by block
        /// (docs/pmu.md §8). A minute or two more per family.
        #[arg(long, conflicts_with = "budget_only")]
        blocks: bool,
        /// Report the design behind a bus slave (docs/bus.md): none, axi4lite or wishbone.
        #[arg(long, value_name = "BUS", default_value = "none", value_parser = cli::parse_bus)]
        bus: Bus,
        /// The slave's data width with --bus: 64 (default) or 32 (docs/bus.md §8).
        #[arg(long, value_name = "BITS", value_parser = cli::parse_bus_width)]
        bus_width: Option<usize>,
        #[command(flatten)]
        fpga: cli::FpgaArgs,
    },
}

/// The subject, options and output directory of the report `design` names (not its
/// `--sweep` or `--compare`), handed to `f`.
pub fn with_report<R>(
    design: &ReportDesign,
    f: impl FnOnce(&dyn Subject, &report::Options, Option<&PathBuf>) -> Result<R>,
) -> Result<R> {
    match design {
        ReportDesign::Monitor { monitor, out, budget_only, bus, fpga, .. } => {
            let params = monitor.params();
            let options = fpga.options(!budget_only, true)?;
            on_bus(&params, design::monitor(params).as_ref(), *bus, |subject| f(subject, &options, out.as_ref()))
        }
        ReportDesign::Pmu { pmu, out, budget_only, no_fmax, blocks, bus, bus_width, fpga } => {
            let bus = cli::pmu_bus(*bus, *bus_width)?;
            let design = pmu.design()?;
            let options = report::Options { blocks: *blocks, ..fpga.options(!budget_only, !no_fmax)? };
            on_bus(&design, &design, bus, |subject| f(subject, &options, out.as_ref()))
        }
    }
}

/// `subject` (whose design is `design`) bare, or behind `bus`, handed to `f`.
fn on_bus<I, O, R>(
    subject: &dyn Subject,
    design: &dyn Design<I, O>,
    bus: Bus,
    f: impl FnOnce(&dyn Subject) -> Result<R>,
) -> Result<R> {
    if bus == Bus::Bare {
        return f(subject);
    }
    let files = design::bus::artifacts(design, bus).map_err(anyhow::Error::msg)?;
    let model = design::bus::model(design, bus).map_err(anyhow::Error::msg)?;
    f(&report::wrapped::OnBus { inner: subject, bus, files, model })
}

/// Run `pmugen report`.
pub fn run(design: ReportDesign) -> Result<()> {
    match &design {
        ReportDesign::Monitor { monitor, out, sweep: true, sweep_events, fpga, .. } => {
            let out =
                out.clone().unwrap_or_else(|| PathBuf::from(format!("target/pmugen/sweep_w{}", monitor.order_width)));
            crate::sweep_cli::run_args(&sweep_arguments(monitor, sweep_events, fpga, &out))
        }
        ReportDesign::Monitor { out, compare: true, fpga, .. } => {
            let out = out.clone().unwrap_or_else(|| PathBuf::from("target/pmugen/compare"));
            let options = fpga.options(true, true)?;
            if options.families != [report::family::Family::Ice40] || fpga.synth_only || fpga.seed.is_some() {
                bail!(
                    "--compare sets pmugen beside the hand-written designs' iCE40 figures: it reports on the HX8K \
                     only, seeds 1..3 (no --family or --device other than ice40/hx8k, no --synth-only or --seed)"
                );
            }
            report::compare::run(&options, &out).map(drop)
        }
        _ => with_report(&design, |subject, options, out| {
            let out = out.cloned().unwrap_or_else(|| crate::default_dir(&subject.top_name()));
            report::run_with(subject, &out, options).map(drop)
        }),
    }
}

/// `pmugen sweep monitor` arguments of `report monitor --sweep`.
fn sweep_arguments(
    monitor: &MonitorArgs,
    events: &[usize],
    fpga: &cli::FpgaArgs,
    out: &std::path::Path,
) -> Vec<String> {
    let events: Vec<String> = if events.is_empty() { DEFAULT_EVENTS.to_vec() } else { events.to_vec() }
        .iter()
        .map(usize::to_string)
        .collect();
    let mut args: Vec<String> =
        ["sweep", "monitor", "--events", &events.join(","), "--order-width"].map(String::from).to_vec();
    args.push(monitor.order_width.to_string());
    args.extend(["--matcher".to_string(), monitor.matcher.flag_value().to_string()]);
    args.extend(monitor.no_serial.then(|| "--no-serial".to_string()));
    let name =
        |value: Option<clap::builder::PossibleValue>| value.map(|v| v.get_name().to_string()).unwrap_or_default();
    let families: Vec<String> = fpga.family.iter().map(|f| name(f.to_possible_value())).collect();
    if !families.is_empty() {
        args.extend(["--family".to_string(), families.join(",")]);
    }
    let devices: Vec<&str> = fpga.device.iter().map(|d| d.short).collect();
    if !devices.is_empty() {
        args.extend(["--device".to_string(), devices.join(",")]);
    }
    args.extend(["--toolchain".to_string(), name(fpga.toolchain.to_possible_value())]);
    if fpga.synth_only {
        args.push("--synth-only".to_string());
    } else {
        let seeds: Vec<String> = match fpga.seed {
            Some(seed) => vec![seed.to_string()],
            None => monitor.params().seeds().iter().map(u64::to_string).collect(),
        };
        args.extend(["--seeds".to_string(), seeds.join(",")]);
    }
    args.extend(["--out".to_string(), out.display().to_string()]);
    args
}
