//! docs/pmu.md §15.2: one entry of the profile table: valid, the key (thread, pid, block
//! address), the executions (32 bits) and one sum S_i of CW bits per counter. No
//! addition wraps: a record that would take executions to 2^32 or some S_i + V_i to
//! 2^CW is not added (the table sends the entry first, §15.4).

/// The executions field's width (the width of its place in a summary record's word 1).
pub const EXECUTIONS_BITS: u32 = 32;

/// What an entry is the profile of: one block of one process of one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The record's thread (TRACE_CTRL.THREAD when it was made).
    pub thread: usize,
    /// The table's current pid when the record was summed.
    pub pid: u32,
    /// The block address, AW bits.
    pub address: u64,
}

/// One entry of the table. An invalid entry's other fields are stale and mean nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The entry holds a profile.
    pub valid: bool,
    /// The profile's key.
    pub key: Key,
    /// How many records were summed, 1..2^32.
    pub executions: u64,
    /// S_0 .. S_{K-1}: the sums of each counter's V_i over those records, each < 2^CW.
    pub sums: Vec<u64>,
}

impl Entry {
    /// An entry (re)started from one record: executions 1 and S_i = V_i.
    pub fn started(key: Key, values: &[u64]) -> Self {
        Self { valid: true, key, executions: 1, sums: values.to_vec() }
    }

    /// Executions + 1 stays below 2^32 and every S_i + V_i below 2^CW.
    pub fn can_add(&self, values: &[u64], counter_width: usize) -> bool {
        let fits = |sum: u128| sum >> counter_width == 0;
        self.executions + 1 < 1 << EXECUTIONS_BITS
            && self.sums.iter().zip(values).all(|(&sum, &value)| fits(sum as u128 + value as u128))
    }

    /// Add one record (the caller has checked [`Entry::can_add`]).
    pub fn add(&mut self, values: &[u64]) {
        self.executions += 1;
        for (sum, value) in self.sums.iter_mut().zip(values) {
            *sum += value;
        }
    }
}
