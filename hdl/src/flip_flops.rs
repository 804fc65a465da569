//! The flip-flops a design declares, each register with the report group it counts in.
//!
//! Every block lists its registers where it declares them (a hand-written block its
//! `<name>_q` registers, an `#[hdl_gen]` block its flip-flop children's `q`), and each
//! top lists its blocks' under their instance names. The resource report counts every
//! flip-flop of the synthesized netlist in the group of the register net its Q drives,
//! from this list: a flip-flop that no block declared, or a declared register that the
//! netlist does not have, is an error, not a guess.
use std::fmt::Write as _;

use crate::custom::{range, register_declaration};

/// The flip-flops behind one register net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipFlops {
    /// The net their Q outputs drive, as named from the block that lists them
    /// (`value_q`, `bits.q`, `counters__3.value_q` from the PMU's top).
    pub net: String,
    /// How many.
    pub width: usize,
    /// Their power-on and reset value (none for a RAM's read port, which has none).
    pub reset: Option<u64>,
    /// The report group they count in.
    pub group: &'static str,
}

impl FlipFlops {
    /// `width` flip-flops behind `net`, reset to `reset`, in `group`.
    pub fn new(net: impl Into<String>, width: usize, reset: u64, group: &'static str) -> Self {
        Self { net: net.into(), width, reset: Some(reset), group }
    }

    /// `width` flip-flops behind `net` with no power-on value (a RAM's read port), in
    /// `group`.
    pub fn unset(net: impl Into<String>, width: usize, group: &'static str) -> Self {
        Self { net: net.into(), width, reset: None, group }
    }

    /// The same flip-flops seen from the block that holds `instance`.
    pub fn within(self, instance: &str) -> Self {
        Self { net: format!("{instance}.{}", self.net), ..self }
    }

    /// Their Verilog declaration (a hand-written block's register).
    pub fn declaration(&self) -> String {
        match self.reset {
            Some(reset) => register_declaration(&self.net, self.width, reset),
            None => format!("reg {}{};\n", range(self.width), self.net),
        }
    }
}

/// The declarations of every register in `registers`, in order.
pub fn declarations(registers: &[FlipFlops]) -> String {
    let mut text = String::new();
    for register in registers {
        let _ = write!(text, "{}", register.declaration());
    }
    text
}

/// `registers` of the instance `instance`, seen from its parent.
pub fn within(instance: &str, registers: Vec<FlipFlops>) -> impl Iterator<Item = FlipFlops> + '_ {
    registers.into_iter().map(move |register| register.within(instance))
}
