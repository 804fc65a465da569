//! The event-order monitor top (docs/monitor.md §2, §4): the blocks of seed 000
//! Fig. 1 wired together, with exactly the ports of docs/monitor.md §4.
//!
//! Latency: `matched`, `window`, `reg_rdata`, `ser_*` are registered; a match is
//! detected in the cycle of the completing occurrence and shows on `matched` in the
//! next cycle. No input is delayed, so events, start and stop stay aligned.
//!
//! ```text
//!  events -> rise -> event register [11] -> context record [12] --+--> serial frame -> ser_*
//!                                                 | stored, live    |
//!  register port <-> order register [13] -> order matcher [14] -> match counter [16]
//!  start/stop -> trigger window [17] ---------------------------------^   -> matched
//! ```
use rust_hdl::prelude::*;

use super::context_record::ContextRecord;
use super::event_register::EventRegister;
use super::match_counter::MatchCounter;
use super::order_matcher::OrderMatcher;
use super::order_register::OrderRegister;
use super::register_port::RegisterPort;
use super::rise_detector::RiseDetector;
use super::schedule::{self, Twins};
use super::serial_frame::{SerialFrame, COUNT_BITS};
use super::trigger_window::{TriggerWindow, TRIGGER_LINES};
use crate::custom::Internal;
use crate::flip_flops::{within, FlipFlops};
use crate::params::MonitorParams;
use crate::word::WordSignal;

/// Event-order monitor for N events with W-bit orders.
pub struct EventOrderMonitor {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset of every register.
    pub reset: Signal<In, Bit>,
    /// Event lines; event e occurs on a rising edge of `events[e]`.
    pub events: WordSignal<In>,
    /// Start-trigger lines (CTRL.START_SEL picks one).
    pub start: WordSignal<In>,
    /// Stop-trigger lines (CTRL.STOP_SEL picks one).
    pub stop: WordSignal<In>,
    /// Register word address.
    pub reg_addr: Signal<In, Bits<8>>,
    /// Register write data.
    pub reg_wdata: Signal<In, Bits<32>>,
    /// Register write strobe (one write per cycle it is high).
    pub reg_write: Signal<In, Bit>,
    /// Registered read data of the register at last cycle's `reg_addr`.
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
    /// Clear the event register and record this cycle (re-arm or CMD.CLEAR_RECORD).
    clear_record: Signal<Local, Bit>,
    event_edges: RiseDetector,
    event_register: EventRegister,
    record: ContextRecord,
    order: OrderRegister,
    pub(super) matcher: OrderMatcher,
    trigger: TriggerWindow,
    counter: MatchCounter<COUNT_BITS>,
    pub(super) serial: SerialFrame,
    pub(super) port: RegisterPort,
    /// The `#[hdl_gen]` blocks' state for the native simulation (schedule.rs).
    pub(super) twins: Internal<Twins>,
}

impl EventOrderMonitor {
    /// The monitor of checked parameters ([`MonitorParams::new`] checks user input):
    /// N events, W-bit orders, built with `params.options` (matcher structure, serial
    /// frame or not); the ports, registers and cycle behaviour are the same for every
    /// option.
    pub fn new(params: MonitorParams) -> Self {
        let (n, w, options) = (params.events, params.order_width, params.options);
        assert!((2..=32).contains(&n), "EventOrderMonitor: N = {n} is out of range 2..=32");
        assert!((2..=8).contains(&w), "EventOrderMonitor: W = {w} is out of range 2..=8");
        let mut monitor = Self {
            clock: Default::default(),
            reset: Default::default(),
            events: WordSignal::new(n),
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
            clear_record: Default::default(),
            event_edges: RiseDetector::new(n),
            event_register: EventRegister::new(n),
            record: ContextRecord::new(n),
            order: OrderRegister::new(n, w),
            matcher: OrderMatcher::new(n, w, options.matcher),
            trigger: TriggerWindow::new(),
            counter: MatchCounter::new(),
            serial: SerialFrame::new(n, options.serial),
            port: RegisterPort::new(n, w),
            twins: Internal(Twins::new(n)),
        };
        schedule::settle(&mut monitor);
        monitor
    }

    /// Every register of the design with its report group, named as in the flattened
    /// netlist (`record.rows__3.q`).
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let mut all: Vec<FlipFlops> = within("event_edges", self.event_edges.flip_flops()).collect();
        all.extend(within("event_register", self.event_register.flip_flops()));
        all.extend(within("record", self.record.flip_flops()));
        all.extend(within("order", self.order.flip_flops()));
        all.extend(within("matcher", self.matcher.flip_flops()));
        all.extend(within("trigger", self.trigger.flip_flops()));
        all.extend(within("counter", self.counter.flip_flops()));
        all.extend(within("serial", self.serial.flip_flops()));
        all.extend(within("port", self.port.flip_flops()));
        all
    }
}

