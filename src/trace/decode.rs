//! Decoding of a PMU trace stream (64-bit words) into records, and the per-block
//! totals over a decoded trace.
//!
//! A block record (docs/pmu.md §13.5) is a header word (NEW_PROCESS in bit 63, thread
//! in bits 62:61, block address in bits 47:0), a pid word (bits 31:0) only when
//! NEW_PROCESS is set, then one word per counter. A summary record of the profile
//! table (§15.3, SUMMARY in bit 60 of its header) has a word of executions and pid
//! after its header, then one sum per counter ([`super::summary`]). Every reserved bit
//! must be 0, and `trace_last`, when it was captured, must be 1 exactly on a record's
//! final word.
use std::fmt;

use super::summary::{header, Header};
use super::{TraceFormat, Word};

/// One decoded record: a block that ended in one thread, with its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Record number in the stream, from 0.
    pub index: usize,
    /// Index of the record's header word in the stream.
    pub first_word: usize,
    /// Thread that executed the block.
    pub thread: usize,
    /// Block address.
    pub address: u64,
    /// The new pid when the record has NEW_PROCESS set.
    pub new_process: Option<u32>,
    /// The pid in effect: that of the last NEW_PROCESS record (None before any); for a
    /// summary record, the pid it carries.
    pub process: Option<u32>,
    /// For a summary record of the profile table (docs/pmu.md §15.3): the number of
    /// executions it sums, `values` then being the sums S_i; None for a block record,
    /// which is one execution.
    pub summary: Option<u32>,
    /// Counter values V_0 .. V_{K-1}: each counter's count over the block (a summary
    /// record: the sums over its executions).
    pub values: Vec<u64>,
}

impl Record {
    /// The executions the record stands for: 1, or a summary record's count.
    pub fn executions(&self) -> u64 {
        self.summary.map_or(1, u64::from)
    }

    /// The number of words the record took on the stream.
    pub fn words(&self, format: &TraceFormat) -> usize {
        match self.summary {
            Some(_) => super::summary::record_words(format),
            None => record_words(format, self.new_process.is_some()),
        }
    }
}

/// Why a stream was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// Header bits 59:48 (no flag is defined there), NEW_PROCESS together with
    /// SUMMARY, or address bits at or above the address width, are set.
    ReservedBits,
    /// The header's thread number is not below the number of threads.
    BadThread,
    /// The pid word has bits 63:32 set.
    PidHighBits,
    /// A counter value has bits at or above the counter width set.
    ValueTooWide,
    /// `trace_last` is 1 on a word before the record's end.
    LastTooEarly,
    /// `trace_last` is 0 on the record's final word.
    LastMissing,
    /// The stream ends in the middle of a record.
    Truncated,
    /// A summary record says its block ran 0 times.
    NoExecutions,
}

