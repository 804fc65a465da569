//! Seed 001 (the Knights Corner core PMU manual) on the default event table, with exact
//! counts derived by hand from the specification: every code of §2.4 (seed 001
//! Table 1-6) counts its own input field and no other (§2 packing, §4.1-2); ANY over the
//! threads and core-scope events (§4.2-3, §9); unknown codes (§4.1). CMASK, INV and E
//! (seed 001 Table 1-5) are in pmu_seed001_cmask.rs, PMI handling in pmu_seed001_pmi.rs.
//! Every test runs the reference, rust-hdl and Verilator engines in lockstep.

use crate::common::pmu::addr::{PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL};
use crate::common::pmu::evtsel::{ANY, E, EN, INV, OS, USR};
use crate::common::pmu::PmuBench;
use pmugen_sim::ports::pmu::EventScope;

/// A bench at (T, K, CW).
fn new_bench() -> PmuBench {
    PmuBench::default_table(T, K, CW)
}

const T: usize = 4;
const K: usize = 2;
const CW: usize = 40;

const fn cmask(n: u64) -> u64 {
    n << 24
}
const fn sel(code: u8, umask: u8, flags: u64) -> u64 {
    (umask as u64) << 8 | code as u64 | flags
}

/// §2.4 in table order: name, EventCode, UMask, PerCycleMax, core scope.
#[rustfmt::skip]
const TABLE: [(&str, u8, u8, u8, bool); 59] = [
    ("DATA_READ", 0x00, 0x00, 2, false), ("DATA_WRITE", 0x01, 0x00, 2, false), ("DATA_PAGE_WALK", 0x02, 0x00, 1, false),
    ("DATA_READ_MISS", 0x03, 0x00, 1, false), ("DATA_WRITE_MISS", 0x04, 0x00, 1, false),
    ("DATA_CACHE_LINES_WRITTEN_BACK", 0x06, 0x00, 1, false), ("MEMORY_ACCESSES_IN_BOTH_PIPES", 0x09, 0x00, 1, false),
    ("BANK_CONFLICTS", 0x0A, 0x00, 1, false), ("CODE_READ", 0x0C, 0x00, 1, false), ("CODE_PAGE_WALK", 0x0D, 0x00, 1, false),
    ("CODE_CACHE_MISS", 0x0E, 0x00, 1, false), ("L1_DATA_PF1", 0x11, 0x00, 1, false), ("BRANCHES", 0x12, 0x00, 1, false),
    ("PIPELINE_FLUSHES", 0x15, 0x00, 1, false), ("INSTRUCTIONS_EXECUTED", 0x16, 0x00, 2, false),
    ("INSTRUCTIONS_EXECUTED_V_PIPE", 0x17, 0x00, 1, false), ("L1_DATA_PF1_MISS", 0x1C, 0x00, 1, false),
    ("L1_DATA_PF1_DROP", 0x1E, 0x00, 1, false), ("PIPELINE_AGI_STALLS", 0x1F, 0x00, 2, false),
    ("L1_DATA_HIT_INFLIGHT_PF1", 0x20, 0x00, 1, false), ("PIPELINE_SG_AGI_STALLS", 0x21, 0x00, 1, false),
    ("DATA_READ_OR_WRITE", 0x28, 0x00, 2, false), ("DATA_READ_MISS_OR_WRITE_MISS", 0x29, 0x00, 1, false),
    ("CPU_CLK_UNHALTED", 0x2A, 0x00, 1, false), ("BRANCHES_MISPREDICTED", 0x2B, 0x00, 1, false),
    ("MICROCODE_CYCLES", 0x2C, 0x00, 1, false), ("FE_STALLED", 0x2D, 0x00, 1, false), ("EXEC_STAGE_CYCLES", 0x2E, 0x00, 1, false),
    ("L1_DATA_PF2", 0x37, 0x00, 1, false), ("L2_DATA_PF1_MISS", 0x38, 0x00, 1, false),
    ("LONG_DATA_PAGE_WALK", 0x3A, 0x00, 1, false), ("LONG_CODE_PAGE_WALK", 0x3B, 0x00, 1, false),
    ("L2_READ_HIT_E", 0xC8, 0x10, 1, true), ("L2_READ_HIT_M", 0xC9, 0x10, 1, true), ("L2_READ_HIT_S", 0xCA, 0x10, 1, true),
    ("L2_READ_MISS", 0xCB, 0x10, 1, true), ("L2_WRITE_HIT", 0xCC, 0x10, 1, true), ("L2_VICTIM_REQ_WITH_DATA", 0xD7, 0x10, 1, true),
    ("SNP_HITM_BUNIT", 0xE3, 0x10, 1, true), ("SNP_HIT_L2", 0xE6, 0x10, 1, true), ("SNP_HITM_L2", 0xE7, 0x10, 1, true),
    ("L2_CODE_READ_MISS_CACHE_FILL", 0xF0, 0x10, 1, true), ("L2_DATA_READ_MISS_CACHE_FILL", 0xF1, 0x10, 1, true),
    ("L2_DATA_WRITE_MISS_CACHE_FILL", 0xF2, 0x10, 1, true), ("L2_CODE_READ_MISS_MEM_FILL", 0xF5, 0x10, 1, true),
    ("L2_DATA_READ_MISS_MEM_FILL", 0xF6, 0x10, 1, true), ("L2_DATA_WRITE_MISS_MEM_FILL", 0xF7, 0x10, 1, true),
    ("L2_DATA_PF2", 0xFC, 0x10, 1, true), ("L2_DATA_PF2_DROP", 0xFD, 0x10, 1, true), ("L2_DATA_PF2_MISS", 0xFE, 0x10, 1, true),
    ("L2_DATA_HIT_INFLIGHT_PF2", 0xFF, 0x10, 1, true),
    ("VPU_DATA_READ", 0x00, 0x20, 1, false), ("VPU_DATA_WRITE", 0x01, 0x20, 1, false), ("VPU_DATA_READ_MISS", 0x03, 0x20, 1, false),
    ("VPU_DATA_WRITE_MISS", 0x04, 0x20, 1, false), ("VPU_STALL_REG", 0x05, 0x20, 1, false),
    ("VPU_INSTRUCTIONS_EXECUTED", 0x16, 0x20, 2, false), ("VPU_INSTRUCTIONS_EXECUTED_V_PIPE", 0x17, 0x20, 1, false),
    ("VPU_ELEMENTS_ACTIVE", 0x18, 0x20, 16, false),
];

