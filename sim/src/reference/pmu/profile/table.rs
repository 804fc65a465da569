//! docs/pmu.md §15.1 and §15.4: the profile table, cycle by cycle: its state, its
//! entries, the current pid, PROFILE_CTRL (SUMMARIZE and the flush with its *pending*
//! count), PROFILE_EVICTED, and the clearing after reset. At an edge, in order: the
//! state's move (with this cycle's handshakes on both sides), the clearing's entry,
//! then this edge's register write, whose FLUSH is judged by whether a flush was under
//! way during the cycle.
use super::super::addr::profile_ctrl;
use super::super::trace_queue::StreamWord;
use super::control::{ProfileRegister, ProfileWrite};
use super::entry::Entry;
use super::state::{CyclePlan, IdleChoice, QueueReady, State, TakenRecord};
use super::summary::{summary_length, summary_word};

/// The table's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileGeometry {
    /// E: a power of 2 in 16..=4096.
    pub entries: usize,
    /// T: 1..=4.
    pub threads: usize,
    /// K: 1..=4.
    pub counters: usize,
    /// CW: 16..=64.
    pub counter_width: usize,
    /// AW: 16..=48.
    pub address_width: usize,
}

/// The profile table between the trace queue and the trace ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileTable {
    pub(super) geometry: ProfileGeometry,
    /// The E entries (the table's RAM).
    pub(super) entries: Vec<Entry>,
    /// The state during this cycle.
    pub(super) state: State,
    /// The record being taken, summed, or waiting for its entry's eviction.
    pub(super) record: Option<TakenRecord>,
    /// The pid of the last NEW_PROCESS record the table took (0 after reset).
    pub(super) current_pid: u32,
    /// PROFILE_CTRL.SUMMARIZE.
    pub(super) summarize: bool,
    /// PROFILE_CTRL.FLUSH as read: a flush is under way.
    pub(super) flushing: bool,
    /// The flush's records still in the queue.
    pub(super) pending: usize,
    /// PROFILE_EVICTED.
    pub(super) evicted: u64,
    /// Cycles of clearing left: entry E - clearing is invalidated at the coming edge.
    pub(super) clearing: usize,
}

impl ProfileTable {
    /// The table at power-on (as just after a reset edge: clearing). Panics on a
    /// parameter outside docs/pmu.md §1 and §15's ranges.
    pub fn new(entries: usize, threads: usize, counters: usize, counter_width: usize, address_width: usize) -> Self {
        assert!(
            entries.is_power_of_two() && (16..=4096).contains(&entries),
            "E = {entries} is not a power of 2 in 16..=4096"
        );
        assert!((1..=4).contains(&threads), "T = {threads} not in 1..=4");
        assert!((1..=4).contains(&counters), "K = {counters} not in 1..=4");
        assert!((16..=64).contains(&counter_width), "CW = {counter_width} not in 16..=64");
        assert!((16..=48).contains(&address_width), "AW = {address_width} not in 16..=48");
        let geometry = ProfileGeometry { entries, threads, counters, counter_width, address_width };
        let entries = vec![Entry { sums: vec![0; counters], ..Entry::default() }; entries];
        Self { entries, ..Self::registers_after_reset(geometry) }
    }

    /// A reset edge: every register and the state to their reset values; the entries
    /// keep their contents, which the clearing of the next E cycles invalidates.
    pub fn reset(&mut self) {
        let entries = std::mem::take(&mut self.entries);
        *self = Self { entries, ..Self::registers_after_reset(self.geometry) };
    }

    /// Everything but the entries as after a reset edge: idle, clearing for E cycles.
    fn registers_after_reset(geometry: ProfileGeometry) -> Self {
        Self {
            geometry,
            entries: Vec::new(),
            state: State::Idle,
            record: None,
            current_pid: 0,
            summarize: false,
            flushing: false,
            pending: 0,
            evicted: 0,
            clearing: geometry.entries,
        }
    }

    /// What a read of `register` returns during this cycle.
    pub fn read(&self, register: ProfileRegister) -> u64 {
        match register {
            ProfileRegister::Control => {
                let bit = |set: bool, bit: u64| if set { bit } else { 0 };
                bit(self.summarize, profile_ctrl::SUMMARIZE) | bit(self.flushing, profile_ctrl::FLUSH)
            }
            ProfileRegister::Evicted => self.evicted,
        }
    }

