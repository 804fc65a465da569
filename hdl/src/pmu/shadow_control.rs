//! Shadow control of one thread (seed 002): SHADOW_CTRL and the kernel entry/exit
//! detector that triggers the shadows' save and restore.
//!
//! The thread enters the kernel in a cycle where its (one-cycle-late) `kernel` is 1
//! and was 0 the cycle before, and leaves it when `kernel` is 0 and was 1; the
//! previous value is 0 after reset. At an entry, counter i with SAVE_ON_ENTRY[i]
//! saves into its shadow; at an exit, counter i with RESTORE_ON_EXIT[i] takes
//! SHADOW[i] + inc, so a process's count leaves out the kernel's events (seed 002
//! Fig. 6: 6 "rather than 12").
//!
//! Latency: SHADOW_CTRL writes take effect from the next cycle; `save`/`restore`
//! are combinational from this cycle's `kernel` and the previous-kernel flip-flop.
//!
//! ```text
//!  kernel --+--> [FF] kernel_prev --> entry = kernel & ~prev, exit = ~kernel & prev
//!  write ---> [SHADOW_CTRL] --------> save = entry & SAVE_ON_ENTRY, restore = exit & RESTORE_ON_EXIT
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::regmap::RESTORE_ON_EXIT_LSB;
use crate::custom::{literal, unused_sink, Internal};
use crate::dyn_signal::{low_mask, DynSignal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// SHADOW_CTRL (save bits low, restore bits high) and the previous kernel mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ShadowState {
    save_on_entry: u64,
    restore_on_exit: u64,
    kernel_prev: bool,
}

/// One thread's shadow control.
#[derive(LogicBlock)]
pub struct ShadowControl {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: SHADOW_CTRL and the previous mode to 0.
    pub reset: Signal<In, Bit>,
    /// Register write data.
    pub wdata: DynSignal<In>,
    /// SHADOW_CTRL is written at this edge.
    pub write: Signal<In, Bit>,
    /// Last cycle's `kernel` of this thread.
    pub kernel: Signal<In, Bit>,
    /// SHADOW_CTRL.SAVE_ON_ENTRY.
    pub save_on_entry: DynSignal<Out>,
    /// SHADOW_CTRL.RESTORE_ON_EXIT.
    pub restore_on_exit: DynSignal<Out>,
    /// Bit i: counter i saves into its shadow at this edge.
    pub save: DynSignal<Out>,
    /// Bit i: counter i takes SHADOW[i] + inc at this edge.
    pub restore: DynSignal<Out>,
    state: Internal<ShadowState>,
}

impl ShadowControl {
    /// The shadow control of a thread with `counters` counters (1..=4).
    pub fn new(counters: usize) -> Self {
        assert!((1..=4).contains(&counters), "ShadowControl: K = {counters} is out of range 1..=4");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wdata: DynSignal::new(64),
            write: Default::default(),
            kernel: Default::default(),
            save_on_entry: DynSignal::new(counters),
            restore_on_exit: DynSignal::new(counters),
            save: DynSignal::new(counters),
            restore: DynSignal::new(counters),
            state: Internal(ShadowState::default()),
        }
    }
}

impl ShadowControl {
    /// The registers: SAVE_ON_ENTRY, RESTORE_ON_EXIT and the previous kernel flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let k = self.save.width();
        vec![
            FlipFlops::new("save_on_entry_q", k, 0, groups::SHADOW_CONTROL),
            FlipFlops::new("restore_on_exit_q", k, 0, groups::SHADOW_CONTROL),
            FlipFlops::new("kernel_prev_q", 1, 0, groups::PREVIOUS_KERNEL_MODE),
        ]
    }
}

