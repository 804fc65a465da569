//! A bench that drives the PMU's reference model, its native rust-hdl model and its
//! generated Verilog under Verilator with the same inputs, and checks after every
//! edge that all three show the same outputs. Tests script it through the ports:
//! events by name, kernel and pm_mark per thread, register reads and writes.
#![allow(dead_code)]

use pmugen::design::pmu::PmuDesign;
use pmugen::design::Design;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_hdl::pmu::params::PmuParams;
use pmugen_sim::ports::pmu::{PmuConfig, PmuEngine, PmuInputs, PmuOutputs};
use pmugen_sim::ports::Engine;
use pmugen_sim::reference::pmu::layout::set_event;
use pmugen_sim::reference::ReferencePmu;

pub use pmugen_sim::reference::pmu::{addr, evtsel};

/// Reference, native and Verilator in lockstep.
pub struct PmuBench {
    /// The configuration.
    pub config: PmuConfig,
    reference: ReferencePmu,
    engines: Vec<Box<PmuEngine>>,
    /// Inputs applied at the next edge; `reg_write`, `reg_read` and `reset` fall after each edge.
    pub inputs: PmuInputs,
    /// Outputs after the last edge (all engines agree).
    pub out: PmuOutputs,
    /// Edges so far.
    pub cycle: u64,
    /// Every trace word that moved (trace_valid and trace_ready at an edge): (data, last).
    pub trace_words: Vec<(u64, bool)>,
}

impl PmuBench {
    /// A bench for `params` with all three engines.
    pub fn new(params: PmuParams) -> Self {
        let design = PmuDesign::new(params);
        let engines = vec![design.native(None), design.verilator(None).unwrap_or_else(|e| panic!("{e}"))];
        Self::with_engines(&design, engines)
    }

    /// A bench for `params` with the reference and the native model only.
    pub fn native_only(params: PmuParams) -> Self {
        let design = PmuDesign::new(params);
        let engines = vec![design.native(None)];
        Self::with_engines(&design, engines)
    }

    fn with_engines(design: &PmuDesign, engines: Vec<Box<PmuEngine>>) -> Self {
        let config = design.params.port_config();
        Self {
            reference: ReferencePmu::new(config.clone()),
            config,
            engines,
            inputs: PmuInputs::default(),
            out: PmuOutputs::default(),
            cycle: 0,
            trace_words: Vec::new(),
        }
    }

    /// The default table at (T, K, CW).
    pub fn default_table(threads: usize, counters: usize, counter_width: usize) -> Self {
        Self::new(PmuParams::with_default_table(threads, counters, counter_width))
    }

    /// A custom table (JSON text) at (T, K, CW).
    pub fn with_table(json: &str, stem: &str, threads: usize, counters: usize, counter_width: usize) -> Self {
        let table =
            EventTable::from_json(json, &format!("{stem}.json"), stem, counters).unwrap_or_else(|e| panic!("{e}"));
        Self::new(PmuParams::new(threads as u64, counters as u64, counter_width as u64, table).unwrap())
    }

    /// The reference model (for inspecting its state).
    pub fn reference(&self) -> &ReferencePmu {
        &self.reference
    }

    /// One rising edge with the current inputs; panics if the engines disagree.
    pub fn step(&mut self) -> PmuOutputs {
        if self.out.trace_valid && self.inputs.trace_ready && !self.inputs.reset {
            self.trace_words.push((self.out.trace_data, self.out.trace_last));
        }
        let expected = self.reference.step(&self.inputs);
        for engine in &mut self.engines {
            let actual = engine.step(&self.inputs);
            assert_eq!(
                actual,
                expected,
                "cycle {}: {} differs from the reference; inputs {:?}",
                self.cycle,
                engine.name(),
                self.inputs
            );
        }
        self.out = expected;
        self.inputs.reg_write = false;
        self.inputs.reg_read = false;
        self.inputs.reset = false;
        self.cycle += 1;
        expected
    }

