use std::cell::RefCell;
use std::collections::HashMap;

use super::*;
use crate::port_list;
use crate::testing::lockstep::Lockstep;
use crate::testing::ports::{Port, Ports};
use crate::testing::{apply, assert_valid_verilog, edge};
use crate::word::Word;
use pmugen_sim::reference::order_matches;
use pmugen_sim::verilator::PortList;
use rand::{Rng, SeedableRng};

#[test]
fn verilog_is_valid() {
    for structure in Matcher::ALL {
        let name = format!("order_matcher_{}_n5_w3", structure.flag_value());
        assert_valid_verilog(&mut OrderMatcher::new(5, 3, structure), &name);
    }
}

/// Drive ORDER writes (as the order register receives them), random stored record
/// rows, seen events, occurrences and clears; in every cycle the match must equal the
/// reference's `order_matches` on the orders stored during that cycle and the record
/// including this cycle's recording (docs/monitor.md §3.2, §3.3, §3.6).
fn against_reference(n: usize, w: usize, structure: Matcher, seed: u64, cycles: usize, dense: bool) {
    #[allow(non_snake_case)]
    let (N, W) = (n, w);
    println!("{structure:?} N={N} W={W}: seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut uut = OrderMatcher::new(N, W, structure);
    uut.connect_all();
    let mut orders = vec![0u32; N];
    let (mut matches, mut misses) = (0, 0);
    for step in 0..cycles {
        let written = rng.gen_bool(0.3).then(|| rng.gen_range(0..N));
        let value = if rng.gen_bool(0.2) { 0 } else { rng.gen_range(1..(1u32 << W)) };
        let reset = rng.gen_ratio(1, 200);
        let mask = ((1u64 << N) - 1) as u32;
        // Dense rows so that matches happen often; bit m of row m stays 0. A stored
        // flag (a before m) implies that a was seen (docs/monitor.md §3.2).
        let stored: Vec<u32> = (0..N)
            .map(|m| {
                let row = if dense { rng.gen::<u32>() | rng.gen::<u32>() | rng.gen::<u32>() } else { rng.gen() };
                row & !(1 << m) & mask
            })
            .collect();
        let seen = (stored.iter().fold(0, |all, row| all | row) | rng.gen::<u32>()) & mask;
        let occur = if rng.gen_bool(0.5) { rng.gen::<u32>() & rng.gen::<u32>() & mask } else { 0 };
        let (enable, live) = (rng.gen_bool(0.8), !rng.gen_ratio(1, 20));
        let rows: Vec<u32> = (0..N)
            .map(|m| {
                let recorded = if enable && occur >> m & 1 == 1 { seen & !(1 << m) } else { 0 };
                if live {
                    stored[m] | recorded
                } else {
                    0
                }
            })
            .collect();
        apply(
            &mut uut,
            |u| &mut u.clock,
            |u| {
                u.write.next = Word::new(N, written.map_or(0, |e| 1u64 << e));
                u.wdata.next = Word::new(W, value as u64);
                u.reset.next = reset;
                u.seen.next = Word::new(N, if live { seen as u64 } else { 0 });
                u.seen_stored.next = Word::new(N, seen as u64);
                u.occur.next = Word::new(N, occur as u64);
                u.enable.next = enable;
                u.live.next = live;
                for e in 0..N {
                    u.order[e].next = Word::new(W, orders[e] as u64);
                    u.stored[e].next = Word::new(N, stored[e] as u64);
                }
            },
        );
        let expected = order_matches(&orders, |a, m| rows[m] >> a & 1 == 1);
        assert_eq!(uut.matched.val(), expected, "step {step} seed {seed:#x}: orders {orders:?}, rows {rows:?}");
        if expected {
            matches += 1
        } else {
            misses += 1
        }
        edge(&mut uut, |u| &mut u.clock);
        if reset {
            orders.iter_mut().for_each(|o| *o = 0);
        } else if let Some(e) = written {
            orders[e] = value;
        }
    }
    assert!(matches > cycles / 50 && misses > cycles / 50, "{matches} matches, {misses} misses");
}

#[test]
fn pair_index_numbers_the_pairs_in_order() {
    for n in [2, 5, 32] {
        for (k, (a, b)) in pairs(n).enumerate() {
            assert_eq!((pair_index(n, a, b), pair_index(n, b, a)), (k, k), "n {n}: pair ({a}, {b})");
        }
    }
}

#[test]
fn patent_matches_like_reference() {
    against_reference(3, 2, Matcher::Patent, 0x5eed_0005, 20_000, true);
    against_reference(8, 3, Matcher::Patent, 0x5eed_0015, 20_000, true);
}

#[test]
fn compact_matches_like_reference() {
    against_reference(3, 2, Matcher::Compact, 0x5eed_0025, 20_000, true);
    against_reference(8, 3, Matcher::Compact, 0x5eed_0035, 20_000, true);
    against_reference(32, 5, Matcher::Compact, 0x5eed_0045, 3_000, true);
}

impl Ports for OrderMatcher {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        port_list!(self; reset, write, wdata, seen, seen_stored, occur, enable, live, matched; vec order, stored)
    }
}

