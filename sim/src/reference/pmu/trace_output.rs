//! §13.4-§13.5 and §15.4: the trace unit's output path: the queue of D records and, with
//! E > 0, the profile table between it and the trace ports. At an edge, in order: the
//! queue's handshake with the table's ready (trace_ready without a table), this edge's
//! record joins the queue or is dropped, then the table's edge with the queue's
//! occupancy after it.
use super::profile::{ProfileGeometry, ProfileTable, ProfileWrite};
use super::trace_queue::{StreamWord, TraceQueue};

/// The queue and the table after it, if there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TraceOutput {
    queue: TraceQueue,
    table: Option<ProfileTable>,
}

impl TraceOutput {
    /// At power-on: the queue of `depth` (D) records empty, the table (if `profile` gives
    /// one) clearing.
    pub(super) fn new(depth: usize, profile: Option<ProfileGeometry>) -> Self {
        let table = profile.map(|geometry| {
            let ProfileGeometry { entries, threads, counters, counter_width, address_width } = geometry;
            ProfileTable::new(entries, threads, counters, counter_width, address_width)
        });
        Self { queue: TraceQueue::empty(depth), table }
    }

    /// A reset edge: the queue empties (§5.6), the table resets (§15.4: clearing).
    pub(super) fn reset(&mut self) {
        self.queue = TraceQueue::empty(self.queue.depth());
        if let Some(table) = &mut self.table {
            table.reset();
        }
    }

    /// The trace ports during this cycle.
    pub(super) fn presented(&self) -> StreamWord {
        let word = self.queue.presented();
        self.table.as_ref().map_or(word, |table| table.presented(word))
    }

    /// One edge with `trace_ready` sampled at it, the `record` made at it (its words) and
    /// an allowed profile register `write`; returns whether the record was dropped.
    pub(super) fn edge(&mut self, trace_ready: bool, record: Option<Vec<u64>>, write: Option<ProfileWrite>) -> bool {
        let word = self.queue.presented();
        let ready = self.table.as_ref().map_or(trace_ready, |table| table.cycle(word, trace_ready).1);
        self.queue.handshake(ready);
        let dropped = record.is_some_and(|record| self.queue.offer(record));
        if let Some(table) = &mut self.table {
            table.edge(word, trace_ready, self.queue.occupancy(), write);
        }
        dropped
    }

    /// The queue's stream during this cycle (what the table sees).
    #[cfg(test)]
    pub(super) fn queue_presented(&self) -> StreamWord {
        self.queue.presented()
    }

    /// Records made and not yet sent.
    pub(super) fn occupancy(&self) -> usize {
        self.queue.occupancy()
    }

    /// The profile table, if there is one.
    pub(super) fn table(&self) -> Option<&ProfileTable> {
        self.table.as_ref()
    }

    /// The profile table, if there is one, to change (tests preset entries through it).
    #[cfg(test)]
    pub(super) fn table_mut(&mut self) -> Option<&mut ProfileTable> {
        self.table.as_mut()
    }
}
