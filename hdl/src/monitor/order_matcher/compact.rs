//! The compact matcher (`--matcher compact`, docs/monitor.md §7.1): instead of a
//! comparator per pair, a registered matrix `need[m][a]` = "a must occur before m"
//! (0 < order[a] < order[m]), N*(N-1) flip-flops, rewritten at each ORDER write.
//!
//! Only one field changes per write, so 2N comparators of the written value v
//! against every field suffice: writing ORDER[e] = v sets row e to
//! `0 < order[a] < v` and column e to `0 < v < order[m]`. The match is then
//! "some need is set, and every set need has its record flag", with no pair
//! multiplexer. Equal orders give no need in either direction (docs/monitor.md §3.3).
//!
//! Each need is checked by one four-input term, `~need | stored flag | (m recorded now
//! & a seen)`, that reads flip-flops and this cycle's recording only. The terms are
//! kept as nets, one LUT4 each, and row m is the AND of its terms: left to itself,
//! synthesis merges them into wider trees that take more logic cells, the more so the
//! larger N (docs/monitor.md §7.2 gives the figures).
//!
//! "Some need is set" is not an OR over the matrix: it holds exactly when two non-zero
//! orders differ, that is when some non-zero order differs from the bitwise OR of all
//! orders (if all non-zero orders equal c, that OR is c). This reads the W*N order
//! bits instead of the N*(N-1) need bits.
//!
//! The 2N comparators are written as logic (high and low halves), not as `<`: synthesis
//! maps `<` to an iCE40 carry chain that takes a logic cell per bit and cannot share it.
//!
//! The need flip-flops hold their value through their own LUT rather than a clock
//! enable per pair, so that they pack with any other logic (docs/monitor.md §7.2):
//! with per-pair enables N = 32 did not route on the HX8K; without, it routes
//! (docs/monitor.md §7.3).
use std::fmt::Write;

use super::super::context_record::flag_index as index;
use super::{less_ripple, pair_index, pairs};
use crate::custom::{unused_diagonal, unused_sink};

/// Rewrite the needs of the written field: `reset` clears them all; `written[e]`
/// with `value` rewrites row e and column e from the stored `orders` of the others.
pub fn load(need: &mut [Vec<bool>], orders: &[u32], reset: bool, written: &[bool], value: u32) {
    let n = orders.len();
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            need[m][a] = if reset {
                false
            } else if written[m] {
                orders[a] != 0 && orders[a] < value
            } else if written[a] {
                value != 0 && value < orders[m]
            } else {
                need[m][a]
            };
        }
    }
}

/// The match: some pair constrained, and every set need (a before m) has its record
/// flag. As in the Verilog, "some pair constrained" is read from this cycle's `orders`
/// (a non-zero order differs from the OR of all orders), not from the needs: the two
/// agree while `orders` is what the order register holds, and reading the same inputs
/// keeps the twin equal to the Verilog on any input.
pub fn matches(orders: &[u32], need: &[Vec<bool>], flag: impl Fn(usize, usize) -> bool) -> bool {
    let union = orders.iter().fold(0, |all, order| all | order);
    let constrained = orders.iter().any(|&order| order != 0 && order != union);
    constrained
        && need.iter().enumerate().all(|(m, row)| row.iter().enumerate().all(|(a, &needed)| !needed || flag(a, m)))
}

/// `x < y` for `w`-bit operands as logic: the high half decides unless it ties, then
/// the low half (each half a ripple from its least significant bit).
fn less(x: &str, y: &str, w: usize) -> String {
    let split = w.div_ceil(2);
    let (high, low) = (less_ripple(x, y, split, w - 1), less_ripple(x, y, 0, split - 1));
    format!("({high}) | (({x}[{}:{split}] == {y}[{}:{split}]) & ({low}))", w - 1, w - 1)
}

