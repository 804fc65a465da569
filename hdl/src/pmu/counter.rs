//! One general counter with its shadow register (seed 001 §1.4.3.2-3, seed 002's
//! "mapped event counter").
//!
//! Each cycle the counter qualifies its event select (EN, the PERF_GLOBAL_CTRL bit,
//! the SPFLT filter, the ring of its thread via USR/OS, the freeze), turns its event
//! sample (the count c the sampler registered) into the condition (CMASK/INV) and
//! the increment (c, 1, or the condition's rising edge with E, from
//! the previous-condition flip-flop), and adds it. At a kernel exit
//! with RESTORE_ON_EXIT it adds to SHADOW instead; at a kernel entry with
//! SAVE_ON_ENTRY the shadow takes the counter's value as it was during the cycle.
//! A PERF_CNTR write wins over the increment (and cannot overflow); a trace restart
//! (a block end of the traced thread) stores 0 instead of the sum, which still
//! overflows; the record's value V is that sum, given as its two terms (`base`, `inc`)
//! so that the trace unit adds them after its queue, off the counter's own path; a
//! SHADOW write wins over a save. `overflow` is 1 at an edge where the sum reaches 2^CW.
//!
//! The qualification of a step depends only on registers as they are during the
//! step's cycle and on `kernel`/`pm_mark` of the cycle before, so it is computed one
//! cycle ahead, from the registers' next values and the raw `kernel`/`pm_mark` pins,
//! and registered like the event sample: the step's own path keeps only the CMASK
//! compare, the increment and the adder.
//!
//! Latency: counter and shadow are registered; `overflow` is combinational (the
//! status bit in the thread's control block is set at the same edge).
//!
//! ```text
//!  next EN/USR/OS, known, enables, kernel, freeze --> [qualify] --> FF --+
//!  count (sampled), evtsel (E, INV, CMASK) -----------------------------> | CMASK/INV, E |--> inc
//!  restore ? shadow : value (base) ------------------> [+ inc] --> overflow; V = base + inc
//!  write ? wdata : restart ? 0 : base + inc -------------------------> value
//!  save, shadow_write, wdata -------------------------> shadow
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::regmap::evtsel;
use crate::custom::{literal, slice, zero_extend, Internal};
use crate::dyn_signal::{low_mask, DynSignal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The counter's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CounterState {
    value: u64,
    shadow: u64,
    prev_condition: bool,
    qualified: bool,
}

/// A CW-bit general counter with its shadow.
#[derive(LogicBlock)]
pub struct Counter {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: counter, shadow and previous condition to 0.
    pub reset: Signal<In, Bit>,
    /// c, the selected event's count for this cycle's step (the sampler's).
    pub count: DynSignal<In>,
    /// The PERF_EVTSEL value (for E, INV, CMASK).
    pub evtsel: Signal<In, Bits<32>>,
    /// PERF_EVTSEL as it will be in the next cycle (for EN, USR, OS).
    pub evtsel_next: Signal<In, Bits<32>>,
    /// The event select will name a table event in the next cycle.
    pub known_next: Signal<In, Bit>,
    /// Its PERF_GLOBAL_CTRL bit and SPFLT filter (NOT SPFLT_CTRL[i] OR USER_PREF) will
    /// let it count in the next cycle.
    pub enabled_next: Signal<In, Bit>,
    /// Its thread's `kernel` pin this cycle (its ring in the next cycle's step).
    pub kernel_next: Signal<In, Bit>,
    /// Its thread will be frozen in the next cycle's step (FREEZE_UNMARKED next and
    /// the `pm_mark` pin low this cycle).
    pub frozen_next: Signal<In, Bit>,
    /// Kernel entry with SAVE_ON_ENTRY: the shadow takes the counter.
    pub save: Signal<In, Bit>,
    /// Kernel exit with RESTORE_ON_EXIT: the counter takes SHADOW + inc.
    pub restore: Signal<In, Bit>,
    /// PERF_CNTR is written at this edge.
    pub write: Signal<In, Bit>,
    /// A block end of the traced thread: the counter takes 0 (unless written).
    pub restart: Signal<In, Bit>,
    /// SHADOW is written at this edge.
    pub shadow_write: Signal<In, Bit>,
    /// The write data, CW bits.
    pub wdata: DynSignal<In>,
    /// The counter value.
    pub value: DynSignal<Out>,
    /// The shadow value.
    pub shadow: DynSignal<Out>,
    /// The first term of what the counter takes without a write or a restart:
    /// restore ? SHADOW : counter (a trace record's V is base + inc, mod 2^CW).
    pub base: DynSignal<Out>,
    /// This edge's increment.
    pub inc: DynSignal<Out>,
    /// This edge's sum reaches 2^CW (and no write replaces it).
    pub overflow: Signal<Out, Bit>,
    state: Internal<CounterState>,
}

