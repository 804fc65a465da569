//! Context record [12, 21, 22]: for every ordered pair (a, m), a != m, the flag
//! "a occurred before m" (docs/monitor.md §2, §3.2).
//!
//! Row m holds the flags (a before m) for all a; bit m of row m is never set, so
//! yosys removes those N constant flip-flops and the record costs N*(N-1) (56 at
//! N=8, seed 000 [0032]: "56 bits"). When event m occurs, every event a whose
//! event-register bit was already set gets flag (a before m); two first occurrences
//! in one cycle do not order each other because `seen` is the value before the cycle.
//!
//! A clear (re-arm or CMD.CLEAR_RECORD) is registered in `cleared` instead of
//! driving every flag's reset in the cycle of the match: while `cleared` is set the
//! stored rows read as 0 and are rewritten from 0 at the next edge, so the match →
//! clear path ends at one flip-flop (docs/monitor.md §7.2). `before` (and `stored` while `live`)
//! show exactly what a record cleared at that edge would.
//!
//! Latency: one cycle. `before` is the stored row as a read shows it; the order
//! matcher reads `stored` and `live` and adds this cycle's recording itself, so each
//! flip-flop's next-value LUT feeds only that flip-flop (one iCE40 logic cell).
//!
//! ```text
//!  occur[N], seen[N] --> | rows[m] |--> before[m]          (as read)
//!  record, clear     --> |  N x N  |--> stored[m], live    (raw, for the matcher)
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::flip_flops::FlipFlops;
use crate::word::{WordConstant, WordDff, WordSignal};

/// Bit of flag (a before m), a != m, when the N*(N-1) flags are laid out row by row
/// (m outer, a inner, a = m skipped): the serial frame's order and the compact
/// matcher's need matrix.
pub fn flag_index(events: usize, a: usize, m: usize) -> usize {
    m * (events - 1) + if a < m { a } else { a - 1 }
}

/// The pairwise "who came first" record.
#[derive(LogicBlock)]
pub struct ContextRecord {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: all flags to 0.
    pub reset: Signal<In, Bit>,
    /// The events that occur this cycle.
    pub occur: WordSignal<In>,
    /// The event register before this cycle: the events that already occurred (its
    /// stored bits: stale after a clear, which `cleared` masks here as well).
    pub seen: WordSignal<In>,
    /// Record this cycle's occurrences (CTRL.ENABLE).
    pub enable: Signal<In, Bit>,
    /// Clear every flag instead of this cycle's recording.
    pub clear: Signal<In, Bit>,
    /// Row m as stored: bit a = flag (a before m) (`BEFORE[m]`, serial frame).
    pub before: Vec<WordSignal<Out>>,
    /// Row m as held in the flip-flops (bit m is 0); stale while `live` is 0.
    pub stored: Vec<WordSignal<Out>>,
    /// The record was not cleared at the last edge: `stored` is valid.
    pub live: Signal<Out, Bit>,
    rows: Vec<WordDff>,
    /// The last edge cleared the record: `rows` are stale and read as 0.
    cleared: DFF<Bit>,
    /// All ones while the stored rows are valid, 0 while they are stale.
    live_mask: WordSignal<Local>,
    /// Row m's recording mask: every event except m itself.
    others: Vec<WordConstant>,
    all: WordConstant,
    zero: WordConstant,
}

impl ContextRecord {
    /// A record for `events` (N) events, `2 <= N <= 32`.
    pub fn new(events: usize) -> Self {
        assert!((2..=32).contains(&events), "ContextRecord: N = {events} is out of range 2..=32");
        let all = (1u64 << events) - 1;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            occur: WordSignal::new(events),
            seen: WordSignal::new(events),
            enable: Default::default(),
            clear: Default::default(),
            before: (0..events).map(|_| WordSignal::new(events)).collect(),
            stored: (0..events).map(|_| WordSignal::new(events)).collect(),
            live: Default::default(),
            rows: (0..events).map(|_| WordDff::new(events)).collect(),
            cleared: Default::default(),
            live_mask: WordSignal::new(events),
            all: WordConstant::new(events, all),
            others: (0..events).map(|m| WordConstant::new(events, all & !(1u64 << m))).collect(),
            zero: WordConstant::new(events, 0),
        }
    }
}

impl ContextRecord {
    /// The registers: the record's rows and the "cleared at the last edge" flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let events = self.rows.len();
        let mut registers: Vec<FlipFlops> =
            (0..events).map(|m| FlipFlops::new(format!("rows__{m}.q"), events, 0, groups::CONTEXT_RECORD)).collect();
        registers.push(FlipFlops::new("cleared.q", 1, 0, groups::CLEAR_FLAGS));
        registers
    }
}

impl Logic for ContextRecord {
    #[hdl_gen]
    fn update(&mut self) {
        self.cleared.clock.next = self.clock.val();
        self.cleared.d.next = self.clear.val() & !self.reset.val();
        self.live.next = !self.cleared.q.val();
        self.live_mask.next = self.all.val();
        if self.cleared.q.val() {
            self.live_mask.next = self.zero.val();
        }
        for m in 0..self.rows.len() {
            self.rows[m].clock.next = self.clock.val();
            self.stored[m].next = self.rows[m].q.val() & self.others[m].val();
            self.before[m].next = self.rows[m].q.val() & self.live_mask.val() & self.others[m].val();
            self.rows[m].d.next = self.rows[m].q.val() & self.live_mask.val() & self.others[m].val();
            if self.enable.val() & self.occur.val().get_bit(m) {
                self.rows[m].d.next = (self.rows[m].q.val() | (self.seen.val() & self.others[m].val()))
                    & self.live_mask.val()
                    & self.others[m].val();
            }
            if self.reset.val() {
                self.rows[m].d.next = self.zero.val();
            }
        }
    }
}