/// A refused stream: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// What is wrong.
    pub kind: DecodeErrorKind,
    /// Index of the offending word (for a truncated record: the stream length,
    /// where the first missing word would be).
    pub word: usize,
    /// The offending word's value (None when the stream ended).
    pub data: Option<u64>,
    /// Number of the record being decoded.
    pub record: usize,
    /// Explanation naming the rule that was broken.
    pub reason: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.data {
            Some(d) => write!(f, "word {} (0x{:016x}) in record {}: {}", self.word, d, self.record, self.reason),
            None => write!(f, "word {} (end of stream) in record {}: {}", self.word, self.record, self.reason),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Number of words in a block record of `format` with or without NEW_PROCESS.
pub fn record_words(format: &TraceFormat, new_process: bool) -> usize {
    1 + new_process as usize + format.counters
}

/// Mask of the bits at and above `width` in a 64-bit word (0 when width >= 64).
fn high_bits(width: usize) -> u64 {
    if width >= 64 {
        0
    } else {
        !0u64 << width
    }
}

/// Decodes a whole stream into records, refusing any malformed word.
pub fn decode(words: &[Word], format: &TraceFormat) -> Result<Vec<Record>, DecodeError> {
    let (records, error) = decode_partial(words, format, 0);
    error.map_or(Ok(records), Err)
}

/// Decodes the records of a stream from word `start` up to its first malformed word
/// or incomplete record (`trace decode --partial`): the complete records before it,
/// and the error that stopped the decoding, if any. Word numbers count from the
/// stream's first word, not from `start`.
pub fn decode_partial(words: &[Word], format: &TraceFormat, start: usize) -> (Vec<Record>, Option<DecodeError>) {
    let mut records = Vec::new();
    let error = decode_into(words, format, start, &mut records).err();
    (records, error)
}

/// Decodes `words` from `start` into `records` until the first malformed word.
fn decode_into(
    words: &[Word],
    format: &TraceFormat,
    start: usize,
    records: &mut Vec<Record>,
) -> Result<(), DecodeError> {
    let mut process = None;
    let mut at = start;
    while at < words.len() {
        let index = records.len();
        let fail = |kind, word: usize, reason: String| DecodeError {
            kind,
            word,
            data: words.get(word).map(|w| w.data),
            record: index,
            reason,
        };
        let head = header(words[at].data, format).map_err(|(kind, why)| fail(kind, at, why))?;
        let (np, summary) = match head.kind {
            Header::Block { new_process } => (new_process, false),
            Header::Summary => (false, true),
        };
        let (len, what) = match summary {
            true => (super::summary::record_words(format), "summary record"),
            false => (record_words(format, np), "record"),
        };
        // Words before the values: the header, and a pid word or a summary's executions word.
        let first_value = 1 + (np || summary) as usize;
        for p in 0..len {
            let i = at + p;
            let Some(w) = words.get(i) else {
                // Without trace_last (a hex dump), a word lost at the start or inside
                // shifts every record after it, which shows here at the end.
                let why = format!(
                    "stream ends inside {what} {index} (header at word {at}): {} of {len} words present, {} missing \
                     (the capture was cut, or words are missing before this record; --partial decodes the records \
                     before it)",
                    p,
                    len - p
                );
                return Err(fail(DecodeErrorKind::Truncated, i, why));
            };
            match w.last {
                Some(true) if p + 1 < len => {
                    let why = format!("trace_last is 1 on word {} of a {len}-word {what}, before its end", p + 1);
                    return Err(fail(DecodeErrorKind::LastTooEarly, i, why));
                }
                Some(false) if p + 1 == len => {
                    let why = format!("trace_last is 0 on the final word ({len} of {len}) of the {what}");
                    return Err(fail(DecodeErrorKind::LastMissing, i, why));
                }
                _ => {}
            }
            if np && p == 1 && w.data >> 32 != 0 {
                let why = "pid word has bits 63:32 set (they must be 0)".to_string();
                return Err(fail(DecodeErrorKind::PidHighBits, i, why));
            }
            if summary && p == 1 && w.data >> 32 == 0 {
                let why = "summary record's executions (bits 63:32 of its second word) are 0: an entry of the profile \
                           table holds at least one execution (docs/pmu.md §15.3)"
                    .to_string();
                return Err(fail(DecodeErrorKind::NoExecutions, i, why));
            }
            if p >= first_value && w.data & high_bits(format.counter_width) != 0 {
                let name = if summary { "sum S" } else { "value V" };
                let why =
                    format!("{name}_{} has bits >= the counter width {} set", p - first_value, format.counter_width);
                return Err(fail(DecodeErrorKind::ValueTooWide, i, why));
            }
        }
        let new_process = np.then(|| words[at + 1].data as u32);
        if new_process.is_some() {
            process = new_process;
        }
        // A summary record carries its own pid and leaves the process in effect for
        // block records as it was (docs/pmu.md §15.1: a block record after a change of
        // SUMMARIZE carries NEW_PROCESS).
        let (summed, pid) = match summary {
            true => {
                let (executions, pid) = super::summary::executions_and_pid(words[at + 1].data);
                (Some(executions), Some(pid))
            }
            false => (None, process),
        };
        records.push(Record {
            index,
            first_word: at,
            thread: head.thread,
            address: head.address,
            new_process,
            process: pid,
            summary: summed,
            values: words[at + first_value..at + len].iter().map(|w| w.data).collect(),
        });
        at += len;
    }
    Ok(())
}

/// The totals of one block of one process over a whole trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockTotal {
    /// The process (None for records before any NEW_PROCESS record).
    pub process: Option<u32>,
    /// Block address.
    pub address: u64,
    /// Number of records (executions of the block) summed.
    pub executions: usize,
    /// Sum of each counter's values over those records.
    pub totals: Vec<u128>,
}

