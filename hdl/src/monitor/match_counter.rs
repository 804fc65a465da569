//! Match counter [16] with the registered match flag [15] (docs/monitor.md §3.4, §3.7).
//!
//! A match is counted when `match_now && (auto_rearm || !matched)`, where `matched`
//! is the previous cycle's match flag; it increments the count only while the
//! window is open. The count wraps from 2^C-1 to 0 and sets the sticky overflow flag
//! at that edge. CMD.CLEAR_COUNT zeroes both instead of that cycle's increment.
//! Seed 000 [0022]: "a 32-bit counter ... counts the number of times the time-series
//! identification flag 15 is set during the monitoring period".
//!
//! The decision to count is registered (`pending`) and added at the next edge: the
//! match → count path ends at one flip-flop instead of the counter's 32 enables
//! (docs/monitor.md §7.2). COUNT during a cycle is the count register plus `pending`,
//! or 0 in the cycle after CLEAR_COUNT (when `pending` is 0 too).
//!
//! The count register takes that COUNT at every edge, so after edge k it holds
//! COUNT as it was during cycle k. The read data and the serial frame sample COUNT
//! at an edge and show it after that edge, so they read the register
//! (`previous_count`) one cycle later instead of the adder: the adder feeds only its
//! flip-flops, and each sum LUT shares a logic cell with its flip-flop (one logic cell
//! per count bit fewer on the iCE40). CLEAR_COUNT therefore zeroes the register one edge
//! late, through its synchronous reset (`count_cleared`).
//!
//! Latency: `previous_count` shows COUNT of the previous cycle; `overflow` is
//! STATUS.OVERFLOW of this cycle; `matched` is the previous cycle's match flag.
//!
//! ```text
//!  match_now, auto_rearm --> | counted & window |--> previous_count[C]
//!  window, clear         --> |   +1, overflow   |--> overflow, matched
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::flip_flops::FlipFlops;

/// A C-bit match counter with overflow and the registered match flag.
#[derive(LogicBlock)]
pub struct MatchCounter<const C: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: count, overflow and match flag to 0.
    pub reset: Signal<In, Bit>,
    /// The match flag of this cycle (from the order matcher).
    pub match_now: Signal<In, Bit>,
    /// CTRL.AUTO_REARM: count every match, not only the rising edge of the flag.
    pub auto_rearm: Signal<In, Bit>,
    /// The window is open during this cycle.
    pub window: Signal<In, Bit>,
    /// Zero count and overflow instead of this cycle's increment (CMD.CLEAR_COUNT).
    pub clear: Signal<In, Bit>,
    /// COUNT as it was in the previous cycle: the count register itself. (COUNT
    /// of this cycle is this plus `pending`, or 0 after a clear; no block needs it.)
    pub previous_count: Signal<Out, Bits<C>>,
    /// The count wrapped since the last clear (`STATUS.OVERFLOW`).
    pub overflow: Signal<Out, Bit>,
    /// Last cycle's match flag (`matched` port, `STATUS.MATCHED`).
    pub matched: Signal<Out, Bit>,
    /// The count (not called `value`, which would shadow a cocotb handle's `.value`).
    count_reg: DFF<Bits<C>>,
    wrapped: DFF<Bit>,
    match_flag: DFF<Bit>,
    /// CLEAR_COUNT at the last edge: the count register is zeroed at this one.
    count_cleared: DFF<Bit>,
    /// Last cycle counted a match; 0 or 1, kept C bits wide so that `count_reg +
    /// pending` is one adder whose carry-in is the decision (the upper bits are
    /// constant 0 and synthesis removes them).
    pending: DFF<Bits<C>>,
    /// The overflow flag including a wrap by the pending increment.
    visible_overflow: Signal<Local, Bit>,
    one: Constant<Bits<C>>,
    all_ones: Constant<Bits<C>>,
    zero: Constant<Bits<C>>,
    set: Constant<Bit>,
    cleared: Constant<Bit>,
}

