//! docs/pmu.md §15.4 with SUMMARIZE = 1: a record of n words occupies the table n + 1
//! cycles (its first word's idle cycle, n − 1 taking, 1 updating) and the next record's
//! first word moves in the cycle after updating; a record with an entry of its key adds
//! to it; NEW_PROCESS records set the current pid, records passed through do not; a
//! write of SUMMARIZE acts from the next record. Indexes (§15.2, E = 16, AW = 32):
//! 0x40 -> 2, 0x60 -> 3, 0x80 -> 4, 0x100 -> 8 (a[8:5]).
use super::super::super::profile::{Entry, Key, ProfileWrite};
use super::{quiet, record, Lane, Seen, SUMMARIZE};

fn entry(thread: usize, pid: u32, address: u64, executions: u64, sums: &[u64]) -> Entry {
    Entry { valid: true, key: Key { thread, pid, address }, executions, sums: sums.to_vec() }
}

#[test]
fn a_record_of_n_words_takes_n_plus_1_cycles_and_a_hit_adds() {
    let mut lane = Lane::cleared(16, 2, 40, true);
    assert_eq!(lane.make(record(Some(7), 1, 0x100, &[5, 9])), quiet(false), "cycle m: the queue is empty");
    // Cycle m+1: A's word 0 moves in whatever trace_ready is; B is made at edge m+1.
    lane.trace_ready = false;
    assert_eq!(lane.make(record(None, 1, 0x100, &[1, 2])), quiet(true));
    assert_eq!(lane.tick(), quiet(true), "m+2: A's pid word");
    assert_eq!(lane.table().current_pid(), 7, "the pid word sets the current pid at its edge");
    assert_eq!(lane.idle(2), vec![quiet(true); 2], "m+3, m+4: V_0, V_1");
    assert!(!lane.table().entry(8).valid, "nothing summed before updating");
    assert_eq!(lane.tick(), quiet(false), "m+5: updating; B's word 0 waits");
    assert_eq!(*lane.table().entry(8), entry(1, 7, 0x100, 1, &[5, 9]));
    // B (3 words, no NEW_PROCESS: the current pid 7): its first word moves in the cycle
    // after updating.
    let expected = vec![quiet(true), quiet(true), quiet(true), quiet(false), quiet(false)];
    assert_eq!(lane.idle(5), expected, "m+6 idle, m+7 and m+8 taking, m+9 updating, then idle");
    assert_eq!(*lane.table().entry(8), entry(1, 7, 0x100, 2, &[6, 11]));
    assert!(lane.moved.is_empty(), "nothing reaches the trace ports");
}

#[test]
fn new_process_records_taken_set_the_current_pid_and_passed_ones_do_not() {
    let mut lane = Lane::cleared(16, 1, 40, true);
    lane.make(record(None, 0, 0x40, &[1]));
    lane.idle(4);
    assert_eq!(*lane.table().entry(2), entry(0, 0, 0x40, 1, &[1]), "the current pid is 0 after reset");
    lane.make(record(Some(9), 0, 0x60, &[2]));
    lane.idle(5);
    assert_eq!(*lane.table().entry(3), entry(0, 9, 0x60, 1, &[2]));
    lane.write(ProfileWrite::Control(0));
    let passed = record(Some(11), 0, 0x80, &[3]);
    lane.make(passed.clone());
    lane.idle(4);
    assert_eq!(lane.sent_records(), vec![passed]);
    assert_eq!(lane.table().current_pid(), 9, "a record passed through leaves the current pid");
    lane.write(ProfileWrite::Control(SUMMARIZE));
    lane.make(record(None, 0, 0x80, &[4]));
    lane.idle(4);
    assert_eq!(*lane.table().entry(4), entry(0, 9, 0x80, 1, &[4]));
}

#[test]
fn a_summarize_write_acts_from_the_next_record_never_splitting_one() {
    let a = record(None, 0, 0x100, &[1, 2]);
    let b = record(None, 0, 0x60, &[3, 4]);
    // Summing A, SUMMARIZE cleared at edge m+2 while A is taken: A is summed, B passes.
    let mut lane = Lane::cleared(16, 2, 40, true);
    lane.make(a.clone());
    assert_eq!(lane.make(b.clone()), quiet(true), "m+1: A's word 0 moves in");
    assert_eq!(lane.write(ProfileWrite::Control(0)), quiet(true), "m+2: taking");
    assert_eq!(lane.idle(2), vec![quiet(true), quiet(false)], "m+3 taking, m+4 updating");
    let shown = |data, last| Seen { trace: Some((data, last)), ready: true };
    let expected = vec![shown(b[0], false), shown(3, false), shown(4, true), quiet(false)];
    assert_eq!(lane.idle(4), expected, "m+5..m+7: B passes");
    assert_eq!(lane.table().entry(8).executions, 1);
    // Passing A, SUMMARIZE set while A passes: A passes whole, B is taken.
    let mut lane = Lane::cleared(16, 2, 40, false);
    lane.make(a.clone());
    assert_eq!(lane.make(b), shown(a[0], false));
    assert_eq!(lane.write(ProfileWrite::Control(SUMMARIZE)), shown(1, false));
    assert_eq!(lane.idle(5), vec![shown(2, true), quiet(true), quiet(true), quiet(true), quiet(false)]);
    assert_eq!(lane.sent_records(), vec![a]);
    assert_eq!(*lane.table().entry(3), entry(0, 0, 0x60, 1, &[3, 4]));
}
