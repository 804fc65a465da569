//! Global control and status of one thread (seed 001 §1.4.3.4-9): the counter
//! enables (PERF_GLOBAL_CTRL), the sticky overflow bits (PERF_GLOBAL_STATUS, cleared
//! by PERF_GLOBAL_OVF_CTRL), the user-preference filter (PERF_SPFLT_CONTROL and the
//! SPFLT instruction), FREEZE_CTRL and USER_ACCESS, and the thread's `pmi`. For the
//! counters it gives the enables (PERF_GLOBAL_CTRL with the SPFLT filter) and the
//! freeze as they will be after this edge, so each counter can qualify its next
//! step one cycle ahead.
//!
//! An overflow at the edge of an OVF_CTRL write stays set: no overflow is lost
//! (seed 001 §1.4.3.9). `pmi` is the level OR over i of (STATUS[i] AND EVTSEL[i].INT),
//! from flip-flops only, so it stays 1 until software clears the status bit.
//!
//! Latency: writes take effect from the next cycle; `pmi` follows the status one
//! cycle after the overflow's edge (it is a function of the registers).
//!
//! ```text
//!  writes, wdata --> [GLOBAL_CTRL | SPFLT_CTRL, USER_PREF | FREEZE | USER_ACCESS]
//!  overflow -------> [STATUS (sticky)] --AND INT, OR--> pmi
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::regmap::{USER_ACCESS_RESET, USER_PREF_BIT};
use crate::custom::{literal, Internal};
use crate::dyn_signal::{low_mask, DynSignal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The thread's control registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ControlState {
    enables: u64,
    status: u64,
    spflt_ctrl: u64,
    user_pref: bool,
    freeze: bool,
    user_access: u64,
}

const RESET: ControlState = ControlState {
    enables: 0,
    status: 0,
    spflt_ctrl: 0,
    user_pref: false,
    freeze: false,
    user_access: USER_ACCESS_RESET,
};

/// One thread's global control and status.
#[derive(LogicBlock)]
pub struct GlobalControl {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: all 0, USER_ACCESS to 0x7.
    pub reset: Signal<In, Bit>,
    /// Register write data.
    pub wdata: DynSignal<In>,
    /// PERF_GLOBAL_CTRL is written at this edge.
    pub global_ctrl_write: Signal<In, Bit>,
    /// PERF_GLOBAL_OVF_CTRL is written at this edge.
    pub ovf_ctrl_write: Signal<In, Bit>,
    /// PERF_SPFLT_CONTROL is written at this edge.
    pub spflt_control_write: Signal<In, Bit>,
    /// SPFLT is written at this edge (the SPFLT instruction).
    pub spflt_write: Signal<In, Bit>,
    /// FREEZE_CTRL is written at this edge.
    pub freeze_write: Signal<In, Bit>,
    /// USER_ACCESS is written at this edge.
    pub user_access_write: Signal<In, Bit>,
    /// Bit i: counter i overflows at this edge.
    pub overflow: DynSignal<In>,
    /// Bit i: EVTSEL[i].INT.
    pub int_enable: DynSignal<In>,
    /// PERF_GLOBAL_CTRL.
    pub global_ctrl: DynSignal<Out>,
    /// PERF_GLOBAL_STATUS.
    pub status: DynSignal<Out>,
    /// PERF_SPFLT_CONTROL.SPFLT_CTRL.
    pub spflt_ctrl: DynSignal<Out>,
    /// PERF_SPFLT_CONTROL.USER_PREF.
    pub user_pref: Signal<Out, Bit>,
    /// FREEZE_CTRL.FREEZE_UNMARKED.
    pub freeze: Signal<Out, Bit>,
    /// USER_ACCESS.
    pub user_access: Signal<Out, Bits<3>>,
    /// The thread's overflow interrupt.
    pub pmi: Signal<Out, Bit>,
    /// Bit i: PERF_GLOBAL_CTRL and the SPFLT filter let counter i count after this
    /// edge (unless reset): for qualifying the next step.
    pub enabled_next: DynSignal<Out>,
    /// FREEZE_UNMARKED after this edge (unless reset).
    pub freeze_next: Signal<Out, Bit>,
    state: Internal<ControlState>,
}

impl GlobalControl {
    /// The control of a thread with `counters` counters (1..=4).
    pub fn new(counters: usize) -> Self {
        assert!((1..=4).contains(&counters), "GlobalControl: K = {counters} is out of range 1..=4");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wdata: DynSignal::new(64),
            global_ctrl_write: Default::default(),
            ovf_ctrl_write: Default::default(),
            spflt_control_write: Default::default(),
            spflt_write: Default::default(),
            freeze_write: Default::default(),
            user_access_write: Default::default(),
            overflow: DynSignal::new(counters),
            int_enable: DynSignal::new(counters),
            global_ctrl: DynSignal::new(counters),
            status: DynSignal::new(counters),
            spflt_ctrl: DynSignal::new(counters),
            user_pref: Default::default(),
            freeze: Default::default(),
            user_access: Default::default(),
            pmi: Default::default(),
            enabled_next: DynSignal::new(counters),
            freeze_next: Default::default(),
            state: Internal(RESET),
        }
    }
}

