//! The PMU's native evaluation: its blocks' Rust twins run once per cycle, in the
//! order their signals flow, instead of by rust-hdl's delta cycles over the whole
//! hierarchy.
//!
//! The top's outputs come from flip-flops only (docs/pmu.md §3), so nothing needs
//! evaluating between edges. At each rising edge of `clock`:
//! 1. every block's inputs are driven from the top's ports and from the outputs of the
//!    blocks before it, each block evaluated as soon as its inputs are final (its
//!    combinational outputs feed the next ones);
//! 2. the two inputs that only act at the edge and come from a later block (a counter's
//!    overflow into its thread's status, the queue's drop into TRACE_DROPPED) are
//!    driven last;
//! 3. every block takes the edge and evaluates its outputs from its new state.
//!
//! A block's inputs are driven and latched at once ([`put`], [`DynSignal::latch`]); its
//! outputs are read where it wrote them (`next`). The connections are those of the
//! Verilog side (`wiring.rs`); the lockstep runs of the whole PMU against its Verilog
//! check that both say the same.
use rust_hdl::prelude::*;

use super::profile::table::ProfileTable;
use super::regmap::evtsel;
use super::top::Pmu;
use super::trace::queue::TraceQueue;
use crate::dyn_signal::{low_mask, DynSignal};

/// Drive a rust-hdl input and latch it.
fn put<T: Synth>(signal: &mut Signal<In, T>, value: T) {
    signal.next = value;
    signal.update_all();
}

/// Drive a run-time-width input from `value` and latch it.
fn put_value(signal: &mut DynSignal<In>, value: u64) {
    signal.set(value);
    signal.latch();
}

/// Evaluate a block once with its inputs as driven (no edge).
fn evaluate<B: Logic>(block: &mut B) {
    block.update();
}

/// A rising edge of a block's clock, then its outputs from its new state.
fn clock_edge<B: Logic>(block: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    put(clock(block), Clock { clk: false });
    put(clock(block), Clock { clk: true });
    block.update();
    // Latched again, so that the edge is seen once.
    put(clock(block), Clock { clk: true });
}

/// Evaluate every block once (at construction: outputs from the reset state).
pub(super) fn settle(top: &mut Pmu) {
    evaluate(&mut top.decoder);
    evaluate(&mut top.any_sums);
    evaluate(&mut top.inputs);
    evaluate(&mut top.tsc);
    top.selects.iter_mut().for_each(evaluate);
    top.samplers.iter_mut().for_each(evaluate);
    top.controls.iter_mut().for_each(evaluate);
    top.shadow_controls.iter_mut().for_each(evaluate);
    top.counters.iter_mut().for_each(evaluate);
    evaluate(&mut top.trace_control);
    evaluate(&mut top.trace_record);
    evaluate(&mut top.trace_queue);
    if let Some(profile) = &mut top.profile.0 {
        profile_stream(profile, &top.trace_queue);
    }
    drive_port(top);
    evaluate(&mut top.port);
    outputs(top);
}

/// The native top, called at every delta cycle: the whole cycle at a rising edge, and
/// the outputs (from flip-flops) otherwise.
pub(super) fn update(top: &mut Pmu) {
    if top.clock.pos_edge() {
        drive(top);
        edge(top);
    }
    outputs(top);
}

