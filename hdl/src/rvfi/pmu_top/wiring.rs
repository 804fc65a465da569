//! How the `_rvfi` PMU top connects the adapter to the PMU: in Verilog (what is
//! generated), and natively at each rising edge in signal order (the PMU's event-side
//! inputs from the adapter's registered outputs as they were during the cycle, then
//! both take the edge). The lockstep runs against the Verilog check that both agree.
use rust_hdl::prelude::*;

use super::RvfiPmu;
use crate::custom::{literal, unused_sink, zero_extend};
use crate::rvfi::events::EVENT_COUNT;
use crate::rvfi::port;
use crate::schedule::{clock_edge as block_edge, put, put_words};
use crate::verilog;

/// Mark every block input the top drives, and its outputs.
pub(super) fn connect(top: &mut RvfiPmu) {
    let a = &mut top.adapter;
    a.clock.connect();
    a.reset.connect();
    for signal in a.rvfi.signals_mut() {
        signal.connect();
    }
    let p = &mut top.pmu;
    p.clock.connect();
    p.reset.connect();
    p.events.connect();
    p.core_events.connect();
    p.kernel.connect();
    p.pm_mark.connect();
    p.bb_end.connect();
    p.bb_addr.connect();
    p.pid.connect();
    p.reg_thread.connect();
    p.reg_priv.connect();
    p.reg_addr.connect();
    p.reg_wdata.connect();
    p.reg_write.connect();
    p.reg_read.connect();
    p.trace_ready.connect();
    top.pmi.connect();
    top.reg_rdata.connect();
    top.reg_fault.connect();
    top.trace_data.connect();
    top.trace_valid.connect();
    top.trace_last.connect();
}

/// The rising edge: the PMU's inputs of this cycle (the adapter's outputs before the
/// edge, the top's own ports), the adapter's inputs, then both take the edge.
pub(super) fn clock_edge(top: &mut RvfiPmu) {
    let reset = top.reset.val();
    let map = &top.map.0;
    let (adapter, pmu) = (&top.adapter, &mut top.pmu);
    for t in 0..map.harts {
        for &(bit, lsb, width) in &map.fields {
            let value = adapter.events.bit(t * EVENT_COUNT + bit) as u64;
            pmu.events.set_field(t * map.thread_width + lsb, width, value);
        }
    }
    pmu.events.latch();
    put_words(&mut pmu.core_events, &[0]);
    put_words(&mut pmu.kernel, adapter.kernel.words());
    put_words(&mut pmu.bb_end, adapter.bb_end.words());
    put_words(&mut pmu.bb_addr, adapter.bb_addr.words());
    put_words(&mut pmu.pm_mark, top.pm_mark.words());
    put_words(&mut pmu.pid, top.pid.words());
    put(&mut pmu.reset, reset);
    put(&mut pmu.reg_thread, top.reg_thread.val());
    put(&mut pmu.reg_priv, top.reg_priv.val());
    put(&mut pmu.reg_addr, top.reg_addr.val());
    put_words(&mut pmu.reg_wdata, top.reg_wdata.words());
    put(&mut pmu.reg_write, top.reg_write.val());
    put(&mut pmu.reg_read, top.reg_read.val());
    put(&mut pmu.trace_ready, top.trace_ready.val());
    let adapter = &mut top.adapter;
    put(&mut adapter.reset, reset);
    for (signal, input) in adapter.rvfi.signals_mut().into_iter().zip(top.rvfi.signals()) {
        put_words(signal, input.words());
    }
    block_edge(&mut top.adapter, |b| &mut b.clock);
    block_edge(&mut top.pmu, |b| &mut b.clock);
}

/// The top's outputs: the PMU's, all from flip-flops.
pub(super) fn outputs(top: &mut RvfiPmu) {
    let pmu = &top.pmu;
    top.pmi.set_words(pmu.pmi.words());
    top.reg_rdata.set_words(pmu.reg_rdata.words());
    top.reg_fault.next = pmu.reg_fault.next;
    top.trace_data.set_words(pmu.trace_data.words());
    top.trace_valid.next = pmu.trace_valid.next;
    top.trace_last.next = pmu.trace_last.next;
}

/// The same connections in Verilog.
pub(super) fn verilog(top: &RvfiPmu) -> String {
    let map = &top.map.0;
    let mut v = String::new();
    verilog!(v, "always @(*) begin");
    verilog!(v, "    adapter$clock = clock;\n    adapter$reset = reset;");
    for name in port::NAMES {
        verilog!(v, "    adapter${name} = {name};");
    }
    verilog!(v, "    pmu$clock = clock;\n    pmu$reset = reset;");
    // Hart t's field of each table event is the adapter's bit of that name.
    let mut fields = Vec::new();
    for t in (0..map.harts).rev() {
        for &(bit, _, width) in map.fields.iter().rev() {
            fields.push(zero_extend(&format!("adapter$events[{}]", t * EVENT_COUNT + bit), 1, width));
        }
    }
    verilog!(v, "    pmu$events = {{{}}};", fields.join(", "));
    verilog!(v, "    // An RVFI table has no core-scope event: the port is 1 bit and unused.");
    verilog!(v, "    pmu$core_events = {};", literal(top.pmu.core_events.width(), 0));
    verilog!(
        v,
        "    pmu$kernel = adapter$kernel;\n    pmu$bb_end = adapter$bb_end;\n    pmu$bb_addr = adapter$bb_addr;"
    );
    for name in ["pm_mark", "pid", "reg_thread", "reg_priv", "reg_addr", "reg_wdata", "reg_write", "reg_read"] {
        verilog!(v, "    pmu${name} = {name};");
    }
    verilog!(v, "    pmu$trace_ready = trace_ready;");
    for name in ["pmi", "reg_rdata", "reg_fault", "trace_data", "trace_valid", "trace_last"] {
        verilog!(v, "    {name} = pmu${name};");
    }
    verilog!(v, "end");
    // A table that names some of the events leaves the others' bits unread.
    let unused: Vec<String> = (0..map.harts)
        .flat_map(|t| {
            (0..EVENT_COUNT)
                .filter(|bit| !map.fields.iter().any(|field| field.0 == *bit))
                .map(move |bit| format!("adapter$events[{}]", t * EVENT_COUNT + bit))
        })
        .collect();
    v.push_str(&unused_sink("events", &unused));
    v
}