impl GlobalControl {
    /// The registers' values after this edge, unless reset.
    fn next_state(&self, mask: u64) -> ControlState {
        let wdata = self.wdata.get();
        let old = self.state.0;
        let cleared = if self.ovf_ctrl_write.val() { wdata & mask } else { 0 };
        ControlState {
            enables: if self.global_ctrl_write.val() { wdata & mask } else { old.enables },
            status: old.status & !cleared | self.overflow.get(),
            spflt_ctrl: if self.spflt_control_write.val() { wdata & mask } else { old.spflt_ctrl },
            user_pref: if self.spflt_control_write.val() {
                wdata >> USER_PREF_BIT & 1 == 1
            } else if self.spflt_write.val() {
                wdata & 1 == 1
            } else {
                old.user_pref
            },
            freeze: if self.freeze_write.val() { wdata & 1 == 1 } else { old.freeze },
            user_access: if self.user_access_write.val() { wdata & 7 } else { old.user_access },
        }
    }
}

/// Bit i: counter i may count under `enables` and the SPFLT filter.
fn enabled(state: &ControlState, mask: u64) -> u64 {
    state.enables & if state.user_pref { mask } else { !state.spflt_ctrl & mask }
}

impl GlobalControl {
    /// The registers: PERF_GLOBAL_CTRL, PERF_GLOBAL_STATUS, SPFLT_CTRL, USER_PREF,
    /// FREEZE_UNMARKED, USER_ACCESS.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let k = self.overflow.width();
        vec![
            FlipFlops::new("global_ctrl_q", k, 0, groups::GLOBAL_CONTROL),
            FlipFlops::new("status_q", k, 0, groups::OVERFLOW_STATUS),
            FlipFlops::new("spflt_ctrl_q", k, 0, groups::SPFLT_CONTROL),
            FlipFlops::new("user_pref_q", 1, 0, groups::SPFLT_CONTROL),
            FlipFlops::new("freeze_q", 1, 0, groups::FREEZE_CONTROL),
            FlipFlops::new("user_access_q", 3, USER_ACCESS_RESET, groups::USER_ACCESS),
        ]
    }
}

impl Logic for GlobalControl {
    fn update(&mut self) {
        let mask = low_mask(self.overflow.width());
        let next = self.next_state(mask);
        if self.clock.pos_edge() {
            self.state.0 = if self.reset.val() { RESET } else { next };
        }
        let next = self.next_state(mask);
        self.enabled_next.set(enabled(&next, mask));
        self.freeze_next.next = next.freeze;
        let state = self.state.0;
        self.global_ctrl.set(state.enables);
        self.status.set(state.status);
        self.spflt_ctrl.set(state.spflt_ctrl);
        self.user_pref.next = state.user_pref;
        self.freeze.next = state.freeze;
        self.user_access.next = state.user_access.to_bits();
        self.pmi.next = state.status & self.int_enable.get() != 0;
    }

    fn connect(&mut self) {
        self.global_ctrl.connect();
        self.status.connect();
        self.spflt_ctrl.connect();
        self.user_pref.connect();
        self.freeze.connect();
        self.user_access.connect();
        self.pmi.connect();
        self.enabled_next.connect();
        self.freeze_next.connect();
    }

    fn hdl(&self) -> Verilog {
        let k = self.overflow.width();
        let low = format!("wdata[{}:0]", k - 1);
        let zero = literal(k, 0);
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "wire [{}:0] cleared = ovf_ctrl_write ? {low} : {zero};", k - 1);
        verilog!(v, "// The values after this edge (unless reset), also for qualifying the next step.");
        verilog!(v, "wire [{0}:0] global_ctrl_d = global_ctrl_write ? {low} : global_ctrl_q;\nwire [{0}:0] spflt_ctrl_d = spflt_control_write ? {low} : spflt_ctrl_q;", k - 1);
        verilog!(
            v,
            "wire user_pref_d = spflt_control_write ? wdata[{USER_PREF_BIT}] : (spflt_write ? wdata[0] : user_pref_q);"
        );
        verilog!(v, "wire freeze_d = freeze_write ? wdata[0] : freeze_q;");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(v, "        global_ctrl_q <= {zero};\n        status_q <= {zero};\n        spflt_ctrl_q <= {zero};");
        verilog!(
            v,
            "        user_pref_q <= 1'b0;\n        freeze_q <= 1'b0;\n        user_access_q <= {};",
            literal(3, USER_ACCESS_RESET)
        );
        verilog!(v, "    end else begin");
        verilog!(v, "        global_ctrl_q <= global_ctrl_d;");
        verilog!(v, "        // An overflow at the edge of a clear stays set: no overflow is lost.");
        verilog!(v, "        status_q <= (status_q & ~cleared) | overflow;");
        verilog!(
            v,
            "        spflt_ctrl_q <= spflt_ctrl_d;\n        user_pref_q <= user_pref_d;\n        freeze_q <= freeze_d;"
        );
        verilog!(v, "        if (user_access_write) user_access_q <= wdata[2:0];");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    global_ctrl = global_ctrl_q;\n    status = status_q;\n    spflt_ctrl = spflt_ctrl_q;");
        verilog!(v, "    user_pref = user_pref_q;");
        verilog!(v, "    freeze = freeze_q;\n    user_access = user_access_q;");
        verilog!(v, "    pmi = |(status_q & int_enable);");
        verilog!(
            v,
            "    enabled_next = global_ctrl_d & (~spflt_ctrl_d | {{{k}{{user_pref_d}}}});\n    freeze_next = freeze_d;"
        );
        verilog!(v, "end");
        let unused: Vec<String> =
            (k..64).filter(|&b| b != USER_PREF_BIT && b > 2).map(|b| format!("wdata[{b}]")).collect();
        v.push_str(&crate::custom::unused_sink("wdata", &unused));
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{assert_valid_verilog, cycle};
    use rand::{Rng, SeedableRng};

