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

use super::groups;
use crate::flip_flops::FlipFlops;
use crate::word::{WordConstant, WordDff, WordSignal};

/// Per-event order fields.
#[derive(LogicBlock)]
pub struct OrderRegister {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: every order to 0 (don't care).
    pub reset: Signal<In, Bit>,
    /// Bit e: write `wdata` into `order[e]` at this edge (decoded `ORDER[e]` write).
    pub write: WordSignal<In>,
    /// The order value to write.
    pub wdata: WordSignal<In>,
    /// The order of event e.
    pub order: Vec<WordSignal<Out>>,
    fields: Vec<WordDff>,
    zero: WordConstant,
}

impl OrderRegister {
    /// An order register for `events` (N) events of `order_width` (W) bits,
    /// `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new(events: usize, order_width: usize) -> Self {
        assert!((2..=32).contains(&events), "OrderRegister: N = {events} is out of range 2..=32");
        assert!((2..=8).contains(&order_width), "OrderRegister: W = {order_width} is out of range 2..=8");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            write: WordSignal::new(events),
            wdata: WordSignal::new(order_width),
            order: (0..events).map(|_| WordSignal::new(order_width)).collect(),
            fields: (0..events).map(|_| WordDff::new(order_width)).collect(),
            zero: WordConstant::new(order_width, 0),
        }
    }
}

impl OrderRegister {
    /// The registers: one order field per event.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let width = self.wdata.width();
        (0..self.fields.len())
            .map(|e| FlipFlops::new(format!("fields__{e}.q"), width, 0, groups::ORDER_REGISTER))
            .collect()
    }
}

impl Logic for OrderRegister {
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..self.fields.len() {
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

/// The order fields in plain Rust: its twin in the monitor's native simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderTwin {
    /// ORDER[e].
    pub orders: Vec<u64>,
}

impl OrderTwin {
    /// Every order 0, for `events` events.
    pub fn new(events: usize) -> Self {
        Self { orders: vec![0; events] }
    }

    /// The rising edge: bit e of `write` writes `wdata` into ORDER[e].
    pub fn edge(&mut self, write: u64, wdata: u64, reset: bool) {
        for (e, order) in self.orders.iter_mut().enumerate() {
            if reset {
                *order = 0;
            } else if write >> e & 1 == 1 {
                *order = wdata;
            }
        }
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
        assert_valid_verilog(&mut OrderRegister::new(4, 3), "order_register_n4_w3");
    }

    #[test]
    fn writes_land_in_the_strobed_field_only() {
        let seed = 0x5eed_0004;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = OrderRegister::new(5, 4);
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
                    u.write.next = Word::new(5, write);
                    u.wdata.next = Word::new(4, value);
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
                assert_eq!(uut.order[e].val().value(), *field, "order[{e}] step {step} seed {seed:#x}");
            }
        }
    }

    /// The twin is the block: ORDER after each edge.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1404;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for (events, width) in [(2, 2), (9, 5), (32, 8)] {
            let mut uut = OrderRegister::new(events, width);
            uut.connect_all();
            let mut model = OrderTwin::new(events);
            for step in 0..1_000 {
                let write = rng.gen::<u64>() & rng.gen::<u64>() & crate::dyn_signal::low_mask(events);
                let (wdata, reset) = (rng.gen::<u64>() & crate::dyn_signal::low_mask(width), rng.gen_ratio(1, 100));
                cycle(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.write.next = Word::new(events, write);
                        u.wdata.next = Word::new(width, wdata);
                        u.reset.next = reset;
                    },
                );
                model.edge(write, wdata, reset);
                let orders: Vec<u64> = uut.order.iter().map(|o| o.val().value()).collect();
                assert_eq!(orders, model.orders, "N={events} W={width}, step {step}, seed {seed:#x}");
            }
        }
    }
}
