//! Verilator co-simulation: the reference model, the native rust-hdl model and the
//! generated Verilog compiled with Verilator run one stimulus in lockstep; every
//! output (including `reg_rdata` while reads sweep all registers) must agree.
//! Here the long runs: 1,000,000 cycles at N = 8 and the N = 32 corners; the other
//! corners and the waveform are in tests/designs/cosim.rs.

use crate::common::monitor_cosim;

#[test]
fn n8_w3_1m_cycles() {
    monitor_cosim(8, 3, 1_000_000, 0xC0_0803);
}

#[test]
fn n32_w5_100k_cycles() {
    monitor_cosim(32, 5, 100_000, 0xC0_3205);
}

#[test]
fn n32_w8_100k_cycles() {
    monitor_cosim(32, 8, 100_000, 0xC0_3208);
}