fn index(name: &str) -> usize {
    TABLE.iter().position(|e| e.0 == name).unwrap()
}

/// §2's IW: the bits needed for PerCycleMax.
fn iw(max: u8) -> usize {
    (u8::BITS - max.leading_zeros()) as usize
}

/// Drives every input field (§2 packing, worked out here from the table):
/// `value(event, Some(thread))` for thread-scope fields, `value(event, None)` for core ones.
fn drive(bench: &mut PmuBench, value: impl Fn(usize, Option<usize>) -> u64) {
    let (mut tew, mut cew, mut offsets) = (0, 0, vec![]);
    for &(_, _, _, max, core) in &TABLE {
        let slot = if core { &mut cew } else { &mut tew };
        offsets.push(*slot);
        *slot += iw(max);
    }
    assert_eq!((tew, cew), (50, 19), "§2.4: TEW = 50, CEW = 19");
    let mut events = vec![0u64; (T * tew).div_ceil(64)];
    let mut core_events = vec![0u64; 1];
    for (e, &(_, _, _, max, core)) in TABLE.iter().enumerate() {
        let fields: Vec<Option<usize>> = if core { vec![None] } else { (0..T).map(Some).collect() };
        for thread in fields {
            let v = value(e, thread);
            assert!(v < 1 << iw(max), "value {v} does not fit the field of {}", TABLE[e].0);
            let (words, base) = match thread {
                Some(t) => (&mut events, t * tew + offsets[e]),
                None => (&mut core_events, offsets[e]),
            };
            (0..8).filter(|b| v >> b & 1 == 1).for_each(|b| words[(base + b) / 64] |= 1 << ((base + b) % 64));
        }
    }
    bench.inputs.events = events;
    bench.inputs.core_events = core_events;
}

#[test]
fn every_default_code_counts_its_own_field_and_no_other() {
    let mut b = new_bench();
    for (spec, &(name, code, umask, max, core)) in b.config.events.iter().zip(&TABLE) {
        let scope = if core { EventScope::Core } else { EventScope::Thread };
        assert_eq!(
            (spec.name.as_str(), spec.code, spec.umask, spec.per_cycle_max, spec.scope),
            (name, code, umask, max, scope)
        );
    }
    assert_eq!(b.config.events.len(), 59);
    drive(&mut b, |_, _| 0);
    b.inputs.kernel = 0b0101; // USR and OS together count in every ring
    (0..T as u8).for_each(|t| b.write(t, PERF_GLOBAL_CTRL, 0b11));
    for (n, &(name, code, umask, max, core)) in TABLE.iter().enumerate() {
        let (t, i) = (n % T, (n / T % K) as u8);
        b.write(t as u8, PERF_EVTSEL + i, sel(code, umask, USR | OS | EN));
        b.write(t as u8, PERF_CNTR + i, 0);
        // Two cycles with only e's field (thread t's, or the core's) at its all-ones value m
        // (above PerCycleMax where IW allows: counted as given), then one cycle with every other
        // field of every thread and of the core set: 1 (1 bit), 3 (2 bits), 17 (5 bits), all
        // different from e's total 2m, so a wrong field, thread or sum cannot give 2m.
        let m = (1u64 << iw(max)) - 1;
        let mine = |e: usize, th: Option<usize>| e == n && (core || th == Some(t));
        for _ in 0..2 {
            drive(&mut b, |e, th| if mine(e, th) { m } else { 0 });
            b.step();
        }
        drive(&mut b, |e, th| if mine(e, th) { 0 } else { [0, 1, 3, 0, 0, 17][iw(TABLE[e].3)] });
        b.step();
        drive(&mut b, |_, _| 0);
        b.step(); // the last event cycle is counted at this edge (§4 input latency)
        assert_eq!(b.counter(t as u8, i), 2 * m, "{name} on thread {t} counter {i}");
    }
}

