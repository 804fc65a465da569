//! Same-edge corners of §7, cycle by cycle with exact values: a counter write at an
//! overflow (the write wins, no status bit), a PERF_GLOBAL_OVF_CTRL clear at an overflow
//! (the set wins), a SHADOW write at a save (the write wins, §10) and a restore at a
//! SHADOW write (it uses the old SHADOW), a PERF_EVTSEL write at an edge-detected (E = 1)
//! condition (the write's edge uses the old select, §4.5); FREEZE_UNMARKED with pm_mark
//! (§11), USER_PREF and SPFLT_CTRL through a ring-3 SPFLT write (§4.3, §5), and the
//! TSC (§4, §7: +1 every cycle, a write wins, one register for all banks). Events,
//! kernel and pm_mark act one cycle late (§4). Three engines in lockstep.

use crate::common::pmu::addr::{
    FREEZE_CTRL, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL as GLOBAL_CTRL, PERF_GLOBAL_OVF_CTRL as OVF_CTRL,
    PERF_GLOBAL_STATUS as STATUS, PERF_SPFLT_CONTROL as SPFLT_CONTROL, SHADOW, SHADOW_CTRL, SPFLT, TSC, USER_ACCESS,
};
use crate::common::pmu::evtsel::{E, EN, INT, OS, USR};
use crate::common::pmu::PmuBench;

/// A bench at T = 4, K = 2, CW = 40.
fn new_bench() -> PmuBench {
    PmuBench::default_table(4, 2, 40)
}

const ALL: u64 = USR | OS | EN;
const CLK: u64 = 0x2A; // CPU_CLK_UNHALTED, driven 1 every cycle
const TOP: u64 = 1 << 40;

/// Counters 0 and 1 of thread 0 count CPU_CLK_UNHALTED with INT, written to c0 and c1
/// (edges a, a+1) and then enabled (edge g = a+2): they count from edge g+1.
fn overflow_setup(b: &mut PmuBench, c0: u64, c1: u64) {
    b.write(0, PERF_EVTSEL, CLK | ALL | INT);
    b.write(0, PERF_EVTSEL + 1, CLK | ALL | INT);
    b.set_event("CPU_CLK_UNHALTED", 0, 1);
    b.write(0, PERF_CNTR, c0);
    b.write(0, PERF_CNTR + 1, c1);
    b.write(0, GLOBAL_CTRL, 0b11);
}

#[test]
fn a_counter_write_at_its_overflow_wins_and_sets_no_status() {
    let mut b = new_bench();
    overflow_setup(&mut b, TOP - 3, TOP - 3); // both would reach 2^40 at edge g+3
    b.steps(2);
    b.write(0, PERF_CNTR, 5); // edge g+3
    assert_eq!(b.out.pmi, 1, "counter 1 overflowed (INT)");
    assert_eq!(b.counter(0, 0), 5, "the written value; the increment of edge g+3 is dropped");
    assert_eq!(b.read(0, STATUS), 0b10, "no status bit for the written counter");
    assert_eq!(b.counter(0, 1), 2, "counter 1: 0 at g+3, +1 at g+4 and g+5");
}

#[test]
fn an_ovf_ctrl_clear_at_an_overflow_keeps_that_bit() {
    let mut b = new_bench();
    overflow_setup(&mut b, TOP - 4, TOP - 1); // counter 1 overflows at g+1, counter 0 at g+4
    assert_eq!(b.read(0, STATUS), 0, "edge g+1");
    assert_eq!(b.read(0, STATUS), 0b10);
    assert_eq!(b.read(0, STATUS), 0b10);
    b.write(0, OVF_CTRL, 0b11); // edge g+4
    assert_eq!(b.read(0, STATUS), 0b01, "bit 1 cleared; bit 0 set at the clearing edge stays");
    assert_eq!(b.out.pmi, 1);
    b.write(0, OVF_CTRL, 0b01);
    assert_eq!(b.out.pmi, 0);
    assert_eq!(b.read(0, STATUS), 0);
}

#[test]
fn a_shadow_write_wins_over_a_save_and_a_restore_uses_the_old_shadow() {
    let mut b = new_bench();
    let select = 0x16 | ALL; // INSTRUCTIONS_EXECUTED on thread 1, one per cycle
    b.program(1, 0, select);
    b.program(1, 1, select);
    b.write(1, SHADOW_CTRL, 0b11 << 8 | 0b11); // save and restore, both counters
    b.write(1, SHADOW, 100);
    b.write(1, SHADOW + 1, 200);
    b.set_event("INSTRUCTIONS_EXECUTED", 1, 1);
    b.write(1, PERF_CNTR, 10); // edge w
    b.write(1, PERF_CNTR + 1, 20); // edge w+1 (counter 0: 11)
    b.set_kernel(1, true);
    b.step(); // edge w+2: counters 12 and 21; the entry is presented at edge w+3
    b.write(1, SHADOW, 555); // edge w+3: entry; SHADOW[1] saves 21, SHADOW[0] takes the write
    assert_eq!(b.read(1, SHADOW), 555, "§10: the write at the save's edge wins");
    assert_eq!(b.read(1, SHADOW + 1), 21, "the counter's value during the entry cycle");
    assert_eq!(b.counter(1, 0), 15, "13 after the entry edge, +1 at w+4 and w+5 (read in cycle w+6)");
    b.set_kernel(1, false);
    b.step(); // edge x; the exit is presented at edge x+1
    b.write(1, SHADOW, 777); // edge x+1: exit
    assert_eq!(b.counter(1, 0), 556, "restore: old SHADOW 555 + this cycle's event");
    assert_eq!(b.read(1, SHADOW), 777, "the write itself still lands");
    assert_eq!(b.counter(1, 1), 24, "restore: 21 + 1 at x+1, +1 at x+2 and x+3");
}

