//! The docs/monitor.md §7 budget through the real report flow (yosys + nextpnr-ice40) for
//! N = 4, 8, 16, 32: the report succeeds and shows the exact formula counts (N = 16
//! without synthesis and placement).
use pmugen::design::pmu::PmuDesign;
use pmugen::report::{
    self,
    family::{Family, HX8K, UP5K},
};
use pmugen_hdl::params::{Matcher, MonitorOptions, MonitorParams, SerialOutput};
use pmugen_hdl::pmu::params::PmuParams;
use std::path::PathBuf;

/// The read-data flip-flops: one per bit that a register other than COUNT can set
/// (COUNT is ORed in after them; the other bits are constant 0 and removed), plus the
/// COUNT-read flag (docs/monitor.md §7.2). Also how many of them only ID sets: they
/// all load "ID is addressed", so synth_ice40 keeps one of them.
fn read_data_flip_flops(events: usize, order_width: usize) -> (usize, usize) {
    use pmugen_hdl::monitor::regmap;
    let mut fields = 0;
    let others = regmap::REGISTERS
        .iter()
        .filter(|r| r.access.reads() && ![regmap::ID.name, regmap::COUNT.name].contains(&r.name));
    for register in others {
        fields |= register.fields.iter().map(|f| regmap::mask(f, events, order_width)).fold(0, |a, b| a | b);
    }
    let id = regmap::id_value(events, order_width);
    ((id | fields).count_ones() as usize + 1, (id & !fields).count_ones() as usize)
}

/// The budget of the N-event monitor, with synthesis and placement when `place`.
fn check(events: usize, order_width: usize, place: bool) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-{}", params.top_name()));
    // Seed 1 only: nothing below reads the best of the report's three seeds.
    let options =
        report::Options { place, seeds: Some(vec![1]), devices: Some(vec![HX8K.short]), ..Default::default() };
    let report = report::run_with(&params, &out, &options).unwrap_or_else(|e| panic!("{e:#}"));
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
    let (read_data, id_only) = read_data_flip_flops(n, order_width);
    assert_eq!(report.flip_flops["read-data register"], read_data);
    assert_eq!(report.flip_flops["registered pair select"], n * (n - 1), "a_first and b_first per pair");
    assert_eq!(report.flip_flops["clear flags"], 2);
    assert!(report.statements.iter().any(|s| s.contains("every item of the budget is kept")));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&format!("| context record flip-flops | N*(N-1) | {0} | {0} | ok |", n * (n - 1))));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["budget"][2]["actual"], n * (n - 1) / 2, "comparators in report.json");
    if !place {
        return;
    }
    let ice40 = report.family(Family::Ice40).unwrap();
    assert_eq!(
        ice40.synthesis.flip_flops as usize,
        report.total_flip_flops - id_only.saturating_sub(1),
        "synth_ice40 keeps every flip-flop but merges the {id_only} identical read-data bits of ID"
    );
    let hx8k = report.placement(&HX8K);
    assert!(hx8k.logic_cells.is_some(), "nextpnr packed the design");
    if hx8k.fits {
        assert!(hx8k.fmax_mhz.unwrap() > 20.0, "Fmax {:?}", hx8k.fmax_mhz);
    } else {
        assert!(hx8k.note.as_deref().unwrap().contains("does not fit"));
    }
}

#[test]
fn n4() {
    check(4, 3, true);
}

#[test]
fn n8() {
    check(8, 3, true);
}

/// Budget only: N = 8 and N = 32 place, on either side of it.
#[test]
fn n16() {
    check(16, 4, false);
}

#[test]
fn n32_does_not_fit_an_hx8k_but_meets_the_budget() {
    check(32, 5, true);
}

/// The compact matcher (docs/monitor.md §7.1): its own budget lines, counted in the
/// coarse netlist, and the report's sentence on what it keeps.
fn check_compact(events: usize, order_width: usize, serial: SerialOutput) {
    let options = MonitorOptions { matcher: Matcher::Compact, serial };
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap().with(options);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-{}", params.top_name()));
    let only_budget = report::Options { place: false, fmax: false, ..Default::default() };
    let report = report::run_with(&params, &out, &only_budget).unwrap_or_else(|e| panic!("{e:#}"));
    let n = events;
    let lines: Vec<(&str, usize)> = report.budget.iter().map(|l| (l.item.as_str(), l.actual)).collect();
    assert_eq!(
        lines,
        vec![
            ("context record flip-flops", n * (n - 1)),
            ("order register flip-flops", order_width * n),
            ("order comparators (written value against each field)", 2 * n),
            ("order requirement flip-flops", n * (n - 1)),
            ("pair comparators", 0),
            ("pair multiplexers", 0),
        ]
    );
    assert_eq!(report.flip_flops["registered pair select"], 0);
    let serial_bits = if serial == SerialOutput::Frame {
        n * (n - 1) + 32 + 1 + 1 + (usize::BITS - (n * (n - 1) + 31).leading_zeros()) as usize
    } else {
        0
    };
    assert_eq!(report.flip_flops["serial shifter"], serial_bits);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("keeps the context record (N*(N-1) flip-flops) and the order register (W*N flip-flops)")
            && md.contains("does not keep the N*(N-1)/2 order comparators and N*(N-1)/2 pair multiplexers"),
        "{md}"
    );
    assert!(md.contains("--matcher = compact") || md.contains("matcher = compact"), "{md}");
}

