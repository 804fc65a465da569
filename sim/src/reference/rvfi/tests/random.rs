//! Seeded random RVFI streams (the seed is printed): the streams are well formed (PCs
//! chain from one retirement to the next except into a handler, addresses aligned,
//! modes as the kernel rule expects), every event and both rings occur, and the
//! adapter's registered outputs, summed over a run, equal the log summary of each
//! hart's retirements one cycle earlier.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::reference::rvfi::{
    summarize_log, Event, KernelRule, ReferenceAdapter, Retirement, Ring, RingCounts, Xlen, EVENT_COUNT,
};
use crate::stimulus::rvfi::{RvfiCore, RvfiStimulus};

fn check_stream(core: &RvfiCore, logs: &[Vec<Retirement>], seed: u64) {
    let alignment = if core.compressed { 2 } else { 4 };
    for log in logs {
        let mut previous: Option<Retirement> = None;
        for r in log.iter().filter(|r| r.valid) {
            if let Some(previous) = previous.filter(|_| !r.intr) {
                assert_eq!(r.pc_rdata, previous.pc_wdata, "seed {seed}: {previous:x?} then {r:x?}");
            }
            assert_eq!(r.pc_rdata % alignment, 0, "seed {seed}: {r:x?}");
            assert!(core.compressed || r.insn & 3 == 3 || r.trap, "seed {seed}: {r:x?}");
            match core.kernel_rule {
                KernelRule::Handler => assert_eq!(r.mode, 3, "seed {seed}"),
                KernelRule::Mode => assert!(matches!(r.mode, 0 | 1 | 3), "seed {seed}"),
            }
            assert_eq!(r.pc_rdata & !core.xlen.pc_mask(), 0, "seed {seed}");
            previous = Some(*r);
        }
    }
}

#[test]
fn random_streams_agree_with_the_log_summary() {
    let seed: u64 = rand::random();
    println!("seed {seed}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = RingCounts::default();
    for _ in 0..12 {
        let core = RvfiCore {
            harts: rng.gen_range(1..=4),
            xlen: if rng.gen_bool(0.5) { Xlen::Rv32 } else { Xlen::Rv64 },
            compressed: rng.gen_bool(0.6),
            kernel_rule: if rng.gen_bool(0.5) { KernelRule::Mode } else { KernelRule::Handler },
        };
        let address_width = rng.gen_range(16..=48);
        let mut stimulus = RvfiStimulus::new(core, rng.gen());
        let mut adapter = ReferenceAdapter::new(core.harts, core.xlen, core.kernel_rule, address_width);
        let mut logs = vec![Vec::new(); core.harts];
        let mut counted = vec![RingCounts::default(); core.harts];
        let mut ends = vec![Vec::new(); core.harts];
        for cycle in 0..=5000 {
            let retirements = if cycle < 5000 { stimulus.next_cycle() } else { vec![Retirement::idle(); core.harts] };
            let outputs = adapter.step(&retirements);
            for (hart, output) in outputs.harts.iter().enumerate() {
                assert!(output.bb_addr >> address_width == 0 && (output.bb_end || output.bb_addr == 0));
                if cycle > 0 {
                    counted[hart].add(output.events, output.kernel);
                    if output.bb_end {
                        ends[hart].push(output.bb_addr);
                    }
                } else {
                    assert_eq!(output.events.bits(), 0, "seed {seed}");
                }
            }
            if cycle < 5000 {
                logs.iter_mut().zip(&retirements).for_each(|(log, r)| log.push(*r));
            }
        }
        check_stream(&core, &logs, seed);
        for (hart, log) in logs.iter().enumerate() {
            let summary = summarize_log(log, core.xlen, core.kernel_rule, address_width);
            assert_eq!(counted[hart], summary.counts, "seed {seed}, {core:?}, hart {hart}");
            let addresses: Vec<u64> = summary.blocks.iter().map(|block| block.address).collect();
            assert_eq!(ends[hart], addresses, "seed {seed}, {core:?}, hart {hart}");
            for ring in [Ring::User, Ring::Kernel] {
                for event in Event::ALL {
                    let count = summary.counts.get(event, ring);
                    match ring {
                        Ring::User => seen.user[event.index()] += count,
                        Ring::Kernel => seen.kernel[event.index()] += count,
                    }
                }
            }
        }
    }
    // A handler's first instruction is kernel code under either rule.
    for index in (0..EVENT_COUNT).filter(|&index| Event::ALL[index] != Event::Interrupt) {
        assert!(seen.user[index] > 0, "seed {seed}: no {} in user code", Event::ALL[index].name());
    }
    for event in [Event::Instret, Event::Interrupt, Event::Branch, Event::Call, Event::Return, Event::System] {
        assert!(seen.get(event, Ring::Kernel) > 0, "seed {seed}: no {} in the kernel", event.name());
    }
}
