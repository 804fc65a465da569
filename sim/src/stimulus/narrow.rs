//! Random stimulus for the PMU behind a 32-bit slave (docs/bus.md, 32-bit PMU slaves),
//! made to provoke torn reads and mixed-up writes: the PMU's own stimulus
//! ([`PmuStimulus`]) drives the design and asks for register accesses, and each access
//! becomes a sequence of bus words:
//!
//! - reads: +0 then +4 (the documented order), +4 alone, +0 alone, and +0 then +4 with
//!   something between them: the +0 of another register, the +0 of the same address in
//!   another thread, the +4 of another register, a second +0, a misaligned read, or
//!   the +4 in the other ring;
//! - writes: +4 then +0 (the documented order), +0 then +4, either alone, and +4 then
//!   +0 with something between: the +0 of another register or of the same address in
//!   another thread, a second +4, a write with partial strobes or a misaligned one,
//!   or the +0 in the other ring.
//!
//! Now and then a counter or the TSC is set a little below a carry into bit 32 (its
//! high word first), followed by read pairs of it, so that a +0 and its +4 read fall
//! on either side of the carry.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bus::{DesignStimulus, RegisterRequest, Spoil};
use super::PmuStimulus;
use crate::ports::bus::BusShape;
use crate::ports::pmu::{PmuConfig, PmuInputs};
use crate::reference::pmu::addr::{PERF_CNTR, PMU_ID, SHADOW, TSC};

/// Reads waiting for the bus: room for a few whole sequences.
const READ_QUEUE: usize = 8;

/// The PMU's stimulus on a 32-bit bus.
pub struct NarrowPmuStimulus {
    inner: PmuStimulus,
    rng: ChaCha8Rng,
    threads: u8,
    counters: u8,
    asked: Vec<RegisterRequest>,
}

impl NarrowPmuStimulus {
    /// Stimulus for `config` from `seed`.
    pub fn new(config: &PmuConfig, seed: u64) -> Self {
        Self {
            inner: PmuStimulus::new(config, seed),
            // Its own stream, apart from the design's and the bus master's.
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x0032_B175),
            threads: config.threads as u8,
            counters: config.counters as u8,
            asked: Vec::new(),
        }
    }

    /// A register whose words change while it is read (or that differs by thread).
    fn other_register(&mut self, not: u8) -> u8 {
        let choices = [TSC, PERF_CNTR, PERF_CNTR + self.counters - 1, PMU_ID, SHADOW];
        let register = choices[self.rng.gen_range(0..choices.len())];
        if register == not {
            register ^ 0x10
        } else {
            register
        }
    }

    /// The words of one requested access, in order.
    fn sequence(&mut self, request: RegisterRequest, out: &mut Vec<RegisterRequest>) {
        let low = RegisterRequest { data: request.data & 0xFFFF_FFFF, ..request };
        let high = RegisterRequest { data: request.data >> 32, high: true, ..request };
        let other_thread = RegisterRequest { thread: (request.thread + 1) % 4, ..low };
        let other = RegisterRequest { register: self.other_register(request.register), ..low };
        let flipped = |word: RegisterRequest| RegisterRequest { privileged: !word.privileged, ..word };
        let spoiled = |word: RegisterRequest, spoil| RegisterRequest { spoil: Some(spoil), ..word };
        let rng = &mut self.rng;
        let words = if request.write {
            match rng.gen_range(0..100) {
                0..=34 => vec![high, low],
                35..=44 => vec![low, high],
                45..=49 => vec![high],
                50..=59 => vec![low],
                60..=64 => vec![high, other, low],
                65..=69 => vec![high, other_thread, low],
                70..=74 => vec![high, RegisterRequest { data: rng.gen::<u32>() as u64, ..high }, low],
                75..=79 => vec![high, spoiled(low, Spoil::PartialStrobes), low],
                80..=84 => vec![high, spoiled(high, Spoil::Misaligned), low],
                85..=89 => vec![high, spoiled(high, Spoil::PartialStrobes), low],
                _ => vec![high, flipped(low)],
            }
        } else {
            match rng.gen_range(0..100) {
                0..=34 => vec![low, high],
                35..=44 => vec![high],
                45..=54 => vec![low],
                55..=64 => vec![low, other, high],
                65..=74 => vec![low, other_thread, high],
                75..=79 => vec![low, RegisterRequest { high: true, ..other }, high],
                80..=84 => vec![low, low, high],
                85..=89 => vec![low, spoiled(low, Spoil::Misaligned), high],
                _ => vec![low, flipped(high)],
            }
        };
        out.extend(words);
    }

    /// A counter or the TSC of an existing thread, set just below a carry into bit
    /// 32 (high word first, in ring 0), then read as pairs.
    fn near_carry(&mut self, out: &mut Vec<RegisterRequest>) {
        let rng = &mut self.rng;
        let thread = rng.gen_range(0..self.threads);
        let register = if rng.gen_bool(0.4) { TSC } else { PERF_CNTR + rng.gen_range(0..self.counters) };
        let value = (rng.gen_range(0..4u64) << 32) | (0xFFFF_FFFF - rng.gen_range(0..12u64));
        let write = RegisterRequest::new(true, thread, register, value, true);
        out.push(RegisterRequest { data: value >> 32, high: true, ..write });
        out.push(RegisterRequest { data: value & 0xFFFF_FFFF, ..write });
        let read = RegisterRequest::new(false, thread, register, 0, true);
        for _ in 0..rng.gen_range(2..=4) {
            out.push(read);
            out.push(RegisterRequest { high: true, ..read });
        }
    }
}

