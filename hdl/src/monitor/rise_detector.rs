//! Rising-edge detector for a bundle of `N` lines (docs/monitor.md §3.1, §3.5).
//!
//! A line "occurs" in a cycle when it is 1 and was 0 in the previous cycle. The
//! history flip-flops reset to 0, so a line that is high in the first cycle after
//! reset counts as an edge. Holding a line high is one occurrence.
//!
//! Latency: combinational (`rise` is valid in the cycle the input is sampled).
//! Seed 000 [0021]: the event register bit is set "when the event signal changes
//! from inactive 0 to active 1".
//!
//! ```text
//!            +-------------+
//!  lines[N]->| prev <= in  |--> rise[N] = lines & ~prev
//!  reset --->|             |
//!            +-------------+
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::flip_flops::FlipFlops;
use crate::word::{WordConstant, WordDff, WordSignal};

/// Per-line rising-edge detector with synchronous reset.
#[derive(LogicBlock)]
pub struct RiseDetector {
    /// Clock; the history is sampled at the rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the history returns to 0.
    pub reset: Signal<In, Bit>,
    /// The lines to watch.
    pub lines: WordSignal<In>,
    /// One bit per line: the line rose this cycle.
    pub rise: WordSignal<Out>,
    /// Last cycle's value of `lines` (the edge-detector history group).
    history: WordDff,
    zero: WordConstant,
}

impl RiseDetector {
    /// A detector for `lines` lines, `1 <= lines <= 64`.
    pub fn new(lines: usize) -> Self {
        assert!((1..=64).contains(&lines), "RiseDetector: {lines} lines is out of range 1..=64");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            lines: WordSignal::new(lines),
            rise: WordSignal::new(lines),
            history: WordDff::new(lines),
            zero: WordConstant::new(lines, 0),
        }
    }
}

impl RiseDetector {
    /// The register: the lines of the previous cycle.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![FlipFlops::new("history.q", self.lines.width(), 0, groups::EDGE_HISTORY)]
    }
}

impl Logic for RiseDetector {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, history);
        self.rise.next = self.lines.val() & !self.history.q.val();
        self.history.d.next = self.lines.val();
        if self.reset.val() {
            self.history.d.next = self.zero.val();
        }
    }
}

/// The detector in plain Rust (its history register): its twin in the monitor's native
/// simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RiseTwin {
    /// Last cycle's lines.
    pub history: u64,
}

impl RiseTwin {
    /// `rise` for these `lines`.
    pub fn rise(&self, lines: u64) -> u64 {
        lines & !self.history
    }

    /// The rising edge.
    pub fn edge(&mut self, lines: u64, reset: bool) {
        self.history = if reset { 0 } else { lines };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, edge};
    use crate::word::Word;
    use pmugen_sim::reference::record::rising;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut RiseDetector::new(5), "rise_detector_n5");
    }

    #[test]
    fn matches_reference_edges_with_resets() {
        let seed = 0x5eed_0001;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = RiseDetector::new(6);
        uut.connect_all();
        let mut previous = 0u32;
        for step in 0..2_000 {
            let lines = rng.gen::<u32>() & 0x3F;
            let reset = rng.gen_ratio(1, 50);
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.lines.next = Word::new(6, lines as u64);
                    u.reset.next = reset;
                },
            );
            let rise = uut.rise.val().value() as u32;
            assert_eq!(rise, rising(lines, previous), "step {step}, seed {seed:#x}");
            edge(&mut uut, |u| &mut u.clock);
            previous = if reset { 0 } else { lines };
        }
    }

    /// The twin is the block: random lines and resets, outputs compared with
    /// the inputs applied and after each edge.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1401;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for lines in [1, 4, 13, 64] {
            let mut uut = RiseDetector::new(lines);
            uut.connect_all();
            let mut model = RiseTwin::default();
            for step in 0..1_000 {
                let (input, reset) = (rng.gen::<u64>() & crate::dyn_signal::low_mask(lines), rng.gen_ratio(1, 40));
                apply(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.lines.next = Word::new(lines, input);
                        u.reset.next = reset;
                    },
                );
                assert_eq!(uut.rise.val().value(), model.rise(input), "{lines} lines, step {step}, seed {seed:#x}");
                edge(&mut uut, |u| &mut u.clock);
                model.edge(input, reset);
                assert_eq!(uut.rise.val().value(), model.rise(input), "{lines} lines, step {step}, seed {seed:#x}");
            }
        }
    }
}
