//! §13: the trace unit shared by the core. TRACE_CTRL, TRACE_PID and TRACE_DROPPED (one
//! register each for all banks), the memory of the previous block end's pid (§13.3) and
//! the output path: the queue with, when E > 0, the profile table and its registers
//! PROFILE_CTRL and PROFILE_EVICTED (§15). At an edge, in order: the output path's
//! handshakes, the record of this edge's block end joins the queue or is dropped, the
//! profile table moves, then this edge's register write.
use super::addr::{profile_ctrl, trace_ctrl};
use super::block_end::BlockEnd;
use super::input_stage::InputStage;
use super::profile::{ProfileGeometry, ProfileRegister, ProfileTable, ProfileWrite};
use super::registers::Register;
use super::trace_output::TraceOutput;
use super::trace_queue::StreamWord;

/// A record's stream words and whether the queue dropped it.
pub(super) type LoggedRecord = (Vec<u64>, bool);

/// The trace unit's registers and flip-flops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TraceUnit {
    /// TRACE_CTRL: [0] TRACE_EN, [1] PID_FILTER, [5:4] THREAD.
    control: u64,
    /// TRACE_PID: [31:0].
    traced_pid: u64,
    /// TRACE_DROPPED: [31:0], saturating.
    dropped: u64,
    /// pid[s] at the previous block end since reset or the last TRACE_CTRL write (or
    /// PROFILE_CTRL write that changed SUMMARIZE).
    previous_pid: Option<u32>,
    output: TraceOutput,
    /// Every record made and whether it was dropped, when logging.
    log: Option<Vec<LoggedRecord>>,
}

impl TraceUnit {
    /// The trace unit at power-on: registers 0, no previous block end, queue empty, the
    /// profile table (if `profile` gives one) clearing.
    pub(super) fn new(depth: usize, profile: Option<ProfileGeometry>) -> Self {
        Self {
            control: 0,
            traced_pid: 0,
            dropped: 0,
            previous_pid: None,
            output: TraceOutput::new(depth, profile),
            log: None,
        }
    }

    /// A reset edge: as at power-on, except that the profile table's entries keep their
    /// contents until its clearing (§15.4) and the log (not part of the hardware) goes on.
    pub(super) fn reset(&mut self) {
        (self.control, self.traced_pid, self.dropped, self.previous_pid) = (0, 0, 0, None);
        self.output.reset();
    }

    /// Start (or keep) logging every record made.
    pub(super) fn log_records(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// The records logged since the last call.
    pub(super) fn take_records(&mut self) -> Vec<LoggedRecord> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// §13.2: the block end of this cycle, if any.
    pub(super) fn block_end(&self, stage: &InputStage, threads: usize) -> Option<BlockEnd> {
        BlockEnd::detect(self.control, self.traced_pid, self.previous_pid, stage, threads)
    }

    /// What a read of a trace or profile register returns during this cycle.
    pub(super) fn read(&self, register: Register) -> u64 {
        let profile = |register| self.output.table().map_or(0, |table| table.read(register));
        match register {
            Register::TraceCtrl => self.control,
            Register::TracePid => self.traced_pid,
            Register::TraceDropped => self.dropped,
            Register::ProfileCtrl => profile(ProfileRegister::Control),
            Register::ProfileEvicted => profile(ProfileRegister::Evicted),
            _ => 0,
        }
    }

    /// Every trace flip-flop takes its next value at this edge. `block_end` is this
    /// cycle's block end with `values` = its thread's V_i; `ready` is trace_ready
    /// sampled at the edge; `write` is this edge's allowed write of a trace or profile
    /// register (register, data already reduced to its listed bits).
    pub(super) fn commit(
        &mut self,
        block_end: Option<&BlockEnd>,
        values: &[u64],
        ready: bool,
        write: Option<(Register, u64)>,
    ) {
        let record = block_end.and_then(|end| end.record(values));
        let profile_write = match write {
            Some((Register::ProfileCtrl, data)) => Some(ProfileWrite::Control(data)),
            Some((Register::ProfileEvicted, _)) => Some(ProfileWrite::Evicted),
            _ => None,
        };
        let summarize = self.read(Register::ProfileCtrl) & profile_ctrl::SUMMARIZE;
        let dropped = self.output.edge(ready, record.clone(), profile_write);
        if let (Some(log), Some(record)) = (&mut self.log, record) {
            log.push((record, dropped));
        }
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
            // §15.1: a PROFILE_CTRL write that changes SUMMARIZE counts like one.
            Some((Register::ProfileCtrl, data)) if data & profile_ctrl::SUMMARIZE != summarize => {
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

    /// The trace ports during this cycle.
    pub(super) fn presented(&self) -> StreamWord {
        self.output.presented()
    }

    /// Records made and not yet sent.
    pub(super) fn occupancy(&self) -> usize {
        self.output.occupancy()
    }

    /// The profile table, if there is one.
    pub(super) fn profile(&self) -> Option<&ProfileTable> {
        self.output.table()
    }
}
