//! The RVFI adapter for T harts (the RVFI adapter rules, docs/soc.md), cycle by cycle,
//! with its one register stage: what the adapter derives from the retirements of
//! cycle c is its output during cycle c+1 (the PMU's `events`, `kernel`, `bb_end` and
//! `bb_addr` inputs of that cycle). During the cycle right after reset every output is
//! 0, CYCLES and STALL_CYCLES included; from the next cycle on CYCLES is 1 in every
//! cycle. `bb_addr` is the low AW bits of the ending block's start with `bb_end` = 1,
//! and 0 otherwise (the PMU reads it only with `bb_end`).
use super::core::Core;
use super::events::EventSet;
use super::hart::HartRules;
use super::kernel::KernelRule;
use super::retirement::{Retirement, Xlen};

/// One hart's adapter outputs during one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HartOutputs {
    /// The 14 event bits (bit i = the table's event i).
    pub events: EventSet,
    /// `kernel`: the hart runs in ring 0.
    pub kernel: bool,
    /// `bb_end`: the hart ends a basic block.
    pub bb_end: bool,
    /// `bb_addr`: the ending block's first address, AW bits (0 without `bb_end`).
    pub bb_addr: u64,
}

/// Every hart's adapter outputs during one cycle (element t = hart t).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdapterOutputs {
    /// One element per hart.
    pub harts: Vec<HartOutputs>,
}

/// The adapter's reference model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceAdapter {
    xlen: Xlen,
    kernel_rule: KernelRule,
    core: Core,
    address_width: u32,
    rules: Vec<HartRules>,
    /// The register stage: the outputs during the current cycle.
    registered: AdapterOutputs,
}

impl ReferenceAdapter {
    /// The adapter after reset, for `harts` harts (1..=4) of a `generic` core of width
    /// `xlen` with block addresses of `address_width` bits (1..=64; the PMU's AW is
    /// 16..=48).
    pub fn new(harts: usize, xlen: Xlen, kernel_rule: KernelRule, address_width: u32) -> Self {
        Self::for_core(harts, xlen, kernel_rule, Core::Generic, address_width)
    }

    /// The adapter after reset, as [`new`](Self::new), reading the retirements of `core`.
    pub fn for_core(harts: usize, xlen: Xlen, kernel_rule: KernelRule, core: Core, address_width: u32) -> Self {
        assert!((1..=4).contains(&harts), "harts {harts} is out of 1..=4");
        assert!((1..=64).contains(&address_width), "address width {address_width} is out of 1..=64");
        Self {
            xlen,
            kernel_rule,
            core,
            address_width,
            rules: vec![HartRules::for_core(xlen, kernel_rule, core); harts],
            registered: AdapterOutputs { harts: vec![HartOutputs::default(); harts] },
        }
    }

    /// T.
    pub fn harts(&self) -> usize {
        self.rules.len()
    }

    /// The core's XLEN.
    pub fn xlen(&self) -> Xlen {
        self.xlen
    }

    /// The kernel rule.
    pub fn kernel_rule(&self) -> KernelRule {
        self.kernel_rule
    }

    /// The core whose retirements it reads.
    pub fn core(&self) -> Core {
        self.core
    }

    /// AW.
    pub fn address_width(&self) -> u32 {
        self.address_width
    }

    /// The outputs during the current cycle (derived from the previous cycle's
    /// retirements; all 0 right after reset).
    pub fn outputs(&self) -> &AdapterOutputs {
        &self.registered
    }

    /// One cycle whose ports hold `retirements` (element t = hart t, T elements): the
    /// outputs during this cycle, then the edge at its end, where the stage takes what
    /// the rules derive from `retirements`.
    pub fn step(&mut self, retirements: &[Retirement]) -> AdapterOutputs {
        assert_eq!(retirements.len(), self.rules.len(), "one retirement per hart");
        let address_mask = u64::MAX >> (64 - self.address_width);
        let derived = self
            .rules
            .iter_mut()
            .zip(retirements)
            .map(|(rules, r)| {
                let cycle = rules.cycle(r);
                HartOutputs {
                    events: cycle.events,
                    kernel: cycle.kernel,
                    bb_end: cycle.block_end.is_some(),
                    bb_addr: cycle.block_end.map_or(0, |start| start & address_mask),
                }
            })
            .collect();
        std::mem::replace(&mut self.registered, AdapterOutputs { harts: derived })
    }

    /// A reset edge (synchronous, in place of [`step`](Self::step) for a cycle with
    /// reset asserted): the retirements of that cycle are dropped, every hart's rule
    /// state returns to its reset value and the stage is cleared, so every output is 0
    /// during the next cycle.
    pub fn reset(&mut self) {
        *self = Self::for_core(self.rules.len(), self.xlen, self.kernel_rule, self.core, self.address_width);
    }
}