impl Counter {
    /// A counter of `counter_width` bits (16..=64; narrower down to the count's width
    /// for `prove --narrow`, docs/formal.md §4) whose count input has `count_width` bits.
    pub fn new(counter_width: usize, count_width: usize) -> Self {
        assert!((1..=10).contains(&count_width), "Counter: count width {count_width} is out of range 1..=10");
        assert!(
            (count_width.max(2)..=64).contains(&counter_width),
            "Counter: CW = {counter_width} is out of range {}..=64",
            count_width.max(2)
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            count: DynSignal::new(count_width),
            evtsel: Default::default(),
            evtsel_next: Default::default(),
            known_next: Default::default(),
            enabled_next: Default::default(),
            kernel_next: Default::default(),
            frozen_next: Default::default(),
            save: Default::default(),
            restore: Default::default(),
            write: Default::default(),
            restart: Default::default(),
            shadow_write: Default::default(),
            wdata: DynSignal::new(counter_width),
            value: DynSignal::new(counter_width),
            shadow: DynSignal::new(counter_width),
            base: DynSignal::new(counter_width),
            inc: DynSignal::new(count_width),
            overflow: Default::default(),
            state: Internal(CounterState::default()),
        }
    }

    /// The registers: counter, shadow, previous condition, qualification.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let cw = self.value.width();
        vec![
            FlipFlops::new("value_q", cw, 0, groups::GENERAL_COUNTERS),
            FlipFlops::new("shadow_q", cw, 0, groups::SHADOWS),
            FlipFlops::new("prev_condition_q", 1, 0, groups::PREVIOUS_CONDITION),
            FlipFlops::new("qualified_q", 1, 0, groups::QUALIFICATION),
        ]
    }

    /// The qualification of the next cycle's step (§4.3): EN, enables, ring, freeze.
    fn qualified_next(&self) -> bool {
        let next = self.evtsel_next.val().index() as u64;
        let bit = |field: &crate::regmap::Field| next >> field.lsb & 1 == 1;
        let kernel = self.kernel_next.val();
        let mode_ok = (bit(&evtsel::USR) && !kernel) || (bit(&evtsel::OS) && kernel);
        bit(&evtsel::EN) && self.enabled_next.val() && mode_ok && !self.frozen_next.val() && self.known_next.val()
    }

    /// (condition, increment) for this cycle.
    fn increment(&self) -> (bool, u64) {
        let sel = self.evtsel.val().index() as u64;
        let bit = |field: &crate::regmap::Field| sel >> field.lsb & 1 == 1;
        let cmask = sel >> evtsel::CMASK.lsb & 0xFF;
        let qualified = self.state.0.qualified;
        let count = self.count.get();
        let threshold = if cmask != 0 { (count >= cmask) ^ bit(&evtsel::INV) } else { count != 0 };
        let condition = qualified && threshold;
        let increment = if bit(&evtsel::E) {
            (condition && !self.state.0.prev_condition) as u64
        } else if cmask != 0 {
            condition as u64
        } else if qualified {
            count
        } else {
            0
        };
        (condition, increment)
    }

    /// (base, base + increment): restore ? SHADOW : counter, and the sum before the
    /// wrap.
    fn sum(&self, increment: u64) -> (u64, u128) {
        let state = self.state.0;
        let base = if self.restore.val() { state.shadow } else { state.value };
        (base, base as u128 + increment as u128)
    }

    /// The rising edge: the registers take their next values (docs/pmu.md §7.2's precedence).
    fn clock_edge(&mut self) {
        let (condition, increment) = self.increment();
        let (_, sum) = self.sum(increment);
        let (state, wdata) = (self.state.0, self.wdata.get());
        self.state.0 = if self.reset.val() {
            CounterState::default()
        } else {
            CounterState {
                value: if self.write.val() {
                    wdata
                } else if self.restart.val() {
                    0
                } else {
                    sum as u64 & low_mask(self.value.width())
                },
                shadow: if self.shadow_write.val() {
                    wdata
                } else if self.save.val() {
                    state.value
                } else {
                    state.shadow
                },
                prev_condition: condition,
                qualified: self.qualified_next(),
            }
        };
    }
}

