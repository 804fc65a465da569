//! The PMU top: the blocks of one core's PMU wired together, with exactly the ports
//! of the docs (clock, reset, events, core_events, kernel, pm_mark, pmi, reg_*,
//! bb_end, bb_addr, pid, trace_*).
//!
//! Latency: the event-side inputs act one cycle late: each counter's sampler
//! registers its selected count, each counter registers its qualification (from
//! the `kernel` and `pm_mark` pins and the registers' next values), and the input
//! stage registers `kernel` for the shadow control.
//! Counters, status, `pmi` and the register port's outputs are registered or come
//! from registers only.
//!
//! ```text
//!  events ----+-> ANY sums --+-> event sampler [t,i] --> counter [t,i] (+ shadow) --overflow--> global control [t] -> pmi[t]
//!  core_events+--------------+        ^                    ^  ^
//!  kernel -> input stage -> shadow control [t] ------------+  +-- event select [t,i] (EVTSEL, decoded event)
//!  kernel, pm_mark (this cycle) -> each counter's qualification register
//!  reg_* -> register port (access table) -> strobes -> EVTSEL, counters, controls, TSC; read mux <- every register
//!  reg_wdata[15:0] -> event decoder -> event selects and, during their write, event samplers
//!  bb_end, bb_addr, pid -> trace control -> restart -> counters of the traced thread
//!  counters' next values -> trace record -> trace queue (RAM) -> [profile table, E > 0] -> trace_data, trace_valid, trace_last
//! ```
use rust_hdl::prelude::*;

use super::counter::Counter;
use super::event_decoder::EventDecoder;
use super::event_fields::EventFields;
use super::event_sampler::EventSampler;
use super::event_select::EventSelect;
use super::event_sums::EventSums;
use super::global_control::GlobalControl;
use super::input_stage::InputStage;
use super::params::PmuParams;
use super::profile::table::ProfileTable;
use super::profile::TableShape;
use super::register_port::RegisterPort;
use super::shadow_control::ShadowControl;
use super::trace::control::TraceControl;
use super::trace::queue::TraceQueue;
use super::trace::record::TraceRecord;
use super::trace::RecordLayout;
use super::tsc::TimeStampCounter;
use super::{schedule, wiring};
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{within, FlipFlops};
use crate::optional::Optional;

/// One core's PMU for T threads with K counters of CW bits each.
pub struct Pmu {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset of every register.
    pub reset: Signal<In, Bit>,
    /// Thread-scope event counts: thread t's fields at [t*TEW +: TEW].
    pub events: DynSignal<In>,
    /// Core-scope event counts.
    pub core_events: DynSignal<In>,
    /// Bit t: thread t runs in ring 0 this cycle.
    pub kernel: DynSignal<In>,
    /// Bit t: thread t runs a marked process (for FREEZE_UNMARKED).
    pub pm_mark: DynSignal<In>,
    /// Bit t: thread t ends a basic block this cycle.
    pub bb_end: DynSignal<In>,
    /// Thread t's address of the block that ends, at [t*AW +: AW].
    pub bb_addr: DynSignal<In>,
    /// Thread t's process id, at [t*32 +: 32].
    pub pid: DynSignal<In>,
    /// Bit t: thread t's overflow interrupt (a level).
    pub pmi: DynSignal<Out>,
    /// The accessing thread: selects its register bank.
    pub reg_thread: Signal<In, Bits<2>>,
    /// 1 = privileged (ring 0), 0 = unprivileged (ring 3).
    pub reg_priv: Signal<In, Bit>,
    /// Register address.
    pub reg_addr: Signal<In, Bits<8>>,
    /// Write data.
    pub reg_wdata: DynSignal<In>,
    /// Write this cycle.
    pub reg_write: Signal<In, Bit>,
    /// Read this cycle (no side effects).
    pub reg_read: Signal<In, Bit>,
    /// Registered read data: after edge k, what cycle k read (0 if none or denied).
    pub reg_rdata: DynSignal<Out>,
    /// Registered: 1 after edge k if cycle k had a denied access.
    pub reg_fault: Signal<Out, Bit>,
    /// Trace stream word (0 while `trace_valid` is 0).
    pub trace_data: DynSignal<Out>,
    /// `trace_data` holds a word.
    pub trace_valid: Signal<Out, Bit>,
    /// The consumer takes the word this cycle.
    pub trace_ready: Signal<In, Bit>,
    /// The word is the last of its record (0 while `trace_valid` is 0).
    pub trace_last: Signal<Out, Bit>,
    pub(super) inputs: InputStage,
    pub(super) any_sums: EventSums,
    pub(super) decoder: EventDecoder,
    pub(super) selects: Vec<EventSelect>,
    pub(super) samplers: Vec<EventSampler>,
    pub(super) counters: Vec<Counter>,
    pub(super) controls: Vec<GlobalControl>,
    pub(super) shadow_controls: Vec<ShadowControl>,
    pub(super) tsc: TimeStampCounter,
    pub(super) port: RegisterPort,
    pub(super) trace_control: TraceControl,
    pub(super) trace_record: TraceRecord,
    pub(super) trace_queue: TraceQueue,
    pub(super) profile: Optional<ProfileTable>,
    shape: Internal<(usize, usize, usize)>,
    thread_width: Internal<usize>,
}

