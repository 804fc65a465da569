//! The event-order monitor on a RISC-V core's retirements (`generate monitor --rvfi`,
//! top `<bare top>_rvfi`, docs/soc.md §1): the RVFI adapter of one hart and the bare
//! monitor, whose event line k is the adapter's bit of the k-th `--rvfi-events` name,
//! a level per cycle (the monitor's rising-edge rule then makes back-to-back
//! retirements of one event one occurrence). The adapter's kernel and block outputs
//! are not used. Every other port of the monitor is a port of this top.
//!
//! Latency: the adapter's register stage: a retirement in cycle c is on the event
//! lines in cycle c+1.
//!
//! ```text
//!  rvfi_* --> RVFI adapter (1 hart) --events[chosen]--> monitor --> reg_rdata, matched, window, ser_*
//!  start, stop, reg_* --------------------------------------^
//! ```
#[cfg(test)]
pub(crate) mod tests;
mod wiring;

use rust_hdl::prelude::*;

use super::adapter::RvfiAdapter;
use super::events::EVENT_COUNT;
use super::params::{KernelRule, RvfiOptions};
use super::port::RvfiInputs;
use crate::custom::Internal;

use crate::monitor::top::EventOrderMonitor;
use crate::monitor::trigger_window::TRIGGER_LINES;
use crate::params::MonitorParams;
use crate::word::WordSignal;

/// The block address width of the monitor's adapter: its block outputs are unused, so
/// the smallest.
const UNUSED_ADDRESS_WIDTH: usize = 16;

/// The top's name for the monitor of `params` behind the adapter of `options`, event
/// line k being the adapter's bit `chosen[k]`: `<bare top>_rvfi`, what the options add
/// (docs/soc.md §1.5; the kernel rule is not used), then `_e` and one hexadecimal digit
/// per event line, its event's bit (0 = CYCLES ... d = MULDIV).
pub fn top_name(params: &MonitorParams, options: RvfiOptions, chosen: &[usize]) -> String {
    let digits: String = chosen.iter().map(|bit| format!("{bit:x}")).collect();
    format!("{}_rvfi{}_e{digits}", params.top_name(), options.name_suffix(false))
}

/// The adapter of one hart and the event-order monitor.
pub struct RvfiMonitor {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset of every register (adapter and monitor).
    pub reset: Signal<In, Bit>,
    /// The RVFI inputs (`rvfi_valid`, `rvfi_insn`, ... packed per hart).
    pub rvfi: RvfiInputs,
    /// Start-trigger lines (CTRL.START_SEL picks one).
    pub start: WordSignal<In>,
    /// Stop-trigger lines (CTRL.STOP_SEL picks one).
    pub stop: WordSignal<In>,
    /// Register word address.
    pub reg_addr: Signal<In, Bits<8>>,
    /// Register write data.
    pub reg_wdata: Signal<In, Bits<32>>,
    /// Register write strobe.
    pub reg_write: Signal<In, Bit>,
    /// Registered read data.
    pub reg_rdata: Signal<Out, Bits<32>>,
    /// Match flag, registered.
    pub matched: Signal<Out, Bit>,
    /// Window open, registered.
    pub window: Signal<Out, Bit>,
    /// Serial frame bit.
    pub ser_data: Signal<Out, Bit>,
    /// `ser_data` carries a frame bit this cycle.
    pub ser_valid: Signal<Out, Bit>,
    /// This is the frame's last bit.
    pub ser_last: Signal<Out, Bit>,
    pub(super) adapter: RvfiAdapter,
    pub(super) monitor: EventOrderMonitor,
    chosen: Internal<Vec<usize>>,
}

impl RvfiMonitor {
    /// The monitor of `params` on the adapter of `options`; event line k is the
    /// adapter's bit `chosen[k]` (N bits, each < 14; see `events::chosen_bits`).
    pub fn new(params: MonitorParams, options: RvfiOptions, chosen: &[usize]) -> Self {
        assert_eq!(chosen.len(), params.events, "RvfiMonitor: one adapter event per event line");
        assert!(chosen.iter().all(|&bit| bit < EVENT_COUNT), "RvfiMonitor: an event bit is not < {EVENT_COUNT}");
        let mut top = Self {
            clock: Default::default(),
            reset: Default::default(),
            rvfi: RvfiInputs::new(1, options.xlen),
            start: WordSignal::new(TRIGGER_LINES),
            stop: WordSignal::new(TRIGGER_LINES),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            reg_write: Default::default(),
            reg_rdata: Default::default(),
            matched: Default::default(),
            window: Default::default(),
            ser_data: Default::default(),
            ser_valid: Default::default(),
            ser_last: Default::default(),
            // The monitor does not use the kernel: the mode rule, which has no register.
            adapter: RvfiAdapter::new(
                1,
                RvfiOptions { kernel_rule: KernelRule::Mode, ..options },
                UNUSED_ADDRESS_WIDTH,
            ),
            monitor: EventOrderMonitor::new(params),
            chosen: Internal(chosen.to_vec()),
        };
        wiring::outputs(&mut top);
        top
    }
}

super::rvfi_top!(
    RvfiMonitor,
    design: monitor,
    ports: [clock, reset, rvfi, start, stop, reg_addr, reg_wdata, reg_write, reg_rdata, matched, window, ser_data, ser_valid, ser_last]
);
