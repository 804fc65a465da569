//! §13: counter-level tracing, cycle by cycle with hand-computed values. In
//! every thread, counter 0 counts CPU_CLK_UNHALTED (1 per cycle) and counter 1
//! INSTRUCTIONS_EXECUTED (2 per cycle), held from the start, in every mode. Inputs act
//! one cycle late (§4): a block end presented in the cycle of step n acts at edge n+1,
//! whose step returns the outputs of cycle n+2. Comments name edges relative to the
//! first counter write of the test ("edge a"); "c0, c1" are the counters after an edge.
//! Record words are written out from §13.5: word 0 = [63] NEW_PROCESS, [62:61] thread,
//! [AW-1:0] address; the pid word if NEW_PROCESS; then V_0 .. V_{K-1}.
use super::super::addr::{self, trace_ctrl};
use super::super::evtsel;
use super::{event_index, knc_config, select, Bench};
use crate::ports::pmu::{PmuConfig, PmuInputs, PmuOutputs};

const EN: u64 = trace_ctrl::TRACE_EN;
const PID_FILTER: u64 = trace_ctrl::PID_FILTER;

/// TRACE_CTRL.THREAD = `thread`.
pub(super) fn traced(thread: u64) -> u64 {
    thread << 4
}

/// Word 0 of a record.
pub(super) fn head(new_process: bool, thread: u64, address: u64) -> u64 {
    (new_process as u64) << 63 | thread << 61 | address
}

/// A PMU of `config` whose counters 0 and 1 count in every thread; trace_ready = 1.
pub(super) fn counting_bench(config: PmuConfig) -> Bench {
    let mut bench = Bench::new(config);
    start_counting(&mut bench);
    bench
}

/// Program counters 0 and 1 of every thread, hold their events and trace_ready = 1.
pub(super) fn start_counting(bench: &mut Bench) {
    let config = bench.pmu.config().clone();
    let every_mode = evtsel::USR | evtsel::OS | evtsel::EN;
    let clock = event_index(&config, "CPU_CLK_UNHALTED");
    let instructions = event_index(&config, "INSTRUCTIONS_EXECUTED");
    for thread in 0..config.threads {
        bench.write(thread, addr::PERF_EVTSEL, select(&config, "CPU_CLK_UNHALTED", every_mode));
        if config.counters > 1 {
            bench.write(thread, addr::PERF_EVTSEL + 1, select(&config, "INSTRUCTIONS_EXECUTED", every_mode));
        }
        bench.write(thread, addr::PERF_GLOBAL_CTRL, 0b11);
        bench.set_event(clock, thread, 1);
        bench.set_event(instructions, thread, 2);
    }
    bench.inputs.trace_ready = true;
    bench.tick();
}

/// A bench with D = `depth`.
fn deep_bench(threads: usize, counters: usize, depth: usize) -> Bench {
    let mut config = knc_config(threads, counters, 40);
    config.trace_depth = depth;
    counting_bench(config)
}

/// Present `pid` and a block end of `thread` at `address` in the cycle `step` runs (it
/// acts at the next edge); pid stays held afterwards, bb_end does not.
pub(super) fn with_block_end<R>(
    bench: &mut Bench,
    thread: usize,
    address: u64,
    pid: u32,
    step: impl FnOnce(&mut Bench) -> R,
) -> R {
    bench.inputs.bb_end |= 1 << thread;
    bench.inputs.bb_addr[thread] = address;
    bench.inputs.pid[thread] = pid;
    let result = step(bench);
    bench.inputs.bb_end = 0;
    result
}

/// One idle cycle presenting a block end of `thread`.
pub(super) fn present(bench: &mut Bench, thread: usize, address: u64, pid: u32) -> PmuOutputs {
    with_block_end(bench, thread, address, pid, Bench::tick)
}

/// The stream word of `outputs` as (data, last), None while not valid (data and last
/// are then 0).
pub(super) fn word(outputs: PmuOutputs) -> Option<(u64, bool)> {
    if outputs.trace_valid {
        Some((outputs.trace_data, outputs.trace_last))
    } else {
        assert_eq!((outputs.trace_data, outputs.trace_last), (0, false), "data and last are 0 while not valid");
        None
    }
}

