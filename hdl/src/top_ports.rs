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

/// `Block` and [`TopPorts`] for a top whose simulation runs its blocks' twins in signal
/// order: connecting and the Verilog see the ports and every block as rust-hdl's derive
/// would show them, while a delta cycle updates (and asks for changes on) the top's own
/// ports only, after `$update` has evaluated the blocks.
///
/// ```ignore
/// scheduled_top!(Pmu, update: Logic::update, ports: [clock, reset, ...], blocks: [inputs, ...]);
/// ```
#[macro_export]
macro_rules! scheduled_top {
    ($top:ty, update: $update:path, ports: [$($port:ident),+ $(,)?], blocks: [$($block:ident),+ $(,)?]) => {
        impl $crate::top_ports::TopPorts for $top {
            fn top_ports(&self) -> Vec<(&'static str, &dyn rust_hdl::prelude::Block)> {
                vec![$((stringify!($port), &self.$port as &dyn rust_hdl::prelude::Block)),+]
            }
        }

        impl rust_hdl::prelude::Block for $top {
            fn connect_all(&mut self) {
                rust_hdl::prelude::Logic::connect(self);
                $(self.$port.connect_all();)+
                $(self.$block.connect_all();)+
            }

            fn update_all(&mut self) {
                $update(self);
                $(self.$port.update_all();)+
            }

            fn has_changed(&self) -> bool {
                false $(|| self.$port.has_changed())+
            }

            fn accept(&self, name: &str, probe: &mut dyn rust_hdl::prelude::Probe) {
                probe.visit_start_scope(name, self);
                $(self.$port.accept(stringify!($port), probe);)+
                $(self.$block.accept(stringify!($block), probe);)+
                probe.visit_end_scope(name, self);
            }
        }
    };
}