/// Sums the records per (process, address), ordered by process (unknown first) and
/// address: a summary record adds its executions and sums, so a stream of summary
/// records gives the totals of the block records they summed (docs/pmu.md §15.5),
/// in the same order.
pub fn totals(records: &[Record]) -> Vec<BlockTotal> {
    let mut out: Vec<BlockTotal> = Vec::new();
    let mut slot = std::collections::HashMap::new();
    for r in records {
        let i = *slot.entry((r.process, r.address)).or_insert_with(|| {
            out.push(BlockTotal {
                process: r.process,
                address: r.address,
                executions: 0,
                totals: vec![0; r.values.len()],
            });
            out.len() - 1
        });
        let t = &mut out[i];
        t.executions += r.executions() as usize;
        if t.totals.len() < r.values.len() {
            t.totals.resize(r.values.len(), 0);
        }
        for (s, v) in t.totals.iter_mut().zip(&r.values) {
            *s += *v as u128;
        }
    }
    out.sort_by_key(|t| (t.process, t.address));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn fmt(threads: usize, counters: usize, counter_width: usize, address_width: usize) -> TraceFormat {
        TraceFormat { threads, counters, counter_width, address_width }
    }

    /// The words of one record.
    pub(crate) fn rec(thread: u64, address: u64, pid: Option<u32>, values: &[u64]) -> Vec<u64> {
        let mut w = vec![(pid.is_some() as u64) << 63 | thread << 61 | address];
        w.extend(pid.map(|p| p as u64));
        w.extend_from_slice(values);
        w
    }

    /// A stream of records, with `trace_last` on each record's final word if `last`.
    pub(crate) fn stream(records: &[Vec<u64>], last: bool) -> Vec<Word> {
        let word = |(i, &data): (usize, &u64), n: usize| Word { data, last: last.then_some(i + 1 == n) };
        records.iter().flat_map(|r| r.iter().enumerate().map(|x| word(x, r.len()))).collect()
    }

    fn refuse(words: &[Word], f: &TraceFormat, kind: DecodeErrorKind, word: usize, text: &[&str]) {
        let e = decode(words, f).unwrap_err();
        assert_eq!((e.kind, e.word), (kind, word), "{e}");
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("word {word} ")), "{msg}");
        text.iter().for_each(|t| assert!(msg.contains(t), "{msg} lacks {t}"));
    }

    #[test]
    fn one_thread_one_counter_narrow() {
        let f = fmt(1, 1, 16, 16);
        let recs = [rec(0, 0x1234, Some(7), &[0xffff]), rec(0, 0xffff, None, &[0]), rec(0, 0, Some(8), &[5])];
        for last in [false, true] {
            let r = decode(&stream(&recs, last), &f).unwrap();
            assert_eq!(r.len(), 3);
            let r0 = Record {
                index: 0,
                first_word: 0,
                thread: 0,
                address: 0x1234,
                new_process: Some(7),
                process: Some(7),
                summary: None,
                values: vec![0xffff],
            };
            assert_eq!(r[0], r0);
            assert_eq!((r[1].first_word, r[1].address, r[1].new_process, r[1].process), (3, 0xffff, None, Some(7)));
            assert_eq!((r[2].index, r[2].first_word, r[2].new_process, r[2].values.clone()), (2, 5, Some(8), vec![5]));
        }
    }

    #[test]
    fn four_threads_four_counters_wide() {
        let f = fmt(4, 4, 64, 48);
        let top = (1u64 << 48) - 1;
        let recs = [
            rec(2, 0x40, None, &[1, 2, 3, 4]),
            rec(3, top, Some(u32::MAX), &[u64::MAX, 0, u64::MAX, 1 << 63]),
            rec(1, 0x8000_0000_0000, None, &[9, 8, 7, 6]),
            rec(0, 0, Some(0), &[0; 4]),
        ];
        let r = decode(&stream(&recs, true), &f).unwrap();
        assert_eq!(r.iter().map(|r| r.thread).collect::<Vec<_>>(), [2, 3, 1, 0]);
        assert_eq!(r.iter().map(|r| r.first_word).collect::<Vec<_>>(), [0, 5, 11, 16]);
        assert_eq!(r.iter().map(|r| r.process).collect::<Vec<_>>(), [None, Some(u32::MAX), Some(u32::MAX), Some(0)]);
        assert_eq!((r[1].address, r[1].values.clone()), (top, vec![u64::MAX, 0, u64::MAX, 1 << 63]));
        assert_eq!((r[2].address, r[2].new_process), (0x8000_0000_0000, None));
        assert_eq!(decode(&[], &f).unwrap(), vec![]);
    }

    #[test]
    fn totals_of_repeated_blocks() {
        let f = fmt(2, 2, 32, 16);
        let recs = [
            rec(0, 0x10, None, &[1, 2]),
            rec(0, 0x10, Some(5), &[3, 4]),
            rec(1, 0x20, None, &[0xffff_ffff, 1]),
            rec(0, 0x10, None, &[10, 20]),
            rec(1, 0x20, None, &[0xffff_ffff, 1]),
            rec(1, 0x10, Some(6), &[7, 7]),
        ];
        let t = totals(&decode(&stream(&recs, false), &f).unwrap());
        let bt = |process, address, executions, totals: [u128; 2]| BlockTotal {
            process,
            address,
            executions,
            totals: totals.to_vec(),
        };
        let want = [
            bt(None, 0x10, 1, [1, 2]),
            bt(Some(5), 0x10, 2, [13, 24]),
            bt(Some(5), 0x20, 2, [0x1_ffff_fffe, 2]),
            bt(Some(6), 0x10, 1, [7, 7]),
        ];
        assert_eq!(t, want);
    }

    #[test]
    fn refuses_reserved_header_bits() {
        let f = fmt(1, 1, 16, 16);
        let mut w = stream(&[rec(0, 1, None, &[1]), rec(0, 2, None, &[2])], false);
        w[2].data |= 1 << 55;
        refuse(&w, &f, DecodeErrorKind::ReservedBits, 2, &["0x0080000000000002", "unknown flag bits", "record 1"]);
        let w = stream(&[rec(0, 1 << 16, None, &[1])], false);
        refuse(
            &w,
            &f,
            DecodeErrorKind::ReservedBits,
            0,
            &["0x0000000000010000", "address bits >= the address width 16"],
        );
    }

    #[test]
    fn refuses_bad_thread() {
        let w = stream(&[rec(1, 1, None, &[1]), rec(2, 1, None, &[1])], true);
        refuse(
            &w,
            &fmt(2, 1, 16, 16),
            DecodeErrorKind::BadThread,
            2,
            &["0x4000000000000001", "thread 2", "2 thread(s)"],
        );
    }

    #[test]
    fn refuses_pid_high_bits() {
        let mut w = stream(&[rec(0, 1, Some(3), &[1, 2])], true);
        w[1].data |= 1 << 32;
        refuse(&w, &fmt(1, 2, 16, 16), DecodeErrorKind::PidHighBits, 1, &["0x0000000100000003", "pid word", "63:32"]);
    }

    #[test]
    fn refuses_value_too_wide() {
        let w = stream(&[rec(0, 1, Some(3), &[1, 0x1_0000])], true);
        refuse(
            &w,
            &fmt(1, 2, 16, 16),
            DecodeErrorKind::ValueTooWide,
            3,
            &["0x0000000000010000", "V_1", "counter width 16"],
        );
    }

    #[test]
    fn refuses_misplaced_last() {
        let f = fmt(1, 2, 16, 16);
        let mut w = stream(&[rec(0, 1, None, &[1, 2]), rec(0, 1, None, &[3, 4])], true);
        w[4].last = Some(true);
        refuse(&w, &f, DecodeErrorKind::LastTooEarly, 4, &["0x0000000000000003", "trace_last is 1", "before its end"]);
        let mut w = stream(&[rec(0, 1, None, &[1, 2])], true);
        w[2].last = Some(false);
        refuse(&w, &f, DecodeErrorKind::LastMissing, 2, &["0x0000000000000002", "trace_last is 0", "final word"]);
    }

    #[test]
    fn refuses_truncated_stream() {
        let w = stream(&[rec(0, 1, None, &[1, 2, 3, 4]), rec(0, 1, Some(9), &[1, 2, 3, 4])], false);
        refuse(&w[..8], &fmt(1, 4, 16, 16), DecodeErrorKind::Truncated, 8, &["record 1", "3 of 6 words", "3 missing"]);
    }
}
