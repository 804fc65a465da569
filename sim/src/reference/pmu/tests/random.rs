//! Seeded random stimulus (the seed is printed): whatever the inputs, the model keeps
//! every register within its §6 bits, the outputs within their ports, the trace stream
//! within the handshake's rules (docs/pmu.md §13.5) and the queue within D records, and two
//! copies driven alike stay equal (the model is a function of its inputs).
use super::super::ReferencePmu;
use super::knc_config;
use crate::ports::pmu::{PmuInputs, PmuOutputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(super) fn random_inputs(rng: &mut ChaCha8Rng, counters: usize) -> PmuInputs {
    // Mostly ring-0 writes to counting registers, so that counting really happens.
    let addresses =
        [0x00, 0x10, 0x20, 0x21, 0x28, 0x29, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x38, 0x39, 0x3E, 0x3F, 0x40, 0x41, 0x42];
    let address = if rng.gen_bool(0.9) { addresses[rng.gen_range(0..addresses.len())] } else { rng.gen() };
    let evtsel_like = rng.gen::<u64>() & 0xFF7F_FFFF | 0x0043_0000;
    // TRACE_CTRL mostly with TRACE_EN, and pids from a small set so PID_FILTER matches.
    let trace_ctrl_like = rng.gen::<u64>() | 1;
    let wdata = match address {
        0x28..=0x2B if address < 0x28 + counters as u8 => evtsel_like,
        0x40 => trace_ctrl_like,
        0x41 => rng.gen_range(0..3),
        _ => rng.gen(),
    };
    PmuInputs {
        reset: rng.gen_bool(0.002),
        events: vec![rng.gen(), rng.gen(), rng.gen(), rng.gen()],
        core_events: vec![rng.gen()],
        kernel: rng.gen(),
        pm_mark: rng.gen(),
        bb_end: rng.gen(),
        bb_addr: [rng.gen(), rng.gen(), rng.gen(), rng.gen()],
        pid: [rng.gen_range(0..3), rng.gen_range(0..3), rng.gen_range(0..3), rng.gen_range(0..3)],
        trace_ready: rng.gen_bool(0.5),
        reg_thread: rng.gen_range(0..4),
        reg_priv: rng.gen_bool(0.8),
        reg_addr: address,
        reg_wdata: wdata,
        reg_write: rng.gen_bool(0.3),
        reg_read: rng.gen_bool(0.3),
    }
}

#[test]
fn random_stimulus_keeps_every_value_in_range() {
    let seed: u64 = rand::random();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut words_moved = 0;
    for _ in 0..20 {
        let (threads, counters) = (rng.gen_range(1..=4), rng.gen_range(1..=4));
        let counter_width = rng.gen_range(16..=64);
        let mut config = knc_config(threads, counters, counter_width);
        config.trace_depth = 1 << rng.gen_range(1..=3);
        config.address_width = rng.gen_range(16..=48);
        let depth = config.trace_depth;
        let address_width = config.address_width;
        let mut pmu = ReferencePmu::new(config);
        let mut twin = pmu.clone();
        let value_mask = if counter_width == 64 { u64::MAX } else { (1 << counter_width) - 1 };
        let mut previous = PmuOutputs::default();
        // The word on the stream is a record's word 0.
        let mut record_start = true;
        for _ in 0..2000 {
            let inputs = random_inputs(&mut rng, counters);
            let outputs: PmuOutputs = pmu.step(&inputs);
            if inputs.reset {
                record_start = true;
            } else if previous.trace_valid && inputs.trace_ready {
                record_start = previous.trace_last;
                words_moved += 1;
            }
            if outputs.trace_valid && record_start {
                let between = outputs.trace_data >> address_width & ((1 << (61 - address_width)) - 1);
                assert_eq!(between, 0, "seed {seed}: word 0 holds AW address bits");
                assert!((outputs.trace_data >> 61 & 3) < threads as u64, "seed {seed}: word 0's thread");
            }
            let stream = (outputs.trace_valid, outputs.trace_data, outputs.trace_last);
            if !outputs.trace_valid {
                assert_eq!((outputs.trace_data, outputs.trace_last), (0, false), "seed {seed}");
            }
            if previous.trace_valid && !inputs.trace_ready && !inputs.reset {
                let held = (previous.trace_valid, previous.trace_data, previous.trace_last);
                assert_eq!(stream, held, "seed {seed}: the word holds until it moves");
            }
            previous = outputs;
            assert!(pmu.trace_occupancy() <= depth, "seed {seed}");
            assert_eq!(pmu.trace_dropped() >> 32, 0, "seed {seed}");
            assert_eq!(pmu.trace_ctrl() & !0x33, 0, "seed {seed}");
            assert_eq!(twin.step(&inputs), outputs, "seed {seed}");
            assert_eq!(outputs.pmi >> threads, 0, "seed {seed}");
            let accessed = inputs.reg_read || inputs.reg_write;
            if inputs.reset {
                assert_eq!(outputs, PmuOutputs::default(), "seed {seed}");
            } else if accessed && inputs.reg_thread as usize >= threads {
                assert_eq!((outputs.reg_rdata, outputs.reg_fault), (0, true), "seed {seed}");
            } else if !accessed {
                assert_eq!((outputs.reg_rdata, outputs.reg_fault), (0, false), "seed {seed}");
            }
            for thread in 0..threads {
                assert_eq!(pmu.global_status(thread) >> counters, 0, "seed {seed}");
                for index in 0..counters {
                    assert_eq!(pmu.counter(thread, index) & !value_mask, 0, "seed {seed}");
                    assert_eq!(pmu.shadow(thread, index) & !value_mask, 0, "seed {seed}");
                    assert_eq!(pmu.evtsel(thread, index) & !0xFFF7_FFFF, 0, "seed {seed}");
                }
            }
        }
        assert_eq!(pmu, twin, "seed {seed}");
    }
    assert!(words_moved > 0, "seed {seed}: the stimulus made no trace records");
}
