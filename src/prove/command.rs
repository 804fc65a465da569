//! `pmugen prove monitor|pmu`: the design of the given parameters (optionally with
//! narrowed counters), proved; the exit status says whether it passed.
use anyhow::{bail, Result};

use super::{prove, ProveArgs};
use crate::design::pmu::PmuDesign;
use crate::design::{self, Design};
use pmugen_hdl::params::MonitorParams;
use pmugen_hdl::pmu::params::PmuParams;

/// Prove the monitor of `params`; true when it passed.
pub fn monitor(params: MonitorParams, args: &ProveArgs) -> Result<bool> {
    let design = design::monitor(params);
    let verilog = design.verilog().map_err(anyhow::Error::msg)?;
    Ok(prove(&verilog, &design.top_name(), args)?.passed)
}

/// Prove the PMU of `params`, its counters `narrow` bits wide when given (formal
/// only: docs/formal.md §4 says what that proves for the full width); true when it passed.
pub fn pmu(params: PmuParams, narrow: Option<usize>, args: &ProveArgs) -> Result<bool> {
    let params = match narrow {
        None => params,
        Some(bits) => narrowed(params, bits)?,
    };
    let design = PmuDesign::new(params);
    let verilog = design.verilog().map_err(anyhow::Error::msg)?;
    Ok(prove(&verilog, &design.top_name(), args)?.passed)
}

/// The same PMU with `bits`-bit counters: at least the increment's width (an
/// increment must fit its counter) and at most CW.
pub fn narrowed(params: PmuParams, bits: usize) -> Result<PmuParams> {
    let least = params.count_width().max(2);
    if bits < least || bits > params.counter_width {
        bail!(
            "--narrow = {bits} is out of range {least}..={}: at least the increment's width ({least} bits with the event table {}) and at most CW",
            params.counter_width,
            params.table.stem
        );
    }
    Ok(PmuParams { counter_width: bits, ..params })
}
