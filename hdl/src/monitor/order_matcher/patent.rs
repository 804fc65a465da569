//! The patent's matcher (seed 000 [0032], Fig. 3): per unordered pair {a, b}, a < b,
//! one comparator [24] of order[a] and order[b] selects, through the pair's
//! multiplexer [23], flag (a before b) or flag (b before a); the pair select [25]
//! passes pairs that are not constrained and the AND [26] gives the match
//! (docs/monitor.md §7.1).
//!
//! The comparator is three-way, like a magnitude comparator with "A < B" and
//! "A > B" outputs, and folds in the pair select's zero test: `a_first` =
//! 0 < order[a] < order[b], `b_first` = 0 < order[b] < order[a]; neither means the
//! pair is not constrained (an order is 0, or the orders tie). Both outputs read
//! ORDER's next value (what the order register holds after this edge) and are
//! registered, 2 flip-flops per pair, so the match path is flip-flops → multiplexers
//! → AND with no comparator in it. The flip-flops load only at an ORDER write (one
//! enable, `order_written`, shared by all of them): ORDER and so the comparators'
//! result change at no other edge, and a simulator evaluates the comparators, which
//! read the write data, only in the cycles that write.
//!
//! Each comparator is written as LUT-sized stages (the low two bits, then one bit
//! per stage, the zero test with the top bit) marked `keep`, so that synthesis maps
//! each direction to W-1 LUTs (2 at W = 2) instead of a carry chain of W cells and an
//! output LUT (docs/monitor.md §7.2 gives the figures).
use std::fmt::Write;

use super::{less_ripple, less_stage, pairs as pairs_of};
use crate::custom::{unused_diagonal, unused_sink};

/// Load the registered comparator outputs `(a_first, b_first)` of every pair from
/// ORDER's next value: `reset` clears ORDER, `written[e]` loads `value` into ORDER[e].
pub fn load(pairs: &mut [(bool, bool)], orders: &[u32], reset: bool, written: &[bool], value: u32) {
    // Without a write or a reset ORDER keeps its value, and so do the comparators'.
    if !reset && !written.contains(&true) {
        return;
    }
    let n = orders.len();
    let next: Vec<u32> = (0..n)
        .map(|e| {
            if reset {
                0
            } else if written[e] {
                value
            } else {
                orders[e]
            }
        })
        .collect();
    let first = |x: u32, y: u32| x != 0 && x < y;
    for (pair, (a, b)) in pairs.iter_mut().zip(pairs_of(n)) {
        *pair = (first(next[a], next[b]), first(next[b], next[a]));
    }
}

/// The match of `n` events: one pair constrained, and every constrained pair's selected
/// flag set.
pub fn matches(n: usize, pairs: &[(bool, bool)], flag: impl Fn(usize, usize) -> bool) -> bool {
    let mut any_constrained = false;
    for (&(a_first, b_first), (a, b)) in pairs.iter().zip(pairs_of(n)) {
        any_constrained |= a_first || b_first;
        let in_order = if a_first { flag(a, b) } else { !b_first || flag(b, a) };
        if !in_order {
            return false;
        }
    }
    any_constrained
}

/// `x < y` on bits `high..=0` of two W-bit order wires, as one Verilog expression.
fn less(x: &str, y: &str, high: usize, below: Option<&str>) -> String {
    match below {
        Some(lower) => less_stage(x, y, high, lower),
        None => less_ripple(x, y, 0, high),
    }
}

