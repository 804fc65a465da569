//! The PMU bench itself: all three engines agree on a counter counting in ring 3.

use crate::common::pmu::{addr, evtsel, PmuBench};

#[test]
fn instructions_in_ring_3_are_counted_by_every_engine() {
    let mut bench = PmuBench::default_table(4, 2, 40);
    let select = bench.select("INSTRUCTIONS_EXECUTED", evtsel::EN | evtsel::USR);
    bench.program(0, 0, select);
    bench.set_event("INSTRUCTIONS_EXECUTED", 0, 2);
    bench.steps(10);
    bench.clear_events();
    bench.steps(2);
    assert_eq!(bench.counter(0, 0), 20);
    let (value, fault) = bench.read_as(0, false, addr::PERF_CNTR);
    assert_eq!((value, fault), (20, false), "RDPMC is allowed in ring 3 after reset");
}