/// Idle cycles until the queue is empty (at most `cycles`).
pub(super) fn drain(bench: &mut Bench, cycles: usize) {
    for _ in 0..cycles {
        if bench.pmu.trace_occupancy() == 0 {
            return;
        }
        bench.tick();
    }
    panic!("the queue did not empty in {cycles} cycles");
}

#[test]
fn a_record_into_an_empty_queue_is_on_the_stream_the_next_cycle() {
    let mut bench = counting_bench(knc_config(2, 2, 40));
    bench.write(0, addr::TRACE_CTRL, EN | traced(1));
    bench.write(1, addr::PERF_CNTR, 100); // edge a: c0 = 100
    bench.write(1, addr::PERF_CNTR + 1, 200); // a+1: c0 = 101, c1 = 200

    // Cycle a+2 presents the block end (bits of bb_addr above AW = 32 do not exist).
    let outputs = present(&mut bench, 1, 0xABCD_0000_1234_5678, 7); // a+2: 102, 202
    assert_eq!(word(outputs), None);
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (102, 202));
    // Edge a+3: V = (103, 204); both counters of thread 1 restart.
    let outputs = bench.tick();
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (0, 0));
    assert_eq!(word(outputs), Some((head(true, 1, 0x1234_5678), false)), "cycle a+4: word 0");
    assert_eq!(word(bench.tick()), Some((7, false)), "the pid word");
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (1, 2), "counting again from 0");
    assert_eq!(word(bench.tick()), Some((103, false)));
    assert_eq!(word(bench.tick()), Some((204, true)));
    assert_eq!(word(bench.tick()), None);
    assert_eq!(bench.pmu.global_status(1), 0);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 1, 0x1234_5678), 7, 103, 204]]);
}

#[test]
fn records_made_at_consecutive_edges_run_back_to_back() {
    let mut bench = counting_bench(knc_config(2, 2, 40));
    bench.write(0, addr::TRACE_CTRL, EN | traced(1));
    bench.write(1, addr::PERF_CNTR, 10); // a: c0 = 10
    bench.write(1, addr::PERF_CNTR + 1, 20); // a+1: 11, 20
    present(&mut bench, 1, 0x100, 7); // a+2: 12, 22
    let first = present(&mut bench, 1, 0x200, 7); // a+3: record A, V = (13, 24)
    let mut stream = vec![word(first)];
    for _ in 0..8 {
        // a+4: record B, V = (1, 2) after A's restart; then the words move one per cycle.
        stream.push(word(bench.tick()));
    }
    let expected = vec![
        Some((head(true, 1, 0x100), false)),
        Some((7, false)),
        Some((13, false)),
        Some((24, true)),
        Some((head(false, 1, 0x200), false)),
        Some((1, false)),
        Some((2, true)),
        None,
        None,
    ];
    assert_eq!(stream, expected);
}

#[test]
fn backpressure_holds_valid_data_and_last() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.inputs.trace_ready = false;
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 30); // a: c0 = 30
    present(&mut bench, 0, 0x40, 9); // a+1: 31
    let mut stream = vec![word(bench.tick())]; // a+2: record [head, 9, 32]

    // (trace_ready during the cycle, outputs after its edge)
    for ready in [false, false, true, false, true, false, false, true, true] {
        bench.inputs.trace_ready = ready;
        stream.push(word(bench.tick()));
    }
    let word0 = Some((head(true, 0, 0x40), false));
    let pid = Some((9, false));
    let value = Some((32, true));
    assert_eq!(stream, vec![word0, word0, word0, pid, pid, value, value, value, None, None]);
    assert_eq!(bench.pmu.trace_occupancy(), 0);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 0, 0x40), 9, 32]]);
}

