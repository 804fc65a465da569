//! Time-stamp counter (seed 001 §1.4.3.1): one 64-bit counter for the core, +1 at
//! every edge whatever PERF_GLOBAL_CTRL says; a write sets all 64 bits (and wins
//! over the increment). Every thread's bank reads the same register.
//!
//! Latency: registered; a write shows from the next cycle.
//!
//! ```text
//!  write, wdata --> [TSC + 1 | wdata] --> value
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The core's 64-bit time-stamp counter.
#[derive(LogicBlock)]
pub struct TimeStampCounter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the TSC to 0.
    pub reset: Signal<In, Bit>,
    /// The TSC is written at this edge.
    pub write: Signal<In, Bit>,
    /// Register write data.
    pub wdata: DynSignal<In>,
    /// The TSC value.
    pub value: DynSignal<Out>,
    count: Internal<u64>,
}

impl TimeStampCounter {
    /// A TSC at 0.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            write: Default::default(),
            wdata: DynSignal::new(64),
            value: DynSignal::new(64),
            count: Internal(0),
        }
    }
}

impl Default for TimeStampCounter {
    fn default() -> Self {
        Self::new()
    }
}

impl TimeStampCounter {
    /// The register: the TSC.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![FlipFlops::new("count_q", 64, 0, groups::TSC)]
    }
}

impl Logic for TimeStampCounter {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.count.0 = match (self.reset.val(), self.write.val()) {
                (true, _) => 0,
                (false, true) => self.wdata.get(),
                (false, false) => self.count.0.wrapping_add(1),
            };
        }
        self.value.set(self.count.0);
    }

    fn connect(&mut self) {
        self.value.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) count_q <= 64'h0;");
        verilog!(v, "    else if (write) count_q <= wdata;");
        verilog!(v, "    else count_q <= count_q + 64'h1;");
        verilog!(v, "end");
        verilog!(v, "always @(*) value = count_q;");
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{assert_valid_verilog, cycle};
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut TimeStampCounter::new(), "tsc");
    }

    impl Ports for TimeStampCounter {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, write, wdata, value)
        }
    }

    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let write_near_wrap = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "write" => vec![rng.gen_ratio(1, 8) as u64],
            "wdata" => vec![u64::MAX - rng.gen_range(0..8)],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("tsc", 0x5eed_1107)
            .stimulus(write_near_wrap)
            .run(vec![("TSC".to_string(), TimeStampCounter::new())]);
    }

    #[test]
    fn counts_every_edge_wraps_and_takes_writes() {
        let seed = 0x5eed_1007;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = TimeStampCounter::new();
        uut.connect_all();
        let mut expected = 0u64;
        for step in 0..5_000 {
            let (write, reset) = (rng.gen_bool(0.02), rng.gen_ratio(1, 1000));
            let wdata = if rng.gen_bool(0.5) { u64::MAX - rng.gen_range(0..5) } else { rng.gen() };
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.write.next = write;
                    u.wdata.set(wdata);
                    u.reset.next = reset;
                },
            );
            expected = if reset {
                0
            } else if write {
                wdata
            } else {
                expected.wrapping_add(1)
            };
            assert_eq!(uut.value.get(), expected, "step {step}, seed {seed:#x}");
        }
    }
}
