//! The profile table block and its Rust twin (docs/pmu.md §15.4, cycle by cycle).
//!
//! Latency: with SUMMARIZE = 0 the queue's stream passes through combinationally, so
//! the trace ports are §13's word for word and cycle for cycle; a summed record of n
//! words occupies the table n + 1 cycles (idle, n − 1 taking, updating). The RAM has
//! one write port and one registered read port with a read enable: the entry read when
//! a record's first word moves stays in the read register through taking, updating
//! and sending. The trace ports are functions of registers and of the queue's stream.
//!
//! ```text
//!  in_* (queue) --> [idle/passing] ------------------------------> data, valid, last
//!              \--> [taking] -> values, pid -> [updating] -> RAM     ^
//!  RAM --> read_data_q --> hit, wrap? -> [sending] --> summary word -+
//! ```
use rust_hdl::prelude::*;

use super::{Entry, TableShape, EXECUTIONS_BITS};
use crate::custom::Internal;
use crate::dyn_signal::{low_mask, DynSignal};

/// Where the table is in a record's handling (§15.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Between records.
    #[default]
    Idle,
    /// A record passes through to the trace ports.
    Passing,
    /// A record's words are taken into the table.
    Taking,
    /// The cycle that adds the taken record to its entry, or decides to evict it.
    Updating,
    /// An evicted entry's summary record is on the trace ports.
    Evicting,
    /// A flush reads entry `index`.
    Walking,
    /// A flush sends entry `index`'s summary record.
    Flushing,
}

impl Phase {
    /// Its code in the Verilog's `phase_q`.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// The table's registers and RAM.
#[derive(Clone, Debug, Default)]
pub(super) struct TableState {
    pub phase: Phase,
    /// The word of the record being taken or sent.
    pub word: usize,
    pub new_process: bool,
    pub thread: u64,
    pub address: u64,
    pub values: Vec<u64>,
    /// The entry in use: the taken record's, the walk's, or the clearing's.
    pub index: usize,
    pub clearing: bool,
    pub summarize: bool,
    pub flushing: bool,
    pub pending: usize,
    /// The queue's records (a mirror of its occupancy).
    pub records: usize,
    pub evicted: u64,
    /// The current pid: the last NEW_PROCESS record's the table took.
    pub pid: u64,
    pub memory: Vec<Entry>,
    pub read_data: Entry,
}

/// The profile table.
#[derive(LogicBlock)]
pub struct ProfileTable {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: registers to their reset values, clearing starts.
    pub reset: Signal<In, Bit>,
    /// The queue's stream: a word is presented.
    pub in_valid: Signal<In, Bit>,
    /// The queue's stream: the word.
    pub in_data: DynSignal<In>,
    /// The queue's stream: the record's last word.
    pub in_last: Signal<In, Bit>,
    /// `trace_ready`: the consumer takes the trace word this cycle.
    pub ready: Signal<In, Bit>,
    /// A record joins the queue at this edge (made and not dropped).
    pub accepted: Signal<In, Bit>,
    /// Register write data.
    pub wdata: DynSignal<In>,
    /// PROFILE_CTRL is written at this edge.
    pub ctrl_write: Signal<In, Bit>,
    /// PROFILE_EVICTED is written (cleared) at this edge.
    pub evicted_write: Signal<In, Bit>,
    /// The queue's `ready`: its word moves at this edge when it is valid.
    pub in_ready: Signal<Out, Bit>,
    /// `trace_data` (0 while `valid` is 0).
    pub data: DynSignal<Out>,
    /// `trace_valid`.
    pub valid: Signal<Out, Bit>,
    /// `trace_last` (0 while `valid` is 0).
    pub last: Signal<Out, Bit>,
    /// PROFILE_CTRL as read: [0] SUMMARIZE, [1] FLUSH.
    pub ctrl: DynSignal<Out>,
    /// PROFILE_EVICTED.
    pub evicted: DynSignal<Out>,
    pub(super) state: Internal<TableState>,
    pub(super) shape: Internal<TableShape>,
}

impl ProfileTable {
    /// A table of `shape` (E a power of 2 in 16..=4096, the PMU's T, K, CW, AW, D).
    pub fn new(shape: TableShape) -> Self {
        assert!(
            (16..=4096).contains(&shape.entries) && shape.entries.is_power_of_two(),
            "ProfileTable: E = {} is not a power of 2 in 16..=4096",
            shape.entries
        );
        assert!((1..=4).contains(&shape.threads) && (1..=4).contains(&shape.counters), "ProfileTable: T or K");
        assert!((16..=64).contains(&shape.counter_width), "ProfileTable: CW = {}", shape.counter_width);
        assert!((16..=48).contains(&shape.address_width), "ProfileTable: AW = {}", shape.address_width);
        let empty = Entry { sums: vec![0; shape.counters], ..Default::default() };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_data: DynSignal::new(64),
            in_last: Default::default(),
            ready: Default::default(),
            accepted: Default::default(),
            wdata: DynSignal::new(64),
            ctrl_write: Default::default(),
            evicted_write: Default::default(),
            in_ready: Default::default(),
            data: DynSignal::new(64),
            valid: Default::default(),
            last: Default::default(),
            ctrl: DynSignal::new(2),
            evicted: DynSignal::new(32),
            state: Internal(TableState {
                values: vec![0; shape.counters],
                clearing: true,
                memory: vec![empty.clone(); shape.entries],
                read_data: empty,
                ..Default::default()
            }),
            shape: Internal(shape),
        }
    }
}

