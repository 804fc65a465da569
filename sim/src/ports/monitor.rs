//! The monitor's ports (docs/monitor.md §4) as plain values: one cycle of inputs and the
//! registered outputs after that cycle's edge. Shared by every engine.
use super::{Engine, Signals};

/// The inputs sampled at one rising edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MonitorInputs {
    /// `reset`: synchronous, active high.
    pub reset: bool,
    /// `events`: bit e is event line e.
    pub events: u32,
    /// `start`: 4 start-trigger lines.
    pub start: u8,
    /// `stop`: 4 stop-trigger lines.
    pub stop: u8,
    /// `reg_addr`: register word address.
    pub reg_addr: u8,
    /// `reg_wdata`: write data.
    pub reg_wdata: u32,
    /// `reg_write`: write strobe.
    pub reg_write: bool,
}

/// The outputs during the cycle after an edge (all registered).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MonitorOutputs {
    /// `reg_rdata`.
    pub reg_rdata: u32,
    /// `matched`.
    pub matched: bool,
    /// `window`.
    pub window: bool,
    /// `ser_data`.
    pub ser_data: bool,
    /// `ser_valid`.
    pub ser_valid: bool,
    /// `ser_last`.
    pub ser_last: bool,
}

impl Signals for MonitorOutputs {
    fn signals(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("reg_rdata", self.reg_rdata as u64),
            ("matched", self.matched as u64),
            ("window", self.window as u64),
            ("ser_data", self.ser_data as u64),
            ("ser_valid", self.ser_valid as u64),
            ("ser_last", self.ser_last as u64),
        ]
    }
}

/// A monitor simulation engine (reference, native or Verilator).
pub type MonitorEngine = dyn Engine<MonitorInputs, MonitorOutputs>;

/// The monitor's Verilog ports for the Verilator harness.
#[derive(Clone, Copy, Debug)]
pub struct MonitorCodec {
    /// N, the width of `events`.
    pub events: usize,
}

impl crate::verilator::PortCodec<MonitorInputs, MonitorOutputs> for MonitorCodec {
    fn inputs(&self) -> crate::verilator::PortList {
        crate::ports::port_list(&[
            ("reset", 1),
            ("events", self.events),
            ("start", 4),
            ("stop", 4),
            ("reg_addr", 8),
            ("reg_wdata", 32),
            ("reg_write", 1),
        ])
    }
    fn outputs(&self) -> crate::verilator::PortList {
        crate::ports::port_list(&[
            ("reg_rdata", 32),
            ("matched", 1),
            ("window", 1),
            ("ser_data", 1),
            ("ser_valid", 1),
            ("ser_last", 1),
        ])
    }
    fn encode(&self, inputs: &MonitorInputs, words: &mut Vec<u64>) {
        words.extend([
            inputs.reset as u64,
            inputs.events as u64,
            inputs.start as u64,
            inputs.stop as u64,
            inputs.reg_addr as u64,
            inputs.reg_wdata as u64,
            inputs.reg_write as u64,
        ]);
    }
    fn decode(&self, words: &[u64]) -> MonitorOutputs {
        MonitorOutputs {
            reg_rdata: words[0] as u32,
            matched: words[1] != 0,
            window: words[2] != 0,
            ser_data: words[3] != 0,
            ser_valid: words[4] != 0,
            ser_last: words[5] != 0,
        }
    }
}
