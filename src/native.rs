//! The rust-hdl model as a simulation engine: a direct loop (set inputs, settle,
//! clock edge, settle), no testbench threads. Any top that says how its ports map
//! to a design's inputs and outputs ([`NativeTop`]) runs here. Each top evaluates its
//! blocks' Rust twins once per cycle in signal order (the designs' `schedule.rs`), so a
//! cycle costs two delta cycles of the top's own ports.
use rust_hdl::prelude::*;
use std::fs::File;
use std::io::BufWriter;

use pmugen_hdl::monitor::top::EventOrderMonitor;
use pmugen_hdl::pmu::top::Pmu;
use pmugen_hdl::top_ports::{PortsView, TopPorts};
use pmugen_hdl::word::Word;
use pmugen_sim::ports::pmu::{PmuInputs, PmuOutputs};
use pmugen_sim::ports::{Engine, MonitorInputs, MonitorOutputs};

/// The PMU's register port and `trace_ready`, driven the same way on the bare and the
/// `_rvfi` top (src/design/rvfi/native.rs), whose other inputs differ.
#[macro_export]
macro_rules! drive_pmu_register_port {
    ($top:expr, $inputs:expr) => {{
        $top.trace_ready.next = $inputs.trace_ready;
        $top.reg_thread.next = (($inputs.reg_thread & 3) as u64).to_bits();
        $top.reg_priv.next = $inputs.reg_priv;
        $top.reg_addr.next = ($inputs.reg_addr as u64).to_bits();
        $top.reg_wdata.set($inputs.reg_wdata);
        $top.reg_write.next = $inputs.reg_write;
        $top.reg_read.next = $inputs.reg_read;
    }};
}

/// The PMU's outputs of `$top`, the bare or the `_rvfi` top.
#[macro_export]
macro_rules! pmu_outputs {
    ($top:expr) => {
        pmugen_sim::ports::pmu::PmuOutputs {
            pmi: $top.pmi.get() as u8,
            reg_rdata: $top.reg_rdata.get(),
            reg_fault: $top.reg_fault.val(),
            trace_data: $top.trace_data.get(),
            trace_valid: $top.trace_valid.val(),
            trace_last: $top.trace_last.val(),
        }
    };
}

/// The monitor's register port, driven the same way on the bare and the `_rvfi` top.
#[macro_export]
macro_rules! drive_monitor_register_port {
    ($top:expr, $inputs:expr) => {{
        $top.reg_addr.next = ($inputs.reg_addr as u64).to_bits();
        $top.reg_wdata.next = ($inputs.reg_wdata as u64).to_bits();
        $top.reg_write.next = $inputs.reg_write;
    }};
}

/// The monitor's outputs of `$top`, the bare or the `_rvfi` top.
#[macro_export]
macro_rules! monitor_outputs {
    ($top:expr) => {
        pmugen_sim::ports::MonitorOutputs {
            reg_rdata: $top.reg_rdata.val().index() as u32,
            matched: $top.matched.val(),
            window: $top.window.val(),
            ser_data: $top.ser_data.val(),
            ser_valid: $top.ser_valid.val(),
            ser_last: $top.ser_last.val(),
        }
    };
}

/// Delta cycles allowed for the design to settle after an input change.
const MAX_DELTAS: usize = 200;

/// A generated top as the engines see it: its clock, and its ports as plain values.
pub trait NativeTop: Block + TopPorts {
    /// The design's inputs.
    type Inputs;
    /// The design's outputs.
    type Outputs;
    /// The `clock` port.
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    /// Drive every input port (with the clock low).
    fn apply(&mut self, inputs: &Self::Inputs);
    /// Read every output port.
    fn outputs(&self) -> Self::Outputs;
}

/// The native model of one design configuration.
pub struct NativeEngine<B: NativeTop> {
    uut: B,
    vcd: Option<rust_hdl::core::vcd_probe::VCDProbe<BufWriter<File>>>,
    time: u64,
}

impl<B: NativeTop> NativeEngine<B> {
    /// `uut` in its power-on state (every register at its reset value), optionally
    /// writing a VCD waveform.
    pub fn new(mut uut: B, vcd: Option<File>) -> Self {
        uut.connect_all();
        // The waveform shows the top's ports (docs: the native simulation evaluates the
        // blocks' twins, not every internal signal; Verilator's waveform has them all).
        let vcd = vcd.map(|file| write_vcd_header(BufWriter::new(file), &PortsView(uut.top_ports())));
        let mut this = Self { uut, vcd, time: 0 };
        this.settle();
        if let Some(vcd) = this.vcd.take() {
            this.vcd = Some(write_vcd_dump(vcd, &PortsView(this.uut.top_ports())));
        }
        this
    }

    fn settle(&mut self) {
        assert!(simulate(&mut self.uut, MAX_DELTAS), "the rust-hdl model did not settle in {MAX_DELTAS} deltas");
    }

    fn trace(&mut self) {
        if let Some(mut vcd) = self.vcd.take() {
            vcd.timestamp(self.time).expect("write VCD");
            self.vcd = Some(write_vcd_change(vcd, &PortsView(self.uut.top_ports())));
        }
        self.time += 5_000;
    }
}

impl<B: NativeTop> Engine<B::Inputs, B::Outputs> for NativeEngine<B> {
    fn name(&self) -> &'static str {
        "native"
    }

    fn step(&mut self, inputs: &B::Inputs) -> B::Outputs {
        self.uut.clock().next = Clock { clk: false };
        self.uut.apply(inputs);
        self.settle();
        self.trace();
        self.uut.clock().next = Clock { clk: true };
        self.settle();
        self.trace();
        self.uut.outputs()
    }
}

impl NativeTop for EventOrderMonitor {
    type Inputs = MonitorInputs;
    type Outputs = MonitorOutputs;
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn apply(&mut self, inputs: &MonitorInputs) {
        self.reset.next = inputs.reset;
        self.events.next = Word::new(self.events.width(), inputs.events as u64);
        self.start.next = Word::new(self.start.width(), inputs.start as u64);
        self.stop.next = Word::new(self.stop.width(), inputs.stop as u64);
        crate::drive_monitor_register_port!(self, inputs);
    }
    fn outputs(&self) -> MonitorOutputs {
        crate::monitor_outputs!(self)
    }
}

impl NativeTop for Pmu {
    type Inputs = PmuInputs;
    type Outputs = PmuOutputs;
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn apply(&mut self, inputs: &PmuInputs) {
        self.reset.next = inputs.reset;
        self.events.set_words(&inputs.events);
        self.core_events.set_words(&inputs.core_events);
        self.kernel.set(inputs.kernel as u64);
        self.pm_mark.set(inputs.pm_mark as u64);
        self.bb_end.set(inputs.bb_end as u64);
        let (threads, address_width) = (self.bb_end.width(), self.bb_addr.width() / self.bb_end.width());
        for t in 0..threads {
            self.bb_addr.set_field(t * address_width, address_width, inputs.bb_addr[t]);
            self.pid.set_field(t * 32, 32, inputs.pid[t] as u64);
        }
        crate::drive_pmu_register_port!(self, inputs);
    }
    fn outputs(&self) -> PmuOutputs {
        crate::pmu_outputs!(self)
    }
}