impl DesignStimulus for NarrowPmuStimulus {
    type Inputs = PmuInputs;
    const SHAPE: BusShape = BusShape::PMU32;
    const READ_QUEUE: usize = READ_QUEUE;

    fn next_cycle(&mut self, requests: &mut Vec<RegisterRequest>) -> PmuInputs {
        self.asked.clear();
        let inputs = self.inner.next_cycle(&mut self.asked);
        if self.rng.gen_ratio(1, 30) {
            self.near_carry(requests);
        } else if self.rng.gen_bool(0.25) {
            // A quarter of the accesses asked for: a sequence of words takes several, and the
            // queues must keep room for whole sequences.
            for index in 0..self.asked.len() {
                let request = self.asked[index];
                self.sequence(request, requests);
            }
        }
        inputs
    }
    fn in_reset(inputs: &PmuInputs) -> bool {
        inputs.reset
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::pmu::{EventScope, EventSpec};

    #[test]
    fn every_request_becomes_words_of_its_register_and_some_come_in_pairs() {
        let event =
            EventSpec { name: "CYCLES".into(), code: 0x2A, umask: 0, per_cycle_max: 1, scope: EventScope::Thread };
        let config = PmuConfig {
            threads: 2,
            counters: 2,
            counter_width: 40,
            events: vec![event],
            trace_depth: 4,
            address_width: 16,
            profile_entries: 0,
        };
        let mut stimulus = NarrowPmuStimulus::new(&config, 3);
        let (mut pairs, mut spoiled, mut flipped) = (0, 0, 0);
        let mut requests = Vec::new();
        for _ in 0..6000 {
            requests.clear();
            stimulus.next_cycle(&mut requests);
            for pair in requests.windows(2) {
                let same = (pair[0].thread, pair[0].register) == (pair[1].thread, pair[1].register);
                pairs += (same && !pair[0].high && pair[1].high && !pair[0].write) as u32;
                flipped += (same && pair[0].privileged != pair[1].privileged) as u32;
            }
            spoiled += requests.iter().filter(|request| request.spoil.is_some()).count() as u32;
            assert!(requests.iter().all(|request| request.high || request.data <= u32::MAX as u64));
        }
        assert!(pairs > 300 && spoiled > 50 && flipped > 30, "pairs {pairs}, spoiled {spoiled}, flipped {flipped}");
    }
}
