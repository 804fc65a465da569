//! The monitor's native evaluation: once per cycle, in the order its signals flow,
//! instead of by rust-hdl's delta cycles over the whole hierarchy.
//!
//! The `#[hdl_gen]` blocks (edge detectors, event register, record, order register,
//! window, counter) run as their plain-Rust twins, each tested against its block; the
//! hand-written blocks (register port, order matcher, serial frame) run their own
//! twins, driven and evaluated in order. The top's outputs come from flip-flops only
//! (docs/monitor.md §3.7), so the work happens at each rising edge of `clock`:
//! 1. this cycle's occurrences, the register port's strobes and the match, from the
//!    inputs and the registers;
//! 2. every block takes the edge, with the values of step 1;
//! 3. the register port's read data sees the counter's new register (COUNT is read
//!    one edge late, docs/monitor.md §3.7).
//!
//! The connections are those of the top's `#[hdl_gen]` kernel (`top.rs`); the lockstep
//! runs of the whole monitor against its Verilog check that both say the same.
use rust_hdl::prelude::*;

use super::context_record::RecordTwin;
use super::event_register::EventRegisterTwin;
use super::match_counter::CounterTwin;
use super::order_register::OrderTwin;
use super::rise_detector::RiseTwin;
use super::top::EventOrderMonitor;
use super::trigger_window::{WindowInputs, WindowTwin};
use crate::word::{Word, WordSignal};

/// The `#[hdl_gen]` blocks' state, as their twins.
#[derive(Clone, Debug)]
pub struct Twins {
    event_edges: RiseTwin,
    event_register: EventRegisterTwin,
    record: RecordTwin,
    order: OrderTwin,
    window: WindowTwin,
    counter: CounterTwin,
}

impl Twins {
    /// The reset state of a monitor of `events` events.
    pub fn new(events: usize) -> Self {
        Self {
            event_edges: RiseTwin::default(),
            event_register: EventRegisterTwin::default(),
            record: RecordTwin::new(events),
            order: OrderTwin::new(events),
            window: WindowTwin::default(),
            counter: CounterTwin::default(),
        }
    }
}

/// Drive a rust-hdl input and latch it.
fn put<T: Synth>(signal: &mut Signal<In, T>, value: T) {
    signal.next = value;
    signal.update_all();
}

/// Drive a run-time-width input and latch it.
fn put_word(signal: &mut WordSignal<In>, value: u64) {
    signal.next = Word::new(signal.width(), value);
    signal.update_all();
}

/// A rising edge of a block's clock, then its outputs from its new state.
fn clock_edge<B: Logic>(block: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    put(clock(block), Clock { clk: false });
    put(clock(block), Clock { clk: true });
    block.update();
    put(clock(block), Clock { clk: true });
}

/// Drive the register port's sources (the registers it reads) and evaluate it.
fn drive_port(top: &mut EventOrderMonitor) {
    let twins = &top.twins.0;
    let port = &mut top.port;
    put(&mut port.reset, top.reset.val());
    put(&mut port.addr, top.reg_addr.val());
    put(&mut port.wdata, top.reg_wdata.val());
    put(&mut port.write, top.reg_write.val());
    put(&mut port.window, twins.window.open);
    put(&mut port.matched, twins.counter.matched);
    put(&mut port.overflow, twins.counter.overflow());
    put(&mut port.count, (twins.counter.count as u64).to_bits());
    put_word(&mut port.seen, twins.event_register.seen());
    put(&mut port.live, twins.record.live());
    for (e, order) in twins.order.orders.iter().enumerate() {
        put_word(&mut port.order[e], *order);
        put_word(&mut port.before[e], twins.record.stored(e));
    }
    port.update();
}

/// Every block's outputs from its reset state, before the first edge.
pub(super) fn settle(top: &mut EventOrderMonitor) {
    drive_port(top);
    top.matcher.update();
    top.serial.update();
    outputs(top);
}

/// The native top, called at every delta cycle: the whole cycle at a rising edge, and
/// the outputs (from flip-flops) otherwise.
pub(super) fn update(top: &mut EventOrderMonitor) {
    if top.clock.pos_edge() {
        cycle(top);
    }
    outputs(top);
}

/// Steps 1 to 3 of one cycle.
fn cycle(top: &mut EventOrderMonitor) {
    let reset = top.reset.val();
    let events = top.events.val().value();
    // Step 1: occurrences, strobes, match.
    drive_port(top);
    let occur = top.twins.0.event_edges.rise(events);
    let port = &top.port;
    let enable = port.enable.next;
    let (write, wdata) = (port.order_write.next.value(), port.order_wdata.next.value());
    let twins = &top.twins.0;
    let matcher = &mut top.matcher;
    put(&mut matcher.reset, reset);
    put_word(&mut matcher.write, write);
    put_word(&mut matcher.wdata, wdata);
    for e in 0..twins.order.orders.len() {
        put_word(&mut matcher.order[e], twins.order.orders[e]);
        put_word(&mut matcher.stored[e], twins.record.stored(e));
    }
    put_word(&mut matcher.seen, twins.event_register.seen());
    put_word(&mut matcher.seen_stored, twins.event_register.stored());
    put_word(&mut matcher.occur, occur);
    put(&mut matcher.enable, enable);
    put(&mut matcher.live, twins.record.live());
    matcher.update();
    let matched = matcher.matched.next;
    // A re-arm clears in the cycle of the match, as CMD.CLEAR_RECORD does (§3.4).
    let clear_record = port.clear_record.next || (port.auto_rearm.next && matched);
    let window = WindowInputs {
        start: top.start.val().value(),
        stop: top.stop.val().value(),
        start_sel: port.start_sel.next.index(),
        stop_sel: port.stop_sel.next.index(),
        open: port.open_window.next,
        close: port.close_window.next,
        reset,
    };
    let serial = &mut top.serial;
    put(&mut serial.reset, reset);
    put(&mut serial.enable, port.serial_en.next);
    put(&mut serial.count, (twins.counter.count as u64).to_bits());
    for (e, before) in serial.before.iter_mut().enumerate() {
        put_word(before, twins.record.before(e));
    }
    // Step 2: the edge.
    let (auto_rearm, clear_count, open) = (port.auto_rearm.next, port.clear_count.next, twins.window.open);
    let twins = &mut top.twins.0;
    let seen_stored = twins.event_register.stored();
    twins.event_edges.edge(events, reset);
    twins.event_register.edge(occur, enable, clear_record, reset);
    twins.record.edge(occur, seen_stored, enable, clear_record, reset);
    twins.order.edge(write, wdata, reset);
    twins.window.edge(&window);
    twins.counter.edge(matched, auto_rearm, open, clear_count, reset);
    clock_edge(&mut top.matcher, |b| &mut b.clock);
    clock_edge(&mut top.serial, |b| &mut b.clock);
    clock_edge(&mut top.port, |b| &mut b.clock);
    // Step 3: COUNT's register after the edge, for the read data.
    put(&mut top.port.count, (top.twins.0.counter.count as u64).to_bits());
    top.port.update();
}

/// The top's outputs, all from flip-flops.
fn outputs(top: &mut EventOrderMonitor) {
    top.reg_rdata.next = top.port.rdata.next;
    top.matched.next = top.twins.0.counter.matched;
    top.window.next = top.twins.0.window.open;
    top.ser_data.next = top.serial.data.next;
    top.ser_valid.next = top.serial.valid.next;
    top.ser_last.next = top.serial.last.next;
}
