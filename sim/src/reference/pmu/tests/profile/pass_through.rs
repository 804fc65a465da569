//! docs/pmu.md §15.4: with SUMMARIZE = 0 (never written) the stream is §13's word for
//! word and cycle for cycle: under the same random inputs (the seed is printed), resets
//! and the clearing after them included, a PMU with a table gives the outputs of one
//! without, except for PMU_ID and the profile registers, which these inputs never read.
use super::super::super::addr;
use super::super::super::ReferencePmu;
use super::super::knc_config;
use super::super::random::random_inputs;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn with_summarize_0_the_outputs_are_those_of_the_pmu_without_a_table() {
    let seed: u64 = rand::random();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut valid_cycles = 0;
    for _ in 0..12 {
        let (threads, counters) = (rng.gen_range(1..=4), rng.gen_range(1..=4));
        let mut config = knc_config(threads, counters, rng.gen_range(16..=64));
        config.trace_depth = 1 << rng.gen_range(1..=3);
        config.address_width = rng.gen_range(16..=48);
        let mut plain = ReferencePmu::new(config.clone());
        config.profile_entries = 1 << rng.gen_range(4..=12);
        let mut with_table = ReferencePmu::new(config);
        for _ in 0..2000 {
            let mut inputs = random_inputs(&mut rng, counters);
            if [addr::PMU_ID, addr::PROFILE_CTRL, addr::PROFILE_EVICTED].contains(&inputs.reg_addr) {
                inputs.reg_addr = 0x45; // unlisted in both
            }
            let outputs = plain.step(&inputs);
            assert_eq!(with_table.step(&inputs), outputs, "seed {seed}");
            assert_eq!(with_table.trace_dropped(), plain.trace_dropped(), "seed {seed}");
            valid_cycles += outputs.trace_valid as usize;
        }
    }
    assert!(valid_cycles > 0, "seed {seed}: the stimulus made no trace records");
}
