//! The PMU attached to a RISC-V core (`generate pmu --rvfi`, top `<bare top>_rvfi`,
//! docs/soc.md §1): the RVFI adapter of T harts and the bare PMU. The adapter drives the
//! PMU's `events` (each table event's field of hart t from the adapter's bit of that
//! name), `core_events` (0: an RVFI table has no core-scope event), `kernel`, `bb_end`
//! and `bb_addr`; every other port of the PMU (`pm_mark`, `pid`, the register port, the
//! trace stream, `pmi`) is a port of this top.
//!
//! Latency: the adapter's register stage, then the PMU's one-cycle input latency: the
//! events of a retirement in cycle c are counted at edge c+2 and show in the counter
//! from cycle c+3. `pm_mark` and `pid` do not pass through the adapter.
//!
//! ```text
//!  rvfi_* --> RVFI adapter --events, kernel, bb_end, bb_addr--> PMU --> pmi, reg_rdata, reg_fault, trace_*
//!  pm_mark, pid, reg_*, trace_ready ----------------------------^
//! ```
#[cfg(test)]
mod program;
#[cfg(test)]
pub(crate) mod tests;
mod wiring;

use rust_hdl::prelude::*;

use super::adapter::RvfiAdapter;
use super::events::table_bits;
use super::params::RvfiOptions;
use super::port::RvfiInputs;
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;

use crate::pmu::params::PmuParams;
use crate::pmu::top::Pmu;

/// The top's name for the PMU of `params` behind the adapter of `options`:
/// `<bare top>_rvfi`, then what the options add (docs/soc.md §1.5).
pub fn top_name(params: &PmuParams, options: RvfiOptions) -> String {
    format!("{}_rvfi{}", params.top_name(), options.name_suffix(true))
}

/// Where the adapter's bits go in the PMU's `events` port.
#[derive(Clone, Debug)]
struct EventMap {
    /// Per table event: (the adapter's bit, the field's lsb in a thread's slice, its width).
    fields: Vec<(usize, usize, usize)>,
    /// TEW, one thread's slice of `events`.
    thread_width: usize,
    /// T.
    harts: usize,
}

/// The adapter and the PMU of T harts.
pub struct RvfiPmu {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset of every register (adapter and PMU).
    pub reset: Signal<In, Bit>,
    /// The RVFI inputs (`rvfi_valid`, `rvfi_insn`, ... packed per hart).
    pub rvfi: RvfiInputs,
    /// Bit t: hart t runs a marked process (for FREEZE_UNMARKED).
    pub pm_mark: DynSignal<In>,
    /// Hart t's process id, at [t*32 +: 32].
    pub pid: DynSignal<In>,
    /// Bit t: hart t's overflow interrupt (a level).
    pub pmi: DynSignal<Out>,
    /// The accessing hart: selects its register bank.
    pub reg_thread: Signal<In, Bits<2>>,
    /// 1 = privileged (ring 0), 0 = unprivileged (ring 3).
    pub reg_priv: Signal<In, Bit>,
    /// Register address.
    pub reg_addr: Signal<In, Bits<8>>,
    /// Write data.
    pub reg_wdata: DynSignal<In>,
    /// Write this cycle.
    pub reg_write: Signal<In, Bit>,
    /// Read this cycle (no side effects).
    pub reg_read: Signal<In, Bit>,
    /// Registered read data.
    pub reg_rdata: DynSignal<Out>,
    /// Registered: 1 after a cycle with a denied access.
    pub reg_fault: Signal<Out, Bit>,
    /// Trace stream word (0 while `trace_valid` is 0).
    pub trace_data: DynSignal<Out>,
    /// `trace_data` holds a word.
    pub trace_valid: Signal<Out, Bit>,
    /// The consumer takes the word this cycle.
    pub trace_ready: Signal<In, Bit>,
    /// The word is the last of its record.
    pub trace_last: Signal<Out, Bit>,
    pub(super) adapter: RvfiAdapter,
    pub(super) pmu: Pmu,
    map: Internal<EventMap>,
}

impl RvfiPmu {
    /// The PMU of `params` behind the adapter of `options`; every event of the table
    /// must be one the adapter produces, of thread scope ([`table_bits`] tells why not).
    pub fn new(params: &PmuParams, options: RvfiOptions) -> Self {
        let bits = table_bits(&params.table, &params.table.stem).unwrap_or_else(|e| panic!("RvfiPmu: {e}"));
        let (harts, aw) = (params.threads, params.address_width);
        let layout = params.layout();
        let fields = bits.iter().zip(&layout.fields).map(|(&bit, field)| (bit, field.lsb, field.width)).collect();
        let mut top = Self {
            clock: Default::default(),
            reset: Default::default(),
            rvfi: RvfiInputs::new(harts, options.xlen),
            pm_mark: DynSignal::new(harts),
            pid: DynSignal::new(harts * 32),
            pmi: DynSignal::new(harts),
            reg_thread: Default::default(),
            reg_priv: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: DynSignal::new(64),
            reg_write: Default::default(),
            reg_read: Default::default(),
            reg_rdata: DynSignal::new(64),
            reg_fault: Default::default(),
            trace_data: DynSignal::new(64),
            trace_valid: Default::default(),
            trace_ready: Default::default(),
            trace_last: Default::default(),
            adapter: RvfiAdapter::new(harts, options, aw),
            pmu: Pmu::new(params),
            map: Internal(EventMap { fields, thread_width: layout.thread_width, harts }),
        };
        wiring::outputs(&mut top);
        top
    }
}

super::rvfi_top!(
    RvfiPmu,
    design: pmu,
    ports: [clock, reset, rvfi, pm_mark, pid, pmi, reg_thread, reg_priv, reg_addr, reg_wdata, reg_write, reg_read, reg_rdata, reg_fault, trace_data, trace_valid, trace_ready, trace_last]
);
