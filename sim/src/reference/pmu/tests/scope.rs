//! §4.1-§4.2: ANY sums a thread-scope event over all threads (with the counting
//! thread's mode, §9), every thread that selects a core-scope event counts all of it
//! (ANY has no effect), and an encoding that names no event counts nothing.
use super::super::{addr, evtsel};
use super::{custom_config, event_index, knc_config, select, Bench};

const EVERY_MODE: u64 = evtsel::USR | evtsel::OS | evtsel::EN;

#[test]
fn any_sums_the_event_over_all_threads_in_the_counting_threads_mode() {
    let config = custom_config(4, 2, 32);
    let wide = event_index(&config, "WIDE");
    let mut bench = Bench::new(config.clone());
    // Thread 0 counts in user mode only; thread 1 too but runs in the kernel; thread 2
    // counts cycles whose sum over threads reaches 5.
    let user_only = evtsel::USR | evtsel::EN;
    bench.write(0, addr::PERF_EVTSEL, select(&config, "WIDE", user_only | evtsel::ANY));
    bench.write(0, addr::PERF_EVTSEL + 1, select(&config, "WIDE", user_only));
    bench.write(1, addr::PERF_EVTSEL, select(&config, "WIDE", user_only | evtsel::ANY));
    bench.write(2, addr::PERF_EVTSEL, select(&config, "WIDE", EVERY_MODE | evtsel::ANY | 5 << evtsel::CMASK_SHIFT));
    for thread in 0..4 {
        bench.write(thread, addr::PERF_GLOBAL_CTRL, 0b11);
    }
    for thread in 1..4 {
        bench.set_kernel(thread, true);
    }
    for fields in [[1, 2, 3, 0], [3, 3, 3, 3], [0, 0, 0, 4]] {
        for (thread, value) in fields.into_iter().enumerate() {
            bench.set_event(wide, thread, value);
        }
        bench.tick();
    }
    bench.clear_events();
    bench.tick();
    let counters = |bench: &Bench| [(0, 0), (0, 1), (1, 0), (2, 0)].map(|(t, i)| bench.pmu.counter(t, i));
    // 4 in a 2-bit field is dropped by the port: thread 3's last field reads 0.
    assert_eq!(counters(&bench), [6 + 12, 1 + 3, 0, 2]);
}

#[test]
fn every_thread_selecting_a_core_event_counts_all_of_it() {
    let config = custom_config(3, 2, 16);
    let (l2, burst) = (event_index(&config, "L2"), event_index(&config, "BURST"));
    let mut bench = Bench::new(config.clone());
    for thread in 0..3 {
        let any = if thread == 1 { evtsel::ANY } else { 0 };
        bench.write(thread, addr::PERF_EVTSEL, select(&config, "L2", EVERY_MODE | any));
        bench.write(thread, addr::PERF_EVTSEL + 1, select(&config, "BURST", EVERY_MODE | any));
        bench.write(thread, addr::PERF_GLOBAL_CTRL, 0b11);
    }
    bench.set_kernel(2, true);
    for (l2_count, burst_count) in [(1, 5), (0, 7), (1, 0), (1, 2)] {
        bench.set_event(l2, 0, l2_count);
        bench.set_event(burst, 0, burst_count);
        bench.tick();
    }
    bench.clear_events();
    bench.tick();
    for thread in 0..3 {
        assert_eq!([bench.pmu.counter(thread, 0), bench.pmu.counter(thread, 1)], [3, 14], "thread {thread}");
    }
}

#[test]
fn an_encoding_that_names_no_event_counts_nothing() {
    let config = knc_config(1, 3, 40);
    let instructions = event_index(&config, "INSTRUCTIONS_EXECUTED");
    let mut bench = Bench::new(config.clone());
    let below_one = EVERY_MODE | evtsel::INV | 1 << evtsel::CMASK_SHIFT;
    // 0x05/0x00 is in no table row; 0x16/0x10 has INSTRUCTIONS_EXECUTED's code with the
    // CRI unit mask; counter 2 is the same INV select on a real event, for contrast.
    bench.write(0, addr::PERF_EVTSEL, 0x05 | below_one);
    bench.write(0, addr::PERF_EVTSEL + 1, 0x16 | 0x10 << evtsel::UMASK_SHIFT | EVERY_MODE);
    bench.write(0, addr::PERF_EVTSEL + 2, select(&config, "DATA_PAGE_WALK", below_one));
    bench.write(0, addr::PERF_GLOBAL_CTRL, 0b111);
    bench.set_event(instructions, 0, 2);
    for _ in 0..6 {
        bench.tick();
    }
    assert_eq!([0, 1, 2].map(|i| bench.pmu.counter(0, i)), [0, 0, 6]);
}
