//! Event register [11]: one sticky bit per event (docs/monitor.md §2, §3.2).
//!
//! Bit e is set when event e occurs while recording is enabled, and cleared by a
//! re-arm, CMD.CLEAR_RECORD or reset. `seen` is the value before this cycle's
//! update, which is what the context record needs ("a whose bit was already set").
//!
//! A clear is registered (`cleared`) rather than fanned out to every bit in the
//! cycle of the match: while `cleared` is set, the stored bits read as 0 and are
//! rewritten from 0 at the next edge. The match → clear path then ends at one
//! flip-flop (docs/monitor.md §7.2); what `seen` shows is unchanged.
//!
//! Latency: one cycle (a registered bit). Seed 000 [0021]: "the corresponding
//! first to eighth bits of the event register 11 are set to 1".
//!
//! ```text
//!  occur[N] --+--> | bits |--> seen[N]
//!  record  ---+    |  FF  |
//!  clear ----------|      |
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::flip_flops::FlipFlops;
use crate::word::{WordConstant, WordDff, WordSignal};

/// Sticky per-event occurrence bits.
#[derive(LogicBlock)]
pub struct EventRegister {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: all bits to 0.
    pub reset: Signal<In, Bit>,
    /// The events that occur this cycle (rising edges).
    pub occur: WordSignal<In>,
    /// Record this cycle's occurrences (CTRL.ENABLE).
    pub enable: Signal<In, Bit>,
    /// Clear all bits instead of this cycle's recording (re-arm or CMD.CLEAR_RECORD).
    pub clear: Signal<In, Bit>,
    /// Bit e: event e occurred in this sequence before this cycle (`EVENTS` register).
    pub seen: WordSignal<Out>,
    /// The bits as stored: equal to `seen` except in the cycle after a clear, when
    /// they are stale. For the context record and the compact matcher, which gate them
    /// with the record's own clear flag (set at the same edges).
    pub stored: WordSignal<Out>,
    bits: WordDff,
    /// The last edge cleared the register: `bits` are stale and read as 0.
    cleared: DFF<Bit>,
    /// `bits` as they read this cycle.
    visible: WordSignal<Local>,
    zero: WordConstant,
}

impl EventRegister {
    /// An event register for `events` (N) events, `2 <= N <= 32`.
    pub fn new(events: usize) -> Self {
        assert!((2..=32).contains(&events), "EventRegister: N = {events} is out of range 2..=32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            occur: WordSignal::new(events),
            enable: Default::default(),
            clear: Default::default(),
            seen: WordSignal::new(events),
            stored: WordSignal::new(events),
            bits: WordDff::new(events),
            cleared: Default::default(),
            visible: WordSignal::new(events),
            zero: WordConstant::new(events, 0),
        }
    }
}

impl EventRegister {
    /// The registers: the sticky bits and the "cleared at the last edge" flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("bits.q", self.occur.width(), 0, groups::EVENT_REGISTER),
            FlipFlops::new("cleared.q", 1, 0, groups::CLEAR_FLAGS),
        ]
    }
}

impl Logic for EventRegister {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bits, cleared);
        self.visible.next = self.bits.q.val();
        if self.cleared.q.val() {
            self.visible.next = self.zero.val();
        }
        self.seen.next = self.visible.val();
        self.stored.next = self.bits.q.val();
        self.bits.d.next = self.visible.val();
        if self.enable.val() {
            self.bits.d.next = self.visible.val() | self.occur.val();
        }
        self.cleared.d.next = self.clear.val();
        if self.reset.val() {
            self.bits.d.next = self.zero.val();
            self.cleared.d.next = false;
        }
    }
}

/// The register in plain Rust: its twin in the monitor's native simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventRegisterTwin {
    /// The sticky bits as stored.
    pub bits: u64,
    /// The last edge cleared the register.
    pub cleared: bool,
}

impl EventRegisterTwin {
    /// `seen`: the bits as they read this cycle.
    pub fn seen(&self) -> u64 {
        if self.cleared {
            0
        } else {
            self.bits
        }
    }

    /// `stored`: the bits as held.
    pub fn stored(&self) -> u64 {
        self.bits
    }

    /// The rising edge.
    pub fn edge(&mut self, occur: u64, enable: bool, clear: bool, reset: bool) {
        let visible = self.seen();
        self.bits = if reset {
            0
        } else if enable {
            visible | occur
        } else {
            visible
        };
        self.cleared = clear && !reset;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, edge};
    use crate::word::Word;
    use pmugen_sim::reference::record::RecordModel;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut EventRegister::new(7), "event_register_n7");
    }

    #[test]
    fn sticky_bits_match_reference_record() {
        let seed = 0x5eed_0002;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = EventRegister::new(7);
        uut.connect_all();
        let mut model = RecordModel::new(7);
        for step in 0..3_000 {
            let occur = rng.gen::<u32>() & 0x7F & if rng.gen_bool(0.7) { 0 } else { 0x7F };
            let (enable, clear, reset) = (rng.gen_bool(0.8), rng.gen_ratio(1, 40), rng.gen_ratio(1, 200));
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.occur.next = Word::new(7, occur as u64);
                    u.enable.next = enable;
                    u.clear.next = clear;
                    u.reset.next = reset;
                },
            );
            assert_eq!(uut.seen.val().value() as u32, model.seen, "step {step}, seed {seed:#x}");
            edge(&mut uut, |u| &mut u.clock);
            model = if clear || reset {
                RecordModel::new(7)
            } else if enable {
                model.recorded(occur)
            } else {
                model
            };
        }
    }

    /// The twin is the block: outputs compared with the inputs applied and
    /// after each edge.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1402;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for events in [2, 7, 32] {
            let mut uut = EventRegister::new(events);
            uut.connect_all();
            let mut model = EventRegisterTwin::default();
            for step in 0..2_000 {
                let occur = rng.gen::<u64>() & rng.gen::<u64>() & crate::dyn_signal::low_mask(events);
                let (enable, clear, reset) = (rng.gen_bool(0.8), rng.gen_ratio(1, 20), rng.gen_ratio(1, 100));
                apply(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.occur.next = Word::new(events, occur);
                        u.enable.next = enable;
                        u.clear.next = clear;
                        u.reset.next = reset;
                    },
                );
                let context = format!("N={events}, step {step}, seed {seed:#x}");
                assert_eq!(
                    (uut.seen.val().value(), uut.stored.val().value()),
                    (model.seen(), model.stored()),
                    "{context}"
                );
                edge(&mut uut, |u| &mut u.clock);
                model.edge(occur, enable, clear, reset);
                assert_eq!(
                    (uut.seen.val().value(), uut.stored.val().value()),
                    (model.seen(), model.stored()),
                    "{context}"
                );
            }
        }
    }
}