/// One cycle of a matcher's inputs as the monitor around it gives them, drawn at
/// random within what that monitor can produce (the block's header):
/// - `order` is the order register: it holds what was written to it (`orders`, kept
///   across cycles for this instance) and returns to 0 at a reset. The compact matcher
///   tells "a pair is constrained" from the orders, not from its needs, so the two must
///   agree;
/// - at most one ORDER field is written per edge: `write` is one-hot or 0;
/// - `seen` is `seen_stored` while `live` is 1 and 0 while it is 0;
/// - bit m of record row m is 0.
///
/// A written value is non-zero with a probability that falls with N, so that a few
/// pairs are constrained at a time and dense record rows often satisfy them all.
fn monitor_inputs(rng: &mut rand_chacha::ChaCha8Rng, orders: &mut Vec<u64>, inputs: &PortList) -> Vec<Vec<u64>> {
    let n = inputs.iter().filter(|(name, _)| name.starts_with("order__")).count();
    let w = inputs.iter().find(|(name, _)| name == "wdata").map(|(_, width)| *width).expect("a wdata input");
    orders.resize(n, 0);
    let all = (1u64 << n) - 1;
    let reset = rng.gen_ratio(1, 256);
    let written = rng.gen_ratio(1, 4).then(|| rng.gen_range(0..n));
    let value = if rng.gen_bool((3.0 / n as f64).min(0.7)) { rng.gen_range(1..1u64 << w) } else { 0 };
    let live = !rng.gen_ratio(1, 16);
    let seen_stored = rng.gen::<u64>() & all;
    let mut values: HashMap<String, u64> = HashMap::from([
        ("reset".to_string(), reset as u64),
        ("write".to_string(), written.map_or(0, |e| 1 << e)),
        ("wdata".to_string(), value),
        ("seen".to_string(), if live { seen_stored } else { 0 }),
        ("seen_stored".to_string(), seen_stored),
        ("occur".to_string(), rng.gen::<u64>() & all),
        ("enable".to_string(), rng.gen_bool(0.8) as u64),
        ("live".to_string(), live as u64),
    ]);
    for (e, order) in orders.iter().enumerate() {
        values.insert(format!("order__{e}"), *order);
        let dense = rng.gen::<u64>() | rng.gen::<u64>() | rng.gen::<u64>();
        values.insert(format!("stored__{e}"), dense & all & !(1 << e));
    }
    if reset {
        orders.iter_mut().for_each(|order| *order = 0);
    } else if let Some(e) = written {
        orders[e] = value;
    }
    inputs.iter().map(|(name, _)| vec![values[name]]).collect()
}

/// Both structures at random N and W over their full ranges, the corners (N = 2 and
/// 32, W = 2 and 8) included.
#[test]
pub(crate) fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_1301;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let last = if rng.gen() { Matcher::Patent } else { Matcher::Compact };
    let shapes = [
        (Matcher::Patent, Some(2), Some(8)),
        (Matcher::Compact, Some(32), Some(2)),
        (Matcher::Patent, Some(32), None),
        (Matcher::Compact, None, Some(8)),
        (last, None, None),
    ];
    let instances: Vec<(String, OrderMatcher)> = shapes
        .into_iter()
        .map(|(structure, n, w)| {
            let n = n.unwrap_or_else(|| rng.gen_range(2..=32));
            let w = w.unwrap_or_else(|| rng.gen_range(2..=8));
            (format!("{structure:?} N={n} W={w}"), OrderMatcher::new(n, w, structure))
        })
        .collect();
    let orders = RefCell::new(vec![Vec::new(); instances.len()]);
    Lockstep::new("order_matcher", seed)
        .cycle_stimulus(move |rng, instance, inputs| monitor_inputs(rng, &mut orders.borrow_mut()[instance], inputs))
        .cycles(4_000)
        .run(instances);
}
