//! Event decoder: the key of an (EVENT, UMASK) pair and whether the pair is a table
//! event.
//!
//! One decoder for the whole core looks at the register port's write data
//! (`reg_wdata[15:0]` = {UMASK, EVENT}); the event select being written stores both
//! answers, and its sampler uses the key while the write is on the port. The key is
//! a few of the code's own bits when they tell the table's events apart (then it
//! is plain wiring), else the event's table position (see [`super::event_key`]). A
//! pair that is not in the table is "unknown": such a select counts nothing (seed
//! 001 Table 1-5: an illegal encoding raises no error and does not count).
//!
//! Latency: combinational.
//!
//! ```text
//!  {UMASK, EVENT} --> [key bits | case over the table] --> key, known
//! ```
use rust_hdl::prelude::*;

use super::event_key::EventKey;
use super::params::PmuParams;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// Not a table event.
const UNKNOWN: u16 = u16::MAX;

/// The (EVENT, UMASK) decoder.
#[derive(LogicBlock)]
pub struct EventDecoder {
    /// {UMASK, EVENT}: bits [15:0] of an EVTSEL value.
    pub code: Signal<In, Bits<16>>,
    /// The pair's event key.
    pub key: DynSignal<Out>,
    /// The pair names a table event.
    pub known: Signal<Out, Bit>,
    event_key: Internal<EventKey>,
    events: Internal<Vec<(u16, String)>>,
    positions: Internal<Vec<u16>>,
}

impl EventDecoder {
    /// A decoder for the event table of `params`.
    pub fn new(params: &PmuParams) -> Self {
        let events: Vec<(u16, String)> =
            params.table.events.iter().map(|e| ((e.umask as u16) << 8 | e.code as u16, e.name.clone())).collect();
        assert!(!events.is_empty() && events.len() < UNKNOWN as usize, "EventDecoder: bad table size");
        let mut positions = vec![UNKNOWN; 1 << 16];
        for (position, (code, _)) in events.iter().enumerate() {
            assert_eq!(positions[*code as usize], UNKNOWN, "EventDecoder: code {code:#06x} twice in the table");
            positions[*code as usize] = position as u16;
        }
        let event_key = params.event_key();
        Self {
            code: Default::default(),
            key: DynSignal::new(event_key.width()),
            known: Default::default(),
            event_key: Internal(event_key),
            events: Internal(events),
            positions: Internal(positions),
        }
    }
}

impl Logic for EventDecoder {
    fn update(&mut self) {
        let code = self.code.val().index() as u16;
        let position = self.positions.0[code as usize];
        self.known.next = position != UNKNOWN;
        let decoded = if position == UNKNOWN { 0 } else { position as u64 };
        self.key.set(self.event_key.0.of_write(code, decoded));
    }

    fn connect(&mut self) {
        self.key.connect();
        self.known.connect();
    }

    fn hdl(&self) -> Verilog {
        let width = self.key.width();
        let by_position = matches!(self.event_key.0, EventKey::Position { .. });
        let mut v = String::new();
        verilog!(v, "reg [{}:0] position;", width - 1);
        verilog!(v, "always @(*) begin");
        verilog!(v, "    known = 1'b1;\n    position = {};", literal(width, 0));
        verilog!(v, "    case (code)");
        for (position, (code, name)) in self.events.0.iter().enumerate() {
            let value =
                if by_position { format!("position = {}; ", literal(width, position as u64)) } else { String::new() };
            verilog!(v, "        16'h{code:04x}: begin {value}end // {name}");
        }
        verilog!(v, "        default: known = 1'b0;");
        verilog!(v, "    endcase");
        verilog!(v, "    key = {};", self.event_key.0.expression("code", "position"));
        verilog!(v, "end");
        if !by_position {
            verilog!(v, "wire unused_position = ^position; // the key is taken from the code bits");
        }
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::event_table::EventTable;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Combinational, CombinationalPorts, Port};
    use crate::testing::{assert_valid_verilog, settle};
    use rand::{Rng, SeedableRng};

    impl CombinationalPorts for EventDecoder {
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; code, key, known)
        }
    }

    /// A table that no 10 code bits tell apart, so that its key is the table position:
    /// code 0 and the 16 codes of one bit (any 10 bits miss one of them, whose code
    /// then looks like 0).
    fn table_keyed_by_position(counters: usize) -> EventTable {
        let rows: Vec<String> = (0..=16)
            .map(|e| {
                let code: u16 = if e == 0 { 0 } else { 1 << (e - 1) };
                format!(
                    r#"{{"EventName": "B{e}", "EventCode": "0x{:02X}", "UMask": "0x{:02X}"}}"#,
                    code & 0xFF,
                    code >> 8
                )
            })
            .collect();
        let json = format!("[{}]", rows.join(",\n"));
        EventTable::from_json(&json, "single_bits.json", "single_bits", counters).expect("a valid table")
    }

    /// Decoders of random tables, and one more whose key is the table position (random
    /// tables of up to 12 events, and the Knights Corner table, are keyed by code bits).
    /// A random 16-bit code is almost never in a table, so half of the codes are the
    /// tables' own, some with one bit flipped.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1142;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut params: Vec<PmuParams> = (0..4).map(|_| random_params(&mut rng)).collect();
        let base = random_params(&mut rng);
        let table = table_keyed_by_position(base.counters);
        let by_position = PmuParams::new(base.threads as u64, base.counters as u64, base.counter_width as u64, table)
            .expect("the parameters of a random PMU");
        assert!(matches!(by_position.event_key(), EventKey::Position { .. }));
        params.push(by_position);
        let codes: Vec<u64> =
            params.iter().flat_map(|p| p.table.events.iter().map(|e| (e.umask as u64) << 8 | e.code as u64)).collect();
        let instances: Vec<(String, Combinational<EventDecoder>)> =
            params.iter().map(|p| (describe(p), Combinational::new(EventDecoder::new(p)))).collect();
        let table_codes = move |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "code" if rng.gen_bool(0.5) => {
                let code = codes[rng.gen_range(0..codes.len())];
                vec![if rng.gen_ratio(1, 4) { code ^ 1 << rng.gen_range(0..16) } else { code }]
            }
            _ => random_input(rng, name, width),
        };
        Lockstep::new("event_decoder", seed).stimulus(table_codes).cycles(3_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut EventDecoder::new(&PmuParams::with_default_table(4, 2, 40)), "event_decoder_knc");
    }

    #[test]
    fn every_code_pair_is_known_exactly_when_it_is_in_the_table() {
        let params = PmuParams::with_default_table(1, 1, 16);
        // The table as the reference model sees it, not as the decoder stores it.
        let config = params.port_config();
        let key = params.event_key();
        let mut uut = EventDecoder::new(&params);
        uut.connect_all();
        for code in 0..=u16::MAX {
            uut.code.next = (code as u64).to_bits();
            settle(&mut uut);
            let position = config.events.iter().position(|e| (e.umask as u16) << 8 | e.code as u16 == code);
            assert_eq!(uut.known.val(), position.is_some(), "code {code:#06x}");
            if let Some(position) = position {
                assert_eq!(uut.key.get(), key.of(code, position), "code {code:#06x}");
            }
        }
    }
}
