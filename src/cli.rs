//! The command line's parameter groups: one per design, each flag checked when it is
//! parsed, so a bad value stops `pmugen` before anything is written.
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

use clap::ValueEnum;
use pmugen::design::pmu::PmuDesign;
use pmugen::design::rvfi::RvfiPmuDesign;
use pmugen::report;
use pmugen::report::family::{Device, Family, FamilyChoice};
pub use pmugen::simulate::EngineChoice;
use pmugen::toolchain::Toolchain;
use pmugen_hdl::bus::{Bus, BUS_WIDTHS};
use pmugen_hdl::params::{self, Matcher, MonitorOptions, MonitorParams, Parameter, SerialOutput};
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::{check_profile_entries, check_trace_depth, PmuParams};
use pmugen_hdl::rvfi::params::RvfiOptions;

/// Parameters of an event-order monitor.
#[derive(Args, Clone, Copy, Debug)]
pub struct MonitorArgs {
    /// N: number of event inputs (2..=32).
    #[arg(long = "events", value_name = "N", default_value = "8", value_parser = parse_events, allow_hyphen_values = true)]
    pub events: usize,
    /// W: order width in bits per event (2..=8).
    #[arg(long = "order-width", value_name = "W", default_value = "3", value_parser = parse_order_width, allow_hyphen_values = true)]
    pub order_width: usize,
    /// The order matcher's structure (docs/monitor.md §7.1): `patent` (one registered
    /// comparator and one pair multiplexer per pair) or `compact` (2N comparators per
    /// ORDER write filling an N*(N-1) requirement matrix; the smaller one from N = 16 on,
    /// docs/monitor.md §7.3). `compact` adds `_compact` to the top name.
    #[arg(long, value_name = "STRUCTURE", default_value = "patent", value_parser = parse_matcher)]
    pub matcher: Matcher,
    /// Leave the serial frame out (docs/monitor.md §6): `ser_*` stay 0 and CTRL.SERIAL_EN
    /// has no effect; for users who read COUNT over the register port. Adds `_noserial`
    /// to the top name.
    #[arg(long)]
    pub no_serial: bool,
    /// Not a monitor flag: the profile table is the PMU's (refused with a message).
    #[arg(long = "profile-entries", value_name = "E", hide = true, value_parser = refuse_profile_entries)]
    pub profile_entries: Option<usize>,
}

impl MonitorArgs {
    /// The checked parameters.
    pub fn params(self) -> MonitorParams {
        let serial = if self.no_serial { SerialOutput::Absent } else { SerialOutput::Frame };
        MonitorParams {
            events: self.events,
            order_width: self.order_width,
            options: MonitorOptions { matcher: self.matcher, serial },
        }
    }
}

/// `--matcher`.
pub fn parse_matcher(text: &str) -> Result<Matcher, String> {
    text.parse()
}

/// Parameters of a PMU.
#[derive(Args, Clone, Debug)]
pub struct PmuArgs {
    /// T: hardware threads of the core (1..=4).
    #[arg(long = "threads", value_name = "T", default_value = "4", value_parser = parse_threads, allow_hyphen_values = true)]
    pub threads: usize,
    /// K: general counters per thread (1..=4).
    #[arg(long = "counters", value_name = "K", default_value = "2", value_parser = parse_counters, allow_hyphen_values = true)]
    pub counters: usize,
    /// CW: bits per general counter (16..=64).
    #[arg(long = "counter-width", value_name = "CW", default_value = "40", value_parser = parse_counter_width, allow_hyphen_values = true)]
    pub counter_width: usize,
    /// The event table: a perf pmu-events JSON array with pmugen's PerCycleMax and
    /// Scope keys and perf's optional Counter key (the counters that may count an
    /// event; `plan` obeys it) (default: the Knights Corner table, hdl/events/knc.json).
    /// Its file stem names the top module, pmu_<stem>_t<T>_k<K>_c<CW>.
    #[arg(long = "event-table", value_name = "FILE")]
    pub event_table: Option<PathBuf>,
    /// D: trace queue depth in records (2..=1024, a power of 2). With D or AW not at its
    /// default, the top name ends in _d<D>_a<AW>.
    #[arg(long = "trace-depth", value_name = "D", default_value = "256", value_parser = parse_trace_depth, allow_hyphen_values = true)]
    pub trace_depth: usize,
    /// AW: bits of a basic-block address in a trace record (16..=48).
    #[arg(long = "address-width", value_name = "AW", default_value = "32", value_parser = parse_address_width, allow_hyphen_values = true)]
    pub address_width: usize,
    /// E: entries of the profile table that sums trace records in hardware (docs/pmu.md
    /// §15): 0 for none (the default), else a power of 2 in 16..=4096. With E > 0 the
    /// top name ends in _p<E>.
    #[arg(long = "profile-entries", value_name = "E", default_value = "0", value_parser = parse_profile_entries, allow_hyphen_values = true)]
    pub profile_entries: usize,
}

