//! §4.6 and §7: what one counter, its shadow and its overflow bit take at one edge,
//! highest precedence first: a write, a trace restart (§13.2: 0), a shadow restore
//! (SHADOW + inc), counter + inc. The value the counter "would take" (V_i: counter +
//! inc, or SHADOW + inc on a restore, without the restart and without a write) is what
//! a trace record carries.
use super::counting::Count;

/// One counter's work at one edge, before register writes are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CounterEdge {
    /// §4.4's cond, for the previous-condition flip-flop (it takes cond at every edge).
    pub(super) condition: bool,
    /// §10: SHADOW takes the counter at this edge (unless SHADOW is written).
    pub(super) save: bool,
    /// §10: the counter starts from SHADOW instead of itself.
    pub(super) restore: bool,
    /// The counter during this cycle (what a save stores).
    counter: u64,
    /// (counter or SHADOW) + inc, not yet reduced mod 2^CW.
    sum: u128,
}

/// What a counter and its shadow hold after the edge, and whether it overflowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CounterNext {
    pub(super) counter: u64,
    pub(super) shadow: u64,
    pub(super) overflow: bool,
}

impl CounterEdge {
    /// The edge of a counter holding `counter` with shadow `shadow` during this cycle.
    pub(super) fn new(count: Count, save: bool, restore: bool, counter: u64, shadow: u64) -> Self {
        let base = if restore { shadow } else { counter };
        Self { condition: count.condition, save, restore, counter, sum: base as u128 + count.increment as u128 }
    }

    /// V_i: the value the counter would take at this edge without a write to it
    /// (§4.6: mod 2^CW).
    pub(super) fn would_take(&self, counter_width: usize) -> u64 {
        (self.sum & ((1u128 << counter_width) - 1)) as u64
    }

    /// §4.6: counter + inc (or SHADOW + inc on a restore) >= 2^CW.
    pub(super) fn overflows(&self, counter_width: usize) -> bool {
        self.sum >> counter_width != 0
    }

    /// §7 with the writes of this edge (already reduced to CW bits): a counter write
    /// wins and drops this edge's increment and overflow; then a trace restart stores 0
    /// but keeps the overflow of the sum; a SHADOW write wins over a save; a restore has
    /// already used the SHADOW of this cycle (the old one).
    pub(super) fn resolve(
        &self,
        counter_write: Option<u64>,
        restart: bool,
        shadow_write: Option<u64>,
        shadow: u64,
        counter_width: usize,
    ) -> CounterNext {
        let (counter, overflow) = match counter_write {
            Some(written) => (written, false),
            None if restart => (0, self.overflows(counter_width)),
            None => (self.would_take(counter_width), self.overflows(counter_width)),
        };
        let shadow = match shadow_write {
            Some(written) => written,
            None if self.save => self.counter,
            None => shadow,
        };
        CounterNext { counter, shadow, overflow }
    }
}

/// §7: PERF_GLOBAL_STATUS after an edge. OVF_CTRL clears the bits written as 1, but a
/// bit whose counter overflows at the same edge stays set (no overflow is lost).
pub(super) fn next_status(status: u64, cleared: u64, overflowed: u64) -> u64 {
    status & !cleared | overflowed
}
