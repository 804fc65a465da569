//! docs/pmu.md §15.3: the summary record of an entry, K + 2 words on the trace stream:
//! word 0 = [62:61] thread, [60] SUMMARY = 1, [AW-1:0] block address ([63] and the rest
//! 0); word 1 = [63:32] executions, [31:0] pid; then S_0 .. S_{K-1}, each in [CW-1:0].
use super::super::block_end::THREAD_SHIFT;
use super::entry::Entry;

/// Word 0's SUMMARY bit (a §13 record has 0 there).
pub const SUMMARY_BIT: u32 = 60;
/// Word 1's executions field, bits [63:32].
pub const EXECUTIONS_SHIFT: u32 = 32;

/// The number of words of a summary record with `counters` (K) counters.
pub fn summary_length(counters: usize) -> usize {
    counters + 2
}

/// Word `word` (< K + 2) of `entry`'s summary record.
pub fn summary_word(entry: &Entry, word: usize) -> u64 {
    match word {
        0 => (entry.key.thread as u64) << THREAD_SHIFT | 1 << SUMMARY_BIT | entry.key.address,
        1 => entry.executions << EXECUTIONS_SHIFT | entry.key.pid as u64,
        value => entry.sums[value - 2],
    }
}
