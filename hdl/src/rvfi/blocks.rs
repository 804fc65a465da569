//! One hart's basic blocks (docs/soc.md §1.3): `start`, the address of the current
//! block's first instruction, and the block ends.
//!
//! Only user retirements (kernel(r) = 0) take part. The first user retirement after
//! reset or after a block end sets `start` to its `rvfi_pc_rdata` (start is then
//! pending); a user retirement that can end a block (a control transfer or a trap)
//! ends the block that began at `start`: `bb_end` = 1, `bb_addr` = start (low AW bits),
//! and no start is pending any more. The retirement that ends a block while none is
//! pending first starts one at its own address (a one-instruction block). Kernel
//! retirements leave everything as it is, so a block interrupted by a handler goes on.
//!
//! Latency: `bb_end` and `bb_addr` are combinational (the adapter registers them);
//! start and the pending flag are registered.
//!
//! ```text
//!  valid, kernel --> user --+--> pending ? start : pc_rdata --> bb_addr (with bb_end)
//!  ends_block --------------+--> bb_end;  start, pending (registered)
//! ```
use rust_hdl::prelude::*;

use super::groups;
use crate::custom::{literal, slice, unused_sink, zero_extend, Internal};
use crate::dyn_signal::{low_mask, DynSignal};
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// The tracker's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct BlockState {
    start: u64,
    pending: bool,
}

/// One hart's block tracker for XLEN-bit PCs and AW-bit block addresses.
#[derive(LogicBlock)]
pub struct BlockTracker {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: no start pending, start 0.
    pub reset: Signal<In, Bit>,
    /// `rvfi_valid`.
    pub valid: Signal<In, Bit>,
    /// This cycle's kernel value (the kernel rule's).
    pub kernel: Signal<In, Bit>,
    /// The retirement can end a block (the classifier's).
    pub ends_block: Signal<In, Bit>,
    /// `rvfi_pc_rdata`, XLEN bits.
    pub pc_rdata: DynSignal<In>,
    /// The retirement ends a block.
    pub bb_end: Signal<Out, Bit>,
    /// The ending block's start, AW bits (0 without `bb_end`).
    pub bb_addr: DynSignal<Out>,
    state: Internal<BlockState>,
}

impl BlockTracker {
    /// A tracker for `xlen_bits`-bit PCs (32 or 64) and `address_width`-bit block
    /// addresses (16..=48).
    pub fn new(xlen_bits: usize, address_width: usize) -> Self {
        assert!(matches!(xlen_bits, 32 | 64), "BlockTracker: XLEN = {xlen_bits} is not 32 or 64");
        assert!((16..=48).contains(&address_width), "BlockTracker: AW = {address_width} is out of range 16..=48");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            kernel: Default::default(),
            ends_block: Default::default(),
            pc_rdata: DynSignal::new(xlen_bits),
            bb_end: Default::default(),
            bb_addr: DynSignal::new(address_width),
            state: Internal(BlockState::default()),
        }
    }

    /// Bits of `start` kept: the PC's low bits that fit a block address.
    fn start_width(&self) -> usize {
        self.pc_rdata.width().min(self.bb_addr.width())
    }

    /// The registers: start and its pending flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        vec![
            FlipFlops::new("start_q", self.start_width(), 0, groups::BLOCK_START),
            FlipFlops::new("pending_q", 1, 0, groups::BLOCK_START),
        ]
    }

    /// (user retirement, the start of the block it belongs to).
    fn block(&self) -> (bool, u64) {
        let user = self.valid.val() && !self.kernel.val();
        let state = self.state.0;
        let pc = self.pc_rdata.get() & low_mask(self.start_width());
        (user, if state.pending { state.start } else { pc })
    }
}