/// The register port's address decode, strobes and read sources.
fn drive_port(top: &mut Pmu) {
    let (threads, k, cw) = top.shape();
    let reset = top.reset.val();
    let port = &mut top.port;
    put(&mut port.reset, reset);
    put(&mut port.thread, top.reg_thread.val());
    put(&mut port.privileged, top.reg_priv.val());
    put(&mut port.addr, top.reg_addr.val());
    put(&mut port.read, top.reg_read.val());
    put(&mut port.write, top.reg_write.val());
    let sources = &mut port.sources;
    sources.tsc.set(top.tsc.value.get());
    sources.trace_ctrl.set(top.trace_control.ctrl.get());
    sources.trace_pid.set(top.trace_control.trace_pid.get());
    sources.trace_dropped.set(top.trace_control.dropped.get());
    if let Some(profile) = &top.profile.0 {
        sources.profile_ctrl.get_mut().set(profile.ctrl.get());
        sources.profile_evicted.get_mut().set(profile.evicted.get());
    }
    for n in 0..threads * k {
        sources.counters.set_field(n * cw, cw, top.counters[n].value.get());
        sources.shadows.set_field(n * cw, cw, top.counters[n].shadow.get());
        sources.evtsels.set_field(n * 32, 32, top.selects[n].evtsel.next.index() as u64);
    }
    for t in 0..threads {
        let (control, shadow) = (&top.controls[t], &top.shadow_controls[t]);
        sources.global_ctrl.set_field(t * k, k, control.global_ctrl.get());
        sources.status.set_field(t * k, k, control.status.get());
        sources.spflt_ctrl.set_field(t * k, k, control.spflt_ctrl.get());
        sources.user_pref.set_bit(t, control.user_pref.next);
        sources.save_on_entry.set_field(t * k, k, shadow.save_on_entry.get());
        sources.restore_on_exit.set_field(t * k, k, shadow.restore_on_exit.get());
        sources.freeze.set_bit(t, control.freeze.next);
        sources.user_access.set_field(t * 3, 3, control.user_access.next.index() as u64);
    }
    sources.latch();
}

