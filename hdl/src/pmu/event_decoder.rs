//! Event decoder: which table event an (EVENT, UMASK) pair names.
//!
//! One decoder for the whole core looks at the register port's write data
//! (`reg_wdata[15:0]` = {UMASK, EVENT}); the event select being written stores its
//! answer next to the EVTSEL value, so each counter's selection logic works from a
//! small table index instead of comparing 16 bits against every table entry. A pair
//! that is not in the table is "unknown": such a select counts nothing (seed 001
//! Table 1-5: an illegal encoding raises no error and does not count).
//!
//! Latency: combinational.
//!
//! ```text
//!  {UMASK, EVENT} --> [case over the table] --> index, known
//! ```
use rust_hdl::prelude::*;

use super::params::PmuParams;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// Not a table event.
const UNKNOWN: u16 = u16::MAX;

/// The (EVENT, UMASK) to table-index decoder.
#[derive(LogicBlock)]
pub struct EventDecoder {
    /// {UMASK, EVENT}: bits [15:0] of an EVTSEL value.
    pub code: Signal<In, Bits<16>>,
    /// The event's position in the table (0 when unknown).
    pub index: DynSignal<Out>,
    /// The pair names a table event.
    pub known: Signal<Out, Bit>,
    events: Internal<Vec<(u16, String)>>,
    lookup: Internal<Vec<u16>>,
}

impl EventDecoder {
    /// A decoder for the event table of `params`.
    pub fn new(params: &PmuParams) -> Self {
        let events: Vec<(u16, String)> =
            params.table.events.iter().map(|e| ((e.umask as u16) << 8 | e.code as u16, e.name.clone())).collect();
        assert!(!events.is_empty() && events.len() < UNKNOWN as usize, "EventDecoder: bad table size");
        let mut lookup = vec![UNKNOWN; 1 << 16];
        for (index, (code, _)) in events.iter().enumerate() {
            assert_eq!(lookup[*code as usize], UNKNOWN, "EventDecoder: code {code:#06x} twice in the table");
            lookup[*code as usize] = index as u16;
        }
        Self {
            code: Default::default(),
            index: DynSignal::new(params.event_index_width()),
            known: Default::default(),
            events: Internal(events),
            lookup: Internal(lookup),
        }
    }
}

impl Logic for EventDecoder {
    fn update(&mut self) {
        let found = self.lookup.0[self.code.val().index()];
        self.known.next = found != UNKNOWN;
        self.index.set(if found == UNKNOWN { 0 } else { found as u64 });
    }

    fn connect(&mut self) {
        self.index.connect();
        self.known.connect();
    }

    fn hdl(&self) -> Verilog {
        let width = self.index.width();
        let mut v = String::new();
        verilog!(v, "always @(*) begin");
        verilog!(v, "    known = 1'b1;");
        verilog!(v, "    case (code)");
        for (index, (code, name)) in self.events.0.iter().enumerate() {
            verilog!(v, "        16'h{code:04x}: index = {}; // {name}", literal(width, index as u64));
        }
        verilog!(v, "        default: begin index = {}; known = 1'b0; end", literal(width, 0));
        verilog!(v, "    endcase");
        verilog!(v, "end");
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, settle};
    use pmugen_sim::ports::pmu::{EventScope, EventSpec, PmuConfig};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut EventDecoder::new(&PmuParams::with_default_table(4, 2, 40)), "event_decoder_knc");
    }

    #[test]
    fn every_code_pair_decodes_to_its_table_position_or_unknown() {
        let params = PmuParams::with_default_table(1, 1, 16);
        // The table as the reference model sees it: codes written from the table, not the decoder.
        let config = PmuConfig {
            threads: 1,
            counters: 1,
            counter_width: 16,
            events: params
                .table
                .events
                .iter()
                .map(|e| EventSpec {
                    name: e.name.clone(),
                    code: e.code,
                    umask: e.umask,
                    per_cycle_max: e.per_cycle_max,
                    scope: EventScope::Thread,
                })
                .collect(),
        };
        let mut uut = EventDecoder::new(&params);
        uut.connect_all();
        for code in 0..=u16::MAX {
            uut.code.next = (code as u64).to_bits();
            settle(&mut uut);
            let expected = config.events.iter().position(|e| (e.umask as u16) << 8 | e.code as u16 == code);
            assert_eq!(uut.known.val(), expected.is_some(), "code {code:#06x}");
            assert_eq!(uut.index.get(), expected.unwrap_or(0) as u64, "code {code:#06x}");
        }
    }
}
