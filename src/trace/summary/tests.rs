//! Summary records decoded, merged and refused (docs/pmu.md §13.6, §15.3): hand-made
//! streams, and random block records summed by a model of the profile table.
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
        let got: Vec<_> = r.iter().map(|r| (r.first_word, r.thread, r.process, r.summary, r.executions())).collect();
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
                if (*t, *p, *a) == (thread, pid, address) && sums.iter().zip(&values).all(|(s, v)| s + v < 1 << 24) =>
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
    let both = summary(0, 0x40, 3, 2, &[1, 2]).iter().enumerate().map(|(i, w)| w | ((i == 0) as u64) << 63).collect();
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
