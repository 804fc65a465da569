//! Serial output of the record and the counter (seed 000 claim 5; docs/monitor.md §6).
//!
//! A frame is F = N*(N-1) + 32 bits: the record with m as the outer loop and a as
//! the inner loop (a != m), bit = flag (a before m); then COUNT from bit 31 down to
//! bit 0. At an edge where no frame is being sent (idle, or the last bit's cycle
//! ends) and SERIAL_EN was 1, the shifter loads the record and COUNT as they were
//! during that cycle. Frames run back to back while SERIAL_EN stays 1.
//!
//! Latency: bit i of a frame loaded at edge k is on `data` during cycle k+1+i.
//! `data`, `valid` and `last` come straight from flip-flops; `data` and `last` are
//! 0 while `valid` is 0 (the shift register fills with zeros).
//!
//! ```text
//!  before[m], count --> | frame[F] >> 1 |--> data
//!  enable           --> | remaining     |--> valid, last
//! ```
use rust_hdl::prelude::*;
use std::fmt::Write;

use super::groups;
use crate::custom::{bits_for, unused_diagonal, unused_sink, Internal};
use crate::flip_flops::FlipFlops;
use crate::params::SerialOutput;
use crate::word::WordSignal;

/// Counter width of the frame (docs/monitor.md §1: C = 32).
pub const COUNT_BITS: usize = 32;

/// The shifter's plain-Rust state (the native twin of the Verilog registers).
#[derive(Clone, Debug, Default)]
pub struct FrameState {
    /// Built with the shifter, or left out (`--no-serial`: outputs constant 0).
    output: SerialOutput,
    /// The frame being sent; bit i is sent in the i-th cycle after the load.
    frame: Vec<bool>,
    /// Index of the bit on `data` this cycle.
    position: usize,
    /// A frame is being sent.
    busy: bool,
    /// The frame was loaded at the last edge; its COUNT bits come in at this one.
    count_due: bool,
}

/// Frame length in bits for `events` (N) events: N*(N-1) + 32.
pub fn frame_bits(events: usize) -> usize {
    events * (events - 1) + COUNT_BITS
}

/// Frame shifter for an N-event record and the 32-bit count.
#[derive(LogicBlock)]
pub struct SerialFrame {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: idle, shift register cleared.
    pub reset: Signal<In, Bit>,
    /// CTRL.SERIAL_EN: start a frame whenever none is being sent.
    pub enable: Signal<In, Bit>,
    /// Stored record row m: bit a = flag (a before m).
    pub before: Vec<WordSignal<In>>,
    /// COUNT as it was in the previous cycle (the counter's register): the frame's
    /// COUNT bits are taken one edge after the load, when this holds COUNT of the
    /// load's cycle.
    pub count: Signal<In, Bits<COUNT_BITS>>,
    /// The frame bit of this cycle (`ser_data`).
    pub data: Signal<Out, Bit>,
    /// `data` carries a frame bit this cycle (`ser_valid`).
    pub valid: Signal<Out, Bit>,
    /// This is the frame's last bit (`ser_last`).
    pub last: Signal<Out, Bit>,
    state: Internal<FrameState>,
}