impl<const C: usize> MatchCounter<C> {
    /// A counter of `C` bits, `2 <= C <= 32` (the monitor uses 32; tests use less).
    pub fn new() -> Self {
        assert!((2..=32).contains(&C), "MatchCounter: C = {C} is out of range 2..=32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            match_now: Default::default(),
            auto_rearm: Default::default(),
            window: Default::default(),
            clear: Default::default(),
            previous_count: Default::default(),
            overflow: Default::default(),
            matched: Default::default(),
            count_reg: Default::default(),
            wrapped: Default::default(),
            match_flag: Default::default(),
            count_cleared: Default::default(),
            pending: Default::default(),
            visible_overflow: Default::default(),
            one: Constant::new(1.into()),
            all_ones: Constant::new(((1u64 << C) - 1).to_bits()),
            zero: Constant::new(0.into()),
            set: Constant::new(true),
            cleared: Constant::new(false),
        }
    }
}

impl<const C: usize> Default for MatchCounter<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const C: usize> MatchCounter<C> {
    /// The registers: the count, its pending increment, overflow and clear, and the
    /// registered match flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("count_reg.q", C, 0, groups::MATCH_COUNTER),
            FlipFlops::new("wrapped.q", 1, 0, groups::MATCH_COUNTER),
            FlipFlops::new("match_flag.q", 1, 0, groups::WINDOW_AND_MATCH),
            FlipFlops::new("count_cleared.q", 1, 0, groups::MATCH_COUNTER),
            FlipFlops::new("pending.q", C, 0, groups::MATCH_COUNTER),
        ]
    }
}

impl<const C: usize> Logic for MatchCounter<C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count_reg, wrapped, match_flag, count_cleared, pending);
        self.visible_overflow.next = self.wrapped.q.val();
        if self.pending.q.val().get_bit(0) & (self.count_reg.q.val() == self.all_ones.val()) {
            self.visible_overflow.next = self.set.val();
        }
        self.previous_count.next = self.count_reg.q.val();
        self.overflow.next = self.visible_overflow.val();
        self.matched.next = self.match_flag.q.val();
        self.match_flag.d.next = self.match_now.val();
        // The zero of a clear comes through the reset term below, so each sum LUT
        // feeds only its flip-flop.
        self.count_reg.d.next = self.count_reg.q.val() + self.pending.q.val();
        self.count_cleared.d.next = self.clear.val();
        self.wrapped.d.next = self.visible_overflow.val();
        self.pending.d.next = self.zero.val();
        if self.match_now.val() & (self.auto_rearm.val() | !self.match_flag.q.val()) & self.window.val() {
            self.pending.d.next = self.one.val();
        }
        if self.count_cleared.q.val() {
            self.count_reg.d.next = self.zero.val();
        }
        if self.clear.val() {
            self.wrapped.d.next = self.cleared.val();
            self.pending.d.next = self.zero.val();
        }
        if self.reset.val() {
            self.count_reg.d.next = self.zero.val();
            self.wrapped.d.next = self.cleared.val();
            self.match_flag.d.next = self.cleared.val();
            self.count_cleared.d.next = self.cleared.val();
            self.pending.d.next = self.zero.val();
        }
    }
}

/// The counter in plain Rust, for `C` = 32: its twin in the monitor's native simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterTwin {
    /// The count register.
    pub count: u32,
    /// The overflow flag as stored.
    pub wrapped: bool,
    /// Last cycle's match flag.
    pub matched: bool,
    /// CLEAR_COUNT at the last edge.
    pub count_cleared: bool,
    /// Last cycle counted a match.
    pub pending: bool,
}

impl CounterTwin {
    /// STATUS.OVERFLOW this cycle, a wrap by the pending increment included.
    pub fn overflow(&self) -> bool {
        self.wrapped || (self.pending && self.count == u32::MAX)
    }

