//! How the PMU top connects its blocks in Verilog (what is generated), and which
//! inputs of its blocks it drives. The block counts come from T and K at run time, so
//! the top cannot use `#[hdl_gen]`; its native side evaluates the same connections in
//! signal order (`schedule.rs`), and the lockstep runs against the Verilog check that
//! both say the same.
//!
//! Counter n = t*K + i is counter i of thread t; the register port reads per-counter
//! values packed as [n*w +: w] and per-thread values as [t*w +: w].
use rust_hdl::prelude::*;

use super::regmap::evtsel;
use super::top::Pmu;
use crate::custom::slice;
use crate::verilog;

/// Mark every child input the top drives, and the top's outputs.
// The connections of one block are grouped in a tuple per line.
#[allow(clippy::unnecessary_operation)]
pub(super) fn connect(top: &mut Pmu) {
    let inputs = &mut top.inputs;
    inputs.clock.connect();
    inputs.reset.connect();
    inputs.kernel_in.connect();
    top.any_sums.events.connect();
    top.decoder.code.connect();
    for select in &mut top.selects {
        select.clock.connect();
        select.reset.connect();
        select.write.connect();
        select.wdata.connect();
        select.decoded_key.connect();
        select.decoded_known.connect();
    }
    for s in &mut top.samplers {
        s.clock.connect();
        s.reset.connect();
        s.key.connect();
        s.any.connect();
        s.written.connect();
        s.written_key.connect();
        s.written_any.connect();
        s.events.connect();
        s.core_events.connect();
        s.sums.connect();
    }
    for c in &mut top.counters {
        c.clock.connect();
        c.reset.connect();
        c.count.connect();
        c.evtsel.connect();
        c.evtsel_next.connect();
        c.known_next.connect();
        c.enabled_next.connect();
        c.kernel_next.connect();
        c.frozen_next.connect();
        c.save.connect();
        c.restore.connect();
        c.write.connect();
        c.shadow_write.connect();
        c.wdata.connect();
        c.restart.connect();
    }
    for c in &mut top.controls {
        c.clock.connect();
        c.reset.connect();
        c.wdata.connect();
        c.global_ctrl_write.connect();
        c.ovf_ctrl_write.connect();
        c.spflt_control_write.connect();
        c.spflt_write.connect();
        c.freeze_write.connect();
        c.user_access_write.connect();
        c.overflow.connect();
        c.int_enable.connect();
    }
    for s in &mut top.shadow_controls {
        s.clock.connect();
        s.reset.connect();
        s.wdata.connect();
        s.write.connect();
        s.kernel.connect();
    }
    let tsc = &mut top.tsc;
    tsc.clock.connect();
    tsc.reset.connect();
    tsc.write.connect();
    tsc.wdata.connect();
    let c = &mut top.trace_control;
    c.clock.connect();
    c.reset.connect();
    c.wdata.connect();
    c.ctrl_write.connect();
    c.pid_write.connect();
    c.dropped_write.connect();
    c.drop.connect();
    c.bb_end.connect();
    c.bb_addr.connect();
    c.pid.connect();
    let r = &mut top.trace_record;
    r.bases.connect();
    r.incs.connect();
    r.thread.connect();
    r.new_process.connect();
    r.address.connect();
    r.pid.connect();
    let q = &mut top.trace_queue;
    q.clock.connect();
    q.reset.connect();
    q.push.connect();
    q.entry.connect();
    q.ready.connect();
    if let Some(profile) = &mut top.profile.0 {
        profile.clock.connect();
        profile.reset.connect();
        profile.in_valid.connect();
        profile.in_data.connect();
        profile.in_last.connect();
        profile.ready.connect();
        profile.accepted.connect();
        profile.wdata.connect();
        profile.ctrl_write.connect();
        profile.evicted_write.connect();
        top.trace_control.forget.get_mut().connect();
    }
    top.trace_data.connect();
    top.trace_valid.connect();
    top.trace_last.connect();
    let port = &mut top.port;
    port.clock.connect();
    port.reset.connect();
    port.thread.connect();
    port.privileged.connect();
    port.addr.connect();
    port.read.connect();
    port.write.connect();
    port.sources.connect_signals();
    top.pmi.connect();
    top.reg_rdata.connect();
    top.reg_fault.connect();
}

/// `{name(last), ..., name(0)}`: one signal per child, the first at the LSBs.
fn concat(count: usize, name: impl Fn(usize) -> String) -> String {
    let parts: Vec<String> = (0..count).rev().map(name).collect();
    format!("{{{}}}", parts.join(", "))
}

