//! The monitor's build options (docs/monitor.md §6, §7.1): `--matcher compact` and
//! `--no-serial` change the structure, never the cycle behaviour. Each option's
//! generated Verilog (Verilator), the native model and the reference model run one
//! seeded stimulus in lockstep, every output, `reg_rdata` included, agreeing in every
//! cycle: the compact matcher, whose comparators depend on W, at (N, W) = (2, 2), (8, 3),
//! (16, 4) and the widest orders, W = 8, at N = 12; the frame left out, which changes no
//! comparator, at (2, 2), (8, 3), (16, 5). N = 32 itself is the default build's corner
//! (tests/long/cosim.rs): neither option adds logic whose width grows with N past 16.

use pmugen::design;
use pmugen_hdl::params::{Matcher, MonitorOptions, MonitorParams, SerialOutput};

/// (N, W, cycles) of the compact matcher.
const COMPACT: [(u64, u64, u64); 4] = [(2, 2, 60_000), (8, 3, 100_000), (16, 4, 40_000), (12, 8, 20_000)];

/// (N, W, cycles) without the frame.
const NO_SERIAL: [(u64, u64, u64); 3] = [(2, 2, 60_000), (8, 3, 100_000), (16, 5, 20_000)];

fn lockstep(params: MonitorParams, cycles: u64, seed: u64) {
    let design = design::monitor(params);
    let mut engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
    crate::common::assert_monitor_lockstep(params, &mut engines, cycles, seed, "all");
}

fn run(options: MonitorOptions, configurations: &[(u64, u64, u64)], seed: u64) {
    for &(events, order_width, cycles) in configurations {
        let params = MonitorParams::new(events, order_width).unwrap().with(options);
        lockstep(params, cycles, seed + events * 16 + order_width);
    }
}

#[test]
fn compact_matcher_in_lockstep() {
    run(MonitorOptions { matcher: Matcher::Compact, serial: SerialOutput::Frame }, &COMPACT, 0xC1_0000);
}

#[test]
fn without_serial_frame_in_lockstep() {
    run(MonitorOptions { matcher: Matcher::Patent, serial: SerialOutput::Absent }, &NO_SERIAL, 0xC2_0000);
}

#[test]
fn compact_without_serial_frame_in_lockstep() {
    // One configuration of the combination: the two options touch different blocks.
    let params = MonitorParams::new(8, 3)
        .unwrap()
        .with(MonitorOptions { matcher: Matcher::Compact, serial: SerialOutput::Absent });
    lockstep(params, 100_000, 0xC3_0803);
}
