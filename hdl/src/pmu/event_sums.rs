//! ANY sums: for every thread-scope event, its count summed over the T threads, once
//! for the whole core. A counter whose select has ANY = 1 counts this sum (seed 001
//! Table 1-5, thread count mode); sharing it keeps the adders out of every counter's
//! multiplexer.
//!
//! Latency: combinational, from the raw `events` port (the samplers register it).
//!
//! ```text
//!  events[t*TEW + lsb +: IW], t = 0..T-1 --> [+] --> sums[sum_lsb +: SW]
//! ```
use rust_hdl::prelude::*;

use super::event_fields::EventFields;
use super::event_table::Scope;
use crate::custom::{slice, zero_extend, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// The per-event ANY sums.
#[derive(LogicBlock)]
pub struct EventSums {
    /// The `events` port (all threads' thread-scope fields).
    pub events: DynSignal<In>,
    /// Per thread event, the sum of its fields over all threads.
    pub sums: DynSignal<Out>,
    fields: Internal<EventFields>,
}

impl EventSums {
    /// The sums for the event fields `fields`, `events_width` bits of events.
    pub fn new(fields: &EventFields, events_width: usize) -> Self {
        Self {
            events: DynSignal::new(events_width),
            sums: DynSignal::new(fields.sums_width),
            fields: Internal(fields.clone()),
        }
    }
}

impl Logic for EventSums {
    fn update(&mut self) {
        let Self { events, sums, fields } = self;
        fields.0.sums(events.words(), sums);
    }

    fn connect(&mut self) {
        self.sums.connect();
    }

    fn hdl(&self) -> Verilog {
        let f = &self.fields.0;
        let width = self.events.width();
        let mut v = String::new();
        verilog!(v, "always @(*) begin");
        if !f.has_thread_events() {
            verilog!(v, "    sums = 1'b0;");
        }
        for (field, name) in f.fields.iter().zip(&f.names).filter(|(field, _)| field.scope == Scope::Thread) {
            let terms: Vec<String> = (0..f.threads)
                .map(|t| {
                    zero_extend(
                        &slice("events", t * f.thread_width + field.lsb, field.width, width),
                        field.width,
                        field.sum_width,
                    )
                })
                .collect();
            let target = slice("sums", field.sum_lsb, field.sum_width, f.sums_width);
            verilog!(v, "    {target} = {}; // {name}", terms.join(" + "));
        }
        verilog!(v, "end");
        if !f.has_thread_events() {
            verilog!(v, "wire unused_events = ^events; // no thread-scope event in the table");
        }
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::params::PmuParams;
    use crate::pmu::testing::{describe, random_params, table_with_core_events_only};
    use crate::port_list;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Combinational, CombinationalPorts, Port};
    use crate::testing::{assert_valid_verilog, settle};
    use pmugen_sim::ports::pmu::{get_bits, PmuInputs};
    use pmugen_sim::reference::pmu::layout::{input_layout, set_event};
    use rand::{Rng, SeedableRng};

    impl CombinationalPorts for EventSums {
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; events, sums)
        }
    }

    /// Sums for random T and tables (fields from 1 to 8 bits, some tables without a
    /// thread event); every field is random, so sums reach their widest values.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1141;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, Combinational<EventSums>)> = (0..5)
            .map(|_| {
                let params = random_params(&mut rng);
                let sums = EventSums::new(&EventFields::new(&params), params.events_width());
                (describe(&params), Combinational::new(sums))
            })
            .collect();
        Lockstep::new("event_sums", seed).cycles(2_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        for threads in [1, 4] {
            let params = PmuParams::with_default_table(threads, 2, 40);
            assert_valid_verilog(
                &mut EventSums::new(&EventFields::new(&params), params.events_width()),
                &format!("event_sums_t{threads}"),
            );
        }
        let core_only = table_with_core_events_only(2);
        assert_valid_verilog(
            &mut EventSums::new(&EventFields::new(&core_only), core_only.events_width()),
            "event_sums_core_only",
        );
    }

    #[test]
    fn each_sum_is_the_events_fields_over_all_threads() {
        let seed = 0x5eed_1008;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let params = PmuParams::with_default_table(4, 2, 40);
        let fields = EventFields::new(&params);
        let config = params.port_config();
        let layout = input_layout(&config);
        let mut uut = EventSums::new(&fields, params.events_width());
        uut.connect_all();
        for _ in 0..2_000 {
            let mut inputs = PmuInputs::default();
            for event in 0..config.events.len() {
                for thread in 0..4 {
                    set_event(&mut inputs, &config, event, thread, rng.gen());
                }
            }
            uut.events.set_words(&inputs.events);
            settle(&mut uut);
            for (event, field) in fields.fields.iter().enumerate().filter(|(_, f)| f.scope == Scope::Thread) {
                let reference = &layout.fields[event];
                let expected: u64 = (0..4)
                    .map(|t| get_bits(&inputs.events, t * layout.thread_width + reference.lsb, reference.width))
                    .sum();
                assert_eq!(uut.sums.field(field.sum_lsb, field.sum_width), expected, "event {event}");
            }
        }
    }
}
