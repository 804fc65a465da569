//! Trace control (docs/pmu.md §13, seed 004's "trace facility"): the shared registers
//! TRACE_CTRL, TRACE_PID and TRACE_DROPPED, the traced thread's block-end inputs one
//! cycle late, and the decisions of each edge: a block end (every counter of the
//! traced thread restarts), a record (unless PID_FILTER filters it out), and whether
//! the record starts a new process (its pid differs from the previous block end's).
//!
//! Latency: `bb_end`, `bb_addr` and `pid` of the thread that TRACE_CTRL.THREAD names in
//! the next cycle are registered (the one-cycle input latency, §4); the decisions are
//! combinational from registers only. TRACE_CTRL and TRACE_PID writes act from the next
//! cycle; a TRACE_CTRL write forgets the previous block end, and so does `forget` (a
//! PROFILE_CTRL write that changes SUMMARIZE, §15.1; the port exists only with a profile
//! table); a TRACE_DROPPED write clears it, and a record dropped at that same edge then
//! counts 1 (§7).
//!
//! ```text
//!  bb_end, bb_addr, pid [THREAD next] --> FF --> block end, record, new process --> restart[t], queue
//!  wdata, strobes --> TRACE_CTRL, TRACE_PID, TRACE_DROPPED (+ dropped)
//! ```
use rust_hdl::prelude::*;

use super::super::groups;
use super::super::regmap::trace_ctrl;
use crate::custom::{literal, slice, unused_sink, Internal};
use crate::dyn_signal::{low_mask, DynSignal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::optional::Optional;
use crate::verilog;

/// The registers of the trace control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ControlState {
    pub ctrl: u64,
    pub trace_pid: u64,
    pub dropped: u64,
    pub bb_end: bool,
    pub address: u64,
    pub pid: u64,
    pub last_pid: u64,
    pub has_last: bool,
}

/// TRACE_CTRL, TRACE_PID, TRACE_DROPPED and the block-end decisions.
#[derive(LogicBlock)]
pub struct TraceControl {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: every register to 0.
    pub reset: Signal<In, Bit>,
    /// Register write data.
    pub wdata: DynSignal<In>,
    /// TRACE_CTRL is written at this edge.
    pub ctrl_write: Signal<In, Bit>,
    /// TRACE_PID is written at this edge.
    pub pid_write: Signal<In, Bit>,
    /// TRACE_DROPPED is written (cleared) at this edge.
    pub dropped_write: Signal<In, Bit>,
    /// The queue drops a record at this edge.
    pub drop: Signal<In, Bit>,
    /// Forget the previous block end at this edge, as a TRACE_CTRL write does (only
    /// with a profile table: a PROFILE_CTRL write that changes SUMMARIZE, §15.1).
    pub forget: Optional<Signal<In, Bit>>,
    /// The `bb_end` port: bit t = thread t ends a block this cycle.
    pub bb_end: DynSignal<In>,
    /// The `bb_addr` port: thread t's block address at [t*AW +: AW].
    pub bb_addr: DynSignal<In>,
    /// The `pid` port: thread t's process id at [t*32 +: 32].
    pub pid: DynSignal<In>,
    /// TRACE_CTRL: [0] TRACE_EN, [1] PID_FILTER, [5:4] THREAD.
    pub ctrl: DynSignal<Out>,
    /// TRACE_PID.
    pub trace_pid: DynSignal<Out>,
    /// TRACE_DROPPED.
    pub dropped: DynSignal<Out>,
    /// Bit t: every counter of thread t restarts at this edge.
    pub restart: DynSignal<Out>,
    /// The traced thread, TRACE_CTRL.THREAD.
    pub thread: DynSignal<Out>,
    /// A record is made at this edge.
    pub record: Signal<Out, Bit>,
    /// The record starts a new process (NEW_PROCESS).
    pub new_process: Signal<Out, Bit>,
    /// The traced thread's block address (last cycle's `bb_addr`).
    pub address: DynSignal<Out>,
    /// The traced thread's process id (last cycle's `pid`).
    pub block_pid: DynSignal<Out>,
    pub(super) state: Internal<ControlState>,
    pub(super) address_width: Internal<usize>,
}

