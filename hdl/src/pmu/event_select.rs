//! Event select of one counter: the PERF_EVTSEL register, its decoded event, and the
//! count c of the selected event in this cycle (seed 001 §1.4.3.3, Table 1-5).
//!
//! When EVTSEL is written, the shared [`super::event_decoder`] has already turned
//! {UMASK, EVENT} into a table index; the select stores that index (and whether the
//! pair is in the table) next to the register, so c is a plain multiplexer over the
//! event fields: the field of this counter's thread, with ANY the sum of the field
//! over all threads, or the core-scope field (ANY has no effect on core events).
//!
//! Latency: the register takes effect from the cycle after the write; c is
//! combinational from the input stage's (already one-cycle-late) event fields.
//!
//! ```text
//!  write, wdata, decoded --> [EVTSEL | index | known] --> evtsel, known
//!  events, core_events ----> [field mux, ANY sum] ------> count
//! ```
use rust_hdl::prelude::*;

use super::event_table::Scope;
use super::params::PmuParams;
use super::regmap::evtsel;
use crate::custom::{literal, register_declaration, slice, zero_extend, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// Where the select finds each event's field.
#[derive(Clone, Debug)]
struct Fields {
    thread: usize,
    threads: usize,
    thread_width: usize,
    /// (scope, lsb, width) per table event.
    fields: Vec<(Scope, usize, usize)>,
    /// Event names, for the generated Verilog's comments.
    names: Vec<String>,
    /// The decoded state of EVTSEL = 0 (event 0x00, umask 0x00), the reset value.
    reset: SelectState,
}

/// The register state: EVTSEL, the decoded index and whether it is a table event.
#[derive(Clone, Copy, Debug, Default)]
struct SelectState {
    evtsel: u64,
    index: usize,
    known: bool,
}

/// PERF_EVTSEL of counter i of thread t, with its event multiplexer.
#[derive(LogicBlock)]
pub struct EventSelect {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: EVTSEL to 0 (event 0x00/0x00, disabled).
    pub reset: Signal<In, Bit>,
    /// This EVTSEL is written at this edge.
    pub write: Signal<In, Bit>,
    /// The write data's low 32 bits.
    pub wdata: Signal<In, Bits<32>>,
    /// The decoder's table index for `wdata[15:0]`.
    pub decoded_index: DynSignal<In>,
    /// `wdata[15:0]` names a table event.
    pub decoded_known: Signal<In, Bit>,
    /// The input stage's thread-scope event fields (all threads).
    pub events: DynSignal<In>,
    /// The input stage's core-scope event fields.
    pub core_events: DynSignal<In>,
    /// The EVTSEL value (bit 19 reads 0).
    pub evtsel: Signal<Out, Bits<32>>,
    /// The selected pair is a table event.
    pub known: Signal<Out, Bit>,
    /// c: the selected event's count this cycle.
    pub count: DynSignal<Out>,
    fields: Internal<Fields>,
    state: Internal<SelectState>,
}

impl EventSelect {
    /// The select of a counter of thread `thread` in a PMU of `params`.
    pub fn new(params: &PmuParams, thread: usize) -> Self {
        assert!(thread < params.threads, "EventSelect: thread {thread} >= T = {}", params.threads);
        let layout = params.layout();
        let fields = layout.fields.iter().map(|f| (f.scope, f.lsb, f.width)).collect();
        let zero = params.table.events.iter().position(|e| e.code == 0 && e.umask == 0);
        let reset = SelectState { evtsel: 0, index: zero.unwrap_or(0), known: zero.is_some() };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            write: Default::default(),
            wdata: Default::default(),
            decoded_index: DynSignal::new(params.event_index_width()),
            decoded_known: Default::default(),
            events: DynSignal::new(params.events_width()),
            core_events: DynSignal::new(params.core_events_width()),
            evtsel: Default::default(),
            known: Default::default(),
            count: DynSignal::new(params.count_width()),
            fields: Internal(Fields {
                thread,
                threads: params.threads,
                thread_width: layout.thread_width,
                fields,
                names: params.table.events.iter().map(|e| e.name.clone()).collect(),
                reset,
            }),
            state: Internal(reset),
        }
    }

    /// c for the current state and event inputs.
    fn count_now(&self) -> u64 {
        let state = &self.state.0;
        let f = &self.fields.0;
        let Some(&(scope, lsb, width)) = f.fields.get(state.index) else {
            return 0;
        };
        match scope {
            Scope::Core => self.core_events.field(lsb, width),
            Scope::Thread if state.evtsel & (1 << evtsel::ANY.lsb) != 0 => {
                (0..f.threads).map(|t| self.events.field(t * f.thread_width + lsb, width)).sum()
            }
            Scope::Thread => self.events.field(f.thread * f.thread_width + lsb, width),
        }
    }

    /// The Verilog expression of c for table event `index`.
    fn count_expression(&self, index: usize) -> String {
        let f = &self.fields.0;
        let total = self.count.width();
        let (scope, lsb, width) = f.fields[index];
        let field = |port: &str, port_width: usize, at: usize| zero_extend(&slice(port, at, width, port_width), width, total);
        match scope {
            Scope::Core => field("core_events", self.core_events.width(), lsb),
            Scope::Thread => {
                let events_width = self.events.width();
                let own = field("events", events_width, f.thread * f.thread_width + lsb);
                let all: Vec<String> =
                    (0..f.threads).map(|t| field("events", events_width, t * f.thread_width + lsb)).collect();
                format!("any ? ({}) : {own}", all.join(" + "))
            }
        }
    }
}

