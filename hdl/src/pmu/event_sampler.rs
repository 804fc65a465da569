//! Event sampler of one counter: the one-cycle input latency, spent where it shortens
//! the event path most.
//!
//! Each cycle it picks, from the raw event inputs, the count c of the event its
//! select names (the thread's own field, with ANY the shared sum over threads, or the
//! core field) and registers it. The counter's step at the next edge uses this
//! sample: the events of cycle k are counted at edge k+1, as the input latency
//! requires, and the counter's own path is left with the CMASK compare, the
//! increment and a short adder.
//!
//! The sample must use the select as it is during the counting cycle: when this
//! counter's EVTSEL is written at edge k, the step at edge k+1 counts cycle k's
//! events with the new select. So while the write is on the register port, the
//! sampler selects by the value being written (the decoder's key of `wdata[15:0]`
//! and `wdata`'s ANY) instead of the stored one. With one thread the ANY sum is the
//! own field, so there is a single multiplexer.
//!
//! Latency: the sample is registered (one cycle).
//!
//! ```text
//!  written ? (decoded key, wdata ANY) : (key, ANY)
//!  events, core_events, sums --> [mux by key, ANY] --> c --> [FF] --> count
//! ```
use rust_hdl::prelude::*;

use super::event_fields::{EventFields, Ports};
use super::event_table::Scope;
use super::groups;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The event sampler of one counter.
#[derive(LogicBlock)]
pub struct EventSampler {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the sample to 0 (no events after reset).
    pub reset: Signal<In, Bit>,
    /// The select's stored event key.
    pub key: DynSignal<In>,
    /// The select's stored ANY.
    pub any: Signal<In, Bit>,
    /// This counter's EVTSEL is written at this edge.
    pub written: Signal<In, Bit>,
    /// The decoder's key of the value being written.
    pub written_key: DynSignal<In>,
    /// The ANY bit of the value being written.
    pub written_any: Signal<In, Bit>,
    /// This counter's thread's slice of the `events` port (raw).
    pub events: DynSignal<In>,
    /// The `core_events` port (raw).
    pub core_events: DynSignal<In>,
    /// The ANY sums (raw).
    pub sums: DynSignal<In>,
    /// c for this cycle's step.
    pub count: DynSignal<Out>,
    fields: Internal<EventFields>,
    sample: Internal<u64>,
}

impl EventSampler {
    /// The sampler of a counter, for event fields `fields`, event keys of
    /// `key_width` bits and a `core_events` port of `core_width` bits.
    pub fn new(fields: &EventFields, key_width: usize, core_width: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            key: DynSignal::new(key_width),
            any: Default::default(),
            written: Default::default(),
            written_key: DynSignal::new(key_width),
            written_any: Default::default(),
            events: DynSignal::new(fields.thread_width.max(1)),
            core_events: DynSignal::new(core_width),
            sums: DynSignal::new(fields.sums_width),
            count: DynSignal::new(fields.count_width),
            fields: Internal(fields.clone()),
            sample: Internal(0),
        }
    }
}

impl EventSampler {
    /// The register: the sampled count.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![FlipFlops::new("count_q", self.count.width(), 0, groups::EVENT_SAMPLES)]
    }
}

impl Logic for EventSampler {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.sample.0 = if self.reset.val() {
                0
            } else {
                let (key, any) = match self.written.val() {
                    true => (self.written_key.get(), self.written_any.val()),
                    false => (self.key.get(), self.any.val()),
                };
                let (events, core, sums) = (self.events.words(), self.core_events.words(), self.sums.words());
                self.fields.0.count(key, 0, any, events, core, sums)
            };
        }
        self.count.set(self.sample.0);
    }

    fn connect(&mut self) {
        self.count.connect();
    }

    fn hdl(&self) -> Verilog {
        let f = &self.fields.0;
        let (key_width, count_width) = (self.key.width(), f.count_width);
        let ports = Ports {
            events: "events",
            events_width: self.events.width(),
            core: "core_events",
            core_width: self.core_events.width(),
            sums: "sums",
        };
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "wire [{}:0] selected_key = written ? written_key : key;", key_width - 1);
        verilog!(v, "wire selected_any = written ? written_any : any;");
        // Two multiplexers, the own field and the ANY sum, rather than one over both:
        // a 2:1 choice per event before the multiplexer would cost a LUT per event bit.
        verilog!(v, "reg [{}:0] own;\nreg [{}:0] any_sum;\nreg thread_event;", count_width - 1, count_width - 1);
        verilog!(v, "always @(*) begin");
        verilog!(
            v,
            "    own = {};\n    any_sum = {};\n    thread_event = 1'b0;",
            literal(count_width, 0),
            literal(count_width, 0)
        );
        verilog!(v, "    case (selected_key)");
        for (index, name) in f.names.iter().enumerate() {
            let label = literal(key_width, f.keys[index]);
            let own = f.expression(index, 0, false, &ports);
            if f.fields[index].scope == Scope::Thread && f.threads > 1 {
                let sum = f.expression(index, 0, true, &ports);
                verilog!(v, "        {label}: begin own = {own}; any_sum = {sum}; thread_event = 1'b1; end // {name}");
            } else {
                verilog!(v, "        {label}: own = {own}; // {name}");
            }
        }
        verilog!(v, "        default: ;\n    endcase\nend");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(
            v,
            "    count_q <= reset ? {} : ((selected_any & thread_event) ? any_sum : own);",
            literal(count_width, 0)
        );
        verilog!(v, "end");
        verilog!(v, "always @(*) count = count_q;");
        let mut unused = Vec::new();
        if !f.has_thread_events() {
            unused.extend(["events".to_string(), "sums".to_string(), "selected_any".to_string()]);
        } else if f.threads == 1 {
            unused.extend(["sums".to_string(), "selected_any".to_string()]);
        }
        if !f.has_core_events() {
            unused.push("core_events".to_string());
        }
        v.push_str(&crate::custom::unused_sink("inputs", &unused));
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports as BlockPorts};
    use rand::{Rng, SeedableRng};

    impl BlockPorts for EventSampler {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, key, any, written, written_key, written_any, events, core_events, sums,
                count)
        }
    }

    /// Samplers of random tables (thread and core events, ANY sums, T from 1 to 4). A
    /// random key of up to 10 bits rarely names one of a dozen events, so the keys are
    /// mostly table events' keys of the same width; the raw fields are random.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1144;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut keys: Vec<(usize, u64)> = Vec::new();
        let instances: Vec<(String, EventSampler)> = (0..5)
            .map(|_| {
                let params = random_params(&mut rng);
                let fields = EventFields::new(&params);
                keys.extend(fields.keys.iter().map(|key| (fields.key_width, *key)));
                let sampler = EventSampler::new(&fields, params.event_key_width(), params.core_events_width());
                (describe(&params), sampler)
            })
            .collect();
        let table_keys = move |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| {
            let same_width: Vec<u64> = keys.iter().filter(|(w, _)| *w == width).map(|(_, key)| *key).collect();
            match name {
                "key" | "written_key" if !same_width.is_empty() && rng.gen_ratio(3, 4) => {
                    vec![same_width[rng.gen_range(0..same_width.len())]]
                }
                _ => random_input(rng, name, width),
            }
        };
        Lockstep::new("event_sampler", seed).stimulus(table_keys).cycles(3_000).run(instances);
    }
}