    /// During this cycle, with the queue presenting `queue`: the trace ports (which never
    /// depend on `trace_ready`) and the queue's ready.
    pub fn cycle(&self, queue: StreamWord, trace_ready: bool) -> (StreamWord, bool) {
        let plan = self.plan(queue);
        (plan.shown, Self::ready(plan.ready, trace_ready))
    }

    /// The trace ports during this cycle (the stream half of [`ProfileTable::cycle`]).
    pub fn presented(&self, queue: StreamWord) -> StreamWord {
        self.plan(queue).shown
    }

    /// The rising edge that ends this cycle. `queue` and `trace_ready` are as given to
    /// [`ProfileTable::cycle`] for it; `records_after_edge` is the queue's occupancy
    /// after this edge; `write` is an allowed write of a profile register at it.
    pub fn edge(
        &mut self,
        queue: StreamWord,
        trace_ready: bool,
        records_after_edge: usize,
        write: Option<ProfileWrite>,
    ) {
        let plan = self.plan(queue);
        let queue_moved = queue.valid && Self::ready(plan.ready, trace_ready);
        let shown_moved = plan.shown.valid && trace_ready;
        let flushing_in_cycle = self.flushing;
        if self.flushing && queue_moved && queue.last {
            self.pending = self.pending.saturating_sub(1);
        }
        let evicted = self.advance(queue, queue_moved, shown_moved);
        if self.clearing > 0 {
            self.entries[self.geometry.entries - self.clearing].valid = false;
            self.clearing -= 1;
        }
        match write {
            Some(ProfileWrite::Control(data)) => {
                self.summarize = data & profile_ctrl::SUMMARIZE != 0;
                // §15.1: FLUSH = 1 written while one is under way is ignored.
                if data & profile_ctrl::FLUSH != 0 && !flushing_in_cycle {
                    self.flushing = true;
                    self.pending = records_after_edge;
                }
            }
            Some(ProfileWrite::Evicted) => self.evicted = 0,
            None => {}
        }
        // §15.1: an eviction at the edge of a PROFILE_EVICTED write counts 1.
        if evicted {
            self.evicted = (self.evicted + 1).min(u32::MAX as u64);
        }
    }

    /// The table's parameters.
    pub fn geometry(&self) -> ProfileGeometry {
        self.geometry
    }

    /// Entry `index` now.
    pub fn entry(&self, index: usize) -> &Entry {
        &self.entries[index]
    }

    /// The state during this cycle.
    pub fn state(&self) -> State {
        self.state
    }

    /// The current pid (§15.2) now.
    pub fn current_pid(&self) -> u32 {
        self.current_pid
    }

    /// The table is clearing during this cycle (the first E cycles after reset).
    pub fn clearing(&self) -> bool {
        self.clearing > 0
    }

    /// Test only: put `entry` at `index`, as if records had been summed there (to reach
    /// executions near 2^32 without 2^32 records).
    #[cfg(test)]
    pub(in super::super) fn preset_entry(&mut self, index: usize, entry: Entry) {
        self.entries[index] = entry;
    }

    fn ready(ready: QueueReady, trace_ready: bool) -> bool {
        match ready {
            QueueReady::Hold => false,
            QueueReady::Take => true,
            QueueReady::FollowTrace => trace_ready,
        }
    }

    pub(super) fn plan(&self, queue: StreamWord) -> CyclePlan {
        match self.state {
            State::Idle => match self.idle_choice(queue) {
                IdleChoice::Pass => CyclePlan::pass(queue),
                IdleChoice::Take => CyclePlan::TAKE,
                IdleChoice::StartWalk | IdleChoice::Wait => CyclePlan::QUIET,
            },
            State::Passing => CyclePlan::pass(queue),
            State::Taking => CyclePlan::TAKE,
            State::Updating | State::Walking { .. } => CyclePlan::QUIET,
            State::Sending { entry, word, .. } => {
                let last = word + 1 == summary_length(self.geometry.counters);
                let shown = StreamWord { valid: true, data: summary_word(&self.entries[entry], word), last };
                CyclePlan { shown, ready: QueueReady::Hold }
            }
        }
    }

    /// §15.4's idle rules, in priority order.
    pub(super) fn idle_choice(&self, queue: StreamWord) -> IdleChoice {
        if self.flushing && self.pending == 0 {
            return if self.clearing() { IdleChoice::Wait } else { IdleChoice::StartWalk };
        }
        match (queue.valid, self.summarize, self.clearing()) {
            (false, _, _) => IdleChoice::Wait,
            (true, false, _) => IdleChoice::Pass,
            (true, true, true) => IdleChoice::Wait,
            (true, true, false) => IdleChoice::Take,
        }
    }
}
