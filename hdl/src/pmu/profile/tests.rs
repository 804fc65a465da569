//! The profile table's tests: its Rust twin against its own Verilog (lockstep), its
//! Verilog's validity, and the block against the reference model's table, which was
//! written from docs/pmu.md §15 alone.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;

use super::table::ProfileTable;
use super::TableShape;
use crate::port_list;
use crate::testing::lockstep::{random_input, Lockstep};
use crate::testing::ports::{Port, Ports};
use crate::testing::{apply, assert_valid_verilog, edge};
use pmugen_sim::reference::pmu::profile::{
    ProfileRegister, ProfileTable as ReferenceTable, ProfileWrite, SendCause, State, StreamWord,
};

impl Ports for ProfileTable {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        port_list!(self; reset, in_valid, in_data, in_last, ready, accepted, wdata, ctrl_write, evicted_write,
            in_ready, data, valid, last, ctrl, evicted)
    }
}

/// A random table: small E mostly (so that clearing and walks are short and entries
/// collide), every T, K, CW and AW.
fn random_shape(rng: &mut ChaCha8Rng) -> TableShape {
    TableShape {
        entries: [16, 16, 32, 64, 256][rng.gen_range(0..5)],
        threads: rng.gen_range(1..=4),
        counters: rng.gen_range(1..=4),
        counter_width: [16, 17, 40, 63, 64][rng.gen_range(0..5)],
        address_width: [16, 21, 32, 48][rng.gen_range(0..4)],
        depth: [2, 4, 256][rng.gen_range(0..3)],
    }
}

fn describe(shape: &TableShape) -> String {
    format!(
        "E={} T={} K={} CW={} AW={} D={}",
        shape.entries, shape.threads, shape.counters, shape.counter_width, shape.address_width, shape.depth
    )
}

/// Stream words that make the table work: first words from a few block addresses
/// (hits and collisions) with NEW_PROCESS now and then, pids from a few, values near
/// the top of a 16-bit counter so that sums wrap, `last` about once a record.
fn stream_word(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..4) {
        0 => {
            (rng.gen_bool(0.2) as u64) << 63
                | rng.gen_range(0..4u64) << 61
                | [0x400, 0x402, 0x1400, 0x10400][rng.gen_range(0..4)]
        }
        1 => rng.gen_range(0..3),
        2 => 0xFFFF - rng.gen_range(0..0x40),
        _ => rng.gen(),
    }
}

/// Random tables, with inputs that keep them summarizing: SUMMARIZE set by most
/// PROFILE_CTRL writes, flushes now and then, the consumer ready most of the time,
/// resets rare (clearing lasts E cycles).
#[test]
fn native_twin_equals_its_verilog() {
    let seed = 0x5eed_1501;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let instances: Vec<(String, ProfileTable)> = (0..4)
        .map(|_| {
            let shape = random_shape(&mut rng);
            (describe(&shape), ProfileTable::new(shape))
        })
        .collect();
    let table_inputs = |rng: &mut ChaCha8Rng, name: &str, width: usize| match name {
        "reset" => vec![rng.gen_ratio(1, 3_000) as u64],
        "in_valid" => vec![rng.gen_bool(0.8) as u64],
        "in_data" => vec![stream_word(rng)],
        "in_last" => vec![rng.gen_ratio(1, 4) as u64],
        "ready" => vec![rng.gen_bool(0.85) as u64],
        "accepted" => vec![rng.gen_ratio(1, 5) as u64],
        "wdata" => vec![rng.gen::<u64>() & !3 | [1, 1, 1, 3, 0, 2][rng.gen_range(0..6)]],
        "ctrl_write" => vec![rng.gen_ratio(1, 150) as u64],
        "evicted_write" => vec![rng.gen_ratio(1, 200) as u64],
        _ => random_input(rng, name, width),
    };
    let mut cycles_in = [0u32; 7];
    let mut evicted = 0;
    Lockstep::new("profile_table", seed).stimulus(table_inputs).cycles(8_000).run_observed(instances, |_, uut| {
        cycles_in[uut.state.0.phase.code() as usize] += 1;
        evicted = evicted.max(uut.state.0.evicted);
    });
    assert!(cycles_in.iter().all(|&cycles| cycles > 50) && evicted > 5, "phases {cycles_in:?}, evicted {evicted}");
}

