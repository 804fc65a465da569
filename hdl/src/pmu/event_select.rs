//! Event select of one counter: the PERF_EVTSEL register and its decoded event
//! (seed 001 §1.4.3.3, Table 1-5).
//!
//! When EVTSEL is written, the shared [`super::event_decoder`] has already turned
//! {UMASK, EVENT} into an event key; the select stores that key, and whether the
//! pair is in the table, next to the register. The counter's sampler multiplexes the
//! event fields by this key, and a select that names no table event counts nothing.
//! After reset EVTSEL is 0, so the decoded state is that of event 0x00, umask 0x00.
//!
//! Latency: a write takes effect from the next cycle.
//!
//! ```text
//!  write, wdata, decoded key/known --> [EVTSEL | key | known] --> evtsel, key (and next values)
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::params::PmuParams;
use super::regmap::evtsel;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The register state: EVTSEL, its event key and whether it names a table event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SelectState {
    evtsel: u64,
    key: u64,
    known: bool,
}

/// PERF_EVTSEL of one counter with its decoded event.
#[derive(LogicBlock)]
pub struct EventSelect {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: EVTSEL to 0.
    pub reset: Signal<In, Bit>,
    /// This EVTSEL is written at this edge.
    pub write: Signal<In, Bit>,
    /// The write data's low 32 bits.
    pub wdata: Signal<In, Bits<32>>,
    /// The decoder's event key for `wdata[15:0]`.
    pub decoded_key: DynSignal<In>,
    /// `wdata[15:0]` names a table event.
    pub decoded_known: Signal<In, Bit>,
    /// The EVTSEL value (bit 19 reads 0).
    pub evtsel: Signal<Out, Bits<32>>,
    /// The selected event's key.
    pub key: DynSignal<Out>,
    /// The EVTSEL value after this edge (unless reset): for qualifying the next step.
    pub evtsel_next: Signal<Out, Bits<32>>,
    /// The select names a table event after this edge (unless reset).
    pub known_next: Signal<Out, Bit>,
    state: Internal<SelectState>,
    reset_state: Internal<SelectState>,
}

impl EventSelect {
    /// A select in a PMU of `params`.
    pub fn new(params: &PmuParams) -> Self {
        let zero = params.table.events.iter().position(|e| e.code == 0 && e.umask == 0);
        let reset = SelectState { evtsel: 0, key: params.event_key().of(0, zero.unwrap_or(0)), known: zero.is_some() };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            write: Default::default(),
            wdata: Default::default(),
            decoded_key: DynSignal::new(params.event_key_width()),
            decoded_known: Default::default(),
            evtsel: Default::default(),
            key: DynSignal::new(params.event_key_width()),
            evtsel_next: Default::default(),
            known_next: Default::default(),
            state: Internal(reset),
            reset_state: Internal(reset),
        }
    }
}

impl EventSelect {
    /// The registers: PERF_EVTSEL, its event key and whether it names a table event.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let reset = self.reset_state.0;
        vec![
            FlipFlops::new("evtsel_q", 32, 0, groups::EVENT_SELECTS),
            FlipFlops::new("key_q", self.key.width(), reset.key, groups::EVENT_KEYS),
            FlipFlops::new("known_q", 1, reset.known as u64, groups::EVENT_KEYS),
        ]
    }
}

