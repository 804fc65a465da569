//! docs/pmu.md §15: the profile table. Cycle-exact scripts run the table on its own behind
//! the model's trace queue (a *lane*: records are made at chosen edges, as block ends
//! would make them); the PMU-level tests check its registers and its place in the
//! trace unit; random tests check pass-through against the PMU without a table and the
//! accounting of §15.5. Expected words are written out from §13.5 and §15.3, indexes
//! from §15.2 by hand. "Cycle m+j" counts from the cycle whose edge m makes a record.
mod accounting;
mod clearing;
mod driver;
mod eviction;
mod flush;
mod index;
mod pass_through;
mod registers;
mod stream;
mod taking;

use super::super::addr::profile_ctrl;
use super::super::profile::{ProfileGeometry, ProfileRegister, ProfileTable, ProfileWrite, StreamWord};
use super::super::trace_output::TraceOutput;

/// SUMMARIZE in a PROFILE_CTRL write.
const SUMMARIZE: u64 = profile_ctrl::SUMMARIZE;
/// FLUSH in a PROFILE_CTRL write.
const FLUSH: u64 = profile_ctrl::FLUSH;

/// A §13 record: word 0 = [63] NEW_PROCESS, [62:61] thread, [AW-1:0] address; the pid
/// word with NEW_PROCESS; then V_0 .. V_{K-1}.
fn record(new_pid: Option<u32>, thread: u64, address: u64, values: &[u64]) -> Vec<u64> {
    let mut words = vec![(new_pid.is_some() as u64) << 63 | thread << 61 | address];
    words.extend(new_pid.map(u64::from));
    words.extend_from_slice(values);
    words
}

/// A §15.3 summary record: word 0 = [62:61] thread, [60] 1, [AW-1:0] address; word 1 =
/// [63:32] executions, [31:0] pid; then S_0 .. S_{K-1}.
fn summary(thread: u64, pid: u32, address: u64, executions: u64, sums: &[u64]) -> Vec<u64> {
    let mut words = vec![thread << 61 | 1 << 60 | address, executions << 32 | pid as u64];
    words.extend_from_slice(sums);
    words
}

/// What one cycle of a lane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    /// The trace ports' word (data, last), None while trace_valid is 0.
    trace: Option<(u64, bool)>,
    /// The queue's ready.
    ready: bool,
}

/// No word on the trace ports, the queue's ready as given.
fn quiet(ready: bool) -> Seen {
    Seen { trace: None, ready }
}

/// A table of E entries, T = 2, AW = 32 behind a queue of D records, stepped one cycle
/// (one edge) at a time.
struct Lane {
    output: TraceOutput,
    /// trace_ready in the coming cycles.
    trace_ready: bool,
    /// The trace words that moved, with trace_last.
    moved: Vec<(u64, bool)>,
}

impl Lane {
    /// At power-on (clearing), trace_ready = 1.
    fn new(entries: usize, counters: usize, counter_width: usize, depth: usize) -> Self {
        let geometry = ProfileGeometry { entries, threads: 2, counters, counter_width, address_width: 32 };
        Self { output: TraceOutput::new(depth, Some(geometry)), trace_ready: true, moved: Vec::new() }
    }

    /// After its E cycles of clearing, with SUMMARIZE = `summarize`.
    fn cleared(entries: usize, counters: usize, counter_width: usize, summarize: bool) -> Self {
        let mut lane = Self::new(entries, counters, counter_width, 4);
        lane.write(ProfileWrite::Control(summarize as u64));
        lane.idle(entries);
        assert!(!lane.table().clearing());
        lane
    }

    fn table(&self) -> &ProfileTable {
        self.output.table().expect("a lane has a table")
    }

    /// One cycle: what it shows, then its edge, which makes `made` (if any) and writes
    /// `write` (if any).
    fn step(&mut self, made: Option<Vec<u64>>, write: Option<ProfileWrite>) -> Seen {
        let queue: StreamWord = self.output.queue_presented();
        let (trace, ready) = self.table().cycle(queue, self.trace_ready);
        assert_eq!(trace, self.output.presented(), "the ports do not depend on trace_ready");
        if !trace.valid {
            assert_eq!((trace.data, trace.last), (0, false), "data and last are 0 while not valid");
        } else if self.trace_ready {
            self.moved.push((trace.data, trace.last));
        }
        assert!(!self.output.edge(self.trace_ready, made, write), "no record is dropped here");
        Seen { trace: trace.valid.then_some((trace.data, trace.last)), ready }
    }

    /// A cycle whose edge makes `record`.
    fn make(&mut self, record: Vec<u64>) -> Seen {
        self.step(Some(record), None)
    }

    /// A cycle whose edge writes `write`.
    fn write(&mut self, write: ProfileWrite) -> Seen {
        self.step(None, Some(write))
    }

    /// A cycle with nothing made or written.
    fn tick(&mut self) -> Seen {
        self.step(None, None)
    }

    /// `cycles` cycles with nothing made or written, what each showed.
    fn idle(&mut self, cycles: usize) -> Vec<Seen> {
        (0..cycles).map(|_| self.tick()).collect()
    }

    /// PROFILE_CTRL.FLUSH during the coming cycle.
    fn flushing(&self) -> bool {
        self.table().read(ProfileRegister::Control) & FLUSH != 0
    }

    /// The records whose last word moved, oldest first.
    fn sent_records(&self) -> Vec<Vec<u64>> {
        stream::split(&self.moved)
    }
}