impl SerialFrame {
    /// A frame shifter for `events` (N) events, `2 <= N <= 32`; with
    /// [`SerialOutput::Absent`] nothing is built and the outputs are constant 0.
    pub fn new(events: usize, output: SerialOutput) -> Self {
        assert!((2..=32).contains(&events), "SerialFrame: N = {events} is out of range 2..=32");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            before: (0..events).map(|_| WordSignal::new(events)).collect(),
            count: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            last: Default::default(),
            state: Internal(FrameState {
                output,
                frame: vec![false; frame_bits(events)],
                position: 0,
                busy: false,
                count_due: false,
            }),
        }
    }

    /// N.
    pub fn events(&self) -> usize {
        self.before.len()
    }

    /// The frame bit index of flag (a before m), a != m.
    fn record_bit(&self, a: usize, m: usize) -> usize {
        super::context_record::flag_index(self.events(), a, m)
    }

    fn load_record(&mut self) {
        let n = self.events();
        for m in 0..n {
            let row = self.before[m].val();
            for a in (0..n).filter(|&a| a != m) {
                let bit = self.record_bit(a, m);
                self.state.0.frame[bit] = row.get_bit(a);
            }
        }
    }

    fn load_count(&mut self) {
        let (count, n) = (self.count.val(), self.events());
        let frame = &mut self.state.0.frame;
        for j in 0..COUNT_BITS {
            frame[n * (n - 1) + j] = count.get_bit(COUNT_BITS - 1 - j);
        }
    }
}

impl SerialFrame {
    /// The registers: the frame shifter, the bits remaining, busy, last and the
    /// "loaded at the last edge" flag; none without the frame.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        if self.state.0.output == SerialOutput::Absent {
            return Vec::new();
        }
        let frame_bits = frame_bits(self.events());
        [
            ("frame_q", frame_bits),
            ("remaining_q", bits_for(frame_bits - 1)),
            ("busy_q", 1),
            ("last_q", 1),
            ("load_q", 1),
        ]
        .into_iter()
        .map(|(net, width)| FlipFlops::new(net, width, 0, groups::SERIAL_SHIFTER))
        .collect()
    }
}