#[test]
fn verilog_is_valid() {
    let shape = |entries, threads, counters, counter_width, address_width, depth| TableShape {
        entries,
        threads,
        counters,
        counter_width,
        address_width,
        depth,
    };
    assert_valid_verilog(&mut ProfileTable::new(shape(1024, 1, 4, 40, 32, 256)), "profile_table_e1024");
    assert_valid_verilog(&mut ProfileTable::new(shape(16, 4, 1, 16, 16, 2)), "profile_table_e16");
    assert_valid_verilog(&mut ProfileTable::new(shape(4096, 3, 2, 64, 48, 1024)), "profile_table_e4096");
}

/// §15.2's index on examples worked by hand.
#[test]
fn index_folds_every_slice_of_the_address() {
    let shape = |entries, address_width| TableShape {
        entries,
        threads: 1,
        counters: 1,
        counter_width: 16,
        address_width,
        depth: 2,
    };
    // E = 16, AW = 16: slices a[4:1], a[8:5], a[12:9], a[15:13] (3 bits).
    let small = shape(16, 16);
    assert_eq!(small.index_slices(), vec![(1, 4), (5, 4), (9, 4), (13, 3)]);
    assert_eq!(small.index(0x0001), 0, "bit 0 is ignored");
    assert_eq!(small.index(0x0002), 1);
    assert_eq!(small.index(0x0020), 1, "a[5] is bit 0 of the second slice");
    assert_eq!(small.index(0x0022), 0, "the two cancel");
    assert_eq!(small.index(0xE000), 7, "the last, 3-bit slice");
    // E = 1024, AW = 32: 10-bit slices from bit 1, the last a[31:31].
    let large = shape(1024, 32);
    assert_eq!(large.index_slices(), vec![(1, 10), (11, 10), (21, 10), (31, 1)]);
    assert_eq!(large.index(0x8000_0000), 1);
    assert_eq!(large.index(0x0000_0400), 0x200);
    assert_eq!(large.index(0x0000_0802), 0, "a[1] and a[11] cancel");
}

/// A queue of records in front of the table, as the trace queue of docs/pmu.md §13.4
/// behaves: D records, each presented word by word, a record made when it is full
/// dropped.
struct Queue {
    depth: usize,
    records: std::collections::VecDeque<Vec<u64>>,
    word: usize,
}

impl Queue {
    fn presented(&self) -> StreamWord {
        match self.records.front() {
            Some(record) => StreamWord { valid: true, data: record[self.word], last: self.word + 1 == record.len() },
            None => StreamWord::default(),
        }
    }

    /// The edge: the handshake with `ready`, then `made` joins unless the queue is full;
    /// returns whether it joined.
    fn edge(&mut self, ready: bool, made: Option<Vec<u64>>) -> bool {
        if let (Some(record), true) = (self.records.front(), ready) {
            if self.word + 1 == record.len() {
                self.records.pop_front();
                self.word = 0;
            } else {
                self.word += 1;
            }
        }
        match made {
            Some(record) if self.records.len() < self.depth => {
                self.records.push_back(record);
                true
            }
            _ => false,
        }
    }
}

/// A §13 record of thread `thread` at a block from a few (so that entries are hit,
/// collide and evict), NEW_PROCESS now and then with a pid from a few, values that
/// wrap a 16-bit sum within a few records.
fn record(rng: &mut ChaCha8Rng, shape: &TableShape) -> Vec<u64> {
    let thread = rng.gen_range(0..shape.threads) as u64;
    let address = [0x400u64, 0x402, 0x480, 0x4_0400, 0x1000][rng.gen_range(0..5)] & ((1 << shape.address_width) - 1);
    let new_process = rng.gen_ratio(1, 6);
    let mut words = vec![(new_process as u64) << 63 | thread << 61 | address];
    if new_process {
        words.push(rng.gen_range(0..3));
    }
    let top = crate::dyn_signal::low_mask(shape.counter_width);
    words.extend((0..shape.counters).map(|_| {
        if rng.gen_ratio(1, 8) {
            top - rng.gen_range(0..256)
        } else {
            rng.gen_range(0..40)
        }
    }));
    words
}

