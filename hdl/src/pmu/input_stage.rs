//! Input stage: the one-cycle latency of every event-side input.
//!
//! The PMU counts the events of cycle k at edge k+1 (they show in the counter from
//! cycle k+2): `events`, `core_events`, `kernel` and `pm_mark` pass through one
//! register here, so the event path from the pins to the counters' adders starts at
//! a flip-flop. After reset the stage holds 0. A port that carries no field (a table
//! without thread- or core-scope events) has one ignored bit and no register.
//!
//! Latency: exactly one cycle, the same for every input, so events stay aligned with
//! the mode (`kernel`) and mark (`pm_mark`) of their own cycle.
//!
//! ```text
//!  events, core_events, kernel, pm_mark --> [FF] --> last cycle's values
//! ```
use rust_hdl::prelude::*;

use crate::custom::{register_declaration, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// The registered event-side inputs.
#[derive(LogicBlock)]
pub struct InputStage {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: every stage register to 0.
    pub reset: Signal<In, Bit>,
    /// The `events` port: thread-scope event counts.
    pub events_in: DynSignal<In>,
    /// The `core_events` port: core-scope event counts.
    pub core_events_in: DynSignal<In>,
    /// The `kernel` port: bit t = thread t in ring 0.
    pub kernel_in: DynSignal<In>,
    /// The `pm_mark` port: bit t = thread t runs a marked process.
    pub pm_mark_in: DynSignal<In>,
    /// Last cycle's `events` (0 if the port carries no field).
    pub events: DynSignal<Out>,
    /// Last cycle's `core_events` (0 if the port carries no field).
    pub core_events: DynSignal<Out>,
    /// Last cycle's `kernel`.
    pub kernel: DynSignal<Out>,
    /// Last cycle's `pm_mark`.
    pub pm_mark: DynSignal<Out>,
    used: Internal<[bool; 2]>,
    state: Internal<[Vec<u64>; 4]>,
}

impl InputStage {
    /// A stage for `threads` threads and ports of `events_width` and `core_width`
    /// bits; `events_used`/`core_used` say whether a port carries any field.
    pub fn new(threads: usize, events_width: usize, core_width: usize, events_used: bool, core_used: bool) -> Self {
        assert!((1..=4).contains(&threads), "InputStage: T = {threads} is out of range 1..=4");
        assert!(events_width >= 1 && core_width >= 1, "InputStage: a port has at least one bit");
        let words = |width: usize| vec![0u64; width.div_ceil(64)];
        Self {
            clock: Default::default(),
            reset: Default::default(),
            events_in: DynSignal::new(events_width),
            core_events_in: DynSignal::new(core_width),
            kernel_in: DynSignal::new(threads),
            pm_mark_in: DynSignal::new(threads),
            events: DynSignal::new(events_width),
            core_events: DynSignal::new(core_width),
            kernel: DynSignal::new(threads),
            pm_mark: DynSignal::new(threads),
            used: Internal([events_used, core_used]),
            state: Internal([words(events_width), words(core_width), words(threads), words(threads)]),
        }
    }
}

impl Logic for InputStage {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let [events, core, kernel, pm_mark] = &mut self.state.0;
            if self.reset.val() {
                for word in events.iter_mut().chain(core.iter_mut()).chain(kernel.iter_mut()).chain(pm_mark.iter_mut()) {
                    *word = 0;
                }
            } else {
                if self.used.0[0] {
                    events.copy_from_slice(self.events_in.words());
                }
                if self.used.0[1] {
                    core.copy_from_slice(self.core_events_in.words());
                }
                kernel.copy_from_slice(self.kernel_in.words());
                pm_mark.copy_from_slice(self.pm_mark_in.words());
            }
        }
        let [events, core, kernel, pm_mark] = &self.state.0;
        self.events.set_words(events);
        self.core_events.set_words(core);
        self.kernel.set_words(kernel);
        self.pm_mark.set_words(pm_mark);
    }

    fn connect(&mut self) {
        self.events.connect();
        self.core_events.connect();
        self.kernel.connect();
        self.pm_mark.connect();
    }

    fn hdl(&self) -> Verilog {
        let ports = [
            ("events", self.events.width(), self.used.0[0]),
            ("core_events", self.core_events.width(), self.used.0[1]),
            ("kernel", self.kernel.width(), true),
            ("pm_mark", self.pm_mark.width(), true),
        ];
        let mut v = String::new();
        for (name, width, used) in ports {
            if used {
                v.push_str(&register_declaration(&format!("{name}_q"), width, 0));
            } else {
                verilog!(v, "wire unused_{name} = ^{name}_in; // the port carries no event field");
            }
        }
        verilog!(v, "always @(posedge clock) begin");
        for (name, width, _) in ports.iter().filter(|(_, _, used)| *used) {
            verilog!(v, "    {name}_q <= reset ? {width}'h0 : {name}_in;");
        }
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        for (name, width, used) in ports {
            if used {
                verilog!(v, "    {name} = {name}_q;");
            } else {
                verilog!(v, "    {name} = {width}'h0;");
            }
        }
        verilog!(v, "end");
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_valid_verilog, cycle};
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut InputStage::new(4, 200, 19, true, true), "input_stage_t4");
        assert_valid_verilog(&mut InputStage::new(1, 1, 3, false, true), "input_stage_core_only");
    }

    #[test]
    fn every_input_arrives_one_cycle_late_and_reset_clears() {
        let seed = 0x5eed_1001;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = InputStage::new(3, 150, 7, true, true);
        uut.connect_all();
        for step in 0..2_000 {
            let events: Vec<u64> = (0..3).map(|_| rng.gen()).collect();
            let (core, kernel, mark, reset) = (rng.gen::<u64>(), rng.gen::<u64>(), rng.gen::<u64>(), rng.gen_ratio(1, 50));
            cycle(&mut uut, |u| &mut u.clock, |u| {
                u.events_in.set_words(&events);
                u.core_events_in.set(core);
                u.kernel_in.set(kernel);
                u.pm_mark_in.set(mark);
                u.reset.next = reset;
            });
            let expected = if reset {
                (vec![0, 0, 0], 0, 0, 0)
            } else {
                (vec![events[0], events[1], events[2] & ((1 << 22) - 1)], core & 0x7F, kernel & 7, mark & 7)
            };
            assert_eq!(uut.events.words(), &expected.0[..], "step {step}");
            assert_eq!((uut.core_events.get(), uut.kernel.get(), uut.pm_mark.get()), (expected.1, expected.2, expected.3));
        }
    }
}
