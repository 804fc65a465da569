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
        self.trace_ready.next = inputs.trace_ready;
        self.reg_thread.next = ((inputs.reg_thread & 3) as u64).to_bits();
        self.reg_priv.next = inputs.reg_priv;
        self.reg_addr.next = (inputs.reg_addr as u64).to_bits();
        self.reg_wdata.set(inputs.reg_wdata);
        self.reg_write.next = inputs.reg_write;
        self.reg_read.next = inputs.reg_read;
    }
    fn outputs(&self) -> PmuOutputs {
        PmuOutputs {
            pmi: self.pmi.get() as u8,
            reg_rdata: self.reg_rdata.get(),
            reg_fault: self.reg_fault.val(),
            trace_data: self.trace_data.get(),
            trace_valid: self.trace_valid.val(),
            trace_last: self.trace_last.val(),
        }
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
        self.reg_addr.next = (inputs.reg_addr as u64).to_bits();
        self.reg_wdata.next = (inputs.reg_wdata as u64).to_bits();
        self.reg_write.next = inputs.reg_write;
    }
    fn outputs(&self) -> MonitorOutputs {
        MonitorOutputs {
            reg_rdata: self.reg_rdata.val().index() as u32,
            matched: self.matched.val(),
            window: self.window.val(),
            ser_data: self.ser_data.val(),
            ser_valid: self.ser_valid.val(),
            ser_last: self.ser_last.val(),
        }
    }
}