impl Logic for EventOrderMonitor {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and resets.
        self.event_edges.clock.next = self.clock.val();
        self.event_register.clock.next = self.clock.val();
        self.record.clock.next = self.clock.val();
        self.order.clock.next = self.clock.val();
        self.trigger.clock.next = self.clock.val();
        self.counter.clock.next = self.clock.val();
        self.serial.clock.next = self.clock.val();
        self.port.clock.next = self.clock.val();
        self.matcher.clock.next = self.clock.val();
        self.event_edges.reset.next = self.reset.val();
        self.event_register.reset.next = self.reset.val();
        self.record.reset.next = self.reset.val();
        self.order.reset.next = self.reset.val();
        self.trigger.reset.next = self.reset.val();
        self.counter.reset.next = self.reset.val();
        self.serial.reset.next = self.reset.val();
        self.port.reset.next = self.reset.val();
        self.matcher.reset.next = self.reset.val();
        // Host register port (docs/monitor.md §5).
        self.port.addr.next = self.reg_addr.val();
        self.port.wdata.next = self.reg_wdata.val();
        self.port.write.next = self.reg_write.val();
        self.port.window.next = self.trigger.window.val();
        self.port.matched.next = self.counter.matched.val();
        self.port.overflow.next = self.counter.overflow.val();
        self.port.count.next = self.counter.previous_count.val();
        self.port.seen.next = self.event_register.seen.val();
        self.port.live.next = self.record.live.val();
        for e in 0..self.matcher.order.len() {
            self.port.order[e].next = self.order.order[e].val();
            self.port.before[e].next = self.record.stored[e].val();
        }
        // A re-arm clears in the cycle of the match (§3.4 of docs/monitor.md), like CLEAR_RECORD.
        self.clear_record.next =
            self.port.clear_record.val() | (self.port.auto_rearm.val() & self.matcher.matched.val());
        // Occurrences and recording (docs/monitor.md §3.1, §3.2).
        self.event_edges.lines.next = self.events.val();
        self.event_register.occur.next = self.event_edges.rise.val();
        self.event_register.enable.next = self.port.enable.val();
        self.event_register.clear.next = self.clear_record.val();
        self.record.occur.next = self.event_edges.rise.val();
        self.record.seen.next = self.event_register.stored.val();
        self.record.enable.next = self.port.enable.val();
        self.record.clear.next = self.clear_record.val();
        // Order register and matcher (docs/monitor.md §3.3).
        self.order.write.next = self.port.order_write.val();
        self.order.wdata.next = self.port.order_wdata.val();
        self.matcher.write.next = self.port.order_write.val();
        self.matcher.wdata.next = self.port.order_wdata.val();
        for e in 0..self.matcher.order.len() {
            self.matcher.order[e].next = self.order.order[e].val();
            self.matcher.stored[e].next = self.record.stored[e].val();
        }
        self.matcher.seen.next = self.event_register.seen.val();
        self.matcher.seen_stored.next = self.event_register.stored.val();
        self.matcher.occur.next = self.event_edges.rise.val();
        self.matcher.enable.next = self.port.enable.val();
        self.matcher.live.next = self.record.live.val();
        // Window (docs/monitor.md §3.5) and counting (§3.4).
        self.trigger.start.next = self.start.val();
        self.trigger.stop.next = self.stop.val();
        self.trigger.start_sel.next = self.port.start_sel.val();
        self.trigger.stop_sel.next = self.port.stop_sel.val();
        self.trigger.open_cmd.next = self.port.open_window.val();
        self.trigger.close_cmd.next = self.port.close_window.val();
        self.counter.match_now.next = self.matcher.matched.val();
        self.counter.auto_rearm.next = self.port.auto_rearm.val();
        self.counter.window.next = self.trigger.window.val();
        self.counter.clear.next = self.port.clear_count.val();
        // Serial frame (docs/monitor.md §6).
        self.serial.enable.next = self.port.serial_en.val();
        self.serial.count.next = self.counter.previous_count.val();
        for e in 0..self.matcher.order.len() {
            self.serial.before[e].next = self.record.before[e].val();
        }
        // Outputs (docs/monitor.md §3.7).
        self.reg_rdata.next = self.port.rdata.val();
        self.matched.next = self.counter.matched.val();
        self.window.next = self.trigger.window.val();
        self.ser_data.next = self.serial.data.val();
        self.ser_valid.next = self.serial.valid.val();
        self.ser_last.next = self.serial.last.val();
    }
}

// The simulation evaluates the blocks' twins in signal order (the `update` named here),
// so a delta cycle updates the top's own ports only.
crate::scheduled_top!(
    EventOrderMonitor,
    update: schedule::update,
    ports: [clock, reset, events, start, stop, reg_addr, reg_wdata, reg_write, reg_rdata, matched, window, ser_data, ser_valid, ser_last],
    blocks: [clear_record, event_edges, event_register, record, order, matcher, trigger, counter, serial, port, twins]
);
