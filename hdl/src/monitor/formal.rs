//! The event-order monitor's formal properties (docs/formal.md §3): the record and
//! the event register against the occurrences (docs/monitor.md §3.2), the match as
//! the order rules define it (§3.3), counting (§3.4), the window (§3.5) and the
//! serial frame (§6). Inserted into the blocks' modules under `` `ifdef FORMAL ``.
use crate::custom::bits_for;
use crate::formal::{implies, insert, ModuleProperties, Property};
use crate::monitor::order_matcher::pairs;
use crate::params::{Matcher, MonitorParams, SerialOutput};

/// `verilog` (the monitor of `params`, top `top`) with every block's properties.
pub fn with_properties(verilog: &str, top: &str, params: &MonitorParams) -> String {
    insert(verilog, top, |suffix, _| match suffix {
        "" => Some(top_properties(params)),
        "__counter" => Some(counter()),
        "__trigger" => Some(trigger()),
        "__serial" if params.options.serial == SerialOutput::Frame => Some(serial(params)),
        "__matcher" if params.options.matcher == Matcher::Patent => Some(matcher(params)),
        _ => None,
    })
}

/// The top: record, event register and match, from the blocks' outputs.
fn top_properties(params: &MonitorParams) -> ModuleProperties {
    let n = params.events;
    let order = |e: usize| format!("order__order__{e}");
    let seen = |e: usize| format!("event_register__seen[{e}]");
    // Flag (a before m) including this cycle's recording (docs/monitor.md §3.2).
    let flag = |a: usize, m: usize| {
        format!("(record__before__{m}[{a}] | (port__enable & event_edges__rise[{m}] & {}))", seen(a))
    };
    let constrained = |a: usize, b: usize| format!("({0} != 0 && {1} != 0 && {0} != {1})", order(a), order(b));
    let any_constrained = pairs(n).map(|(a, b)| constrained(a, b)).collect::<Vec<_>>().join(" || ");
    let in_order = pairs(n)
        .map(|(a, b)| {
            format!("(!{} || ({} < {} ? {} : {}))", constrained(a, b), order(a), order(b), flag(a, b), flag(b, a))
        })
        .collect::<Vec<_>>()
        .join(" && ");
    let mut occurred = Vec::new();
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            occurred.push(implies(&format!("record__before__{m}[{a}]"), &format!("{} && {}", seen(a), seen(m))));
        }
    }
    let rows: Vec<String> = (0..n).map(|m| format!("record__before__{m}")).collect();
    let rows = rows.join(", ");
    let diagonal: Vec<String> = (0..n).map(|m| format!("!record__before__{m}[{m}]")).collect();
    let properties = vec![
        Property::always(
            "flag_needs_both_events",
            "docs/monitor.md §3.2: flag (a before m) is set only when a and m have both occurred since the last clear",
            occurred.iter().map(|o| format!("({o})")).collect::<Vec<_>>().join(" && "),
        ),
        Property::always("no_flag_on_diagonal", "docs/monitor.md §2: no event occurs before itself", diagonal.join(" && ")),
        Property::always(
            "match_by_the_order_rules",
            "docs/monitor.md §3.3: the match is true exactly when a pair is constrained and every constrained pair's flag (first before second) is set, this cycle's recording included",
            format!("matcher__matched == (({any_constrained}) && {in_order})"),
        ),
        Property::after_edge(
            "record_only_grows",
            "docs/monitor.md §3.2 and §3.6: without a clear, recording only sets flags and event-register bits",
            implies(
                "!$past(clear_record)",
                &format!("(({{{rows}}} & $past({{{rows}}})) == $past({{{rows}}})) && ((event_register__seen & $past(event_register__seen)) == $past(event_register__seen))"),
            ),
        ),
        Property::after_edge(
            "clear_empties",
            "docs/monitor.md §3.4 and §3.6: a re-arm or CLEAR_RECORD clears the event register and the whole record, this cycle's updates included",
            implies("$past(clear_record)", &format!("{{{rows}}} == 0 && event_register__seen == 0")),
        ),
        Property::after_edge(
            "enable_gates_recording",
            "docs/monitor.md §3.2: with ENABLE = 0 nothing is recorded",
            implies(
                "$past(!port__enable && !clear_record)",
                &format!("{{{rows}}} == $past({{{rows}}}) && event_register__seen == $past(event_register__seen)"),
            ),
        ),
        Property::after_edge(
            "matched_registered",
            "docs/monitor.md §3.7: the output matched is the match flag of the previous cycle",
            "matched == $past(matcher__matched)",
        ),
        Property::cover("match_counted", "docs/monitor.md §3.4: a counted match in an open window is reachable", "$past(matcher__matched && window)"),
    ];
    ModuleProperties { declarations: vec![], properties }
}

