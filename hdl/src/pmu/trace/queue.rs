//! Trace queue and stream (docs/pmu.md §13.3-§13.5): D records in a RAM (block RAM on
//! the iCE40: one write port, one registered read port), sent whole and in order as
//! 64-bit words on an AXI4-Stream-style port. Word 0 is {NEW_PROCESS, thread, address},
//! then the pid if NEW_PROCESS, then V_0 .. V_{K-1}; `last` marks the final word.
//!
//! Occupancy counts the records made and not yet sent (the one on the stream included);
//! a record made when the occupancy, after a record leaving at that edge, is D is
//! dropped whole (`drop`). A record leaves at the edge its last word moves.
//!
//! Latency: a record made into an empty queue at edge k is on the stream in cycle k+1;
//! records run back to back. The RAM's read port is registered, and reads the next
//! head at the edge the current one leaves; only when the record written at an edge is
//! the head of the next cycle can the RAM not deliver it in time, and then its first
//! word comes from a small bypass register (the words after it need one more cycle,
//! which the first word gives). The outputs are functions of registers only.
//!
//! ```text
//!  entry, push --> RAM [write pointer] ; occupancy, drop
//!  RAM [read pointer'] --> FF --+--> word mux [word index] --> trace_data, trace_last
//!  entry (first word) --> FF ---+ (bypass)               occupancy != 0 --> trace_valid
//! ```
use rust_hdl::prelude::*;

use super::super::groups;
use super::RecordLayout;
use crate::custom::{bits_for, literal, zero_extend, Internal};
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The queue's registers and RAM.
#[derive(Clone, Debug, Default)]
pub(super) struct QueueState {
    pub memory: Vec<Vec<u64>>,
    pub read_pointer: usize,
    pub write_pointer: usize,
    pub occupancy: usize,
    pub word: usize,
    pub read_data: Vec<u64>,
    pub first: u64,
    pub first_from_bypass: bool,
}

/// The trace queue and its stream port.
#[derive(LogicBlock)]
pub struct TraceQueue {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the queue empty (the RAM keeps its contents).
    pub reset: Signal<In, Bit>,
    /// A record is made at this edge.
    pub push: Signal<In, Bit>,
    /// The record's queue entry.
    pub entry: DynSignal<In>,
    /// `trace_ready`: the consumer takes the word this cycle.
    pub ready: Signal<In, Bit>,
    /// The record made at this edge is dropped (the queue is full).
    pub drop: Signal<Out, Bit>,
    /// `trace_data` (0 while `valid` is 0).
    pub data: DynSignal<Out>,
    /// `trace_valid`.
    pub valid: Signal<Out, Bit>,
    /// `trace_last` (0 while `valid` is 0).
    pub last: Signal<Out, Bit>,
    pub(super) state: Internal<QueueState>,
    pub(super) shape: Internal<(RecordLayout, usize)>,
}

