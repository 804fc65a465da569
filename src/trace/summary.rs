//! The header word of a trace record and the summary record of the PMU's profile
//! table (docs/pmu.md §15.3): word 0 has [63] NEW_PROCESS, [62:61] thread, [60]
//! SUMMARY and the block address in [47:0]; no flag is defined in bits 59:48. A
//! summary record is K + 2 words: its header, a word with the executions in [63:32]
//! and the pid in [31:0], then the sums S_0 .. S_{K-1}. The decoder
//! ([`super::decode`]) frames records by this header; the totals merge summary
//! records with block records by process and address.
use super::decode::DecodeErrorKind;
use super::TraceFormat;

/// Bit 63 of a header: the record carries a pid word (a block record only).
const NEW_PROCESS: u64 = 1 << 63;
/// Bit 60 of a header: a summary record of the profile table.
const SUMMARY: u64 = 1 << 60;
/// Header bits 59:48, where no flag is defined.
const UNKNOWN_FLAGS: u64 = 0xfff << 48;
/// The block address field, bits 47:0.
const ADDRESS: u64 = (1 << 48) - 1;

/// What a header word starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// A block record (docs/pmu.md §13.5), with a pid word when NEW_PROCESS is set.
    Block {
        /// NEW_PROCESS.
        new_process: bool,
    },
    /// A summary record (docs/pmu.md §15.3).
    Summary,
}

/// A header word read: its kind, thread and block address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Block or summary record.
    pub kind: Header,
    /// The thread field (checked against T).
    pub thread: usize,
    /// The block address.
    pub address: u64,
}

