//! A small bench that drives any monitor engine through the docs/monitor.md §4 ports.
// Each test binary includes this module and uses a different part of it.
#![allow(dead_code, unused_imports)]

pub mod cli;
pub mod pmu;
pub mod rvfi;

use std::fmt::Debug;

use pmugen::design::{self, Design};
use pmugen::simulate::RunSummary;
use pmugen_hdl::params::{MonitorParams, SerialOutput};
use pmugen_sim::ports::{Engine, MonitorEngine, MonitorInputs, MonitorOutputs, Signals};
use pmugen_sim::reference::ReferenceMonitor;

pub use pmugen_sim::reference::monitor::{addr, cmd, ctrl};

/// One engine with the inputs it sees and the outputs of its last edge.
pub struct Bench {
    engine: Box<MonitorEngine>,
    /// Inputs applied at the next edge; `reg_write` and `reset` fall after each edge.
    pub inputs: MonitorInputs,
    /// Outputs after the last edge.
    pub out: MonitorOutputs,
    /// Edges so far.
    pub cycle: u64,
}

impl Bench {
    pub fn new(engine: Box<MonitorEngine>) -> Self {
        Self { engine, inputs: MonitorInputs::default(), out: MonitorOutputs::default(), cycle: 0 }
    }

    pub fn name(&self) -> &'static str {
        self.engine.name()
    }

    /// One rising edge with the current inputs.
    pub fn step(&mut self) -> MonitorOutputs {
        self.out = self.engine.step(&self.inputs);
        self.inputs.reg_write = false;
        self.inputs.reset = false;
        self.cycle += 1;
        self.out
    }

    pub fn steps(&mut self, count: usize) {
        for _ in 0..count {
            self.step();
        }
    }

    /// A register write at the next edge.
    pub fn write(&mut self, address: u8, data: u32) -> MonitorOutputs {
        self.inputs.reg_write = true;
        self.inputs.reg_addr = address;
        self.inputs.reg_wdata = data;
        self.step()
    }

    /// The value of register `address` during the next cycle (read data is registered).
    pub fn read(&mut self, address: u8) -> u32 {
        self.inputs.reg_addr = address;
        self.step().reg_rdata
    }

    /// Raise event `e` (its line stays high until [`Bench::lower`]).
    pub fn raise(&mut self, e: usize) -> MonitorOutputs {
        self.inputs.events |= 1 << e;
        self.step()
    }

    pub fn lower(&mut self, e: usize) -> MonitorOutputs {
        self.inputs.events &= !(1 << e);
        self.step()
    }

    /// One occurrence of event `e`: a rising edge then the line falls again.
    /// Returns the outputs after the occurrence's edge.
    pub fn occur(&mut self, e: usize) -> MonitorOutputs {
        let out = self.raise(e);
        self.lower(e);
        out
    }

    pub fn before(&mut self, m: usize) -> u32 {
        self.read(addr::BEFORE + m as u8)
    }

    pub fn count(&mut self) -> u32 {
        self.read(addr::COUNT)
    }

    pub fn set_orders(&mut self, orders: &[(usize, u32)]) {
        for &(e, order) in orders {
            self.write(addr::ORDER + e as u8, order);
        }
    }

    pub fn reset(&mut self) -> MonitorOutputs {
        self.inputs = MonitorInputs { reset: true, ..Default::default() };
        self.step()
    }
}

/// The native rust-hdl model and the reference model of one configuration.
pub fn benches(events: usize, order_width: usize) -> Vec<Bench> {
    let params = MonitorParams::new(events as u64, order_width as u64).expect("valid parameters");
    vec![
        Bench::new(design::monitor(params).native(None)),
        Bench::new(Box::new(ReferenceMonitor::new(events, order_width))),
    ]
}

/// Run `engines` in lockstep with the design's reference model and panic at the
/// first difference with the command that reproduces it (`engine` is its `--engine`
/// value). Returns the run's summary for coverage checks.
pub fn assert_lockstep<I: Clone + Debug, O: Signals + Clone>(
    design: &dyn Design<I, O>,
    engines: &mut [Box<dyn Engine<I, O>>],
    cycles: u64,
    seed: u64,
    engine: &str,
) -> RunSummary<I> {
    println!("{}: {cycles} cycles, seed {seed}, engine {engine}", design.top_name());
    let summary = pmugen::simulate::lockstep(design, engines, cycles, seed);
    if let Some(m) = &summary.mismatch {
        panic!(
            "{} seed {seed}: cycle {} {} differs {:?}; inputs {:?}; reproduce with \
             `cargo run --release -- simulate {} --cycles {} --seed {seed} --engine {engine}`",
            design.top_name(),
            m.cycle,
            m.signal,
            m.values,
            m.inputs,
            design.arguments(),
            m.cycle + 1
        );
    }
    assert_eq!(summary.cycles, cycles);
    summary
}

/// [`assert_lockstep`] for the monitor, which must also match and send frames, or
/// the run proves little.
pub fn assert_monitor_lockstep(
    params: MonitorParams,
    engines: &mut [Box<MonitorEngine>],
    cycles: u64,
    seed: u64,
    engine: &str,
) {
    let summary = assert_lockstep(design::monitor(params).as_ref(), engines, cycles, seed, engine);
    assert!(summary.active("matched") > cycles / 100, "only {} matched cycles", summary.active("matched"));
    match params.options.serial {
        SerialOutput::Frame => assert!(summary.active("ser_last") > 0, "no serial frame completed"),
        SerialOutput::Absent => {
            assert_eq!(summary.active("ser_valid"), 0, "a monitor without the serial frame sent one")
        }
    }
}

/// The monitor at (`events`, `order_width`): its native model and its Verilog under
/// Verilator in lockstep with the reference model for `cycles` cycles of the stimulus
/// of `seed` ([`assert_monitor_lockstep`]).
pub fn monitor_cosim(events: usize, order_width: usize, cycles: u64, seed: u64) {
    let params = MonitorParams::new(events as u64, order_width as u64).unwrap();
    let design = design::monitor(params);
    let mut engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
    assert_monitor_lockstep(params, &mut engines, cycles, seed, "all");
}