impl Logic for SerialFrame {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.state.0.output == SerialOutput::Frame {
            if self.state.0.count_due && !self.reset.val() {
                self.load_count();
            }
            self.state.0.count_due = false;
            let state = &self.state.0;
            let ends = state.busy && state.position == state.frame.len() - 1;
            if self.reset.val() {
                self.state.0.busy = false;
                self.state.0.position = 0;
            } else if self.enable.val() && (!state.busy || ends) {
                self.load_record();
                self.state.0.count_due = true;
                self.state.0.busy = true;
                self.state.0.position = 0;
            } else if ends {
                self.state.0.busy = false;
                self.state.0.position = 0;
            } else if state.busy {
                self.state.0.position += 1;
            }
        }
        let state = &self.state.0;
        self.valid.next = state.busy;
        self.data.next = state.busy && state.frame[state.position];
        self.last.next = state.busy && state.position == state.frame.len() - 1;
    }

    fn connect(&mut self) {
        self.data.connect();
        self.valid.connect();
        self.last.connect();
    }

    fn hdl(&self) -> Verilog {
        if self.state.0.output == SerialOutput::Absent {
            return crate::custom::hand_written::<Self>(absent(self.events()));
        }
        let n = self.events();
        let frame_bits = frame_bits(n);
        let remaining_bits = bits_for(frame_bits - 1);
        let mut v = String::new();
        let _ = writeln!(v, "reg [{}:0] frame_q;      // bit 0 is on data", frame_bits - 1);
        let _ = writeln!(v, "reg [{}:0] remaining_q;  // bits left after this one", remaining_bits - 1);
        let _ = writeln!(v, "reg busy_q;");
        let _ = writeln!(v, "reg last_q;");
        let record_bits = n * (n - 1);
        let _ = writeln!(v, "reg load_q;     // loaded at the last edge: COUNT's bits come in at this one");
        let _ = writeln!(v, "wire [{}:0] snapshot;", record_bits - 1);
        // last_q is 1 exactly while the frame's last bit is out (busy, none remaining):
        // the load decision reads it instead of comparing the counter, which takes
        // the counter off the path to the shift register's enable (docs/monitor.md §7.2).
        let _ = writeln!(v, "wire load = enable & (~busy_q | last_q);");
        for m in 0..n {
            for a in (0..n).filter(|&a| a != m) {
                let _ = writeln!(v, "assign snapshot[{}] = before${m}[{a}];", self.record_bit(a, m));
            }
        }
        // `count` holds, one edge after the load, COUNT of the load's cycle; it enters
        // with the first shift, one position below its place in the frame.
        let msb_first: Vec<String> = (0..COUNT_BITS).map(|j| format!("count[{j}]")).collect();
        let _ = writeln!(v, "wire [{}:0] count_msb_first = {{{}}};", COUNT_BITS - 1, msb_first.join(", "));
        let _ = writeln!(v, "initial begin");
        let _ = writeln!(v, "    frame_q = {frame_bits}'h0;");
        let _ = writeln!(v, "    remaining_q = {remaining_bits}'d0;");
        let _ = writeln!(v, "    busy_q = 1'b0;");
        let _ = writeln!(v, "    last_q = 1'b0;");
        let _ = writeln!(v, "    load_q = 1'b0;");
        let _ = writeln!(v, "end");
        let _ = writeln!(v, "always @(posedge clock) load_q <= load & ~reset;");
        let _ = writeln!(v, "always @(posedge clock) begin");
        let _ = writeln!(v, "    if (reset) begin");
        let _ = writeln!(v, "        frame_q <= {frame_bits}'h0;");
        let _ = writeln!(v, "        remaining_q <= {remaining_bits}'d0;");
        let _ = writeln!(v, "        busy_q <= 1'b0;");
        let _ = writeln!(v, "        last_q <= 1'b0;");
        let _ = writeln!(v, "    end else if (load) begin");
        let _ = writeln!(v, "        frame_q <= {{{COUNT_BITS}'h0, snapshot}};");
        let _ = writeln!(v, "        remaining_q <= {remaining_bits}'d{};", frame_bits - 1);
        let _ = writeln!(v, "        busy_q <= 1'b1;");
        let _ = writeln!(v, "        last_q <= 1'b0;");
        let _ = writeln!(v, "    end else if (busy_q) begin");
        let _ = writeln!(
            v,
            "        frame_q <= {{1'b0, frame_q[{}:1]}} | ({{{frame_bits}{{load_q}}}} & {{1'b0, count_msb_first, {}'h0}});",
            frame_bits - 1,
            record_bits - 1
        );
        let _ = writeln!(v, "        remaining_q <= remaining_q - {remaining_bits}'d1;");
        let _ = writeln!(v, "        busy_q <= remaining_q != {remaining_bits}'d0;");
        let _ = writeln!(v, "        last_q <= remaining_q == {remaining_bits}'d1;");
        let _ = writeln!(v, "    end");
        let _ = writeln!(v, "end");
        let _ = writeln!(v, "always @(*) begin");
        let _ = writeln!(v, "    data = frame_q[0];");
        let _ = writeln!(v, "    valid = busy_q;");
        let _ = writeln!(v, "    last = last_q;");
        let _ = writeln!(v, "end");
        v.push_str(&unused_diagonal("before", n));
        crate::custom::hand_written::<Self>(v)
    }
}