impl TraceQueue {
    /// A queue of `depth` records (2..=1024, a power of 2) of `layout`.
    pub fn new(depth: usize, layout: RecordLayout) -> Self {
        assert!(
            (2..=1024).contains(&depth) && depth.is_power_of_two(),
            "TraceQueue: D = {depth} is not a power of 2 in 2..=1024"
        );
        let words = layout.width().div_ceil(64);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            entry: DynSignal::new(layout.width()),
            ready: Default::default(),
            drop: Default::default(),
            data: DynSignal::new(64),
            valid: Default::default(),
            last: Default::default(),
            state: Internal(QueueState {
                memory: vec![vec![0; words]; depth],
                read_data: vec![0; words],
                ..Default::default()
            }),
            shape: Internal((layout, depth)),
        }
    }

    /// Bits of the word index: words 0 ..= K+1.
    pub(super) fn word_bits(&self) -> usize {
        bits_for(self.shape.0 .0.counters + 1)
    }

    /// The head record's first-word fields (address, thread, NEW_PROCESS).
    fn head_first(&self) -> u64 {
        let state = &self.state.0;
        let bits = self.shape.0 .0.first_word_bits();
        if state.first_from_bypass {
            state.first
        } else {
            crate::dyn_signal::word_field(&state.read_data, 0, bits)
        }
    }

    /// (the current word, whether it is the record's last), valid or not.
    fn current_word(&self) -> (u64, bool) {
        let layout = self.shape.0 .0;
        let state = &self.state.0;
        let first = self.head_first();
        let aw = layout.address_width;
        let new_process = first >> (aw + 2) & 1 == 1;
        let last_word = layout.counters + new_process as usize;
        let field = |lsb: usize, width: usize| crate::dyn_signal::word_field(&state.read_data, lsb, width);
        let word = match state.word {
            0 => (new_process as u64) << 63 | (first >> aw & 3) << 61 | (first & crate::dyn_signal::low_mask(aw)),
            1 if new_process => field(layout.pid_lsb(), 32),
            w if w <= last_word => {
                let i = w - 1 - new_process as usize;
                let sum = field(layout.value_lsb(i), layout.counter_width)
                    .wrapping_add(field(layout.increment_lsb(i), layout.increment_width));
                sum & crate::dyn_signal::low_mask(layout.counter_width)
            }
            _ => 0,
        };
        (word, state.word == last_word)
    }
}

impl TraceQueue {
    /// (valid, leaves at this edge, moves at this edge, accepted at this edge, full).
    fn handshake(&self) -> (bool, bool, bool, bool, bool) {
        let depth = self.shape.0 .1;
        let valid = self.state.0.occupancy != 0;
        let moves = valid && self.ready.val();
        let leaves = moves && self.current_word().1;
        let full = self.state.0.occupancy - leaves as usize == depth;
        (valid, leaves, moves, self.push.val() && !full, full)
    }

    /// The edge: RAM write, registered read, pointers, occupancy, word index.
    fn step(&mut self) {
        let (_, leaves, moves, accept, _) = self.handshake();
        let (layout, depth) = self.shape.0;
        let first = self.entry.field(0, layout.first_word_bits());
        let state = &mut self.state.0;
        let read_address = (state.read_pointer + leaves as usize) % depth;
        // The registered read sees the RAM as it was before this edge's write.
        state.read_data.clone_from(&state.memory[read_address]);
        state.first = first;
        if accept {
            state.memory[state.write_pointer].copy_from_slice(self.entry.words());
        }
        if self.reset.val() {
            (state.read_pointer, state.write_pointer, state.occupancy, state.word) = (0, 0, 0, 0);
            state.first_from_bypass = false;
        } else {
            state.first_from_bypass = accept && state.write_pointer == read_address;
            state.read_pointer = read_address;
            state.write_pointer = (state.write_pointer + accept as usize) % depth;
            state.occupancy = state.occupancy - leaves as usize + accept as usize;
            state.word = if leaves { 0 } else { state.word + moves as usize };
        }
    }
}

impl TraceQueue {
    /// The registers: the pointers and occupancy, the stream's word position, and the
    /// first-word bypass (which, like the RAM's read register, has no power-on value).
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let (layout, depth) = self.shape.0;
        let pointer_bits = depth.trailing_zeros() as usize;
        vec![
            FlipFlops::unset("first_q", layout.first_word_bits(), groups::STREAM_STATE),
            FlipFlops::new("read_pointer_q", pointer_bits, 0, groups::QUEUE_POINTERS),
            FlipFlops::new("write_pointer_q", pointer_bits, 0, groups::QUEUE_POINTERS),
            FlipFlops::new("occupancy_q", pointer_bits + 1, 0, groups::QUEUE_POINTERS),
            FlipFlops::new("word_q", self.word_bits(), 0, groups::STREAM_STATE),
            FlipFlops::new("first_from_bypass_q", 1, 0, groups::STREAM_STATE),
        ]
    }
}