#[test]
fn new_process_on_the_first_block_end_on_a_pid_change_and_after_a_trace_ctrl_write() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 0); // a: c0 = 0
                                        // Each step's edge acts on the block end presented by the step before.
    present(&mut bench, 0, 0x10, 5); // a+1: c0 = 1
    present(&mut bench, 0, 0x20, 5); // a+2: 0x10, pid 5, the first block end: V = 2
    present(&mut bench, 0, 0x30, 6); // a+3: 0x20, pid 5 again: V = 1
    present(&mut bench, 0, 0x40, 6); // a+4: 0x30, pid 6: a new process, V = 1
    present(&mut bench, 0, 0x50, 6); // a+5: 0x40, pid 6 again: V = 1
                                     // a+6: 0x50 at the edge of a TRACE_CTRL write: old TRACE_CTRL and the memory from
                                     // before the write (pid 6: no new process), V = 1.
    with_block_end(&mut bench, 0, 0x60, 6, |bench| bench.write(0, addr::TRACE_CTRL, EN));
    bench.tick(); // a+7: 0x60, the first block end after the write: a new process, V = 1
    drain(&mut bench, 20);
    let records = vec![
        vec![head(true, 0, 0x10), 5, 2],
        vec![head(false, 0, 0x20), 1],
        vec![head(true, 0, 0x30), 6, 1],
        vec![head(false, 0, 0x40), 1],
        vec![head(false, 0, 0x50), 1],
        vec![head(true, 0, 0x60), 6, 1],
    ];
    assert_eq!(bench.sent_records(), records);
}

#[test]
fn pid_filter_decides_the_record_but_every_block_end_restarts_and_counts_as_previous() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.write(0, addr::TRACE_PID, 5);
    bench.write(0, addr::TRACE_CTRL, EN | PID_FILTER);
    bench.write(0, addr::PERF_CNTR, 0); // a: c0 = 0
                                        // Each step's edge acts on the block end presented by the step before.
    present(&mut bench, 0, 0x10, 3); // a+1: c0 = 1
    present(&mut bench, 0, 0x20, 5); // a+2: 0x10, pid 3: filtered out, but restarted
    assert_eq!(bench.pmu.counter(0, 0), 0);
    assert_eq!(bench.pmu.trace_occupancy(), 0);
    bench.tick(); // a+3: 0x20, pid 5: recorded, a new process (3 before), V = 1
    present(&mut bench, 0, 0x30, 3); // a+4: c0 = 1
    present(&mut bench, 0, 0x40, 5); // a+5: 0x30, pid 3: filtered out, restart
    present(&mut bench, 0, 0x50, 5); // a+6: 0x40, pid 5: a new process (3 before), V = 1
    present(&mut bench, 0, 0x60, 5); // a+7: 0x50, pid 5 again: V = 1
                                     // a+8: 0x60 at the edge of a TRACE_PID write: the old TRACE_PID (5) decides, V = 1.
    bench.write(0, addr::TRACE_PID, 3);
    present(&mut bench, 0, 0x70, 5); // a+9: c0 = 1
    bench.tick(); // a+10: 0x70, pid 5 is not TRACE_PID 3 any more: filtered out, restart
    assert_eq!(bench.pmu.counter(0, 0), 0);
    drain(&mut bench, 20);
    let records = vec![
        vec![head(true, 0, 0x20), 5, 1],
        vec![head(true, 0, 0x40), 5, 1],
        vec![head(false, 0, 0x50), 1],
        vec![head(false, 0, 0x60), 1],
    ];
    assert_eq!(bench.sent_records(), records);
}

#[test]
fn a_block_end_at_a_counter_write_records_v_without_the_write_and_keeps_the_overflow() {
    let mut bench = counting_bench(knc_config(2, 2, 16));
    bench.write(0, addr::TRACE_CTRL, EN | traced(1));
    bench.write(1, addr::PERF_CNTR + 1, 0xFFFC); // a: c1 = 0xFFFC
    with_block_end(&mut bench, 1, 0x77, 4, |bench| bench.write(1, addr::PERF_CNTR, 0xFFF0)); // a+1: 0xFFF0, 0xFFFE
                                                                                             // a+2: block end and a write of counter 0. V = (0xFFF1, 0x10000 mod 2^16 = 0).
                                                                                             // Counter 0 takes the written value (write > restart); counter 1 restarts to 0 but
                                                                                             // its sum overflowed: the status bit is set all the same.
    bench.write(1, addr::PERF_CNTR, 500);
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (500, 0));
    assert_eq!(bench.pmu.global_status(1), 0b10);
    bench.tick();
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (501, 2));
    drain(&mut bench, 20);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 1, 0x77), 4, 0xFFF1, 0]]);
}

