//! The RVFI adapter on real retirements: the retirement log of every example firmware
//! of examples/soc run on the reference SoC (PicoRV32, `pmugen soc run --rvfi-log`)
//! drives, in one lockstep, the adapter's native model (`RvfiAdapter`, as the SoC has
//! it: T = 1, RV32, `--core picorv32` with the `handler` kernel rule, AW = 32), its generated Verilog under
//! Verilator and pmugen-sim's reference adapter. Every output (events, kernel, bb_end,
//! bb_addr) of the three must be equal in every cycle, and the outputs summed per log
//! must equal the log's summary by the independent checker (`summarize_core_log`): the
//! events per ring and the block ends per block address.
//!
//! Every `*.elf` of the SoC's examples folder is run, so a new example is covered
//! without a change here. The logs run one after another through one Verilator build,
//! each after a reset cycle.
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::soc_examples::{run, soc_dir};
use pmugen_hdl::rvfi::adapter::RvfiAdapter;
use pmugen_hdl::rvfi::events::EVENT_COUNT;
use pmugen_hdl::rvfi::params::{Core, KernelRule, RvfiOptions, Xlen};
use pmugen_hdl::rvfi::port;
use pmugen_hdl::rvfi::testing::{by_name_words, reference_rule, reference_xlen, signals};
use pmugen_hdl::testing::lockstep::Lockstep;
use pmugen_sim::reference::rvfi as reference;
use pmugen_sim::reference::rvfi::{summarize_core_log, Event, EventSet, ReferenceAdapter, Retirement, RingCounts};

/// The reference SoC's block-address width.
const AW: usize = 32;
const XLEN: Xlen = Xlen::Rv32;
const RULE: KernelRule = KernelRule::Handler;

/// One cycle of the concatenated stimulus.
struct Cycle {
    /// The retirement driven (idle in a reset cycle).
    retirement: Retirement,
    reset: bool,
    /// The log it belongs to, and its cycle there (None for the reset cycle before it).
    log: usize,
    at: Option<usize>,
}

/// What the adapter gave for one log's retirements (the outputs of the cycle after each).
#[derive(Default)]
struct Tally {
    counts: RingCounts,
    ends_by_address: BTreeMap<u64, u64>,
    kernel_cycles: u64,
    user_cycles: u64,
}

