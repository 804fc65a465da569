//! Counter-level tracing (docs/pmu.md §13): every record made is sent or counted in
//! TRACE_DROPPED, the queue's occupancy and pointers agree, records are dropped only
//! when the queue is full, and the stream keeps the AXI4-Stream rules.
use crate::custom::{bits_for, slice};
use crate::formal::{implies, ModuleProperties, Property};
use crate::pmu::params::PmuParams;

/// The trace queue (`trace_queue`). `f_queued` counts records made and not dropped,
/// less records whose last word moved: the records the queue must hold.
pub(super) fn queue(params: &PmuParams) -> ModuleProperties {
    let depth = params.trace_depth;
    let (ow, pw) = (bits_for(depth), depth.trailing_zeros() as usize);
    let leaves = "(valid & ready & last)";
    let declarations = vec![
        format!("reg [{}:0] f_queued;", ow - 1),
        format!("initial f_queued = {ow}'h0;"),
        "always @(posedge clock)".to_string(),
        format!(
            "    f_queued <= reset ? {ow}'h0 : f_queued + {{{}'h0, push & ~drop}} - {{{}'h0, {leaves}}};",
            ow - 1,
            ow - 1
        ),
    ];
    let properties = vec![
        Property::always(
            "records_accounted",
            "docs/pmu.md §13.4: every record made is either sent or dropped (and counted); the queue holds the others",
            "occupancy_q == f_queued",
        ),
        Property::always("occupancy_bounded", "docs/pmu.md §13.4: the queue holds at most D records", format!("f_queued <= {ow}'d{depth}")),
        Property::always(
            "pointers_agree",
            "docs/pmu.md §13.4: the records held are those between the read and write pointers",
            format!("(write_pointer_q - read_pointer_q) == occupancy_q[{}:0]", pw - 1),
        ),
        Property::always(
            "drop_only_when_full",
            "docs/pmu.md §13.4: a record is dropped exactly when the occupancy, after a record leaving at that edge, is D",
            format!("drop == (push && (f_queued - {{{}'h0, {leaves}}}) == {ow}'d{depth})", ow - 1),
        ),
        Property::always(
            "idle_stream_zero",
            "docs/pmu.md §13.5: while trace_valid is 0, trace_data and trace_last are 0; a record is on the stream whenever one is held",
            format!("valid == (f_queued != {ow}'h0) && (valid || (data == 64'h0 && !last && word_q == 0))"),
        ),
        Property::after_edge(
            "stream_holds",
            "docs/pmu.md §13.5: once valid, the word and trace_last hold until the word moves",
            implies("$past(valid && !ready)", "valid && data == $past(data) && last == $past(last)"),
        ),
        Property::cover("drop_reached", "docs/pmu.md §13.4: a dropped record is reachable", "$past(drop)"),
        Property::cover(
            "back_to_back",
            "docs/pmu.md §13.5: a record made at the edge where another leaves is reachable",
            format!("$past(push && {leaves})"),
        ),
    ];
    ModuleProperties { declarations, properties }
}

/// The trace control (`trace_control`): TRACE_DROPPED, restarts and records of the
/// traced thread only, and the process-change rule after a TRACE_CTRL write.
pub(super) fn control(params: &PmuParams) -> ModuleProperties {
    let t = params.threads;
    let restarts: Vec<String> =
        (0..t).map(|i| implies(&slice("restart", i, 1, t), &format!("thread == 2'd{i} && ctrl[0]"))).collect();
    let properties = vec![
        Property::after_edge(
            "dropped_write_then_drop",
            "docs/pmu.md §7 and §13.4: a TRACE_DROPPED write clears it; a record dropped at the same edge then counts 1",
            implies("$past(dropped_write)", "dropped == {31'h0, $past(drop)}"),
        ),
        Property::after_edge(
            "drop_counted",
            "docs/pmu.md §13.4: a dropped record counts 1 in TRACE_DROPPED, saturating at 2^32-1",
            implies("$past(!dropped_write && drop)", "dropped == ($past(&dropped) ? 32'hffffffff : $past(dropped) + 32'h1)"),
        ),
        Property::after_edge(
            "dropped_holds",
            "docs/pmu.md §13.4: TRACE_DROPPED changes only by a drop or a write",
            implies("$past(!dropped_write && !drop)", "dropped == $past(dropped)"),
        ),
        Property::always(
            "restart_traced_thread",
            "docs/pmu.md §13.2: only the traced thread's counters restart, and only while TRACE_EN = 1",
            restarts.iter().map(|r| format!("({r})")).collect::<Vec<_>>().join(" && "),
        ),
        Property::always("record_at_block_end", "docs/pmu.md §13.2: a record is made only at a block end", "!record || |restart"),
        Property::after_edge(
            "ctrl_write_forgets_last_block",
            "docs/pmu.md §13.3: after a TRACE_CTRL write the first block end counts as having no previous one (NEW_PROCESS = 1)",
            implies("$past(ctrl_write)", "new_process"),
        ),
        Property::cover(
            "record_same_process",
            "docs/pmu.md §13.3: a record without a process change is reachable",
            "$past(record && !new_process)",
        ),
    ];
    ModuleProperties { declarations: vec![], properties }
}
