//! Random differential runs of the PMU: the reference model, the native rust-hdl model
//! and the generated Verilog under Verilator in lockstep on seeded stimulus, every
//! output compared every cycle. One million cycles at the default configuration,
//! 100,000 at the corners (T,K,CW) = (1,1,16), (2,3,64), (3,4,33), and with two custom
//! tables: only core-scope events (the `events` port carries no field), and an event
//! counting up to 255 per cycle (an 8-bit field, sums of up to 1020 with ANY).
mod common;

use pmugen::design::pmu::PmuDesign;
use pmugen::design::Design;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;

fn run(params: PmuParams, cycles: u64, seed: u64) {
    let design = PmuDesign::new(params);
    let mut engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
    let summary = common::assert_lockstep(&design, &mut engines, cycles, seed, "all");
    // The stimulus must reach what it is for, or the run proves little: reads that
    // return data, denied accesses, and overflow interrupts that rise and are cleared.
    let (reads, faults, pmi) = (summary.active("reg_rdata"), summary.active("reg_fault"), summary.active("pmi"));
    println!("non-zero cycles: reg_rdata {reads}, reg_fault {faults}, pmi {pmi}");
    assert!(reads > cycles / 10, "only {reads} cycles read non-zero data");
    assert!(faults > cycles / 100 && faults < cycles / 2, "{faults} faulting cycles");
    assert!(pmi > cycles / 100 && pmi < cycles * 19 / 20, "pmi non-zero in {pmi} of {cycles} cycles");
}

fn table(json: &str, stem: &str, counters: usize) -> EventTable {
    EventTable::from_json(json, &format!("{stem}.json"), stem, counters).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn default_t4_k2_c40_one_million_cycles() {
    run(PmuParams::with_default_table(4, 2, 40), 1_000_000, 0xC0_4240);
}

#[test]
fn t1_k1_c16_100k_cycles() {
    run(PmuParams::with_default_table(1, 1, 16), 100_000, 0xC0_1116);
}

#[test]
fn t2_k3_c64_100k_cycles() {
    run(PmuParams::with_default_table(2, 3, 64), 100_000, 0xC0_2364);
}

#[test]
fn t3_k4_c33_100k_cycles() {
    run(PmuParams::with_default_table(3, 4, 33), 100_000, 0xC0_3433);
}

#[test]
fn core_scope_events_only_100k_cycles() {
    let json = r#"[
        {"EventName": "L2_READ_MISS", "EventCode": "0xCB", "UMask": "0x10", "Scope": "core", "PerCycleMax": 2},
        {"EventName": "L2_WRITE_HIT", "EventCode": "0xCC", "UMask": "0x10", "Scope": "core"},
        {"EventName": "SNOOP_HIT", "EventCode": "0xE6", "UMask": "0x10", "Scope": "core", "PerCycleMax": 7}
    ]"#;
    run(PmuParams::new(2, 2, 24, table(json, "core_only", 2)).unwrap(), 100_000, 0xC0_C0E);
}

#[test]
fn an_event_of_up_to_255_per_cycle_100k_cycles() {
    let json = r#"[
        {"EventName": "ELEMENTS", "EventCode": "0x18", "UMask": "0x20", "PerCycleMax": 255},
        {"EventName": "INSTRUCTIONS", "EventCode": "0x16", "UMask": "0x00", "PerCycleMax": 2},
        {"EventName": "L2_MISS", "EventCode": "0xCB", "UMask": "0x10", "Scope": "core", "PerCycleMax": 255}
    ]"#;
    run(PmuParams::new(4, 2, 32, table(json, "wide", 2)).unwrap(), 100_000, 0xC0_255);
}