impl TraceControl {
    /// The trace control of a core with `threads` threads (1..=4) and `address_width`-bit
    /// block addresses (16..=48); `forgets`: it has the `forget` input (a PMU with a
    /// profile table).
    pub fn new(threads: usize, address_width: usize, forgets: bool) -> Self {
        assert!((1..=4).contains(&threads), "TraceControl: T = {threads} is out of range 1..=4");
        assert!((16..=48).contains(&address_width), "TraceControl: AW = {address_width} is out of range 16..=48");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wdata: DynSignal::new(64),
            ctrl_write: Default::default(),
            pid_write: Default::default(),
            dropped_write: Default::default(),
            drop: Default::default(),
            forget: Optional::when(forgets, Default::default),
            bb_end: DynSignal::new(threads),
            bb_addr: DynSignal::new(threads * address_width),
            pid: DynSignal::new(threads * 32),
            ctrl: DynSignal::new(6),
            trace_pid: DynSignal::new(32),
            dropped: DynSignal::new(32),
            restart: DynSignal::new(threads),
            thread: DynSignal::new(2),
            record: Default::default(),
            new_process: Default::default(),
            address: DynSignal::new(address_width),
            block_pid: DynSignal::new(32),
            state: Internal(ControlState::default()),
            address_width: Internal(address_width),
        }
    }

    /// The state after this cycle's edge.
    fn next_state(&self, block_end: bool) -> ControlState {
        let state = self.state.0;
        if self.reset.val() {
            return ControlState::default();
        }
        let (threads, aw) = (self.bb_end.width(), self.address_width.0);
        let wdata = self.wdata.get();
        let ctrl = if self.ctrl_write.val() { wdata & trace_ctrl::WRITABLE } else { state.ctrl };
        // The inputs of the thread traced in the next cycle, so that they act one cycle late.
        let thread_d = (ctrl >> trace_ctrl::THREAD.lsb & 3) as usize;
        let traced = thread_d < threads;
        let drop = self.drop.val();
        let dropped = if self.dropped_write.val() {
            drop as u64
        } else {
            (state.dropped + (drop && state.dropped != u32::MAX as u64) as u64) & low_mask(32)
        };
        ControlState {
            ctrl,
            trace_pid: if self.pid_write.val() { wdata & low_mask(32) } else { state.trace_pid },
            dropped,
            bb_end: traced && self.bb_end.bit(thread_d),
            address: if traced { self.bb_addr.field(thread_d * aw, aw) } else { 0 },
            pid: if traced { self.pid.field(thread_d * 32, 32) } else { 0 },
            last_pid: if block_end { state.pid } else { state.last_pid },
            has_last: !self.forgets() && (state.has_last || block_end),
        }
    }
}

impl TraceControl {
    /// The previous block end is forgotten at this edge: a TRACE_CTRL write, or `forget`.
    fn forgets(&self) -> bool {
        self.ctrl_write.val() || self.forget.0.as_ref().is_some_and(|forget| forget.val())
    }
}

impl ControlState {
    /// A block end of the traced thread acts at this cycle's edge (TRACE_EN and the
    /// registered `bb_end`).
    fn block_end(&self) -> bool {
        self.ctrl >> trace_ctrl::TRACE_EN.lsb & 1 == 1 && self.bb_end
    }
}

