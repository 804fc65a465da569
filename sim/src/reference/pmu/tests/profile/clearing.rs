//! docs/pmu.md §15.4 clearing: in the cycles 1..E after a reset edge the table
//! invalidates entries 0..E-1, one per edge; meanwhile a record that reaches idle with
//! SUMMARIZE = 1 waits, a record passing through does not, and a flush's walk starts
//! after it. Indexes (§15.2, E = 16): 0x60 -> 3, 0x100 -> 8.
use super::super::super::profile::{Entry, Key, ProfileRegister, ProfileWrite};
use super::{quiet, record, Lane, Seen, FLUSH, SUMMARIZE};

/// A lane whose entries 3 and 8 are valid, then reset: the next step is cycle 1.
fn reset_with_entries() -> Lane {
    let mut lane = Lane::cleared(16, 1, 40, true);
    lane.make(record(Some(5), 0, 0x60, &[1]));
    lane.make(record(None, 0, 0x100, &[2]));
    lane.idle(8);
    assert!(lane.table().entry(3).valid && lane.table().entry(8).valid);
    lane.output.reset();
    lane
}

#[test]
fn clearing_takes_e_cycles_and_holds_summed_records_only() {
    let mut lane = reset_with_entries();
    assert_eq!(lane.table().read(ProfileRegister::Control), 0, "SUMMARIZE = 0 after reset");
    let r = record(None, 0, 0x60, &[7]);
    assert_eq!(lane.step(Some(r), Some(ProfileWrite::Control(SUMMARIZE))), quiet(false), "cycle 1");
    let mut waited = vec![];
    let mut valid = vec![];
    for _ in 2..=16 {
        waited.push(lane.tick());
        valid.push((lane.table().entry(3).valid, lane.table().entry(8).valid));
    }
    assert_eq!(waited, vec![quiet(false); 15], "cycles 2..16: R waits while clearing");
    let mut expected = vec![(true, true); 2]; // after edges 2, 3
    expected.extend([(false, true); 5]); // entry 3 invalid from edge 4
    expected.extend([(false, false); 8]); // entry 8 invalid from edge 9
    assert_eq!(valid, expected);
    assert_eq!(lane.idle(3), vec![quiet(true), quiet(true), quiet(false)], "cycle 17: taken");
    let fresh = Entry { valid: true, key: Key { thread: 0, pid: 0, address: 0x60 }, executions: 1, sums: vec![7] };
    assert_eq!(*lane.table().entry(3), fresh, "a cleared entry, not the stale one: no eviction");
    assert!(lane.sent_records().is_empty());

    // SUMMARIZE = 0 (reset): a record passes during clearing.
    let mut lane = reset_with_entries();
    let p = record(Some(2), 0, 0x10, &[1]);
    lane.make(p.clone());
    let shown = |data, last| Seen { trace: Some((data, last)), ready: true };
    assert_eq!(lane.idle(3), vec![shown(p[0], false), shown(2, false), shown(1, true)], "cycles 2..4");
    assert!(lane.table().clearing());
}

#[test]
fn a_flush_written_while_clearing_walks_after_it() {
    let mut lane = reset_with_entries();
    lane.write(ProfileWrite::Control(FLUSH)); // cycle 1: the flush starts, nothing pending
    let r = record(None, 0, 0x10, &[3]);
    lane.make(r.clone()); // cycle 2: R, made after the write
    let mut flushing = vec![];
    for _ in 3..=33 {
        flushing.push(lane.flushing());
        assert_eq!(lane.tick(), quiet(false), "R waits");
    }
    assert!(flushing.iter().all(|&flushing| flushing), "cycles 3..33: cycle 17 starts the walk, 18..33 walk");
    assert!(!lane.flushing(), "cycle 34");
    assert_eq!(lane.tick().trace, Some((0x10, false)), "cycle 34: R passes");
    lane.idle(2);
    assert_eq!(lane.sent_records(), vec![r], "the stale entries were cleared, not sent");
}
