//! docs/pmu.md §15.4: the table's states, the record being taken, and what each state
//! shows on the trace ports and gives the queue as its ready during a cycle. The
//! trace ports' words never depend on `trace_ready` (AXI4-Stream: valid does not wait
//! for ready); only the queue's ready can.
use super::super::trace_queue::StreamWord;

/// Where the table is during a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Between records; each cycle decides (in priority order) a flush's walk, passing a
    /// record, taking one, or waiting.
    Idle,
    /// A record goes through to the trace ports until its last word moves.
    Passing,
    /// The words after a record's first move into the table, one per cycle.
    Taking,
    /// One cycle: the record is summed into its entry, or that entry must go first.
    Updating,
    /// Entry `entry`'s summary record is on the stream, at word `word`.
    Sending { entry: usize, word: usize, cause: SendCause },
    /// One cycle of a flush's walk, at entry `entry`.
    Walking { entry: usize },
}

/// Why an entry is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendCause {
    /// Its place is needed by the record just taken (another key, or an addition that
    /// would wrap): PROFILE_EVICTED counts it.
    Eviction,
    /// A flush's walk: the entry becomes invalid.
    Flush,
}

/// What an idle table does during a cycle (§15.4's priority list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IdleChoice {
    /// Rule 1, not clearing: the flush's records have all gone; the walk starts.
    StartWalk,
    /// Rule 2: the queue's first word is shown on the trace ports.
    Pass,
    /// Rule 3: the queue's first word moves into the table.
    Take,
    /// Nothing moves: the queue is empty, or its record waits (a flush's walk or
    /// SUMMARIZE = 1 while clearing).
    Wait,
}

/// The queue's ready during a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum QueueReady {
    /// 0: no queue word moves.
    Hold,
    /// 1: the table takes the word, whatever trace_ready is.
    Take,
    /// trace_ready: the word goes through to the trace ports.
    FollowTrace,
}

/// The trace ports and the queue's ready during one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CyclePlan {
    /// trace_valid, trace_data, trace_last.
    pub(super) shown: StreamWord,
    pub(super) ready: QueueReady,
}

impl CyclePlan {
    /// Nothing on the trace ports, no queue word moves.
    pub(super) const QUIET: Self =
        Self { shown: StreamWord { valid: false, data: 0, last: false }, ready: QueueReady::Hold };

    /// The queue's stream on the trace ports, the queue's ready = trace_ready.
    pub(super) fn pass(queue: StreamWord) -> Self {
        Self { shown: queue, ready: QueueReady::FollowTrace }
    }

    /// Nothing on the trace ports, every queue word moves.
    pub(super) const TAKE: Self = Self { ready: QueueReady::Take, ..Self::QUIET };
}

/// The record the table is taking, or has taken and is summing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TakenRecord {
    /// Word 0's thread, [62:61].
    pub(super) thread: usize,
    /// Word 0's block address, [AW-1:0].
    pub(super) address: u64,
    /// Word 0's NEW_PROCESS, [63]: word 1 is then the pid.
    pub(super) new_process: bool,
    /// index(address), read when word 0 moved.
    pub(super) index: usize,
    /// The words that have moved so far.
    pub(super) words: usize,
    /// V_0 .. V_{i-1} so far.
    pub(super) values: Vec<u64>,
}
