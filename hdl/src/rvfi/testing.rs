//! Stimulus for the RVFI blocks' tests: retirement streams of a random core
//! (`pmugen_sim::stimulus::rvfi`), now and then a cycle of arbitrary words, as the
//! blocks' port values; and the lockstep inputs by port name.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::adapter::RvfiAdapter;
use super::classify::{classify, Classified};
use super::params::{KernelRule, Xlen};
use super::port::{self, HartSignals, RvfiInputs};
use crate::testing::ports::{Port, Ports};
use pmugen_sim::reference::rvfi as reference;
use pmugen_sim::stimulus::rvfi::{RvfiCore, RvfiStimulus};
use pmugen_sim::verilator::PortList;
use rust_hdl::prelude::*;

/// The reference model's XLEN for ours.
pub fn reference_xlen(xlen: Xlen) -> reference::Xlen {
    match xlen {
        Xlen::Rv32 => reference::Xlen::Rv32,
        Xlen::Rv64 => reference::Xlen::Rv64,
    }
}

/// The reference model's kernel rule for ours.
pub fn reference_rule(rule: KernelRule) -> reference::KernelRule {
    match rule {
        KernelRule::Mode => reference::KernelRule::Mode,
        KernelRule::Handler => reference::KernelRule::Handler,
    }
}

/// A retirement as port values (fields cut to their widths by the ports).
pub fn signals(r: &reference::Retirement) -> HartSignals {
    HartSignals {
        valid: r.valid,
        insn: r.insn,
        trap: r.trap,
        intr: r.intr,
        mode: r.mode & 3,
        pc_rdata: r.pc_rdata,
        pc_wdata: r.pc_wdata,
        mem_rmask: r.mem_rmask,
        mem_wmask: r.mem_wmask,
    }
}

/// A retirement of arbitrary words: any encoding, any flags, any addresses.
pub fn arbitrary(rng: &mut ChaCha8Rng) -> reference::Retirement {
    let insn = match rng.gen_range(0..4) {
        0 => rng.gen::<u16>() as u32, // a compressed word with its upper half 0
        1 => [0x3020_0073, 0x0400_000B, 0x0000_9002, 0x0000_8082][rng.gen_range(0..4)],
        _ => rng.gen(),
    };
    let pc: u64 = if rng.gen() { rng.gen() } else { u32::MAX as u64 - rng.gen_range(0..8) };
    reference::Retirement {
        valid: rng.gen_bool(0.8),
        insn,
        trap: rng.gen_ratio(1, 4),
        intr: rng.gen_ratio(1, 4),
        mode: rng.gen(),
        pc_rdata: pc,
        pc_wdata: if rng.gen() { pc.wrapping_add([2, 4][rng.gen_range(0..2)]) } else { rng.gen() },
        mem_rmask: rng.gen(),
        mem_wmask: rng.gen(),
    }
}

/// The retirement streams of one core: the random core's walk, with a cycle of
/// arbitrary words in about one cycle in `noise` (never with `noise` = 0).
pub struct CoreStream {
    stimulus: RvfiStimulus,
    rng: ChaCha8Rng,
    noise: u32,
}

impl CoreStream {
    /// The stream of `harts` harts of `xlen` for `rule` with the C extension (or not),
    /// from `seed`.
    pub fn new(harts: usize, xlen: Xlen, rule: KernelRule, compressed: bool, seed: u64, noise: u32) -> Self {
        let core = RvfiCore { harts, xlen: reference_xlen(xlen), compressed, kernel_rule: reference_rule(rule) };
        Self { stimulus: RvfiStimulus::new(core, seed), rng: ChaCha8Rng::seed_from_u64(seed ^ 0x0153), noise }
    }

    /// The next cycle's retirements, hart 0 first.
    pub fn next_cycle(&mut self) -> Vec<reference::Retirement> {
        let mut cycle = self.stimulus.next_cycle();
        if self.noise != 0 {
            for r in &mut cycle {
                if self.rng.gen_ratio(1, self.noise) {
                    *r = arbitrary(&mut self.rng);
                }
            }
        }
        cycle
    }
}

/// One hart's stream with its classification, for the per-hart blocks.
pub struct HartStream {
    core: CoreStream,
    xlen: Xlen,
}

impl HartStream {
    /// A stream made for `rule`, of a random XLEN, mostly with compressed code.
    pub fn random(rng: &mut ChaCha8Rng, rule: KernelRule) -> Self {
        let xlen = if rng.gen() { Xlen::Rv32 } else { Xlen::Rv64 };
        Self::new(rng, xlen, rule)
    }

    /// A stream of `xlen` made for `rule`.
    pub fn new(rng: &mut ChaCha8Rng, xlen: Xlen, rule: KernelRule) -> Self {
        Self { core: CoreStream::new(1, xlen, rule, rng.gen_ratio(3, 4), rng.gen(), 40), xlen }
    }

    /// The next cycle's signals and what they give.
    pub fn next_cycle(&mut self) -> (HartSignals, Classified) {
        let r = signals(&self.core.next_cycle()[0]);
        (r, classify(&r, self.xlen))
    }
}

/// The lockstep values of `inputs` from `(name, value)` pairs of at most 64 bits.
pub fn by_name(inputs: &PortList, values: &[(&str, u64)]) -> Vec<Vec<u64>> {
    by_name_words(inputs, values.iter().map(|(name, value)| (name.to_string(), vec![*value])).collect())
}

/// The lockstep values of `inputs` from `(name, words)` pairs; every input must have one.
pub fn by_name_words(inputs: &PortList, mut values: Vec<(String, Vec<u64>)>) -> Vec<Vec<u64>> {
    inputs
        .iter()
        .map(|(name, _)| {
            let index = values.iter().position(|(given, _)| given == name);
            values.swap_remove(index.unwrap_or_else(|| panic!("the stimulus gives no value for input {name}"))).1
        })
        .collect()
}

/// `(name, port)` pairs as a block's port list.
pub fn named<'a, const N: usize>(ports: [(&str, &'a mut dyn Port); N]) -> Vec<(String, &'a mut dyn Port)> {
    ports.into_iter().map(|(name, port)| (name.to_string(), port)).collect()
}

/// The RVFI inputs' ports, by their port names.
pub fn rvfi_ports(rvfi: &mut RvfiInputs) -> Vec<(String, &mut dyn Port)> {
    port::NAMES.iter().map(|name| name.to_string()).zip(rvfi.signals_mut().map(|s| s as &mut dyn Port)).collect()
}

/// The adapter's ports for the lockstep harness (its tests and the SoC examples' logs).
impl Ports for RvfiAdapter {
    fn clock(&mut self) -> &mut Signal<In, Clock> {
        &mut self.clock
    }
    fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
        let Self { reset, rvfi, events, kernel, bb_end, bb_addr, .. } = self;
        let mut ports = rvfi_ports(rvfi);
        ports.extend(named([("reset", reset as &mut dyn Port), ("events", events), ("kernel", kernel)]));
        ports.extend(named([("bb_end", bb_end as &mut dyn Port), ("bb_addr", bb_addr)]));
        ports
    }
}