/// What the table does in a cycle, from its registers and the queue's stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Cycle {
    /// The queue's ready.
    pub in_ready: bool,
    /// The trace ports: (valid, data, last).
    pub out: (bool, u64, bool),
}

impl ProfileTable {
    /// A flush's records have gone: records wait, the walk starts when not clearing.
    fn walk_due(&self) -> bool {
        let state = &self.state.0;
        state.flushing && state.pending == 0
    }

    /// The summary record's last word: K + 1.
    fn last_word(&self) -> usize {
        self.shape.0.counters + 1
    }

    /// This cycle's queue ready and trace ports (§15.4).
    pub(super) fn cycle(&self) -> Cycle {
        let state = &self.state.0;
        let stream = (self.in_valid.val(), self.in_data.get(), self.in_last.val());
        let through = Cycle { in_ready: self.ready.val(), out: if stream.0 { stream } else { (false, 0, false) } };
        match state.phase {
            Phase::Idle if self.walk_due() => Cycle::default(),
            Phase::Idle if !state.summarize => through,
            Phase::Idle => Cycle { in_ready: !state.clearing, out: (false, 0, false) },
            Phase::Passing => through,
            Phase::Taking => Cycle { in_ready: true, out: (false, 0, false) },
            Phase::Evicting | Phase::Flushing => {
                let word = state.read_data.summary_word(state.word);
                Cycle { in_ready: false, out: (true, word, state.word == self.last_word()) }
            }
            Phase::Updating | Phase::Walking => Cycle::default(),
        }
    }

    /// The entry that a taken record makes: restarted from the record, or its entry
    /// with the record added (`None` when an addition would wrap).
    pub(super) fn entries_for_record(&self) -> (Entry, Option<Entry>) {
        let state = &self.state.0;
        let cw = self.shape.0.counter_width;
        let fresh = Entry {
            valid: true,
            thread: state.thread,
            pid: state.pid,
            address: state.address,
            executions: 1,
            sums: state.values.clone(),
        };
        let e = &state.read_data;
        let hit = e.valid && (e.thread, e.pid, e.address) == (state.thread, state.pid, state.address);
        let wraps = e.executions == low_mask(EXECUTIONS_BITS)
            || e.sums.iter().zip(&state.values).any(|(sum, value)| (*sum as u128 + *value as u128) >> cw != 0);
        let added = (hit && !wraps).then(|| Entry {
            executions: e.executions + 1,
            sums: e.sums.iter().zip(&state.values).map(|(sum, value)| sum + value).collect(),
            ..fresh.clone()
        });
        (fresh, added)
    }
}
