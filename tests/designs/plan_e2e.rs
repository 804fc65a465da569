//! Batch plans run end to end (docs/pmu.md §14.6): C simulated PMUs fed one known
//! workload, programmed and read back through their register ports by the plan's
//! accesses, the counts written as RESULTS, read back, merged, and compared with the
//! workload's true counts. Every PMU runs the reference model in lockstep with the
//! native model (and, in one test, the Verilator model of the generated Verilog).
use pmugen::design::pmu::PmuDesign;
use pmugen::plan::merge::{merge, Merge};
use pmugen::plan::results::read;
use pmugen::plan::simulate::{check, run, CheckRow, Options};
use pmugen::plan::{assign::Placement, assign::Regime, Modes, Plan};
use pmugen::simulate::EngineChoice;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;

const SEED: u64 = 11;
const BOTH: Modes = Modes { usr: true, os: true, all_threads: false };

struct Outcome {
    plan: Plan,
    merge: Merge,
    rows: Vec<CheckRow>,
}

fn names(list: &str) -> Vec<String> {
    list.split(',').map(str::to_string).collect()
}

fn end_to_end(
    params: &PmuParams,
    events: &str,
    cores: usize,
    modes: Modes,
    stuck_core: Option<usize>,
    engine: EngineChoice,
) -> Outcome {
    println!("workload seed {SEED}");
    let plan = Plan::new(params, &names(events), cores, modes, true).unwrap();
    let design = PmuDesign::new(params.clone());
    let options = Options { cycles: 400, seed: SEED, engine, stuck_core };
    let outcome = run(&design, &plan, &options, &mut |_| ()).unwrap();
    let counts = read(&outcome.results.to_json(), "results.json", &plan).unwrap();
    let merge = merge(&plan, &counts, 1);
    let rows = check(&merge, &outcome.truth, stuck_core);
    for row in &rows {
        assert!(row.truth > 0, "{}: the workload never raises it; the test would prove nothing", row.event);
    }
    Outcome { plan, merge, rows }
}

fn assert_true_counts(outcome: &Outcome) {
    for row in &outcome.rows {
        assert_eq!(row.merged, row.truth, "{}: merged count against the workload", row.event);
    }
}

fn default_pmu(threads: usize) -> PmuParams {
    PmuParams::with_default_table(threads, 2, 32)
}

const THREE: &str = "CPU_CLK_UNHALTED,BRANCHES,DATA_READ";
const FIVE: &str = "CPU_CLK_UNHALTED,BRANCHES,DATA_READ,DATA_WRITE,L2_READ_MISS";

#[test]
fn each_regime_merges_to_the_true_counts() {
    let params = default_pmu(2);
    for (events, cores, regime, runs) in [
        (THREE, 9, Regime::Triplicate, 1),
        (THREE, 11, Regime::Triplicate, 1),
        (THREE, 5, Regime::Spread, 1),
        (FIVE, 3, Regime::Packed, 1),
        (FIVE, 1, Regime::Packed, 3),
    ] {
        let outcome = end_to_end(&params, events, cores, BOTH, None, EngineChoice::Native);
        assert_eq!(outcome.plan.runs.len(), runs, "{events} on {cores} cores");
        assert_eq!(outcome.plan.runs[0].regime, regime, "{events} on {cores} cores");
        assert_true_counts(&outcome);
    }
}

/// Counter-restricted events: the greedy order fails and the matching places them.
#[test]
fn a_matched_plan_merges_to_the_true_counts_on_verilator_too() {
    let table = EventTable::from_json(
        r#"[{"EventName": "ALPHA", "EventCode": "0x10", "UMask": "0x01"},
            {"EventName": "BETA", "EventCode": "0x11", "UMask": "0x00", "Scope": "core", "PerCycleMax": "3"},
            {"EventName": "GAMMA", "EventCode": "0x12", "UMask": "0x02", "Counter": "0"},
            {"EventName": "DELTA", "EventCode": "0x13", "UMask": "0x00", "Counter": "1", "PerCycleMax": "5"}]"#,
        "planned.json",
        "planned",
        2,
    )
    .unwrap();
    let params = PmuParams::new(1, 2, 24, table).unwrap();
    let outcome = end_to_end(&params, "ALPHA,BETA,GAMMA,DELTA", 2, BOTH, None, EngineChoice::All);
    assert_eq!(outcome.plan.runs[0].placement, Placement::Matching);
    assert_true_counts(&outcome);
}

#[test]
fn with_one_core_stuck_at_zero_three_replicas_still_give_the_true_counts() {
    let params = default_pmu(1);
    for stuck in 0..9 {
        let outcome = end_to_end(&params, THREE, 9, BOTH, Some(stuck), EngineChoice::Native);
        assert_true_counts(&outcome);
        let hit = outcome.merge.events.iter().find(|e| e.replicas.iter().any(|r| r.core == stuck)).unwrap();
        assert_eq!(hit.min, 0, "the stuck core counted {} as 0", hit.event);
        assert_eq!(hit.spread, hit.count, "so its spread is its whole count");
    }
}

#[test]
fn a_stuck_core_loses_the_events_it_alone_counted() {
    // Four events on five cores: event 0 on cores 0 and 4, the others once.
    let outcome = end_to_end(
        &default_pmu(1),
        "CPU_CLK_UNHALTED,BRANCHES,DATA_READ,DATA_WRITE",
        5,
        BOTH,
        Some(1),
        EngineChoice::Native,
    );
    let rows = &outcome.rows;
    assert!(rows.iter().all(|r| r.expected), "{rows:?}");
    assert_eq!((rows[1].merged, rows[1].healthy_replicas), (0, 0), "BRANCHES only on the stuck core");
    for row in [&rows[0], &rows[2], &rows[3]] {
        assert_eq!(row.merged, row.truth);
    }
}

#[test]
fn rings_and_any_change_what_is_counted_and_the_merge_follows() {
    let params = default_pmu(2);
    let mut totals = Vec::new();
    for modes in [
        Modes { usr: true, os: false, all_threads: false },
        Modes { usr: false, os: true, all_threads: false },
        Modes { usr: true, os: true, all_threads: true },
    ] {
        let outcome = end_to_end(&params, "BRANCHES,L2_READ_MISS", 6, modes, None, EngineChoice::Native);
        assert_true_counts(&outcome);
        totals.push(outcome.rows.iter().map(|r| r.truth).collect::<Vec<_>>());
    }
    assert!(totals[0] != totals[1] && totals[1] != totals[2], "the modes must count differently: {totals:?}");
}
