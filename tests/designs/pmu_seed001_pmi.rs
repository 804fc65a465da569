//! Seed 001 §1.4.3.8-9 (PMI handling, multiple or consecutive overflows) on the
//! generated PMU: counters set near 2^CW with INT overflow in the same cycle and in
//! consecutive cycles; pmi is a level (§4: STATUS AND INT, per thread) that stays 1
//! until software clears PERF_GLOBAL_STATUS through PERF_GLOBAL_OVF_CTRL; the ISR
//! sequence (stop the counters, read the status, clear it, restart) loses no overflow,
//! also one at the very edge of the OVF_CTRL write (§7: the set wins). §9: setting INT
//! after an overflow raises pmi at once. Exact cycle-by-cycle values, three engines.

use crate::common::pmu::addr::{PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL, PERF_GLOBAL_OVF_CTRL, PERF_GLOBAL_STATUS};
use crate::common::pmu::evtsel::{EN, INT, OS, USR};
use crate::common::pmu::PmuBench;

/// A bench at (T = 4, K = 2, CW = 40).
fn new_bench() -> PmuBench {
    PmuBench::default_table(4, 2, 40)
}

/// CPU_CLK_UNHALTED (0x2A, UMask 0x00), one per cycle in the tests.
const CLK: u64 = 0x2A;
/// 2^CW for CW = 40.
const TOP: u64 = 1 << 40;

/// PERF_GLOBAL_STATUS of `thread` during the next cycle, and `pmi` after that cycle's edge.
fn status(b: &mut PmuBench, thread: u8) -> (u64, u8) {
    let value = b.read(thread, PERF_GLOBAL_STATUS);
    (value, b.out.pmi)
}

fn counters(b: &mut PmuBench, thread: u8) -> [u64; 2] {
    [b.counter(thread, 0), b.counter(thread, 1)]
}

/// Thread 0's two counters count CPU_CLK_UNHALTED (1 every cycle) with INT, stopped.
fn bench() -> PmuBench {
    let mut b = new_bench();
    b.write(0, PERF_EVTSEL, CLK | USR | OS | EN | INT);
    b.write(0, PERF_EVTSEL + 1, CLK | USR | OS | EN | INT);
    b.set_event("CPU_CLK_UNHALTED", 0, 1);
    b.step();
    b
}

/// Writes the two counters, then starts both with PERF_GLOBAL_CTRL (at edge g; they
/// count from edge g+1 on, one per edge).
fn start(b: &mut PmuBench, c0: u64, c1: u64) {
    b.write(0, PERF_CNTR, c0);
    b.write(0, PERF_CNTR + 1, c1);
    b.write(0, PERF_GLOBAL_CTRL, 0b11);
}

#[test]
fn two_counters_overflowing_in_the_same_cycle_keep_pmi_until_the_isr_clears_them() {
    let mut b = bench();
    start(&mut b, TOP - 3, TOP - 3); // both reach 2^40 at edge g+3
    let seen: Vec<_> = (0..6).map(|_| status(&mut b, 0)).collect();
    assert_eq!(seen, [(0, 0), (0, 0), (0, 1), (0b11, 1), (0b11, 1), (0b11, 1)], "(STATUS, pmi) after edges g+1..g+6");
    // ISR: stop the counters (they still count at the write's edge g+7: 0 + 4 edges)...
    b.write(0, PERF_GLOBAL_CTRL, 0);
    assert_eq!(b.out.pmi, 1);
    assert_eq!(status(&mut b, 0), (0b11, 1), "the ISR sees both overflows");
    b.write(0, PERF_GLOBAL_OVF_CTRL, 0b11);
    assert_eq!(b.out.pmi, 0, "cleared at the OVF_CTRL write's edge");
    assert_eq!(status(&mut b, 0), (0, 0));
    assert_eq!(counters(&mut b, 0), [4, 4], "stopped at the GLOBAL_CTRL write's edge");
    assert_eq!(b.read(0, PERF_GLOBAL_OVF_CTRL), 0, "OVF_CTRL reads 0 (§9)");
}

