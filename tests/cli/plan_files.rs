//! The plan's register program and files (docs/pmu.md §14.2–§14.5): the writes a driver
//! performs, the JSON round trip, the RESULTS checks and the merge.
use pmugen::plan::merge::{merge, Flag};
use pmugen::plan::results::read;
use pmugen::plan::{Modes, Plan};
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;

/// Register addresses and EVTSEL bits as docs/pmu.md §6 lists them.
const PERF_CNTR: u8 = 0x20;
const PERF_EVTSEL: u8 = 0x28;
const PERF_GLOBAL_CTRL: u8 = 0x2F;
const USR: u64 = 1 << 16;
const OS: u64 = 1 << 17;
const ANY: u64 = 1 << 21;
const EN: u64 = 1 << 22;

/// Four events, two restricted: greedy fails on 2 cores and the matching succeeds.
const TABLE: &str = r#"[
  {"EventName": "ALPHA", "EventCode": "0x10", "UMask": "0x01"},
  {"EventName": "BETA", "EventCode": "0x11", "UMask": "0x00", "Scope": "core"},
  {"EventName": "GAMMA", "EventCode": "0x12", "UMask": "0x02", "Counter": "0"},
  {"EventName": "DELTA", "EventCode": "0x13", "UMask": "0x00", "Counter": "1"}
]"#;

fn params(threads: u64) -> PmuParams {
    let table = EventTable::from_json(TABLE, "plan.json", "plan", 2).unwrap();
    PmuParams::new(threads, 2, 24, table).unwrap()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

const BOTH: Modes = Modes { usr: true, os: true, all_threads: false };

#[test]
fn each_core_zeroes_selects_and_enables_its_counters_then_stops_and_reads() {
    let plan = Plan::new(&params(2), &names(&["ALPHA", "BETA", "GAMMA", "DELTA"]), 2, BOTH, false).unwrap();
    assert_eq!(plan.runs.len(), 1);
    for core in &plan.runs[0].cores {
        let writes: Vec<(u8, u64)> = core.writes.iter().map(|w| (w.address, w.value)).collect();
        let mut expected = Vec::new();
        let mut enable = 0;
        for read in &core.reads {
            let event = plan.events.iter().find(|e| e.name == read.event).unwrap();
            let select = event.code as u64 | (event.umask as u64) << 8 | USR | OS | EN;
            expected.push((PERF_CNTR + read.counter as u8, 0));
            expected.push((PERF_EVTSEL + read.counter as u8, select));
            enable |= 1 << read.counter;
            assert_eq!(read.address, PERF_CNTR + read.counter as u8);
            assert!(event.counters.contains(&read.counter), "{} on a counter its Counter key forbids", event.name);
        }
        expected.push((PERF_GLOBAL_CTRL, enable));
        assert_eq!(writes, expected, "core {}", core.core);
        assert_eq!(core.stop.iter().map(|w| (w.address, w.value)).collect::<Vec<_>>(), vec![(PERF_GLOBAL_CTRL, 0)]);
        assert_eq!(core.thread, 0);
    }
    let counted: usize = plan.runs[0].cores.iter().map(|c| c.reads.len()).sum();
    assert_eq!(counted, 4, "four events, once each, on two cores of two counters");
}

#[test]
fn modes_set_usr_os_and_any() {
    let usr_any = Modes { usr: true, os: false, all_threads: true };
    let plan = Plan::new(&params(2), &names(&["ALPHA"]), 1, usr_any, false).unwrap();
    assert_eq!(plan.events[0].evtsel, 0x10 | 0x01 << 8 | USR | ANY | EN);
    let os = Modes { usr: false, os: true, all_threads: false };
    let plan = Plan::new(&params(2), &names(&["ALPHA"]), 1, os, false).unwrap();
    assert_eq!(plan.events[0].evtsel, 0x10 | 0x01 << 8 | OS | EN);
}

#[test]
fn the_plan_reads_back_from_its_json() {
    let plan = Plan::new(&params(1), &names(&["ALPHA", "GAMMA", "DELTA"]), 1, BOTH, true).unwrap();
    assert_eq!(plan.runs.len(), 2, "three events on one core of two counters take two runs");
    let text = plan.to_json();
    assert_eq!(Plan::from_json(&text, "plan.json").unwrap(), plan);
    let error = Plan::from_json("[1, 2]", "old.json").unwrap_err().to_string();
    assert!(error.contains("old.json") && error.contains("§14.3"), "{error}");
}

#[test]
fn unknown_repeated_and_unplannable_events_are_refused_clearly() {
    let error = Plan::new(&params(1), &names(&["ALPHA", "GAMA"]), 4, BOTH, false).unwrap_err().to_string();
    assert!(error.contains("no event 'GAMA'") && error.contains("the closest is 'GAMMA'"), "{error}");
    let error = Plan::new(&params(1), &names(&["ALPHA", "alpha"]), 4, BOTH, false).unwrap_err().to_string();
    assert!(error.contains("'ALPHA' is listed twice"), "{error}");
    let error = Plan::new(&params(1), &names(&["ALPHA"]), 0, BOTH, false).unwrap_err().to_string();
    assert!(error.contains("--cores (C) = 0"), "{error}");
    // GAMMA and a second counter-0-only event cannot share one core.
    let table = EventTable::from_json(
        r#"[{"EventName": "G1", "EventCode": "0x1", "UMask": "0x0", "Counter": "0"},
            {"EventName": "G2", "EventCode": "0x2", "UMask": "0x0", "Counter": "0"},
            {"EventName": "H", "EventCode": "0x3", "UMask": "0x0"}]"#,
        "t.json",
        "t",
        2,
    )
    .unwrap();
    let narrow = PmuParams::new(1, 2, 24, table).unwrap();
    let error = Plan::new(&narrow, &names(&["G1", "G2", "H"]), 1, BOTH, false).unwrap_err().to_string();
    assert!(error.contains("counter 0 is the only counter allowed for 2 events (G1, G2)"), "{error}");
    assert!(error.contains("--rounds"), "{error}");
    let split = Plan::new(&narrow, &names(&["G1", "G2", "H"]), 1, BOTH, true).unwrap();
    assert_eq!(split.runs.len(), 2);
}

