//! Two-flip-flop synchronizer for a bundle of asynchronous board inputs.
//!
//! Every line gets the same two-cycle delay, so events, start and stop stay aligned
//! with each other (docs/monitor.md §3.7: synchronizers must delay them alike). No reset: a
//! synchronizer only delays.
//!
//! Latency: 2 cycles.
//!
//! ```text
//!  pins[N] --> | FF | --> | FF | --> lines[N]
//! ```
use rust_hdl::prelude::*;

use crate::word::{WordDff, WordSignal};

/// Two-stage synchronizer of N lines.
#[derive(LogicBlock)]
pub struct Synchronizer {
    /// Clock of the receiving domain.
    pub clock: Signal<In, Clock>,
    /// Asynchronous input pins.
    pub pins: WordSignal<In>,
    /// The pins, two clocks later, synchronous to `clock`.
    pub lines: WordSignal<Out>,
    first: WordDff,
    second: WordDff,
}

impl Synchronizer {
    /// A synchronizer for `lines` lines, `1 <= lines <= 64`.
    pub fn new(lines: usize) -> Self {
        assert!((1..=64).contains(&lines), "Synchronizer: {lines} lines is out of range 1..=64");
        Self {
            clock: Default::default(),
            pins: WordSignal::new(lines),
            lines: WordSignal::new(lines),
            first: WordDff::new(lines),
            second: WordDff::new(lines),
        }
    }
}

impl Logic for Synchronizer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, first, second);
        self.first.d.next = self.pins.val();
        self.second.d.next = self.first.q.val();
        self.lines.next = self.second.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, cycle};
    use crate::word::Word;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut Synchronizer::new(16), "synchronizer_n16");
    }

    #[test]
    fn every_line_is_delayed_by_two_cycles() {
        let seed = 0x5eed_0010;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = Synchronizer::new(16);
        uut.connect_all();
        // Pins applied in cycle k reach the output in cycle k+2, i.e. after the edge
        // that ends cycle k+1.
        let mut previous = 0u64;
        for step in 0..1_000 {
            let pins = rng.gen::<u64>() & 0xFFFF;
            cycle(&mut uut, |u| &mut u.clock, |u| u.pins.next = Word::new(16, pins));
            assert_eq!(uut.lines.val().value(), previous, "step {step} seed {seed:#x}");
            previous = pins;
        }
    }
}