/// Programs all T*K counters with `selects[thread][counter]`, runs `cycles` with the
/// given kernel bits and `drive`, and returns every counter.
fn run(b: &mut PmuBench, selects: [[u64; K]; T], kernel: u8, cycles: &[&dyn Fn(&mut PmuBench)]) -> Vec<Vec<u64>> {
    drive(b, |_, _| 0);
    for (t, row) in selects.iter().enumerate() {
        for (i, &s) in row.iter().enumerate() {
            b.program(t as u8, i as u8, s);
        }
    }
    b.inputs.kernel = kernel;
    for cycle in cycles {
        cycle(b);
        b.step();
    }
    drive(b, |_, _| 0);
    b.step();
    (0..T as u8).map(|t| (0..K as u8).map(|i| b.counter(t, i)).collect()).collect()
}

#[test]
fn any_sums_thread_events_over_threads_and_core_events_count_in_every_selecting_thread() {
    let mut b = new_bench();
    // Kernel: threads 0 and 2 in ring 0, 1 and 3 in ring 3; mode_ok is the counting thread's (§9).
    let kernel = 0b0101;
    // VPU_ELEMENTS_ACTIVE: 3, 5, 9, 17 on threads 0..3 (sum 34) for 5 cycles.
    let va = sel(0x18, 0x20, EN);
    let active = |b: &mut PmuBench| {
        drive(b, |e, th| if e == index("VPU_ELEMENTS_ACTIVE") { [3, 5, 9, 17][th.unwrap()] } else { 0 })
    };
    let got = run(
        &mut b,
        [
            [va | ANY | OS, va | ANY | USR],
            [va | USR, va | ANY | USR],
            [va | ANY | USR, va | OS],
            [va | ANY | USR | OS, va | ANY | USR | cmask(20)],
        ],
        kernel,
        &[&active as &dyn Fn(&mut PmuBench); 5],
    );
    assert_eq!(got, [[170, 0], [25, 170], [0, 45], [170, 5]], "ANY = sum 34 per cycle, own field otherwise");
    // L2_READ_MISS (core scope) on cycles 1, 1, 0, 1, 1: every selecting thread counts all of it
    // when its own mode matches; ANY changes nothing; E sees two starts.
    let miss = sel(0xCB, 0x10, EN);
    // Noise in the other cycles and fields: L2_READ_HIT_E and every thread's BRANCHES.
    let noise = |e: usize| e == index("L2_READ_HIT_E") || e == index("BRANCHES");
    let on = |b: &mut PmuBench| drive(b, |e, _| (e == index("L2_READ_MISS") || noise(e)) as u64);
    let off = |b: &mut PmuBench| drive(b, |e, _| noise(e) as u64);
    let got = run(
        &mut b,
        [
            [miss | USR | OS, miss | ANY | OS],
            [miss | OS, miss | ANY | USR],
            [miss | OS, miss | ANY | USR],
            [miss | USR, miss | USR | E],
        ],
        kernel,
        &[&on, &on, &off, &on, &on],
    );
    assert_eq!(got, [[4, 4], [0, 4], [4, 0], [4, 2]], "core-scope L2_READ_MISS");
}

#[test]
fn unknown_codes_count_nothing() {
    let mut b = new_bench();
    let all = |b: &mut PmuBench| drive(b, |e, _| (1 << iw(TABLE[e].3)) - 1);
    let f = USR | OS | EN;
    // Thread 0: no P54C code 0x05; INSTRUCTIONS_EXECUTED's code with CRI's UMask. Thread 1: a
    // CRI code with P54C's UMask (ANY); a VPU code with P54C's UMask as "c < 1" (CMASK 1, INV:
    // would hold in no cycle here, but an unknown code gives cond = 0 whatever the fields say).
    // Thread 2: a P54C code with VPU's UMask (E); (0xFF, 0xFF) with CMASK, INV and E. Thread 3,
    // known codes for comparison: VPU_INSTRUCTIONS_EXECUTED (field 3) and L2_READ_HIT_E (1).
    let selects = [
        [sel(0x05, 0x00, f), sel(0x16, 0x10, f)],
        [sel(0xC8, 0x00, f | ANY), sel(0x18, 0x00, f | cmask(1) | INV)],
        [sel(0x02, 0x20, f | E), sel(0xFF, 0xFF, f | cmask(1) | INV | E)],
        [sel(0x16, 0x20, f), sel(0xC8, 0x10, f)],
    ];
    let got = run(&mut b, selects, 0b0011, &[&all as &dyn Fn(&mut PmuBench); 6]);
    assert_eq!(got, [[0, 0], [0, 0], [0, 0], [18, 6]], "only the known codes count: 3 x 6 and 1 x 6");
}
