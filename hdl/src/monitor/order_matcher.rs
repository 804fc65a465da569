//! Order matcher [14, 23-26] and match flag [15] (docs/monitor.md §2, §3.3).
//!
//! For every unordered pair {a, b}, a < b: one comparator `order[a] < order[b]`
//! [24] drives one 2:1 multiplexer [23] that picks flag (a before b) when a must come
//! first, else flag (b before a). The pair select [25] forces pairs that are not
//! constrained (an order is 0, or both are equal) to 1, and an AND [26] over all
//! pairs gives the match. A match also needs one constrained pair (docs/monitor.md §8).
//! Seed 000 [0032]: 28 comparators and 28 2:1 multiplexers for 8 events.
//!
//! Latency: combinational (the match is true in the completing cycle).
//!
//! ```text
//!  order[a], order[b] --> [<] --sel--+
//!  updated[b][a] ------------------ 1|mux|--+ pair_ok --> AND --> matched
//!  updated[a][b] ------------------ 0|   |  |
//!  constrained(a, b) ------------------------+
//! ```
use rust_hdl::prelude::*;
use std::fmt::Write;

use crate::custom::unused_diagonal;

/// Pairwise comparator/multiplexer network with the final AND.
#[derive(LogicBlock)]
pub struct OrderMatcher<const N: usize, const W: usize> {
    /// The order of each event (0 = don't care).
    pub order: [Signal<In, Bits<W>>; N],
    /// Record row m with this cycle's recording: bit a = flag (a before m).
    pub updated: [Signal<In, Bits<N>>; N],
    /// Every constrained pair occurred in its order, and one pair is constrained.
    pub matched: Signal<Out, Bit>,
}

impl<const N: usize, const W: usize> OrderMatcher<N, W> {
    /// A matcher for `N` events of `W` order bits, `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new() -> Self {
        assert!((2..=32).contains(&N), "OrderMatcher: N = {N} is out of range 2..=32");
        assert!((2..=8).contains(&W), "OrderMatcher: W = {W} is out of range 2..=8");
        Self {
            order: std::array::from_fn(|_| Default::default()),
            updated: std::array::from_fn(|_| Default::default()),
            matched: Default::default(),
        }
    }

    /// The unordered pairs {a, b}, a < b, in the order of the Verilog pair index.
    pub fn pairs() -> impl Iterator<Item = (usize, usize)> {
        (0..N).flat_map(|a| ((a + 1)..N).map(move |b| (a, b)))
    }
}

impl<const N: usize, const W: usize> Default for OrderMatcher<N, W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const W: usize> Logic for OrderMatcher<N, W> {
    fn update(&mut self) {
        let mut any_constrained = false;
        let mut all_in_order = true;
        for (a, b) in Self::pairs() {
            let (order_a, order_b) = (self.order[a].val().index(), self.order[b].val().index());
            if order_a != 0 && order_b != 0 && order_a != order_b {
                any_constrained = true;
                let in_order = if order_a < order_b {
                    self.updated[b].val().get_bit(a)
                } else {
                    self.updated[a].val().get_bit(b)
                };
                all_in_order &= in_order;
            }
        }
        self.matched.next = any_constrained && all_in_order;
    }

    fn connect(&mut self) {
        self.matched.connect();
    }

    fn hdl(&self) -> Verilog {
        let pairs = N * (N - 1) / 2;
        let mut v = String::new();
        let _ = writeln!(v, "// Pair k = (a, b), a < b, in the order a = 0.., b = a+1..");
        let _ = writeln!(v, "wire [{}:0] order_set;", N - 1);
        let _ = writeln!(v, "wire [{}:0] a_first;     // comparators [24]", pairs - 1);
        let _ = writeln!(v, "wire [{}:0] in_order;    // pair multiplexers [23]", pairs - 1);
        let _ = writeln!(v, "wire [{}:0] constrained; // pair select [25]", pairs - 1);
        for e in 0..N {
            let _ = writeln!(v, "assign order_set[{e}] = |order${e};");
        }
        for (k, (a, b)) in Self::pairs().enumerate() {
            let _ = writeln!(v, "assign a_first[{k}] = order${a} < order${b};");
            let _ = writeln!(v, "assign in_order[{k}] = a_first[{k}] ? updated${b}[{a}] : updated${a}[{b}];");
            let _ = writeln!(
                v,
                "assign constrained[{k}] = order_set[{a}] & order_set[{b}] & (order${a} != order${b});"
            );
        }
        let _ = writeln!(v, "always @(*) begin");
        let _ = writeln!(v, "    matched = (|constrained) & (&(in_order | ~constrained));");
        let _ = writeln!(v, "end");
        v.push_str(&unused_diagonal("updated", N));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, bits_of, settle};
    use pmugen_sim::reference::order_matches;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut OrderMatcher::<5, 3>::new(), "order_matcher_n5_w3");
    }

    fn check<const N: usize, const W: usize>(uut: &mut OrderMatcher<N, W>, orders: &[u32], rows: &[u32]) {
        for e in 0..N {
            uut.order[e].next = bits_of(orders[e] as u64);
            uut.updated[e].next = bits_of(rows[e] as u64);
        }
        settle(uut);
        let expected = order_matches(orders, |a, m| rows[m] >> a & 1 == 1);
        assert_eq!(uut.matched.val(), expected, "orders {orders:?}, rows {rows:?}");
    }

    #[test]
    fn exhaustive_for_three_events() {
        let mut uut = OrderMatcher::<3, 2>::new();
        uut.connect_all();
        for orders in 0..64u32 {
            let orders = [orders & 3, orders >> 2 & 3, orders >> 4 & 3];
            for flags in 0..64u32 {
                // The six off-diagonal flags of a 3x3 record; bit m of row m stays 0.
                let rows = [(flags & 3) << 1, (flags >> 2 & 1) | (flags >> 3 & 1) << 2, flags >> 4 & 3];
                check(&mut uut, &orders, &rows);
            }
        }
    }

    #[test]
    fn random_against_reference_for_eight_events() {
        let seed = 0x5eed_0005;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = OrderMatcher::<8, 3>::new();
        uut.connect_all();
        for _ in 0..20_000 {
            let orders: Vec<u32> = (0..8).map(|_| if rng.gen_bool(0.5) { 0 } else { rng.gen_range(1..8) }).collect();
            // Dense rows so that matches happen often.
            let rows: Vec<u32> = (0..8).map(|m| (rng.gen::<u32>() | rng.gen::<u32>()) & 0xFF & !(1 << m)).collect();
            check(&mut uut, &orders, &rows);
        }
    }
}
