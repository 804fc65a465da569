//! §13.4-§13.5: the trace queue of D records and its AXI4-Stream output. The
//! occupancy is the records made and not yet sent: the record on the stream counts until
//! its last word moves. The front record's current word is on the stream during every
//! cycle the queue is not empty, so a record made into an empty queue at edge k is
//! presented in cycle k+1, and records run back to back.
use std::collections::VecDeque;

/// The queue and the position of the stream in its front record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TraceQueue {
    /// D.
    depth: usize,
    /// The records made and not yet sent, oldest first, each as its stream words.
    records: VecDeque<Vec<u64>>,
    /// The word of the front record on the stream during this cycle.
    word: usize,
}

/// What a stream (the queue's, or the trace ports) shows during one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamWord {
    /// valid.
    pub valid: bool,
    /// data (0 while not valid).
    pub data: u64,
    /// last: the word is its record's last (0 while not valid).
    pub last: bool,
}

impl TraceQueue {
    /// The empty queue of `depth` (D) records, as after reset.
    pub(super) fn empty(depth: usize) -> Self {
        Self { depth, records: VecDeque::new(), word: 0 }
    }

    /// D.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// Records made and not yet sent.
    pub(super) fn occupancy(&self) -> usize {
        self.records.len()
    }

    /// The stream during this cycle: the front record's current word, if any.
    pub(super) fn presented(&self) -> StreamWord {
        match self.records.front() {
            Some(record) => StreamWord { valid: true, data: record[self.word], last: self.word + 1 == record.len() },
            None => StreamWord::default(),
        }
    }

    /// The stream's handshake at an edge where the consumer's `ready` is sampled: with
    /// a word presented during this cycle and ready = 1, it moves; the record leaves
    /// with its last word.
    pub(super) fn handshake(&mut self, ready: bool) {
        let Some(record) = self.records.front() else {
            return;
        };
        if !ready {
            return;
        }
        if self.word + 1 == record.len() {
            self.records.pop_front();
            self.word = 0;
        } else {
            self.word += 1;
        }
    }

    /// A record made at this edge, after the handshake of the same edge: it joins the
    /// queue unless the occupancy is D, in which case it is dropped whole. Returns
    /// whether it was dropped.
    pub(super) fn offer(&mut self, record: Vec<u64>) -> bool {
        if self.records.len() == self.depth {
            return true;
        }
        self.records.push_back(record);
        false
    }
}