    /// The rising edge.
    pub fn edge(&mut self, match_now: bool, auto_rearm: bool, window: bool, clear: bool, reset: bool) {
        let overflow = self.overflow();
        let count = if self.count_cleared { 0 } else { self.count.wrapping_add(self.pending as u32) };
        let counted = match_now && (auto_rearm || !self.matched) && window;
        *self = if reset {
            Self::default()
        } else {
            Self {
                count,
                wrapped: overflow && !clear,
                matched: match_now,
                count_cleared: clear,
                pending: counted && !clear,
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, cycle, value_of};
    use pmugen_sim::reference::counter::CounterModel;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut MatchCounter::<32>::new(), "match_counter_c32");
        assert_valid_verilog(&mut MatchCounter::<4>::new(), "match_counter_c4");
    }

    #[test]
    fn four_bit_counter_wraps_and_overflows_like_reference() {
        let seed = 0x5eed_0007;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = MatchCounter::<4>::new();
        uut.connect_all();
        let mut model = CounterModel::new(4);
        let mut overflows = 0;
        // What the count register shows this cycle: COUNT of the previous one.
        let mut previous_count = 0;
        for step in 0..5_000 {
            let (match_now, auto_rearm, window) = (rng.gen_bool(0.6), rng.gen_bool(0.5), rng.gen_bool(0.8));
            let (clear, reset) = (rng.gen_ratio(1, 80), rng.gen_ratio(1, 500));
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.match_now.next = match_now;
                    u.auto_rearm.next = auto_rearm;
                    u.window.next = window;
                    u.clear.next = clear;
                    u.reset.next = reset;
                },
            );
            if reset {
                model = CounterModel::new(4);
            } else {
                model.step(match_now, auto_rearm, window, clear);
            }
            overflows += model.overflow as u32;
            // A reset zeroes the register at its own edge.
            let expected = if reset { 0 } else { previous_count };
            assert_eq!(value_of(uut.previous_count.val()), expected, "count, step {step} seed {seed:#x}");
            previous_count = model.count;
            assert_eq!(uut.overflow.val(), model.overflow, "overflow, step {step} seed {seed:#x}");
            assert_eq!(uut.matched.val(), model.match_prev, "matched, step {step} seed {seed:#x}");
        }
        assert!(overflows > 0, "the stimulus never reached the wrap");
    }

    #[test]
    fn wrap_from_all_ones_sets_overflow_at_that_edge() {
        let mut uut = MatchCounter::<4>::new();
        uut.connect_all();
        for step in 0..16 {
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.match_now.next = true;
                    u.auto_rearm.next = true;
                    u.window.next = true;
                },
            );
            // COUNT is (step + 1) % 16 now; the register shows the previous cycle's.
            assert_eq!(value_of(uut.previous_count.val()), step % 16);
            assert_eq!(uut.overflow.val(), step == 15, "overflow after {} counts", step + 1);
        }
    }

    /// The twin is the block (C = 32, the monitor's): outputs with the inputs
    /// applied and after each edge; counts start near the wrap now and then.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1406;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = MatchCounter::<32>::new();
        uut.connect_all();
        let mut model = CounterTwin::default();
        let mut wraps = 0;
        for step in 0..20_000 {
            let (match_now, auto_rearm, window) = (rng.gen_bool(0.7), rng.gen_bool(0.5), rng.gen_bool(0.9));
            let (clear, reset) = (rng.gen_ratio(1, 200), rng.gen_ratio(1, 2_000));
            let compare = |uut: &MatchCounter<32>, model: &CounterTwin| {
                let outputs = (value_of(uut.previous_count.val()) as u32, uut.overflow.val(), uut.matched.val());
                assert_eq!(outputs, (model.count, model.overflow(), model.matched), "step {step}, seed {seed:#x}");
            };
            crate::testing::apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.match_now.next = match_now;
                    u.auto_rearm.next = auto_rearm;
                    u.window.next = window;
                    u.clear.next = clear;
                    u.reset.next = reset;
                },
            );
            compare(&uut, &model);
            crate::testing::edge(&mut uut, |u| &mut u.clock);
            model.edge(match_now, auto_rearm, window, clear, reset);
            compare(&uut, &model);
            wraps += model.overflow() as u32;
        }
        assert!(wraps > 0 || model.count > 0, "the counter counted");
    }
}
