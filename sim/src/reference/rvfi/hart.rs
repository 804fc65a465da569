//! Everything the RVFI adapter rules (docs/soc.md) derive from one hart's port in one
//! cycle, before the adapter's register stage: the core's retirement as the rules take
//! it (`--core`, docs/soc.md §1.7), then the cycle's events, its kernel value and its
//! block end.
use super::blocks::BlockTracker;
use super::classify::classify;
use super::core::{Core, CoreReader};
use super::events::EventSet;
use super::kernel::{KernelRule, KernelTracker};
use super::retirement::{Retirement, Xlen};

/// What one cycle of one hart's port gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HartCycle {
    /// The events the cycle counts (the RISC-V event table, docs/soc.md).
    pub events: EventSet,
    /// The cycle is a kernel cycle.
    pub kernel: bool,
    /// The start address (XLEN bits) of the block the cycle's retirement ends, if any.
    pub block_end: Option<u64>,
}

/// One hart's rule state: the kernel rule and the block rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HartRules {
    xlen: Xlen,
    reader: CoreReader,
    kernel: KernelTracker,
    blocks: BlockTracker,
}

impl HartRules {
    /// The state after reset, for a `generic` core.
    pub fn new(xlen: Xlen, rule: KernelRule) -> Self {
        Self::for_core(xlen, rule, Core::Generic)
    }

    /// The state after reset, for `core`.
    pub fn for_core(xlen: Xlen, rule: KernelRule, core: Core) -> Self {
        Self { xlen, reader: CoreReader::new(core), kernel: KernelTracker::new(rule), blocks: BlockTracker::new() }
    }

    /// The address (XLEN bits) of the first instruction of the block under way, if any.
    pub fn block_start(&self) -> Option<u64> {
        self.blocks.start()
    }

    /// The cycle whose port holds `r` (`valid` = 0 for none), and the state after it.
    pub fn cycle(&mut self, r: &Retirement) -> HartCycle {
        let r = self.reader.read(&r.normalized(self.xlen), self.xlen);
        let kernel = self.kernel.cycle(&r, self.xlen);
        HartCycle { events: classify(&r, self.xlen), kernel, block_end: self.blocks.retire(&r, kernel, self.xlen) }
    }
}
