//! The RVFI adapter for T harts (docs/soc.md §1): per hart a reader of the core's RVFI
//! (`--core`, §1.7), a retirement classifier, a kernel rule and a block tracker, and one
//! register stage for everything they derive.
//!
//! Latency: one cycle. What the retirement of cycle c gives (its events, the kernel
//! value, a block end and its address) is on the outputs during cycle c+1; during the
//! cycle after reset every output is 0, CYCLES included. The inputs need not come
//! from flip-flops.
//!
//! ```text
//!  rvfi_*[t] --> reader [t] (valid, trap, intr, pc_wdata, rmask as the rules take them)
//!                    v
//!                classifier [t] --events--------------------------------------> events_q [t*14 +: 14]
//!                    | handler_return, ends_block
//!                    v
//!               kernel rule [t] <-- kernel_q[t] (last) --kernel--> kernel_q [t]
//!                    | kernel
//!                    v
//!               block tracker [t] --bb_end, bb_addr-----------------------> bb_end_q [t], bb_addr_q [t*AW +: AW]
//! ```
mod schedule;
#[cfg(test)]
pub(crate) mod tests;
mod wiring;

use rust_hdl::prelude::*;

use super::blocks::BlockTracker;
use super::classifier::RetirementClassifier;
use super::events::EVENT_COUNT;
use super::groups;
use super::kernel::KernelTracker;
use super::params::{RvfiOptions, Xlen};
use super::port::RvfiInputs;
use super::reader::CoreReader;
use crate::custom::Internal;
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{within, FlipFlops};

/// The registered outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Outputs {
    events: Vec<u16>,
    kernel: Vec<bool>,
    bb_end: Vec<bool>,
    bb_addr: Vec<u64>,
}

/// The adapter's shape: T, XLEN, AW.
#[derive(Clone, Copy, Debug)]
struct Shape {
    harts: usize,
    xlen: Xlen,
    address_width: usize,
}

/// The RVFI adapter of T harts.
pub struct RvfiAdapter {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: every register to 0.
    pub reset: Signal<In, Bit>,
    /// The RVFI inputs (`rvfi_valid`, `rvfi_insn`, ... packed per hart).
    pub rvfi: RvfiInputs,
    /// Hart t's 14 event bits at [t*14 +: 14] (bit i = `events::EVENTS[i]`), registered.
    pub events: DynSignal<Out>,
    /// Bit t: hart t runs in the kernel, registered.
    pub kernel: DynSignal<Out>,
    /// Bit t: hart t ends a basic block, registered.
    pub bb_end: DynSignal<Out>,
    /// Hart t's ending block's start at [t*AW +: AW] (0 without `bb_end`), registered.
    pub bb_addr: DynSignal<Out>,
    readers: Vec<CoreReader>,
    classifiers: Vec<RetirementClassifier>,
    kernels: Vec<KernelTracker>,
    trackers: Vec<BlockTracker>,
    outputs: Internal<Outputs>,
    shape: Internal<Shape>,
}

impl RvfiAdapter {
    /// The adapter of `harts` harts (1..=4) of the core, XLEN and kernel rule of
    /// `options`, with `address_width`-bit block addresses (16..=48).
    pub fn new(harts: usize, options: RvfiOptions, address_width: usize) -> Self {
        let RvfiOptions { xlen, kernel_rule: rule, core } = options;
        assert!((1..=4).contains(&harts), "RvfiAdapter: T = {harts} is out of range 1..=4");
        assert!((16..=48).contains(&address_width), "RvfiAdapter: AW = {address_width} is out of range 16..=48");
        let mut adapter = Self {
            clock: Default::default(),
            reset: Default::default(),
            rvfi: RvfiInputs::new(harts, xlen),
            events: DynSignal::new(harts * EVENT_COUNT),
            kernel: DynSignal::new(harts),
            bb_end: DynSignal::new(harts),
            bb_addr: DynSignal::new(harts * address_width),
            readers: (0..harts).map(|_| CoreReader::new(core, xlen)).collect(),
            classifiers: (0..harts).map(|_| RetirementClassifier::new(xlen)).collect(),
            kernels: (0..harts).map(|_| KernelTracker::new(rule)).collect(),
            trackers: (0..harts).map(|_| BlockTracker::new(xlen.bits(), address_width)).collect(),
            outputs: Internal(Outputs::default()),
            shape: Internal(Shape { harts, xlen, address_width }),
        };
        adapter.outputs.0 = adapter.reset_outputs();
        adapter
    }

    /// Every register with its report group, named as in the flattened netlist.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let Shape { harts, address_width, .. } = self.shape.0;
        let mut all = vec![
            FlipFlops::new("events_q", harts * EVENT_COUNT, 0, groups::EVENTS),
            FlipFlops::new("kernel_q", harts, 0, groups::KERNEL),
            FlipFlops::new("bb_end_q", harts, 0, groups::BLOCK_END),
            FlipFlops::new("bb_addr_q", harts * address_width, 0, groups::BLOCK_END),
        ];
        for t in 0..harts {
            all.extend(within(&format!("readers__{t}"), self.readers[t].flip_flops()));
            all.extend(within(&format!("kernels__{t}"), self.kernels[t].flip_flops()));
            all.extend(within(&format!("trackers__{t}"), self.trackers[t].flip_flops()));
        }
        all
    }

    fn reset_outputs(&self) -> Outputs {
        let harts = self.shape.0.harts;
        Outputs {
            events: vec![0; harts],
            kernel: vec![false; harts],
            bb_end: vec![false; harts],
            bb_addr: vec![0; harts],
        }
    }
}

impl Logic for RvfiAdapter {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            schedule::clock_edge(self);
        }
        let Shape { address_width, .. } = self.shape.0;
        let outputs = &self.outputs.0;
        for t in 0..self.shape.0.harts {
            self.events.set_field(t * EVENT_COUNT, EVENT_COUNT, outputs.events[t] as u64);
            self.kernel.set_bit(t, outputs.kernel[t]);
            self.bb_end.set_bit(t, outputs.bb_end[t]);
            self.bb_addr.set_field(t * address_width, address_width, outputs.bb_addr[t]);
        }
    }

    fn connect(&mut self) {
        wiring::connect(self);
    }

    fn hdl(&self) -> Verilog {
        crate::custom::hand_written::<Self>(wiring::verilog(self))
    }
}

// The simulation evaluates the blocks' twins in signal order (the `update` named here),
// so a delta cycle updates the top's own ports only.
crate::scheduled_top!(
    RvfiAdapter,
    update: Logic::update,
    ports: [clock, reset, rvfi, events, kernel, bb_end, bb_addr],
    blocks: [readers, classifiers, kernels, trackers]
);

impl RvfiAdapter {
    /// (T, XLEN, AW).
    fn shape(&self) -> (usize, Xlen, usize) {
        let Shape { harts, xlen, address_width } = self.shape.0;
        (harts, xlen, address_width)
    }
}
