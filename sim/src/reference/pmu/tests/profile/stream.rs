//! Reading the trace ports back: the records (split at trace_last), told apart by word
//! 0's bit 60 (§15.3: 1 in a summary record, 0 in a §13 record), and per-block totals
//! keyed by (thread, pid, address) as `pmugen trace decode` computes them (§13.6).
use std::collections::BTreeMap;

/// (thread, pid, address).
pub(super) type BlockKey = (u64, u32, u64);

/// Per-block totals: executions and the sum of each counter's values.
pub(super) type Totals = BTreeMap<BlockKey, (u64, Vec<u128>)>;

/// The records whose last word moved, from the words that moved with their trace_last.
pub(super) fn split(moved: &[(u64, bool)]) -> Vec<Vec<u64>> {
    let mut records = vec![];
    let mut record = vec![];
    for &(word, last) in moved {
        record.push(word);
        if last {
            records.push(std::mem::take(&mut record));
        }
    }
    records
}

/// Word 0 is a summary record's.
pub(super) fn is_summary(record: &[u64]) -> bool {
    record[0] >> 60 & 1 == 1
}

/// Add `executions` runs of `key` with these `sums` to `totals`.
pub(super) fn add(totals: &mut Totals, key: BlockKey, executions: u64, sums: impl IntoIterator<Item = u128>) {
    let (count, totals) = totals.entry(key).or_default();
    *count += executions;
    for (i, sum) in sums.into_iter().enumerate() {
        if totals.len() <= i {
            totals.push(0);
        }
        totals[i] += sum;
    }
}

/// Add a §13 record (§13.5) to `totals`; `pid` is the pid of the last NEW_PROCESS
/// record read before it, which a NEW_PROCESS record replaces.
pub(super) fn add_record(totals: &mut Totals, record: &[u64], pid: &mut u32, address_width: usize) {
    let new_process = record[0] >> 63 == 1;
    if new_process {
        *pid = record[1] as u32;
    }
    let key = (record[0] >> 61 & 0b11, *pid, record[0] & ((1 << address_width) - 1));
    let values = &record[1 + new_process as usize..];
    add(totals, key, 1, values.iter().map(|&value| value as u128));
}

/// Add a summary record (§15.3) to `totals`.
pub(super) fn add_summary(totals: &mut Totals, record: &[u64], address_width: usize) {
    let key = (record[0] >> 61 & 0b11, record[1] as u32, record[0] & ((1 << address_width) - 1));
    add(totals, key, record[1] >> 32, record[2..].iter().map(|&sum| sum as u128));
}
