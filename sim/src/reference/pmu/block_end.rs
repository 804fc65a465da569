//! §13.2, §13.3 and §13.5: a block end of the traced thread, whether it makes a
//! record, whether that record starts a new process, and the record's stream words.
//! Everything is judged from this cycle's TRACE_CTRL and TRACE_PID (a write acts from
//! the next cycle, §7) and the one-cycle-late `bb_end`, `bb_addr` and `pid` (§4).
use super::addr::trace_ctrl;
use super::input_stage::InputStage;

/// Word 0's NEW_PROCESS bit.
pub(super) const NEW_PROCESS_BIT: u32 = 63;
/// Word 0's thread field, bits [62:61].
pub(super) const THREAD_SHIFT: u32 = 61;

/// A block end of the traced thread s during this cycle: at the coming edge every
/// counter of s restarts, and a record is made unless PID_FILTER rejects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BlockEnd {
    /// s = TRACE_CTRL.THREAD (< T).
    pub(super) thread: usize,
    /// bb_addr[s], AW bits.
    address: u64,
    /// pid[s]: what the next block end compares with (§13.3).
    pub(super) pid: u32,
    /// §13.3: pid[s] differs from the previous block end's, or there was none.
    new_process: bool,
    /// §13.2: PID_FILTER = 0 or pid[s] = TRACE_PID.
    recorded: bool,
}

impl BlockEnd {
    /// The block end of this cycle, if there is one: TRACE_EN = 1, s < T and bb_end[s].
    /// `previous_pid` is pid[s] at the previous block end since reset or the last
    /// TRACE_CTRL write (None if there was none).
    pub(super) fn detect(
        control: u64,
        traced_pid: u64,
        previous_pid: Option<u32>,
        stage: &InputStage,
        threads: usize,
    ) -> Option<Self> {
        let thread = (control >> trace_ctrl::THREAD_SHIFT & 0b11) as usize;
        let enabled = control & trace_ctrl::TRACE_EN != 0;
        if !enabled || thread >= threads || !stage.bb_end(thread) {
            return None;
        }
        let pid = stage.pid(thread);
        let filtering = control & trace_ctrl::PID_FILTER != 0;
        Some(Self {
            thread,
            address: stage.bb_addr(thread),
            pid,
            new_process: previous_pid != Some(pid),
            recorded: !filtering || pid as u64 == traced_pid,
        })
    }

    /// The record's stream words with `values` = V_0 .. V_{K-1}, or None when the
    /// filter rejects it: word 0 = [63] NEW_PROCESS, [62:61] s, [AW-1:0] the address;
    /// then the pid in [31:0] if NEW_PROCESS; then the K values.
    pub(super) fn record(&self, values: &[u64]) -> Option<Vec<u64>> {
        if !self.recorded {
            return None;
        }
        let head = (self.new_process as u64) << NEW_PROCESS_BIT | (self.thread as u64) << THREAD_SHIFT | self.address;
        let mut words = vec![head];
        if self.new_process {
            words.push(self.pid as u64);
        }
        words.extend_from_slice(values);
        Some(words)
    }
}
