//! Verilator co-simulation: the reference model, the native rust-hdl model and the
//! generated Verilog compiled with Verilator run one stimulus in lockstep; every
//! output (including `reg_rdata` while reads sweep all registers) must agree.
mod common;

use pmugen::design;
use pmugen::simulate;
use pmugen_hdl::params::MonitorParams;

fn run(events: usize, order_width: usize, cycles: u64, seed: u64) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    let design = design::monitor(params);
    let mut engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
    common::assert_monitor_lockstep(params, &mut engines, cycles, seed, "all");
}

#[test]
fn n8_w3_1m_cycles() {
    run(8, 3, 1_000_000, 0xC0_0803);
}

#[test]
fn n2_w2_100k_cycles() {
    run(2, 2, 100_000, 0xC0_0202);
}

#[test]
fn n5_w2_100k_cycles() {
    run(5, 2, 100_000, 0xC0_0502);
}

#[test]
fn n16_w4_100k_cycles() {
    run(16, 4, 100_000, 0xC0_1604);
}

#[test]
fn n32_w5_100k_cycles() {
    run(32, 5, 100_000, 0xC0_3205);
}

#[test]
fn n32_w8_100k_cycles() {
    run(32, 8, 100_000, 0xC0_3208);
}

#[test]
fn verilator_writes_a_waveform_of_the_generated_design() {
    let params = MonitorParams::new(4, 2).unwrap();
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cosim-n4-w2.vcd");
    let _ = std::fs::remove_file(&path);
    {
        let mut engines = vec![design::monitor(params).verilator(Some(&path)).unwrap()];
        let summary = simulate::lockstep(design::monitor(params).as_ref(), &mut engines, 500, 3);
        assert!(summary.mismatch.is_none());
    }
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$scope module event_order_monitor_n4_w2 $end"), "top scope in the VCD");
    assert!(
        vcd.contains(" reg_rdata ") && vcd.contains("\n#4995\n"),
        "signals and 1000 half-cycles (5 time units each)"
    );
}