#[test]
fn an_evtsel_write_at_an_edge_detected_condition_steps_with_the_old_select() {
    let mut b = new_bench();
    let (a, bb) = ("BRANCHES", "PIPELINE_FLUSHES"); // codes 0x12 and 0x15
    b.program(0, 0, 0x12 | ALL | E);
    let drive = |b: &mut PmuBench, va: u64, vb: u64| {
        b.set_event(a, 0, va);
        b.set_event(bb, 0, vb);
    };
    // (BRANCHES, FLUSHES) = (0, 1), (1, 0), (1, 1) in the cycles that end at edges w-2, w-1
    // and w, each presented one edge later: edge w-1 sees BRANCHES 0 (cond 0, so prev = 0 at
    // edge w) and edge w sees (1, 0).
    drive(&mut b, 0, 1);
    b.step();
    drive(&mut b, 1, 0);
    b.step();
    drive(&mut b, 1, 1);
    b.write(0, PERF_EVTSEL, 0x15 | ALL | E); // edge w: old select, BRANCHES rises: +1
    let mut seen = vec![];
    for (va, vb) in [(0, 1), (0, 0), (0, 1), (0, 0), (0, 0), (0, 0)] {
        drive(&mut b, va, vb);
        seen.push(b.counter(0, 0));
    }
    // w+1: FLUSHES 1 but prev = cond of edge w (old select) = 1: +0; w+2: still 1: +0;
    // w+3: 0; w+4: FLUSHES rises: +1; w+5: 0.
    assert_eq!(seen, [1, 1, 1, 1, 2, 2], "counter after edges w..w+5");
}

#[test]
fn freeze_unmarked_counts_only_marked_cycles_of_its_own_thread() {
    let mut b = new_bench();
    for t in [2, 3] {
        b.program(t, 0, CLK | ALL);
        b.set_event("CPU_CLK_UNHALTED", t as usize, 1);
    }
    b.write(3, PERF_CNTR, 0); // edge a-1
    b.write(2, PERF_CNTR, 0); // edge a; pm_mark = 0 on every thread
    b.write(2, FREEZE_CTRL, 1); // edge a+1 still counts (§7: from the next cycle)
    let mut seen = vec![b.counter(2, 0), b.counter(2, 0)];
    for mark in [1, 1, 0, 1, 0, 0, 1, 1, 0, 0] {
        b.set_mark(2, mark == 1);
        b.set_mark(3, mark == 1);
        seen.push(b.counter(2, 0));
    }
    assert_eq!(seen, [1, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6], "thread 2 after edges a+1..a+12: +mark from a+5 on");
    assert_eq!(b.read(2, FREEZE_CTRL), 1);
    assert_eq!(b.counter(3, 0), 15, "thread 3 (FREEZE_CTRL 0 in its bank) counts every edge a..a+14");
}

#[test]
fn a_ring_3_spflt_write_sets_user_pref_for_the_counters_that_obey_it() {
    let mut b = new_bench();
    b.program(1, 0, CLK | ALL);
    b.program(1, 1, CLK | ALL);
    b.set_event("CPU_CLK_UNHALTED", 1, 1);
    b.write(1, SPFLT_CONTROL, 0b01); // counter 0 obeys USER_PREF (0)
    b.write(1, PERF_CNTR, 0); // edge a-1
    assert_eq!(b.counter(1, 0), 0, "edge a: USER_PREF 0 stops counter 0");
    assert!(!b.write_as(1, false, SPFLT, 1), "SPFLT in ring 3 with USER_ACCESS 0x7"); // edge a+1
    let seen: Vec<u64> = (0..3).map(|_| b.counter(1, 0)).collect();
    assert_eq!(seen, [0, 1, 2], "USER_PREF counts from the edge after the write");
    assert_eq!(b.read(1, SPFLT_CONTROL), 1 << 63 | 0b01);
    assert!(!b.write_as(1, false, SPFLT, 0)); // edge a+6 still counts
    assert_eq!([b.counter(1, 0), b.counter(1, 0)], [5, 5]);
    b.write(1, USER_ACCESS, 0b011);
    assert!(b.write_as(1, false, SPFLT, 1), "USER_ACCESS[2] = 0: SPFLT denied in ring 3");
    assert_eq!(b.read(1, SPFLT_CONTROL), 0b01, "the denied SPFLT changed nothing");
    assert_eq!(b.counter(1, 0), 5);
    let ignored = b.counter(1, 1);
    assert_eq!(b.counter(1, 1), ignored + 1, "counter 1 (SPFLT_CTRL[1] = 0) counts every cycle");
}

#[test]
fn the_tsc_counts_every_cycle_a_write_wins_and_all_banks_share_it() {
    let mut b = new_bench();
    b.reset();
    let seen: Vec<u64> = (0..4u8).map(|t| b.read(t, TSC)).collect();
    assert_eq!(seen, [0, 1, 2, 3], "one TSC, read from banks 0..3, +1 per cycle with GLOBAL_CTRL 0");
    b.write(2, TSC, 1000);
    assert_eq!([b.read(0, TSC), b.read(3, TSC)], [1000, 1001], "the write, not 1000 + 1");
    b.write(1, TSC, u64::MAX);
    assert_eq!([b.read(0, TSC), b.read(0, TSC)], [u64::MAX, 0], "all 64 bits, mod 2^64");
    assert_eq!(b.read_as(3, false, TSC), (1, false), "RDTSC in ring 3");
    b.reset();
    assert_eq!(b.read(1, TSC), 0);
}
