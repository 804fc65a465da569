//! The patent's matcher (seed 000 [0032], Fig. 3): per unordered pair {a, b}, a < b,
//! one comparator `order[a] < order[b]` [24] selects in one 2:1 multiplexer [23]
//! flag (a before b) or flag (b before a); the pair select [25] passes pairs that are
//! not constrained, the AND [26] gives the match (docs/monitor.md §7.1).
//!
//! The comparators and the pair select's tie tests read ORDER's next value (what the
//! order register holds after this edge) and their results are registered: 2 flip-flops
//! per pair, `a_first_q` and `constrained_q`. The match path is then flip-flops →
//! multiplexers → AND, with no carry chain in it.
use std::fmt::Write;

use super::pairs as pairs_of;
use crate::custom::{unused_diagonal, unused_sink};

/// Load the registered comparator and pair-select results from ORDER's next value:
/// `reset` clears ORDER, `written[e]` loads `value` into ORDER[e].
pub fn load<const N: usize>(pairs: &mut [(bool, bool)], orders: &[u32; N], reset: bool, written: &[bool], value: u32) {
    let next: Vec<u32> = (0..N).map(|e| if reset { 0 } else if written[e] { value } else { orders[e] }).collect();
    for (pair, (a, b)) in pairs.iter_mut().zip(pairs_of(N)) {
        *pair = (next[a] < next[b], next[a] != 0 && next[b] != 0 && next[a] != next[b]);
    }
}

/// The match: one pair constrained, and every constrained pair's selected flag set.
pub fn matches<const N: usize>(pairs: &[(bool, bool)], flag: impl Fn(usize, usize) -> bool) -> bool {
    let (mut any_constrained, mut all_in_order) = (false, true);
    for (&(a_first, constrained), (a, b)) in pairs.iter().zip(pairs_of(N)) {
        if constrained {
            any_constrained = true;
            all_in_order &= if a_first { flag(a, b) } else { flag(b, a) };
        }
    }
    any_constrained && all_in_order
}

/// The Verilog body of the patent matcher for `n` events of `w` bits.
pub fn verilog(n: usize, w: usize) -> String {
    let pairs = n * (n - 1) / 2;
    let mut v = String::new();
    let _ = writeln!(v, "// Pair k = (a, b), a < b, in the order a = 0.., b = a+1..");
    let _ = writeln!(v, "// ORDER's next value: what the order register holds after this edge.");
    for e in 0..n {
        let _ = writeln!(v, "wire [{}:0] order_next_{e} = reset ? {w}'d0 : (write[{e}] ? wdata : order${e});", w - 1);
    }
    let _ = writeln!(v, "// Flag (a before m) this cycle: as stored, or recorded now (docs/monitor.md §3.2);");
    let _ = writeln!(v, "// none after a clear at the last edge (live = 0).");
    let _ = writeln!(v, "wire [{}:0] recording = occur & {{{n}{{enable}}}};", n - 1);
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            let _ = writeln!(v, "wire flag_{a}_{m} = live & (stored${m}[{a}] | (recording[{m}] & seen[{a}]));");
        }
    }
    let _ = writeln!(v, "wire [{}:0] a_first_next;     // comparators [24]", pairs - 1);
    let _ = writeln!(v, "wire [{}:0] constrained_next; // pair select [25]", pairs - 1);
    let _ = writeln!(v, "reg [{}:0] a_first_q;", pairs - 1);
    let _ = writeln!(v, "reg [{}:0] constrained_q;", pairs - 1);
    let _ = writeln!(v, "wire [{}:0] in_order;         // pair multiplexers [23]", pairs - 1);
    for (k, (a, b)) in pairs_of(n).enumerate() {
        let _ = writeln!(v, "assign a_first_next[{k}] = order_next_{a} < order_next_{b};");
        let _ = writeln!(
            v,
            "assign constrained_next[{k}] = (|order_next_{a}) & (|order_next_{b}) & (order_next_{a} != order_next_{b});"
        );
        let _ = writeln!(v, "assign in_order[{k}] = a_first_q[{k}] ? flag_{a}_{b} : flag_{b}_{a};");
    }
    let _ = writeln!(v, "initial begin");
    let _ = writeln!(v, "    a_first_q = {pairs}'h0;");
    let _ = writeln!(v, "    constrained_q = {pairs}'h0;");
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "always @(posedge clock) begin");
    let _ = writeln!(v, "    a_first_q <= a_first_next;");
    let _ = writeln!(v, "    constrained_q <= constrained_next;");
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "always @(*) begin");
    let _ = writeln!(v, "    matched = (|constrained_q) & (&(in_order | ~constrained_q));");
    let _ = writeln!(v, "end");
    v.push_str(&unused_diagonal("stored", n));
    // `seen` (0 after a clear) maps smaller here than the raw `seen_stored`.
    v.push_str(&unused_sink("seen_stored", &["seen_stored".to_string()]));
    v
}
