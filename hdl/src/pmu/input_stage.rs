//! Input stage of the `kernel` input: one register, so the shadow control sees each
//! thread's ring of the cycle before, as the one-cycle input latency requires (the
//! events are registered by the samplers, the qualification by the counters, both
//! in the same cycle).
//!
//! Latency: exactly one cycle. After reset it reads 0.
//!
//! ```text
//!  kernel --> [FF] --> last cycle's kernel
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The registered `kernel` input.
#[derive(LogicBlock)]
pub struct InputStage {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the register to 0.
    pub reset: Signal<In, Bit>,
    /// The `kernel` port: bit t = thread t in ring 0.
    pub kernel_in: DynSignal<In>,
    /// Last cycle's `kernel`.
    pub kernel: DynSignal<Out>,
    state: Internal<u64>,
}

impl InputStage {
    /// The stage for `threads` threads (1..=4).
    pub fn new(threads: usize) -> Self {
        assert!((1..=4).contains(&threads), "InputStage: T = {threads} is out of range 1..=4");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            kernel_in: DynSignal::new(threads),
            kernel: DynSignal::new(threads),
            state: Internal(0),
        }
    }
}

impl InputStage {
    /// The register: `kernel` of the previous cycle.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![FlipFlops::new("kernel_q", self.kernel.width(), 0, groups::KERNEL_INPUT_STAGE)]
    }
}

impl Logic for InputStage {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.state.0 = if self.reset.val() { 0 } else { self.kernel_in.get() };
        }
        self.kernel.set(self.state.0);
    }

    fn connect(&mut self) {
        self.kernel.connect();
    }

    fn hdl(&self) -> Verilog {
        let threads = self.kernel.width();
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "always @(posedge clock) kernel_q <= reset ? {} : kernel_in;", literal(threads, 0));
        verilog!(v, "always @(*) kernel = kernel_q;");
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

    impl Ports for InputStage {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, kernel_in, kernel)
        }
    }

    /// Stages for random T; every input is a coin flip, so rings change often.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1140;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, InputStage)> = (0..5)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), InputStage::new(params.threads))
            })
            .collect();
        Lockstep::new("input_stage", seed).cycles(2_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut InputStage::new(4), "input_stage_t4");
        assert_valid_verilog(&mut InputStage::new(1), "input_stage_t1");
    }

    #[test]
    fn kernel_arrives_one_cycle_late_and_reset_clears() {
        let seed = 0x5eed_1001;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = InputStage::new(3);
        uut.connect_all();
        for step in 0..2_000 {
            let (kernel, reset) = (rng.gen::<u64>(), rng.gen_ratio(1, 50));
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.kernel_in.set(kernel);
                    u.reset.next = reset;
                },
            );
            assert_eq!(uut.kernel.get(), if reset { 0 } else { kernel & 7 }, "step {step}");
        }
    }
}
