//! docs/monitor.md §3.1-§3.2: occurrences, the event register and the pairwise record.

/// Rising edges of `lines` against `previous` (both masked to the lines in use).
pub fn rising(lines: u32, previous: u32) -> u32 {
    lines & !previous
}

/// Event register and "a before m" flags of an N-event monitor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordModel {
    /// Number of events.
    pub events: usize,
    /// Bit e: event e occurred in this sequence.
    pub seen: u32,
    /// `before[a][m]`: event a occurred before event m.
    pub before: Vec<Vec<bool>>,
}

impl RecordModel {
    /// An empty record for `events` events.
    pub fn new(events: usize) -> Self {
        Self { events, seen: 0, before: vec![vec![false; events]; events] }
    }

    /// The record after recording `occurred` (a bit per event that occurs this
    /// cycle): for every m that occurs and every other a already seen, set
    /// (a before m); then mark the occurred events as seen.
    pub fn recorded(&self, occurred: u32) -> Self {
        let mut next = self.clone();
        for m in (0..self.events).filter(|m| occurred >> m & 1 == 1) {
            for a in (0..self.events).filter(|&a| a != m && self.seen >> a & 1 == 1) {
                next.before[a][m] = true;
            }
        }
        next.seen |= occurred;
        next
    }

    /// Row m as the BEFORE[m] register shows it: bit a = (a before m).
    pub fn row(&self, m: usize) -> u32 {
        (0..self.events).filter(|&a| self.before[a][m]).fold(0, |acc, a| acc | 1 << a)
    }
}