impl PmuArgs {
    /// The checked parameters, with the event table read and checked against K.
    pub fn params(&self) -> Result<PmuParams> {
        self.params_with(EventTable::default_table())
    }

    /// The checked parameters, with `default` as the table when none is given.
    fn params_with(&self, default: EventTable) -> Result<PmuParams> {
        let table = match &self.event_table {
            Some(path) => EventTable::from_file(path, self.counters)?,
            None => default,
        };
        let params = PmuParams::new(self.threads as u64, self.counters as u64, self.counter_width as u64, table)?;
        Ok(params
            .with_trace(self.trace_depth as u64, self.address_width as u64)?
            .with_profile(self.profile_entries as u64)?)
    }

    /// The design of these parameters.
    pub fn design(&self) -> Result<PmuDesign> {
        Ok(PmuDesign::new(self.params()?))
    }

    /// The design behind the RVFI adapter of `options`: the RISC-V table by default; a
    /// table with an event the adapter does not produce is refused naming it.
    pub fn rvfi_design(&self, options: RvfiOptions) -> Result<RvfiPmuDesign> {
        let params = self.params_with(EventTable::riscv_table())?;
        let source = self.event_table.as_ref().map_or("riscv.json".to_string(), |path| path.display().to_string());
        Ok(RvfiPmuDesign::new(params, options, &source)?)
    }
}

fn parse_parameter(parameter: Parameter, text: &str) -> Result<usize, String> {
    let value: u64 = text.trim().parse().map_err(|_| {
        format!(
            "{} ({}) = '{text}' is not a number; allowed range {}..={}",
            parameter.flag, parameter.name, parameter.min, parameter.max
        )
    })?;
    parameter.check(value).map_err(|err| err.to_string())
}

fn parse_trace_depth(text: &str) -> Result<usize, String> {
    let depth = parse_parameter(params::TRACE_DEPTH, text)?;
    check_trace_depth(depth as u64).map_err(|err| err.to_string())
}

fn parse_profile_entries(text: &str) -> Result<usize, String> {
    let value: u64 = text.trim().parse().map_err(|_| {
        format!("--profile-entries (E) = '{text}' is not a number; allowed: 0 (no profile table) or a power of 2 in 16..=4096")
    })?;
    check_profile_entries(value).map_err(|err| err.to_string())
}

/// `--profile-entries` given to the monitor: refused, saying whose flag it is.
pub fn refuse_profile_entries(_: &str) -> Result<usize, String> {
    Err("the event-order monitor has no trace unit; --profile-entries sizes the PMU's profile table \
         (pmugen generate pmu --profile-entries E, docs/pmu.md §15)"
        .to_string())
}

fn parse_address_width(text: &str) -> Result<usize, String> {
    parse_parameter(params::ADDRESS_WIDTH, text)
}

/// `--events`.
pub fn parse_events(text: &str) -> Result<usize, String> {
    parse_parameter(params::EVENTS, text)
}

fn parse_order_width(text: &str) -> Result<usize, String> {
    parse_parameter(params::ORDER_WIDTH, text)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    parse_parameter(params::THREADS, text)
}

fn parse_counters(text: &str) -> Result<usize, String> {
    parse_parameter(params::COUNTERS, text)
}

fn parse_counter_width(text: &str) -> Result<usize, String> {
    parse_parameter(params::COUNTER_WIDTH, text)
}

/// `--sweep-events`: each N of the sweep, named after its own flag.
pub fn parse_sweep_events(text: &str) -> Result<usize, String> {
    parse_parameter(Parameter { flag: "--sweep-events", ..params::EVENTS }, text)
}

pub use pmugen::flags::{parse_cycles, parse_seed};

/// What every simulation takes besides the design.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Number of clock cycles.
    #[arg(long, value_name = "C", default_value = "100000", value_parser = parse_cycles)]
    pub cycles: u64,
    /// Stimulus seed (the same seed gives the same stimulus on every engine).
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Engines to compare with the reference model (default: native for `simulate`,
    /// all for `flow`, whose job is to co-simulate the generated Verilog).
    #[arg(long, value_enum)]
    pub engine: Option<EngineChoice>,
    /// Write a VCD waveform to FILE: from the native model with `--engine native`,
    /// from Verilator (`--trace`) with `verilator` or `all`.
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
}

/// `--bus`: none, axi4lite or wishbone.
pub fn parse_bus(text: &str) -> Result<Bus, String> {
    text.parse()
}

