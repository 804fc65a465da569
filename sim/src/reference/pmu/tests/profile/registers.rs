//! docs/pmu.md §15.1 through the PMU's register port: PROFILE_CTRL (0x43) and
//! PROFILE_EVICTED (0x44) exist only with a table, shared by all banks, ring 0 only;
//! PMU_ID[46:42] = log2 E; the table clears after power-on before a flush walks; a
//! PROFILE_CTRL write that changes SUMMARIZE makes the next record carry NEW_PROCESS, as
//! a TRACE_CTRL write does; summed blocks leave as summary records.
use super::super::super::addr::{self, trace_ctrl};
use super::super::trace::{counting_bench, present, traced};
use super::super::{knc_config, Bench};
use super::{summary, FLUSH, SUMMARIZE};
use crate::ports::pmu::PmuConfig;

/// T threads, K counters, CW bits, the §2.4 table, a table of `entries` entries.
fn with_table(threads: usize, counters: usize, counter_width: usize, entries: usize) -> PmuConfig {
    PmuConfig { profile_entries: entries, ..knc_config(threads, counters, counter_width) }
}

/// One cycle accessing `address` of bank 1 at `ring0`: (rdata, fault) after it.
fn access(bench: &mut Bench, address: u8, ring0: bool, read: bool) -> (u64, bool) {
    let outputs = bench.cycle_with(|inputs| {
        inputs.reg_thread = 1;
        inputs.reg_priv = ring0;
        inputs.reg_addr = address;
        inputs.reg_read = read;
        inputs.reg_write = !read;
        inputs.reg_wdata = SUMMARIZE;
    });
    (outputs.reg_rdata, outputs.reg_fault)
}

#[test]
fn profile_registers_exist_only_with_a_table_shared_by_the_banks_ring_0_only() {
    let mut bench = Bench::new(knc_config(2, 1, 40));
    for address in [addr::PROFILE_CTRL, addr::PROFILE_EVICTED] {
        for read in [true, false] {
            assert_eq!(access(&mut bench, address, true, read), (0, true), "{address:#04x} without a table");
        }
    }
    let mut bench = Bench::new(with_table(4, 1, 40, 16));
    bench.write(1, addr::PROFILE_CTRL, !FLUSH); // cycle 1: only SUMMARIZE is kept
    for thread in 0..4 {
        assert_eq!(bench.read(thread, addr::PROFILE_CTRL), SUMMARIZE, "bank {thread}");
        // cycles 2..5
    }
    bench.write(3, addr::PROFILE_CTRL, FLUSH); // cycle 6: SUMMARIZE = 0, a flush starts
    let mut flushing = 0;
    while bench.read(2, addr::PROFILE_CTRL) == FLUSH {
        flushing += 1;
    }
    // Power-on clears in cycles 1..16; cycle 17 starts the walk; 18..33 walk the empty table.
    assert_eq!(flushing, 27, "FLUSH reads 1 in cycles 7..33");
    bench.write(0, addr::PROFILE_EVICTED, u64::MAX);
    assert_eq!(bench.read(3, addr::PROFILE_EVICTED), 0);
    bench.write(0, addr::PROFILE_CTRL, SUMMARIZE | FLUSH);
    bench.cycle_with(|inputs| inputs.reset = true);
    assert_eq!(bench.read(0, addr::PROFILE_CTRL), 0, "reset ends the flush and clears SUMMARIZE");
    for address in [addr::PROFILE_CTRL, addr::PROFILE_EVICTED] {
        for read in [true, false] {
            assert_eq!(access(&mut bench, address, false, read), (0, true), "{address:#04x} in ring 3");
        }
    }
    assert_eq!(bench.read(1, addr::PROFILE_CTRL), 0, "the ring-3 write changed nothing");
}

#[test]
fn pmu_id_holds_log2_e() {
    let id = |entries: usize| Bench::new(with_table(2, 2, 40, entries)).read(1, addr::PMU_ID);
    let without = id(0);
    assert_eq!(without >> 42 & 0x1F, 0);
    for (entries, log2) in [(16, 4), (256, 8), (4096, 12)] {
        assert_eq!(id(entries), without | log2 << 42, "E = {entries}");
    }
}

/// A block end of thread 0 at `address` with pid 5, acting at the edge after it.
fn block(bench: &mut Bench, address: u64) {
    present(bench, 0, address, 5);
    bench.tick();
}

#[test]
fn a_profile_ctrl_write_that_changes_summarize_makes_the_next_record_a_new_process() {
    let mut bench = counting_bench(with_table(1, 1, 40, 16));
    bench.pmu.log_trace_records();
    bench.write(0, addr::TRACE_CTRL, trace_ctrl::TRACE_EN);
    block(&mut bench, 0x10); // the first block end after the TRACE_CTRL write: NEW_PROCESS
    block(&mut bench, 0x20);
    bench.write(0, addr::PROFILE_CTRL, 0); // SUMMARIZE unchanged
    block(&mut bench, 0x30);
    bench.write(0, addr::PROFILE_CTRL, SUMMARIZE); // changed
    block(&mut bench, 0x40);
    bench.write(0, addr::PROFILE_CTRL, SUMMARIZE | FLUSH); // unchanged
    block(&mut bench, 0x50);
    // A block end at the edge of a changing write: the old memory (pid 5, no NEW_PROCESS),
    // then forgotten.
    present(&mut bench, 0, 0x60, 5);
    bench.write(0, addr::PROFILE_CTRL, 0);
    block(&mut bench, 0x70);
    let new_process: Vec<(u64, bool)> =
        bench.pmu.take_trace_records().iter().map(|(words, _)| (words[0] & 0xFFFF, words[0] >> 63 == 1)).collect();
    let expected =
        [(0x10, true), (0x20, false), (0x30, false), (0x40, true), (0x50, false), (0x60, false), (0x70, true)];
    assert_eq!(new_process, expected);
}

#[test]
fn summed_blocks_leave_as_summary_records_and_evictions_count_in_profile_evicted() {
    let mut bench = counting_bench(with_table(2, 2, 40, 16));
    bench.pmu.log_trace_records();
    bench.write(0, addr::PROFILE_CTRL, SUMMARIZE);
    bench.write(0, addr::TRACE_CTRL, trace_ctrl::TRACE_EN | traced(1));
    // 0x100 and 0x010 share entry 8 (§15.2): the third and fourth blocks evict.
    for address in [0x100, 0x100, 0x010, 0x100] {
        present(&mut bench, 1, address, 5);
        for _ in 0..12 {
            bench.tick();
        }
    }
    assert_eq!(bench.read(1, addr::PROFILE_EVICTED), 2);
    bench.write(0, addr::PROFILE_CTRL, SUMMARIZE | FLUSH);
    while bench.read(0, addr::PROFILE_CTRL) & FLUSH != 0 {}
    let records = bench.pmu.take_trace_records();
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|(_, dropped)| !dropped));
    // V_0 and V_1 of record r: its last two words.
    let values = |r: usize| &records[r].0[records[r].0.len() - 2..];
    let (v0, v1, v2, v3) = (values(0), values(1), values(2), values(3));
    let expected = vec![
        summary(1, 5, 0x100, 2, &[v0[0] + v1[0], v0[1] + v1[1]]),
        summary(1, 5, 0x010, 1, v2),
        summary(1, 5, 0x100, 1, v3),
    ];
    assert_eq!(bench.sent_records(), expected, "two evictions in order, then the flush; nothing else");
}
