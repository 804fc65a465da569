//! §4 steps 1-5 for one counter at one edge: the event the select names, its count c,
//! the qualification q, the condition and the increment. Inputs come from the input
//! stage (one cycle late), registers from the counting thread's own bank as they are
//! during this cycle (§7: a write at this edge acts from the next cycle).
use super::bank::Bank;
use super::evtsel::EventSelect;
use super::input_stage::InputStage;
use crate::ports::pmu::{EventScope, EventSpec};

/// What §4 gives one counter at one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Count {
    /// cond (§4.4): what the previous-condition flip-flop takes at this edge.
    pub(super) condition: bool,
    /// inc (§4.5).
    pub(super) increment: u64,
}

/// §4.1-§4.5 for counter `counter` of thread `thread`.
pub(super) fn count(bank: &Bank, counter: usize, thread: usize, stage: &InputStage, table: &[EventSpec]) -> Count {
    let select = bank.event_select(counter);
    // §4.1: an encoding that names no table event counts nothing, whatever the other
    // fields say (INV included), and its condition is 0.
    let Some(event) = matching_event(table, select) else {
        return Count { condition: false, increment: 0 };
    };
    let occurrences = event_count(table[event].scope, event, select, thread, stage);
    let qualified = qualified(bank, counter, select, thread, stage);
    let condition = qualified
        && if select.cmask != 0 { (occurrences >= select.cmask as u64) != select.inv } else { occurrences != 0 };
    let previous = bank.previous_conditions[counter];
    let increment = if select.edge {
        (condition && !previous) as u64
    } else if select.cmask != 0 {
        condition as u64
    } else if qualified {
        occurrences
    } else {
        0
    };
    Count { condition, increment }
}

/// §4.1: the table event with (EventCode, UMask) = (EVENT, UMASK).
fn matching_event(table: &[EventSpec], select: EventSelect) -> Option<usize> {
    table.iter().position(|event| event.code == select.event && event.umask == select.umask)
}

/// §4.2: c, the thread's own field, the sum over all T threads with ANY, or the core
/// field for a core-scope event (ANY has no effect there). Fields count as given,
/// even above PerCycleMax (§2).
fn event_count(scope: EventScope, event: usize, select: EventSelect, thread: usize, stage: &InputStage) -> u64 {
    match scope {
        EventScope::Thread if select.any => stage.all_threads_field(event),
        EventScope::Thread => stage.thread_field(thread, event),
        EventScope::Core => stage.core_field(event),
    }
}

/// §4.3: q. mode_ok and the freeze use the counting thread's kernel and pm_mark, also
/// for other threads' events counted with ANY and for core-scope events (§9).
fn qualified(bank: &Bank, counter: usize, select: EventSelect, thread: usize, stage: &InputStage) -> bool {
    let kernel = stage.kernel(thread);
    let mode_ok = (select.usr && !kernel) || (select.os && kernel);
    let user_pref_ok = !bank.obeys_user_pref(counter) || bank.user_pref();
    let frozen = bank.freeze_unmarked() && !stage.pm_mark(thread);
    select.en && bank.globally_enabled(counter) && user_pref_ok && mode_ok && !frozen
}
