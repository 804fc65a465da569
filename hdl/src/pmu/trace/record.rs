//! Trace record assembly (docs/pmu.md §13.2): the queue entry of a block end: the
//! block address, the traced thread, NEW_PROCESS, the pid, and for every counter i of
//! the traced thread the value V_i it would take at this edge without the restart and
//! without a write, as its two terms (the counter's `base` and `inc`; the queue adds
//! them on the way out), in the layout of [`RecordLayout`].
//!
//! Latency: combinational (a multiplexer by the traced thread, a register).
//!
//! ```text
//!  base, inc [t*K+i] --[thread]--> V_0 .. V_{K-1} ---+
//!  address, thread, new_process, pid ----------------+--> entry
//! ```
use rust_hdl::prelude::*;

use super::RecordLayout;
use crate::custom::{slice, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// The queue entry of this cycle's block end.
#[derive(LogicBlock)]
pub struct TraceRecord {
    /// Every counter's base: counter (t, i) at [(t*K + i)*CW +: CW].
    pub bases: DynSignal<In>,
    /// Every counter's increment: counter (t, i) at [(t*K + i)*IW +: IW].
    pub incs: DynSignal<In>,
    /// The traced thread.
    pub thread: DynSignal<In>,
    /// NEW_PROCESS.
    pub new_process: Signal<In, Bit>,
    /// The block address, AW bits.
    pub address: DynSignal<In>,
    /// The process id.
    pub pid: DynSignal<In>,
    /// The entry.
    pub entry: DynSignal<Out>,
    layout: Internal<RecordLayout>,
    threads: Internal<usize>,
}

impl TraceRecord {
    /// The record of a PMU with `threads` threads (1..=4) and records of `layout`.
    pub fn new(threads: usize, layout: RecordLayout) -> Self {
        assert!((1..=4).contains(&threads), "TraceRecord: T = {threads} is out of range 1..=4");
        let (k, cw) = (layout.counters, layout.counter_width);
        Self {
            bases: DynSignal::new(threads * k * cw),
            incs: DynSignal::new(threads * k * layout.increment_width),
            thread: DynSignal::new(2),
            new_process: Default::default(),
            address: DynSignal::new(layout.address_width),
            pid: DynSignal::new(32),
            entry: DynSignal::new(layout.width()),
            layout: Internal(layout),
            threads: Internal(threads),
        }
    }
}

impl Logic for TraceRecord {
    fn update(&mut self) {
        let layout = self.layout.0;
        let (k, cw) = (layout.counters, layout.counter_width);
        // A thread >= T makes no record; its entry is never stored.
        let thread = (self.thread.get() as usize).min(self.threads.0 - 1);
        // Every field is driven, so no bit keeps an old value.
        let entry = &mut self.entry;
        entry.set_field(0, layout.address_width, self.address.get());
        entry.set_field(layout.thread_lsb(), 2, self.thread.get());
        entry.set_bit(layout.new_process_bit(), self.new_process.val());
        entry.set_field(layout.pid_lsb(), 32, self.pid.get());
        let iw = layout.increment_width;
        for i in 0..k {
            entry.set_field(layout.value_lsb(i), cw, self.bases.field((thread * k + i) * cw, cw));
            entry.set_field(layout.increment_lsb(i), iw, self.incs.field((thread * k + i) * iw, iw));
        }
    }

    fn connect(&mut self) {
        self.entry.connect();
    }

    fn hdl(&self) -> Verilog {
        let layout = self.layout.0;
        let (threads, k, cw) = (self.threads.0, layout.counters, layout.counter_width);
        let iw = layout.increment_width;
        let mut v = String::new();
        let group = k * (cw + iw);
        // Each counter's {inc, base}, counter 0 at the LSBs.
        let terms = |t: usize| -> String {
            let parts: Vec<String> = (0..k)
                .rev()
                .map(|i| {
                    let n = t * k + i;
                    format!(
                        "{}, {}",
                        slice("incs", n * iw, iw, threads * k * iw),
                        slice("bases", n * cw, cw, threads * k * cw)
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        };
        verilog!(v, "reg [{}:0] traced_values;", group - 1);
        verilog!(v, "always @(*) begin");
        if threads == 1 {
            verilog!(v, "    traced_values = {};", terms(0));
        } else {
            verilog!(v, "    case (thread)");
            for t in 0..threads {
                let default = if t == threads - 1 && threads < 4 { "default".to_string() } else { format!("2'd{t}") };
                verilog!(v, "        {default}: traced_values = {};", terms(t));
            }
            verilog!(v, "    endcase");
        }
        verilog!(v, "    entry = {{traced_values, pid, new_process, thread, address}};");
        verilog!(v, "end");
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Combinational, CombinationalPorts, Port};
    use crate::testing::{assert_valid_verilog, settle};
    use rand::{Rng, SeedableRng};

    impl CombinationalPorts for TraceRecord {
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; bases, incs, thread, new_process, address, pid, entry)
        }
    }

    /// Random T, K, CW, AW and increment width (the table's); the thread is any of the
    /// four, also those >= T, whose entry the queue never stores but which both engines
    /// still assemble.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1205;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, Combinational<TraceRecord>)> = (0..5)
            .map(|_| {
                let params = random_params(&mut rng);
                let layout = RecordLayout {
                    address_width: params.address_width,
                    counters: params.counters,
                    counter_width: params.counter_width,
                    increment_width: params.count_width(),
                };
                (describe(&params), Combinational::new(TraceRecord::new(params.threads, layout)))
            })
            .collect();
        Lockstep::new("trace_record", seed).cycles(2_000).run(instances);
    }

    fn layout(k: usize, cw: usize, aw: usize) -> RecordLayout {
        RecordLayout { address_width: aw, counters: k, counter_width: cw, increment_width: 7 }
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut TraceRecord::new(4, layout(2, 40, 32)), "trace_record_t4");
        assert_valid_verilog(&mut TraceRecord::new(1, layout(1, 16, 16)), "trace_record_t1");
        assert_valid_verilog(&mut TraceRecord::new(3, layout(4, 64, 48)), "trace_record_t3");
    }

    #[test]
    fn entry_holds_the_traced_threads_values_in_the_documented_layout() {
        let seed = 0x5eed_7001;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (t, k, cw, aw) = (3, 4, 33, 20);
        let mut uut = TraceRecord::new(t, layout(k, cw, aw));
        uut.connect_all();
        for _ in 0..200 {
            let values: Vec<u64> = (0..t * k).map(|_| rng.gen::<u64>() & ((1 << cw) - 1)).collect();
            let incs: Vec<u64> = (0..t * k).map(|_| rng.gen_range(0..128)).collect();
            let (thread, new_process) = (rng.gen_range(0..t), rng.gen_bool(0.5));
            let (address, pid) = (rng.gen::<u64>() & ((1 << aw) - 1), rng.gen::<u32>());
            for (n, (value, inc)) in values.iter().zip(&incs).enumerate() {
                uut.bases.set_field(n * cw, cw, *value);
                uut.incs.set_field(n * 7, 7, *inc);
            }
            uut.thread.set(thread as u64);
            uut.new_process.next = new_process;
            uut.address.set(address);
            uut.pid.set(pid as u64);
            settle(&mut uut);
            // docs/pmu.md §13.4: address [0 +: AW], thread, NEW_PROCESS, pid, then per counter
            // the base (CW bits) and the increment (7 bits here).
            let entry = &uut.entry;
            assert_eq!(entry.field(0, aw), address);
            assert_eq!(entry.field(aw, 2), thread as u64);
            assert_eq!(entry.bit(aw + 2), new_process);
            assert_eq!(entry.field(aw + 3, 32), pid as u64);
            for i in 0..k {
                let at = aw + 35 + i * (cw + 7);
                assert_eq!(entry.field(at, cw), values[thread * k + i], "base of V_{i} of thread {thread}");
                assert_eq!(entry.field(at + cw, 7), incs[thread * k + i], "increment of V_{i} of thread {thread}");
            }
            assert_eq!(entry.width(), aw + 35 + k * (cw + 7));
        }
    }
}