    /// `count` edges.
    pub fn steps(&mut self, count: usize) {
        for _ in 0..count {
            self.step();
        }
    }

    /// Reset at the next edge.
    pub fn reset(&mut self) -> PmuOutputs {
        self.inputs.reset = true;
        self.step()
    }

    /// A write at the next edge from `thread` at privilege `privileged`; returns
    /// whether it faulted (`reg_fault` after the edge).
    pub fn write_as(&mut self, thread: u8, privileged: bool, address: u8, data: u64) -> bool {
        self.inputs.reg_thread = thread;
        self.inputs.reg_priv = privileged;
        self.inputs.reg_addr = address;
        self.inputs.reg_wdata = data;
        self.inputs.reg_write = true;
        self.step().reg_fault
    }

    /// A ring-0 write at the next edge; panics if it faulted.
    pub fn write(&mut self, thread: u8, address: u8, data: u64) {
        assert!(!self.write_as(thread, true, address, data), "ring-0 write of {address:#04x} faulted");
    }

    /// A read during the next cycle: (read data, fault).
    pub fn read_as(&mut self, thread: u8, privileged: bool, address: u8) -> (u64, bool) {
        self.inputs.reg_thread = thread;
        self.inputs.reg_priv = privileged;
        self.inputs.reg_addr = address;
        self.inputs.reg_read = true;
        let out = self.step();
        (out.reg_rdata, out.reg_fault)
    }

    /// A ring-0 read; panics if it faulted.
    pub fn read(&mut self, thread: u8, address: u8) -> u64 {
        let (value, fault) = self.read_as(thread, true, address);
        assert!(!fault, "ring-0 read of {address:#04x} faulted");
        value
    }

    /// The table position of event `name`.
    pub fn event(&self, name: &str) -> usize {
        self.config.events.iter().position(|e| e.name == name).unwrap_or_else(|| panic!("no event {name}"))
    }

    /// Drive event `name`'s field of `thread` (ignored for core events) to `value`
    /// from the next edge on, until changed.
    pub fn set_event(&mut self, name: &str, thread: usize, value: u64) {
        let event = self.event(name);
        set_event(&mut self.inputs, &self.config, event, thread, value);
    }

    /// All event fields to 0.
    pub fn clear_events(&mut self) {
        self.inputs.events.iter_mut().for_each(|w| *w = 0);
        self.inputs.core_events.iter_mut().for_each(|w| *w = 0);
    }

    /// `kernel[thread]`.
    pub fn set_kernel(&mut self, thread: usize, kernel: bool) {
        self.inputs.kernel = self.inputs.kernel & !(1 << thread) | (kernel as u8) << thread;
    }

    /// `pm_mark[thread]`.
    pub fn set_mark(&mut self, thread: usize, marked: bool) {
        self.inputs.pm_mark = self.inputs.pm_mark & !(1 << thread) | (marked as u8) << thread;
    }

    /// The EVTSEL value counting `name` with the given flag bits (from [`evtsel`]).
    pub fn select(&self, name: &str, flags: u64) -> u64 {
        let event = &self.config.events[self.event(name)];
        (event.umask as u64) << 8 | event.code as u64 | flags
    }

    /// Program counter `index` of `thread`: EVTSEL, clear the counter, enable it globally.
    pub fn program(&mut self, thread: u8, index: u8, evtsel_value: u64) {
        self.write(thread, addr::PERF_EVTSEL + index, evtsel_value);
        self.write(thread, addr::PERF_CNTR + index, 0);
        let enables = self.read(thread, addr::PERF_GLOBAL_CTRL);
        self.write(thread, addr::PERF_GLOBAL_CTRL, enables | 1 << index);
    }

    /// Counter `index` of `thread` through the register port (ring 0).
    pub fn counter(&mut self, thread: u8, index: u8) -> u64 {
        self.read(thread, addr::PERF_CNTR + index)
    }
}
