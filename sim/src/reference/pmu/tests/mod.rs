//! Tests of the PMU reference model: the specification's worked examples (§10), §4's
//! counting rules, the §6 privilege table, §7's same-edge precedence, tracing (docs/pmu.md
//! part D) and the profile table (docs/pmu.md §15), all with exact values. Shared here: the §2.4 table and a bench that holds
//! the event-side inputs, drives the register port one cycle at a time and collects the
//! trace words that move.
mod conditions;
mod figures;
mod fixtures;
mod input_layout;
mod precedence;
mod privilege;
mod profile;
mod random;
mod register_fields;
mod scope;
mod trace;

use super::ReferencePmu;
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};

pub(super) use fixtures::{custom_config, event_index, knc_config, knc_events, select};

/// A PMU with held event-side inputs: each method is one cycle (one edge).
pub(super) struct Bench {
    pub(super) pmu: ReferencePmu,
    /// The event-side inputs (events, core_events, kernel, pm_mark, bb_end, bb_addr,
    /// pid) and trace_ready as presented in the coming cycles.
    pub(super) inputs: PmuInputs,
    /// The outputs during the current cycle.
    outputs: PmuOutputs,
    /// The trace words that moved so far (docs/pmu.md §13.5: valid during a cycle and ready
    /// sampled at its edge), with their trace_last.
    moved: Vec<(u64, bool)>,
}

impl Bench {
    pub(super) fn new(config: PmuConfig) -> Self {
        Self {
            pmu: ReferencePmu::new(config),
            inputs: PmuInputs::default(),
            outputs: PmuOutputs::default(),
            moved: Vec::new(),
        }
    }

    fn config(&self) -> PmuConfig {
        self.pmu.config().clone()
    }

    /// One cycle with the held event inputs and the register port fields of `port`.
    pub(super) fn cycle_with(&mut self, port: impl FnOnce(&mut PmuInputs)) -> PmuOutputs {
        let mut inputs = self.inputs.clone();
        port(&mut inputs);
        if self.outputs.trace_valid && inputs.trace_ready && !inputs.reset {
            self.moved.push((self.outputs.trace_data, self.outputs.trace_last));
        }
        self.outputs = self.pmu.step(&inputs);
        self.outputs
    }

    /// The records whose last word has moved so far, oldest first, as their words.
    pub(super) fn sent_records(&self) -> Vec<Vec<u64>> {
        let mut records = vec![];
        let mut record = vec![];
        for &(word, last) in &self.moved {
            record.push(word);
            if last {
                records.push(std::mem::take(&mut record));
            }
        }
        records
    }

    /// One cycle with no register access.
    pub(super) fn tick(&mut self) -> PmuOutputs {
        self.cycle_with(|_| {})
    }

    /// One cycle writing `value` to `address` of bank `thread` in ring 0.
    pub(super) fn write(&mut self, thread: usize, address: u8, value: u64) -> PmuOutputs {
        let outputs = self.cycle_with(|inputs| {
            inputs.reg_thread = thread as u8;
            inputs.reg_priv = true;
            inputs.reg_addr = address;
            inputs.reg_wdata = value;
            inputs.reg_write = true;
        });
        assert!(!outputs.reg_fault, "ring-0 write of {address:#04x} faulted");
        outputs
    }

    /// One cycle reading `address` of bank `thread` in ring 0: the value during it.
    pub(super) fn read(&mut self, thread: usize, address: u8) -> u64 {
        let outputs = self.cycle_with(|inputs| {
            inputs.reg_thread = thread as u8;
            inputs.reg_priv = true;
            inputs.reg_addr = address;
            inputs.reg_read = true;
        });
        assert!(!outputs.reg_fault, "ring-0 read of {address:#04x} faulted");
        outputs.reg_rdata
    }

    /// Hold table event `event`'s field of `thread` at `value` from the next cycle on.
    pub(super) fn set_event(&mut self, event: usize, thread: usize, value: u64) {
        let config = self.config();
        super::set_event(&mut self.inputs, &config, event, thread, value);
    }

    /// No events from the next cycle on.
    pub(super) fn clear_events(&mut self) {
        self.inputs.events.clear();
        self.inputs.core_events.clear();
    }

    /// Hold thread `thread`'s `kernel` bit from the next cycle on.
    pub(super) fn set_kernel(&mut self, thread: usize, kernel: bool) {
        self.inputs.kernel = self.inputs.kernel & !(1 << thread) | (kernel as u8) << thread;
    }

    /// Hold thread `thread`'s `pm_mark` bit from the next cycle on.
    pub(super) fn set_pm_mark(&mut self, thread: usize, marked: bool) {
        self.inputs.pm_mark = self.inputs.pm_mark & !(1 << thread) | (marked as u8) << thread;
    }
}
