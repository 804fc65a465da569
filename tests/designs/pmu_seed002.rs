//! Seed 002's worked examples (Fig. 6 and Fig. 7) with the numbers of §10: a counter with
//! SAVE_ON_ENTRY and RESTORE_ON_EXIT keeps one process's count across kernel entries and
//! exits (shadow save on kernel entry, restore on exit, ring-0 reads and writes of
//! SHADOW). Counter 0 and SHADOW[0] are read through the register port at every named
//! point; counter 1 counts the same events without shadows, for comparison. Kernel and
//! events act one cycle late (§4); the mode-change cycles have no events. Three engines.

use crate::common::pmu::addr::{SHADOW, SHADOW_CTRL};
use crate::common::pmu::evtsel::{EN, OS, USR};
use crate::common::pmu::PmuBench;

/// A bench at (T = 4, K = 2, CW = 40).
fn new_bench() -> PmuBench {
    PmuBench::default_table(4, 2, 40)
}

/// INSTRUCTIONS_EXECUTED (0x16, UMask 0x00), counted in every mode.
const SELECT: u64 = 0x16 | USR | OS | EN;

/// Thread 0: counter 0 with both SHADOW_CTRL bits, counter 1 without; ring 3; SHADOW written 0.
fn setup() -> PmuBench {
    let mut b = new_bench();
    b.write(0, SHADOW_CTRL, 1 << 8 | 1); // RESTORE_ON_EXIT[0], SAVE_ON_ENTRY[0]
    b.program(0, 0, SELECT);
    b.program(0, 1, SELECT);
    b.write(0, SHADOW + 1, 77); // counter 1 has no shadow bits: its SHADOW is never used
    b.write(0, SHADOW, 0);
    b
}

/// `n` cycles with one event each in the current mode, then a quiet cycle whose edge counts
/// the last one.
fn events(b: &mut PmuBench, n: usize) {
    b.set_event("INSTRUCTIONS_EXECUTED", 0, 1);
    b.steps(n);
    b.set_event("INSTRUCTIONS_EXECUTED", 0, 0);
    b.step();
}

/// A kernel entry (`true`) or exit, in a cycle without events: kernel[0] changes, and the
/// next edge (where the input stage presents it) saves or restores.
fn mode(b: &mut PmuBench, kernel: bool) {
    b.set_kernel(0, kernel);
    b.steps(2);
}

/// (counter 0, SHADOW[0], counter 1) through ring-0 reads.
fn look(b: &mut PmuBench) -> (u64, u64, u64) {
    (b.counter(0, 0), b.read(0, SHADOW), b.counter(0, 1))
}

/// Fig. 6 up to the 2 kernel events after t3 (shared by Fig. 7).
fn up_to_t3(b: &mut PmuBench) {
    assert_eq!(look(b), (0, 0, 0), "start: SHADOW written 0");
    mode(b, true);
    assert_eq!(look(b), (0, 0, 0), "t1: kernel entry saves counter 0");
    events(b, 2);
    assert_eq!(look(b), (2, 0, 2), "2 kernel events");
    mode(b, false);
    assert_eq!(look(b), (0, 0, 2), "t2: exit restores SHADOW 0");
    events(b, 3);
    assert_eq!(look(b), (3, 0, 5), "3 user events");
    mode(b, true);
    assert_eq!(look(b), (3, 3, 5), "t3: entry saves 3");
    events(b, 2);
    assert_eq!(look(b), (5, 3, 7), "2 kernel events");
}

#[test]
fn fig_6_counts_6_rather_than_12() {
    let mut b = setup();
    up_to_t3(&mut b);
    mode(&mut b, false);
    assert_eq!(look(&mut b), (3, 3, 7), "t4: exit restores 3");
    events(&mut b, 3);
    assert_eq!(look(&mut b), (6, 3, 10), "3 user events");
    mode(&mut b, true);
    assert_eq!(look(&mut b), (6, 6, 10), "t5: entry saves 6, the process's count");
    events(&mut b, 2);
    assert_eq!(look(&mut b), (8, 6, 12), "the process's count stays 6 in SHADOW; without shadows, 12");
    assert_eq!(b.read(0, SHADOW + 1), 77, "SHADOW[1] untouched (its SHADOW_CTRL bits are 0)");
}

#[test]
fn fig_7_an_interrupt_routine_in_user_mode_is_left_out() {
    let mut b = setup();
    up_to_t3(&mut b);
    let kept = b.read(0, SHADOW);
    assert_eq!(kept, 3, "the OS reads SHADOW = 3 and keeps it");
    mode(&mut b, false);
    assert_eq!(look(&mut b), (3, 3, 7), "t4: exit into the interrupt routine: counter 3");
    events(&mut b, 3);
    assert_eq!(look(&mut b), (6, 3, 10), "the routine's 3 user events");
    mode(&mut b, true);
    assert_eq!(look(&mut b), (6, 6, 10), "t5: entry saves 6");
    events(&mut b, 2);
    assert_eq!(look(&mut b), (8, 6, 12), "2 kernel events: 6 to 8");
    b.write(0, SHADOW, kept);
    assert_eq!(look(&mut b), (8, 3, 12), "the OS put back process I's count");
    mode(&mut b, false);
    assert_eq!(look(&mut b), (3, 3, 12), "t6: counter 3, process I's count without the routine");
    events(&mut b, 1);
    assert_eq!(look(&mut b), (4, 3, 13), "process I counts on from 3");
}
