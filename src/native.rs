//! The rust-hdl model as a simulation engine: a direct loop (set inputs, settle,
//! clock edge, settle), no testbench threads.
use rust_hdl::prelude::*;
use std::fs::File;
use std::io::BufWriter;

use pmugen_hdl::monitor::top::EventOrderMonitor;
use pmugen_sim::ports::{Engine, MonitorEngine, MonitorInputs, MonitorOutputs, Signals};

/// Delta cycles allowed for the design to settle after an input change.
const MAX_DELTAS: usize = 200;

/// The native model of one monitor configuration.
pub struct NativeMonitor<const N: usize, const W: usize> {
    uut: EventOrderMonitor<N, W>,
    vcd: Option<rust_hdl::core::vcd_probe::VCDProbe<BufWriter<File>>>,
    time: u64,
}

impl<const N: usize, const W: usize> NativeMonitor<N, W> {
    /// A monitor in its power-on state (every register at its reset value),
    /// optionally writing a VCD waveform.
    pub fn new(vcd: Option<File>) -> Self {
        let mut uut = EventOrderMonitor::<N, W>::new();
        uut.connect_all();
        let vcd = vcd.map(|file| write_vcd_header(BufWriter::new(file), &uut));
        let mut this = Self { uut, vcd, time: 0 };
        this.settle();
        if let Some(vcd) = this.vcd.take() {
            this.vcd = Some(write_vcd_dump(vcd, &this.uut));
        }
        this
    }

    fn settle(&mut self) {
        assert!(simulate(&mut self.uut, MAX_DELTAS), "the rust-hdl model did not settle in {MAX_DELTAS} deltas");
    }

    fn trace(&mut self) {
        if let Some(mut vcd) = self.vcd.take() {
            vcd.timestamp(self.time).expect("write VCD");
            self.vcd = Some(write_vcd_change(vcd, &self.uut));
        }
        self.time += 5_000;
    }
}

impl<const N: usize, const W: usize> Engine<MonitorInputs, MonitorOutputs> for NativeMonitor<N, W> {
    fn name(&self) -> &'static str {
        "native"
    }

    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs {
        let uut = &mut self.uut;
        uut.clock.next = Clock { clk: false };
        uut.reset.next = inputs.reset;
        uut.events.next = (inputs.events as u64).to_bits();
        uut.start.next = (inputs.start as u64).to_bits();
        uut.stop.next = (inputs.stop as u64).to_bits();
        uut.reg_addr.next = (inputs.reg_addr as u64).to_bits();
        uut.reg_wdata.next = (inputs.reg_wdata as u64).to_bits();
        uut.reg_write.next = inputs.reg_write;
        self.settle();
        self.trace();
        self.uut.clock.next = Clock { clk: true };
        self.settle();
        self.trace();
        let uut = &self.uut;
        MonitorOutputs {
            reg_rdata: uut.reg_rdata.val().index() as u32,
            matched: uut.matched.val(),
            window: uut.window.val(),
            ser_data: uut.ser_data.val(),
            ser_valid: uut.ser_valid.val(),
            ser_last: uut.ser_last.val(),
        }
    }
}
