//! Torn reads on the 32-bit PMU slaves (docs/bus.md, 32-bit PMU slaves): the TSC, set
//! just below a carry into bit 32, runs on between the +0 and the +4 read.
use super::*;
use crate::reference::pmu::addr::{PERF_EVTSEL, PMU_ID, SHADOW, TSC};

/// TSC's value when set: the carry into bit 32 comes 16 cycles later.
const BELOW_CARRY: u64 = 0x1_FFFF_FFF0;
/// Cycles after which a TSC set to [`BELOW_CARRY`] has carried into bit 32.
const PAST_CARRY: usize = 32;

/// Set the TSC to [`BELOW_CARRY`] (high word first).
fn set_tsc<M: Master>(bus: &mut M) {
    assert!(!bus.write(at(0, TSC) + HIGH, BELOW_CARRY >> 32, true));
    assert!(!bus.write(at(0, TSC), BELOW_CARRY & 0xFFFF_FFFF, true));
}

fn high_read_alone_is_live<M: Master>() {
    let mut bus = M::new();
    let (error, high) = bus.read(at(1, PMU_ID) + HIGH, true);
    assert!(!error);
    assert_eq!((high >> 16, high >> 8 & 3, high & 0xFF), (0x504D, 1, 2), "MAGIC, thread 1, log2 D");
    assert_eq!(bus.read(at(1, PMU_ID), true), (false, 0x10_28_02_02), "AW, CW, K, T");
    assert_eq!(
        bus.holding().latched_read(),
        Some(HeldWord { register: RegisterId { thread: 1, register: PMU_ID }, word: high as u32 })
    );
}

#[test]
fn a_high_read_without_a_low_read_before_returns_the_live_high_word() {
    high_read_alone_is_live::<AxiMaster>();
    high_read_alone_is_live::<WbMaster>();
}

fn low_then_high_is_consistent<M: Master>() {
    let mut bus = M::new();
    set_tsc(&mut bus);
    let during_read = bus.pmu().tsc();
    let (_, low) = bus.read(at(0, TSC), true);
    assert_eq!(low, during_read & 0xFFFF_FFFF, "the TSC during the +0 read's cycle");
    bus.wait(PAST_CARRY);
    assert_eq!(bus.pmu().tsc() >> 32, 2, "the TSC has carried into its high word");
    let (error, high) = bus.read(at(0, TSC) + HIGH, true);
    assert_eq!((error, high << 32 | low), (false, during_read), "one 64-bit value, not a torn one");
    assert_eq!(bus.read(at(0, TSC) + HIGH, true), (false, 2), "the previous read was +4: live");
}

#[test]
fn a_running_counter_read_low_then_high_is_one_consistent_value() {
    low_then_high_is_consistent::<AxiMaster>();
    low_then_high_is_consistent::<WbMaster>();
}

fn other_reads_between_end_the_latch<M: Master>() {
    let mut bus = M::new();
    set_tsc(&mut bus);
    bus.read(at(0, TSC), true);
    bus.wait(PAST_CARRY);
    bus.read(at(0, PMU_ID), true);
    assert_eq!(bus.read(at(0, TSC) + HIGH, true), (false, 2), "+0 of another register between");

    // The TSC is one register shared by all banks, yet thread 1's is another register.
    set_tsc(&mut bus);
    bus.read(at(1, TSC), true);
    bus.wait(PAST_CARRY);
    assert_eq!(bus.read(at(0, TSC) + HIGH, true), (false, 2), "+0 of the same address in thread 1");
    set_tsc(&mut bus);
    bus.read(at(1, TSC), true);
    bus.wait(PAST_CARRY);
    assert_eq!(bus.read(at(1, TSC) + HIGH, true), (false, 1), "thread 1's own pair");
}

#[test]
fn a_low_read_of_another_register_or_thread_between_reads_the_high_word_live() {
    other_reads_between_end_the_latch::<AxiMaster>();
    other_reads_between_end_the_latch::<WbMaster>();
}

