//! docs/pmu.md §15.4 updating and sending: a record whose entry holds another key, or
//! whose addition would wrap (§15.2: executions reaching 2^32, S_i + V_i reaching
//! 2^CW), sends the entry as a summary record (K + 2 words, from the cycle after
//! updating, held while trace_ready is 0), then restarts the entry from the record;
//! PROFILE_EVICTED counts 1 at the edge the last word moves (a write at that edge then
//! leaves 1). Indexes (§15.2, E = 16): 0x100 and 0x010 -> 8, 0x300 -> 9, 0x20 -> 1.
use super::super::super::profile::{Entry, Key, ProfileRegister, ProfileWrite, State};
use super::{quiet, record, summary, Lane, Seen};

/// Idle cycles until the table is idle with an empty queue.
fn settle(lane: &mut Lane) {
    for _ in 0..100 {
        lane.tick();
        if lane.table().state() == State::Idle && lane.output.occupancy() == 0 {
            return;
        }
    }
    panic!("the table did not settle");
}

fn evicted(lane: &Lane) -> u64 {
    lane.table().read(ProfileRegister::Evicted)
}

#[test]
fn a_miss_on_a_valid_entry_sends_it_then_restarts_it_and_counts_at_its_last_word() {
    let mut lane = Lane::cleared(16, 2, 40, true);
    lane.make(record(Some(7), 1, 0x100, &[5, 9]));
    settle(&mut lane);
    lane.make(record(None, 1, 0x010, &[3, 4])); // cycle c: C made (index 8, another key)
    assert_eq!(lane.make(record(None, 1, 0x300, &[6, 6])), quiet(true), "c+1: C's word 0 moves in; D made");
    assert_eq!(lane.idle(3), vec![quiet(true), quiet(true), quiet(false)], "c+2, c+3 taking; c+4 updating");
    let sent = summary(1, 7, 0x100, 1, &[5, 9]);
    let shown = |word: usize| Seen { trace: Some((sent[word], word == 3)), ready: false };
    assert_eq!(lane.tick(), shown(0), "c+5: word 0, the cycle after updating");
    lane.trace_ready = false;
    assert_eq!(lane.tick(), shown(1), "c+6: word 1, held");
    lane.trace_ready = true;
    assert_eq!(lane.idle(2), vec![shown(1), shown(2)], "c+7, c+8");
    assert_eq!((evicted(&lane), lane.table().entry(8).key.address), (0, 0x100), "before the last word moves");
    assert_eq!(lane.tick(), shown(3), "c+9: the last word moves");
    assert_eq!(evicted(&lane), 1);
    let restarted =
        Entry { valid: true, key: Key { thread: 1, pid: 7, address: 0x010 }, executions: 1, sums: vec![3, 4] };
    assert_eq!(*lane.table().entry(8), restarted);
    assert_eq!(lane.tick(), quiet(true), "c+10: D's word 0 moves in");
    settle(&mut lane);

    // Another eviction of entry 8, with a PROFILE_EVICTED write at its last word's edge.
    lane.make(record(None, 1, 0x100, &[1, 1])); // e
    lane.idle(7); // e+1 idle, e+2, e+3 taking, e+4 updating, e+5..e+7 words 0..2
    assert_eq!(lane.write(ProfileWrite::Evicted).trace, Some((4, true)), "e+8: the last word and the write");
    assert_eq!(evicted(&lane), 1, "cleared, then this eviction counts 1");
    lane.write(ProfileWrite::Evicted);
    assert_eq!(evicted(&lane), 0, "a write clears it");
    assert_eq!(lane.sent_records(), vec![sent, summary(1, 7, 0x010, 1, &[3, 4])]);
}

#[test]
fn no_addition_wraps_executions_or_sums() {
    let mut lane = Lane::cleared(16, 1, 16, true);
    let sum = |lane: &mut Lane, pid: Option<u32>, value: u64| {
        lane.make(record(pid, 0, 0x20, &[value]));
        settle(lane);
        let entry = lane.table().entry(1);
        (entry.executions, entry.sums[0])
    };
    assert_eq!(sum(&mut lane, Some(3), 0xFFF0), (1, 0xFFF0));
    assert_eq!(sum(&mut lane, None, 0x000F), (2, 0xFFFF), "S + V = 2^16 - 1 fits");
    assert_eq!(sum(&mut lane, None, 0x0001), (1, 1), "S + V would reach 2^16: sent, restarted");
    assert_eq!(sum(&mut lane, None, 0), (2, 1));
    // Test-only preset: an entry that has counted 2^32 - 2 executions.
    let key = Key { thread: 0, pid: 3, address: 0x20 };
    let nearly_full = Entry { valid: true, key, executions: (1 << 32) - 2, sums: vec![5] };
    lane.output.table_mut().expect("a table").preset_entry(1, nearly_full);
    assert_eq!(sum(&mut lane, None, 1), ((1 << 32) - 1, 6), "executions 2^32 - 1 fits");
    assert_eq!(sum(&mut lane, None, 1), (1, 1), "executions would reach 2^32: sent, restarted");
    assert_eq!(evicted(&lane), 2, "both sends count as evictions");
    let expected = vec![summary(0, 3, 0x20, 2, &[0xFFFF]), summary(0, 3, 0x20, (1 << 32) - 1, &[6])];
    assert_eq!(lane.sent_records(), expected);

    // CW = 64: S_i + V_i is checked against 2^64.
    let mut lane = Lane::cleared(16, 1, 64, true);
    assert_eq!(sum(&mut lane, Some(1), u64::MAX - 1), (1, u64::MAX - 1));
    assert_eq!(sum(&mut lane, None, 1), (2, u64::MAX));
    assert_eq!(sum(&mut lane, None, 1), (1, 1));
    assert_eq!(lane.sent_records(), vec![summary(0, 1, 0x20, 2, &[u64::MAX])]);
}