impl TraceControl {
    /// The registers: TRACE_CTRL, TRACE_PID, TRACE_DROPPED, the traced thread's block
    /// end, address and pid one cycle late, and the pid at the previous block end.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("ctrl_q", 6, 0, groups::TRACE_CONTROL_AND_PID),
            FlipFlops::new("trace_pid_q", 32, 0, groups::TRACE_CONTROL_AND_PID),
            FlipFlops::new("dropped_q", 32, 0, groups::DROPPED_COUNTER),
            FlipFlops::new("address_q", self.address_width.0, 0, groups::TRACE_INPUT_STAGE),
            FlipFlops::new("pid_q", 32, 0, groups::TRACE_INPUT_STAGE),
            FlipFlops::new("last_pid_q", 32, 0, groups::LAST_PID),
            FlipFlops::new("bb_end_q", 1, 0, groups::TRACE_INPUT_STAGE),
            FlipFlops::new("has_last_q", 1, 0, groups::LAST_PID),
        ]
    }
}

impl Logic for TraceControl {
    fn update(&mut self) {
        // The edge first, then the outputs from the state after it: an edge that
        // changes no output of this block triggers no further delta cycle.
        if self.clock.pos_edge() {
            self.state.0 = self.next_state(self.state.0.block_end());
        }
        let state = self.state.0;
        let thread = state.ctrl >> trace_ctrl::THREAD.lsb & 3;
        let block_end = state.block_end();
        let filtered = state.ctrl >> trace_ctrl::PID_FILTER.lsb & 1 == 1 && state.pid != state.trace_pid;
        self.restart.set(if block_end { 1 << thread } else { 0 });
        self.thread.set(thread);
        self.record.next = block_end && !filtered;
        self.new_process.next = !state.has_last || state.pid != state.last_pid;
        self.address.set(state.address);
        self.block_pid.set(state.pid);
        self.ctrl.set(state.ctrl);
        self.trace_pid.set(state.trace_pid);
        self.dropped.set(state.dropped);
    }

    fn connect(&mut self) {
        self.ctrl.connect();
        self.trace_pid.connect();
        self.dropped.connect();
        self.restart.connect();
        self.thread.connect();
        self.record.connect();
        self.new_process.connect();
        self.address.connect();
        self.block_pid.connect();
    }