impl Logic for TraceQueue {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.step();
        }
        let (valid, _, _, _, full) = self.handshake();
        let (word, at_last) = self.current_word();
        self.drop.next = self.push.val() && full;
        self.data.set(if valid { word } else { 0 });
        self.valid.next = valid;
        self.last.next = valid && at_last;
    }

    fn connect(&mut self) {
        self.drop.connect();
        self.data.connect();
        self.valid.connect();
        self.last.connect();
    }

    fn hdl(&self) -> Verilog {
        crate::custom::hand_written::<Self>(self.verilog())
    }
}

impl TraceQueue {
    /// The Verilog: the RAM as an array with one write and one registered read (yosys
    /// maps it to SB_RAM40_4K on the iCE40), pointers, occupancy, word mux.
    fn verilog(&self) -> String {
        let (layout, depth) = self.shape.0;
        let (aw, k, cw) = (layout.address_width, layout.counters, layout.counter_width);
        let (width, first_bits, word_bits) = (layout.width(), layout.first_word_bits(), self.word_bits());
        let pointer_bits = depth.trailing_zeros() as usize;
        let mut v = String::new();
        // A read at the edge that writes the same entry is never used (the bypass gives
        // that record's first word, and its other words are read one edge later), so
        // yosys need not emulate the RAM's read-during-write behaviour.
        verilog!(v, "(* no_rw_check *)\nreg [{}:0] memory [0:{}];", width - 1, depth - 1);
        // No power-on value: the read register belongs to the RAM's read port.
        verilog!(v, "reg [{}:0] read_data_q;", width - 1);
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "wire valid_w = occupancy_q != {};", literal(pointer_bits + 1, 0));
        verilog!(
            v,
            "wire [{}:0] head_first = first_from_bypass_q ? first_q : read_data_q[{}:0];",
            first_bits - 1,
            first_bits - 1
        );
        verilog!(v, "wire new_process = head_first[{}];", layout.new_process_bit());
        verilog!(
            v,
            "wire at_last = word_q == (new_process ? {} : {});",
            literal(word_bits, k as u64 + 1),
            literal(word_bits, k as u64)
        );
        verilog!(v, "wire moves = valid_w & ready;\nwire leaves = moves & at_last;");
        verilog!(
            v,
            "wire [{pointer_bits}:0] after_leave = occupancy_q - {};",
            zero_extend("leaves", 1, pointer_bits + 1)
        );
        verilog!(v, "wire full = after_leave == {};", literal(pointer_bits + 1, depth as u64));
        verilog!(v, "wire accept = push & ~full;");
        verilog!(
            v,
            "wire [{}:0] read_address = read_pointer_q + {};",
            pointer_bits - 1,
            zero_extend("leaves", 1, pointer_bits)
        );
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (accept) memory[write_pointer_q] <= entry;");
        verilog!(v, "    read_data_q <= memory[read_address];");
        verilog!(v, "    first_q <= entry[{}:0];", first_bits - 1);
        verilog!(v, "end");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin");
        verilog!(v, "        read_pointer_q <= {0};\n        write_pointer_q <= {0};", literal(pointer_bits, 0));
        verilog!(
            v,
            "        occupancy_q <= {};\n        word_q <= {};\n        first_from_bypass_q <= 1'b0;",
            literal(pointer_bits + 1, 0),
            literal(word_bits, 0)
        );
        verilog!(v, "    end else begin");
        verilog!(v, "        first_from_bypass_q <= accept & (write_pointer_q == read_address);");
        verilog!(v, "        read_pointer_q <= read_address;");
        verilog!(v, "        if (accept) write_pointer_q <= write_pointer_q + {};", literal(pointer_bits, 1));
        verilog!(v, "        occupancy_q <= after_leave + {};", zero_extend("accept", 1, pointer_bits + 1));
        verilog!(
            v,
            "        if (leaves) word_q <= {};\n        else if (moves) word_q <= word_q + {};",
            literal(word_bits, 0),
            literal(word_bits, 1)
        );
        verilog!(v, "    end");
        verilog!(v, "end");
        // V_i = base + increment, mod 2^CW, added on the way out of the RAM.
        let iw = layout.increment_width;
        for i in 0..k {
            let base = format!("read_data_q[{}:{}]", layout.value_lsb(i) + cw - 1, layout.value_lsb(i));
            let increment = format!("read_data_q[{}:{}]", layout.increment_lsb(i) + iw - 1, layout.increment_lsb(i));
            verilog!(v, "wire [{}:0] value_{i} = {base} + {};", cw - 1, zero_extend(&increment, iw, cw));
        }
        let value = |i: usize| zero_extend(&format!("value_{i}"), cw, 64);
        let pid = format!("{{32'h0, read_data_q[{}:{}]}}", layout.pid_lsb() + 31, layout.pid_lsb());
        verilog!(v, "reg [63:0] word;");
        verilog!(v, "always @(*) begin");
        verilog!(v, "    case (word_q)");
        let address = zero_extend(&format!("head_first[{}:0]", aw - 1), aw, 61);
        verilog!(
            v,
            "        {}: word = {{new_process, head_first[{}:{aw}], {address}}};",
            literal(word_bits, 0),
            aw + 1
        );
        for w in 1..=k + 1 {
            let with_pid = if w == 1 { pid.clone() } else { value(w - 2) };
            let without = if w <= k { value(w - 1) } else { "64'h0".to_string() };
            verilog!(v, "        {}: word = new_process ? {with_pid} : {without};", literal(word_bits, w as u64));
        }
        if (1 << word_bits) > k + 2 {
            verilog!(v, "        default: word = 64'h0;");
        }
        verilog!(v, "    endcase");
        verilog!(v, "    data = valid_w ? word : 64'h0;\n    valid = valid_w;\n    last = valid_w & at_last;\n    drop = push & full;");
        verilog!(v, "end");
        v
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
    use std::cell::Cell;
    use std::collections::VecDeque;

