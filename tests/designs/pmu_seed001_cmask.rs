//! Seed 001 Table 1-5 (PERF_EVTSEL's CMASK, INV and E) on INSTRUCTIONS_EXECUTED
//! (PerCycleMax 2, "at most two per clock"), with exact counts worked out by hand from
//! §4.4-5: CMASK = 2 counts the cycles with two instructions; with INV, the cycles with
//! fewer than two; with E, how often the condition begins (a deasserted-to-asserted
//! transition, prev = 0 when counting starts). All T*K counters run one fixed per-cycle
//! sequence at once, gated by ring 3 (USR only), so the window is exact. Three engines.

use crate::common::pmu::evtsel::{E, EN, INV, USR};
use crate::common::pmu::PmuBench;

const T: usize = 4;
const K: usize = 2;

// §6 PERF_EVTSEL fields.
const fn cmask(n: u64) -> u64 {
    n << 24
}
/// INSTRUCTIONS_EXECUTED (EventCode 0x16, UMask 0x00) counted in ring 3 only.
const INSTR: u64 = 0x16 | USR | EN;

/// Instructions per cycle; by hand: 7 cycles with 2, 5 with 1, 5 with 0 (19 instructions);
/// runs of >= 2: 4, of < 2: 5, of >= 1: 3, of 0: 3.
const SEQ: [u64; 17] = [1, 2, 2, 2, 1, 0, 2, 1, 1, 2, 2, 0, 0, 0, 1, 2, 0];

#[test]
fn cmask_inv_and_edge_on_instructions_executed_follow_table_1_5() {
    let mut b = PmuBench::default_table(T, K, 40);
    let passes: [[(u64, u64, &str); 8]; 2] = [
        [
            (cmask(2), 7, "CMASK 2: two-instruction cycles"),
            (cmask(2) | INV, 10, "CMASK 2 INV: cycles with fewer than two"),
            (cmask(2) | E, 4, "CMASK 2 E: how often two-instruction cycles begin"),
            (cmask(2) | INV | E, 5, "CMASK 2 INV E: how often fewer-than-two begins"),
            (cmask(0), 19, "CMASK 0: every instruction"),
            (INV, 19, "INV has no effect with CMASK 0"),
            (cmask(1), 12, "CMASK 1: cycles with an instruction"),
            (E, 3, "CMASK 0 E: how often c != 0 begins"),
        ],
        [
            (cmask(1) | INV, 5, "CMASK 1 INV: cycles without instructions"),
            (cmask(1) | INV | E, 3, "CMASK 1 INV E: idle stretches"),
            (cmask(1) | E, 3, "CMASK 1 E: busy stretches"),
            (cmask(3), 0, "CMASK 3: never three"),
            (cmask(3) | INV, 17, "CMASK 3 INV: every cycle of the window"),
            (cmask(2) | INV | E, 5, "CMASK 2 INV E again"),
            (cmask(2), 7, "CMASK 2 again"),
            (cmask(0) | E | INV, 3, "CMASK 0 E INV: as CMASK 0 E"),
        ],
    ];
    for pass in passes {
        // Every thread in ring 0 outside the window, so the USR-only counters wait; in the
        // window all threads run the same sequence in ring 3 (kernel and events both one cycle late).
        b.inputs.kernel = 0b1111;
        b.clear_events();
        for (n, &(flags, ..)) in pass.iter().enumerate() {
            b.program((n / K) as u8, (n % K) as u8, INSTR | flags);
        }
        b.inputs.kernel = 0;
        for x in SEQ {
            (0..T).for_each(|t| b.set_event("INSTRUCTIONS_EXECUTED", t, x));
            b.step();
        }
        b.inputs.kernel = 0b1111;
        b.clear_events();
        b.step();
        for (n, &(_, expected, what)) in pass.iter().enumerate() {
            assert_eq!(b.counter((n / K) as u8, (n % K) as u8), expected, "{what}");
        }
    }
}
