//! §13: the trace unit shared by the core. TRACE_CTRL, TRACE_PID and
//! TRACE_DROPPED (one register each for all banks), the memory of the previous block
//! end's pid (§13.3) and the queue with its stream (§13.4-§13.5). At an edge, in order:
//! the stream's handshake (a record whose last word moves leaves), the record of this
//! edge's block end joins the queue or is dropped, then this edge's register write.
use super::addr::trace_ctrl;
use super::block_end::BlockEnd;
use super::input_stage::InputStage;
use super::registers::Register;
use super::trace_queue::{StreamWord, TraceQueue};

/// The trace unit's registers and flip-flops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TraceUnit {
    /// TRACE_CTRL: [0] TRACE_EN, [1] PID_FILTER, [5:4] THREAD.
    control: u64,
    /// TRACE_PID: [31:0].
    traced_pid: u64,
    /// TRACE_DROPPED: [31:0], saturating.
    dropped: u64,
    /// pid[s] at the previous block end since reset or the last TRACE_CTRL write.
    previous_pid: Option<u32>,
    queue: TraceQueue,
    /// Every record made (its stream words) and whether it was dropped, when logging.
    log: Option<Vec<(Vec<u64>, bool)>>,
}

impl TraceUnit {
    /// The trace unit after reset: registers 0, no previous block end, queue empty.
    pub(super) fn reset(depth: usize) -> Self {
        Self { control: 0, traced_pid: 0, dropped: 0, previous_pid: None, queue: TraceQueue::empty(depth), log: None }
    }

    /// Start (or keep) logging every record made.
    pub(super) fn log_records(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The records logged since the last call: (stream words, dropped).
    pub(super) fn take_records(&mut self) -> Vec<(Vec<u64>, bool)> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The log itself (kept across a reset, which is not part of the trace unit's state).
    pub(super) fn take_log(&mut self) -> Option<Vec<(Vec<u64>, bool)>> {
        self.log.take()
    }

    /// Put back a log taken with [`TraceUnit::take_log`].
    pub(super) fn restore_log(&mut self, log: Option<Vec<(Vec<u64>, bool)>>) {
        self.log = log;
    }

    /// §13.2: the block end of this cycle, if any.
    pub(super) fn block_end(&self, stage: &InputStage, threads: usize) -> Option<BlockEnd> {
        BlockEnd::detect(self.control, self.traced_pid, self.previous_pid, stage, threads)
    }

    /// What a read of a trace register returns during this cycle.
    pub(super) fn read(&self, register: Register) -> u64 {
        match register {
            Register::TraceCtrl => self.control,
            Register::TracePid => self.traced_pid,
            Register::TraceDropped => self.dropped,
            _ => 0,
        }
    }

    /// Every trace flip-flop takes its next value at this edge. `block_end` is this
    /// cycle's block end with `values` = its thread's V_i; `ready` is trace_ready
    /// sampled at the edge; `write` is this edge's allowed write (register, data
    /// already reduced to its listed bits), whatever register it names.
    pub(super) fn commit(
        &mut self,
        block_end: Option<&BlockEnd>,
        values: &[u64],
        ready: bool,
        write: Option<(Register, u64)>,
    ) {
        self.queue.handshake(ready);
        let record = block_end.and_then(|end| end.record(values));
        if let (Some(log), Some(record)) = (&mut self.log, &record) {
            log.push((record.clone(), self.queue.occupancy() == self.queue.depth()));
        }
        let dropped = record.is_some_and(|record| self.queue.offer(record));
        // §13.3: every block end counts as the previous one, recorded or not.
        if let Some(end) = block_end {
            self.previous_pid = Some(end.pid);
        }
        match write {
            Some((Register::TraceCtrl, data)) => {
                self.control = data & trace_ctrl::WRITABLE;
                // §13.3: the first block end after a TRACE_CTRL write has no previous one.
                self.previous_pid = None;
            }
            Some((Register::TracePid, data)) => self.traced_pid = data & 0xFFFF_FFFF,
            // §7: a write clears TRACE_DROPPED; a drop at the same edge then counts 1.
            Some((Register::TraceDropped, _)) => self.dropped = 0,
            _ => {}
        }
        if dropped {
            self.dropped = (self.dropped + 1).min(u32::MAX as u64);
        }
    }

    /// The stream during this cycle.
    pub(super) fn presented(&self) -> StreamWord {
        self.queue.presented()
    }

    /// Records made and not yet sent.
    pub(super) fn occupancy(&self) -> usize {
        self.queue.occupancy()
    }
}