#[test]
fn consecutive_overflows_during_the_isr_are_all_in_status() {
    let mut b = bench();
    start(&mut b, TOP - 2, TOP - 1); // counter 1 overflows at edge h+1, counter 0 at h+2
    let seen: Vec<_> = (0..3).map(|_| status(&mut b, 0)).collect();
    assert_eq!(seen, [(0, 1), (0b10, 1), (0b11, 1)], "(STATUS, pmi) after edges h+1..h+3");
    b.write(0, PERF_GLOBAL_CTRL, 0); // ISR step 2 at edge h+4
    assert_eq!(status(&mut b, 0), (0b11, 1), "ISR step 3: one PMI, two overflows");
    b.write(0, PERF_GLOBAL_OVF_CTRL, 0b11);
    assert_eq!(status(&mut b, 0), (0, 0));
    assert_eq!(counters(&mut b, 0), [2, 3], "0 after their overflows, +1 per edge up to h+4");
    // ISR steps 6-7: reload and restart; the next sampling period overflows again.
    start(&mut b, TOP - 1, 5);
    assert_eq!(status(&mut b, 0), (0, 1));
    assert_eq!(status(&mut b, 0), (0b01, 1));
    assert_eq!(counters(&mut b, 0), [1, 8], "read after edges g+2 and g+3 of this start: 0 + 1 and 5 + 3");
}

#[test]
fn an_overflow_at_the_edge_of_the_ovf_ctrl_write_is_not_lost() {
    let mut b = bench();
    start(&mut b, TOP - 1, TOP - 4); // edge k: counter 0 overflows at k+1, counter 1 at k+4
    assert_eq!(status(&mut b, 0), (0, 1), "edge k+1");
    // The handler stops counter 0 only (counter 1 keeps counting)...
    b.write(0, PERF_GLOBAL_CTRL, 0b10); // edge k+2
    assert_eq!(status(&mut b, 0), (0b01, 1), "edge k+3");
    // ...and clears both status bits at edge k+4, the edge at which counter 1 overflows.
    b.write(0, PERF_GLOBAL_OVF_CTRL, 0b11);
    assert_eq!(b.out.pmi, 1, "§7: the overflow at the clearing edge stays set, so pmi stays 1");
    assert_eq!(status(&mut b, 0), (0b10, 1), "bit 0 cleared, bit 1 set at the same edge");
    b.write(0, PERF_GLOBAL_CTRL, 0); // edge k+6
    b.write(0, PERF_GLOBAL_OVF_CTRL, 0b10);
    assert_eq!(b.out.pmi, 0);
    assert_eq!(status(&mut b, 0), (0, 0));
    assert_eq!(counters(&mut b, 0), [1, 2], "counter 0: 0 at k+1, +1 at k+2; counter 1: 0 at k+4, +1 at k+5, k+6");
}

#[test]
fn pmi_is_status_and_int_per_thread() {
    let mut b = bench();
    // Thread 2 counts without INT; thread 0's counter 0 keeps INT, counter 1 loses it.
    b.write(2, PERF_EVTSEL, CLK | USR | OS | EN);
    b.set_event("CPU_CLK_UNHALTED", 2, 1);
    b.write(0, PERF_EVTSEL + 1, CLK | USR | OS | EN);
    b.write(2, PERF_CNTR, TOP - 2);
    b.write(2, PERF_GLOBAL_CTRL, 0b01); // edge m: thread 2's counter 0 overflows at m+2
    start(&mut b, 0, TOP - 1); // thread 0: counter 1 overflows at m+4
    assert_eq!(status(&mut b, 2), (0b01, 0), "thread 2 overflowed without INT: no pmi");
    assert_eq!(status(&mut b, 0), (0b10, 0), "thread 0 counter 1 without INT: no pmi");
    b.write(2, PERF_EVTSEL, CLK | USR | OS | EN | INT);
    assert_eq!(b.out.pmi, 0b100, "§9: INT set after the overflow raises pmi[2] at once");
    b.write(0, PERF_EVTSEL + 1, CLK | USR | OS | EN | INT);
    assert_eq!(b.out.pmi, 0b101);
    b.write(2, PERF_GLOBAL_OVF_CTRL, 0b01);
    assert_eq!(b.out.pmi, 0b001, "each thread's pmi follows its own bank");
    b.write(0, PERF_EVTSEL + 1, CLK | USR | OS | EN);
    assert_eq!(b.out.pmi, 0, "clearing INT drops pmi; STATUS stays");
    assert_eq!(status(&mut b, 0), (0b10, 0));
}
