//! A top's ports alone, seen as a block: what the native simulation's waveform shows.
//!
//! The native simulation evaluates the blocks' twins in signal order (each design's
//! `schedule.rs`), not every signal of the hierarchy, so only the top's ports carry the
//! simulated values; a waveform of every internal signal comes from Verilator.
use rust_hdl::prelude::*;

/// A top whose ports can be listed by name.
pub trait TopPorts {
    /// Every port with its name, in declaration order.
    fn top_ports(&self) -> Vec<(&'static str, &dyn Block)>;
}

/// The ports of a top, as a block with one scope.
pub struct PortsView<'a>(pub Vec<(&'static str, &'a dyn Block)>);

impl Logic for PortsView<'_> {
    fn update(&mut self) {}
}

impl Block for PortsView<'_> {
    fn connect_all(&mut self) {}
    fn update_all(&mut self) {}
    fn has_changed(&self) -> bool {
        false
    }
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        probe.visit_start_scope(name, self);
        for (port, block) in &self.0 {
            block.accept(port, probe);
        }
        probe.visit_end_scope(name, self);
    }
}
