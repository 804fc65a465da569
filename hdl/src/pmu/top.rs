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
//!  counters' next values -> trace record -> trace queue (RAM) -> trace_data, trace_valid, trace_last
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
use super::register_port::RegisterPort;
use super::shadow_control::ShadowControl;
use super::trace::control::TraceControl;
use super::trace::queue::TraceQueue;
use super::trace::record::TraceRecord;
use super::trace::RecordLayout;
use super::tsc::TimeStampCounter;
use super::wiring;
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;

/// One core's PMU for T threads with K counters of CW bits each.
#[derive(LogicBlock)]
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
    shape: Internal<(usize, usize, usize)>,
    thread_width: Internal<usize>,
}

impl Pmu {
    /// The PMU of `params` (already checked, see [`PmuParams::new`]).
    pub fn new(params: &PmuParams) -> Self {
        let (t, k, cw) = (params.threads, params.counters, params.counter_width);
        let (events_width, core_width) = (params.events_width(), params.core_events_width());
        let fields = EventFields::new(params);
        let index_width = params.event_index_width();
        let aw = params.address_width;
        let layout =
            RecordLayout { address_width: aw, counters: k, counter_width: cw, increment_width: params.count_width() };
        Self {
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
            samplers: (0..t * k).map(|_| EventSampler::new(&fields, index_width, core_width)).collect(),
            counters: (0..t * k).map(|_| Counter::new(cw, params.count_width())).collect(),
            controls: (0..t).map(|_| GlobalControl::new(k)).collect(),
            shadow_controls: (0..t).map(|_| ShadowControl::new(k)).collect(),
            tsc: TimeStampCounter::new(),
            port: RegisterPort::new(params),
            trace_control: TraceControl::new(t, aw),
            trace_record: TraceRecord::new(t, layout),
            trace_queue: TraceQueue::new(params.trace_depth, layout),
            shape: Internal((t, k, cw)),
            thread_width: Internal(fields.thread_width),
        }
    }
}

impl Logic for Pmu {
    fn update(&mut self) {
        wiring::update(self);
    }

    fn connect(&mut self) {
        wiring::connect(self);
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(wiring::verilog(self))
    }
}

impl Pmu {
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
    use super::*;
    use crate::pmu::testing::table_with_core_events_only;
    use crate::testing::assert_valid_verilog;

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