    fn hdl(&self) -> Verilog {
        let (threads, aw) = (self.bb_end.width(), self.address_width.0);
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        let (en, filter, thread) = (trace_ctrl::TRACE_EN.lsb, trace_ctrl::PID_FILTER.lsb, trace_ctrl::THREAD.lsb);
        verilog!(v, "wire [5:0] ctrl_d = ctrl_write ? (wdata[5:0] & 6'h{:x}) : ctrl_q;", trace_ctrl::WRITABLE);
        verilog!(v, "wire [1:0] thread_d = ctrl_d[{}:{thread}];", thread + 1);
        verilog!(v, "wire [1:0] traced_thread = ctrl_q[{}:{thread}];", thread + 1);
        verilog!(v, "wire block_end = ctrl_q[{en}] & bb_end_q;");
        // The traced thread's inputs; a THREAD >= T selects none (0).
        verilog!(v, "reg bb_end_d;\nreg [{}:0] address_d;\nreg [31:0] pid_d;", aw - 1);
        verilog!(v, "always @(*) begin\n    case (thread_d)");
        for t in 0..threads {
            verilog!(
                v,
                "        2'd{t}: begin bb_end_d = {}; address_d = {}; pid_d = {}; end",
                slice("bb_end", t, 1, threads),
                slice("bb_addr", t * aw, aw, threads * aw),
                slice("pid", t * 32, 32, threads * 32)
            );
        }
        if threads < 4 {
            verilog!(v, "        default: begin bb_end_d = 1'b0; address_d = {}; pid_d = 32'h0; end", literal(aw, 0));
        }
        verilog!(v, "    endcase\nend");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(v, "        ctrl_q <= 6'h0; trace_pid_q <= 32'h0; dropped_q <= 32'h0; bb_end_q <= 1'b0;");
        verilog!(
            v,
            "        address_q <= {}; pid_q <= 32'h0; last_pid_q <= 32'h0; has_last_q <= 1'b0;",
            literal(aw, 0)
        );
        verilog!(v, "    end else begin");
        verilog!(v, "        ctrl_q <= ctrl_d;");
        verilog!(v, "        if (pid_write) trace_pid_q <= wdata[31:0];");
        verilog!(v, "        if (dropped_write) dropped_q <= {{31'h0, drop}};");
        verilog!(v, "        else if (drop & ~&dropped_q) dropped_q <= dropped_q + 32'h1;");
        verilog!(v, "        bb_end_q <= bb_end_d; address_q <= address_d; pid_q <= pid_d;");
        verilog!(v, "        if (block_end) last_pid_q <= pid_q;");
        let forget = if self.forget.is_present() { " & ~forget" } else { "" };
        verilog!(v, "        has_last_q <= ~ctrl_write{forget} & (has_last_q | block_end);");
        verilog!(v, "    end");
        verilog!(v, "end");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    ctrl = ctrl_q; trace_pid = trace_pid_q; dropped = dropped_q;");
        let restart: Vec<String> =
            (0..threads).rev().map(|t| format!("(block_end & (traced_thread == 2'd{t}))")).collect();
        verilog!(v, "    restart = {{{}}};", restart.join(", "));
        verilog!(v, "    thread = traced_thread;");
        verilog!(v, "    record = block_end & ~(ctrl_q[{filter}] & (pid_q != trace_pid_q));");
        verilog!(v, "    new_process = ~has_last_q | (pid_q != last_pid_q);");
        verilog!(v, "    address = address_q; block_pid = pid_q;");
        verilog!(v, "end");
        let unused: Vec<String> = (32..64).map(|b| format!("wdata[{b}]")).collect();
        v.push_str(&unused_sink("wdata", &unused));
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pmu::testing::{describe, random_params};
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{apply, assert_valid_verilog, edge};
    use rand::{Rng, SeedableRng};

    impl Ports for TraceControl {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, wdata, ctrl_write, pid_write, dropped_write, drop, bb_end, bb_addr, pid, ctrl,
                trace_pid, dropped, restart, thread, record, new_process, address, block_pid; optional forget)
        }
    }

    /// Process ids, and the low bits of the write data: each is also a TRACE_CTRL value
    /// (TRACE_EN mostly set, every THREAD), so that writes of either register trace a
    /// thread and that pids meet TRACE_PID and each other.
    const PIDS: [u64; 10] = [0x01, 0x03, 0x11, 0x13, 0x21, 0x23, 0x31, 0x33, 0x00, 0x10];

    /// Random T and AW; register writes and drops at realistic rates; pids and write
    /// data from [`PIDS`].
    #[test]
    fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1204;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, TraceControl)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                let forgets = rng.gen_bool(0.5);
                let description = format!("{}, forget input {forgets}", describe(&params));
                (description, TraceControl::new(params.threads, params.address_width, forgets))
            })
            .collect();
        let few_pids = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "wdata" => vec![rng.gen::<u64>() & !low_mask(32) | PIDS[rng.gen_range(0..PIDS.len())]],
            "pid" => {
                let mut words = vec![0u64; width.div_ceil(64)];
                for thread in 0..width / 32 {
                    words[thread / 2] |= PIDS[rng.gen_range(0..PIDS.len())] << (thread % 2 * 32);
                }
                words
            }
            "ctrl_write" | "pid_write" | "forget" => vec![rng.gen_ratio(1, 16) as u64],
            "dropped_write" => vec![rng.gen_ratio(1, 32) as u64],
            "drop" => vec![rng.gen_ratio(1, 4) as u64],
            _ => random_input(rng, name, width),
        };
        Lockstep::new("trace_control", seed).stimulus(few_pids).cycles(4_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut TraceControl::new(4, 32, false), "trace_control_t4");
        assert_valid_verilog(&mut TraceControl::new(1, 16, true), "trace_control_t1");
        assert_valid_verilog(&mut TraceControl::new(3, 48, false), "trace_control_t3");
    }

    /// docs/pmu.md §13.1-§13.3 and §7 for the control, cycle by cycle: the block end
    /// of the traced thread one cycle late, the filter, NEW_PROCESS, the registers.
    #[test]
    fn block_ends_records_and_new_processes_follow_the_rules() {
        let seed = 0x5eed_7002;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (threads, aw) = (3usize, 20usize);
        let mut uut = TraceControl::new(threads, aw, false);
        uut.connect_all();
        // The rules' state: registers, last cycle's inputs (all threads), the previous block end's pid.
        let (mut ctrl, mut trace_pid, mut dropped) = (0u64, 0u64, 0u64);
        let mut last_inputs: Option<(u64, [u64; 4], [u64; 4])> = None;
        let mut previous_pid: Option<u64> = None;
        let (mut records, mut new_processes) = (0, 0);
        for step in 0..50_000 {
            let wdata = rng.gen::<u64>() & !0xC | [0u64, 0x11, 0x21, 0x03, 0x13, 0x31][rng.gen_range(0..6)];
            let (ctrl_write, pid_write, dropped_write) =
                (rng.gen_ratio(1, 20), rng.gen_ratio(1, 30), rng.gen_ratio(1, 30));
            let drop = rng.gen_bool(0.3);
            let bb_end = rng.gen::<u64>() & 7;
            let addresses = [0, 1, 2, 3].map(|_| rng.gen::<u64>() & ((1 << aw) - 1));
            let pids = [0, 1, 2, 3].map(|_| rng.gen_range(0..3u64));
            let reset = rng.gen_ratio(1, 2000);
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.wdata.set(wdata);
                    (u.ctrl_write.next, u.pid_write.next, u.dropped_write.next, u.drop.next) =
                        (ctrl_write, pid_write, dropped_write, drop);
                    u.bb_end.set(bb_end);
                    for t in 0..threads {
                        u.bb_addr.set_field(t * aw, aw, addresses[t]);
                        u.pid.set_field(t * 32, 32, pids[t]);
                    }
                    u.reset.next = reset;
                },
            );
            let thread = (ctrl >> 4 & 3) as usize;
            let (ends, address, pid) = match last_inputs {
                Some((ends, addresses, pids)) if thread < threads => {
                    (ends >> thread & 1 == 1, addresses[thread], pids[thread])
                }
                _ => (false, 0, 0),
            };
            let block_end = ctrl & 1 == 1 && ends;
            let record = block_end && !(ctrl & 2 == 2 && pid != trace_pid);
            let context = format!("step {step} seed {seed:#x}");
            assert_eq!(uut.restart.get(), if block_end { 1 << thread } else { 0 }, "restart, {context}");
            assert_eq!(uut.record.val(), record, "record, {context}");
            if block_end {
                assert_eq!(uut.new_process.val(), previous_pid != Some(pid), "new process, {context}");
                assert_eq!(
                    (uut.address.get(), uut.block_pid.get(), uut.thread.get()),
                    (address, pid, thread as u64),
                    "{context}"
                );
            }
            assert_eq!(
                (uut.ctrl.get(), uut.trace_pid.get(), uut.dropped.get()),
                (ctrl, trace_pid, dropped),
                "registers, {context}"
            );
            records += record as u32;
            new_processes += (record && uut.new_process.val()) as u32;
            edge(&mut uut, |u| &mut u.clock);
            if reset {
                (ctrl, trace_pid, dropped, last_inputs, previous_pid) = (0, 0, 0, None, None);
                continue;
            }
            if block_end {
                previous_pid = Some(pid);
            }
            if ctrl_write {
                (ctrl, previous_pid) = (wdata & 0x33, None);
            }
            if pid_write {
                trace_pid = wdata & 0xFFFF_FFFF;
            }
            dropped = if dropped_write { drop as u64 } else { dropped + drop as u64 };
            last_inputs = Some((bb_end, addresses, pids));
        }
        assert!(records > 1000 && new_processes > 300, "{records} records, {new_processes} new processes");
    }
}
