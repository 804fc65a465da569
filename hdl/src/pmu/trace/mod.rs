//! The trace unit (docs/pmu.md §13, seed 004 done in hardware): at each block end of
//! the traced thread it restarts that thread's counters and queues a record of their
//! values, which leaves as a stream of 64-bit words.
//!
//! ```text
//!  bb_end, bb_addr, pid --> control (TRACE_CTRL, TRACE_PID, TRACE_DROPPED) --restart--> counters
//!  counters' next values --> record (the traced thread's V_i) --> queue (RAM, D records) --> trace_*
//! ```
pub mod control;
pub mod queue;
pub mod record;

/// Where a record's fields sit in a queue entry: the block address at [0 +: AW], the
/// thread at [AW +: 2], NEW_PROCESS at [AW+2], the pid at [AW+3 +: 32], V_i at
/// [AW+35+i*CW +: CW]. The first AW+3 bits are what the first stream word carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    /// AW.
    pub address_width: usize,
    /// K.
    pub counters: usize,
    /// CW.
    pub counter_width: usize,
}

impl RecordLayout {
    /// Bits of a queue entry.
    pub fn width(&self) -> usize {
        self.pid_lsb() + 32 + self.counters * self.counter_width
    }

    /// Bits of the first word's fields: address, thread, NEW_PROCESS.
    pub fn first_word_bits(&self) -> usize {
        self.address_width + 3
    }

    /// LSB of the thread field.
    pub fn thread_lsb(&self) -> usize {
        self.address_width
    }

    /// The NEW_PROCESS bit.
    pub fn new_process_bit(&self) -> usize {
        self.address_width + 2
    }

    /// LSB of the pid.
    pub fn pid_lsb(&self) -> usize {
        self.address_width + 3
    }

    /// LSB of V_i.
    pub fn value_lsb(&self, counter: usize) -> usize {
        self.pid_lsb() + 32 + counter * self.counter_width
    }
}