/// Runs `logs` (name, one retirement per cycle) through the native adapter, its
/// Verilog and the reference adapter in lockstep, one log after another, each after a
/// reset cycle, and a reset cycle at the end (the last retirement's outputs); panics at
/// the first difference. Returns each log's outputs summed.
fn lockstep_on_logs(logs: &[(String, Vec<Retirement>)]) -> Vec<Tally> {
    let mut cycles = Vec::new();
    for (index, (_, log)) in logs.iter().enumerate() {
        cycles.push(Cycle { retirement: Retirement::default(), reset: true, log: index, at: None });
        cycles.extend(log.iter().enumerate().map(|(at, r)| Cycle {
            retirement: *r,
            reset: false,
            log: index,
            at: Some(at),
        }));
    }
    cycles.push(Cycle { retirement: Retirement::default(), reset: true, log: logs.len() - 1, at: None });
    let cycles = Rc::new(cycles);

    let driven = Rc::clone(&cycles);
    let next = Cell::new(0);
    let lockstep = Lockstep::new("soc_adapter", 0).cycles(cycles.len()).cycle_stimulus(move |_, _, inputs| {
        let cycle = &driven[next.get()];
        next.set(next.get() + 1);
        let packed = port::pack(&[signals(&cycle.retirement)], XLEN);
        let mut values: Vec<(String, Vec<u64>)> = port::NAMES.iter().map(|name| name.to_string()).zip(packed).collect();
        values.push(("reset".to_string(), vec![cycle.reset as u64]));
        by_name_words(inputs, values)
    });

    let mut reference =
        ReferenceAdapter::for_core(1, reference_xlen(XLEN), reference_rule(RULE), reference::Core::Picorv32, AW as u32);
    let mut tallies: Vec<Tally> = logs.iter().map(|_| Tally::default()).collect();
    let mut now = 0;
    let adapter = RvfiAdapter::new(1, RvfiOptions { xlen: XLEN, kernel_rule: RULE, core: Core::Picorv32 }, AW);
    lockstep.run_observed(vec![(format!("T=1 XLEN={XLEN} {RULE} AW={AW}"), adapter)], |_, uut: &mut RvfiAdapter| {
        let cycle = &cycles[now];
        // The outputs during this cycle, from the retirement of the one before.
        let expected = reference.step(std::slice::from_ref(&cycle.retirement));
        if cycle.reset {
            reference.reset();
        }
        let hart = &expected.harts[0];
        let events = uut.events.field(0, EVENT_COUNT);
        let (kernel, bb_end, bb_addr) = (uut.kernel.bit(0), uut.bb_end.bit(0), uut.bb_addr.field(0, AW));
        let place = || {
            let name = &logs[cycle.log].0;
            let at = cycle.at.map_or("its reset cycle".to_string(), |at| format!("its cycle {at}"));
            format!("lockstep cycle {now}, log {name} {at}, retiring {:x?}", cycle.retirement)
        };
        assert_eq!(events, hart.events.bits() as u64, "events, {}", place());
        assert_eq!(kernel, hart.kernel, "kernel, {}", place());
        assert_eq!(bb_end, hart.bb_end, "bb_end, {}", place());
        assert_eq!(bb_addr, hart.bb_addr, "bb_addr, {}", place());
        if now > 0 {
            // What the previous cycle's retirement gave.
            let tally = &mut tallies[cycles[now - 1].log];
            let events = EventSet::from_bits(events as u16);
            tally.counts.add(events, kernel);
            if bb_end {
                *tally.ends_by_address.entry(bb_addr).or_insert(0) += 1;
            }
            if events.contains(Event::Cycles) {
                *if kernel { &mut tally.kernel_cycles } else { &mut tally.user_cycles } += 1;
            }
        }
        now += 1;
    });
    assert_eq!(now, cycles.len(), "the observer saw every cycle");
    tallies
}

/// The names of the examples built in the SoC's examples folder (every `*.elf`).
fn examples() -> Vec<String> {
    let dir = soc_dir().join("examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.expect("a directory entry").path();
            let is_elf = path.extension().is_some_and(|e| e == "elf");
            is_elf.then(|| path.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

#[test]
fn adapter_native_verilog_and_reference_agree_on_every_example_log() {
    let names = examples();
    assert!(names.iter().any(|n| n == "kernel"), "the examples built: {names:?}");
    let logs: Vec<(String, Vec<Retirement>)> = names.iter().map(|name| (name.clone(), run(name).log)).collect();
    let started = std::time::Instant::now();
    let tallies = lockstep_on_logs(&logs);
    println!("lockstep of {} logs: {:.1} s", logs.len(), started.elapsed().as_secs_f64());
    for ((name, log), tally) in logs.iter().zip(&tallies) {
        let summary =
            summarize_core_log(log, reference_xlen(XLEN), reference_rule(RULE), reference::Core::Picorv32, AW as u32);
        let ends: u64 = tally.ends_by_address.values().sum();
        println!(
            "{name}: {} cycles, {} retired, {ends} block ends, {} kernel and {} user cycles",
            log.len(),
            log.iter().filter(|r| r.valid).count(),
            tally.kernel_cycles,
            tally.user_cycles
        );
        assert_eq!(tally.counts, summary.counts, "{name}: the adapter's events per ring against summarize_log");
        assert_eq!(tally.ends_by_address, summary.ends_by_address, "{name}: block ends per address");
        assert!(ends > 0, "{name}: no block ended");
        assert!(tally.kernel_cycles > 0 && tally.user_cycles > 0, "{name}: kernel is not both 0 and 1");
        assert_eq!(tally.kernel_cycles + tally.user_cycles, log.len() as u64, "{name}: one CYCLES per cycle");
    }
}