/// The profile table between the queue and the trace ports (docs/pmu.md §15), its
/// registers on the port, and the PROFILE_CTRL write that changes SUMMARIZE, which
/// forgets the previous block end (§15.1).
fn profile_verilog() -> String {
    let mut v = String::new();
    verilog!(v, "    profile$in_valid = trace_queue$valid;\n    profile$in_data = trace_queue$data;");
    verilog!(v, "    profile$in_last = trace_queue$last;\n    profile$ready = trace_ready;");
    verilog!(v, "    profile$accepted = trace_control$record & ~trace_queue$drop;\n    profile$wdata = reg_wdata;");
    verilog!(v, "    profile$ctrl_write = port$strobes$profile_ctrl;");
    verilog!(v, "    profile$evicted_write = port$strobes$profile_evicted;");
    verilog!(v, "    trace_control$forget = port$strobes$profile_ctrl & (reg_wdata[0] ^ profile$ctrl[0]);");
    verilog!(v, "    trace_queue$ready = profile$in_ready;\n    trace_data = profile$data;");
    verilog!(v, "    trace_valid = profile$valid;\n    trace_last = profile$last;");
    verilog!(v, "    port$sources$profile_ctrl = profile$ctrl;\n    port$sources$profile_evicted = profile$evicted;");
    v
}