#[test]
fn a_block_end_at_a_shadow_restore_records_shadow_plus_inc_and_restarts() {
    let mut bench = counting_bench(knc_config(2, 2, 40));
    bench.write(1, addr::SHADOW_CTRL, 1 << addr::RESTORE_ON_EXIT_SHIFT);
    bench.write(1, addr::SHADOW, 1000);
    bench.write(0, addr::TRACE_CTRL, EN | traced(1));
    bench.write(1, addr::PERF_CNTR + 1, 50); // a: c1 = 50
    bench.set_kernel(1, true);
    bench.tick(); // a+1: 52
    bench.tick(); // a+2: kernel entry (no save), 54
    bench.set_kernel(1, false);
    present(&mut bench, 1, 0x88, 2); // a+3: 56
                                     // a+4: kernel exit with restore, block end, and a SHADOW write (the restore uses
                                     // the old SHADOW): V = (1000 + 1, 56 + 2); both counters restart.
    bench.write(1, addr::SHADOW, 7);
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1), bench.pmu.shadow(1, 0)), (0, 0, 7));
    bench.tick();
    assert_eq!((bench.pmu.counter(1, 0), bench.pmu.counter(1, 1)), (1, 2));
    drain(&mut bench, 20);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 1, 0x88), 2, 1001, 58]]);
}

#[test]
fn a_block_end_at_a_shadow_save_saves_the_counter_of_the_cycle() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.write(0, addr::SHADOW_CTRL, 1);
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 20); // a: c0 = 20
    bench.set_kernel(0, true);
    present(&mut bench, 0, 0x90, 1); // a+1: 21
    bench.tick(); // a+2: kernel entry with save and block end: V = 22, SHADOW = 21, c0 = 0
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.shadow(0, 0)), (0, 21));
    drain(&mut bench, 10);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 0, 0x90), 1, 22]]);
}

#[test]
fn with_trace_ready_low_exactly_the_records_beyond_d_are_dropped_and_counted() {
    let mut bench = deep_bench(1, 2, 4);
    bench.inputs.trace_ready = false;
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 0); // a: c0 = 0
    bench.write(0, addr::PERF_CNTR + 1, 0); // a+1: 1, 0
    for block in 1..=7 {
        present(&mut bench, 0, block << 8, 1); // a+1+block: block end block-1 (from block 2)
    }
    let outputs = bench.tick(); // a+9: block end 7
    assert_eq!(word(outputs), Some((head(true, 0, 0x100), false)), "word 0 of the first record, held");
    assert_eq!((bench.pmu.trace_occupancy(), bench.pmu.trace_dropped()), (4, 3));
    assert_eq!(bench.read(0, addr::TRACE_DROPPED), 3);
    // A write of TRACE_DROPPED at the edge of a drop: cleared, then that drop counts 1.
    present(&mut bench, 0, 0x800, 1);
    bench.write(0, addr::TRACE_DROPPED, 0xFFFF_FFFF);
    assert_eq!(bench.read(0, addr::TRACE_DROPPED), 1);
    bench.write(0, addr::TRACE_DROPPED, 0);
    assert_eq!(bench.read(0, addr::TRACE_DROPPED), 0);
    bench.inputs.trace_ready = true;
    drain(&mut bench, 20);
    let records = vec![
        vec![head(true, 0, 0x100), 1, 3, 4],
        vec![head(false, 0, 0x200), 1, 2],
        vec![head(false, 0, 0x300), 1, 2],
        vec![head(false, 0, 0x400), 1, 2],
    ];
    assert_eq!(bench.sent_records(), records);
    assert_eq!(bench.pmu.trace_dropped(), 0);
}

