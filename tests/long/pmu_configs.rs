//! Every PMU configuration generates, with exactly the documented ports and every
//! module named after the top (T in 1..=4, K in 1..=4, CW in 16..=64, the default
//! table: 784 designs), and a covering subset lints clean with Verilator -Wall and
//! passes yosys `hierarchy -check; proc; check -assert`: every (T, K) at CW = 16, 33
//! and 64, plus a seeded random sample. `scripts/check-configs.sh` lints and checks
//! all 784 (about ten minutes on two cores). Trace depth D and address width AW: their
//! corners and a seeded sample, each with its own top name, lint and yosys check.
use pmugen::design::pmu::PmuDesign;
use pmugen::design::Design;
use pmugen_hdl::emit::module_names;
use pmugen_hdl::emit::module_ports as top_ports;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::tools::{verilator_lint, yosys_check};
use rand::{Rng, SeedableRng};

/// The ports of the docs' port table for (T, K) with the default table (TEW 50, CEW 19),
/// AW = 32.
fn expected_ports(threads: usize) -> Vec<(String, bool, usize)> {
    [
        ("clock", true, 1),
        ("reset", true, 1),
        ("events", true, threads * 50),
        ("core_events", true, 19),
        ("kernel", true, threads),
        ("pm_mark", true, threads),
        ("bb_end", true, threads),
        ("bb_addr", true, threads * 32),
        ("pid", true, threads * 32),
        ("pmi", false, threads),
        ("reg_thread", true, 2),
        ("reg_priv", true, 1),
        ("reg_addr", true, 8),
        ("reg_wdata", true, 64),
        ("reg_write", true, 1),
        ("reg_read", true, 1),
        ("reg_rdata", false, 64),
        ("reg_fault", false, 1),
        ("trace_data", false, 64),
        ("trace_valid", false, 1),
        ("trace_ready", true, 1),
        ("trace_last", false, 1),
    ]
    .into_iter()
    .map(|(name, input, width)| (name.to_string(), input, width))
    .collect()
}

fn verilog(threads: usize, counters: usize, counter_width: usize) -> (String, String) {
    let design = PmuDesign::new(PmuParams::with_default_table(threads, counters, counter_width));
    (design.top_name(), design.verilog().unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn all_784_configurations_generate_with_the_documented_ports() {
    let configurations: Vec<(usize, usize, usize)> =
        (1..=4).flat_map(|t| (1..=4).flat_map(move |k| (16..=64).map(move |cw| (t, k, cw)))).collect();
    assert_eq!(configurations.len(), 784);
    // Two workers: generation is pure Rust.
    let (first, second) = configurations.split_at(configurations.len() / 2);
    std::thread::scope(|scope| {
        for half in [first, second] {
            scope.spawn(move || {
                for &(t, k, cw) in half {
                    let (top, text) = verilog(t, k, cw);
                    assert_eq!(top, format!("pmu_knc_t{t}_k{k}_c{cw}"));
                    assert_eq!(top_ports(&text, &top).unwrap(), expected_ports(t), "{top}");
                    for module in module_names(&text) {
                        assert!(module.starts_with(&top), "module {module} does not start with {top}");
                    }
                    // The top, the input stage, ANY sums, decoder, TSC, register port and the trace unit's
                    // control, record and queue, three blocks per counter (select, sampler, counter) and
                    // two per thread (controls).
                    assert_eq!(module_names(&text).len(), 9 + 3 * t * k + 2 * t, "{top}: one module per block");
                }
            });
        }
    });
}

#[test]
fn a_covering_subset_lints_clean_and_passes_yosys() {
    let seed = 0x5eed_c0f1;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut configurations: Vec<(usize, usize, usize)> =
        (1..=4).flat_map(|t| (1..=4).flat_map(move |k| [16, 33, 64].map(move |cw| (t, k, cw)))).collect();
    configurations.extend((0..8).map(|_| (rng.gen_range(1..=4), rng.gen_range(1..=4), rng.gen_range(16..=64))));
    let (first, second) = configurations.split_at(configurations.len() / 2);
    std::thread::scope(|scope| {
        for half in [first, second] {
            scope.spawn(move || {
                for &(t, k, cw) in half {
                    let (top, text) = verilog(t, k, cw);
                    verilator_lint(&text, &top).unwrap_or_else(|e| panic!("{e}"));
                    yosys_check(&text, &top).unwrap_or_else(|e| panic!("{e}"));
                }
            });
        }
    });
}

#[test]
fn trace_depth_and_address_width_lint_clean_and_pass_yosys() {
    let seed = 0x5eed_da77;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut configurations = vec![(1, 1, 16, 2, 16), (4, 4, 64, 1024, 48), (2, 3, 40, 4, 47), (3, 2, 17, 128, 33)];
    configurations.extend((0..4).map(|_| {
        let (t, k, cw) = (rng.gen_range(1..=4), rng.gen_range(1..=4), rng.gen_range(16..=64));
        (t, k, cw, 1usize << rng.gen_range(1..=10), rng.gen_range(16..=48))
    }));
    for (t, k, cw, d, aw) in configurations {
        let params = PmuParams::with_default_table(t, k, cw).with_trace(d as u64, aw as u64).unwrap();
        let design = PmuDesign::new(params);
        let (top, text) = (design.top_name(), design.verilog().unwrap_or_else(|e| panic!("{e}")));
        let expected = if (d, aw) == (256, 32) {
            format!("pmu_knc_t{t}_k{k}_c{cw}")
        } else {
            format!("pmu_knc_t{t}_k{k}_c{cw}_d{d}_a{aw}")
        };
        assert_eq!(top, expected);
        let ports = top_ports(&text, &top).unwrap();
        let width = |name: &str| ports.iter().find(|(port, _, _)| port == name).map(|(_, _, width)| *width);
        assert_eq!((width("bb_addr"), width("pid"), width("bb_end")), (Some(t * aw), Some(t * 32), Some(t)), "{top}");
        verilator_lint(&text, &top).unwrap_or_else(|e| panic!("{e}"));
        yosys_check(&text, &top).unwrap_or_else(|e| panic!("{e}"));
    }
}