/// docs/pmu.md §15.4 against the block: the reference model's table (written from the
/// docs alone) and the block, fed one queue and one consumer, show the same trace
/// words, give the queue the same ready and read the same registers, cycle by cycle.
#[test]
fn the_block_follows_the_reference_table() {
    let seed = 0x5eed_1502;
    println!("seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for shape in [
        TableShape { entries: 16, threads: 2, counters: 2, counter_width: 16, address_width: 20, depth: 4 },
        TableShape { entries: 64, threads: 1, counters: 4, counter_width: 40, address_width: 32, depth: 16 },
        TableShape { entries: 16, threads: 4, counters: 1, counter_width: 64, address_width: 48, depth: 2 },
    ] {
        let mut uut = ProfileTable::new(shape);
        uut.connect_all();
        let (e, t, k, cw, aw) =
            (shape.entries, shape.threads, shape.counters, shape.counter_width, shape.address_width);
        let mut reference = ReferenceTable::new(e, t, k, cw, aw);
        let mut queue = Queue { depth: shape.depth, records: Default::default(), word: 0 };
        let (mut evictions, mut flushed) = (0, 0);
        for step in 0..40_000 {
            let word = queue.presented();
            let trace_ready = rng.gen_bool(if step % 5_000 < 4_000 { 0.9 } else { 0.3 });
            let made = rng.gen_ratio(1, 5).then(|| record(&mut rng, &shape));
            let write = match rng.gen_range(0..400) {
                0..=2 => Some(ProfileWrite::Control([1, 1, 3, 0, 2, 1][rng.gen_range(0..6)])),
                3 => Some(ProfileWrite::Evicted),
                _ => None,
            };
            let reset = rng.gen_ratio(1, 20_000);
            apply(
                &mut uut,
                |u| &mut u.clock,
                |u| {
                    (u.in_valid.next, u.in_last.next) = (word.valid, word.last);
                    u.in_data.set(word.data);
                    u.ready.next = trace_ready;
                    u.reset.next = reset;
                    u.ctrl_write.next = matches!(write, Some(ProfileWrite::Control(_)));
                    u.evicted_write.next = write == Some(ProfileWrite::Evicted);
                    u.wdata.set(match write {
                        Some(ProfileWrite::Control(data)) => data,
                        _ => 0,
                    });
                },
            );
            let (trace, ready) = reference.cycle(word, trace_ready);
            let context = format!("{} step {step} seed {seed:#x}", describe(&shape));
            assert_eq!(
                (uut.valid.val(), uut.data.get(), uut.last.val()),
                (trace.valid, trace.data, trace.last),
                "trace, {context}"
            );
            // The queue's ready matters only while it presents a word.
            if word.valid {
                assert_eq!(uut.in_ready.val(), ready, "queue ready, {context}");
            }
            assert_eq!(uut.ctrl.get(), reference.read(ProfileRegister::Control), "PROFILE_CTRL, {context}");
            assert_eq!(uut.evicted.get(), reference.read(ProfileRegister::Evicted), "PROFILE_EVICTED, {context}");
            if let State::Sending { cause, word: 0, .. } = reference.state() {
                let moved = trace_ready as u32;
                (evictions, flushed) = match cause {
                    SendCause::Eviction => (evictions + moved, flushed),
                    SendCause::Flush => (evictions, flushed + moved),
                };
            }
            let joined = queue.edge(ready && !reset, made.filter(|_| !reset));
            uut.accepted.next = joined;
            uut.accepted.update_all();
            edge(&mut uut, |u| &mut u.clock);
            if reset {
                reference.reset();
                queue.records.clear();
                queue.word = 0;
            } else {
                reference.edge(word, trace_ready, queue.records.len(), write);
            }
        }
        assert!(evictions > 100 && flushed > 100, "{}: {evictions} evicted, {flushed} flushed", describe(&shape));
    }
}