/// `--bus-width`: 32 or 64.
pub fn parse_bus_width(text: &str) -> Result<usize, String> {
    let allowed = "allowed: 32 (each 64-bit register as two 32-bit words) or 64 (the default)";
    match text.trim().parse::<usize>() {
        Ok(width) if BUS_WIDTHS.contains(&width) => Ok(width),
        _ => Err(format!("'{text}' is not a bus width; {allowed}")),
    }
}

/// The PMU's bus from `--bus` and `--bus-width`: refused without a bus.
pub fn pmu_bus(bus: Bus, width: Option<usize>) -> Result<Bus> {
    match width {
        None => Ok(bus),
        Some(width) => bus.with_width(width).map_err(anyhow::Error::msg),
    }
}

/// The monitor's bus from `--bus` and `--bus-width`: the monitor refuses any width,
/// its 32-bit registers already being one bus word each.
pub fn monitor_bus(bus: Bus, width: Option<usize>) -> Result<Bus> {
    match width {
        None => Ok(bus),
        Some(width) => anyhow::bail!(
            "--bus-width {width} is for the PMU (pmugen generate pmu --bus axi4lite|wishbone --bus-width 32|64); \
             the monitor's registers are 32 bits wide and its bus always carries one register per word: leave \
             --bus-width out"
        ),
    }
}

/// Which FPGA families, devices and tools a report measures (docs/report.md).
#[derive(Args, Clone, Debug)]
pub struct FpgaArgs {
    /// The FPGA family: ice40 (HX8K, UP5K; the default), ecp5 (LFE5U-25F, -45F,
    /// -85F), gowin (GW1NR-9 of the Tang Nano 9K), xc7 (xc7a35t, synthesis only) or all;
    /// several comma separated (e.g. ice40,ecp5).
    #[arg(long, value_enum, value_name = "FAMILY", value_delimiter = ',')]
    pub family: Vec<FamilyChoice>,
    /// Only these devices, comma separated: hx8k, up5k, lfe5u-25f, lfe5u-45f,
    /// lfe5u-85f, gw1nr-9, xc7a35t (their families are implied).
    #[arg(long, value_name = "DEVICE", value_parser = parse_device, value_delimiter = ',')]
    pub device: Vec<Device>,
    /// The yosys and nextpnr: current (the pinned YoWASP packages in target/venv, the
    /// default) or debian (Debian's packages), to set figures side by side.
    #[arg(long, value_enum, value_name = "TOOLS", default_value = "current")]
    pub toolchain: Toolchain,
    /// Synthesize for each family but place nothing (seconds to a minute): the LUTs,
    /// flip-flops, carries, block RAMs and DSPs of the whole design, without packed
    /// logic, fit, Fmax or the parts alone.
    #[arg(long, conflicts_with = "budget_only")]
    pub synth_only: bool,
    /// Place with this placement seed only (default: the design's own seeds: 1, 2 and 3
    /// for the monitor, the best of them given; 1 for the PMU).
    #[arg(long, value_name = "S", value_parser = parse_seed, conflicts_with = "synth_only")]
    pub seed: Option<u64>,
}

/// `--device`: one of the devices reports place on (any case).
pub fn parse_device(text: &str) -> Result<Device, String> {
    report::family::device(&text.trim().to_ascii_lowercase()).map_err(|e| e.to_string())
}

/// `families` in their first order, each once.
fn distinct(families: impl Iterator<Item = Family>) -> Vec<Family> {
    let mut seen = Vec::new();
    for family in families {
        if !seen.contains(&family) {
            seen.push(family);
        }
    }
    seen
}

impl FpgaArgs {
    /// The report options: `place` and `fmax` as the subcommand's own flags say.
    pub fn options(&self, place: bool, fmax: bool) -> Result<report::Options> {
        let chosen = distinct(self.family.iter().flat_map(|choice| choice.families()));
        if let Some(device) = self.device.iter().find(|d| !chosen.is_empty() && !chosen.contains(&d.family)) {
            let names: Vec<String> =
                self.family.iter().filter_map(|c| c.to_possible_value().map(|v| v.get_name().to_string())).collect();
            anyhow::bail!(
                "--device {} belongs to the {} family, not to --family {}",
                device.short,
                device.family.title(),
                names.join(",")
            );
        }
        // Devices name their families: `--family all --device hx8k` reports the HX8K only.
        let named = distinct(self.device.iter().map(|d| d.family));
        let families = [named, chosen].into_iter().find(|f| !f.is_empty()).unwrap_or(vec![Family::Ice40]);
        Ok(report::Options {
            place,
            fmax,
            synthesis_only: self.synth_only,
            seeds: self.seed.map(|seed| vec![seed]),
            toolchain: self.toolchain,
            families,
            devices: (!self.device.is_empty()).then(|| self.device.iter().map(|d| d.short).collect()),
            blocks: false,
        })
    }
}
