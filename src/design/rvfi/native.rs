//! The `_rvfi` tops as native engines: the retirements on the RVFI ports, the design's
//! other inputs on its own ports.
use rust_hdl::prelude::*;

use pmugen_hdl::rvfi::monitor_top::RvfiMonitor;
use pmugen_hdl::rvfi::pmu_top::RvfiPmu;
use pmugen_hdl::word::Word;
use pmugen_sim::ports::pmu::{PmuInputs, PmuOutputs};
use pmugen_sim::ports::rvfi::{pack_rvfi, WithRvfi};
use pmugen_sim::ports::{MonitorInputs, MonitorOutputs};

use super::reference_xlen;
use crate::native::NativeTop;

impl NativeTop for RvfiPmu {
    type Inputs = WithRvfi<PmuInputs>;
    type Outputs = PmuOutputs;
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn apply(&mut self, cycle: &WithRvfi<PmuInputs>) {
        let inputs = &cycle.inputs;
        self.rvfi.drive(&pack_rvfi(&cycle.retirements, reference_xlen(self.rvfi.xlen())), false);
        self.reset.next = inputs.reset;
        self.pm_mark.set(inputs.pm_mark as u64);
        for t in 0..self.pm_mark.width() {
            self.pid.set_field(t * 32, 32, inputs.pid[t] as u64);
        }
        crate::drive_pmu_register_port!(self, inputs);
    }
    fn outputs(&self) -> PmuOutputs {
        crate::pmu_outputs!(self)
    }
}

impl NativeTop for RvfiMonitor {
    type Inputs = WithRvfi<MonitorInputs>;
    type Outputs = MonitorOutputs;
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn apply(&mut self, cycle: &WithRvfi<MonitorInputs>) {
        let inputs = &cycle.inputs;
        self.rvfi.drive(&pack_rvfi(&cycle.retirements, reference_xlen(self.rvfi.xlen())), false);
        self.reset.next = inputs.reset;
        self.start.next = Word::new(self.start.width(), inputs.start as u64);
        self.stop.next = Word::new(self.stop.width(), inputs.stop as u64);
        crate::drive_monitor_register_port!(self, inputs);
    }
    fn outputs(&self) -> MonitorOutputs {
        crate::monitor_outputs!(self)
    }
}
