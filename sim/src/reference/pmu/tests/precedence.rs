//! §7: same-edge corners. Counter 0 and 1 of thread 0 count CPU_CLK_UNHALTED, held at
//! one per cycle, in every mode; CW = 16 so overflows are near. Each test reads the
//! state during the cycle of the edge under test (`pmu.counter` after the previous
//! step) and compares it with the state after that edge.
use super::super::{addr, evtsel};
use super::{event_index, knc_config, select, Bench};

const CW_MAX: u64 = 0xFFFF;

fn counting_bench(shadow_ctrl: u64) -> Bench {
    let config = knc_config(1, 2, 16);
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let mut bench = Bench::new(config.clone());
    let every_mode = select(&config, "CPU_CLK_UNHALTED", evtsel::USR | evtsel::OS | evtsel::EN);
    bench.write(0, addr::PERF_EVTSEL, every_mode);
    bench.write(0, addr::PERF_EVTSEL + 1, every_mode);
    bench.write(0, addr::SHADOW_CTRL, shadow_ctrl);
    bench.write(0, addr::PERF_GLOBAL_CTRL, 0b11);
    bench.set_event(event, 0, 1);
    bench.tick();
    bench
}

/// Present a mode change now; the next step is the edge that sees it (§4).
fn present_kernel(bench: &mut Bench, kernel: bool) {
    bench.set_kernel(0, kernel);
    bench.tick();
}

#[test]
fn a_counter_write_wins_over_an_overflowing_increment() {
    let mut bench = counting_bench(0);
    bench.write(0, addr::PERF_CNTR + 1, CW_MAX - 1);
    bench.write(0, addr::PERF_CNTR, CW_MAX);
    assert_eq!([bench.pmu.counter(0, 0), bench.pmu.counter(0, 1)], [CW_MAX, CW_MAX]);
    bench.write(0, addr::PERF_CNTR, 5);
    assert_eq!([bench.pmu.counter(0, 0), bench.pmu.counter(0, 1)], [5, 0]);
    assert_eq!(bench.pmu.global_status(0), 0b10, "only the unwritten counter overflowed");
}

#[test]
fn an_ovf_ctrl_clear_at_an_overflow_loses_no_overflow() {
    let mut bench = counting_bench(0);
    bench.write(0, addr::PERF_CNTR, CW_MAX);
    bench.write(0, addr::PERF_CNTR + 1, CW_MAX);
    bench.tick();
    assert_eq!(bench.pmu.global_status(0), 0b11);
    bench.write(0, addr::PERF_CNTR, CW_MAX);
    bench.write(0, addr::PERF_GLOBAL_OVF_CTRL, 0b11);
    assert_eq!(bench.pmu.global_status(0), 0b01, "counter 0 overflowed at the clearing edge");
    bench.write(0, addr::PERF_GLOBAL_OVF_CTRL, 0b01);
    assert_eq!(bench.pmu.global_status(0), 0);
}

#[test]
fn a_shadow_write_wins_over_a_save_and_a_save_takes_the_counter_before_the_increment() {
    let mut bench = counting_bench(0b11);
    bench.write(0, addr::PERF_CNTR, 40);
    present_kernel(&mut bench, true);
    let counter_during_entry = bench.pmu.counter(0, 1);
    bench.write(0, addr::SHADOW, 77);
    assert_eq!([bench.pmu.shadow(0, 0), bench.pmu.shadow(0, 1)], [77, counter_during_entry]);
    assert_eq!(bench.pmu.counter(0, 1), counter_during_entry + 1, "the entry cycle's event counts");
}

#[test]
fn a_save_at_a_counter_write_stores_the_old_counter() {
    let mut bench = counting_bench(0b01);
    present_kernel(&mut bench, true);
    let counter_during_entry = bench.pmu.counter(0, 0);
    bench.write(0, addr::PERF_CNTR, 1234);
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.shadow(0, 0)), (1234, counter_during_entry));
}

#[test]
fn a_restore_at_a_shadow_write_uses_the_old_shadow() {
    let mut bench = counting_bench(0b01 << addr::RESTORE_ON_EXIT_SHIFT);
    bench.write(0, addr::SHADOW, 100);
    present_kernel(&mut bench, true);
    present_kernel(&mut bench, false);
    bench.write(0, addr::SHADOW, 9);
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.shadow(0, 0)), (101, 9), "old SHADOW + the exit cycle's event");
}

#[test]
fn a_restore_overflows_from_shadow_plus_increment() {
    let mut bench = counting_bench(0b11 << addr::RESTORE_ON_EXIT_SHIFT);
    bench.write(0, addr::SHADOW, CW_MAX);
    bench.write(0, addr::SHADOW + 1, 3);
    bench.write(0, addr::PERF_CNTR + 1, CW_MAX - 2);
    present_kernel(&mut bench, true);
    present_kernel(&mut bench, false);
    assert_eq!(bench.pmu.counter(0, 1), CW_MAX, "counter 1 near overflow during the exit cycle");
    bench.tick();
    assert_eq!([bench.pmu.counter(0, 0), bench.pmu.counter(0, 1)], [0, 4]);
    assert_eq!(bench.pmu.global_status(0), 0b01, "counter 1's own sum would have overflowed; its restore does not");
}

#[test]
fn a_counter_write_wins_over_a_restore() {
    let mut bench = counting_bench(0b01 << addr::RESTORE_ON_EXIT_SHIFT);
    bench.write(0, addr::SHADOW, CW_MAX);
    present_kernel(&mut bench, true);
    present_kernel(&mut bench, false);
    bench.write(0, addr::PERF_CNTR, 7);
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.global_status(0)), (7, 0));
}

#[test]
fn an_evtsel_write_at_an_edge_detected_condition_acts_from_the_next_cycle() {
    let mut bench = counting_bench(0);
    let config = bench.pmu.config().clone();
    let event = event_index(&config, "CPU_CLK_UNHALTED");
    let counting = evtsel::USR | evtsel::OS | evtsel::EN;
    let edge = select(&config, "CPU_CLK_UNHALTED", counting | evtsel::E);
    // E set while the condition holds: the edge of the write still adds 1 (old select);
    // prev already holds the condition, so nothing more counts.
    let before = bench.pmu.counter(0, 0);
    bench.write(0, addr::PERF_EVTSEL, edge);
    for _ in 0..3 {
        bench.tick();
    }
    assert_eq!(bench.pmu.counter(0, 0), before + 1);
    // The condition drops and begins again: the beginning counts once, and an EN clear
    // written at that edge acts only from the next cycle.
    bench.clear_events();
    bench.tick();
    bench.set_event(event, 0, 1);
    bench.tick();
    bench.write(0, addr::PERF_EVTSEL, edge & !evtsel::EN);
    assert_eq!(bench.pmu.counter(0, 0), before + 2);
    bench.tick();
    // Enabled again with the event still held: prev took 0 while disabled.
    bench.write(0, addr::PERF_EVTSEL, edge);
    bench.tick();
    bench.tick();
    assert_eq!(bench.pmu.counter(0, 0), before + 3);
}
