//! The docs/monitor.md §7 budget through the real report flow (yosys + nextpnr-ice40) for
//! N = 4, 8, 16, 32: the report succeeds and shows the exact formula counts.
use pmugen::design::pmu::PmuDesign;
use pmugen::report::{self, ice40::{HX8K, UP5K}};
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_hdl::params::MonitorParams;
use std::path::PathBuf;

fn check(events: usize, order_width: usize) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-{}", params.top_name()));
    let report = report::run(&params, &out).unwrap_or_else(|e| panic!("{e:#}"));
    let n = events;
    let lines: Vec<(&str, usize)> = report.budget.iter().map(|l| (l.item.as_str(), l.actual)).collect();
    assert_eq!(
        lines,
        vec![
            ("context record flip-flops", n * (n - 1)),
            ("order register flip-flops", order_width * n),
            ("order comparators", n * (n - 1) / 2),
            ("pair multiplexers", n * (n - 1) / 2),
        ]
    );
    // Every flip-flop is in a named group, and the groups add up.
    assert_eq!(report.flip_flops.values().sum::<usize>(), report.total_flip_flops);
    assert_eq!(report.flip_flops["event register"], n);
    assert_eq!(report.flip_flops["edge-detector history"], n + 8);
    assert_eq!(report.flip_flops["read-data register"], 32);
    assert_eq!(report.synthesis.dff as usize, report.total_flip_flops, "synth_ice40 keeps every flip-flop");
    let hx8k = report.placement(&HX8K);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&format!("| context record flip-flops | N*(N-1) | {0} | {0} | ok |", n * (n - 1))));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["budget"][2]["actual"], n * (n - 1) / 2, "comparators in report.json");
    assert!(hx8k.logic_cells.is_some(), "nextpnr packed the design");
    if hx8k.fits {
        assert!(hx8k.fmax_mhz.unwrap() > 20.0, "Fmax {:?}", hx8k.fmax_mhz);
    } else {
        assert!(hx8k.note.as_deref().unwrap().contains("does not fit"));
    }
}

#[test]
fn n4() {
    check(4, 3);
}

#[test]
fn n8() {
    check(8, 3);
}

#[test]
fn n16() {
    check(16, 4);
}

#[test]
fn n32_does_not_fit_an_hx8k_but_meets_the_budget() {
    check(32, 5);
}

#[test]
fn sweep_writes_table_json_and_plot_with_formula_curves() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sweep-w2");
    let points = report::sweep::run(&[2, 3, 5], 2, &out).unwrap_or_else(|e| panic!("{e:#}"));
    let events: Vec<usize> = points.iter().map(|p| p.events).collect();
    assert_eq!(events, vec![2, 3, 5]);
    for p in &points {
        assert_eq!((p.record, p.order), (p.events * (p.events - 1), 2 * p.events));
        assert!(p.fmax_mhz.is_some(), "N={} fits an HX8K", p.events);
    }
    assert!(points.windows(2).all(|w| w[0].lut4 < w[1].lut4), "LUTs grow with N");
    let md = std::fs::read_to_string(out.join("sweep.md")).unwrap();
    assert!(md.contains("| 5 | ") && md.contains("| 20 | 10 |"), "{md}");
    let svg = std::fs::read_to_string(out.join("sweep.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("N*(N-1)") && svg.contains("W*N") && svg.contains("Fmax"));
    assert_eq!(svg.matches("<polyline").count(), 7, "6 resource curves and the Fmax curve");
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 3);
}

/// The PMU budget of docs/pmu.md §8 through the real report flow: the exact counts of
/// the six fixed groups, every other flip-flop in a named group.
fn check_pmu(threads: usize, counters: usize, counter_width: usize, place: bool) -> report::Report {
    let design = PmuDesign::new(PmuParams::with_default_table(threads, counters, counter_width));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-pmu-t{threads}-k{counters}-c{counter_width}"));
    let options = report::Options { place, fmax: true };
    let report = report::run_with(&design, &out, &options).unwrap_or_else(|e| panic!("{e:#}"));
    let (tk, cw) = (threads * counters, counter_width);
    let lines: Vec<(&str, usize)> = report.budget.iter().map(|l| (l.item.as_str(), l.actual)).collect();
    assert_eq!(
        lines,
        vec![
            ("general counters", tk * cw),
            ("event selects", tk * 31),
            ("TSC", 64),
            ("shadows", tk * cw),
            ("global control", tk),
            ("overflow status", tk),
        ]
    );
    assert_eq!(report.flip_flops.values().sum::<usize>(), report.total_flip_flops);
    assert_eq!(report.flip_flops["read data and fault"], 65);
    assert_eq!(report.flip_flops["previous condition"], tk);
    assert_eq!(report.flip_flops["previous kernel mode"], threads);
    // The trace unit (§13): its registers, and its queue in RAM rather than flip-flops.
    assert_eq!(report.flip_flops["dropped counter"], 32);
    assert_eq!(report.flip_flops["last pid"], 33);
    assert_eq!(report.flip_flops["queue pointers"], 3 * 8 + 1, "D = 256");
    assert_eq!(report.flip_flops["input stage (trace)"], 1 + 32 + 32);
    let ram_bits = report.notes.iter().find(|(note, _)| note.starts_with("trace queue RAM bits")).map(|(_, bits)| *bits);
    let increment_bits = design.params.count_width();
    assert_eq!(ram_bits, Some(256 * (32 + 35 + counters * (counter_width + increment_bits))), "{:?}", report.notes);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&format!("| general counters | T*K*CW | {0} | {0} | ok |", tk * cw)), "{md}");
    report
}

#[test]
fn pmu_default_report_places_on_both_devices() {
    let report = check_pmu(4, 2, 40, true);
    assert_eq!(report.synthesis.dff as usize, report.total_flip_flops, "synth_ice40 keeps every flip-flop");
    let (hx8k, up5k) = (report.placement(&HX8K), report.placement(&UP5K));
    assert!(hx8k.fits && hx8k.timed_in_harness, "the default fits the HX8K and is timed in the pin harness");
    assert!(hx8k.fmax_mhz.unwrap() > 30.0, "Fmax {:?}", hx8k.fmax_mhz);
    assert!(hx8k.logic_cells.unwrap() > 1000 && up5k.logic_cells.is_some());
    // 256 entries of 161 bits: at least eleven 256x16 block RAMs, none in the rest of the PMU.
    assert!(report.synthesis.ram >= 11, "the trace queue is in block RAM: {} SB_RAM40_4K", report.synthesis.ram);
    let queue = &report.parts["trace queue"];
    assert_eq!(queue.ram, report.synthesis.ram, "all RAM is the trace queue's");
    assert!(report.parts.contains_key("trace control") && report.parts.contains_key("trace record"));
    if !up5k.fits {
        assert!(up5k.note.as_deref().unwrap().contains("does not fit"), "{:?}", up5k.note);
    }
}

#[test]
fn pmu_budget_t1_k2_c40() {
    check_pmu(1, 2, 40, false);
}

#[test]
fn pmu_budget_t4_k4_c48() {
    check_pmu(4, 4, 48, false);
}