/// The record in plain Rust: its twin in the monitor's native simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTwin {
    /// Row m as held in the flip-flops: bit a = flag (a before m), bit m is 0.
    pub rows: Vec<u64>,
    /// The last edge cleared the record.
    pub cleared: bool,
}

impl RecordTwin {
    /// A cleared record of `events` rows.
    pub fn new(events: usize) -> Self {
        Self { rows: vec![0; events], cleared: false }
    }

    /// `live`: the stored rows are valid.
    pub fn live(&self) -> bool {
        !self.cleared
    }

    /// `stored[m]`: row m as held (stale while not live).
    pub fn stored(&self, m: usize) -> u64 {
        self.rows[m] & !(1 << m)
    }

    /// `before[m]`: row m as read (0 while not live).
    pub fn before(&self, m: usize) -> u64 {
        if self.cleared {
            0
        } else {
            self.stored(m)
        }
    }

    /// The rising edge: `seen` is the event register's stored bits.
    pub fn edge(&mut self, occur: u64, seen: u64, enable: bool, clear: bool, reset: bool) {
        for m in 0..self.rows.len() {
            let others = !(1u64 << m);
            let row = self.before(m);
            self.rows[m] = if reset {
                0
            } else if enable && occur >> m & 1 == 1 {
                if self.cleared {
                    0
                } else {
                    (row | (seen & others)) & others
                }
            } else {
                row
            };
        }
        self.cleared = clear && !reset;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{apply, assert_valid_verilog, edge};
    use crate::word::Word;
    use pmugen_sim::reference::record::RecordModel;
    use rand::{Rng, SeedableRng};

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut ContextRecord::new(5), "context_record_n5");
    }

    #[test]
    fn rows_match_reference_record() {
        const N: usize = 6;
        let seed = 0x5eed_0003;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut uut = ContextRecord::new(N);
        uut.connect_all();
        let mut model = RecordModel::new(N);
        for step in 0..3_000 {
            // Mostly single occurrences, sometimes several at once.
            let occur = match rng.gen_range(0..10) {
                0..=4 => 0,
                5..=8 => 1 << rng.gen_range(0..N),
                _ => rng.gen::<u32>() & 0x3F,
            };
            let (enable, clear, reset) = (rng.gen_bool(0.9), rng.gen_ratio(1, 60), rng.gen_ratio(1, 300));
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    u.occur.next = Word::new(N, occur as u64);
                    u.seen.next = Word::new(N, model.seen as u64);
                    u.enable.next = enable;
                    u.clear.next = clear;
                    u.reset.next = reset;
                },
            );
            let updated = if enable { model.recorded(occur) } else { model.clone() };
            for m in 0..N {
                assert_eq!(uut.before[m].val().value() as u32, model.row(m), "before[{m}] step {step} seed {seed:#x}");
                // While live, the raw row is the row as read; after a clear it reads 0.
                let stored = uut.stored[m].val().value() as u32;
                assert_eq!(
                    if uut.live.val() { stored } else { 0 },
                    model.row(m),
                    "stored[{m}] step {step} seed {seed:#x}"
                );
            }
            edge(&mut uut, |u| &mut u.clock);
            model = if clear || reset { RecordModel::new(N) } else { updated };
        }
    }

    /// The twin is the block: outputs compared with the inputs applied and
    /// after each edge.
    #[test]
    fn model_equals_the_block() {
        let seed = 0x5eed_1403;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for events in [2, 6, 32] {
            let mask = crate::dyn_signal::low_mask(events);
            let mut uut = ContextRecord::new(events);
            uut.connect_all();
            let mut model = RecordTwin::new(events);
            let compare = |uut: &ContextRecord, model: &RecordTwin, context: &str| {
                assert_eq!(uut.live.val(), model.live(), "live, {context}");
                for m in 0..events {
                    assert_eq!(uut.before[m].val().value(), model.before(m), "before[{m}], {context}");
                    assert_eq!(uut.stored[m].val().value(), model.stored(m), "stored[{m}], {context}");
                }
            };
            for step in 0..2_000 {
                let occur = rng.gen::<u64>() & rng.gen::<u64>() & mask;
                let seen = rng.gen::<u64>() & mask;
                let (enable, clear, reset) = (rng.gen_bool(0.8), rng.gen_ratio(1, 20), rng.gen_ratio(1, 100));
                apply(
                    &mut uut,
                    |u| &mut u.clock,
                    |u| {
                        u.occur.next = Word::new(events, occur);
                        u.seen.next = Word::new(events, seen);
                        u.enable.next = enable;
                        u.clear.next = clear;
                        u.reset.next = reset;
                    },
                );
                let context = format!("N={events}, step {step}, seed {seed:#x}");
                compare(&uut, &model, &context);
                edge(&mut uut, |u| &mut u.clock);
                model.edge(occur, seen, enable, clear, reset);
                compare(&uut, &model, &context);
            }
        }
    }
}
