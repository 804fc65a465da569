//! A whole retirement log of one hart (one [`Retirement`] per cycle from reset on),
//! summed up with the RVFI adapter rules (docs/soc.md) and the RISC-V event table
//! (docs/soc.md), for comparison with what a firmware prints or a profile shows: each
//! event's count per ring (user or kernel, as the kernel rule gives that cycle), and
//! the blocks in the order they end, with their retirements and the event counts of
//! the cycles since the previous block end. Those are the counts a PMU counter that
//! counts from reset and restarts at every block end of this hart holds at the block's
//! end: events and block ends cross the same stages, so the ending cycle's events
//! belong to the block that it ends.
use std::collections::BTreeMap;

use super::core::Core;
use super::events::{Event, EventSet, EVENT_COUNT};
use super::hart::HartRules;
use super::kernel::KernelRule;
use super::retirement::{Retirement, Xlen};

/// The privilege ring of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ring {
    /// kernel = 0 (ring 3).
    User,
    /// kernel = 1 (ring 0).
    Kernel,
}

/// Event counts per ring: `user[i]` and `kernel[i]` for the table's event i.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingCounts {
    /// Counts in user cycles.
    pub user: [u64; EVENT_COUNT],
    /// Counts in kernel cycles.
    pub kernel: [u64; EVENT_COUNT],
}

impl RingCounts {
    /// Add one cycle's events in the ring `kernel` names.
    pub fn add(&mut self, events: EventSet, kernel: bool) {
        let counts = if kernel { &mut self.kernel } else { &mut self.user };
        for event in events.iter() {
            counts[event.index()] += 1;
        }
    }

    /// `event`'s count in `ring`.
    pub fn get(&self, event: Event, ring: Ring) -> u64 {
        match ring {
            Ring::User => self.user[event.index()],
            Ring::Kernel => self.kernel[event.index()],
        }
    }

    /// `event`'s count in both rings.
    pub fn total(&self, event: Event) -> u64 {
        self.user[event.index()] + self.kernel[event.index()]
    }
}

/// One basic block that ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its first instruction's address (XLEN bits).
    pub start: u64,
    /// `start`'s low AW bits: the block address the PMU sees.
    pub address: u64,
    /// The cycle (log index) of the retirement that ends it.
    pub end_cycle: usize,
    /// The cycles (log indices) of its user retirements, first to last; the kernel
    /// retirements of a handler that interrupts it are not part of it.
    pub retirements: Vec<usize>,
    /// The events of the cycles after the previous block end (or from the log's first
    /// cycle) through `end_cycle`, every cycle in both rings.
    pub counts: RingCounts,
}

/// The totals of a retirement log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogSummary {
    /// The log's length in cycles.
    pub cycles: usize,
    /// Every cycle's events by the cycle's ring.
    pub counts: RingCounts,
    /// The blocks, in the order they end.
    pub blocks: Vec<Block>,
    /// How many blocks ended at each block address (AW bits).
    pub ends_by_address: BTreeMap<u64, u64>,
    /// The user retirements (log indices) of the block still under way at the log's
    /// end (empty if none).
    pub unfinished: Vec<usize>,
}

/// The summary of `log` (hart 0's port from reset, one element per cycle) on a
/// `generic` core of width `xlen` with kernel rule `kernel_rule` and AW =
/// `address_width` (1..=64).
pub fn summarize_log(log: &[Retirement], xlen: Xlen, kernel_rule: KernelRule, address_width: u32) -> LogSummary {
    summarize_core_log(log, xlen, kernel_rule, Core::Generic, address_width)
}

/// The summary of `log`, as [`summarize_log`], with the retirements read as `core`'s
/// (docs/soc.md §1.7).
pub fn summarize_core_log(
    log: &[Retirement],
    xlen: Xlen,
    kernel_rule: KernelRule,
    core: Core,
    address_width: u32,
) -> LogSummary {
    assert!((1..=64).contains(&address_width), "address width {address_width} is out of 1..=64");
    let address_mask = u64::MAX >> (64 - address_width);
    let mut rules = HartRules::for_core(xlen, kernel_rule, core);
    let mut summary = LogSummary { cycles: log.len(), ..LogSummary::default() };
    let mut since_end = RingCounts::default();
    let mut retirements = Vec::new();
    for (cycle, r) in log.iter().enumerate() {
        let derived = rules.cycle(r);
        summary.counts.add(derived.events, derived.kernel);
        since_end.add(derived.events, derived.kernel);
        // A retirement as the core's reader takes it (SERV's stopped instruction is none).
        if derived.events.contains(Event::Instret) && !derived.kernel {
            retirements.push(cycle);
        }
        if let Some(start) = derived.block_end {
            let address = start & address_mask;
            *summary.ends_by_address.entry(address).or_insert(0) += 1;
            summary.blocks.push(Block {
                start,
                address,
                end_cycle: cycle,
                retirements: std::mem::take(&mut retirements),
                counts: std::mem::take(&mut since_end),
            });
        }
    }
    summary.unfinished = retirements;
    summary
}
