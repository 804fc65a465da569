//! Order matcher [14, 23-26] and match flag [15] (docs/monitor.md §2, §3.3, §7.1).
//!
//! Two structures with the same cycle behaviour, chosen by [`Matcher`]:
//! - [`patent`] (default): for every unordered pair {a, b}, one three-way comparator
//!   of order[a] and order[b] [24] drives one 2:1 multiplexer [23] that picks flag
//!   (a before b) or flag (b before a); the pair select [25] forces pairs that are not
//!   constrained to 1, and an AND [26] gives the match. Seed 000 [0032]: 28 comparators
//!   and 28 multiplexers for 8 events.
//! - [`compact`]: 2N comparators of the written value against every field fill an
//!   N*(N-1) matrix "a must come before m" at each ORDER write.
//!
//! ORDER changes only at register writes, so both keep what they derive from it in
//! flip-flops loaded from ORDER's next value: the match path starts at those
//! flip-flops and the record, not at the comparators.
//!
//! Latency: the match is combinational from the record (true in the completing
//! cycle); an ORDER write at edge k applies from cycle k+1, as the register itself.
//!
//! ```text
//!  order, write, wdata --> [comparators] --> [derived flip-flops] --+
//!  stored rows, seen, occur, enable, live -------------------------> [select, AND] --> matched
//! ```
//!
//! The matcher reads the record's flip-flops, not a combinational "updated" copy of
//! them: flag (a before m) this cycle is `stored[m][a] | (occur[m] & enable & seen[a])`,
//! and a record cleared at the last edge (`live` = 0) never matches. Each record
//! flip-flop's next-value LUT then feeds only that flip-flop, so the two share one
//! iCE40 logic cell (docs/monitor.md §7.2).
pub mod compact;
pub mod patent;

use rust_hdl::prelude::*;

use super::groups;
use crate::custom::Internal;
use crate::flip_flops::FlipFlops;
pub use crate::params::Matcher;
use crate::word::WordSignal;

/// The unordered pairs {a, b}, a < b, of `n` events in the order of the patent
/// matcher's pair index k.
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| ((a + 1)..n).map(move |b| (a, b)))
}

/// The index k of the unordered pair {a, b} (a != b) in [`pairs`]`(n)`.
pub fn pair_index(n: usize, a: usize, b: usize) -> usize {
    let (low, high) = (a.min(b), a.max(b));
    low * n - low * (low + 1) / 2 + (high - low - 1)
}

/// Bit `i` of `x < y` as logic, given `below`, the result on the lower bits: x[i] < y[i],
/// or a tie at bit i and `below`.
fn less_stage(x: &str, y: &str, i: usize, below: &str) -> String {
    format!("(~{x}[{i}] & {y}[{i}]) | (~({x}[{i}] ^ {y}[{i}]) & {below})")
}

/// `x < y` on bits `low..=high` of two order wires, as one Verilog expression: a ripple
/// of [`less_stage`] from bit `low`.
fn less_ripple(x: &str, y: &str, low: usize, high: usize) -> String {
    (low + 1..=high).fold(format!("(~{x}[{low}] & {y}[{low}])"), |below, i| less_stage(x, y, i, &format!("({below})")))
}

/// The flip-flops a structure derives from ORDER (the native twin of its registers).
#[derive(Clone, Debug)]
pub enum Derived {
    /// Per pair {a, b}, a < b: the registered comparator outputs (a_first, b_first) =
    /// (0 < order[a] < order[b], 0 < order[b] < order[a]), from ORDER's next value.
    Patent(Vec<(bool, bool)>),
    /// Row-major `need[m][a]`: event a must occur before event m.
    Compact(Vec<Vec<bool>>),
}

/// The order matcher for N events of W order bits.
#[derive(LogicBlock)]
pub struct OrderMatcher {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset (ORDER returns to 0 at this edge).
    pub reset: Signal<In, Bit>,
    /// The order of each event as stored (0 = don't care).
    pub order: Vec<WordSignal<In>>,
    /// Bit e: ORDER[e] is written at this edge (what the order register receives).
    pub write: WordSignal<In>,
    /// The value written into ORDER[e].
    pub wdata: WordSignal<In>,
    /// Record row m as stored: bit a = flag (a before m); stale while `live` is 0.
    pub stored: Vec<WordSignal<In>>,
    /// The event register as read: the events that occurred before this cycle (0
    /// after a clear at the last edge).
    pub seen: WordSignal<In>,
    /// The event register's flip-flops: `seen`, but stale while `live` is 0.
    pub seen_stored: WordSignal<In>,
    /// The events that occur this cycle.
    pub occur: WordSignal<In>,
    /// CTRL.ENABLE: this cycle's occurrences are recorded.
    pub enable: Signal<In, Bit>,
    /// The record was not cleared at the last edge (`stored` and `seen` are valid).
    pub live: Signal<In, Bit>,
    /// Every constrained pair occurred in its order, and one pair is constrained.
    pub matched: Signal<Out, Bit>,
    derived: Internal<Derived>,
}

