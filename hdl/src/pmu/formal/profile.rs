//! The profile table (docs/pmu.md §15): every record the table takes is counted
//! exactly once, in a summary record sent or in an entry it holds, with every value in
//! its sums (so no addition wraps); a flush leaves no valid entry; with SUMMARIZE = 0
//! the stream is §13's; the stream keeps the AXI4-Stream rules; PROFILE_EVICTED counts
//! evictions. The accounting is kept by formal-only counters that follow the RAM's
//! writes: what an entry held before a write comes from the read register, which
//! holds the entry being written (§15.4).
use crate::formal::{implies, ModuleProperties, Property};
use crate::pmu::params::PmuParams;
use crate::pmu::profile::table::Phase;
use crate::pmu::profile::{TableShape, EXECUTIONS_BITS};

/// The properties of the table (`profile`).
pub(super) fn table(params: &PmuParams) -> ModuleProperties {
    let shape = TableShape::of(params).expect("the profile table's properties need a table");
    let (k, cw) = (shape.counters, shape.counter_width);
    let phase = |p: Phase| format!("(phase_q == 3'h{:x})", p.code());
    // The fields of the entry written and of the entry it replaces (64-bit sums: E
    // entries of CW bits never reach 2^64).
    let new_field = |lsb: usize, width: usize| format!("{{{}'h0, write_data[{}:{lsb}]}}", 64 - width, lsb + width - 1);
    let old_field = |lsb: usize, width: usize| format!("{{{}'h0, read_data_q[{}:{lsb}]}}", 64 - width, lsb + width - 1);
    let counted = |field: String, valid: &str| format!("({valid} ? {field} : 64'h0)");
    let written = "(write_enable & ~clearing_q)";
    let sent = format!("({} | {}) & ready & at_last", phase(Phase::Evicting), phase(Phase::Flushing));
    let mut declarations = vec![
        "reg [63:0] f_taken; reg [63:0] f_sent; reg [63:0] f_held; reg [31:0] f_valid_entries;".to_string(),
        "initial begin f_taken = 64'h0; f_sent = 64'h0; f_held = 64'h0; f_valid_entries = 32'h0; end".to_string(),
    ];
    let mut updates = vec![
        format!("f_taken <= f_taken + {{63'h0, {}}};", phase(Phase::Updating)),
        format!(
            "f_held <= f_held - ({written} ? {} : 64'h0) + ({written} ? {} : 64'h0);",
            counted(old_field(shape.executions_lsb(), EXECUTIONS_BITS), "read_data_q[0]"),
            counted(new_field(shape.executions_lsb(), EXECUTIONS_BITS), "write_data[0]")
        ),
        format!("f_sent <= f_sent + (({sent}) ? {} : 64'h0);", old_field(shape.executions_lsb(), EXECUTIONS_BITS)),
        format!(
            "f_valid_entries <= f_valid_entries + ({written} ? {{31'h0, write_data[0]}} - {{31'h0, read_data_q[0]}} : 32'h0);"
        ),
    ];
    let mut accounted = vec![format!("f_taken == f_sent + f_held + {{63'h0, {}}}", phase(Phase::Evicting))];
    for i in 0..k {
        let lsb = shape.sum_lsb(i);
        declarations.push(format!("reg [63:0] f_taken_{i}; reg [63:0] f_sent_{i}; reg [63:0] f_held_{i};"));
        declarations.push(format!("initial begin f_taken_{i} = 64'h0; f_sent_{i} = 64'h0; f_held_{i} = 64'h0; end"));
        let value = format!("{{{}'h0, values_q[{}:{}]}}", 64 - cw, (i + 1) * cw - 1, i * cw);
        updates.push(format!("f_taken_{i} <= f_taken_{i} + ({} ? {value} : 64'h0);", phase(Phase::Updating)));
        updates.push(format!(
            "f_held_{i} <= f_held_{i} - ({written} ? {} : 64'h0) + ({written} ? {} : 64'h0);",
            counted(old_field(lsb, cw), "read_data_q[0]"),
            counted(new_field(lsb, cw), "write_data[0]")
        ));
        updates.push(format!("f_sent_{i} <= f_sent_{i} + (({sent}) ? {} : 64'h0);", old_field(lsb, cw)));
        accounted
            .push(format!("f_taken_{i} == f_sent_{i} + f_held_{i} + ({} ? {value} : 64'h0)", phase(Phase::Evicting)));
    }
    declarations.push("always @(posedge clock) begin".to_string());
    declarations.push("    if (reset) begin".to_string());
    declarations
        .push("        f_taken <= 64'h0; f_sent <= 64'h0; f_held <= 64'h0; f_valid_entries <= 32'h0;".to_string());
    for i in 0..k {
        declarations.push(format!("        f_taken_{i} <= 64'h0; f_sent_{i} <= 64'h0; f_held_{i} <= 64'h0;"));
    }
    declarations.push("    end else begin".to_string());
    declarations.extend(updates.into_iter().map(|update| format!("        {update}")));
    declarations.push("    end\nend".to_string());
    let pass_through = format!(
        "{} || ({} && !summarize_q && !(flushing_q && pending_q == 0))",
        phase(Phase::Passing),
        phase(Phase::Idle)
    );
    let properties = vec![
        Property::always(
            "records_counted_once",
            "docs/pmu.md §15.5: every record the table takes is counted exactly once, with all its values: in a summary \
             record sent, in the entry that holds it, or (while its entry is being evicted) on its way in",
            accounted.join(" && "),
        ),
        Property::after_edge(
            "flush_empties_table",
            "docs/pmu.md §15.4: when a flush ends, no entry is valid",
            implies("$past(flushing_q) && !flushing_q", "f_valid_entries == 32'h0 && f_held == 64'h0"),
        ),
        Property::always(
            "summarize_off_is_the_trace_stream",
            "docs/pmu.md §15.4: with SUMMARIZE = 0 and no flush waiting, and while a record passes, the trace ports are \
             the queue's stream (§13.5) and the queue moves with trace_ready",
            implies(
                &pass_through,
                "valid == in_valid && data == (in_valid ? in_data : 64'h0) && last == (in_valid && in_last) && \
                 (!in_valid || in_ready == ready)",
            ),
        ),
        Property::after_edge(
            "summarize_off_takes_nothing",
            "docs/pmu.md §15.4: a record is taken only while SUMMARIZE = 1",
            implies(&format!("$past({} && !summarize_q)", phase(Phase::Idle)), &format!("!{}", phase(Phase::Taking))),
        ),
        Property::after_edge(
            "stream_holds",
            "docs/pmu.md §13.5: once trace_valid is 1, the word and trace_last hold until the word moves",
            implies("$past(valid && !ready)", "valid && data == $past(data) && last == $past(last)"),
        ),
        Property::always(
            "idle_stream_zero",
            "docs/pmu.md §13.5: while trace_valid is 0, trace_data and trace_last are 0",
            "valid || (data == 64'h0 && !last)",
        ),
        Property::after_edge(
            "evicted_write_then_eviction",
            "docs/pmu.md §15.1: a PROFILE_EVICTED write clears it; an eviction completing at the same edge then counts 1",
            implies("$past(evicted_write)", "evicted == {31'h0, $past(evicted_now)}"),
        ),
        Property::after_edge(
            "evicted_counts_evictions",
            "docs/pmu.md §15.1: PROFILE_EVICTED counts each eviction at the edge its last word moves, saturating",
            implies(
                "$past(!evicted_write)",
                "evicted == $past(evicted) + {31'h0, $past(evicted_now) && !$past(&evicted)}",
            ),
        ),
        Property::cover("entry_added", "docs/pmu.md §15.4: a record added to its entry is reachable", format!("$past({} && add)", phase(Phase::Updating))),
        Property::cover("entry_evicted", "docs/pmu.md §15.4: an eviction is reachable", "$past(evicted_now)"),
        Property::cover(
            "entry_flushed",
            "docs/pmu.md §15.4: a flush that sends an entry is reachable",
            format!("$past({} && ready && at_last)", phase(Phase::Flushing)),
        ),
    ];
    ModuleProperties { declarations, properties }
}
