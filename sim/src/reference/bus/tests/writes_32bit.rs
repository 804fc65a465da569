//! Split writes on the 32-bit PMU slaves (docs/bus.md, 32-bit PMU slaves): SHADOW[0]
//! (CW = 40 bits, still when nothing saves or restores it) shows the one register-port
//! write each +0 write performs; the TSC shows a full 64-bit one.
use super::*;
use crate::reference::pmu::addr::{PERF_EVTSEL, PMU_ID, SHADOW, TSC};

const SHADOW_0: RegisterId = RegisterId { thread: 0, register: SHADOW };

fn low_alone_writes_zero_high<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, true));
    assert!(!bus.write(at(0, SHADOW), 1, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0xAB_0000_0001);
    assert!(!bus.write(at(0, SHADOW), 0xFFFF_FFFF_0000_0009, true), "data bits above 32 do not exist");
    assert_eq!(bus.pmu().shadow(0, 0), 9, "{{0, data}}");
    assert!(!bus.write(at(0, PERF_EVTSEL), 0x40_002A, true));
    assert_eq!(bus.pmu().evtsel(0, 0), 0x40_002A, "a 32-bit register in one write");
}

#[test]
fn a_low_write_alone_writes_zero_into_the_high_word() {
    low_alone_writes_zero_high::<AxiMaster>();
    low_alone_writes_zero_high::<WbMaster>();
}

fn high_then_low_is_one_write<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0, "a +4 write changes nothing");
    assert_eq!(bus.holding().held_write(), Some(HeldWord { register: SHADOW_0, word: 0xAB }));
    assert!(!bus.write(at(0, SHADOW), 0x1234_5678, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0xAB_1234_5678);
    assert_eq!(bus.holding().held_write(), None);

    assert!(!bus.write(at(1, TSC) + HIGH, 0xDEAD_BEEF, true));
    assert!(!bus.write(at(1, TSC), 0, true));
    assert_eq!(bus.pmu().tsc() >> 32, 0xDEAD_BEEF, "64 bits written (and counting on)");
}

#[test]
fn a_high_then_low_write_is_one_64_bit_register_write() {
    high_then_low_is_one_write::<AxiMaster>();
    high_then_low_is_one_write::<WbMaster>();
}

fn low_then_high_waits<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW), 0x11, true));
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0x22, true));
    bus.wait(5);
    bus.read(at(0, SHADOW), true);
    assert_eq!(bus.pmu().shadow(0, 0), 0x11, "the +4 is held and does nothing, reads between or not");
    assert!(!bus.write(at(0, SHADOW), 0x33, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0x22_0000_0033, "until a later +0 write");
}

#[test]
fn a_low_then_high_write_holds_the_high_word_until_a_later_low_write() {
    low_then_high_waits::<AxiMaster>();
    low_then_high_waits::<WbMaster>();
}

fn refused_between_keep_the_held_word<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, true));
    assert!(bus.write(at(0, SHADOW) + HIGH + 2, 0xCD, true), "misaligned");
    assert!(bus.write(at(0, SHADOW) + 1, 0xCD, true), "misaligned");
    assert!(bus.write_with_strobes(at(0, SHADOW) + HIGH, 0xCD, 0x7, true), "partial strobes");
    assert!(bus.write_with_strobes(at(0, SHADOW), 0xCD, 0xE, true), "partial strobes");
    assert_eq!(bus.read(at(0, SHADOW) + 3, true), (true, 0), "misaligned read");
    assert_eq!(bus.pmu().shadow(0, 0), 0, "nothing written");
    assert!(!bus.write(at(0, SHADOW), 1, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0xAB_0000_0001, "the held word survived them");

    // A +4 write of another register, or of the same address in another thread, is
    // the previous write.
    for other in [at(0, SHADOW + 1), at(1, SHADOW)] {
        assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, true));
        assert!(!bus.write(other + HIGH, 0xCD, true));
        assert!(!bus.write(at(0, SHADOW), 2, true));
        assert_eq!(bus.pmu().shadow(0, 0), 2, "after a +4 write to {other:#x}");
    }
}

#[test]
fn misaligned_and_partial_strobe_accesses_between_the_halves_keep_the_held_word() {
    refused_between_keep_the_held_word::<AxiMaster>();
    refused_between_keep_the_held_word::<WbMaster>();
}

fn privilege_at_the_low_write<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, false), "ring 3's +4 write is acknowledged");
    assert!(bus.write(at(0, SHADOW), 1, false), "ring 3 may not write SHADOW: checked at +0");
    assert_eq!(bus.pmu().shadow(0, 0), 0);
    assert_eq!(bus.holding().held_write(), None, "the denied +0 write used the held word up");
    assert!(!bus.write(at(0, SHADOW), 2, true));
    assert_eq!(bus.pmu().shadow(0, 0), 2);

    // The one register-port write has the +0 write's privilege.
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, false));
    assert!(!bus.write(at(0, SHADOW), 3, true));
    assert_eq!(bus.pmu().shadow(0, 0), 0xAB_0000_0003);
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xCD, true));
    assert!(bus.write(at(0, SHADOW), 4, false));
    assert_eq!(bus.pmu().shadow(0, 0), 0xAB_0000_0003);

    // Whatever a +4 write reaches, it is acknowledged; the +0 write is checked.
    for denied in [at(0, PMU_ID), at(3, SHADOW)] {
        assert!(!bus.write(denied + HIGH, 1, true), "+4 of {denied:#x}");
        assert!(bus.write(denied, 1, true), "+0 of {denied:#x}");
    }
}

#[test]
fn ring_3_high_writes_are_acknowledged_and_the_privilege_is_checked_at_the_low_write() {
    privilege_at_the_low_write::<AxiMaster>();
    privilege_at_the_low_write::<WbMaster>();
}

fn reset_forgets<M: Master>() {
    let mut bus = M::new();
    assert!(!bus.write(at(0, SHADOW) + HIGH, 0xAB, true));
    bus.idle(true);
    assert!(!bus.write(at(0, SHADOW), 1, true));
    assert_eq!(bus.pmu().shadow(0, 0), 1, "no write before the reset");
}

#[test]
fn reset_forgets_the_previous_write() {
    reset_forgets::<AxiMaster>();
    reset_forgets::<WbMaster>();
}