impl Logic for BlockTracker {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let (user, start) = self.block();
            self.state.0 = match (self.reset.val(), user) {
                (true, _) => BlockState::default(),
                (false, true) => BlockState { start, pending: !self.ends_block.val() },
                (false, false) => self.state.0,
            };
        }
        let (user, start) = self.block();
        let end = user && self.ends_block.val();
        self.bb_end.next = end;
        self.bb_addr.set(if end { start } else { 0 });
    }

    fn connect(&mut self) {
        self.bb_end.connect();
        self.bb_addr.connect();
    }

    fn hdl(&self) -> Verilog {
        let (x, aw, sw) = (self.pc_rdata.width(), self.bb_addr.width(), self.start_width());
        let mut v = String::new();
        v.push_str(&declarations(&self.flip_flops()));
        verilog!(v, "wire user = valid & ~kernel;");
        verilog!(v, "wire [{}:0] pc = {};", sw - 1, slice("pc_rdata", 0, sw, x));
        verilog!(v, "// A block starts at the first user retirement after reset or a block end.");
        verilog!(v, "wire [{}:0] block_start = pending_q ? start_q : pc;", sw - 1);
        verilog!(v, "wire [{0}:0] start_d = user ? block_start : start_q;", sw - 1);
        verilog!(v, "wire pending_d = user ? ~ends_block : pending_q;");
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (reset) begin\n        start_q <= {};\n        pending_q <= 1'b0;", literal(sw, 0));
        verilog!(v, "    end else begin\n        start_q <= start_d;\n        pending_q <= pending_d;");
        verilog!(v, "    end\nend");
        verilog!(v, "always @(*) begin\n    bb_end = user & ends_block;");
        verilog!(v, "    bb_addr = bb_end ? {} : {};", zero_extend("block_start", sw, aw), literal(aw, 0));
        verilog!(v, "end");
        if sw < x {
            v.push_str(&unused_sink("pc_high", &[format!("pc_rdata[{}:{sw}]", x - 1)]));
        }
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::rvfi::params::{KernelRule, Xlen};
    use crate::rvfi::testing::{by_name, HartStream};
    use crate::testing::assert_valid_verilog;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Port, Ports};
    use rand::{Rng, SeedableRng};
    use std::cell::RefCell;

    impl Ports for BlockTracker {
        fn clock(&mut self) -> &mut Signal<In, Clock> {
            &mut self.clock
        }
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; reset, valid, kernel, ends_block, pc_rdata, bb_end, bb_addr)
        }
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut BlockTracker::new(32, 32), "blocks_x32_a32");
        assert_valid_verilog(&mut BlockTracker::new(32, 48), "blocks_x32_a48");
        assert_valid_verilog(&mut BlockTracker::new(64, 16), "blocks_x64_a16");
    }

    /// Random XLEN and AW (the corners among them) on a core's retirement stream with
    /// U/S/M mode changes: `kernel` is the mode rule's value, as the kernel rule gives it.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_5301;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let shapes = [(Xlen::Rv32, 32), (Xlen::Rv64, 48), (Xlen::Rv32, 16), (Xlen::Rv64, rng.gen_range(16..=48))];
        let streams: Vec<HartStream> =
            shapes.iter().map(|&(xlen, _)| HartStream::new(&mut rng, xlen, KernelRule::Mode)).collect();
        let instances = shapes
            .iter()
            .map(|&(xlen, aw)| (format!("XLEN={xlen} AW={aw}"), BlockTracker::new(xlen.bits(), aw)))
            .collect();
        let state = RefCell::new((streams, [false; 4]));
        Lockstep::new("blocks", seed)
            .cycle_stimulus(move |rng, instance, inputs| {
                let (streams, last) = &mut *state.borrow_mut();
                let (r, classified) = streams[instance].next_cycle();
                let kernel = if r.valid { r.mode != 0 } else { last[instance] };
                last[instance] = kernel;
                by_name(
                    inputs,
                    &[
                        ("reset", rng.gen_ratio(1, 800) as u64),
                        ("valid", r.valid as u64),
                        ("kernel", kernel as u64),
                        ("ends_block", classified.ends_block as u64),
                        ("pc_rdata", r.pc_rdata),
                    ],
                )
            })
            .cycles(6_000)
            .run(instances);
    }
}