/// Step 1 and 2: every block's inputs for this cycle, in signal order.
fn drive(top: &mut Pmu) {
    let (threads, k, cw) = top.shape();
    let reset = top.reset.val();
    let wdata = top.reg_wdata.get();
    let thread_width = top.thread_width();

    put(&mut top.decoder.code, (wdata & 0xFFFF).to_bits());
    evaluate(&mut top.decoder);
    drive_port(top);
    evaluate(&mut top.port);
    let (key, known) = (top.decoder.key.get(), top.decoder.known.next);
    top.any_sums.events.set_words(top.events.words());
    top.any_sums.events.latch();
    evaluate(&mut top.any_sums);
    put(&mut top.inputs.reset, reset);
    put_value(&mut top.inputs.kernel_in, top.kernel.get());

    let strobes = &top.port.strobes;
    for n in 0..threads * k {
        let written = strobes.evtsel.bit(n);
        let select = &mut top.selects[n];
        put(&mut select.reset, reset);
        put(&mut select.write, written);
        put(&mut select.wdata, (wdata & 0xFFFF_FFFF).to_bits());
        put_value(&mut select.decoded_key, key);
        put(&mut select.decoded_known, known);
        evaluate(select);
        let (select, sampler) = (&top.selects[n], &mut top.samplers[n]);
        put(&mut sampler.reset, reset);
        put_value(&mut sampler.key, select.key.get());
        put(&mut sampler.any, select.evtsel.next.get_bit(evtsel::ANY.lsb));
        put(&mut sampler.written, written);
        put_value(&mut sampler.written_key, key);
        put(&mut sampler.written_any, wdata >> evtsel::ANY.lsb & 1 == 1);
        sampler.events.set_from(top.events.words(), (n / k) * thread_width);
        sampler.events.latch();
        sampler.core_events.set_words(top.core_events.words());
        sampler.core_events.latch();
        sampler.sums.set_words(top.any_sums.sums.words());
        sampler.sums.latch();
    }
    for t in 0..threads {
        let control = &mut top.controls[t];
        put(&mut control.reset, reset);
        put_value(&mut control.wdata, wdata);
        put(&mut control.global_ctrl_write, strobes.global_ctrl.bit(t));
        put(&mut control.ovf_ctrl_write, strobes.ovf_ctrl.bit(t));
        put(&mut control.spflt_control_write, strobes.spflt_control.bit(t));
        put(&mut control.spflt_write, strobes.spflt.bit(t));
        put(&mut control.freeze_write, strobes.freeze.bit(t));
        put(&mut control.user_access_write, strobes.user_access.bit(t));
        for i in 0..k {
            control.int_enable.set_bit(i, top.selects[t * k + i].evtsel.next.get_bit(evtsel::INT.lsb));
        }
        control.int_enable.latch();
        evaluate(control);
        let shadow = &mut top.shadow_controls[t];
        put(&mut shadow.reset, reset);
        put_value(&mut shadow.wdata, wdata);
        put(&mut shadow.write, strobes.shadow_ctrl.bit(t));
        put(&mut shadow.kernel, top.inputs.kernel.bit(t));
        evaluate(shadow);
    }
    let control = &mut top.trace_control;
    put(&mut control.reset, reset);
    put_value(&mut control.wdata, wdata);
    put(&mut control.ctrl_write, strobes.trace_ctrl.bit(0));
    put(&mut control.pid_write, strobes.trace_pid.bit(0));
    put(&mut control.dropped_write, strobes.trace_dropped.bit(0));
    put_value(&mut control.bb_end, top.bb_end.get());
    control.bb_addr.set_words(top.bb_addr.words());
    control.bb_addr.latch();
    control.pid.set_words(top.pid.words());
    control.pid.latch();
    let tsc = &mut top.tsc;
    put(&mut tsc.reset, reset);
    put(&mut tsc.write, strobes.tsc.bit(0));
    put_value(&mut tsc.wdata, wdata);

    for n in 0..threads * k {
        let (t, i) = (n / k, n % k);
        let (select, control, shadow) = (&top.selects[n], &top.controls[t], &top.shadow_controls[t]);
        let counter = &mut top.counters[n];
        put(&mut counter.reset, reset);
        put_value(&mut counter.count, top.samplers[n].count.get());
        put(&mut counter.evtsel, select.evtsel.next);
        put(&mut counter.evtsel_next, select.evtsel_next.next);
        put(&mut counter.known_next, select.known_next.next);
        put(&mut counter.enabled_next, control.enabled_next.bit(i));
        put(&mut counter.kernel_next, top.kernel.bit(t));
        put(&mut counter.frozen_next, control.freeze_next.next && !top.pm_mark.bit(t));
        put(&mut counter.save, shadow.save.bit(i));
        put(&mut counter.restore, shadow.restore.bit(i));
        put(&mut counter.write, top.port.strobes.counter.bit(n));
        put(&mut counter.restart, top.trace_control.restart.bit(t));
        put(&mut counter.shadow_write, top.port.strobes.shadow.bit(n));
        put_value(&mut counter.wdata, wdata & low_mask(cw));
        evaluate(counter);
    }
    // Step 2: each counter's overflow sets its status bit at the edge.
    for t in 0..threads {
        let control = &mut top.controls[t];
        for i in 0..k {
            control.overflow.set_bit(i, top.counters[t * k + i].overflow.next);
        }
        control.overflow.latch();
    }

    let (control, record) = (&top.trace_control, &mut top.trace_record);
    let iw = record.incs.width() / (threads * k);
    for n in 0..threads * k {
        record.bases.set_field(n * cw, cw, top.counters[n].base.get());
        record.incs.set_field(n * iw, iw, top.counters[n].inc.get());
    }
    record.bases.latch();
    record.incs.latch();
    put_value(&mut record.thread, control.thread.get());
    put(&mut record.new_process, control.new_process.next);
    put_value(&mut record.address, control.address.get());
    put_value(&mut record.pid, control.block_pid.get());
    evaluate(record);
    // The queue's ready comes from the profile table when there is one (§15.4).
    let ready = match &mut top.profile.0 {
        Some(profile) => {
            put(&mut profile.reset, reset);
            put(&mut profile.ready, top.trace_ready.val());
            put_value(&mut profile.wdata, wdata);
            put(&mut profile.ctrl_write, top.port.strobes.profile_ctrl.get().bit(0));
            put(&mut profile.evicted_write, top.port.strobes.profile_evicted.get().bit(0));
            profile_stream(profile, &top.trace_queue);
            profile.in_ready.next
        }
        None => top.trace_ready.val(),
    };
    let queue = &mut top.trace_queue;
    put(&mut queue.reset, reset);
    put(&mut queue.push, control.record.next);
    queue.entry.set_words(top.trace_record.entry.words());
    queue.entry.latch();
    put(&mut queue.ready, ready);
    evaluate(queue);
    // Step 2: a record dropped at this edge counts in TRACE_DROPPED; one that joins the
    // queue counts in the profile table's record count; a PROFILE_CTRL write that
    // changes SUMMARIZE forgets the previous block end (§15.1).
    let (record, drop) = (top.trace_control.record.next, top.trace_queue.drop.next);
    put(&mut top.trace_control.drop, drop);
    if let Some(profile) = &mut top.profile.0 {
        put(&mut profile.accepted, record && !drop);
        let summarize = profile.ctrl.get() & 1 == 1;
        let changes = profile.ctrl_write.val() && (wdata & 1 == 1) != summarize;
        put(top.trace_control.forget.get_mut(), changes);
    }
}

