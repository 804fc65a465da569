//! A design's reference model behind the reference adapter, as the `_rvfi` tops put
//! the adapter in front of the design (docs/soc.md §1): in each cycle the adapter's
//! outputs (what it derived from the retirements of the cycle before) are the design's
//! event-side inputs; a cycle with `reset` drops its retirements.
use crate::ports::monitor::{MonitorInputs, MonitorOutputs};
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};
use crate::ports::rvfi::WithRvfi;
use crate::ports::Engine;
use crate::reference::rvfi::{AdapterOutputs, Core, Event, KernelRule, ReferenceAdapter, Xlen};
use crate::reference::{ReferenceMonitor, ReferencePmu};

/// How the adapter's outputs drive a design's inputs.
type Drive<I> = Box<dyn Fn(&AdapterOutputs, &mut I)>;

/// The reference adapter in front of a design's reference model.
pub struct BehindRvfi<I, O> {
    adapter: ReferenceAdapter,
    design: Box<dyn Engine<I, O>>,
    drive: Drive<I>,
    reset: fn(&I) -> bool,
}

impl BehindRvfi<PmuInputs, PmuOutputs> {
    /// The PMU of `config`, whose table's every event is a RISC-V event, behind the
    /// adapter of its T harts of `core` (AW from the configuration).
    pub fn pmu(config: PmuConfig, xlen: Xlen, rule: KernelRule, core: Core) -> Self {
        let table: Vec<Event> = config
            .events
            .iter()
            .map(|e| Event::from_name(&e.name).unwrap_or_else(|| panic!("{} is not a RISC-V event", e.name)))
            .collect();
        let adapter = ReferenceAdapter::for_core(config.threads, xlen, rule, core, config.address_width as u32);
        Self {
            adapter,
            design: Box::new(ReferencePmu::new(config)),
            drive: Box::new(move |outputs, inputs| outputs.drive_pmu_inputs(&table, inputs)),
            reset: |inputs| inputs.reset,
        }
    }
}

impl BehindRvfi<MonitorInputs, MonitorOutputs> {
    /// The monitor `design` behind the adapter of one hart of `core`: event line k is
    /// `chosen[k]` (the kernel rule is the mode rule: the monitor does not use it).
    pub fn monitor(design: ReferenceMonitor, chosen: Vec<Event>, xlen: Xlen, core: Core) -> Self {
        Self {
            adapter: ReferenceAdapter::for_core(1, xlen, KernelRule::Mode, core, 16),
            design: Box::new(design),
            drive: Box::new(move |outputs, inputs| {
                let events = outputs.harts[0].events;
                inputs.events =
                    chosen.iter().enumerate().fold(0, |lines, (k, e)| lines | (events.contains(*e) as u32) << k);
            }),
            reset: |inputs| inputs.reset,
        }
    }
}

impl<I: Clone, O> Engine<WithRvfi<I>, O> for BehindRvfi<I, O> {
    fn name(&self) -> &'static str {
        "reference"
    }

    fn step(&mut self, cycle: &WithRvfi<I>) -> O {
        let mut inputs = cycle.inputs.clone();
        (self.drive)(&self.adapter.step(&cycle.retirements), &mut inputs);
        if (self.reset)(&inputs) {
            self.adapter.reset();
        }
        self.design.step(&inputs)
    }
}
