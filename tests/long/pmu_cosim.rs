//! Random differential runs of the PMU: the reference model, the native rust-hdl model
//! and the generated Verilog under Verilator in lockstep on seeded stimulus, every
//! output compared every cycle. One million cycles at the default configuration,
//! 100,000 at the corners (T,K,CW) = (1,1,16), (2,3,64), (3,4,33), and with two custom
//! tables: only core-scope events (the `events` port carries no field), and an event
//! counting up to 255 per cycle (an 8-bit field, sums of up to 1020 with ANY). The
//! stimulus traces too (block ends, pids, TRACE_* writes, backpressure); tracing
//! corners (T,K,CW,D,AW) = (1,1,16,2,16) and (2,4,64,16,48). The stream captured from
//! Verilator is decoded by `pmugen::trace` and must give the reference model's records;
//! with a profile table, its summary records merged must give every record's counts.

use pmugen::design::pmu::PmuDesign;
use pmugen::design::Design;
use pmugen::trace::{decode, TraceFormat, Word};
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::ports::pmu::{PmuInputs, PmuOutputs};
use pmugen_sim::reference::ReferencePmu;
use std::collections::BTreeMap;

fn run(params: PmuParams, cycles: u64, seed: u64) {
    let design = PmuDesign::new(params);
    let mut engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
    let summary = crate::common::assert_lockstep(&design, &mut engines, cycles, seed, "all");
    // The stimulus must reach what it is for, or the run proves little: reads that
    // return data, denied accesses, and overflow interrupts that rise and are cleared.
    let (reads, faults, pmi) = (summary.active("reg_rdata"), summary.active("reg_fault"), summary.active("pmi"));
    println!("non-zero cycles: reg_rdata {reads}, reg_fault {faults}, pmi {pmi}");
    assert!(reads > cycles / 10, "only {reads} cycles read non-zero data");
    assert!(faults > cycles / 100 && faults < cycles / 2, "{faults} faulting cycles");
    assert!(pmi > cycles / 100 && pmi < cycles * 19 / 20, "pmi non-zero in {pmi} of {cycles} cycles");
    let (valid, last) = (summary.active("trace_valid"), summary.active("trace_last"));
    println!("non-zero cycles: trace_valid {valid}, trace_last {last}");
    assert!(
        valid > cycles / 50 && valid < cycles * 19 / 20 && last > cycles / 200,
        "trace_valid {valid}, trace_last {last} of {cycles}"
    );
}

/// The stream of `cycles` cycles of the stimulus, captured from Verilator (the words
/// that moved), decoded, against the records the reference model made and did not drop.
fn decode_captured_stream(params: PmuParams, cycles: usize, seed: u64) {
    let design = PmuDesign::new(params.clone());
    let mut verilator = design.verilator(None).unwrap_or_else(|e| panic!("{e}"));
    let mut reference = ReferencePmu::new(params.port_config());
    reference.log_trace_records();
    let inputs: Vec<_> = design.stimulus(seed).take(cycles).collect();
    let mut outputs = Vec::new();
    verilator.step_batch(&inputs, &mut outputs);
    let (mut words, mut expected) = (Vec::new(), Vec::new());
    let mut previous = PmuOutputs::default();
    let mut decoded = 0;
    for (input, output) in inputs.iter().zip(&outputs) {
        if input.reset {
            // A reset empties the queue: decode what came before it, start again.
            decoded += check(&words, &expected, &params);
            (words, expected) = (Vec::new(), Vec::new());
        } else if previous.trace_valid && input.trace_ready {
            words.push(Word { data: previous.trace_data, last: Some(previous.trace_last) });
        }
        assert_eq!(reference.step(input), *output, "Verilator follows the reference");
        expected.extend(
            reference.take_trace_records().into_iter().filter(|(_, dropped)| !dropped).map(|(record, _)| record),
        );
        previous = *output;
    }
    decoded += check(&words, &expected, &params);
    println!("{}: {decoded} records decoded", design.top_name());
    assert!(decoded > 500, "only {decoded} records decoded");
}

/// Decode `words` (cut after their last complete record) and compare with the first
/// records of `expected` (stream words per record).
fn check(words: &[Word], expected: &[Vec<u64>], params: &PmuParams) -> usize {
    let format = TraceFormat {
        threads: params.threads,
        counters: params.counters,
        counter_width: params.counter_width,
        address_width: params.address_width,
    };
    let complete = words.iter().rposition(|w| w.last == Some(true)).map_or(0, |i| i + 1);
    let records = decode(&words[..complete], &format).unwrap_or_else(|e| panic!("{e}"));
    assert!(records.len() <= expected.len());
    for (record, words) in records.iter().zip(expected) {
        let new_process = words[0] >> 63 == 1;
        assert_eq!(record.thread as u64, words[0] >> 61 & 3);
        assert_eq!(record.address, words[0] & ((1 << params.address_width) - 1));
        assert_eq!(record.new_process, new_process.then_some(words[1] as u32));
        assert_eq!(record.values, words[1 + new_process as usize..], "record {}", record.index);
    }
    records.len()
}

#[test]
fn decoding_the_captured_streams_gives_the_reference_models_records() {
    let corners = [(4, 2, 40, 256, 32), (1, 1, 16, 2, 16), (2, 4, 64, 16, 48)];
    for (seed, (t, k, cw, d, aw)) in corners.into_iter().enumerate() {
        let params = PmuParams::with_default_table(t, k, cw).with_trace(d, aw).unwrap();
        decode_captured_stream(params, 100_000, 0xDEC0 + seed as u64);
    }
}