/// The same connections in Verilog.
pub(super) fn verilog(top: &Pmu) -> String {
    let (threads, k, cw) = top.shape();
    let counters = threads * k;
    let (thread_width, events_width) = (top.thread_width(), top.events.width());
    let bit = |signal: String, width: usize, index: usize| slice(&signal, index, 1, width);
    let mut v = String::new();
    verilog!(v, "always @(*) begin");
    let mut clocked: Vec<String> = ["inputs", "tsc", "port", "trace_control", "trace_queue"].map(String::from).to_vec();
    if top.profile.is_present() {
        clocked.push("profile".to_string());
    }
    clocked
        .extend((0..counters).flat_map(|n| [format!("selects${n}"), format!("samplers${n}"), format!("counters${n}")]));
    clocked.extend((0..threads).flat_map(|t| [format!("controls${t}"), format!("shadow_controls${t}")]));
    for block in &clocked {
        verilog!(v, "    {block}$clock = clock;\n    {block}$reset = reset;");
    }
    verilog!(v, "    inputs$kernel_in = kernel;");
    verilog!(v, "    any_sums$events = events;\n    decoder$code = reg_wdata[15:0];");
    for n in 0..counters {
        let (t, i) = (n / k, n % k);
        let (s, e, c) = (format!("selects${n}"), format!("samplers${n}"), format!("counters${n}"));
        let written = bit("port$strobes$evtsel".into(), counters, n);
        verilog!(v, "    {s}$write = {written};");
        verilog!(v, "    {s}$wdata = reg_wdata[31:0];\n    {s}$decoded_key = decoder$key;\n    {s}$decoded_known = decoder$known;");
        let own_events = if thread_width == 0 {
            "events".to_string()
        } else {
            slice("events", t * thread_width, thread_width, events_width)
        };
        let any = evtsel::ANY.lsb;
        verilog!(v, "    {e}$key = {s}$key;\n    {e}$any = {s}$evtsel[{any}];\n    {e}$written = {written};");
        verilog!(v, "    {e}$written_key = decoder$key;\n    {e}$written_any = reg_wdata[{any}];");
        verilog!(
            v,
            "    {e}$events = {own_events};\n    {e}$core_events = core_events;\n    {e}$sums = any_sums$sums;"
        );
        verilog!(v, "    {c}$count = {e}$count;");
        verilog!(v, "    {c}$evtsel = {s}$evtsel;\n    {c}$evtsel_next = {s}$evtsel_next;\n    {c}$known_next = {s}$known_next;");
        verilog!(v, "    {c}$enabled_next = {};", bit(format!("controls${t}$enabled_next"), k, i));
        let (kernel, mark) = (bit("kernel".into(), threads, t), bit("pm_mark".into(), threads, t));
        verilog!(v, "    {c}$kernel_next = {kernel};\n    {c}$frozen_next = controls${t}$freeze_next & ~{mark};");
        verilog!(v, "    {c}$save = {};", bit(format!("shadow_controls${t}$save"), k, i));
        verilog!(v, "    {c}$restore = {};", bit(format!("shadow_controls${t}$restore"), k, i));
        verilog!(v, "    {c}$write = {};", bit("port$strobes$counter".into(), counters, n));
        verilog!(v, "    {c}$restart = {};", bit("trace_control$restart".into(), threads, t));
        verilog!(v, "    {c}$shadow_write = {};", bit("port$strobes$shadow".into(), counters, n));
        verilog!(v, "    {c}$wdata = {};", slice("reg_wdata", 0, cw, 64));
    }
    for t in 0..threads {
        let c = format!("controls${t}");
        verilog!(v, "    {c}$wdata = reg_wdata;");
        for (input, strobe) in [
            ("global_ctrl_write", "global_ctrl"),
            ("ovf_ctrl_write", "ovf_ctrl"),
            ("spflt_control_write", "spflt_control"),
            ("spflt_write", "spflt"),
            ("freeze_write", "freeze"),
            ("user_access_write", "user_access"),
        ] {
            verilog!(v, "    {c}${input} = {};", bit(format!("port$strobes${strobe}"), threads, t));
        }
        verilog!(v, "    {c}$overflow = {};", concat(k, |i| format!("counters${}$overflow", t * k + i)));
        verilog!(
            v,
            "    {c}$int_enable = {};",
            concat(k, |i| format!("selects${}$evtsel[{}]", t * k + i, evtsel::INT.lsb))
        );
        let s = format!("shadow_controls${t}");
        verilog!(
            v,
            "    {s}$wdata = reg_wdata;\n    {s}$write = {};",
            bit("port$strobes$shadow_ctrl".into(), threads, t)
        );
        verilog!(v, "    {s}$kernel = {};", bit("inputs$kernel".into(), threads, t));
    }
    verilog!(v, "    tsc$write = port$strobes$tsc;\n    tsc$wdata = reg_wdata;");
    verilog!(v, "    trace_control$wdata = reg_wdata;\n    trace_control$ctrl_write = port$strobes$trace_ctrl;");
    verilog!(v, "    trace_control$pid_write = port$strobes$trace_pid;\n    trace_control$dropped_write = port$strobes$trace_dropped;");
    verilog!(v, "    trace_control$drop = trace_queue$drop;\n    trace_control$bb_end = bb_end;");
    verilog!(v, "    trace_control$bb_addr = bb_addr;\n    trace_control$pid = pid;");
    verilog!(v, "    trace_record$bases = {};", concat(counters, |n| format!("counters${n}$base")));
    verilog!(v, "    trace_record$incs = {};", concat(counters, |n| format!("counters${n}$inc")));
    verilog!(
        v,
        "    trace_record$thread = trace_control$thread;\n    trace_record$new_process = trace_control$new_process;"
    );
    verilog!(v, "    trace_record$address = trace_control$address;\n    trace_record$pid = trace_control$block_pid;");
    verilog!(v, "    trace_queue$push = trace_control$record;\n    trace_queue$entry = trace_record$entry;");
    if top.profile.is_present() {
        v.push_str(&profile_verilog());
    } else {
        verilog!(v, "    trace_queue$ready = trace_ready;\n    trace_data = trace_queue$data;");
        verilog!(v, "    trace_valid = trace_queue$valid;\n    trace_last = trace_queue$last;");
    }
    verilog!(
        v,
        "    port$sources$trace_ctrl = trace_control$ctrl;\n    port$sources$trace_pid = trace_control$trace_pid;"
    );
    verilog!(v, "    port$sources$trace_dropped = trace_control$dropped;");
    verilog!(v, "    port$thread = reg_thread;\n    port$privileged = reg_priv;\n    port$addr = reg_addr;");
    verilog!(v, "    port$read = reg_read;\n    port$write = reg_write;\n    port$sources$tsc = tsc$value;");
    verilog!(v, "    port$sources$counters = {};", concat(counters, |n| format!("counters${n}$value")));
    verilog!(v, "    port$sources$shadows = {};", concat(counters, |n| format!("counters${n}$shadow")));
    verilog!(v, "    port$sources$evtsels = {};", concat(counters, |n| format!("selects${n}$evtsel")));
    for (source, block, output) in [
        ("global_ctrl", "controls", "global_ctrl"),
        ("status", "controls", "status"),
        ("spflt_ctrl", "controls", "spflt_ctrl"),
        ("user_pref", "controls", "user_pref"),
        ("save_on_entry", "shadow_controls", "save_on_entry"),
        ("restore_on_exit", "shadow_controls", "restore_on_exit"),
        ("freeze", "controls", "freeze"),
        ("user_access", "controls", "user_access"),
    ] {
        verilog!(v, "    port$sources${source} = {};", concat(threads, |t| format!("{block}${t}${output}")));
    }
    verilog!(v, "    pmi = {};", concat(threads, |t| format!("controls${t}$pmi")));
    verilog!(v, "    reg_rdata = port$rdata;\n    reg_fault = port$fault;");
    verilog!(v, "end");
    v
}