impl Logic for Counter {
    fn update(&mut self) {
        // The edge first, then the outputs from the state after it: an edge that
        // changes no output of this block triggers no further delta cycle.
        if self.clock.pos_edge() {
            self.clock_edge();
        }
        let (_, increment) = self.increment();
        let (base, sum) = self.sum(increment);
        self.overflow.next = sum >> self.value.width() != 0 && !self.write.val();
        self.value.set(self.state.0.value);
        self.shadow.set(self.state.0.shadow);
        self.base.set(base);
        self.inc.set(increment);
    }

    fn connect(&mut self) {
        self.value.connect();
        self.shadow.connect();
        self.base.connect();
        self.inc.connect();
        self.overflow.connect();
    }

    fn hdl(&self) -> Verilog {
        let cw = self.value.width();
        let low = self.count.width();
        let bit = |field: &crate::regmap::Field| format!("evtsel[{}]", field.lsb);
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        let cmask = slice("evtsel", evtsel::CMASK.lsb, 8, 32);
        let wide = low.max(8);
        verilog!(v, "wire cmask_set = |{cmask};");
        verilog!(v, "wire at_least_cmask = {} >= {};", zero_extend("count", low, wide), zero_extend(&cmask, 8, wide));
        verilog!(v, "wire nonzero = count != {};", literal(low, 0));
        let next = |field: &crate::regmap::Field| format!("evtsel_next[{}]", field.lsb);
        verilog!(
            v,
            "wire mode_ok_d = ({} & ~kernel_next) | ({} & kernel_next);",
            next(&evtsel::USR),
            next(&evtsel::OS)
        );
        verilog!(v, "wire qualified_d = {} & enabled_next & mode_ok_d & ~frozen_next & known_next;", next(&evtsel::EN));
        verilog!(v, "wire qualified = qualified_q;");
        verilog!(v, "wire threshold = cmask_set ? (at_least_cmask ^ {}) : nonzero;", bit(&evtsel::INV));
        verilog!(v, "wire condition = qualified & threshold;");
        verilog!(v, "reg [{}:0] increment;", low - 1);
        verilog!(v, "always @(*) begin");
        let one = |expr: &str| zero_extend(expr, 1, low);
        verilog!(v, "    if ({}) increment = {};", bit(&evtsel::E), one("condition & ~prev_condition_q"));
        verilog!(v, "    else if (cmask_set) increment = {};", one("condition"));
        verilog!(v, "    else if (qualified) increment = count;");
        verilog!(v, "    else increment = {};", literal(low, 0));
        verilog!(v, "end");
        verilog!(v, "wire [{}:0] base_w = restore ? shadow_q : value_q;", cw - 1);
        verilog!(
            v,
            "wire [{cw}:0] sum = {} + {};",
            zero_extend("base_w", cw, cw + 1),
            zero_extend("increment", low, cw + 1)
        );
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(v, "        value_q <= {0};\n        shadow_q <= {0};\n        prev_condition_q <= 1'b0;\n        qualified_q <= 1'b0;", literal(cw, 0));
        verilog!(v, "    end else begin");
        verilog!(v, "        value_q <= write ? wdata : (restart ? {} : sum[{}:0]);", literal(cw, 0), cw - 1);
        verilog!(v, "        shadow_q <= shadow_write ? wdata : (save ? value_q : shadow_q);");
        verilog!(v, "        prev_condition_q <= condition;\n        qualified_q <= qualified_d;");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    value = value_q;\n    shadow = shadow_q;\n    base = base_w;\n    inc = increment;\n    overflow = sum[{cw}] & ~write;");
        verilog!(v, "end");
        let mut unused: Vec<String> = (0..18).chain(19..23).map(|b| format!("evtsel[{b}]")).collect();
        unused.extend((0..16).chain(18..22).chain(23..32).map(|b| format!("evtsel_next[{b}]")));
        v.push_str(&crate::custom::unused_sink("evtsel", &unused));
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{apply, assert_valid_verilog, cycle, edge};
    use crate::{dyn_signal::low_mask, port_list};
    use rand::{Rng, SeedableRng};

    impl Ports for Counter {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, count, evtsel, evtsel_next, known_next, enabled_next, kernel_next, frozen_next,
                save, restore, write, restart, shadow_write, wdata, value, shadow, base, inc, overflow)
        }
    }

    /// Random CW and count widths; writes often land near 2^CW so that sums overflow.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1101;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, Counter)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), Counter::new(params.counter_width, params.count_width()))
            })
            .collect();
        let near_wrap = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "wdata" if rng.gen_bool(0.5) => vec![low_mask(width) - rng.gen_range(0..16)],
            "write" | "shadow_write" | "restart" => vec![rng.gen_ratio(1, 6) as u64],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("counter", seed).stimulus(near_wrap).cycles(3_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut Counter::new(40, 7), "counter_c40");
        assert_valid_verilog(&mut Counter::new(64, 10), "counter_c64");
        assert_valid_verilog(&mut Counter::new(16, 1), "counter_c16");
    }

    /// One cycle's inputs of the counter.
    #[derive(Clone, Copy, Debug)]
    struct Step {
        count: u64,
        known: bool,
        evtsel: u64,
        global_enable: bool,
        spflt_allow: bool,
        kernel: bool,
        frozen: bool,
        save: bool,
        restore: bool,
        write: bool,
        restart: bool,
        shadow_write: bool,
        wdata: u64,
    }

    /// §4.3: the qualification of a step.
    fn qualifies(step: &Step) -> bool {
        let field = |lsb: u32| step.evtsel >> lsb & 1 == 1;
        let mode_ok = (field(16) && !step.kernel) || (field(17) && step.kernel);
        field(22) && step.global_enable && step.spflt_allow && mode_ok && !step.frozen && step.known
    }

    /// §4.4-§4.6, §7 and §10 for one counter, written out from the rules, with the
    /// step's qualification `q`: returns (counter, shadow, previous condition,
    /// overflow, V) after the edge.
    fn rules(step: &Step, q: bool, counter: u64, shadow: u64, prev: bool, width: usize) -> (u64, u64, bool, bool, u64) {
        let field = |lsb: u32, bits: u32| step.evtsel >> lsb & ((1 << bits) - 1);
        let (e, inv, cmask) = (field(18, 1), field(23, 1), field(24, 8));
        let cond = q && if cmask != 0 { (step.count >= cmask) != (inv == 1) } else { step.count != 0 };
        let inc = match (e, cmask) {
            (1, _) => (cond && !prev) as u64,
            (_, 0) if q => step.count,
            (_, 0) => 0,
            _ => cond as u64,
        };
        let base = if step.restore { shadow } else { counter };
        let sum = base as u128 + inc as u128;
        let modulo = 1u128 << width;
        let natural = (sum % modulo) as u64;
        let next_counter = if step.write {
            step.wdata
        } else if step.restart {
            0
        } else {
            natural
        };
        let next_shadow = if step.shadow_write {
            step.wdata
        } else if step.save {
            counter
        } else {
            shadow
        };
        (next_counter, next_shadow, cond, sum >= modulo && !step.write, natural)
    }

    fn random_step(rng: &mut rand_chacha::ChaCha8Rng, width: usize) -> Step {
        let near_top = low_mask(width) - rng.gen_range(0..200);
        Step {
            count: rng.gen_range(0..128),
            known: rng.gen_bool(0.9),
            // Random selects, mostly enabled in some mode, CMASK often 0 or small.
            evtsel: rng.gen::<u64>() & 0x00FF_FFFF | 1 << 22 | [0u64, 0, 1, 2, 3, 200][rng.gen_range(0..6)] << 24,
            global_enable: rng.gen_bool(0.9),
            spflt_allow: rng.gen_bool(0.9),
            kernel: rng.gen_bool(0.5),
            frozen: rng.gen_bool(0.1),
            save: rng.gen_bool(0.05),
            restore: rng.gen_bool(0.05),
            write: rng.gen_bool(0.02),
            restart: rng.gen_bool(0.03),
            shadow_write: rng.gen_bool(0.02),
            wdata: if rng.gen_bool(0.5) { near_top } else { rng.gen::<u64>() & low_mask(width) },
        }
    }

    #[test]
    fn counting_shadow_and_precedence_follow_the_rules() {
        let seed = 0x5eed_1004;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for width in [16usize, 40, 64] {
            let mut uut = Counter::new(width, 7);
            uut.connect_all();
            let (mut counter, mut shadow, mut prev) = (0u64, 0u64, false);
            // The step after a reset edge is not qualified: the registers were 0.
            let mut after_reset = true;
            let mut overflows = 0;
            let mut step = random_step(&mut rng, width);
            for cycle_index in 0..20_000 {
                let next = random_step(&mut rng, width);
                let reset = rng.gen_ratio(1, 2000);
                apply(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.count.set(step.count);
                        u.evtsel.next = step.evtsel.to_bits();
                        // The qualification inputs carry the next step's values.
                        u.evtsel_next.next = next.evtsel.to_bits();
                        u.known_next.next = next.known;
                        u.enabled_next.next = next.global_enable && next.spflt_allow;
                        u.kernel_next.next = next.kernel;
                        u.frozen_next.next = next.frozen;
                        u.save.next = step.save;
                        u.restore.next = step.restore;
                        u.write.next = step.write;
                        u.restart.next = step.restart;
                        u.shadow_write.next = step.shadow_write;
                        u.wdata.set(step.wdata);
                        u.reset.next = reset;
                    },
                );
                let q = !after_reset && qualifies(&step);
                let (next_counter, next_shadow, next_prev, overflow, natural) =
                    rules(&step, q, counter, shadow, prev, width);
                let context = format!("CW={width} cycle {cycle_index} {step:?} seed {seed:#x}");
                // `overflow` is combinational: it shows this cycle's step before the edge.
                assert_eq!(uut.overflow.val(), overflow, "overflow, {context}");
                let v = (uut.base.get() as u128 + uut.inc.get() as u128) % (1u128 << width);
                assert_eq!(v as u64, natural, "V = base + inc, {context}");
                edge(&mut uut, |u| &mut u.clock);
                (counter, shadow, prev) = if reset { (0, 0, false) } else { (next_counter, next_shadow, next_prev) };
                after_reset = reset;
                overflows += overflow as u32;
                assert_eq!(uut.value.get(), counter, "counter, {context}");
                assert_eq!(uut.shadow.get(), shadow, "shadow, {context}");
                step = next;
            }
            assert!(overflows > 10, "CW={width}: the stimulus reached the wrap only {overflows} times");
        }
    }

    #[test]
    fn overflow_is_the_carry_of_this_cycles_sum_unless_written() {
        let mut uut = Counter::new(16, 2);
        uut.connect_all();
        let enabled_usr = 1u64 << 22 | 1 << 16;
        let drive = |u: &mut Counter, write: bool| {
            u.count.set(3);
            u.evtsel.next = enabled_usr.to_bits();
            u.evtsel_next.next = enabled_usr.to_bits();
            u.known_next.next = true;
            u.enabled_next.next = true;
            u.write.next = write;
            u.wdata.set(0xFFFE);
        };
        cycle(&mut uut, |u| &mut u.clock, |u| drive(u, true));
        assert_eq!(uut.value.get(), 0xFFFE);
        apply(&mut uut, |u| &mut u.clock, |u| drive(u, false));
        assert!(uut.overflow.val(), "0xFFFE + 3 carries out of 16 bits");
        apply(&mut uut, |u| &mut u.clock, |u| drive(u, true));
        assert!(!uut.overflow.val(), "a write replaces the sum and cannot overflow (§7)");
        edge(&mut uut, |u| &mut u.clock);
        assert_eq!(uut.value.get(), 0xFFFE);
    }
}
