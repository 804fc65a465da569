//! The profile table (docs/pmu.md §15): between the trace queue and the trace ports,
//! it sums the traced thread's records per (thread, pid, block address) in a RAM of E
//! entries, and sends summary records when an entry is evicted or flushed, so that what
//! leaves the PMU grows with the number of distinct blocks, not with run time.
//!
//! ```text
//!  queue stream --+--> (SUMMARIZE = 0) -----------------------------+--> trace_*
//!                 +--> take record -> RAM[index(address)] -> update |
//!                                      evict / flush -> summary ----+
//! ```
//!
//! This file holds what the block's Rust twin and its Verilog share: the entry's layout
//! in the RAM, the index of §15.2 and the summary record's words of §15.3.
mod edge;
mod registers;
pub mod table;
#[cfg(test)]
mod tests;
mod verilog;

use rust_hdl::prelude::*;

use crate::custom::bits_for;
use table::ProfileTable;

/// SUMMARY, bit 60 of a summary record's first word (§15.3).
pub const SUMMARY_BIT: usize = 60;
/// Bits of an entry's executions (§15.6: the width of its field in word 1).
pub const EXECUTIONS_BITS: usize = 32;

/// The sizes of one table: E entries of a PMU with T threads, K counters of CW bits,
/// AW-bit block addresses and a queue of D records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableShape {
    /// E, a power of 2 in 16..=4096.
    pub entries: usize,
    /// T.
    pub threads: usize,
    /// K.
    pub counters: usize,
    /// CW.
    pub counter_width: usize,
    /// AW.
    pub address_width: usize,
    /// D: the queue's depth, for the count of its records (a flush's pending records).
    pub depth: usize,
}

impl TableShape {
    /// log2 E: bits of an index.
    pub fn index_bits(&self) -> usize {
        self.entries.trailing_zeros() as usize
    }

    /// TB: bits of a thread number in an entry (0 for one thread).
    pub fn thread_bits(&self) -> usize {
        if self.threads == 1 {
            0
        } else {
            bits_for(self.threads - 1)
        }
    }

    /// Bits of the count of the queue's records, 0..=D.
    pub fn count_bits(&self) -> usize {
        bits_for(self.depth)
    }

    /// Bits of a word position: 0..=K+1.
    pub fn word_bits(&self) -> usize {
        bits_for(self.counters + 1)
    }

    /// The entry's fields in the RAM word, least significant first: valid, thread, pid,
    /// address, executions, then S_0 .. S_{K-1}.
    pub fn thread_lsb(&self) -> usize {
        1
    }
    /// LSB of the pid.
    pub fn pid_lsb(&self) -> usize {
        self.thread_lsb() + self.thread_bits()
    }
    /// LSB of the block address.
    pub fn address_lsb(&self) -> usize {
        self.pid_lsb() + 32
    }
    /// LSB of the executions.
    pub fn executions_lsb(&self) -> usize {
        self.address_lsb() + self.address_width
    }
    /// LSB of S_i.
    pub fn sum_lsb(&self, counter: usize) -> usize {
        self.executions_lsb() + EXECUTIONS_BITS + counter * self.counter_width
    }
    /// Bits of an entry: 1 + TB + 32 + AW + 32 + K*CW (§15.2).
    pub fn entry_bits(&self) -> usize {
        self.sum_lsb(self.counters)
    }

    /// The slices of the block address that §15.2's index folds: (lsb, width) of each,
    /// a[AW-1:1] cut into log2 E-bit pieces, the last one as far as it goes.
    pub fn index_slices(&self) -> Vec<(usize, usize)> {
        let bits = self.index_bits();
        (0..)
            .map(|j| 1 + j * bits)
            .take_while(|&lsb| lsb < self.address_width)
            .map(|lsb| (lsb, bits.min(self.address_width - lsb)))
            .collect()
    }

    /// index(a) of §15.2: the XOR of the slices.
    pub fn index(&self, address: u64) -> usize {
        self.index_slices()
            .into_iter()
            .fold(0, |index, (lsb, width)| index ^ (address >> lsb & crate::dyn_signal::low_mask(width)) as usize)
    }
}

/// One entry of the table (§15.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The entry holds a block.
    pub valid: bool,
    /// The key: thread.
    pub thread: u64,
    /// The key: pid.
    pub pid: u64,
    /// The key: block address.
    pub address: u64,
    /// How often the block ran.
    pub executions: u64,
    /// S_i: the sum of counter i's values over the executions.
    pub sums: Vec<u64>,
}

impl Entry {
    /// Word `word` (0..=K+1) of this entry's summary record (§15.3).
    pub fn summary_word(&self, word: usize) -> u64 {
        match word {
            0 => self.thread << 61 | 1 << SUMMARY_BIT | self.address,
            1 => self.executions << 32 | self.pid,
            w => self.sums[w - 2],
        }
    }
}

/// The block: the twin's edge, then its outputs from its state and inputs; its Verilog.
impl Logic for ProfileTable {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.step();
        }
        let cycle = self.cycle();
        let state = &self.state.0;
        self.in_ready.next = cycle.in_ready;
        (self.valid.next, self.last.next) = (cycle.out.0, cycle.out.2);
        self.data.set(cycle.out.1);
        self.ctrl.set((state.flushing as u64) << 1 | state.summarize as u64);
        self.evicted.set(state.evicted);
    }

    fn connect(&mut self) {
        self.in_ready.connect();
        self.data.connect();
        self.valid.connect();
        self.last.connect();
        self.ctrl.connect();
        self.evicted.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
