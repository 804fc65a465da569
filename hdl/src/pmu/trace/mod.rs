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
/// thread at [AW +: 2], NEW_PROCESS at [AW+2], the pid at [AW+3 +: 32], then for each
/// counter i the two terms of V_i: its base (CW bits) and its increment (IW bits), added
/// when the value leaves the queue, so that no adder lies between a counter and the
/// queue's RAM. The first AW+3 bits are what the first stream word carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    /// AW.
    pub address_width: usize,
    /// K.
    pub counters: usize,
    /// CW.
    pub counter_width: usize,
    /// IW: bits of a counter's per-cycle increment.
    pub increment_width: usize,
}

impl RecordLayout {
    /// Bits of a queue entry.
    pub fn width(&self) -> usize {
        self.value_lsb(self.counters)
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

    /// LSB of V_i's base (CW bits); its increment follows at [`RecordLayout::increment_lsb`].
    pub fn value_lsb(&self, counter: usize) -> usize {
        self.pid_lsb() + 32 + counter * (self.counter_width + self.increment_width)
    }

    /// LSB of V_i's increment (IW bits).
    pub fn increment_lsb(&self, counter: usize) -> usize {
        self.value_lsb(counter) + self.counter_width
    }
}
