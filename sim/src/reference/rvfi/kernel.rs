//! The kernel rule of the RVFI adapter rules (docs/soc.md), for one hart: whether each
//! cycle is a kernel (ring 0) cycle. With [`KernelRule::Mode`] a retirement is in the
//! kernel when `rvfi_mode` != 0. With [`KernelRule::Handler`] (cores that run in machine
//! mode only) a flag h, 0 after reset, follows the interrupt handler: kernel(r) =
//! `rvfi_intr` OR h, and after r, h = kernel(r) AND r is not a return (MRET or
//! `retirq`). A cycle without a retirement has the kernel value of the last retirement
//! (0 after reset) under either rule.
use super::decode::decode;
use super::retirement::{Retirement, Xlen};

/// How the adapter decides that a hart runs in the kernel (`--kernel mode|handler`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KernelRule {
    /// kernel(r) = `rvfi_mode` != 0 (U = 0 is the user, S = 1 and M = 3 the kernel).
    #[default]
    Mode,
    /// kernel(r) = `rvfi_intr` OR "inside the handler", from the handler's first
    /// instruction through its return (MRET or PicoRV32's `retirq`), inclusive.
    Handler,
}

/// One hart's kernel state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelTracker {
    rule: KernelRule,
    /// h: the handler rule's "inside the handler" flag (unused with the mode rule).
    in_handler: bool,
    /// The kernel value of the last retirement (0 after reset).
    last_kernel: bool,
}

impl KernelTracker {
    /// The state after reset.
    pub fn new(rule: KernelRule) -> Self {
        Self { rule, in_handler: false, last_kernel: false }
    }

    /// The kernel value of the cycle whose port holds `r`, and the state after it.
    pub fn cycle(&mut self, r: &Retirement, xlen: Xlen) -> bool {
        let r = r.normalized(xlen);
        if !r.valid {
            return self.last_kernel;
        }
        let kernel = match self.rule {
            KernelRule::Mode => r.mode != 0,
            KernelRule::Handler => r.intr || self.in_handler,
        };
        self.in_handler = kernel && !decode(r.insn, xlen).handler_return;
        self.last_kernel = kernel;
        kernel
    }
}