/// The queue's stream into the profile table, then the table's outputs.
fn profile_stream(profile: &mut ProfileTable, queue: &TraceQueue) {
    put(&mut profile.in_valid, queue.valid.next);
    put_value(&mut profile.in_data, queue.data.get());
    put(&mut profile.in_last, queue.last.next);
    evaluate(profile);
}

/// Step 3: every block takes the edge; then `pmi`, whose INT enables come from the
/// event selects, from their new values.
fn edge(top: &mut Pmu) {
    clock_edge(&mut top.inputs, |b| &mut b.clock);
    clock_edge(&mut top.tsc, |b| &mut b.clock);
    clock_edge(&mut top.port, |b| &mut b.clock);
    clock_edge(&mut top.trace_control, |b| &mut b.clock);
    clock_edge(&mut top.trace_queue, |b| &mut b.clock);
    if let Some(profile) = &mut top.profile.0 {
        clock_edge(profile, |b| &mut b.clock);
        profile_stream(profile, &top.trace_queue);
    }
    for block in &mut top.selects {
        clock_edge(block, |b| &mut b.clock);
    }
    for block in &mut top.samplers {
        clock_edge(block, |b| &mut b.clock);
    }
    for block in &mut top.counters {
        clock_edge(block, |b| &mut b.clock);
    }
    for block in &mut top.controls {
        clock_edge(block, |b| &mut b.clock);
    }
    for block in &mut top.shadow_controls {
        clock_edge(block, |b| &mut b.clock);
    }
    let k = top.shape().1;
    for (t, control) in top.controls.iter_mut().enumerate() {
        for i in 0..k {
            control.int_enable.set_bit(i, top.selects[t * k + i].evtsel.next.get_bit(evtsel::INT.lsb));
        }
        control.int_enable.latch();
        evaluate(control);
    }
}

/// The top's outputs, all from flip-flops.
fn outputs(top: &mut Pmu) {
    for t in 0..top.controls.len() {
        top.pmi.set_bit(t, top.controls[t].pmi.next);
    }
    top.reg_rdata.set(top.port.rdata.get());
    top.reg_fault.next = top.port.fault.next;
    let (data, valid, last) = match &top.profile.0 {
        Some(profile) => (&profile.data, profile.valid.next, profile.last.next),
        None => (&top.trace_queue.data, top.trace_queue.valid.next, top.trace_queue.last.next),
    };
    top.trace_data.set(data.get());
    top.trace_valid.next = valid;
    top.trace_last.next = last;
}
