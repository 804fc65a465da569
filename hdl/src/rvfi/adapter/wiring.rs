//! How the adapter connects its blocks in Verilog, and which inputs of its blocks it
//! drives. Hart t's fields are [t*w +: w] of each packed port; its blocks are
//! `readers$t`, `classifiers$t`, `kernels$t` and `trackers$t`. The native side (`mod.rs`) evaluates
//! the same connections in signal order; the lockstep runs against the Verilog check
//! that both say the same.
use rust_hdl::prelude::*;

use super::RvfiAdapter;
use crate::custom::{literal, range, slice};
use crate::flip_flops::declarations;
use crate::rvfi::events::EVENT_COUNT;
use crate::rvfi::port;
use crate::verilog;

/// Mark every block input the adapter drives, and its outputs.
pub(super) fn connect(adapter: &mut RvfiAdapter) {
    for r in &mut adapter.readers {
        r.clock.connect();
        r.reset.connect();
        r.valid.connect();
        r.insn.connect();
        r.trap.connect();
        r.intr.connect();
        r.pc_rdata.connect();
        r.pc_wdata.connect();
        r.mem_rmask.connect();
    }
    for c in &mut adapter.classifiers {
        c.valid.connect();
        c.insn.connect();
        c.trap.connect();
        c.intr.connect();
        c.pc_rdata.connect();
        c.pc_wdata.connect();
        c.mem_rmask.connect();
        c.mem_wmask.connect();
    }
    for k in &mut adapter.kernels {
        k.clock.connect();
        k.reset.connect();
        k.valid.connect();
        k.intr.connect();
        k.mode.connect();
        k.handler_return.connect();
        k.last.connect();
    }
    for b in &mut adapter.trackers {
        b.clock.connect();
        b.reset.connect();
        b.valid.connect();
        b.kernel.connect();
        b.ends_block.connect();
        b.pc_rdata.connect();
    }
    adapter.events.connect();
    adapter.kernel.connect();
    adapter.bb_end.connect();
    adapter.bb_addr.connect();
}

/// `{name(last), ..., name(0)}`: one signal per hart, hart 0 at the LSBs.
fn concat(count: usize, name: impl Fn(usize) -> String) -> String {
    let parts: Vec<String> = (0..count).rev().map(name).collect();
    format!("{{{}}}", parts.join(", "))
}

/// The adapter's Verilog: its blocks' connections and the register stage.
pub(super) fn verilog(adapter: &RvfiAdapter) -> String {
    let (harts, xlen, aw) = adapter.shape();
    let widths = port::widths(xlen);
    // Hart t's field of the packed RVFI port `i` (port::NAMES order).
    let field = |i: usize, t: usize| slice(port::NAMES[i], t * widths[i], widths[i], harts * widths[i]);
    let mut v = String::new();
    v.push_str(&declarations(&adapter.flip_flops()[..4]));
    verilog!(v, "always @(*) begin");
    for t in 0..harts {
        let (c, k, b) = (format!("classifiers${t}"), format!("kernels${t}"), format!("trackers${t}"));
        let r = format!("readers${t}");
        verilog!(v, "    {r}$clock = clock;\n    {r}$reset = reset;");
        let inputs = [("valid", 0), ("insn", 1), ("trap", 2), ("intr", 3), ("pc_rdata", 5), ("pc_wdata", 6)];
        for (input, i) in inputs.into_iter().chain([("mem_rmask", 7)]) {
            verilog!(v, "    {r}${input} = {};", field(i, t));
        }
        verilog!(v, "    // The classifier takes the retirement as the core's reader gives it.");
        verilog!(v, "    {c}$valid = {r}$read_valid;\n    {c}$insn = {};\n    {c}$trap = {r}$read_trap;", field(1, t));
        verilog!(v, "    {c}$intr = {r}$read_intr;\n    {c}$pc_rdata = {};", field(5, t));
        verilog!(v, "    {c}$pc_wdata = {r}$read_pc_wdata;\n    {c}$mem_rmask = {r}$read_rmask;");
        verilog!(v, "    {c}$mem_wmask = {};", field(8, t));
        verilog!(v, "    {k}$clock = clock;\n    {k}$reset = reset;\n    {k}$valid = {r}$read_valid;");
        verilog!(v, "    {k}$intr = {r}$read_intr;\n    {k}$mode = {};", field(4, t));
        verilog!(v, "    {k}$handler_return = {c}$handler_return;");
        verilog!(v, "    // The kernel value of the last retirement is the registered output.");
        verilog!(v, "    {k}$last = {};", slice("kernel_q", t, 1, harts));
        verilog!(v, "    {b}$clock = clock;\n    {b}$reset = reset;\n    {b}$valid = {r}$read_valid;");
        verilog!(v, "    {b}$kernel = {k}$kernel;\n    {b}$ends_block = {c}$ends_block;");
        verilog!(v, "    {b}$pc_rdata = {};", field(5, t));
    }
    verilog!(v, "    events = events_q;\n    kernel = kernel_q;\n    bb_end = bb_end_q;\n    bb_addr = bb_addr_q;");
    verilog!(v, "end");
    verilog!(v, "// The one register stage: what the retirement of cycle c gives shows in cycle c+1.");
    verilog!(
        v,
        "wire [{}:0] events_d = {};",
        harts * EVENT_COUNT - 1,
        concat(harts, |t| format!("classifiers${t}$events"))
    );
    verilog!(v, "wire {}kernel_d = {};", range(harts), concat(harts, |t| format!("kernels${t}$kernel")));
    verilog!(v, "wire {}bb_end_d = {};", range(harts), concat(harts, |t| format!("trackers${t}$bb_end")));
    verilog!(v, "wire [{}:0] bb_addr_d = {};", harts * aw - 1, concat(harts, |t| format!("trackers${t}$bb_addr")));
    verilog!(v, "always @(posedge clock) begin");
    verilog!(v, "    if (reset) begin");
    verilog!(v, "        events_q <= {};", literal(harts * EVENT_COUNT, 0));
    verilog!(v, "        kernel_q <= {0};\n        bb_end_q <= {0};", literal(harts, 0));
    verilog!(v, "        bb_addr_q <= {};", literal(harts * aw, 0));
    verilog!(v, "    end else begin");
    verilog!(v, "        events_q <= events_d;\n        kernel_q <= kernel_d;");
    verilog!(v, "        bb_end_q <= bb_end_d;\n        bb_addr_q <= bb_addr_d;");
    verilog!(v, "    end");
    verilog!(v, "end");
    v
}
