//! A small bench that drives any monitor engine through the SPEC A.4 ports.
// Each test binary includes this module and uses a different part of it.
#![allow(dead_code, unused_imports)]

use pmugen::design;
use pmugen_hdl::params::MonitorParams;
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
        Bench::new(design::monitor(params).native()),
        Bench::new(Box::new(ReferenceMonitor::new(events, order_width))),
    ]
}

/// Run `engines` in lockstep with the reference model and panic at the first
/// difference with the command that reproduces it (`engine` is its `--engine` value).
pub fn assert_lockstep(
    events: usize,
    order_width: usize,
    engines: &mut [Box<MonitorEngine>],
    cycles: u64,
    seed: u64,
    engine: &str,
) {
    let params = MonitorParams::new(events as u64, order_width as u64).expect("valid parameters");
    println!("N={events} W={order_width}: {cycles} cycles, seed {seed}, engine {engine}");
    let summary = pmugen::simulate::lockstep(params, engines, cycles, seed);
    if let Some(m) = &summary.mismatch {
        panic!(
            "N={events} W={order_width} seed {seed}: cycle {} {} differs {:?}; reproduce with \
             `cargo run --release -- simulate monitor --events {events} --order-width {order_width} --cycles {} --seed {seed} --engine {engine}`",
            m.cycle,
            m.signal,
            m.values,
            m.cycle + 1
        );
    }
    assert_eq!(summary.cycles, cycles);
    // The stimulus must exercise matching and the serial output, or the run proves little.
    assert!(summary.matched_cycles > cycles / 100, "only {} matched cycles", summary.matched_cycles);
    assert!(summary.frames > 0, "no serial frame completed");
}
