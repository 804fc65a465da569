//! How the PMU top connects its blocks, written twice side by side: natively (what
//! rust-hdl simulates) and as Verilog (what is generated). The block counts come from
//! T and K at run time, so the top cannot use `#[hdl_gen]`; the co-simulation of the
//! native model against Verilator checks that both say the same.
//!
//! Counter n = t*K + i is counter i of thread t; the register port reads per-counter
//! values packed as [n*w +: w] and per-thread values as [t*w +: w].
use rust_hdl::prelude::*;

use super::regmap::evtsel;
use super::top::Pmu;
use crate::custom::slice;
use crate::dyn_signal::low_mask;
use crate::verilog;

/// The native connections, evaluated at every delta cycle.
pub(super) fn update(top: &mut Pmu) {
    let (threads, k, cw) = top.shape();
    let (clock, reset) = (top.clock.val(), top.reset.val());
    let wdata = top.reg_wdata.get();

    let thread_width = top.thread_width();
    let inputs = &mut top.inputs;
    (inputs.clock.next, inputs.reset.next) = (clock, reset);
    inputs.kernel_in.set(top.kernel.get());
    top.any_sums.events.set_words(top.events.words());
    top.decoder.code.next = (wdata & 0xFFFF).to_bits();

    for n in 0..threads * k {
        let (t, i) = (n / k, n % k);
        let select = &mut top.selects[n];
        (select.clock.next, select.reset.next) = (clock, reset);
        select.write.next = top.port.strobes.evtsel.bit(n);
        select.wdata.next = (wdata & 0xFFFF_FFFF).to_bits();
        select.decoded_index.set(top.decoder.key.get());
        select.decoded_known.next = top.decoder.known.val();
        let select = &top.selects[n];
        let sampler = &mut top.samplers[n];
        (sampler.clock.next, sampler.reset.next) = (clock, reset);
        sampler.index.set(select.index.get());
        sampler.any.next = select.evtsel.val().get_bit(evtsel::ANY.lsb);
        sampler.written.next = top.port.strobes.evtsel.bit(n);
        sampler.written_index.set(top.decoder.key.get());
        sampler.written_any.next = wdata >> evtsel::ANY.lsb & 1 == 1;
        sampler.events.set_from(top.events.words(), t * thread_width);
        sampler.core_events.set_words(top.core_events.words());
        sampler.sums.set_words(top.any_sums.sums.words());
        let sampler = &top.samplers[n];
        let counter = &mut top.counters[n];
        (counter.clock.next, counter.reset.next) = (clock, reset);
        counter.count.set(sampler.count.get());
        counter.evtsel.next = select.evtsel.val();
        counter.evtsel_next.next = select.evtsel_next.val();
        counter.known_next.next = select.known_next.val();
        counter.enabled_next.next = top.controls[t].enabled_next.bit(i);
        counter.kernel_next.next = top.kernel.bit(t);
        counter.frozen_next.next = top.controls[t].freeze_next.val() && !top.pm_mark.bit(t);
        counter.save.next = top.shadow_controls[t].save.bit(i);
        counter.restore.next = top.shadow_controls[t].restore.bit(i);
        counter.write.next = top.port.strobes.counter.bit(n);
        counter.restart.next = top.trace_control.restart.bit(t);
        counter.shadow_write.next = top.port.strobes.shadow.bit(n);
        counter.wdata.set(wdata & low_mask(cw));
    }
    for t in 0..threads {
        let strobes = &top.port.strobes;
        let control = &mut top.controls[t];
        (control.clock.next, control.reset.next) = (clock, reset);
        control.wdata.set(wdata);
        control.global_ctrl_write.next = strobes.global_ctrl.bit(t);
        control.ovf_ctrl_write.next = strobes.ovf_ctrl.bit(t);
        control.spflt_control_write.next = strobes.spflt_control.bit(t);
        control.spflt_write.next = strobes.spflt.bit(t);
        control.freeze_write.next = strobes.freeze.bit(t);
        control.user_access_write.next = strobes.user_access.bit(t);
        for i in 0..k {
            control.overflow.set_bit(i, top.counters[t * k + i].overflow.val());
            control.int_enable.set_bit(i, top.selects[t * k + i].evtsel.val().get_bit(evtsel::INT.lsb));
        }
        let shadow = &mut top.shadow_controls[t];
        (shadow.clock.next, shadow.reset.next) = (clock, reset);
        shadow.wdata.set(wdata);
        shadow.write.next = strobes.shadow_ctrl.bit(t);
        shadow.kernel.next = top.inputs.kernel.bit(t);
    }
    let tsc = &mut top.tsc;
    (tsc.clock.next, tsc.reset.next) = (clock, reset);
    tsc.write.next = top.port.strobes.tsc.bit(0);
    tsc.wdata.set(wdata);

    let control = &mut top.trace_control;
    (control.clock.next, control.reset.next) = (clock, reset);
    control.wdata.set(wdata);
    control.ctrl_write.next = top.port.strobes.trace_ctrl.bit(0);
    control.pid_write.next = top.port.strobes.trace_pid.bit(0);
    control.dropped_write.next = top.port.strobes.trace_dropped.bit(0);
    control.drop.next = top.trace_queue.drop.val();
    control.bb_end.set(top.bb_end.get());
    control.bb_addr.set_words(top.bb_addr.words());
    control.pid.set_words(top.pid.words());
    let (control, record) = (&top.trace_control, &mut top.trace_record);
    let iw = record.incs.width() / (threads * k);
    for n in 0..threads * k {
        record.bases.set_field(n * cw, cw, top.counters[n].base.get());
        record.incs.set_field(n * iw, iw, top.counters[n].inc.get());
    }
    record.thread.set(control.thread.get());
    record.new_process.next = control.new_process.val();
    record.address.set(control.address.get());
    record.pid.set(control.block_pid.get());
    let queue = &mut top.trace_queue;
    (queue.clock.next, queue.reset.next) = (clock, reset);
    queue.push.next = control.record.val();
    queue.entry.set_words(top.trace_record.entry.words());
    queue.ready.next = top.trace_ready.val();
    top.trace_data.set(queue.data.get());
    top.trace_valid.next = queue.valid.val();
    top.trace_last.next = queue.last.val();

    let port = &mut top.port;
    (port.clock.next, port.reset.next) = (clock, reset);
    port.thread.next = top.reg_thread.val();
    port.privileged.next = top.reg_priv.val();
    port.addr.next = top.reg_addr.val();
    port.read.next = top.reg_read.val();
    port.write.next = top.reg_write.val();
    let sources = &mut port.sources;
    sources.tsc.set(top.tsc.value.get());
    sources.trace_ctrl.set(top.trace_control.ctrl.get());
    sources.trace_pid.set(top.trace_control.trace_pid.get());
    sources.trace_dropped.set(top.trace_control.dropped.get());
    for n in 0..threads * k {
        sources.counters.set_field(n * cw, cw, top.counters[n].value.get());
        sources.shadows.set_field(n * cw, cw, top.counters[n].shadow.get());
        sources.evtsels.set_field(n * 32, 32, top.selects[n].evtsel.val().index() as u64);
    }
    for t in 0..threads {
        let (control, shadow) = (&top.controls[t], &top.shadow_controls[t]);
        sources.global_ctrl.set_field(t * k, k, control.global_ctrl.get());
        sources.status.set_field(t * k, k, control.status.get());
        sources.spflt_ctrl.set_field(t * k, k, control.spflt_ctrl.get());
        sources.user_pref.set_bit(t, control.user_pref.val());
        sources.save_on_entry.set_field(t * k, k, shadow.save_on_entry.get());
        sources.restore_on_exit.set_field(t * k, k, shadow.restore_on_exit.get());
        sources.freeze.set_bit(t, control.freeze.val());
        sources.user_access.set_field(t * 3, 3, control.user_access.val().index() as u64);
        top.pmi.set_bit(t, control.pmi.val());
    }
    top.reg_rdata.set(top.port.rdata.get());
    top.reg_fault.next = top.port.fault.val();
}

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
        select.decoded_index.connect();
        select.decoded_known.connect();
    }
    for s in &mut top.samplers {
        s.clock.connect();
        s.reset.connect();
        s.index.connect();
        s.any.connect();
        s.written.connect();
        s.written_index.connect();
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

/// The same connections in Verilog.
pub(super) fn verilog(top: &Pmu) -> String {
    let (threads, k, cw) = top.shape();
    let counters = threads * k;
    let (thread_width, events_width) = (top.thread_width(), top.events.width());
    let bit = |signal: String, width: usize, index: usize| slice(&signal, index, 1, width);
    let mut v = String::new();
    verilog!(v, "always @(*) begin");
    let mut clocked: Vec<String> = ["inputs", "tsc", "port", "trace_control", "trace_queue"].map(String::from).to_vec();
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
        verilog!(v, "    {s}$wdata = reg_wdata[31:0];\n    {s}$decoded_index = decoder$key;\n    {s}$decoded_known = decoder$known;");
        let own_events = if thread_width == 0 {
            "events".to_string()
        } else {
            slice("events", t * thread_width, thread_width, events_width)
        };
        let any = evtsel::ANY.lsb;
        verilog!(v, "    {e}$index = {s}$index;\n    {e}$any = {s}$evtsel[{any}];\n    {e}$written = {written};");
        verilog!(v, "    {e}$written_index = decoder$key;\n    {e}$written_any = reg_wdata[{any}];");
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
    verilog!(v, "    trace_queue$ready = trace_ready;\n    trace_data = trace_queue$data;");
    verilog!(v, "    trace_valid = trace_queue$valid;\n    trace_last = trace_queue$last;");
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
