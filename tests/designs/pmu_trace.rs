//! Counter-level tracing (docs/pmu.md §13) on scripted programs, reference, native and
//! Verilator in lockstep: seed 004's flow (a traced process among others, blocks of known
//! lengths, an unmarked interrupt handler), the queue's drop rule and TRACE_DROPPED, and
//! the same-edge corners of §7. Every captured stream is decoded with `pmugen::trace`.

use crate::common::pmu::{addr, evtsel, PmuBench};
use pmugen::trace::{decode, totals, Record, TraceFormat, Word};
use pmugen_hdl::pmu::params::PmuParams;

const EN: u64 = 1;
const PID_FILTER: u64 = 2;

/// A bench with tracing on thread `traced`, counter 0 counting INSTRUCTIONS_EXECUTED
/// and counter 1 CPU_CLK_UNHALTED in both rings, FREEZE_UNMARKED on.
struct Program {
    bench: PmuBench,
    format: TraceFormat,
    traced: usize,
}

impl Program {
    fn new(threads: usize, depth: u64, traced: usize) -> Self {
        let params = PmuParams::with_default_table(threads, 2, 40).with_trace(depth, 32).unwrap();
        let mut bench = PmuBench::new(params);
        let format = TraceFormat { threads, counters: 2, counter_width: 40, address_width: 32 };
        bench.reset();
        bench.inputs.trace_ready = true;
        bench.inputs.pm_mark = 0xF;
        let t = traced as u8;
        let modes = evtsel::USR | evtsel::OS | evtsel::EN;
        let (instructions, clocks) =
            (bench.select("INSTRUCTIONS_EXECUTED", modes), bench.select("CPU_CLK_UNHALTED", modes));
        bench.program(t, 0, instructions);
        bench.program(t, 1, clocks);
        bench.write(t, addr::FREEZE_CTRL, 1);
        Self { bench, format, traced }
    }

    /// One cycle of the traced thread: `instructions` executed, marked or not, ending a
    /// block at `block_end`.
    fn cycle(&mut self, pid: u32, instructions: u64, marked: bool, block_end: Option<u64>) {
        let t = self.traced;
        self.bench.set_event("INSTRUCTIONS_EXECUTED", t, instructions);
        self.bench.set_event("CPU_CLK_UNHALTED", t, 1);
        self.bench.set_mark(t, marked);
        self.bench.inputs.pid[t] = pid;
        self.bench.inputs.bb_end = (block_end.is_some() as u8) << t;
        self.bench.inputs.bb_addr[t] = block_end.unwrap_or(0xDEAD);
        self.bench.step();
        self.bench.inputs.bb_end = 0;
    }

    /// A block of `length` cycles at `address` (its instructions 1, 2, 0, 1, 2, 0, ...),
    /// with a handler of `handler` unmarked cycles in its middle; returns the block's
    /// counts as the traced process sees them (instructions, clocks).
    fn block(&mut self, pid: u32, address: u64, length: usize, handler: usize) -> (u64, u64) {
        let mut expected = (0, 0);
        for n in 0..length {
            if n == length / 2 {
                for _ in 0..handler {
                    self.cycle(pid, 2, false, None); // the handler's events must not count
                }
            }
            let instructions = [1, 2, 0][n % 3];
            expected = (expected.0 + instructions, expected.1 + 1);
            self.cycle(pid, instructions, true, (n + 1 == length).then_some(address));
        }
        expected
    }

    /// Idle cycles (no events) until the stream is empty, then the decoded records.
    fn drain(&mut self) -> Vec<Record> {
        self.bench.clear_events();
        for _ in 0..400 {
            self.bench.step();
        }
        assert!(!self.bench.out.trace_valid, "the stream drains");
        let words: Vec<Word> =
            self.bench.trace_words.iter().map(|&(data, last)| Word { data, last: Some(last) }).collect();
        decode(&words, &self.format).unwrap_or_else(|e| panic!("{e}; words {words:x?}"))
    }
}

#[test]
fn the_patents_flow_traces_process_a_per_block_without_its_interrupt_handler() {
    let mut p = Program::new(4, 256, 1);
    let (a, b) = (0xA, 0xB);
    p.bench.write(0, addr::TRACE_PID, a as u64);
    p.bench.write(0, addr::TRACE_CTRL, EN | PID_FILTER | 1 << 4);
    // A runs blocks 0x1000, 0x1040 (with a 5-cycle interrupt handler), 0x1000; then B
    // (not traced); then A again: a process change must show at A's return.
    let script: [(u32, u64, usize, usize); 6] = [
        (a, 0x1000, 7, 0),
        (a, 0x1040, 12, 5),
        (a, 0x1000, 7, 0),
        (b, 0x2000, 9, 0),
        (b, 0x2040, 4, 3),
        (a, 0x1040, 12, 0),
    ];
    let mut expected = Vec::new();
    for (pid, address, length, handler) in script {
        let counts = p.block(pid, address, length, handler);
        if pid == a {
            expected.push((address, counts));
        }
    }
    let records = p.drain();
    let seen: Vec<(u64, (u64, u64))> = records.iter().map(|r| (r.address, (r.values[0], r.values[1]))).collect();
    assert_eq!(seen, expected, "A's blocks with their counts; B filtered out; the handler not counted");
    let changes: Vec<Option<u32>> = records.iter().map(|r| r.new_process).collect();
    assert_eq!(changes, [Some(a), None, None, Some(a)], "a process change at the first block and at A's return");
    assert!(records.iter().all(|r| r.thread == 1 && r.process == Some(a)));
    let sums = totals(&records);
    assert_eq!(sums.len(), 2, "two distinct blocks of A");
    assert_eq!(
        (sums[0].address, sums[0].executions, sums[0].totals.clone()),
        (0x1000, 2, vec![2 * expected[0].1 .0 as u128, 14])
    );
    assert_eq!((sums[1].address, sums[1].executions), (0x1040, 2));
}

