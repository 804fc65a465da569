//! Order register [13]: W bits per event, written by the host (docs/monitor.md §2, §5).
//!
//! `order[e]` is the position of event e in the wanted sequence, 1..=2^W-1, or 0
//! for "don't care". Costs W*N flip-flops (24 at N=8, W=3; seed 000 [0032]:
//! "3x8 = 24 bits"). Writes never touch the record.
//!
//! Latency: a write at edge k shows from cycle k+1.
//!
//! ```text
//!  write[N], wdata[W] --> | fields[e] |--> order[e]
//! ```
use rust_hdl::prelude::*;

/// Per-event order fields.
#[derive(LogicBlock)]
pub struct OrderRegister<const N: usize, const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: every order to 0 (don't care).
    pub reset: Signal<In, Bit>,
    /// Bit e: write `wdata` into `order[e]` at this edge (decoded `ORDER[e]` write).
    pub write: Signal<In, Bits<N>>,
    /// The order value to write.
    pub wdata: Signal<In, Bits<W>>,
    /// The order of event e.
    pub order: [Signal<Out, Bits<W>>; N],
    fields: [DFF<Bits<W>>; N],
    zero: Constant<Bits<W>>,
}

impl<const N: usize, const W: usize> OrderRegister<N, W> {
    /// An order register for `N` events of `W` bits, `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new() -> Self {
        assert!((2..=32).contains(&N), "OrderRegister: N = {N} is out of range 2..=32");
        assert!((2..=8).contains(&W), "OrderRegister: W = {W} is out of range 2..=8");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            write: Default::default(),
            wdata: Default::default(),
            order: std::array::from_fn(|_| Default::default()),
            fields: std::array::from_fn(|_| Default::default()),
            zero: Constant::new(0.into()),
        }
    }
}

impl<const N: usize, const W: usize> Default for OrderRegister<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Logic for OrderRegister<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..N {
            self.fields[e].clock.next = self.clock.val();
            self.order[e].next = self.fields[e].q.val();
            self.fields[e].d.next = self.fields[e].q.val();
            if self.write.val().get_bit(e) {
                self.fields[e].d.next = self.wdata.val();
            }
            if self.reset.val() {
                self.fields[e].d.next = self.zero.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, bits_of, cycle, value_of};
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut OrderRegister::<4, 3>::new(), "order_register_n4_w3");
    }

    #[test]
    fn writes_land_in_the_strobed_field_only() {
        let seed = 0x5eed_0004;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = OrderRegister::<5, 4>::new();
        uut.connect_all();
        let mut model = [0u64; 5];
        for step in 0..1_000 {
            let write = if rng.gen_bool(0.5) { 1u64 << rng.gen_range(0..5) } else { 0 };
            let value = rng.gen_range(0..16u64);
            let reset = rng.gen_ratio(1, 100);
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.write.next = bits_of(write);
                    u.wdata.next = bits_of(value);
                    u.reset.next = reset;
                },
            );
            for (e, field) in model.iter_mut().enumerate() {
                *field = if reset {
                    0
                } else if write >> e & 1 == 1 {
                    value
                } else {
                    *field
                };
                assert_eq!(value_of(uut.order[e].val()), *field, "order[{e}] step {step} seed {seed:#x}");
            }
        }
    }
}