fn refused_accesses_and_writes_keep_the_latch<M: Master>() {
    let mut bus = M::new();
    set_tsc(&mut bus);
    bus.read(at(0, TSC), true);
    bus.wait(PAST_CARRY);
    for misaligned in [1, 2, 3, HIGH + 1, HIGH + 2] {
        assert_eq!(bus.read(at(0, TSC) + misaligned, true), (true, 0), "misaligned by {misaligned}");
    }
    assert!(bus.write_with_strobes(at(0, TSC) + HIGH, 7, 0x7, true), "partial strobes");
    assert!(!bus.write(at(0, SHADOW), 5, true), "writes have their own history");
    assert_eq!(bus.read(at(0, TSC) + HIGH, true), (false, 1), "still the word latched by the +0 read");
}

#[test]
fn misaligned_accesses_and_writes_between_the_halves_keep_the_latched_word() {
    refused_accesses_and_writes_keep_the_latch::<AxiMaster>();
    refused_accesses_and_writes_keep_the_latch::<WbMaster>();
}

fn denied_reads_count<M: Master>() {
    let mut bus = M::new();
    let pmu_id_high = bus.read(at(0, PMU_ID) + HIGH, true).1;
    assert_eq!(bus.read(at(0, PMU_ID) + HIGH, false), (true, 0), "ring 3 may not read PMU_ID");

    // A denied +0 read made its register-port read, which returned 0: it latches 0.
    assert_eq!(bus.read(at(0, PMU_ID), false), (true, 0));
    let pmu_id = RegisterId { thread: 0, register: PMU_ID };
    assert_eq!(bus.holding().latched_read(), Some(HeldWord { register: pmu_id, word: 0 }));
    assert_eq!(bus.read(at(0, PMU_ID) + HIGH, true), (false, 0), "the word the denied +0 read latched");
    assert_eq!(bus.read(at(0, PMU_ID) + HIGH, true), (false, pmu_id_high), "then live");

    // Each half is one register-port read with its own privilege check.
    assert!(!bus.read(at(0, PMU_ID), true).0);
    assert_eq!(bus.read(at(0, PMU_ID) + HIGH, false), (true, 0), "a denied +4 reads 0 whatever is latched");
    assert_eq!(bus.holding().latched_read(), None, "and it was the previous read");

    // Ring 3 may read the TSC (USER_ACCESS resets to 0x7), in two consistent halves.
    set_tsc(&mut bus);
    let during_read = bus.pmu().tsc();
    let (_, low) = bus.read(at(0, TSC), false);
    bus.wait(PAST_CARRY);
    assert_eq!(bus.read(at(0, TSC) + HIGH, false), (false, during_read >> 32));
    assert_eq!(low, during_read & 0xFFFF_FFFF);

    // A denied +0 read of another register between is the previous read.
    set_tsc(&mut bus);
    bus.read(at(0, TSC), true);
    bus.wait(PAST_CARRY);
    assert_eq!(bus.read(at(0, PERF_EVTSEL), false), (true, 0), "ring 3 may not read EVTSEL");
    assert_eq!(bus.read(at(0, TSC) + HIGH, true), (false, 2), "live");
    assert_eq!(bus.read(at(2, TSC), true), (true, 0), "thread 2 of T = 2 is denied, and latches 0");
    assert_eq!(bus.read(at(2, TSC) + HIGH, true), (true, 0));
}

#[test]
fn denied_reads_in_ring_3_are_reads_on_the_bus_and_a_denied_low_read_latches_0() {
    denied_reads_count::<AxiMaster>();
    denied_reads_count::<WbMaster>();
}

fn reset_forgets<M: Master>() {
    let mut bus = M::new();
    bus.read(at(0, PMU_ID), false);
    bus.idle(true);
    assert_eq!(bus.holding(), HoldingWords::default());
    let (error, high) = bus.read(at(0, PMU_ID) + HIGH, true);
    assert_eq!((error, high >> 16), (false, 0x504D), "no read before: live");
}

#[test]
fn reset_forgets_the_previous_read() {
    reset_forgets::<AxiMaster>();
    reset_forgets::<WbMaster>();
}
