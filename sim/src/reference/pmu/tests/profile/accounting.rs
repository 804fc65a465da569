//! docs/pmu.md §15.5 under random stimulus (the seed is printed): block ends of two
//! threads at random addresses and pids, PID_FILTER, stalls of trace_ready, counters
//! written near 2^CW (CW = 16, so that sums meet the no-wrap rule), flushes and SUMMARIZE
//! toggled, at E = 16 (evictions are frequent) and D = 2 or 4 (records are dropped).
//! Every record made (the model's record log) is counted exactly once: TRACE_DROPPED is
//! the number dropped, and the stream's §13 records plus its summary records, merged,
//! give the per-block totals of the records not dropped. SUMMARIZE is toggled either as
//! §15.6 advises (TRACE_EN cleared, the queue empty), and then every key matches, pid
//! included, and the §13 records are exactly the passed ones; or at any time, and then
//! the totals per (thread, address) match.
use super::super::super::addr;
use super::driver::{Driver, ADDRESS_WIDTH};
use super::stream::{add, add_record, add_summary, is_summary, Totals};
use std::collections::BTreeMap;

/// Totals per (thread, address), the pids merged.
fn by_block(totals: &Totals) -> BTreeMap<(u64, u64), (u64, Vec<u128>)> {
    let mut merged = Totals::new();
    for (&(thread, _, address), (executions, sums)) in totals {
        add(&mut merged, (thread, 0, address), *executions, sums.iter().copied());
    }
    merged.into_iter().map(|((thread, _, address), totals)| ((thread, address), totals)).collect()
}

/// One run; returns (records dropped, summary records, evictions, records passed).
fn run(seed: u64, depth: usize, safe: bool) -> [u64; 4] {
    let mut driver = Driver::new(seed, depth, safe);
    for _ in 0..15_000 {
        driver.cycle();
    }
    driver.finish();
    let evicted = driver.bench.read(0, addr::PROFILE_EVICTED);
    let mut stream = Totals::new();
    let (mut passed_sent, mut summaries, mut stream_pid) = (vec![], 0, 0);
    for record in driver.bench.sent_records() {
        if is_summary(&record) {
            summaries += 1;
            assert!(record[2..].iter().all(|&sum| sum >> 16 == 0), "seed {seed}: a sum wider than CW");
            add_summary(&mut stream, &record, ADDRESS_WIDTH);
        } else {
            add_record(&mut stream, &record, &mut stream_pid, ADDRESS_WIDTH);
            passed_sent.push(record);
        }
    }
    // The pid of a record: the last NEW_PROCESS among the records summed before it (the
    // table's current pid), or among those passed before it (a reader's).
    let mut expected = Totals::new();
    let (mut passed_made, mut dropped, mut summed_pid, mut passed_pid) = (vec![], 0, 0, 0);
    for (words, was_dropped, summed) in &driver.made {
        if *was_dropped {
            dropped += 1;
        } else if *summed {
            add_record(&mut expected, words, &mut summed_pid, ADDRESS_WIDTH);
        } else {
            add_record(&mut expected, words, &mut passed_pid, ADDRESS_WIDTH);
            passed_made.push(words.clone());
        }
    }
    assert_eq!(driver.bench.pmu.trace_dropped(), dropped, "seed {seed}: TRACE_DROPPED");
    assert_eq!(by_block(&stream), by_block(&expected), "seed {seed}, D = {depth}, safe = {safe}");
    if safe {
        assert!(passed_sent == passed_made, "seed {seed}, D = {depth}: the §13 records are the passed ones");
        assert!(stream == expected, "seed {seed}, D = {depth}: totals per (thread, pid, address)");
    }
    [dropped, summaries, evicted, passed_sent.len() as u64]
}

#[test]
fn every_record_made_is_dropped_passed_or_summed_exactly_once() {
    let seed: u64 = rand::random();
    println!("seed {seed}");
    let mut seen = [0; 4];
    for (run_index, (depth, safe)) in [(2, true), (4, true), (2, false), (4, false)].into_iter().enumerate() {
        let counts = run(seed.wrapping_add(run_index as u64), depth, safe);
        seen.iter_mut().zip(counts).for_each(|(total, count)| *total += count);
    }
    println!("dropped, summary records, evictions, passed: {seen:?}");
    let [dropped, summaries, evicted, passed] = seen;
    assert!(dropped > 0 && summaries > evicted && evicted > 0 && passed > 0, "seed {seed}: {seen:?}");
}