#[test]
fn trace_t1_k1_c16_d2_a16_100k_cycles() {
    run(PmuParams::with_default_table(1, 1, 16).with_trace(2, 16).unwrap(), 100_000, 0xC0_7121);
}

#[test]
fn trace_t2_k4_c64_d16_a48_100k_cycles() {
    run(PmuParams::with_default_table(2, 4, 64).with_trace(16, 48).unwrap(), 100_000, 0xC0_7248);
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

/// A register write by ring 0 at `addr`, everything else quiet and the consumer ready.
fn write(addr: u8, data: u64) -> PmuInputs {
    PmuInputs {
        reg_write: true,
        reg_priv: true,
        reg_addr: addr,
        reg_wdata: data,
        trace_ready: true,
        pm_mark: 0xF,
        ..Default::default()
    }
}

/// The records' totals per (thread, block address): (executions, the sum of each value).
type Totals = BTreeMap<(usize, u64), (u64, Vec<u64>)>;

fn add(totals: &mut Totals, key: (usize, u64), executions: u64, values: &[u64]) {
    let entry = totals.entry(key).or_insert_with(|| (0, vec![0; values.len()]));
    entry.0 += executions;
    for (sum, value) in entry.1.iter_mut().zip(values) {
        *sum += value;
    }
}

/// docs/pmu.md §15.5 end to end: a PMU with a profile table under the random stimulus
/// (SUMMARIZE toggled, flushes, stalls, drops), then TRACE_EN cleared and two flushes;
/// the stream captured from Verilator (which follows the reference model cycle by
/// cycle), decoded by `pmugen::trace` with its summary records merged, gives per block
/// exactly the executions and sums of every record the PMU made and did not drop.
fn profile_totals_equal_the_records(params: PmuParams, cycles: usize, seed: u64) {
    let design = PmuDesign::new(params.clone());
    let mut verilator = design.verilator(None).unwrap_or_else(|e| panic!("{e}"));
    let mut reference = ReferencePmu::new(params.port_config());
    reference.log_trace_records();
    // No reset after the first cycle: a reset empties the table, whose entries are then never sent.
    let mut inputs: Vec<PmuInputs> =
        design.stimulus(seed).take(cycles).enumerate().map(|(i, input)| PmuInputs { reset: i == 0, ..input }).collect();
    let drain = (params.profile_entries + params.trace_depth) * (params.counters + 3) + 100;
    let quiet = PmuInputs { trace_ready: true, pm_mark: 0xF, ..Default::default() };
    inputs.push(write(0x40, 0));
    for _ in 0..2 {
        inputs.push(write(0x43, 0x3));
        inputs.extend(std::iter::repeat_n(quiet.clone(), drain));
    }
    inputs.push(PmuInputs { reg_read: true, reg_priv: true, reg_addr: 0x43, ..quiet.clone() });
    inputs.push(quiet);
    let mut outputs = Vec::new();
    verilator.step_batch(&inputs, &mut outputs);
    let (mut words, mut previous, mut made) = (Vec::new(), PmuOutputs::default(), Totals::new());
    for (input, output) in inputs.iter().zip(&outputs) {
        if previous.trace_valid && input.trace_ready {
            words.push(Word { data: previous.trace_data, last: Some(previous.trace_last) });
        }
        assert_eq!(reference.step(input), *output, "Verilator follows the reference");
        for (record, _) in reference.take_trace_records().into_iter().filter(|(_, dropped)| !dropped) {
            let key = ((record[0] >> 61 & 3) as usize, record[0] & ((1 << params.address_width) - 1));
            add(&mut made, key, 1, &record[record.len() - params.counters..]);
        }
        previous = *output;
    }
    assert_eq!(outputs[outputs.len() - 1].reg_rdata & 2, 0, "FLUSH still reads 1 after the drain");
    let format = TraceFormat {
        threads: params.threads,
        counters: params.counters,
        counter_width: params.counter_width,
        address_width: params.address_width,
    };
    let records = decode(&words, &format).unwrap_or_else(|e| panic!("{e}"));
    let mut sent = Totals::new();
    for record in &records {
        add(&mut sent, (record.thread, record.address), record.executions(), &record.values);
    }
    let summaries = records.iter().filter(|record| record.summary.is_some()).count();
    let executions: u64 = made.values().map(|(executions, _)| executions).sum();
    println!(
        "{}: {executions} records made and kept, {} records on the stream, {summaries} of them summaries",
        design.top_name(),
        records.len()
    );
    assert!(summaries > 100 && summaries * 4 < records.len() * 3, "{summaries} summaries of {} records", records.len());
    assert_eq!(sent, made, "the stream's totals per block against the records made");
}

#[test]
fn profile_tables_count_every_record_once() {
    let small = PmuParams::with_default_table(3, 1, 16).with_trace(2, 16).unwrap().with_profile(16).unwrap();
    profile_totals_equal_the_records(small, 100_000, 0xC0_1516);
    let soc = PmuParams::with_default_table(1, 4, 40).with_trace(16, 32).unwrap().with_profile(64).unwrap();
    profile_totals_equal_the_records(soc, 100_000, 0xC0_1464);
}