#[test]
fn a_record_made_as_the_front_record_leaves_a_full_queue_takes_its_place() {
    let mut bench = deep_bench(1, 1, 2);
    bench.inputs.trace_ready = false;
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 10); // a: c0 = 10
    present(&mut bench, 0, 0x100, 1); // a+1: 11
    present(&mut bench, 0, 0x200, 1); // a+2: record A, V = 12 (3 words)
    present(&mut bench, 0, 0x300, 2); // a+3: record B, V = 1; the queue is full
    bench.tick(); // a+4: block end of 0x300, pid 2: dropped (still restarts and counts as previous)
    assert_eq!((bench.pmu.trace_occupancy(), bench.pmu.trace_dropped()), (2, 1));
    bench.inputs.trace_ready = true;
    assert_eq!(word(bench.tick()), Some((1, false)), "a+5: A's word 0 moved; c0 = 1");
    assert_eq!(word(present(&mut bench, 0, 0x400, 2)), Some((12, true)), "a+6: c0 = 2");
    // a+7: A's last word moves and the block end of 0x400 (V = 3; pid 2 as the dropped
    // one's: no new process) joins the queue.
    assert_eq!(word(bench.tick()), Some((head(false, 0, 0x200), false)));
    assert_eq!((bench.pmu.trace_occupancy(), bench.pmu.trace_dropped()), (2, 1));
    drain(&mut bench, 20);
    let records =
        vec![vec![head(true, 0, 0x100), 1, 12], vec![head(false, 0, 0x200), 1], vec![head(false, 0, 0x400), 3]];
    assert_eq!(bench.sent_records(), records);
}

#[test]
fn trace_ctrl_acts_from_the_next_cycle_and_made_records_are_sent_after_trace_en_is_cleared() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.inputs.trace_ready = false;
    bench.write(0, addr::PERF_CNTR, 0); // a: c0 = 0
    present(&mut bench, 0, 0x100, 1); // a+1: 1
                                      // a+2: the block end of 0x100 sees the old TRACE_CTRL (tracing off): no restart.
    with_block_end(&mut bench, 0, 0x200, 1, |bench| bench.write(0, addr::TRACE_CTRL, EN));
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.trace_occupancy()), (2, 0));
    bench.tick(); // a+3: traced, V = 3
    present(&mut bench, 0, 0x300, 1); // a+4: 1
                                      // a+5: the block end of 0x300 still sees TRACE_EN = 1: recorded, V = 2.
    bench.write(0, addr::TRACE_CTRL, 0);
    assert_eq!(bench.pmu.counter(0, 0), 0);
    present(&mut bench, 0, 0x400, 1); // a+6: 1
    bench.tick(); // a+7: tracing off: neither a record nor a restart
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.trace_occupancy()), (2, 2));
    bench.inputs.trace_ready = true;
    drain(&mut bench, 20);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 0, 0x200), 1, 3], vec![head(false, 0, 0x300), 2]]);
}

#[test]
fn only_block_ends_of_the_traced_thread_below_t_count() {
    let mut bench = counting_bench(knc_config(2, 1, 40));
    bench.write(0, addr::TRACE_CTRL, EN | traced(1));
    bench.write(0, addr::PERF_CNTR, 0); // a: thread 0 = 0
    bench.write(1, addr::PERF_CNTR, 0); // a+1: thread 0 = 1, thread 1 = 0
    present(&mut bench, 0, 0x10, 1); // a+2: 2, 1
    assert_eq!(word(bench.tick()), None, "a+3: thread 0's block end is not traced");
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.counter(1, 0)), (3, 2));
    bench.write(1, addr::TRACE_CTRL, EN | traced(3)); // a+4: 4, 3
    bench.inputs.bb_end = 0b11;
    bench.tick(); // a+5: 5, 4
    bench.inputs.bb_end = 0;
    assert_eq!(word(bench.tick()), None, "a+6: THREAD = 3 >= T: no block end");
    assert_eq!((bench.pmu.counter(0, 0), bench.pmu.counter(1, 0)), (6, 5));
    assert_eq!(bench.read(0, addr::TRACE_CTRL), EN | traced(3), "THREAD reads back as written");
    assert!(bench.sent_records().is_empty());
}

