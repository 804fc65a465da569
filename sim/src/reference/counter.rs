//! docs/monitor.md §3.4: counting matches, with the registered match flag and overflow.

/// The match counter of `bits` bits (32 in the monitor).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterModel {
    /// Counter width.
    pub bits: u32,
    /// COUNT.
    pub count: u64,
    /// STATUS.OVERFLOW.
    pub overflow: bool,
    /// Last cycle's match flag (`matched`, STATUS.MATCHED).
    pub match_prev: bool,
}

impl CounterModel {
    /// A cleared counter of `bits` bits.
    pub fn new(bits: u32) -> Self {
        Self { bits, count: 0, overflow: false, match_prev: false }
    }

    /// Is a match of this cycle counted (before the window gate)?
    pub fn counts(&self, match_now: bool, auto_rearm: bool) -> bool {
        match_now && (auto_rearm || !self.match_prev)
    }

    /// One edge: count if the match counts and the window was open, unless
    /// `clear` (CLEAR_COUNT) zeroes the count and overflow instead.
    pub fn step(&mut self, match_now: bool, auto_rearm: bool, window_open: bool, clear: bool) {
        let counted = self.counts(match_now, auto_rearm) && window_open;
        let max = (1u64 << self.bits) - 1;
        if clear {
            self.count = 0;
            self.overflow = false;
        } else if counted {
            if self.count == max {
                self.count = 0;
                self.overflow = true;
            } else {
                self.count += 1;
            }
        }
        self.match_prev = match_now;
    }
}