/// The Verilog body without a shifter (`--no-serial`): constant outputs, inputs sunk.
fn absent(n: usize) -> String {
    let mut v = String::new();
    let _ = writeln!(v, "// Built without the serial frame (--no-serial): ser_* are constant 0.");
    let inputs: Vec<String> = ["clock", "reset", "enable", "count"]
        .iter()
        .map(|s| s.to_string())
        .chain((0..n).map(|m| format!("before${m}")))
        .collect();
    v.push_str(&unused_sink("frame_inputs", &inputs));
    let _ = writeln!(v, "always @(*) begin");
    let _ = writeln!(v, "    data = 1'b0;");
    let _ = writeln!(v, "    valid = 1'b0;");
    let _ = writeln!(v, "    last = 1'b0;");
    let _ = writeln!(v, "end");
    v
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use crate::testing::{assert_valid_verilog, bits_of, cycle};
    use crate::word::Word;
    use pmugen_sim::reference::frame::{frame_bits as reference_frame_bits, FrameModel};
    use pmugen_sim::reference::record::RecordModel;
    use rand::{Rng, SeedableRng};

    impl Ports for SerialFrame {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, enable, count, data, valid, last; vec before)
        }
    }

    /// Frames and absent shifters at random N over 2..=32, the corners included. Resets
    /// are rare (a frame of N = 32 is 1,024 bits long) and SERIAL_EN is mostly 1, so
    /// that frames run to their last bit and follow each other; bit m of record row m
    /// is 0, as the record never sets it.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1303;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let shapes = [
            (SerialOutput::Frame, 2),
            (SerialOutput::Frame, 32),
            (SerialOutput::Frame, rng.gen_range(2..=32)),
            (SerialOutput::Absent, rng.gen_range(2..=32)),
            (SerialOutput::Absent, *[2, 32].get(rng.gen_range(0..2)).expect("in range")),
        ];
        let instances =
            shapes.map(|(output, n)| (format!("{output:?} N={n}"), SerialFrame::new(n, output))).into_iter().collect();
        let long_frames = |rng: &mut rand_chacha::ChaCha8Rng, name: &str, width: usize| match name {
            "reset" => vec![rng.gen_ratio(1, 2_000) as u64],
            "enable" => vec![rng.gen_bool(0.7) as u64],
            _ => match name.strip_prefix("before__").map(|m| m.parse::<u64>().expect("a row index")) {
                Some(m) => vec![rng.gen::<u64>() & !(1 << m)],
                None => random_input(rng, name, width),
            },
        };
        Lockstep::new("serial_frame", seed).stimulus(long_frames).cycles(4_000).run(instances);
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut SerialFrame::new(4, SerialOutput::Frame), "serial_frame_n4");
        assert_valid_verilog(&mut SerialFrame::new(4, SerialOutput::Absent), "serial_frame_absent_n4");
    }

    #[test]
    fn frames_match_reference_bit_for_bit() {
        const N: usize = 4;
        let seed = 0x5eed_0008;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = SerialFrame::new(N, SerialOutput::Frame);
        uut.connect_all();
        let mut model = FrameModel::default();
        let mut frames = 0;
        // The shifter's `count` input is COUNT of the previous cycle.
        let mut previous_count = 0u32;
        for step in 0..5_000 {
            let mut record = RecordModel::new(N);
            for (a, row) in record.before.iter_mut().enumerate() {
                for (m, flag) in row.iter_mut().enumerate() {
                    *flag = a != m && rng.gen_bool(0.5);
                }
            }
            let count: u32 = rng.gen();
            let enable = rng.gen_bool(0.7);
            let reset = rng.gen_ratio(1, 500);
            cycle(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    for m in 0..N {
                        u.before[m].next = Word::new(N, record.row(m) as u64);
                    }
                    u.count.next = bits_of(previous_count as u64);
                    u.enable.next = enable;
                    u.reset.next = reset;
                },
            );
            if reset {
                model = FrameModel::default();
            } else {
                model.step(enable, || reference_frame_bits(&record, count));
            }
            previous_count = count;
            let (data, valid, last) = model.outputs();
            frames += last as u32;
            assert_eq!(uut.data.val(), data, "data, step {step} seed {seed:#x}");
            assert_eq!(uut.valid.val(), valid, "valid, step {step} seed {seed:#x}");
            assert_eq!(uut.last.val(), last, "last, step {step} seed {seed:#x}");
        }
        assert!(frames > 10, "only {frames} frames completed");
    }

    #[test]
    fn record_bits_come_first_in_m_major_order() {
        // N=3: (a, m) = (1,0) (2,0) (0,1) (2,1) (0,2) (1,2).
        let order: Vec<usize> = [(1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]
            .iter()
            .map(|&(a, m)| SerialFrame::new(3, SerialOutput::Frame).record_bit(a, m))
            .collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(frame_bits(8), 88);
    }
}