impl Logic for EventSelect {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.state.0 = if self.reset.val() {
                self.fields.0.reset
            } else if self.write.val() {
                SelectState {
                    evtsel: self.wdata.val().index() as u64 & evtsel::WRITABLE,
                    index: self.decoded_index.get() as usize,
                    known: self.decoded_known.val(),
                }
            } else {
                self.state.0
            };
        }
        self.evtsel.next = self.state.0.evtsel.to_bits();
        self.known.next = self.state.0.known;
        let count = self.count_now();
        self.count.set(count);
    }

    fn connect(&mut self) {
        self.evtsel.connect();
        self.known.connect();
        self.count.connect();
    }

    fn hdl(&self) -> Verilog {
        let index_width = self.decoded_index.width();
        let count_width = self.count.width();
        let uses_thread = self.fields.0.fields.iter().any(|f| f.0 == Scope::Thread);
        let uses_core = self.fields.0.fields.iter().any(|f| f.0 == Scope::Core);
        let reset = self.fields.0.reset;
        let (reset_index, reset_known) = (literal(index_width, reset.index as u64), reset.known as u8);
        let mut v = String::new();
        verilog!(v, "// After reset EVTSEL is 0: the decoded state is that of event 0x00, umask 0x00.");
        v.push_str(&register_declaration("evtsel_q", 32, 0));
        v.push_str(&register_declaration("index_q", index_width, reset.index as u64));
        v.push_str(&register_declaration("known_q", 1, reset.known as u64));
        verilog!(v, "wire any = evtsel_q[{}];", evtsel::ANY.lsb);
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(v, "        evtsel_q <= 32'h0;\n        index_q <= {reset_index};\n        known_q <= 1'b{reset_known};");
        verilog!(v, "    end else if (write) begin");
        verilog!(v, "        evtsel_q <= {{wdata[31:20], 1'b0, wdata[18:0]}}; // bit 19 is reserved");
        verilog!(v, "        index_q <= decoded_index;\n        known_q <= decoded_known;");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    evtsel = evtsel_q;\n    known = known_q;");
        verilog!(v, "    case (index_q)");
        for (index, name) in self.fields.0.names.iter().enumerate() {
            let (label, expression) = (literal(index_width, index as u64), self.count_expression(index));
            verilog!(v, "        {label}: count = {expression}; // {name}");
        }
        verilog!(v, "        default: count = {};", literal(count_width, 0));
        verilog!(v, "    endcase");
        verilog!(v, "end");
        verilog!(v, "wire unused_reserved = wdata[19]; // EVTSEL bit 19 is reserved: writes are ignored");
        if !uses_thread {
            verilog!(v, "wire unused_events = ^{{events, any}}; // no thread-scope event in the table");
        }
        if !uses_core {
            verilog!(v, "wire unused_core_events = ^core_events; // no core-scope event in the table");
        }
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pmu::testing::{reference_config, table_with_core_events_only};
    use crate::testing::{assert_valid_verilog, cycle};
    use pmugen_sim::ports::pmu::{get_bits, EventScope, PmuInputs};
    use pmugen_sim::reference::pmu::layout::{input_layout, set_event};
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        let default = PmuParams::with_default_table(4, 2, 40);
        assert_valid_verilog(&mut EventSelect::new(&default, 2), "event_select_knc_t4");
        assert_valid_verilog(&mut EventSelect::new(&table_with_core_events_only(1), 0), "event_select_core_only");
    }

    /// The count the reference model's input layout gives for `event` of `thread`.
    fn expected_count(inputs: &PmuInputs, params: &PmuParams, event: usize, thread: usize, any: bool) -> u64 {
        let config = reference_config(params);
        let layout = input_layout(&config);
        let field = &layout.fields[event];
        let at = |t: usize| field.lsb + t * layout.thread_width;
        match (field.scope, any) {
            (EventScope::Core, _) => get_bits(&inputs.core_events, field.lsb, field.width),
            (EventScope::Thread, false) => get_bits(&inputs.events, at(thread), field.width),
            (EventScope::Thread, true) => (0..params.threads).map(|t| get_bits(&inputs.events, at(t), field.width)).sum(),
        }
    }

    #[test]
    fn register_decoded_event_and_count_follow_the_reference_layout() {
        let seed = 0x5eed_1003;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let params = PmuParams::with_default_table(3, 2, 32);
        let config = reference_config(&params);
        let thread = 1;
        let mut uut = EventSelect::new(&params, thread);
        uut.connect_all();
        let zero = config.events.iter().position(|e| e.code == 0 && e.umask == 0);
        let (mut evtsel_value, mut selected): (u64, Option<usize>) = (0, zero);
        for step in 0..5_000 {
            let mut inputs = PmuInputs::default();
            for event in 0..config.events.len() {
                for t in 0..params.threads {
                    set_event(&mut inputs, &config, event, t, rng.gen::<u64>() & if rng.gen_bool(0.3) { 0xFF } else { 1 });
                }
            }
            let event = rng.gen_range(0..config.events.len() + 3);
            let code = match config.events.get(event) {
                Some(e) => (e.umask as u64) << 8 | e.code as u64,
                None => rng.gen::<u64>() & 0xFFFF,
            };
            let wdata = rng.gen::<u64>() & !0xFFFF | code;
            let index = config.events.iter().position(|e| (e.umask as u64) << 8 | e.code as u64 == code);
            let (write, reset) = (rng.gen_bool(0.05), rng.gen_ratio(1, 400));
            cycle(&mut uut, |u| &mut u.clock, |u| {
                u.write.next = write;
                u.wdata.next = (wdata & 0xFFFF_FFFF).to_bits();
                u.decoded_index.set(index.unwrap_or(0) as u64);
                u.decoded_known.next = index.is_some();
                u.events.set_words(&inputs.events);
                u.core_events.set_words(&inputs.core_events);
                u.reset.next = reset;
            });
            if reset {
                (evtsel_value, selected) = (0, zero);
            } else if write {
                (evtsel_value, selected) = (wdata & 0xFFF7_FFFF, index);
            }
            let any = evtsel_value >> 21 & 1 == 1;
            assert_eq!(uut.evtsel.val().index() as u64, evtsel_value, "step {step}");
            assert_eq!(uut.known.val(), selected.is_some(), "step {step}");
            if let Some(event) = selected {
                let expected = expected_count(&inputs, &params, event, thread, any);
                assert_eq!(uut.count.get(), expected, "step {step}: event {event}, any {any}");
            }
        }
    }
}
