//! `pmugen prove monitor|pmu`: the Verilog of a design (optionally with narrowed
//! counters, or behind the RVFI adapter) proved; the exit status says whether it passed.
use anyhow::{bail, Result};

use super::{prove, ProveArgs};
use crate::design::Design;
use pmugen_hdl::pmu::params::PmuParams;

/// Prove `design`; true when it passed.
pub fn run<I, O>(design: &(impl Design<I, O> + ?Sized), args: &ProveArgs) -> Result<bool> {
    let verilog = design.verilog().map_err(anyhow::Error::msg)?;
    Ok(prove(&verilog, &design.model(), args)?.passed)
}

/// The same PMU with `bits`-bit counters (formal only: docs/formal.md §4 says what
/// that proves for the full width): at least the increment's width (an increment must
/// fit its counter) and at most CW.
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