/// The Verilog body of the compact matcher for `n` events of `w` order bits.
pub fn verilog(n: usize, w: usize) -> String {
    let bits = n * (n - 1);
    let mut v = String::new();
    let _ = writeln!(v, "// need_q[m*(N-1) + a'] = event a must occur before event m (a' = a, skipping m).");
    let _ = writeln!(v, "reg [{}:0] need_q;", bits - 1);
    let _ = writeln!(v, "wire [{}:0] row_ok;   // row m is satisfied this cycle", n - 1);
    let _ = writeln!(v, "wire [{}:0] recording = occur & {{{n}{{enable}}}};", n - 1);
    let _ = writeln!(v, "wire [{}:0] order_set;  // ORDER[e] != 0", n - 1);
    let _ = writeln!(v, "wire [{}:0] below_value; // ORDER[e] < written value (comparators)", n - 1);
    let _ = writeln!(v, "wire [{}:0] above_value; // written value < ORDER[e] (comparators)", n - 1);
    let _ = writeln!(v, "wire value_set = |wdata;");
    for e in 0..n {
        let (field, written) = (format!("order${e}"), "wdata");
        let _ = writeln!(v, "assign order_set[{e}] = |{field};");
        let _ = writeln!(v, "assign below_value[{e}] = {};", less(&field, written, w));
        let _ = writeln!(v, "assign above_value[{e}] = {};", less(written, &field, w));
    }
    let union: Vec<String> = (0..n).map(|e| format!("order${e}")).collect();
    let _ = writeln!(v, "// Some pair is constrained: a non-zero order differs from the OR of all orders.");
    let _ = writeln!(v, "wire [{}:0] order_union = {};", w - 1, union.join(" | "));
    let _ = writeln!(v, "wire [{}:0] off_union;", n - 1);
    for e in 0..n {
        let _ = writeln!(v, "assign off_union[{e}] = order_set[{e}] & (order${e} != order_union);");
    }
    let _ = writeln!(v, "// At most one ORDER field is written per edge. Cell (m, a) of a written pair loads");
    let _ = writeln!(v, "// row_side[m] & column_side[a]: if m is written, row_side[m] = 1 and the cell takes");
    let _ = writeln!(v, "// 0 < ORDER[a] < value; if a is written, column_side[a] = 1 and it takes");
    let _ = writeln!(v, "// 0 < value < ORDER[m].");
    let _ = writeln!(v, "wire [{}:0] row_side = write | ({{{n}{{value_set}}}} & above_value);", n - 1);
    let _ = writeln!(v, "wire [{}:0] column_side = write | (order_set & below_value);", n - 1);
    let _ = writeln!(
        v,
        "wire [{}:0] pair_written; // pair k = {{a, b}}: ORDER[a] or ORDER[b] is written",
        n * (n - 1) / 2 - 1
    );
    for (k, (a, b)) in pairs(n).enumerate() {
        let _ = writeln!(v, "assign pair_written[{k}] = write[{a}] | write[{b}];");
    }
    let _ = writeln!(v, "initial need_q = {bits}'h0;");
    let _ = writeln!(v, "always @(posedge clock) begin");
    let _ = writeln!(v, "    if (reset) begin");
    let _ = writeln!(v, "        need_q <= {bits}'h0;");
    let _ = writeln!(v, "    end else begin");
    // The hold is written out instead of `if (pair_written[k])`: synthesis would turn
    // that into a clock enable per pair, and an iCE40 logic block has one clock enable
    // for its 8 flip-flops, so the N(N-1)/2 pairs would each claim a block of their
    // own (at N = 32 the router then did not converge; docs/monitor.md §7.2).
    for m in 0..n {
        for a in (0..n).filter(|&a| a != m) {
            let (i, k) = (index(n, a, m), pair_index(n, a, m));
            let _ = writeln!(
                v,
                "        need_q[{i}] <= (pair_written[{k}] & row_side[{m}] & column_side[{a}]) \
                 | (~pair_written[{k}] & need_q[{i}]);"
            );
        }
    }
    let _ = writeln!(v, "    end");
    let _ = writeln!(v, "end");
    for m in 0..n {
        let others = || (0..n).filter(move |&a| a != m);
        for a in others() {
            let _ = writeln!(
                v,
                "(* keep *) wire met_{a}_{m} = ~need_q[{}] | stored${m}[{a}] | (recording[{m}] & seen_stored[{a}]);",
                index(n, a, m)
            );
        }
        let terms: Vec<String> = others().map(|a| format!("met_{a}_{m}")).collect();
        let _ = writeln!(v, "assign row_ok[{m}] = {};", terms.join(" & "));
    }
    let _ = writeln!(v, "always @(*) begin");
    let _ = writeln!(v, "    matched = live & (|off_union) & (&row_ok);");
    let _ = writeln!(v, "end");
    v.push_str(&unused_diagonal("stored", n));
    // The rows read the raw `seen_stored`: `live` gates the whole match.
    v.push_str(&unused_sink("seen", &["seen".to_string()]));
    v
}
