//! The PMU's flip-flop groups as its resource report lists them (docs/pmu.md §8): the
//! six of the budget first, then every other register by what it holds.

/// The general counters (budget: T*K*CW).
pub const GENERAL_COUNTERS: &str = "general counters";
/// The shadow registers (budget: T*K*CW).
pub const SHADOWS: &str = "shadows";
/// Each counter's previous condition, for edge detection.
pub const PREVIOUS_CONDITION: &str = "previous condition";
/// PERF_EVTSEL (budget: T*K*31).
pub const EVENT_SELECTS: &str = "event selects";
/// Each select's event key and "in the table" bit.
pub const EVENT_KEYS: &str = "event keys";
/// The time-stamp counter (budget: 64).
pub const TSC: &str = "TSC";
/// PERF_GLOBAL_CTRL (budget: T*K).
pub const GLOBAL_CONTROL: &str = "global control";
/// PERF_GLOBAL_STATUS (budget: T*K).
pub const OVERFLOW_STATUS: &str = "overflow status";
/// SPFLT_CTRL and USER_PREF.
pub const SPFLT_CONTROL: &str = "SPFLT control";
/// FREEZE_UNMARKED.
pub const FREEZE_CONTROL: &str = "freeze control";
/// USER_ACCESS.
pub const USER_ACCESS: &str = "user access";
/// SAVE_ON_ENTRY and RESTORE_ON_EXIT.
pub const SHADOW_CONTROL: &str = "shadow control";
/// Each thread's kernel flag of the previous cycle, for entries and exits.
pub const PREVIOUS_KERNEL_MODE: &str = "previous kernel mode";
/// `kernel`, one cycle late.
pub const KERNEL_INPUT_STAGE: &str = "input stage (kernel)";
/// Each counter's qualification, registered a cycle ahead.
pub const QUALIFICATION: &str = "qualification";
/// Each counter's sampled event count.
pub const EVENT_SAMPLES: &str = "event samples";
/// The register port's registered outputs.
pub const READ_DATA_AND_FAULT: &str = "read data and fault";
/// TRACE_CTRL and TRACE_PID.
pub const TRACE_CONTROL_AND_PID: &str = "trace control and PID";
/// `bb_end`, `bb_addr` and `pid` of the traced thread, one cycle late.
pub const TRACE_INPUT_STAGE: &str = "input stage (trace)";
/// The pid at the previous block end.
pub const LAST_PID: &str = "last pid";
/// TRACE_DROPPED.
pub const DROPPED_COUNTER: &str = "dropped counter";
/// The trace queue's pointers and occupancy.
pub const QUEUE_POINTERS: &str = "queue pointers";
/// The trace stream's word position and first-word bypass.
pub const STREAM_STATE: &str = "stream state";

/// The profile table's record being taken: phase, word, fields, values, index, pid.
pub const PROFILE_RECORD: &str = "profile record";
/// The profile table's control: SUMMARIZE, FLUSH, pending and queued records,
/// PROFILE_EVICTED, clearing.
pub const PROFILE_CONTROL: &str = "profile control";

/// Every group, in report order.
pub const ALL: [&str; 23] = [
    GENERAL_COUNTERS,
    SHADOWS,
    PREVIOUS_CONDITION,
    EVENT_SELECTS,
    EVENT_KEYS,
    TSC,
    GLOBAL_CONTROL,
    OVERFLOW_STATUS,
    SPFLT_CONTROL,
    FREEZE_CONTROL,
    USER_ACCESS,
    SHADOW_CONTROL,
    PREVIOUS_KERNEL_MODE,
    KERNEL_INPUT_STAGE,
    QUALIFICATION,
    EVENT_SAMPLES,
    READ_DATA_AND_FAULT,
    TRACE_CONTROL_AND_PID,
    TRACE_INPUT_STAGE,
    LAST_PID,
    DROPPED_COUNTER,
    QUEUE_POINTERS,
    STREAM_STATE,
];

/// Every group of a PMU with a profile table, in report order.
pub const ALL_WITH_PROFILE: [&str; 25] = {
    let mut all = [PROFILE_RECORD; 25];
    let mut i = 0;
    while i < ALL.len() {
        all[i] = ALL[i];
        i += 1;
    }
    all[ALL.len() + 1] = PROFILE_CONTROL;
    all
};

/// The profile table's groups (reported apart, like the trace unit's).
pub const PROFILE: [&str; 2] = [PROFILE_RECORD, PROFILE_CONTROL];

/// The trace unit's groups (its cost is reported apart).
pub const TRACE: [&str; 6] =
    [TRACE_CONTROL_AND_PID, TRACE_INPUT_STAGE, LAST_PID, DROPPED_COUNTER, QUEUE_POINTERS, STREAM_STATE];
