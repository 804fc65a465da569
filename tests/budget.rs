//! SPEC A.7 budget through the real report flow (yosys + nextpnr-ice40) for
//! N = 4, 8, 16, 32: the report succeeds and shows the exact formula counts.
use pmugen::report::{self, ice40::HX8K};
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