impl Logic for ShadowControl {
    fn update(&mut self) {
        let mask = low_mask(self.save.width());
        let kernel = self.kernel.val();
        if self.clock.pos_edge() {
            let wdata = self.wdata.get();
            let old = self.state.0;
            self.state.0 = if self.reset.val() {
                ShadowState::default()
            } else if self.write.val() {
                ShadowState {
                    save_on_entry: wdata & mask,
                    restore_on_exit: wdata >> RESTORE_ON_EXIT_LSB & mask,
                    kernel_prev: kernel,
                }
            } else {
                ShadowState { kernel_prev: kernel, ..old }
            };
        }
        let state = self.state.0;
        let entry = kernel && !state.kernel_prev;
        let exit = !kernel && state.kernel_prev;
        self.save_on_entry.set(state.save_on_entry);
        self.restore_on_exit.set(state.restore_on_exit);
        self.save.set(if entry { state.save_on_entry } else { 0 });
        self.restore.set(if exit { state.restore_on_exit } else { 0 });
    }

    fn connect(&mut self) {
        self.save_on_entry.connect();
        self.restore_on_exit.connect();
        self.save.connect();
        self.restore.connect();
    }

    fn hdl(&self) -> Verilog {
        let k = self.save.width();
        let zero = literal(k, 0);
        let restore_bits = format!("wdata[{}:{RESTORE_ON_EXIT_LSB}]", RESTORE_ON_EXIT_LSB + k - 1);
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "wire entry = kernel & ~kernel_prev_q;");
        verilog!(v, "wire exit = ~kernel & kernel_prev_q;");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(
            v,
            "        save_on_entry_q <= {zero};\n        restore_on_exit_q <= {zero};\n        kernel_prev_q <= 1'b0;"
        );
        verilog!(v, "    end else begin");
        verilog!(v, "        if (write) begin");
        verilog!(
            v,
            "            save_on_entry_q <= wdata[{}:0];\n            restore_on_exit_q <= {restore_bits};",
            k - 1
        );
        verilog!(v, "        end");
        verilog!(v, "        kernel_prev_q <= kernel;");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    save_on_entry = save_on_entry_q;\n    restore_on_exit = restore_on_exit_q;");
        verilog!(
            v,
            "    save = save_on_entry_q & {{{k}{{entry}}}};\n    restore = restore_on_exit_q & {{{k}{{exit}}}};"
        );
        verilog!(v, "end");
        let used = |b: usize| b < k || (RESTORE_ON_EXIT_LSB..RESTORE_ON_EXIT_LSB + k).contains(&b);
        let unused: Vec<String> = (0..64).filter(|&b| !used(b)).map(|b| format!("wdata[{b}]")).collect();
        v.push_str(&unused_sink("wdata", &unused));
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
    use crate::testing::{apply, assert_valid_verilog, edge};
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        for counters in 1..=4 {
            assert_valid_verilog(&mut ShadowControl::new(counters), &format!("shadow_control_k{counters}"));
        }
    }

    /// The shadow control with `kernel` one cycle late, as the PMU's input stage gives
    /// it. The lockstep harness reads the outputs after the edge, with the inputs of the
    /// cycle before it still applied; by then the previous-mode flip-flop holds that
    /// same `kernel`, so `save` and `restore` of the bare block would always read 0
    /// there. Through the delay the block's `kernel` changes at the edge, and the
    /// outputs after it show an entry or an exit as they act at the next edge.
    #[derive(LogicBlock)]
    struct KernelOneCycleLate {
        clock: Signal<In, Clock>,
        reset: Signal<In, Bit>,
        wdata: DynSignal<In>,
        write: Signal<In, Bit>,
        kernel: Signal<In, Bit>,
        save_on_entry: DynSignal<Out>,
        restore_on_exit: DynSignal<Out>,
        save: DynSignal<Out>,
        restore: DynSignal<Out>,
        kernel_delay: DFF<Bit>,
        control: ShadowControl,
    }

    impl KernelOneCycleLate {
        fn new(counters: usize) -> Self {
            Self {
                clock: Default::default(),
                reset: Default::default(),
                wdata: DynSignal::new(64),
                write: Default::default(),
                kernel: Default::default(),
                save_on_entry: DynSignal::new(counters),
                restore_on_exit: DynSignal::new(counters),
                save: DynSignal::new(counters),
                restore: DynSignal::new(counters),
                kernel_delay: Default::default(),
                control: ShadowControl::new(counters),
            }
        }
    }

    impl Logic for KernelOneCycleLate {
        fn update(&mut self) {
            self.kernel_delay.clock.next = self.clock.val();
            self.kernel_delay.d.next = self.kernel.val();
            let control = &mut self.control;
            control.clock.next = self.clock.val();
            control.reset.next = self.reset.val();
            control.wdata.set(self.wdata.get());
            control.write.next = self.write.val();
            control.kernel.next = self.kernel_delay.q.val();
            self.save_on_entry.set(control.save_on_entry.get());
            self.restore_on_exit.set(control.restore_on_exit.get());
            self.save.set(control.save.get());
            self.restore.set(control.restore.get());
        }

        fn connect(&mut self) {
            self.kernel_delay.clock.connect();
            self.kernel_delay.d.connect();
            let control = &mut self.control;
            control.clock.connect();
            control.reset.connect();
            control.wdata.connect();
            control.write.connect();
            control.kernel.connect();
            self.save_on_entry.connect();
            self.restore_on_exit.connect();
            self.save.connect();
            self.restore.connect();
        }

        fn hdl(&self) -> Verilog {
            let mut v = String::new();
            verilog!(v, "always @(*) begin");
            verilog!(v, "    kernel_delay$clock = clock;\n    kernel_delay$d = kernel;");
            verilog!(v, "    control$clock = clock;\n    control$reset = reset;\n    control$wdata = wdata;");
            verilog!(v, "    control$write = write;\n    control$kernel = kernel_delay$q;");
            for output in ["save_on_entry", "restore_on_exit", "save", "restore"] {
                verilog!(v, "    {output} = control${output};");
            }
            verilog!(v, "end");
            Verilog::Custom(v)
        }
    }

    impl Ports for KernelOneCycleLate {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, wdata, write, kernel, save_on_entry, restore_on_exit, save, restore)
        }
    }

    /// Random K; `kernel` through a one-cycle delay ([`KernelOneCycleLate`]); SHADOW_CTRL
    /// writes now and then, so that entries and exits meet settings that hold for a while.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1202;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, KernelOneCycleLate)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                (describe(&params), KernelOneCycleLate::new(params.counters))
            })
            .collect();
        let occasional_writes = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "write" => vec![rng.gen_ratio(1, 10) as u64],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("shadow_control", seed).stimulus(occasional_writes).cycles(3_000).run(instances);
    }

    #[test]
    fn entry_and_exit_trigger_the_configured_counters() {
        let seed = 0x5eed_1006;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = ShadowControl::new(4);
        uut.connect_all();
        let (mut save_bits, mut restore_bits, mut previous_kernel) = (0u64, 0u64, false);
        let (mut entries, mut exits) = (0, 0);
        for step in 0..10_000 {
            let (wdata, write, kernel, reset) =
                (rng.gen::<u64>(), rng.gen_bool(0.05), rng.gen_bool(0.5), rng.gen_ratio(1, 500));
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.wdata.set(wdata);
                    u.write.next = write;
                    u.kernel.next = kernel;
                    u.reset.next = reset;
                },
            );
            // §10: entry when kernel is 1 and was 0; exit when 0 and was 1.
            let (entry, exit) = (kernel && !previous_kernel, !kernel && previous_kernel);
            entries += entry as u32;
            exits += exit as u32;
            let context = format!("step {step}, seed {seed:#x}");
            assert_eq!(uut.save.get(), if entry { save_bits } else { 0 }, "save, {context}");
            assert_eq!(uut.restore.get(), if exit { restore_bits } else { 0 }, "restore, {context}");
            edge(&mut uut, |u| &mut u.clock);
            (save_bits, restore_bits, previous_kernel) = match (reset, write) {
                (true, _) => (0, 0, false),
                (false, true) => (wdata & 0xF, wdata >> 8 & 0xF, kernel),
                (false, false) => (save_bits, restore_bits, kernel),
            };
            assert_eq!((uut.save_on_entry.get(), uut.restore_on_exit.get()), (save_bits, restore_bits), "{context}");
        }
        assert!(entries > 100 && exits > 100);
    }
}