fn results(entries: &[(usize, usize, usize, u64)]) -> String {
    let list: Vec<String> = entries
        .iter()
        .map(|(run, core, counter, count)| {
            format!(r#"{{"run": {run}, "core": {core}, "counter": {counter}, "count": {count}}}"#)
        })
        .collect();
    format!(r#"{{"format": "pmugen-results/1", "results": [{}]}}"#, list.join(", "))
}

#[test]
fn merge_takes_the_maximum_reports_the_spread_and_flags_zero_and_low() {
    // Six cores, two events: each on three cores (0, 2, 4 and 1, 3, 5).
    let plan = Plan::new(&params(1), &names(&["ALPHA", "BETA"]), 6, BOTH, false).unwrap();
    let text = results(&[(0, 0, 0, 90), (0, 2, 0, 100), (0, 4, 0, 0), (0, 1, 0, 3), (0, 3, 0, 2), (0, 5, 0, 3)]);
    let counts = read(&text, "r.json", &plan).unwrap();
    let merged = merge(&plan, &counts, 10);
    assert_eq!((merged.events[0].count, merged.events[0].min, merged.events[0].spread), (100, 0, 100));
    assert_eq!(merged.events[0].flag, Flag::Ok);
    assert_eq!((merged.events[1].count, merged.events[1].spread, merged.events[1].flag), (3, 1, Flag::Low));
    assert_eq!(merged.events[0].replicas.len(), 3);
    let zero = read(
        &results(&[(0, 0, 0, 0), (0, 2, 0, 0), (0, 4, 0, 0), (0, 1, 0, 1), (0, 3, 0, 1), (0, 5, 0, 1)]),
        "z",
        &plan,
    )
    .unwrap();
    let merged = merge(&plan, &zero, 1);
    assert_eq!((merged.events[0].flag, merged.events[1].flag), (Flag::Zero, Flag::Ok));
    assert!(merged.markdown().contains("| ALPHA | 0 | 3 | 0 | 0 | zero |"), "{}", merged.markdown());
}

#[test]
fn malformed_results_are_refused_naming_the_entry() {
    let plan = Plan::new(&params(1), &names(&["ALPHA", "BETA"]), 2, BOTH, false).unwrap();
    let full = [(0, 0, 0, 5), (0, 1, 0, 6)];
    assert!(read(&results(&full), "ok.json", &plan).is_ok());
    let named = r#"{"results": [{"run": 0, "core": 0, "counter": 0, "count": 5, "event": "alpha"}, {"run": 0, "core": 1, "counter": 0, "count": 6}]}"#;
    assert!(read(named, "ok.json", &plan).is_ok(), "event names match without regard to case, as on the command line");
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "ok.json: not JSON"),
        ("[1, 2]".into(), "ok.json: the file is not a JSON object"),
        (r#"{"counts": []}"#.into(), "ok.json: unknown key 'counts' (allowed: format, results)"),
        (r#"{"format": "pmugen-results/1"}"#.into(), "ok.json: no 'results' array"),
        (r#"{"results": [{"run": 0, "core": 0, "counter": 0}]}"#.into(), "ok.json: results[0]: missing field `count`"),
        (
            r#"{"results": [{"run": 0, "core": 0, "counter": 0, "count": 18446744073709551616}]}"#.into(),
            "ok.json: results[0]: invalid type: floating point",
        ),
        (results(&full[..1]), "no result for run 0 core 1 counter 0 (BETA)"),
        (results(&[(0, 0, 0, 5), (0, 1, 1, 6)]), "counter 1 is not read on core 1 in run 0 (counters read there: 0)"),
        (results(&[(0, 0, 0, 5), (0, 1, 0, 6), (0, 2, 0, 1)]), "run 0 uses no core 2 (cores: 0, 1)"),
        (results(&[(0, 0, 0, 5), (0, 1, 0, 6), (1, 0, 0, 1)]), "the plan has no run 1 (runs: 0)"),
        (
            results(&[(0, 0, 0, 5), (0, 1, 0, 6), (0, 1, 0, 7)]),
            "results[2] (run 0, core 1, counter 0): a second result for the counter of results[1]",
        ),
        (results(&[(0, 0, 0, 1 << 24), (0, 1, 0, 6)]), "count 16777216 does not fit a 24-bit counter"),
        (
            r#"{"results": [{"run": 0, "core": 0, "counter": 0, "count": 5, "event": "BETA"}]}"#.into(),
            "names event 'BETA' but the plan has that counter count 'ALPHA'",
        ),
        (r#"{"format": "v0", "results": []}"#.into(), "format is 'v0'"),
        (
            r#"{"results": [{"run": 0, "core": 0, "counter": -1, "count": 5}]}"#.into(),
            "ok.json: results[0]: invalid value: integer `-1`",
        ),
        (
            r#"{"results": [{"run": 0, "core": 0, "counter": 0, "count": 5, "value": 1}]}"#.into(),
            "ok.json: results[0]: unknown field `value`",
        ),
    ];
    for (text, message) in cases {
        let error = read(&text, "ok.json", &plan).unwrap_err().to_string();
        assert!(error.contains(message), "expected `{message}` in: {error}");
    }
}