    impl Ports for GlobalControl {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, wdata, global_ctrl_write, ovf_ctrl_write, spflt_control_write, spflt_write,
                freeze_write, user_access_write, overflow, int_enable, global_ctrl, status, spflt_ctrl, user_pref,
                freeze, user_access, pmi, enabled_next, freeze_next)
        }
    }

    /// Random K; writes at register-port rates (so that the registers hold between
    /// them), sparse overflows, which sometimes meet a clear of their bit. Resets are
    /// frequent: the harness reads the outputs after the edge with the writes of the
    /// cycle before it still applied, when `enabled_next` and `freeze_next` (the values
    /// after an edge) equal the registers' own, except after a reset edge.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1201;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, GlobalControl)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), GlobalControl::new(params.counters))
            })
            .collect();
        let writes_and_sparse_overflows = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "global_ctrl_write"
            | "ovf_ctrl_write"
            | "spflt_control_write"
            | "spflt_write"
            | "freeze_write"
            | "user_access_write" => vec![rng.gen_ratio(1, 8) as u64],
            "overflow" => vec![rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>()],
            "reset" => vec![rng.gen_ratio(1, 16) as u64],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("global_control", seed).stimulus(writes_and_sparse_overflows).cycles(3_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        for counters in 1..=4 {
            assert_valid_verilog(&mut GlobalControl::new(counters), &format!("global_control_k{counters}"));
        }
    }

    #[test]
    fn registers_status_filter_freeze_and_pmi_follow_the_rules() {
        let seed = 0x5eed_1005;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let k = 3;
        let mut uut = GlobalControl::new(k);
        uut.connect_all();
        // §6 reset values: all 0, USER_ACCESS 0x7.
        let (mut enables, mut status, mut spflt, mut pref, mut freeze, mut access) =
            (0u64, 0u64, 0u64, false, false, 7u64);
        let mut kept_overflow = false;
        for step in 0..20_000 {
            let wdata: u64 = rng.gen();
            let strobe = rng.gen_range(0..12); // at most one register written per cycle, as the port does
            let (overflow, int_enable, reset) =
                (rng.gen::<u64>() & 7 & rng.gen::<u64>(), rng.gen::<u64>() & 7, rng.gen_ratio(1, 1000));
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.wdata.set(wdata);
                    u.global_ctrl_write.next = strobe == 0;
                    u.ovf_ctrl_write.next = strobe == 1;
                    u.spflt_control_write.next = strobe == 2;
                    u.spflt_write.next = strobe == 3;
                    u.freeze_write.next = strobe == 4;
                    u.user_access_write.next = strobe == 5;
                    u.overflow.set(overflow);
                    u.int_enable.set(int_enable);
                    u.reset.next = reset;
                },
            );
            if reset {
                (enables, status, spflt, pref, freeze, access) = (0, 0, 0, false, false, 7);
            } else {
                let cleared = if strobe == 1 { wdata & 7 } else { 0 };
                kept_overflow |= cleared & overflow != 0;
                status = status & !cleared | overflow;
                match strobe {
                    0 => enables = wdata & 7,
                    2 => (spflt, pref) = (wdata & 7, wdata >> 63 == 1),
                    3 => pref = wdata & 1 == 1,
                    4 => freeze = wdata & 1 == 1,
                    5 => access = wdata & 7,
                    _ => {}
                }
            }
            let context = format!("step {step}, seed {seed:#x}");
            assert_eq!(
                (uut.global_ctrl.get(), uut.status.get(), uut.spflt_ctrl.get()),
                (enables, status, spflt),
                "{context}"
            );
            assert_eq!((uut.user_pref.val(), uut.freeze.val()), (pref, freeze), "{context}");
            assert_eq!(uut.user_access.val().index() as u64, access, "{context}");
            assert_eq!(uut.pmi.val(), status & int_enable != 0, "{context}");
            // The write still on the port repeats itself: the next values are the
            // values (unless this edge was a reset, which the next values ignore).
            if !reset {
                assert_eq!(uut.enabled_next.get(), enables & (!spflt | if pref { 7 } else { 0 }) & 7, "{context}");
                assert_eq!(uut.freeze_next.val(), freeze, "{context}");
            }
        }
        assert!(kept_overflow, "the stimulus never cleared a bit at the edge of its overflow");
    }
}