#[test]
fn without_a_filter_every_process_change_is_recorded() {
    let mut p = Program::new(2, 16, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN);
    let pids = [7u32, 8, 7];
    for (n, pid) in pids.iter().enumerate() {
        p.block(*pid, 0x100 * n as u64, 5, 0);
    }
    let records = p.drain();
    let changes: Vec<Option<u32>> = records.iter().map(|r| r.new_process).collect();
    assert_eq!(changes, [Some(7), Some(8), Some(7)]);
}

#[test]
fn exactly_the_records_beyond_d_are_dropped_and_counted() {
    let depth = 16;
    let mut p = Program::new(1, depth, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN);
    p.bench.inputs.trace_ready = false;
    let made = depth as usize + 5;
    for n in 0..made {
        p.block(1, 0x40 * n as u64, 2, 0);
    }
    p.bench.step(); // the last block end acts one cycle late
    assert_eq!(p.bench.reference().trace_occupancy(), depth as usize, "the queue is full");
    assert_eq!(p.bench.read(0, addr::TRACE_DROPPED), 5, "the 5 records beyond D are dropped and counted");
    p.bench.inputs.trace_ready = true;
    let records = p.drain();
    let addresses: Vec<u64> = records.iter().map(|r| r.address).collect();
    assert_eq!(addresses, (0..depth).map(|n| 0x40 * n).collect::<Vec<_>>(), "the first D records, whole and in order");

    // Full again; a TRACE_DROPPED write at the edge of a drop: the drop then counts 1.
    p.bench.inputs.trace_ready = false;
    for n in 0..depth {
        p.block(1, n, 2, 0);
    }
    p.cycle(1, 0, true, None);
    p.bench.set_event("INSTRUCTIONS_EXECUTED", 0, 0);
    p.bench.inputs.bb_end = 1;
    p.bench.step(); // the block end is seen at the next edge (one cycle late) ...
    p.bench.inputs.bb_end = 0;
    p.bench.write(0, addr::TRACE_DROPPED, 0); // ... where the write clears the counter
    assert_eq!(p.bench.read(0, addr::TRACE_DROPPED), 1, "cleared at the edge of a drop: counts 1");
}

#[test]
fn a_block_end_at_a_counter_write_records_the_value_without_the_write() {
    let mut p = Program::new(1, 16, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN);
    p.block(1, 0x10, 4, 0); // 1 + 2 + 0 + 1 = 4 instructions
    p.cycle(1, 2, true, None);
    p.cycle(1, 1, true, Some(0x20)); // block end seen at the next edge, with a counter write
    p.bench.set_event("INSTRUCTIONS_EXECUTED", 0, 0);
    p.bench.write(0, addr::PERF_CNTR, 1000);
    assert_eq!(p.bench.counter(0, 0), 1000, "the write wins over the restart");
    let records = p.drain();
    assert_eq!(records[1].values[0], 3, "V is the counter's value without the write: 2 + 1");
}

#[test]
fn a_block_end_at_a_shadow_restore_records_shadow_plus_the_increment() {
    let mut p = Program::new(1, 16, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN);
    p.bench.write(0, addr::SHADOW_CTRL, 1 << 8); // RESTORE_ON_EXIT for counter 0
    p.bench.write(0, addr::SHADOW, 500);
    p.bench.set_kernel(0, true);
    p.block(1, 0x10, 3, 0); // in the kernel: 1 + 2 + 0
    p.bench.set_kernel(0, false); // exit in the block's last cycle, with a block end
    p.cycle(1, 2, true, Some(0x20));
    p.bench.set_event("INSTRUCTIONS_EXECUTED", 0, 0);
    p.bench.step();
    assert_eq!(p.bench.counter(0, 0), 0, "the restart wins over the restore");
    let records = p.drain();
    assert_eq!(records[0].values[0], 3);
    assert_eq!(records[1].values[0], 502, "V = SHADOW + inc on a restore");
}

#[test]
fn a_block_end_at_a_trace_ctrl_write_uses_the_old_control_and_forgets_the_pid() {
    let mut p = Program::new(2, 16, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN);
    p.block(3, 0x10, 3, 0);
    p.cycle(3, 1, true, Some(0x20)); // seen at the next edge, where TRACE_CTRL is rewritten
    p.bench.write(0, addr::TRACE_CTRL, EN);
    p.block(3, 0x30, 3, 0);
    let records = p.drain();
    let changes: Vec<Option<u32>> = records.iter().map(|r| r.new_process).collect();
    assert_eq!(
        changes,
        [Some(3), None, Some(3)],
        "the block end at the write is recorded; the next one has no previous"
    );
}

#[test]
fn block_ends_of_an_untraced_thread_neither_restart_nor_record() {
    let mut p = Program::new(2, 16, 0);
    p.bench.write(0, addr::TRACE_CTRL, EN | 1 << 4); // trace thread 1
    p.block(1, 0x10, 6, 0); // thread 0's block ends
    assert_eq!(p.bench.counter(0, 0), 6, "thread 0's counters were not restarted");
    assert!(p.drain().is_empty(), "no records");
}