/// The match counter (`counter`): what is counted, and OVERFLOW.
fn counter() -> ModuleProperties {
    let properties = vec![
        Property::after_edge(
            "counted_match",
            "docs/monitor.md §3.4 and §3.6: a match is counted when (AUTO_REARM or the previous match was 0) and the window was open, unless CLEAR_COUNT acts at that edge",
            "pending__q == $past(match_now & (auto_rearm | ~matched) & window & ~clear)",
        ),
        Property::after_edge(
            "count_steps_by_one",
            "docs/monitor.md §3.4: COUNT moves by the counted match (mod 2^32) or is zeroed by CLEAR_COUNT",
            "previous_count == ($past(count_cleared__q) ? 32'h0 : $past(previous_count) + $past(pending__q))",
        ),
        Property::after_edge(
            "overflow_sticky",
            "docs/monitor.md §3.4: OVERFLOW is sticky until CLEAR_COUNT",
            implies("$past(overflow && !clear)", "overflow"),
        ),
        Property::cover("count_wraps", "docs/monitor.md §3.4: COUNT's wrap is reachable", "overflow && !$past(overflow)"),
    ];
    ModuleProperties { declarations: vec![], properties }
}

/// The window (`trigger`), with the start/stop edges detected here again.
fn trigger() -> ModuleProperties {
    let declarations = vec![
        "reg [3:0] f_start_prev, f_stop_prev;".to_string(),
        "initial begin f_start_prev = 4'h0; f_stop_prev = 4'h0; end".to_string(),
        "always @(posedge clock) begin f_start_prev <= reset ? 4'h0 : start; f_stop_prev <= reset ? 4'h0 : stop; end"
            .to_string(),
        "wire f_open = (start[start_sel] & ~f_start_prev[start_sel]) | open_cmd;".to_string(),
        "wire f_close = (stop[stop_sel] & ~f_stop_prev[stop_sel]) | close_cmd;".to_string(),
    ];
    let properties = vec![
        Property::after_edge("close_wins", "docs/monitor.md §3.5: a close (stop edge or CLOSE_WINDOW) closes the window, also with an open in the same cycle", implies("$past(f_close)", "!window")),
        Property::after_edge("open_opens", "docs/monitor.md §3.5: an open (start edge or OPEN_WINDOW) without a close opens it from the next cycle", implies("$past(f_open && !f_close)", "window")),
        Property::after_edge("window_holds", "docs/monitor.md §3.5: otherwise the window keeps its state", implies("$past(!f_open && !f_close)", "window == $past(window)")),
    ];
    ModuleProperties { declarations, properties }
}

/// The serial frame (`serial`): the frame's length and its idle outputs.
fn serial(params: &MonitorParams) -> ModuleProperties {
    let bits = crate::monitor::serial_frame::frame_bits(params.events);
    let w = bits_for(bits);
    let declarations = vec![
        format!("reg [{}:0] f_bit;", w - 1),
        format!("initial f_bit = {w}'h0;"),
        format!("always @(posedge clock) f_bit <= (reset || !valid || last) ? {w}'h0 : f_bit + {w}'h1;"),
    ];
    let properties = vec![
        Property::always(
            "idle_outputs_zero",
            "docs/monitor.md §6: while ser_valid is 0, ser_data and ser_last are 0",
            "valid || (!data && !last)",
        ),
        Property::always(
            "frame_holds_only_bits_to_send",
            "docs/monitor.md §6: the shifter holds only the frame's bits not yet sent (nothing between frames)",
            "busy_q ? (((frame_q >> remaining_q) >> 1) == 0) : (frame_q == 0)",
        ),
        Property::always(
            "frame_length",
            &format!("docs/monitor.md §6: a frame is N*(N-1) + 32 = {bits} bits; ser_last marks its last bit"),
            format!(
                "last == (valid && f_bit == {w}'d{}) && (!valid || f_bit + remaining_q == {w}'d{})",
                bits - 1,
                bits - 1
            ),
        ),
    ];
    ModuleProperties { declarations, properties }
}

/// The seed's matcher (`matcher`): each registered comparator holds the comparison of
/// the current ORDER fields (they change only at an ORDER write).
fn matcher(params: &MonitorParams) -> ModuleProperties {
    let comparators: Vec<String> = pairs(params.events)
        .enumerate()
        .map(|(k, (a, b))| {
            format!(
                "a_first_{k}_q == (order__{a} != 0 && order__{a} < order__{b}) && b_first_{k}_q == (order__{b} != 0 && order__{b} < order__{a})"
            )
        })
        .collect();
    let properties = vec![Property::always(
        "comparators_follow_order",
        "docs/monitor.md §2: comparator (order[a] < order[b]) of every pair, for the ORDER values in force",
        comparators.join(" && "),
    )];
    ModuleProperties { declarations: vec![], properties }
}