#[test]
fn reset_empties_the_queue_and_forgets_the_previous_block_end() {
    let mut bench = counting_bench(knc_config(1, 1, 40));
    bench.inputs.trace_ready = false;
    bench.write(0, addr::TRACE_CTRL, EN);
    present(&mut bench, 0, 0x10, 4);
    present(&mut bench, 0, 0x20, 4);
    bench.tick();
    assert_eq!(bench.pmu.trace_occupancy(), 2);
    let outputs = bench.cycle_with(|inputs| inputs.reset = true);
    assert_eq!(outputs, PmuOutputs::default());
    assert_eq!((bench.pmu.trace_occupancy(), bench.pmu.trace_ctrl()), (0, 0));
    // Tracing again after reset, same pid: the first block end has no previous one.
    start_counting(&mut bench);
    bench.write(0, addr::TRACE_CTRL, EN);
    bench.write(0, addr::PERF_CNTR, 0); // a: c0 = 0
    present(&mut bench, 0, 0x30, 4); // a+1: 1
    assert_eq!(word(bench.tick()), Some((head(true, 0, 0x30), false)), "a+2: V = 2");
    drain(&mut bench, 10);
    assert_eq!(bench.sent_records(), vec![vec![head(true, 0, 0x30), 4, 2]]);
}

#[test]
fn trace_registers_are_shared_by_the_banks_ring_0_only() {
    let mut bench = Bench::new(knc_config(4, 2, 40));
    bench.write(2, addr::TRACE_CTRL, u64::MAX);
    bench.write(0, addr::TRACE_PID, 0x1_2345_6789);
    for thread in 0..4 {
        assert_eq!(bench.read(thread, addr::TRACE_CTRL), 0x33, "bank {thread}");
        assert_eq!(bench.read(thread, addr::TRACE_PID), 0x2345_6789, "bank {thread}");
        assert_eq!(bench.read(thread, addr::TRACE_DROPPED), 0, "bank {thread}");
    }
    // Ring 3 is denied every access, whatever USER_ACCESS (0x7 here) allows.
    for address in [addr::TRACE_CTRL, addr::TRACE_PID, addr::TRACE_DROPPED] {
        let ring3 = |inputs: &mut PmuInputs, read: bool| {
            inputs.reg_thread = 1;
            inputs.reg_addr = address;
            inputs.reg_read = read;
            inputs.reg_write = !read;
            inputs.reg_wdata = 0;
        };
        let outputs = bench.cycle_with(|inputs| ring3(inputs, true));
        assert_eq!((outputs.reg_rdata, outputs.reg_fault), (0, true), "{address:#04x} read");
        let outputs = bench.cycle_with(|inputs| ring3(inputs, false));
        assert!(outputs.reg_fault, "{address:#04x} write");
    }
    assert_eq!((bench.pmu.trace_ctrl(), bench.read(3, addr::TRACE_PID)), (0x33, 0x2345_6789), "unchanged");
}

#[test]
fn pmu_id_shows_aw_and_log2_d() {
    let cases = [(1, 4, 48, 64, 20, 6), (2, 1, 16, 2, 16, 1), (4, 2, 40, 1024, 48, 10), (3, 3, 64, 256, 32, 8)];
    for (threads, counters, counter_width, depth, address_width, log2_depth) in cases {
        let mut config = knc_config(threads, counters, counter_width);
        config.trace_depth = depth;
        config.address_width = address_width;
        let mut bench = Bench::new(config);
        let thread = threads - 1;
        let expected = 0x504D << 48
            | (thread as u64) << 40
            | log2_depth << 32
            | (address_width as u64) << 24
            | (counter_width as u64) << 16
            | (counters as u64) << 8
            | threads as u64;
        assert_eq!(bench.read(thread, addr::PMU_ID), expected, "D = {depth}, AW = {address_width}");
    }
}

#[test]
fn addresses_keep_aw_bits_and_word_0_sits_below_bit_61() {
    let mut config = knc_config(4, 1, 40);
    config.address_width = 48;
    let mut bench = counting_bench(config);
    bench.write(0, addr::TRACE_CTRL, EN | traced(3));
    bench.write(3, addr::PERF_CNTR, 0); // a: c0 = 0
    present(&mut bench, 3, u64::MAX, 0xFFFF_FFFF); // a+1: 1
    bench.tick(); // a+2: V = 2
    drain(&mut bench, 10);
    let word0 = 1 << 63 | 3 << 61 | 0xFFFF_FFFF_FFFF;
    assert_eq!(bench.sent_records(), vec![vec![word0, 0xFFFF_FFFF, 2]]);
}
