//! The monitor's ports (SPEC A.4) as plain values: one cycle of inputs and the
//! registered outputs after that cycle's edge. Shared by every engine.

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

impl MonitorOutputs {
    /// The output signals by name, for mismatch reports.
    pub fn signals(&self) -> [(&'static str, u32); 6] {
        [
            ("reg_rdata", self.reg_rdata),
            ("matched", self.matched as u32),
            ("window", self.window as u32),
            ("ser_data", self.ser_data as u32),
            ("ser_valid", self.ser_valid as u32),
            ("ser_last", self.ser_last as u32),
        ]
    }
}

/// Something that takes one cycle of inputs and returns the registered outputs.
pub trait MonitorEngine {
    /// Engine name for reports (`reference`, `native`, `verilator`).
    fn name(&self) -> &'static str;
    /// Apply `inputs` at one rising edge; return the outputs after it.
    fn step(&mut self, inputs: &MonitorInputs) -> MonitorOutputs;
    /// Apply several cycles; append one output per input. Engines behind a pipe
    /// (Verilator) answer a whole batch at once.
    fn step_batch(&mut self, inputs: &[MonitorInputs], outputs: &mut Vec<MonitorOutputs>) {
        outputs.extend(inputs.iter().map(|input| self.step(input)));
    }
}
