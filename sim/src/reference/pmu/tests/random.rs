//! Seeded random stimulus (the seed is printed): whatever the inputs, the model keeps
//! every register within its §6 bits, the outputs within their ports, and two copies
//! driven alike stay equal (the model is a function of its inputs).
use super::super::ReferencePmu;
use super::knc_config;
use crate::ports::pmu::{PmuInputs, PmuOutputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_inputs(rng: &mut ChaCha8Rng, counters: usize) -> PmuInputs {
    // Mostly ring-0 writes to counting registers, so that counting really happens.
    let addresses = [0x00, 0x10, 0x20, 0x21, 0x28, 0x29, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x38, 0x39, 0x3E, 0x3F];
    let address = if rng.gen_bool(0.9) { addresses[rng.gen_range(0..addresses.len())] } else { rng.gen() };
    let evtsel_like = rng.gen::<u64>() & 0xFF7F_FFFF | 0x0043_0000;
    PmuInputs {
        reset: rng.gen_bool(0.002),
        events: vec![rng.gen(), rng.gen(), rng.gen(), rng.gen()],
        core_events: vec![rng.gen()],
        kernel: rng.gen(),
        pm_mark: rng.gen(),
        reg_thread: rng.gen_range(0..4),
        reg_priv: rng.gen_bool(0.8),
        reg_addr: address,
        reg_wdata: if (0x28..0x28 + counters as u8).contains(&address) { evtsel_like } else { rng.gen() },
        reg_write: rng.gen_bool(0.3),
        reg_read: rng.gen_bool(0.3),
    }
}

#[test]
fn random_stimulus_keeps_every_value_in_range() {
    let seed: u64 = rand::random();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..20 {
        let (threads, counters) = (rng.gen_range(1..=4), rng.gen_range(1..=4));
        let counter_width = rng.gen_range(16..=64);
        let mut pmu = ReferencePmu::new(knc_config(threads, counters, counter_width));
        let mut twin = pmu.clone();
        let value_mask = if counter_width == 64 { u64::MAX } else { (1 << counter_width) - 1 };
        for _ in 0..2000 {
            let inputs = random_inputs(&mut rng, counters);
            let outputs: PmuOutputs = pmu.step(&inputs);
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
}