impl Pmu {
    /// The PMU of `params` (already checked, see [`PmuParams::new`]).
    pub fn new(params: &PmuParams) -> Self {
        let (t, k, cw) = (params.threads, params.counters, params.counter_width);
        let (events_width, core_width) = (params.events_width(), params.core_events_width());
        let fields = EventFields::new(params);
        let key_width = params.event_key_width();
        let aw = params.address_width;
        let layout =
            RecordLayout { address_width: aw, counters: k, counter_width: cw, increment_width: params.count_width() };
        let mut pmu = Self {
            clock: Default::default(),
            reset: Default::default(),
            events: DynSignal::new(events_width),
            core_events: DynSignal::new(core_width),
            kernel: DynSignal::new(t),
            pm_mark: DynSignal::new(t),
            bb_end: DynSignal::new(t),
            bb_addr: DynSignal::new(t * aw),
            pid: DynSignal::new(t * 32),
            pmi: DynSignal::new(t),
            reg_thread: Default::default(),
            reg_priv: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: DynSignal::new(64),
            reg_write: Default::default(),
            reg_read: Default::default(),
            reg_rdata: DynSignal::new(64),
            reg_fault: Default::default(),
            trace_data: DynSignal::new(64),
            trace_valid: Default::default(),
            trace_ready: Default::default(),
            trace_last: Default::default(),
            inputs: InputStage::new(t),
            any_sums: EventSums::new(&fields, events_width),
            decoder: EventDecoder::new(params),
            selects: (0..t * k).map(|_| EventSelect::new(params)).collect(),
            samplers: (0..t * k).map(|_| EventSampler::new(&fields, key_width, core_width)).collect(),
            counters: (0..t * k).map(|_| Counter::new(cw, params.count_width())).collect(),
            controls: (0..t).map(|_| GlobalControl::new(k)).collect(),
            shadow_controls: (0..t).map(|_| ShadowControl::new(k)).collect(),
            tsc: TimeStampCounter::new(),
            port: RegisterPort::new(params),
            trace_control: TraceControl::new(t, aw, params.profile_entries != 0),
            trace_record: TraceRecord::new(t, layout),
            trace_queue: TraceQueue::new(params.trace_depth, layout),
            profile: Optional::when(params.profile_entries != 0, || {
                ProfileTable::new(TableShape {
                    entries: params.profile_entries,
                    threads: t,
                    counters: k,
                    counter_width: cw,
                    address_width: aw,
                    depth: params.trace_depth,
                })
            }),
            shape: Internal((t, k, cw)),
            thread_width: Internal(fields.thread_width),
        };
        // Every block's outputs from its reset state, before the first edge.
        schedule::settle(&mut pmu);
        pmu
    }
}

impl Logic for Pmu {
    fn update(&mut self) {
        schedule::update(self);
    }

    fn connect(&mut self) {
        wiring::connect(self);
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(wiring::verilog(self))
    }
}