impl Logic for EventSelect {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.state.0 = if self.reset.val() {
                self.reset_state.0
            } else if self.write.val() {
                SelectState {
                    evtsel: self.wdata.val().index() as u64 & evtsel::WRITABLE,
                    key: self.decoded_key.get(),
                    known: self.decoded_known.val(),
                }
            } else {
                self.state.0
            };
        }
        self.evtsel.next = self.state.0.evtsel.to_bits();
        self.key.set(self.state.0.key);
        let written = self.write.val();
        let next = if written { self.wdata.val().index() as u64 & evtsel::WRITABLE } else { self.state.0.evtsel };
        self.evtsel_next.next = next.to_bits();
        self.known_next.next = if written { self.decoded_known.val() } else { self.state.0.known };
    }

    fn connect(&mut self) {
        self.evtsel.connect();
        self.key.connect();
        self.evtsel_next.connect();
        self.known_next.connect();
    }

    fn hdl(&self) -> Verilog {
        let width = self.key.width();
        let reset = self.reset_state.0;
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(
            v,
            "        evtsel_q <= 32'h0;\n        key_q <= {};\n        known_q <= 1'b{};",
            literal(width, reset.key),
            reset.known as u8
        );
        verilog!(v, "    end else if (write) begin");
        verilog!(v, "        evtsel_q <= {{wdata[31:20], 1'b0, wdata[18:0]}}; // bit 19 is reserved");
        verilog!(v, "        key_q <= decoded_key;\n        known_q <= decoded_known;");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin\n    evtsel = evtsel_q;\n    key = key_q;");
        verilog!(v, "    evtsel_next = write ? {{wdata[31:20], 1'b0, wdata[18:0]}} : evtsel_q;");
        verilog!(v, "    known_next = write ? decoded_known : known_q;\nend");
        verilog!(v, "wire unused_reserved = wdata[19]; // EVTSEL bit 19 is reserved: writes are ignored");
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{assert_valid_verilog, cycle};
    use rand::{Rng, SeedableRng};

    impl Ports for EventSelect {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, write, wdata, decoded_key, decoded_known, evtsel, key, evtsel_next,
                known_next)
        }
    }

    /// Selects of random tables (reset values of their own, key widths from 1 to 10
    /// bits); writes on every other cycle, reserved bit 19 random.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1143;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, EventSelect)> = (0..5)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), EventSelect::new(&params))
            })
            .collect();
        Lockstep::new("event_select", seed).cycles(3_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut EventSelect::new(&PmuParams::with_default_table(4, 2, 40)), "event_select_knc");
    }

    #[test]
    fn register_and_decoded_event_follow_writes_and_reset() {
        let seed = 0x5eed_1003;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let params = PmuParams::with_default_table(3, 2, 32);
        let config = params.port_config();
        let position = |code: u64| config.events.iter().position(|e| (e.umask as u64) << 8 | e.code as u64 == code);
        let key = params.event_key();
        let key_of = |code: u64| key.of(code as u16, position(code).unwrap_or(0));
        let mut uut = EventSelect::new(&params);
        uut.connect_all();
        // After reset EVTSEL = 0, which names event 0x00/0x00 if the table has it.
        let (mut evtsel_value, mut selected) = (0u64, position(0).map(|_| key_of(0)));
        for step in 0..5_000 {
            let event = rng.gen_range(0..config.events.len() + 3);
            let code = match config.events.get(event) {
                Some(e) => (e.umask as u64) << 8 | e.code as u64,
                None => rng.gen::<u64>() & 0xFFFF,
            };
            let wdata = rng.gen::<u64>() & 0xFFFF_0000 | code;
            let (write, reset) = (rng.gen_bool(0.1), rng.gen_ratio(1, 400));
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.write.next = write;
                    u.wdata.next = wdata.to_bits();
                    u.decoded_key.set(key_of(code));
                    u.decoded_known.next = position(code).is_some();
                    u.reset.next = reset;
                },
            );
            if reset {
                (evtsel_value, selected) = (0, position(0).map(|_| key_of(0)));
            } else if write {
                (evtsel_value, selected) = (wdata & 0xFFF7_FFFF, position(code).map(|_| key_of(code)));
            }
            assert_eq!(uut.evtsel.val().index() as u64, evtsel_value, "step {step}");
            assert_eq!(
                uut.evtsel_next.val().index() as u64,
                evtsel_value,
                "without a write, the next value is the value"
            );
            if !reset {
                // The write still on the port repeats itself: the next value is the value.
                assert_eq!(uut.known_next.val(), selected.is_some(), "step {step}");
            }
            if let Some(key) = selected {
                assert_eq!(uut.key.get(), key, "step {step}");
            }
        }
    }
}
