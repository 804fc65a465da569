//! How the `_rvfi` monitor top connects the adapter to the monitor: in Verilog (what is
//! generated), and natively at each rising edge in signal order (the event lines from
//! the adapter's registered outputs as they were during the cycle, then both take the
//! edge). The lockstep runs against the Verilog check that both agree.
use rust_hdl::prelude::*;

use super::RvfiMonitor;
use crate::custom::unused_sink;
use crate::rvfi::events::EVENT_COUNT;
use crate::rvfi::port;
use crate::schedule::{clock_edge as block_edge, put, put_words, top_edge};
use crate::verilog;
use crate::word::{Word, WordSignal};

/// Mark every block input the top drives, and its outputs.
pub(super) fn connect(top: &mut RvfiMonitor) {
    let a = &mut top.adapter;
    a.clock.connect();
    a.reset.connect();
    for signal in a.rvfi.signals_mut() {
        signal.connect();
    }
    let m = &mut top.monitor;
    m.clock.connect();
    m.reset.connect();
    m.events.connect();
    m.start.connect();
    m.stop.connect();
    m.reg_addr.connect();
    m.reg_wdata.connect();
    m.reg_write.connect();
    top.reg_rdata.connect();
    top.matched.connect();
    top.window.connect();
    top.ser_data.connect();
    top.ser_valid.connect();
    top.ser_last.connect();
}

/// Drive a run-time-width input and latch it.
fn put_word(signal: &mut WordSignal<In>, value: u64) {
    signal.next = Word::new(signal.width(), value);
    signal.update_all();
}

/// The rising edge: the monitor's inputs of this cycle (the chosen events from the
/// adapter's outputs before the edge, the top's own ports), the adapter's inputs, then
/// both take the edge.
pub(super) fn clock_edge(top: &mut RvfiMonitor) {
    let reset = top.reset.val();
    let adapter = &top.adapter;
    let lines =
        top.chosen.0.iter().enumerate().fold(0, |lines, (k, &bit)| lines | (adapter.events.bit(bit) as u64) << k);
    let monitor = &mut top.monitor;
    put(&mut monitor.reset, reset);
    put_word(&mut monitor.events, lines);
    put_word(&mut monitor.start, top.start.val().value());
    put_word(&mut monitor.stop, top.stop.val().value());
    put(&mut monitor.reg_addr, top.reg_addr.val());
    put(&mut monitor.reg_wdata, top.reg_wdata.val());
    put(&mut monitor.reg_write, top.reg_write.val());
    let adapter = &mut top.adapter;
    put(&mut adapter.reset, reset);
    for (signal, input) in adapter.rvfi.signals_mut().into_iter().zip(top.rvfi.signals()) {
        put_words(signal, input.words());
    }
    block_edge(&mut top.adapter, |b| &mut b.clock);
    top_edge(&mut top.monitor, |b| &mut b.clock);
}

/// The top's outputs: the monitor's, all from flip-flops.
pub(super) fn outputs(top: &mut RvfiMonitor) {
    let monitor = &top.monitor;
    top.reg_rdata.next = monitor.reg_rdata.next;
    top.matched.next = monitor.matched.next;
    top.window.next = monitor.window.next;
    top.ser_data.next = monitor.ser_data.next;
    top.ser_valid.next = monitor.ser_valid.next;
    top.ser_last.next = monitor.ser_last.next;
}

/// The same connections in Verilog.
pub(super) fn verilog(top: &RvfiMonitor) -> String {
    let chosen = &top.chosen.0;
    let mut v = String::new();
    verilog!(v, "always @(*) begin");
    verilog!(v, "    adapter$clock = clock;\n    adapter$reset = reset;");
    for name in port::NAMES {
        verilog!(v, "    adapter${name} = {name};");
    }
    verilog!(v, "    monitor$clock = clock;\n    monitor$reset = reset;");
    verilog!(v, "    // Event line k is the adapter's bit of the k-th chosen event, a level per cycle.");
    let lines: Vec<String> = chosen.iter().rev().map(|bit| format!("adapter$events[{bit}]")).collect();
    verilog!(v, "    monitor$events = {{{}}};", lines.join(", "));
    for name in ["start", "stop", "reg_addr", "reg_wdata", "reg_write"] {
        verilog!(v, "    monitor${name} = {name};");
    }
    for name in ["reg_rdata", "matched", "window", "ser_data", "ser_valid", "ser_last"] {
        verilog!(v, "    {name} = monitor${name};");
    }
    verilog!(v, "end");
    // The monitor has no kernel or block inputs, and takes only the chosen events.
    let mut unused: Vec<String> = ["adapter$kernel", "adapter$bb_end", "adapter$bb_addr"].map(String::from).to_vec();
    unused.extend((0..EVENT_COUNT).filter(|bit| !chosen.contains(bit)).map(|bit| format!("adapter$events[{bit}]")));
    v.push_str(&unused_sink("adapter_outputs", &unused));
    v
}
