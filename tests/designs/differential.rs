//! Random differential runs: the native rust-hdl model against the reference model
//! on seeded stimulus, every output compared every cycle. Seeds are fixed and
//! printed; a failure prints the command that reproduces it.

use pmugen::design;
use pmugen::simulate;
use pmugen_hdl::params::MonitorParams;
use pmugen_sim::ports::{Engine, MonitorEngine, MonitorInputs, MonitorOutputs};

fn run(events: usize, order_width: usize, cycles: u64, seed: u64) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    crate::common::assert_monitor_lockstep(params, &mut [design::monitor(params).native(None)], cycles, seed, "native");
}

#[test]
fn n8_w3_200k_cycles() {
    run(8, 3, 200_000, 0x0803);
}

#[test]
fn n2_w2_50k_cycles() {
    run(2, 2, 50_000, 0x0202);
}

#[test]
fn n5_w2_50k_cycles() {
    run(5, 2, 50_000, 0x0502);
}

#[test]
fn n13_w4_50k_cycles() {
    run(13, 4, 50_000, 0x1304);
}

#[test]
fn n32_w5_50k_cycles() {
    run(32, 5, 50_000, 0x3205);
}

#[test]
fn n32_w8_50k_cycles() {
    run(32, 8, 50_000, 0x3208);
}

/// An engine that flips `matched` at one cycle: the comparison must catch it.
struct Faulty {
    inner: Box<MonitorEngine>,
    cycle: u64,
    flip_at: u64,
}

impl Engine<MonitorInputs, MonitorOutputs> for Faulty {
    fn name(&self) -> &'static str {
        "faulty"
    }
    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        let mut out = self.inner.step(inputs);
        if self.cycle == self.flip_at {
            out.matched = !out.matched;
        }
        self.cycle += 1;
        out
    }
}

#[test]
fn lockstep_reports_the_first_difference() {
    let params = MonitorParams::new(4, 2).unwrap();
    let mut engines: Vec<Box<MonitorEngine>> =
        vec![Box::new(Faulty { inner: design::monitor(params).native(None), cycle: 0, flip_at: 777 })];
    let summary = simulate::lockstep(design::monitor(params).as_ref(), &mut engines, 5_000, 9);
    let mismatch = summary.mismatch.expect("the flipped bit is reported");
    assert_eq!((mismatch.cycle, mismatch.signal), (777, "matched"));
    assert_eq!(mismatch.values.len(), 2);
    assert_ne!(mismatch.values[0].1, mismatch.values[1].1);
}
