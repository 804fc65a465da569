//! The command line's flags that attach a design to a RISC-V core through its RVFI
//! retirement port (docs/soc.md): `--rvfi`, `--core`, `--kernel`, `--xlen`, and the
//! monitor's `--rvfi-events`, each refused without `--rvfi`.
use anyhow::{bail, Result};
use clap::Args;

use crate::cli::{MonitorArgs, PmuArgs};
use pmugen::design::any::AnyDesign;
use pmugen::design::rvfi::RvfiMonitorDesign;
use pmugen_hdl::rvfi::events;
use pmugen_hdl::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};

/// Attaching a RISC-V core through its RVFI retirement port (docs/soc.md).
#[derive(Args, Clone, Debug, Default)]
pub struct RvfiArgs {
    /// Put the RVFI adapter in front of the design: top <top>_rvfi, whose RVFI inputs
    /// (rvfi_valid, rvfi_insn, ...) drive the event inputs (docs/soc.md). The PMU's
    /// default table is then the RISC-V one (hdl/events/riscv.json).
    #[arg(long)]
    pub rvfi: bool,
    /// With --rvfi: the core that drives the RVFI port, whose departures from
    /// riscv-formal's RVFI the adapter reads as that core means them: picorv32, serv,
    /// ibex or generic (RVFI as riscv-formal defines it). Default generic (docs/soc.md
    /// §1.7).
    #[arg(long, value_name = "CORE", value_parser = parse_core)]
    pub core: Option<Core>,
    /// With --rvfi: when a hart runs in the kernel: `mode` (rvfi_mode != 0) or `handler`
    /// (from rvfi_intr through MRET or retirq, for cores that run in machine mode only,
    /// such as PicoRV32). Default: the core's (handler for picorv32 and serv, else mode).
    #[arg(long, value_name = "RULE", value_parser = parse_kernel)]
    pub kernel: Option<KernelRule>,
    /// With --rvfi: the core's XLEN, 32 or 64 (the width of rvfi_pc_* and
    /// rvfi_mem_*mask/8). Default 32.
    #[arg(long, value_name = "XLEN", value_parser = parse_xlen)]
    pub xlen: Option<Xlen>,
}

impl RvfiArgs {
    /// The PMU of `pmu`, behind the adapter with `--rvfi`.
    pub fn any_design(&self, pmu: &PmuArgs) -> Result<AnyDesign> {
        Ok(match self.options()? {
            Some(options) => AnyDesign::RvfiPmu(pmu.rvfi_design(options)?),
            None => AnyDesign::Pmu(pmu.design()?),
        })
    }

    /// The adapter's options with `--rvfi`, none without; a flag that needs `--rvfi` is
    /// refused without it, naming the flag.
    pub fn options(&self) -> Result<Option<RvfiOptions>> {
        if !self.rvfi {
            if let Some(rule) = self.kernel {
                bail!("--kernel {rule}: the kernel rule is the RVFI adapter's; add --rvfi (docs/soc.md)");
            }
            if let Some(xlen) = self.xlen {
                bail!("--xlen {xlen}: the XLEN is the RVFI adapter's; add --rvfi (docs/soc.md)");
            }
            if let Some(core) = self.core {
                bail!("--core {core}: the core is the one driving the RVFI adapter; add --rvfi (docs/soc.md)");
            }
            return Ok(None);
        }
        let core = self.core.unwrap_or_default();
        let kernel_rule = self.kernel.unwrap_or(core.default_kernel_rule());
        Ok(Some(RvfiOptions { xlen: self.xlen.unwrap_or_default(), kernel_rule, core }))
    }
}

/// The monitor's RVFI flags: the adapter's, and the event of each event line.
#[derive(Args, Clone, Debug, Default)]
pub struct MonitorRvfiArgs {
    #[command(flatten)]
    pub rvfi: RvfiArgs,
    /// With --rvfi: the RISC-V event of each event line, N names (--events) separated by
    /// commas, e.g. CALL,RETURN,BRANCH_TAKEN (docs/soc.md lists them).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub rvfi_events: Vec<String>,
}

impl MonitorRvfiArgs {
    /// The monitor of `monitor`, behind the adapter with `--rvfi`.
    pub fn any_design(&self, monitor: &MonitorArgs) -> Result<AnyDesign> {
        Ok(match self.design(monitor)? {
            Some(design) => AnyDesign::RvfiMonitor(design),
            None => AnyDesign::Monitor(pmugen::design::monitor(monitor.params())),
        })
    }

    /// The design behind the adapter with `--rvfi`, none without (a flag that needs
    /// `--rvfi` is refused without it, naming the flag).
    pub fn design(&self, monitor: &MonitorArgs) -> Result<Option<RvfiMonitorDesign>> {
        let Some(options) = self.rvfi.options()? else {
            if !self.rvfi_events.is_empty() {
                bail!(
                    "--rvfi-events {}: the event lines come from the RVFI adapter; add --rvfi",
                    self.rvfi_events.join(",")
                );
            }
            return Ok(None);
        };
        let n = monitor.events;
        if self.rvfi_events.is_empty() {
            bail!(
                "--rvfi needs --rvfi-events with one RISC-V event per event line: {n} names (--events (N) = {n}), \
                 e.g. --rvfi-events {} (known: {})",
                EXAMPLE_EVENTS.iter().cycle().take(n).copied().collect::<Vec<_>>().join(","),
                events::known()
            );
        }
        Ok(Some(RvfiMonitorDesign::new(monitor.params(), options, &self.rvfi_events).map_err(anyhow::Error::msg)?))
    }
}

/// The events an example `--rvfi-events` names, in order.
const EXAMPLE_EVENTS: [&str; 8] = ["CALL", "RETURN", "BRANCH_TAKEN", "LOAD", "STORE", "TRAP", "INTERRUPT", "SYSTEM"];

/// `--core`.
fn parse_core(text: &str) -> Result<Core, String> {
    text.parse()
}

/// `--kernel`.
fn parse_kernel(text: &str) -> Result<KernelRule, String> {
    text.parse()
}

/// `--xlen`.
fn parse_xlen(text: &str) -> Result<Xlen, String> {
    text.parse()
}
