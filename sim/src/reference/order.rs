//! docs/monitor.md §3.3: does a record satisfy an order setting?

/// The match flag for `orders` (0 = don't care) against a record where
/// `before(a, m)` is the flag "a occurred before m".
///
/// A pair {a, b} is constrained when both orders are non-zero and differ; the event
/// with the smaller order must come first. The match needs at least one constrained
/// pair and every constrained pair in order.
pub fn order_matches(orders: &[u32], before: impl Fn(usize, usize) -> bool) -> bool {
    let mut constrained_pairs = 0;
    for a in 0..orders.len() {
        for b in (a + 1)..orders.len() {
            let (oa, ob) = (orders[a], orders[b]);
            if oa == 0 || ob == 0 || oa == ob {
                continue;
            }
            constrained_pairs += 1;
            let (first, second) = if oa < ob { (a, b) } else { (b, a) };
            if !before(first, second) {
                return false;
            }
        }
    }
    constrained_pairs > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_constrained_pair_never_matches() {
        assert!(!order_matches(&[0, 0, 0], |_, _| true));
        assert!(!order_matches(&[2, 2, 0], |_, _| true));
    }

    #[test]
    fn constrained_pair_needs_its_flag() {
        // order: event 1 first, then event 0.
        assert!(order_matches(&[2, 1], |a, m| a == 1 && m == 0));
        assert!(!order_matches(&[2, 1], |a, m| a == 0 && m == 1));
    }
}