/// The comparator stages of one direction: `first` = 0 < x < y, where x, y are the
/// next values of fields `x` and `y`.
fn comparator(v: &mut String, k: usize, direction: &str, (x, y): (usize, usize), w: usize) {
    let (xs, ys) = (format!("order_next_{x}"), format!("order_next_{y}"));
    let stage = |i: usize| format!("less_{k}_{direction}_{i}");
    // The first stage compares the low two bits (4 LUT inputs; bit 0 alone at W = 2),
    // each later stage adds one bit to the previous stage's result (3 inputs), and the
    // last adds the top bit and the zero test (4). The kept stages are declared apart
    // from their assignments: Icarus drops, with a warning, attributes on a net
    // declaration that has an assignment.
    let low = if w > 2 { 1 } else { 0 };
    for i in low..(w - 1) {
        let below = (i > low).then(|| stage(i - 1));
        let _ = writeln!(v, "(* keep *) wire {};", stage(i));
        let _ = writeln!(v, "assign {} = {};", stage(i), less(&xs, &ys, i, below.as_deref()));
    }
    let last = less(&xs, &ys, w - 1, Some(&stage(w - 2)));
    let (next, q) = (format!("{direction}_first_{k}_next"), register(direction, k));
    let _ = writeln!(v, "wire {next} = order_set_{x} & ({last});");
    // One register per output, loaded only at an ORDER write. Each stage has one reader,
    // so Verilator substitutes the whole comparator into this block (given
    // `--gate-stmts` above its size, sim/src/verilator.rs) and evaluates it only in
    // the cycles that write.
    let _ = writeln!(v, "reg {q};");
    let _ = writeln!(v, "initial {q} = 1'b0;");
    let _ = writeln!(v, "always @(posedge clock) if (reset) {q} <= 1'b0; else if (order_written) {q} <= {next};");
}

/// The register of pair k's comparator output in `direction` (`a` or `b` first).
pub fn register(direction: &str, k: usize) -> String {
    format!("{direction}_first_{k}_q")
}

/// The Verilog body of the patent matcher for `n` events of `w` bits.
pub fn verilog(n: usize, w: usize) -> String {
    let pairs = n * (n - 1) / 2;
    let mut v = String::new();
    let _ = writeln!(v, "// Pair k = (a, b), a < b, in the order a = 0.., b = a+1..");
    let _ = writeln!(v, "// ORDER's next value: what the order register holds after this edge (a reset");
    let _ = writeln!(v, "// clears the comparator registers themselves).");
    for e in 0..n {
        let _ = writeln!(v, "wire [{}:0] order_next_{e} = write[{e}] ? wdata : order${e};", w - 1);
        let _ = writeln!(v, "wire order_set_{e} = |order_next_{e};");
    }
    let _ = writeln!(v, "// Flag (a before m) this cycle: as stored, or recorded now (docs/monitor.md §3.2).");
    let _ = writeln!(v, "// A record cleared at the last edge (live = 0) gates the whole match instead.");
    let _ = writeln!(v, "wire [{}:0] recording = occur & {{{n}{{enable}}}};", n - 1);
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            let _ = writeln!(v, "wire flag_{a}_{m} = stored${m}[{a}] | (recording[{m}] & seen[{a}]);");
        }
    }
    let _ = writeln!(v, "// Comparators [24]: a_first = 0 < order[a] < order[b], b_first = 0 < order[b] < order[a],");
    let _ = writeln!(v, "// registered; ORDER and so their result change only at an ORDER write.");
    let _ = writeln!(v, "wire order_written = |write;");
    let _ = writeln!(v, "wire [{}:0] in_order; // pair multiplexers [23] with the pair select [25]", pairs - 1);
    for (k, (a, b)) in pairs_of(n).enumerate() {
        comparator(&mut v, k, "a", (a, b), w);
        comparator(&mut v, k, "b", (b, a), w);
        // Written so that the multiplexer's two inputs share the b side: the same
        // function as (~a_first | flag_a_b) & (~b_first | flag_b_a), which maps to two
        // LUTs per pair, where a plain `a_first ? flag_a_b : flag_b_a` maps to three.
        let _ = writeln!(v, "wire b_in_order_{k} = ~b_first_{k}_q | flag_{b}_{a};");
        let _ = writeln!(v, "assign in_order[{k}] = a_first_{k}_q ? (flag_{a}_{b} & b_in_order_{k}) : b_in_order_{k};");
    }
    let selects: Vec<String> = (0..pairs).map(|k| format!("a_first_{k}_q, b_first_{k}_q")).collect();
    let _ = writeln!(v, "always @(*) begin");
    let _ = writeln!(v, "    matched = live & (|{{{}}}) & (&in_order);", selects.join(", "));
    let _ = writeln!(v, "end");
    v.push_str(&unused_diagonal("stored", n));
    // `seen` (0 after a clear) maps smaller here than the raw `seen_stored`.
    v.push_str(&unused_sink("seen_stored", &["seen_stored".to_string()]));
    v
}
