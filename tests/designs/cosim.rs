//! Verilator co-simulation: the reference model, the native rust-hdl model and the
//! generated Verilog compiled with Verilator run one stimulus in lockstep; every
//! output (including `reg_rdata` while reads sweep all registers) must agree.
//! Here the short runs and the waveform; the 1,000,000-cycle run and the N = 32
//! corners are in tests/long/cosim.rs.

use crate::common::monitor_cosim;
use pmugen::design;
use pmugen::simulate;
use pmugen_hdl::params::MonitorParams;

#[test]
fn n2_w2_100k_cycles() {
    monitor_cosim(2, 2, 100_000, 0xC0_0202);
}

#[test]
fn n5_w2_100k_cycles() {
    monitor_cosim(5, 2, 100_000, 0xC0_0502);
}

#[test]
fn n16_w4_100k_cycles() {
    monitor_cosim(16, 4, 100_000, 0xC0_1604);
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