    impl Ports for TraceQueue {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, push, entry, ready, drop, data, valid, last)
        }
    }

    /// Random D (2..=1024), K, CW, AW and increment width. The consumer is ready in
    /// long stretches and stalls in long stretches; the producer pushes often while it
    /// stalls (the first stall, 1,750 cycles at 0.9 pushes a cycle, outlasts the deepest
    /// queue) and seldom while it is ready, and resets only then, so that queues of every
    /// depth fill, drop and drain. Entry words are all ones half the time, so that
    /// V_i = base + inc wraps.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1206;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let instances: Vec<(String, TraceQueue)> = (0..4)
            .map(|_| {
                let params = random_params(&mut rng);
                let layout = RecordLayout {
                    address_width: params.address_width,
                    counters: params.counters,
                    counter_width: params.counter_width,
                    increment_width: params.count_width(),
                };
                (describe(&params), TraceQueue::new(params.trace_depth, layout))
            })
            .collect();
        // (the consumer is ready in this stretch, `ready` draws left in it), shared by
        // the instances: a stretch of n draws lasts n / 4 cycles.
        let stretch = Cell::new((false, 7_000u32));
        let stalls_and_wraps = move |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "ready" => {
                let (ready, left) = match stretch.get() {
                    (true, 0) => (false, rng.gen_range(400..4_000)),
                    (false, 0) => (true, rng.gen_range(2_000..12_000)),
                    current => current,
                };
                stretch.set((ready, left - 1));
                vec![rng.gen_bool(if ready { 0.95 } else { 0.02 }) as u64]
            }
            "push" => vec![rng.gen_bool(if stretch.get().0 { 0.05 } else { 0.9 }) as u64],
            "reset" => vec![(stretch.get().0 && rng.gen_ratio(1, 2_000)) as u64],
            "entry" => (0..width.div_ceil(64)).map(|_| if rng.gen() { u64::MAX } else { rng.gen() }).collect(),
            _ => random_input(rng, name, width),
        };
        Lockstep::new("trace_queue", seed).stimulus(stalls_and_wraps).cycles(5_000).run(instances);
    }

    fn layout(aw: usize, k: usize, cw: usize) -> RecordLayout {
        RecordLayout { address_width: aw, counters: k, counter_width: cw, increment_width: 5 }
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut TraceQueue::new(256, layout(32, 2, 40)), "trace_queue_d256");
        assert_valid_verilog(&mut TraceQueue::new(2, layout(16, 1, 16)), "trace_queue_d2");
        assert_valid_verilog(&mut TraceQueue::new(1024, layout(48, 4, 64)), "trace_queue_d1024");
    }

    /// The stream words of an entry, from docs/pmu.md §13.5.
    fn words(entry: &[u64], layout: &RecordLayout) -> Vec<u64> {
        let aw = layout.address_width;
        let field = |lsb: usize, width: usize| crate::dyn_signal::word_field(entry, lsb, width);
        let new_process = field(aw + 2, 1);
        let mut words = vec![new_process << 63 | field(aw, 2) << 61 | field(0, aw)];
        if new_process == 1 {
            words.push(field(aw + 3, 32));
        }
        let mask = crate::dyn_signal::low_mask(layout.counter_width);
        words.extend((0..layout.counters).map(|i| {
            field(layout.value_lsb(i), layout.counter_width)
                .wrapping_add(field(layout.increment_lsb(i), layout.increment_width))
                & mask
        }));
        words
    }

    /// §13.4-§13.5 against the block: occupancy, drops, order, timing, holding.
    #[test]
    fn records_stream_in_order_back_to_back_and_drop_when_full() {
        let seed = 0x5eed_7003;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for (depth, layout) in [(2, layout(16, 1, 16)), (4, layout(48, 4, 64)), (8, layout(32, 2, 40))] {
            let mut uut = TraceQueue::new(depth, layout);
            uut.connect_all();
            let mut queue: VecDeque<Vec<u64>> = VecDeque::new();
            let mut word = 0usize;
            let (mut drops, mut sent, mut back_to_back) = (0, 0, 0);
            let mut previous_last_moved = false;
            for step in 0..30_000 {
                let push = rng.gen_bool(if step % 2000 < 1000 { 0.5 } else { 0.15 });
                let ready = rng.gen_bool(if step % 3000 < 1500 { 0.9 } else { 0.3 });
                let reset = rng.gen_ratio(1, 3000);
                let entry: Vec<u64> = (0..layout.width().div_ceil(64)).map(|_| rng.gen()).collect();
                apply(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.push.next = push;
                        u.entry.set_words(&entry);
                        u.ready.next = ready;
                        u.reset.next = reset;
                    },
                );
                // The outputs during this cycle.
                let context = format!("D={depth} step {step} seed {seed:#x}");
                let front = queue.front();
                assert_eq!(uut.valid.val(), front.is_some(), "valid, {context}");
                assert_eq!(uut.data.get(), front.map_or(0, |r| r[word]), "data, {context}");
                assert_eq!(uut.last.val(), front.is_some_and(|r| word == r.len() - 1), "last, {context}");
                if previous_last_moved && front.is_some() {
                    back_to_back += (word == 0) as u32;
                }
                // The edge.
                let moves = front.is_some() && ready;
                let leaves = moves && front.is_some_and(|r| word == r.len() - 1);
                let full = queue.len() - leaves as usize == depth;
                assert_eq!(uut.drop.val(), push && full, "drop, {context}");
                edge(&mut uut, |u| &mut u.clock);
                previous_last_moved = leaves && !reset;
                if reset {
                    (queue, word) = (VecDeque::new(), 0);
                    continue;
                }
                if leaves {
                    queue.pop_front();
                    (word, sent) = (0, sent + 1);
                } else if moves {
                    word += 1;
                }
                if push && !full {
                    let mut stored = entry.clone();
                    let last = stored.len() - 1;
                    stored[last] &= crate::dyn_signal::low_mask(layout.width() - last * 64);
                    queue.push_back(words(&stored, &layout));
                }
                drops += (push && full) as u32;
            }
            assert!(
                drops > 100 && sent > 1000 && back_to_back > 100,
                "D={depth}: {drops} drops, {sent} sent, {back_to_back} back to back"
            );
        }
    }
}