#[test]
fn compact_matcher_budget_at_4_8_16_32() {
    for (n, w) in [(4, 3), (8, 3), (16, 4), (32, 5)] {
        check_compact(n, w, SerialOutput::Frame);
    }
    check_compact(8, 3, SerialOutput::Absent);
}

#[test]
fn no_serial_keeps_the_default_budget_without_a_shifter() {
    let params = MonitorParams::new(8, 3)
        .unwrap()
        .with(MonitorOptions { matcher: Matcher::Patent, serial: SerialOutput::Absent });
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-{}", params.top_name()));
    let report = report::run_with(&params, &out, &report::Options { place: false, fmax: false, ..Default::default() })
        .unwrap_or_else(|e| panic!("{e:#}"));
    let lines: Vec<(&str, usize, usize)> =
        report.budget.iter().map(|l| (l.item.as_str(), l.expected, l.actual)).collect();
    assert!(lines.iter().all(|(_, expected, actual)| expected == actual), "{lines:?}");
    assert_eq!(lines.len(), 4);
    assert_eq!(report.flip_flops["serial shifter"], 0);
    assert_eq!(report.flip_flops["registered pair select"], 56);
    assert!(report.statements.iter().any(|s| s.contains("--no-serial")));
}

/// The PMU budget of docs/pmu.md §8 through the real report flow: the exact counts of
/// the six fixed groups, every other flip-flop in a named group.
fn check_pmu(threads: usize, counters: usize, counter_width: usize, place: bool) -> report::Report {
    let design = PmuDesign::new(PmuParams::with_default_table(threads, counters, counter_width));
    let out =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("budget-pmu-t{threads}-k{counters}-c{counter_width}"));
    let options = report::Options { place, ..Default::default() };
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
    let ram_bits =
        report.notes.iter().find(|(note, _)| note.starts_with("trace queue RAM bits")).map(|(_, bits)| *bits);
    let increment_bits = design.params.count_width();
    assert_eq!(ram_bits, Some(256 * (32 + 35 + counters * (counter_width + increment_bits))), "{:?}", report.notes);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains(&format!("| general counters | T*K*CW | {0} | {0} | ok |", tk * cw)), "{md}");
    report
}

#[test]
fn pmu_report_places_on_both_devices() {
    // The smallest PMU, tracing included: it fits both devices, so both placements and
    // both pin harnesses run. The default's own placement (the longest of the report
    // flow) is what scripts/regenerate.sh commits as generated/pmu_knc_t4_k2_c40.report.md.
    let report = check_pmu(1, 1, 16, true);
    let ice40 = report.family(Family::Ice40).unwrap();
    assert_eq!(ice40.synthesis.flip_flops as usize, report.total_flip_flops, "synth_ice40 keeps every flip-flop");
    for device in [&HX8K, &UP5K] {
        let placement = report.placement(device);
        assert!(placement.fits && placement.timed_in_harness, "{}: {placement:?}", device.name);
        assert!(placement.fmax_mhz.unwrap() > 10.0, "{}: Fmax {:?}", device.name, placement.fmax_mhz);
        // A logic cell holds one LUT4, one flip-flop and one carry: packing takes at least
        // as many cells as the larger count and at most one per LUT, flip-flop and carry.
        let s = &ice40.synthesis;
        let cells = placement.logic_cells.unwrap();
        assert!(cells >= s.luts.max(s.flip_flops) && cells <= s.luts + s.flip_flops + s.carries, "{s:?}: {cells}");
    }
    // The trace queue's records are in block RAM, and no other part of the PMU has any.
    let ram = ice40.synthesis.ram_blocks;
    assert!(ram >= 1, "the trace queue is in block RAM: {ram} SB_RAM40_4K");
    let queue = &ice40.parts["trace queue"];
    assert_eq!(queue.ram_blocks, ram, "all RAM is the trace queue's");
    assert!(ice40.parts.contains_key("trace control") && ice40.parts.contains_key("trace record"));
}

#[test]
fn pmu_budget_t4_k4_c48() {
    check_pmu(4, 4, 48, false);
}

/// `--no-fmax` places without routing: the same fit and packed logic as the timed
/// placement, one seed, and no Fmax (docs/report.md §2).
#[test]
fn an_untimed_placement_packs_the_same_logic_without_an_fmax() {
    let params = MonitorParams::new(4, 3).unwrap();
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("budget-untimed");
    let run = |fmax: bool| {
        let options =
            report::Options { fmax, seeds: Some(vec![1, 2]), devices: Some(vec![HX8K.short]), ..Default::default() };
        let out = base.join(if fmax { "timed" } else { "untimed" });
        (report::run_with(&params, &out, &options).unwrap_or_else(|e| panic!("{e:#}")), out)
    };
    let ((timed, _), (untimed, out)) = (run(true), run(false));
    let (t, u) = (timed.placement(&HX8K), untimed.placement(&HX8K));
    assert!(t.fits && u.fits, "{t:?}\n{u:?}");
    assert_eq!(u.logic_cells, t.logic_cells, "the same packing");
    assert!(t.fmax_mhz.is_some() && u.fmax_mhz.is_none(), "{t:?}\n{u:?}");
    assert_eq!((t.fmax_by_seed.len(), u.fmax_by_seed.len()), (2, 1), "the second seed is for Fmax only");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("placed without routing (--no-fmax): no Fmax"), "{md}");
}
