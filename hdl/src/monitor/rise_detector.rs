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

/// Per-line rising-edge detector with synchronous reset.
#[derive(LogicBlock)]
pub struct RiseDetector<const N: usize> {
    /// Clock; the history is sampled at the rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the history returns to 0.
    pub reset: Signal<In, Bit>,
    /// The lines to watch.
    pub lines: Signal<In, Bits<N>>,
    /// One bit per line: the line rose this cycle.
    pub rise: Signal<Out, Bits<N>>,
    /// Last cycle's value of `lines` (the edge-detector history group).
    history: DFF<Bits<N>>,
    zero: Constant<Bits<N>>,
}

impl<const N: usize> RiseDetector<N> {
    /// A detector for `N` lines, `1 <= N <= 64`.
    pub fn new() -> Self {
        assert!((1..=64).contains(&N), "RiseDetector: N = {N} is out of range 1..=64");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            lines: Default::default(),
            rise: Default::default(),
            history: Default::default(),
            zero: Constant::new(0.into()),
        }
    }
}

impl<const N: usize> Default for RiseDetector<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Logic for RiseDetector<N> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, bits_of, edge, value_of};
    use pmugen_sim::reference::record::rising;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut RiseDetector::<5>::new(), "rise_detector_n5");
    }

    #[test]
    fn matches_reference_edges_with_resets() {
        let seed = 0x5eed_0001;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = RiseDetector::<6>::new();
        uut.connect_all();
        let mut previous = 0u32;
        for step in 0..2_000 {
            let lines = rng.gen::<u32>() & 0x3F;
            let reset = rng.gen_ratio(1, 50);
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.lines.next = bits_of(lines as u64);
                    u.reset.next = reset;
                },
            );
            let rise = value_of(uut.rise.val()) as u32;
            assert_eq!(rise, rising(lines, previous), "step {step}, seed {seed:#x}");
            edge(&mut uut, |u| &mut u.clock);
            previous = if reset { 0 } else { lines };
        }
    }
}