// The simulation evaluates the blocks' twins in signal order (the `update` named here),
// so a delta cycle updates the top's own ports only.
crate::scheduled_top!(
    Pmu,
    update: Logic::update,
    ports: [clock, reset, events, core_events, kernel, pm_mark, bb_end, bb_addr, pid, pmi, reg_thread, reg_priv, reg_addr, reg_wdata, reg_write, reg_read, reg_rdata, reg_fault, trace_data, trace_valid, trace_ready, trace_last],
    blocks: [inputs, any_sums, decoder, selects, samplers, counters, controls, shadow_controls, tsc, port, trace_control, trace_record, trace_queue, profile, shape, thread_width]
);

impl Pmu {
    /// Every register of the design with its report group, named as in the flattened
    /// netlist (`counters__3.value_q`).
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let mut all: Vec<FlipFlops> = Vec::new();
        let indexed = |name: &str, i: usize| format!("{name}__{i}");
        for (n, counter) in self.counters.iter().enumerate() {
            all.extend(within(&indexed("counters", n), counter.flip_flops()));
        }
        for (n, select) in self.selects.iter().enumerate() {
            all.extend(within(&indexed("selects", n), select.flip_flops()));
        }
        for (n, sampler) in self.samplers.iter().enumerate() {
            all.extend(within(&indexed("samplers", n), sampler.flip_flops()));
        }
        for (t, control) in self.controls.iter().enumerate() {
            all.extend(within(&indexed("controls", t), control.flip_flops()));
        }
        for (t, shadow) in self.shadow_controls.iter().enumerate() {
            all.extend(within(&indexed("shadow_controls", t), shadow.flip_flops()));
        }
        all.extend(within("inputs", self.inputs.flip_flops()));
        all.extend(within("tsc", self.tsc.flip_flops()));
        all.extend(within("port", self.port.flip_flops()));
        all.extend(within("trace_control", self.trace_control.flip_flops()));
        all.extend(within("trace_queue", self.trace_queue.flip_flops()));
        if let Some(profile) = &self.profile.0 {
            all.extend(within("profile", profile.flip_flops()));
        }
        all
    }

    /// (T, K, CW).
    pub(super) fn shape(&self) -> (usize, usize, usize) {
        self.shape.0
    }

    /// TEW: one thread's slice of `events`.
    pub(super) fn thread_width(&self) -> usize {
        self.thread_width.0
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::dyn_signal::low_mask;
    use crate::pmu::event_table::Scope;
    use crate::pmu::regmap::{self, evtsel, trace_ctrl};
    use crate::pmu::testing::{describe, random_params, table_with_core_events_only};
    use crate::port_list;
    use crate::testing::assert_valid_verilog;
    use crate::testing::lockstep::{random_input, Lockstep};
    use crate::testing::ports::{Port, Ports};
    use pmugen_sim::verilator::PortList;

    impl Ports for Pmu {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, events, core_events, kernel, pm_mark, bb_end, bb_addr, pid, pmi, reg_thread,
                reg_priv, reg_addr, reg_wdata, reg_write, reg_read, reg_rdata, reg_fault, trace_data, trace_valid,
                trace_ready, trace_last)
        }
    }

    /// What the stimulus of one PMU instance knows of it, and the core around it: each
    /// thread's ring, mark and process, which change now and then.
    struct Core {
        threads: usize,
        counters: u64,
        counter_width: usize,
        /// (EventCode, UMask) of every event of the table.
        events: Vec<(u64, u64)>,
        /// The process ids the threads run.
        pids: [u64; 3],
        kernel: u64,
        pm_mark: u64,
        running: Vec<u64>,
        /// Cycles left in which the trace consumer stalls.
        stall: u32,
    }

    impl Core {
        fn new(params: &PmuParams, rng: &mut ChaCha8Rng) -> Self {
            let t = params.threads;
            Self {
                threads: t,
                counters: params.counters as u64,
                counter_width: params.counter_width,
                events: params.table.events.iter().map(|e| (e.code as u64, e.umask as u64)).collect(),
                pids: [rng.gen::<u32>() as u64, rng.gen::<u32>() as u64, rng.gen::<u32>() as u64],
                kernel: 0,
                pm_mark: low_mask(t),
                running: vec![0; t],
                stall: 0,
            }
        }

        /// A register address: mostly one of the map (a per-counter copy i < K mostly,
        /// else i < 4, so i >= K too), else any byte.
        fn address(&self, rng: &mut ChaCha8Rng) -> u64 {
            if rng.gen_ratio(1, 10) {
                return rng.gen::<u8>() as u64;
            }
            let register = &regmap::REGISTERS[rng.gen_range(0..regmap::REGISTERS.len())];
            let copy = match register.copies {
                regmap::Copies::Indexed { .. } if rng.gen_bool(0.8) => rng.gen_range(0..self.counters),
                regmap::Copies::Indexed { .. } => rng.gen_range(0..4),
                _ => 0,
            };
            register.addr as u64 + copy
        }

        /// A value to write at `address`, mostly one that makes the PMU do something:
        /// event selects that count known events, enables, counters near their wrap,
        /// tracing of a thread that exists.
        fn write_data(&self, rng: &mut ChaCha8Rng, address: u64) -> u64 {
            let bit = |rng: &mut ChaCha8Rng, p: f64, field: &regmap::Field| (rng.gen_bool(p) as u64) << field.lsb;
            let near_wrap = |rng: &mut ChaCha8Rng, width: usize| {
                let high = if width < 64 { rng.gen::<u64>() << width } else { 0 };
                (low_mask(width) - rng.gen_range(0..16)) | high
            };
            match address {
                0x10 if rng.gen_bool(0.5) => near_wrap(rng, 64),
                0x20..=0x23 | 0x30..=0x33 if rng.gen_bool(0.6) => near_wrap(rng, self.counter_width),
                0x28..=0x2B => {
                    let (code, umask) = if rng.gen_bool(0.85) && !self.events.is_empty() {
                        self.events[rng.gen_range(0..self.events.len())]
                    } else {
                        (rng.gen::<u8>() as u64, rng.gen::<u8>() as u64)
                    };
                    let cmask = match rng.gen_range(0..10) {
                        0..=6 => 0,
                        7 | 8 => rng.gen_range(1..=4),
                        _ => rng.gen::<u8>() as u64,
                    };
                    code | umask << evtsel::UMASK.lsb
                        | bit(rng, 0.7, &evtsel::USR)
                        | bit(rng, 0.7, &evtsel::OS)
                        | bit(rng, 0.15, &evtsel::E)
                        | (rng.gen_ratio(1, 10) as u64) << 19 // reserved
                        | bit(rng, 0.5, &evtsel::INT)
                        | bit(rng, 0.2, &evtsel::ANY)
                        | bit(rng, 0.9, &evtsel::EN)
                        | bit(rng, 0.1, &evtsel::INV)
                        | cmask << evtsel::CMASK.lsb
                }
                0x2C if rng.gen_bool(0.6) => 0,
                0x2F if rng.gen_bool(0.8) => u64::MAX,
                0x39 => rng.gen_bool(0.3) as u64,
                0x3E if rng.gen_bool(0.7) => regmap::USER_ACCESS_RESET,
                0x40 => {
                    let thread = if rng.gen_bool(0.9) { rng.gen_range(0..self.threads) } else { rng.gen_range(0..4) };
                    bit(rng, 0.7, &trace_ctrl::TRACE_EN)
                        | bit(rng, 0.3, &trace_ctrl::PID_FILTER)
                        | (thread as u64) << trace_ctrl::THREAD.lsb
                }
                0x41 if rng.gen_bool(0.7) => self.pids[rng.gen_range(0..3)],
                // PROFILE_CTRL: summarizing mostly, a flush now and then.
                0x43 => [1, 1, 1, 3, 0, 2][rng.gen_range(0..6)],
                _ => rng.gen(),
            }
        }

        /// One cycle of this PMU's inputs.
        fn inputs(&mut self, rng: &mut ChaCha8Rng, inputs: &PortList) -> Vec<Vec<u64>> {
            let t = self.threads;
            for thread in 0..t {
                self.kernel ^= (rng.gen_ratio(1, 12) as u64) << thread;
                self.pm_mark ^= (rng.gen_ratio(1, 40) as u64) << thread;
                if rng.gen_ratio(1, 60) {
                    self.running[thread] = self.pids[rng.gen_range(0..3)];
                }
            }
            if self.stall == 0 && rng.gen_ratio(1, 60) {
                self.stall = rng.gen_range(4..64);
            }
            self.stall = self.stall.saturating_sub(1);
            let trace_ready = self.stall == 0 && rng.gen_bool(0.8);
            let bb_end = (0..t).fold(0, |ends, thread| ends | (rng.gen_ratio(1, 8) as u64) << thread);
            let address = self.address(rng);
            let wdata = self.write_data(rng, address);
            let thread = if rng.gen_bool(0.9) { rng.gen_range(0..t) } else { rng.gen_range(0..4) };
            let mut pid = vec![0u64; (t * 32).div_ceil(64)];
            for (thread, running) in self.running.iter().enumerate() {
                pid[thread / 2] |= running << (32 * (thread % 2));
            }
            let mut values: HashMap<&str, Vec<u64>> = HashMap::from([
                ("reset", vec![rng.gen_ratio(1, 1_500) as u64]),
                ("kernel", vec![self.kernel]),
                ("pm_mark", vec![self.pm_mark]),
                ("bb_end", vec![bb_end]),
                ("pid", pid),
                ("reg_thread", vec![thread as u64]),
                ("reg_priv", vec![rng.gen_bool(0.9) as u64]),
                ("reg_addr", vec![address]),
                ("reg_wdata", vec![wdata]),
                ("reg_write", vec![rng.gen_bool(0.35) as u64]),
                ("reg_read", vec![rng.gen_bool(0.5) as u64]),
                ("trace_ready", vec![trace_ready as u64]),
            ]);
            inputs
                .iter()
                .map(|(name, width)| values.remove(name.as_str()).unwrap_or_else(|| random_input(rng, name, *width)))
                .collect()
        }
    }

    /// Three PMUs from random parameters (T, K, CW, D, AW and a random table; the first
    /// has core-scope events and a PerCycleMax of 128 or more), two of them with a queue
    /// of 2 or 4 records so that it fills. The register port is driven mostly with
    /// privileged accesses to the map's addresses, writes that set the PMU counting,
    /// overflowing, saving and tracing; block ends are frequent and `trace_ready` is
    /// low in about a third of the cycles.
    #[test]
    fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_1306;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let wide_core_table = |params: &PmuParams| {
            let events = &params.table.events;
            events.iter().any(|e| e.scope == Scope::Core) && events.iter().any(|e| e.per_cycle_max >= 128)
        };
        let first = std::iter::repeat_with(|| random_params(&mut rng)).find(wide_core_table).expect("a table");
        let mut all = [first, random_params(&mut rng), random_params(&mut rng)];
        for (params, depth) in all.iter_mut().zip([2, 4]) {
            *params = params.clone().with_trace(depth, params.address_width as u64).expect("a valid depth");
        }
        // Two with a profile table: one small, one of the SoC's size.
        for (params, entries) in all.iter_mut().skip(1).zip([16, 1024]) {
            *params = params.clone().with_profile(entries).expect("a valid size");
        }
        let cores: Vec<Core> = all.iter().map(|params| Core::new(params, &mut rng)).collect();
        let instances = all.iter().map(|params| (describe(params), Pmu::new(params))).collect();
        let cores = RefCell::new(cores);
        Lockstep::new("pmu", seed)
            .cycle_stimulus(move |rng, instance, inputs| cores.borrow_mut()[instance].inputs(rng, inputs))
            .cycles(4_000)
            .run(instances);
    }

    #[test]
    fn verilog_is_valid_for_corner_configurations() {
        for (t, k, cw, d, aw) in [(4, 2, 40, 256, 32), (1, 1, 16, 2, 16), (3, 4, 64, 1024, 48)] {
            let params = PmuParams::with_default_table(t, k, cw).with_trace(d, aw).unwrap();
            assert_valid_verilog(&mut Pmu::new(&params), &params.top_name());
        }
        let core_only = table_with_core_events_only(2);
        assert_valid_verilog(&mut Pmu::new(&core_only), &core_only.top_name());
    }
}
