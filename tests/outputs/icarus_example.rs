//! The example Icarus testbench (`examples/icarus/tb_count_instructions.v`, written
//! from the docs alone) runs on freshly generated Verilog of the default PMU with real
//! Icarus Verilog and passes: ring-3 INSTRUCTIONS_EXECUTED counted and read back.
use pmugen::design::pmu::PmuDesign;
use pmugen::design::Design;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::tools::run_tool;

#[test]
fn the_icarus_example_counts_ring_3_instructions() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("icarus-example");
    let _ = std::fs::remove_dir_all(&dir);
    let design = PmuDesign::new(PmuParams::with_default_table(4, 2, 40));
    pmugen::generate::write(&design, pmugen_hdl::bus::Bus::Bare, false, &dir).unwrap();
    let testbench = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/icarus/tb_count_instructions.v");
    let (testbench, verilog) = (testbench.to_string_lossy().into_owned(), format!("{}.v", design.top_name()));
    let (ok, log) = run_tool("iverilog", &["-g2005", "-Wall", "-o", "tb.vvp", &testbench, &verilog], &dir).unwrap();
    assert!(ok, "iverilog failed:\n{log}");
    assert!(!log.contains("warning"), "iverilog -Wall warns:\n{log}");
    let (ok, log) = run_tool("vvp", &["-n", "tb.vvp"], &dir).unwrap();
    assert!(ok, "vvp failed:\n{log}");
    assert!(log.contains("PASS: thread 0 counter 0 counted") && !log.contains("FAIL"), "{log}");
}
