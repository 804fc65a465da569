//! §4.4-§4.5: CMASK, INV and E on INSTRUCTIONS_EXECUTED (PerCycleMax 2, a 2-bit field
//! that may also carry 3: fields count as given). The counter is enabled by a
//! PERF_GLOBAL_CTRL write in the cycle that presents the first count and disabled in
//! the cycle after the last, so exactly the sequence's cycles are judged (§7: the write
//! acts from the next cycle; §4: the events one cycle late).
use super::super::{addr, evtsel};
use super::{event_index, knc_config, select, Bench};

const COUNTS: [u64; 9] = [2, 1, 0, 2, 2, 3, 0, 1, 2];

/// Counter 0 after the sequence, with PERF_EVTSEL fields `fields` on top of USR|OS|EN.
fn count_sequence(fields: u64, counts: &[u64]) -> u64 {
    let config = knc_config(1, 1, 40);
    let event = event_index(&config, "INSTRUCTIONS_EXECUTED");
    let mut bench = Bench::new(config.clone());
    let base = evtsel::USR | evtsel::OS | evtsel::EN;
    bench.write(0, addr::PERF_EVTSEL, select(&config, "INSTRUCTIONS_EXECUTED", base | fields));
    for (cycle, &count) in counts.iter().enumerate() {
        bench.set_event(event, 0, count);
        if cycle == 0 {
            bench.write(0, addr::PERF_GLOBAL_CTRL, 1);
        } else {
            bench.tick();
        }
    }
    bench.clear_events();
    bench.write(0, addr::PERF_GLOBAL_CTRL, 0);
    let counted = bench.pmu.counter(0, 0);
    for _ in 0..4 {
        bench.tick();
    }
    assert_eq!(bench.pmu.counter(0, 0), counted, "disabled: nothing more counts");
    counted
}

fn cmask(threshold: u64) -> u64 {
    threshold << evtsel::CMASK_SHIFT
}

#[test]
fn without_cmask_the_counter_adds_every_occurrence() {
    assert_eq!(count_sequence(0, &COUNTS), 13);
    assert_eq!(count_sequence(evtsel::INV, &COUNTS), 13, "INV has no effect with CMASK = 0");
}

#[test]
fn cmask_counts_cycles_with_at_least_cmask_occurrences() {
    assert_eq!(count_sequence(cmask(1), &COUNTS), 7);
    assert_eq!(count_sequence(cmask(2), &COUNTS), 5, "two-instruction cycles (and the one with 3)");
    assert_eq!(count_sequence(cmask(3), &COUNTS), 1);
    assert_eq!(count_sequence(cmask(4), &COUNTS), 0);
}

#[test]
fn inv_counts_cycles_below_cmask() {
    assert_eq!(count_sequence(cmask(2) | evtsel::INV, &COUNTS), 4, "fewer-than-two cycles");
    assert_eq!(count_sequence(cmask(1) | evtsel::INV, &COUNTS), 2, "idle cycles");
}

#[test]
fn edge_counts_how_often_the_condition_begins() {
    assert_eq!(count_sequence(evtsel::E, &COUNTS), 3, "runs of nonzero cycles");
    assert_eq!(count_sequence(cmask(2) | evtsel::E, &COUNTS), 3, "runs of two-instruction cycles");
    assert_eq!(count_sequence(cmask(2) | evtsel::INV | evtsel::E, &COUNTS), 2, "runs of fewer-than-two");
    assert_eq!(count_sequence(cmask(1) | evtsel::E, &[1, 1, 1, 1]), 1);
}

#[test]
fn edge_counts_mode_changes_as_part_of_the_condition() {
    // §4.5: USR/OS belong to the condition, so an event held through user -> kernel
    // -> user begins twice for a USR-only counter.
    let config = knc_config(1, 1, 40);
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let mut bench = Bench::new(config.clone());
    let fields = evtsel::USR | evtsel::EN | evtsel::E;
    bench.write(0, addr::PERF_EVTSEL, select(&config, "CPU_CLK_UNHALTED", fields));
    bench.write(0, addr::PERF_GLOBAL_CTRL, 1);
    bench.set_event(event, 0, 1);
    for kernel in [false, false, true, true, false, false, false] {
        bench.set_kernel(0, kernel);
        bench.tick();
    }
    bench.tick();
    assert_eq!(bench.pmu.counter(0, 0), 2);
}

#[test]
fn qualification_uses_user_pref_and_the_freeze_of_the_own_bank() {
    let config = knc_config(2, 2, 40);
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let mut bench = Bench::new(config.clone());
    let every_mode = select(&config, "CPU_CLK_UNHALTED", evtsel::USR | evtsel::OS | evtsel::EN);
    for thread in 0..2 {
        bench.write(thread, addr::PERF_EVTSEL, every_mode);
        bench.write(thread, addr::PERF_EVTSEL + 1, every_mode);
        bench.write(thread, addr::PERF_GLOBAL_CTRL, 0b11);
        bench.set_event(event, thread, 1);
    }
    // Thread 0: counter 1 obeys USER_PREF (0); thread 1: frozen while unmarked.
    bench.write(0, addr::PERF_SPFLT_CONTROL, 0b10);
    bench.write(1, addr::FREEZE_CTRL, 1);
    let start = [0, 1].map(|thread| [0, 1].map(|i| bench.pmu.counter(thread, i)));
    for _ in 0..5 {
        bench.tick();
    }
    let delta = |bench: &Bench, thread: usize, i: usize| bench.pmu.counter(thread, i) - start[thread][i];
    assert_eq!([delta(&bench, 0, 0), delta(&bench, 0, 1), delta(&bench, 1, 0), delta(&bench, 1, 1)], [5, 0, 0, 0]);
    // Ring 3 sets USER_PREF through SPFLT (acting from the next cycle); thread 1 becomes
    // marked, which acts one cycle late (§4), so it counts one edge less.
    let outputs = bench.cycle_with(|inputs| {
        inputs.reg_thread = 0;
        inputs.reg_addr = addr::SPFLT;
        inputs.reg_wdata = 1;
        inputs.reg_write = true;
    });
    assert!(!outputs.reg_fault);
    bench.set_pm_mark(1, true);
    for _ in 0..4 {
        bench.tick();
    }
    assert_eq!([delta(&bench, 0, 0), delta(&bench, 0, 1), delta(&bench, 1, 0), delta(&bench, 1, 1)], [10, 4, 3, 3]);
}