impl OrderMatcher {
    /// A matcher of `structure` for `events` (N) events of `order_width` (W) order
    /// bits, `2 <= N <= 32`, `2 <= W <= 8`.
    pub fn new(events: usize, order_width: usize, structure: Matcher) -> Self {
        let (n, w) = (events, order_width);
        assert!((2..=32).contains(&n), "OrderMatcher: N = {n} is out of range 2..=32");
        assert!((2..=8).contains(&w), "OrderMatcher: W = {w} is out of range 2..=8");
        let derived = match structure {
            Matcher::Patent => Derived::Patent(vec![(false, false); n * (n - 1) / 2]),
            Matcher::Compact => Derived::Compact(vec![vec![false; n]; n]),
        };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            order: (0..n).map(|_| WordSignal::new(w)).collect(),
            write: WordSignal::new(n),
            wdata: WordSignal::new(w),
            stored: (0..n).map(|_| WordSignal::new(n)).collect(),
            seen: WordSignal::new(n),
            seen_stored: WordSignal::new(n),
            occur: WordSignal::new(n),
            enable: Default::default(),
            live: Default::default(),
            matched: Default::default(),
            derived: Internal(derived),
        }
    }

    /// N.
    pub fn events(&self) -> usize {
        self.order.len()
    }

    /// The structure this matcher is built with.
    pub fn structure(&self) -> Matcher {
        match self.derived.0 {
            Derived::Patent(_) => Matcher::Patent,
            Derived::Compact(_) => Matcher::Compact,
        }
    }

    fn orders(&self) -> Vec<u32> {
        self.order.iter().map(|field| field.val().value() as u32).collect()
    }

    /// Row m of this cycle's record, this cycle's recording included (docs/monitor.md
    /// §3.2, §3.3): bit a = flag (a before m). Formed once per update, word-wide.
    fn rows(&self) -> Vec<u64> {
        if !self.live.val() {
            return vec![0; self.events()];
        }
        let (occur, seen) = (self.occur.val().value(), self.seen.val().value());
        let recording = if self.enable.val() { occur } else { 0 };
        (0..self.events())
            .map(|m| {
                let recorded = if recording >> m & 1 == 1 { seen & !(1 << m) } else { 0 };
                self.stored[m].val().value() | recorded
            })
            .collect()
    }
}

impl OrderMatcher {
    /// The registers: the patent matcher's registered comparator outputs, or the compact
    /// matcher's need matrix.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let n = self.events();
        match self.structure() {
            Matcher::Patent => (0..n * (n - 1) / 2)
                .flat_map(|k| ["a", "b"].map(|direction| patent::register(direction, k)))
                .map(|net| FlipFlops::new(net, 1, 0, groups::PAIR_SELECT))
                .collect(),
            Matcher::Compact => vec![FlipFlops::new("need_q", n * (n - 1), 0, groups::ORDER_REQUIREMENTS)],
        }
    }
}

impl Logic for OrderMatcher {
    fn update(&mut self) {
        let n = self.events();
        if self.clock.pos_edge() {
            let (orders, reset) = (self.orders(), self.reset.val());
            let written: Vec<bool> = (0..n).map(|e| self.write.val().get_bit(e)).collect();
            let value = self.wdata.val().value() as u32;
            match &mut self.derived.0 {
                Derived::Patent(pairs) => patent::load(pairs, &orders, reset, &written, value),
                Derived::Compact(need) => compact::load(need, &orders, reset, &written, value),
            }
        }
        // A record cleared at the last edge never matches, as in the Verilog.
        let rows = self.rows();
        self.matched.next = self.live.val()
            && match &self.derived.0 {
                Derived::Patent(pairs) => patent::matches(n, pairs, |a, m| rows[m] >> a & 1 == 1),
                Derived::Compact(need) => compact::matches(&self.orders(), need, |a, m| rows[m] >> a & 1 == 1),
            };
    }

    fn connect(&mut self) {
        self.matched.connect();
    }

    fn hdl(&self) -> Verilog {
        let (n, w) = (self.events(), self.wdata.width());
        crate::custom::hand_written::<Self>(match self.structure() {
            Matcher::Patent => patent::verilog(n, w),
            Matcher::Compact => compact::verilog(n, w),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
