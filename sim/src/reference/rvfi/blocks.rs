//! The block rule of the RVFI adapter rules (docs/soc.md), for one hart. `start` is the
//! address of the current block's first instruction, or none after reset and after a
//! block end. A user retirement (kernel(r) = 0) with no start pending sets start =
//! its `rvfi_pc_rdata`; then, if it is a control transfer (a branch, JAL, JALR, or
//! opcode 0x73 with funct3 = 0, also in RVC form) or has `rvfi_trap` = 1, it ends the
//! block that starts at start, and no start is pending any more. So a control transfer
//! right after a block end (or as the first user retirement after reset) is a block of
//! one instruction, at its own address. Kernel retirements and cycles without a
//! retirement neither set start nor end a block, so a block interrupted by a handler
//! continues, and the block after an ECALL starts where the program resumes.
use super::decode::decode;
use super::retirement::{Retirement, Xlen};

/// One hart's block state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockTracker {
    /// The first instruction's address (XLEN bits) of the block under way.
    start: Option<u64>,
}

impl BlockTracker {
    /// The state after reset: no block under way.
    pub fn new() -> Self {
        Self::default()
    }

    /// The address (XLEN bits) of the current block's first instruction, if one is
    /// under way.
    pub fn start(&self) -> Option<u64> {
        self.start
    }

    /// A retirement `r` whose kernel value is `kernel`: the start address (XLEN bits)
    /// of the block it ends, if it ends one.
    pub fn retire(&mut self, r: &Retirement, kernel: bool, xlen: Xlen) -> Option<u64> {
        let r = r.normalized(xlen);
        if !r.valid || kernel {
            return None;
        }
        let start = *self.start.get_or_insert(r.pc_rdata);
        if r.trap || decode(r.insn, xlen).is_control_transfer() {
            self.start = None;
            Some(start)
        } else {
            None
        }
    }
}
