//! The cocotb bench (sim/cocotb/) on freshly generated bus-wrapped designs: the
//! monitor (N = 8, W = 3) and the default PMU, each with its AXI4-Lite and its Wishbone
//! slave, and the default PMU behind its 32-bit slaves, driven by cocotbext-axi's
//! AxiLiteMaster and cocotbext-wishbone's WishboneMaster under Icarus Verilog; and the
//! copyable example
//! sim/cocotb/example_monitor_axil.py. Every expected cocotb test must have run and
//! passed, as the results XML of sim/cocotb/run.py records.

use crate::common::cli::{pmugen, scratch, venv};
use std::path::Path;
use std::process::Command;

const MONITOR_TESTS: &[&str] = &[
    "test_identification",
    "test_worked_example",
    "test_unlisted_address_and_read_only_register",
    "test_misaligned_address",
    "test_partial_strobes",
];
const PMU_TESTS: &[&str] = &["test_identification", "test_counts_by_ring", "test_denied_accesses"];
const PMU32_TESTS: &[&str] = &[
    "test_a_running_counter_reads_whole_across_the_carry",
    "test_the_high_word_is_the_one_the_low_read_saw",
    "test_writes_take_the_held_high_word",
];
const EXAMPLE_TESTS: &[&str] = &["example_worked_example_counts_two"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `pmugen generate <args> --out dir`, which must succeed.
fn generate(dir: &Path, args: &[&str]) {
    let mut args = args.to_vec();
    let out = dir.to_string_lossy().into_owned();
    args.extend(["--out", &out]);
    let (ok, text) = pmugen(&args);
    assert!(ok, "pmugen {} failed:\n{text}", args.join(" "));
}

/// What a cocotb results XML says of each test case, in order: (name, outcome) with
/// outcome "passed", "failed" or "skipped".
fn outcomes(xml: &str) -> Vec<(String, &'static str)> {
    xml.split("<testcase ")
        .skip(1)
        .map(|case| {
            let name = case.split("name=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap_or("?");
            let outcome = if case.contains("<failure") || case.contains("<error") {
                "failed"
            } else if case.contains("<skipped") {
                "skipped"
            } else {
                "passed"
            };
            (name.to_string(), outcome)
        })
        .collect()
}

/// Run test module `module` of sim/cocotb on `dir/<top>.v` with sim/cocotb/run.py and
/// assert that exactly the tests `expected` ran and passed.
fn run_cocotb(dir: &Path, top: &str, module: &str, expected: &[&str]) {
    let verilog = dir.join(format!("{top}.v"));
    assert!(verilog.exists(), "pmugen did not write {}", verilog.display());
    let results = dir.join(format!("{top}.{module}.results.xml"));
    // One build directory per design and test module: the tests run in parallel, and
    // two Icarus builds of one design in one directory would overwrite each other.
    let build = dir.join(format!("build-{top}-{module}"));
    let output = Command::new(venv("python"))
        .arg(root().join("sim/cocotb/run.py"))
        .arg(&verilog)
        .args([top, module, "--build-dir"])
        .arg(&build)
        .arg("--results")
        .arg(&results)
        .current_dir(root())
        .output()
        .unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    // The whole log is long (the AXI master logs every transaction): its end has the
    // failing assertion and cocotb's summary table.
    let tail: Vec<&str> = log.lines().rev().take(120).collect();
    let tail = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
    let xml = std::fs::read_to_string(&results)
        .unwrap_or_else(|error| panic!("no results {} ({error}); run.py said:\n{tail}", results.display()));
    let outcomes = outcomes(&xml);
    let names: Vec<&str> = outcomes.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, expected, "{module} on {top}: these tests ran; run.py said:\n{tail}");
    let bad: Vec<_> = outcomes.iter().filter(|(_, outcome)| *outcome != "passed").collect();
    assert!(bad.is_empty(), "{module} on {top}: {bad:?}; run.py said:\n{tail}");
    assert!(output.status.success(), "run.py exited with {} although every test passed:\n{tail}", output.status);
    println!("{module} on {top}: {} tests passed", outcomes.len());
}

#[test]
fn the_monitor_passes_the_cocotb_bench_on_both_buses() {
    let dir = scratch("cocotb-monitor");
    for (bus, suffix) in [("axi4lite", "axil"), ("wishbone", "wb")] {
        generate(&dir, &["generate", "monitor", "--events", "8", "--order-width", "3", "--bus", bus]);
        run_cocotb(&dir, &format!("event_order_monitor_n8_w3_{suffix}"), "test_monitor_bus", MONITOR_TESTS);
    }
}

#[test]
fn the_pmu_passes_the_cocotb_bench_on_both_buses() {
    let dir = scratch("cocotb-pmu");
    // The bench wires the event inputs from pmu_knc_t4_k2_c40_inputs.json, which a
    // --bus generation writes beside the wrapped Verilog.
    for (bus, suffix) in [("axi4lite", "axil"), ("wishbone", "wb")] {
        generate(&dir, &["generate", "pmu", "--bus", bus]);
        run_cocotb(&dir, &format!("pmu_knc_t4_k2_c40_{suffix}"), "test_pmu_bus", PMU_TESTS);
    }
}

#[test]
fn the_pmu_behind_32_bit_slaves_reads_and_writes_64_bit_registers_as_two_words() {
    let dir = scratch("cocotb-pmu32");
    for (bus, suffix) in [("axi4lite", "axil32"), ("wishbone", "wb32")] {
        generate(&dir, &["generate", "pmu", "--bus", bus, "--bus-width", "32"]);
        run_cocotb(&dir, &format!("pmu_knc_t4_k2_c40_{suffix}"), "test_pmu_bus32", PMU32_TESTS);
    }
}

#[test]
fn the_copyable_axi4lite_example_counts_the_worked_example_twice() {
    let dir = scratch("cocotb-example");
    generate(&dir, &["generate", "monitor", "--events", "8", "--order-width", "3", "--bus", "axi4lite"]);
    run_cocotb(&dir, "event_order_monitor_n8_w3_axil", "example_monitor_axil", EXAMPLE_TESTS);
}

#[test]
fn results_are_read_per_test_case() {
    let xml = r#"<testsuites name="results"><testsuite name="all" package="all">
        <testcase name="a" classname="m" time="0.1" />
        <testcase name="b" classname="m" time="0.1"><failure message="x" /></testcase>
        <testcase name="c" classname="m" time="0"><skipped /></testcase>
        </testsuite></testsuites>"#;
    assert_eq!(outcomes(xml), [("a".to_string(), "passed"), ("b".to_string(), "failed"), ("c".to_string(), "skipped")]);
}
