//! docs/pmu.md §15.4 flush: *pending* takes the records in the queue after the write's
//! edge (one whose first word has moved and one made at that edge included); they go
//! through the table first, then the walk visits entries 0..E-1, one cycle each, and
//! sends the valid ones; FLUSH reads 1 until the last word of the last entry moved;
//! records made after the write wait, whatever SUMMARIZE is; FLUSH written during a
//! flush (up to the edge it ends at) is ignored while SUMMARIZE takes bit 0. Indexes (§15.2, E = 16): 0x60 -> 3,
//! 0x100 -> 8.
use super::super::super::profile::ProfileWrite;
use super::{quiet, record, summary, Lane, Seen, FLUSH, SUMMARIZE};

/// `count` cycles in which nothing moves, with FLUSH = 1.
fn waiting(count: usize) -> Vec<(Seen, bool)> {
    vec![(quiet(false), true); count]
}

/// Summary record `words` shown word by word, with FLUSH = 1.
fn sending(words: &[u64]) -> Vec<(Seen, bool)> {
    let last = words.len() - 1;
    words.iter().enumerate().map(|(i, &word)| (Seen { trace: Some((word, i == last)), ready: false }, true)).collect()
}

#[test]
fn a_flush_takes_its_pending_records_then_walks_the_entries_in_index_order() {
    let mut lane = Lane::cleared(16, 1, 40, true);
    lane.make(record(Some(5), 0, 0x100, &[10]));
    lane.idle(5);
    lane.make(record(None, 0, 0x60, &[20]));
    lane.idle(4);
    lane.make(record(None, 0, 0x100, &[1])); // cycle w-1: P1
                                             // Cycle w: P1's word 0 moves in; the write and P2 at edge w: pending = 2.
    let write = ProfileWrite::Control(SUMMARIZE | FLUSH);
    assert_eq!(lane.step(Some(record(None, 0, 0x60, &[2])), Some(write)), quiet(true));
    let q = record(None, 0, 0x100, &[3]);
    let mut seen = vec![(lane.flushing(), lane.make(q.clone()))]; // w+1: Q, made after the write
    for cycle in 2..=31 {
        // Cycle w+12: FLUSH written again during the flush (ignored), SUMMARIZE = 0.
        let write = (cycle == 12).then_some(ProfileWrite::Control(FLUSH));
        seen.push((lane.flushing(), lane.step(None, write)));
    }
    let seen: Vec<(Seen, bool)> = seen.into_iter().map(|(flushing, seen)| (seen, flushing)).collect();
    let mut expected = vec![(quiet(true), true), (quiet(false), true)]; // w+1 P1's last word, w+2 updating
    expected.extend([(quiet(true), true), (quiet(true), true), (quiet(false), true)]); // w+3..w+5: P2
    expected.extend(waiting(5)); // w+6: the walk starts; w+7..w+10 walking 0..3 (Q waits)
    expected.extend(sending(&summary(0, 5, 0x60, 2, &[22]))); // w+11..w+13: entry 3
    expected.extend(waiting(5)); // w+14..w+18: walking 4..8
    expected.extend(sending(&summary(0, 5, 0x100, 2, &[11]))); // w+19..w+21: entry 8
    expected.extend(waiting(7)); // w+22..w+28: walking 9..15; the flush ends at edge w+28
                                 // w+29, w+30: Q passes (SUMMARIZE = 0 since w+13); w+31 idle.
    let passing = |data, last| (Seen { trace: Some((data, last)), ready: true }, false);
    expected.extend([passing(q[0], false), passing(3, true), (quiet(false), false)]);
    assert_eq!(seen, expected);
    assert!((0..16).all(|entry| !lane.table().entry(entry).valid), "a flush leaves the table empty");
}

#[test]
fn records_made_after_the_write_wait_for_the_walk_whatever_summarize_is() {
    let mut lane = Lane::cleared(16, 1, 40, false);
    let p = record(Some(4), 0, 0x10, &[1]);
    let q = record(None, 0, 0x20, &[2]);
    assert_eq!(lane.step(Some(p.clone()), Some(ProfileWrite::Control(FLUSH))), quiet(false), "cycle w");
    let shown = |data, last| Seen { trace: Some((data, last)), ready: true };
    assert_eq!(lane.make(q.clone()), shown(p[0], false), "w+1: P (pending) passes");
    // w+2: FLUSH written again while one is under way: ignored (pending stays P alone).
    assert_eq!(lane.write(ProfileWrite::Control(FLUSH)), shown(4, false));
    assert_eq!(lane.tick(), shown(1, true));
    let walk = lane.idle(16);
    assert_eq!(walk, vec![quiet(false); 16], "w+4 the walk starts, w+5..w+19 walking 0..14; Q waits");
    // w+20, walking 15: FLUSH still reads 1, so a FLUSH written at the edge the flush
    // ends is ignored too.
    assert!(lane.flushing());
    assert_eq!(lane.write(ProfileWrite::Control(FLUSH)), quiet(false));
    assert!(!lane.flushing());
    assert_eq!(lane.idle(3), vec![shown(q[0], false), shown(2, true), quiet(false)]);
    assert_eq!(lane.sent_records(), vec![p, q], "the walk of an empty table sends nothing");
}

#[test]
fn a_flush_ends_at_the_edge_the_last_word_of_entry_e_minus_1_moves() {
    let mut lane = Lane::cleared(16, 1, 40, true);
    lane.make(record(Some(1), 0, 0x1E, &[5])); // index 15: a[4:1] = 0xF
    lane.idle(5);
    lane.write(ProfileWrite::Control(SUMMARIZE | FLUSH)); // cycle w: nothing pending
    assert_eq!(lane.idle(16), vec![quiet(false); 16], "w+1 the walk starts, w+2..w+16 walking 0..14");
    assert_eq!(lane.tick(), quiet(false), "w+17: walking 15");
    let sent = summary(0, 1, 0x1E, 1, &[5]);
    let shown = |word: usize| Seen { trace: Some((sent[word], word == 2)), ready: false };
    assert_eq!(lane.idle(2), vec![shown(0), shown(1)], "w+18, w+19");
    lane.trace_ready = false;
    assert_eq!(lane.tick(), shown(2), "w+20: the last word, held");
    assert!(lane.flushing());
    lane.trace_ready = true;
    assert_eq!(lane.tick(), shown(2), "w+21: the last word moves");
    assert!(!lane.flushing(), "FLUSH reads 0 from w+22");
    assert_eq!(lane.sent_records(), vec![sent]);
}
