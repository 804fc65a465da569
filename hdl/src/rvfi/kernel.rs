//! One hart's kernel rule (docs/soc.md §1.2): whether this cycle is a kernel cycle.
//!
//! With `mode`, a retirement is in the kernel when `rvfi_mode` != 0. With `handler` (cores
//! that run in machine mode only), a flag h, 0 after reset, marks "inside a handler":
//! kernel(r) = `rvfi_intr` OR h, and after r, h = kernel(r) AND r is not a handler
//! return, so a handler is in the kernel from its first instruction through its return.
//! A cycle without a retirement has the kernel value of the last retirement, which the
//! adapter registers as its `kernel` output and gives back here as `last`.
//!
//! Latency: `kernel` is combinational; h (handler rule only) is registered.
//!
//! ```text
//!  valid, mode | intr, h --> kernel(r) --+--> kernel = valid ? kernel(r) : last
//!  handler_return ----------------------> h (registered)
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::params::KernelRule;
use crate::custom::{unused_sink, Internal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// One hart's kernel rule.
#[derive(LogicBlock)]
pub struct KernelTracker {
    /// Clock (the handler rule's flag).
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: h to 0.
    pub reset: Signal<In, Bit>,
    /// `rvfi_valid`.
    pub valid: Signal<In, Bit>,
    /// `rvfi_intr`: the first instruction of a handler.
    pub intr: Signal<In, Bit>,
    /// `rvfi_mode`.
    pub mode: Signal<In, Bits<2>>,
    /// The retirement is a handler return (MRET or `retirq`).
    pub handler_return: Signal<In, Bit>,
    /// The kernel value of the last retirement (the adapter's registered `kernel`).
    pub last: Signal<In, Bit>,
    /// This cycle's kernel value: kernel(r) with a retirement, else `last`.
    pub kernel: Signal<Out, Bit>,
    handler: Internal<bool>,
    rule: Internal<KernelRule>,
}

impl KernelTracker {
    /// The rule `rule` with h at 0.
    pub fn new(rule: KernelRule) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            intr: Default::default(),
            mode: Default::default(),
            handler_return: Default::default(),
            last: Default::default(),
            kernel: Default::default(),
            handler: Internal(false),
            rule: Internal(rule),
        }
    }

    /// The registers: the handler rule's h (none with the mode rule).
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        match self.rule.0 {
            KernelRule::Mode => vec![],
            KernelRule::Handler => vec![FlipFlops::new("handler_q", 1, 0, groups::HANDLER)],
        }
    }

    /// kernel(r) of this cycle's retirement.
    fn retirement_kernel(&self) -> bool {
        match self.rule.0 {
            KernelRule::Mode => self.mode.val().index() != 0,
            KernelRule::Handler => self.intr.val() || self.handler.0,
        }
    }
}

impl Logic for KernelTracker {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let kernel = self.retirement_kernel();
            self.handler.0 = match (self.reset.val(), self.valid.val()) {
                (true, _) => false,
                (false, true) => kernel && !self.handler_return.val(),
                (false, false) => self.handler.0,
            };
        }
        self.kernel.next = if self.valid.val() { self.retirement_kernel() } else { self.last.val() };
    }

    fn connect(&mut self) {
        self.kernel.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        match self.rule.0 {
            KernelRule::Mode => {
                verilog!(v, "// Mode rule: U (0) is the user, S and M the kernel.");
                verilog!(v, "wire retirement_kernel = |mode;");
                let unused = ["clock", "reset", "intr", "handler_return"].map(String::from);
                v.push_str(&unused_sink("handler_inputs", &unused));
            }
            KernelRule::Handler => {
                v.push_str(&declarations(&self.flip_flops()));
                verilog!(v, "// Handler rule: from rvfi_intr through the handler's return, inclusive.");
                verilog!(v, "wire retirement_kernel = intr | handler_q;");
                verilog!(v, "wire handler_d = valid ? retirement_kernel & ~handler_return : handler_q;");
                verilog!(v, "always @(posedge clock) begin");
                verilog!(v, "    if (reset) handler_q <= 1'b0;");
                verilog!(v, "    else handler_q <= handler_d;");
                verilog!(v, "end");
                v.push_str(&unused_sink("mode", &["mode".to_string()]));
            }
        }
        verilog!(v, "always @(*) kernel = valid ? retirement_kernel : last;");
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::rvfi::testing::{by_name, HartStream};
    use crate::testing::assert_valid_verilog;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Port, Ports};
    use rand::{Rng, SeedableRng};
    use std::cell::RefCell;

    impl Ports for KernelTracker {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, valid, intr, mode, handler_return, last, kernel)
        }
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut KernelTracker::new(KernelRule::Mode), "kernel_mode");
        assert_valid_verilog(&mut KernelTracker::new(KernelRule::Handler), "kernel_handler");
    }

    /// Both rules on retirement streams made for each rule (handler entries, MRET and
    /// `retirq`, mode changes), `last` as the adapter would register it.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_5201;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let rules = [KernelRule::Mode, KernelRule::Handler, KernelRule::Handler, KernelRule::Mode];
        let streams: Vec<HartStream> = rules.iter().map(|&rule| HartStream::random(&mut rng, rule)).collect();
        let instances = rules.iter().map(|&rule| (format!("rule {rule}"), KernelTracker::new(rule))).collect();
        let state = RefCell::new((streams, rules.map(|rule| (rule, false, false))));
        Lockstep::new("kernel", seed)
            .cycle_stimulus(move |rng, instance, inputs| {
                let (streams, trackers) = &mut *state.borrow_mut();
                let (r, classified) = streams[instance].next_cycle();
                let reset = rng.gen_ratio(1, 500);
                // The adapter's `kernel` register: this cycle's value, registered.
                let (rule, handler, last) = &mut trackers[instance];
                let kernel_r = match rule {
                    KernelRule::Mode => r.mode != 0,
                    KernelRule::Handler => r.intr || *handler,
                };
                let this_last = *last;
                (*handler, *last) = match (reset, r.valid) {
                    (true, _) => (false, false),
                    (false, true) => (kernel_r && !classified.handler_return, kernel_r),
                    (false, false) => (*handler, *last),
                };
                by_name(
                    inputs,
                    &[
                        ("reset", reset as u64),
                        ("valid", r.valid as u64),
                        ("intr", r.intr as u64),
                        ("mode", r.mode as u64),
                        ("handler_return", classified.handler_return as u64),
                        ("last", this_last as u64),
                    ],
                )
            })
            .cycles(6_000)
            .run(instances);
    }
}