/// Reads a header word, or says why it is none: a flag bit in 59:48, NEW_PROCESS with
/// SUMMARY, an address bit at or above AW, or a thread >= T.
pub fn header(head: u64, format: &TraceFormat) -> Result<Head, (DecodeErrorKind, String)> {
    let unknown = head & UNKNOWN_FLAGS;
    if unknown != 0 {
        let why = format!(
            "header has unknown flag bits set (mask 0x{unknown:016x}): of bits 63:48 only 63 NEW_PROCESS, 62:61 the \
             thread and 60 SUMMARY are defined (docs/pmu.md §13.5, §15.3)"
        );
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    if head & NEW_PROCESS != 0 && head & SUMMARY != 0 {
        let why = "header has both NEW_PROCESS (bit 63) and SUMMARY (bit 60) set: no record has both (a summary \
                   record carries its pid in its second word, docs/pmu.md §15.3)"
            .to_string();
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    let high = head & ADDRESS & !((1u64 << format.address_width.min(48)) - 1);
    if high != 0 {
        let why = format!(
            "header has reserved bits set (mask 0x{high:016x}): address bits >= the address width {} must be 0",
            format.address_width
        );
        return Err((DecodeErrorKind::ReservedBits, why));
    }
    let thread = ((head >> 61) & 3) as usize;
    if thread >= format.threads {
        let why = format!("header names thread {thread}, but the PMU has {} thread(s)", format.threads);
        return Err((DecodeErrorKind::BadThread, why));
    }
    let kind =
        if head & SUMMARY != 0 { Header::Summary } else { Header::Block { new_process: head & NEW_PROCESS != 0 } };
    Ok(Head { kind, thread, address: head & ADDRESS })
}

/// Number of words in a summary record of `format`: K + 2.
pub fn record_words(format: &TraceFormat) -> usize {
    format.counters + 2
}

/// Whether `word` can start a capture: a NEW_PROCESS header or a summary header, the
/// records whose process a reader knows without what came before (docs/pmu.md §13.6).
pub fn starts_capture(word: u64, format: &TraceFormat) -> bool {
    match header(word, format) {
        Ok(Head { kind: Header::Block { new_process }, .. }) => new_process,
        Ok(Head { kind: Header::Summary, .. }) => true,
        Err(_) => false,
    }
}

/// The executions and the pid of a summary record's second word.
pub fn executions_and_pid(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

#[cfg(test)]
mod tests {
    use super::super::decode::tests::{fmt, rec, stream};
    use super::super::decode::{decode, totals, DecodeErrorKind};
    use super::super::{trace_csv, trace_table};
    use rand::{Rng, SeedableRng};

    /// The words of a summary record (docs/pmu.md §15.3).
    fn summary(thread: u64, address: u64, pid: u32, executions: u32, sums: &[u64]) -> Vec<u64> {
        let mut w = vec![1 << 60 | thread << 61 | address, (executions as u64) << 32 | pid as u64];
        w.extend_from_slice(sums);
        w
    }

    #[test]
    fn summary_records_decode_and_merge_with_block_records() {
        let f = fmt(2, 2, 40, 32);
        let recs = [
            rec(1, 0x400, Some(9), &[5, 7]),
            summary(1, 0x400, 9, 3, &[12, 30]),
            rec(1, 0x480, None, &[1, 2]),
            summary(0, 0x480, 12, 0xffff_ffff, &[(1 << 40) - 1, 0]),
        ];
        for last in [false, true] {
            let r = decode(&stream(&recs, last), &f).unwrap();
            let got: Vec<_> =
                r.iter().map(|r| (r.first_word, r.thread, r.process, r.summary, r.executions())).collect();
            let want = [
                (0, 1, Some(9), None, 1),
                (4, 1, Some(9), Some(3), 3),
                (8, 1, Some(9), None, 1),
                (11, 0, Some(12), Some(0xffff_ffff), 0xffff_ffff),
            ];
            assert_eq!(got, want);
            assert_eq!(r[1].values, [12, 30]);
        }
        let r = decode(&stream(&recs, true), &f).unwrap();
        let t: Vec<_> = totals(&r).iter().map(|t| (t.process, t.address, t.executions, t.totals.clone())).collect();
        let want = [
            (Some(9), 0x400, 4, vec![17, 37]),
            (Some(9), 0x480, 1, vec![1, 2]),
            (Some(12), 0x480, 0xffff_ffff, vec![(1 << 40) - 1, 0]),
        ];
        assert_eq!(t, want);
        let csv = trace_csv(&r, &f, &[]);
        assert!(csv.starts_with("record,thread,address,new_process,pid,summary,executions,v0,v1\n"), "{csv}");
        assert!(csv.contains("\n1,1,0x00000400,0,9,1,3,12,30\n"), "{csv}");
        let table = trace_table(&r, &f, &[]);
        assert!(table.starts_with("record     kind  thread  pid     address  executions"), "{table}");
        assert!(table.contains("     1  summary       1    9  0x00000400           3  "), "{table}");
    }

    /// Block records at random, and the same records summed by a model of the profile
    /// table (an entry per index, evicted on another key, passed through while
    /// SUMMARIZE is 0, flushed in index order at the end): the totals are the same.
    #[test]
    fn summing_in_a_table_keeps_the_totals() {
        let seed = 0x5eed_0015;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let f = fmt(2, 3, 24, 20);
        let (mut plain, mut summed) = (Vec::new(), Vec::new());
        // Per index: (thread, pid, address, executions, sums).
        type Entry = (u64, u32, u64, u32, Vec<u64>);
        let mut table: Vec<Option<Entry>> = vec![None; 8];
        let (mut pid, mut previous, mut summarize, mut changed) = (0u32, None, true, false);
        for _ in 0..2000 {
            if rng.gen_ratio(1, 50) {
                pid = rng.gen_range(0..4);
            }
            if rng.gen_ratio(1, 300) {
                summarize = !summarize;
                changed = true;
            }
            let (thread, address) = (rng.gen_range(0..2u64), rng.gen_range(0..40u64) * 4);
            let values: Vec<u64> = (0..3).map(|_| rng.gen_range(0..1 << 24)).collect();
            let new_process = (previous != Some(pid)).then_some(pid);
            previous = Some(pid);
            plain.push(rec(thread, address, new_process, &values));
            // After a change of SUMMARIZE the next record carries NEW_PROCESS (docs/pmu.md §15.1).
            let carried = if std::mem::take(&mut changed) { Some(pid) } else { new_process };
            if !summarize {
                summed.push(rec(thread, address, carried, &values));
                continue;
            }
            let slot = &mut table[(address as usize >> 2) % 8];
            match slot {
                Some((t, p, a, n, sums))
                    if (*t, *p, *a) == (thread, pid, address)
                        && sums.iter().zip(&values).all(|(s, v)| s + v < 1 << 24) =>
                {
                    *n += 1;
                    sums.iter_mut().zip(&values).for_each(|(s, v)| *s += v);
                }
                _ => {
                    if let Some((t, p, a, n, sums)) = slot.take() {
                        summed.push(summary(t, a, p, n, &sums));
                    }
                    *slot = Some((thread, pid, address, 1, values));
                }
            }
        }
        for (t, p, a, n, sums) in table.into_iter().flatten() {
            summed.push(summary(t, a, p, n, &sums));
        }
        let plain = totals(&decode(&stream(&plain, false), &f).unwrap());
        let records = decode(&stream(&summed, true), &f).unwrap();
        assert!(records.iter().any(|r| r.summary.is_some()) && records.iter().any(|r| r.summary.is_none()));
        assert_eq!(totals(&records), plain, "seed {seed:#x}");
    }

    #[test]
    fn cut_summary_records_and_unknown_flags_are_refused_naming_the_word() {
        let f = fmt(1, 2, 40, 32);
        let refuse = |words: Vec<u64>, last: bool, kind, word: usize, text: &[&str]| {
            let mut w = stream(&[words], last);
            if last {
                w.last_mut().unwrap().last = Some(false);
            }
            let e = decode(&w, &f).unwrap_err();
            assert_eq!((e.kind, e.word), (kind, word), "{e}");
            let msg = e.to_string();
            text.iter().for_each(|t| assert!(msg.contains(t), "{msg} lacks {t}"));
        };
        let mut cut = summary(0, 0x40, 3, 2, &[1, 2]);
        cut.pop();
        refuse(cut.clone(), false, DecodeErrorKind::Truncated, 3, &["inside summary record 0", "3 of 4 words"]);
        cut.push(5);
        refuse(cut, true, DecodeErrorKind::LastMissing, 3, &["final word (4 of 4) of the summary record"]);
        for bit in [48, 59] {
            let flagged = 1 << bit | 1 << 60 | 0x40;
            let w = [vec![flagged], summary(0, 0x40, 3, 2, &[1, 2])[1..].to_vec()].concat();
            refuse(w, false, DecodeErrorKind::ReservedBits, 0, &[&format!("0x{flagged:016x}"), "unknown flag bits"]);
        }
        let both =
            summary(0, 0x40, 3, 2, &[1, 2]).iter().enumerate().map(|(i, w)| w | ((i == 0) as u64) << 63).collect();
        refuse(both, false, DecodeErrorKind::ReservedBits, 0, &["0x9000000000000040", "both NEW_PROCESS"]);
        refuse(summary(0, 0x40, 3, 0, &[1, 2]), false, DecodeErrorKind::NoExecutions, 1, &["executions", "are 0"]);
        refuse(summary(0, 0x40, 3, 1, &[1, 1 << 40]), false, DecodeErrorKind::ValueTooWide, 3, &["sum S_1"]);
    }

    #[test]
    fn a_capture_starts_at_a_new_process_or_summary_header() {
        let f = fmt(2, 1, 40, 32);
        assert!(super::starts_capture(1 << 63 | 1 << 61 | 0x40, &f));
        assert!(super::starts_capture(1 << 60 | 0x40, &f));
        assert!(!super::starts_capture(0x40, &f));
        assert!(!super::starts_capture(1 << 63 | 1 << 60, &f));
        assert!(!super::starts_capture(1 << 60 | 2 << 61, &f));
    }
}
