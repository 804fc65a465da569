//! Each design's ports as plain values (one cycle of inputs, the registered outputs
//! after that cycle's edge) and the engine interface every simulator implements:
//! the reference models, the native rust-hdl models and the Verilator models.
pub mod bus;
pub mod monitor;
pub mod pmu;
pub mod rvfi;

pub use monitor::{MonitorEngine, MonitorInputs, MonitorOutputs};

/// A port list with owned names (see [`crate::verilator::PortCodec`]).
pub fn port_list(ports: &[(&str, usize)]) -> crate::verilator::PortList {
    ports.iter().map(|&(name, width)| (name.to_string(), width)).collect()
}

/// Something that takes one cycle of inputs and returns the registered outputs.
pub trait Engine<I, O> {
    /// Engine name for reports (`reference`, `native`, `verilator`).
    fn name(&self) -> &'static str;
    /// Apply `inputs` at one rising edge; return the outputs after it.
    fn step(&mut self, inputs: &I) -> O;
    /// Apply several cycles; append one output per input. Engines behind a pipe
    /// (Verilator) answer a whole batch at once.
    fn step_batch(&mut self, inputs: &[I], outputs: &mut Vec<O>) {
        outputs.extend(inputs.iter().map(|input| self.step(input)));
    }
}

/// Output values by port name, for comparing engines and reporting a mismatch.
pub trait Signals {
    /// Every output port with its value (wide ports are split into `name[w]` words).
    fn signals(&self) -> Vec<(&'static str, u64)>;
}
