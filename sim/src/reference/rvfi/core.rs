//! How the adapter reads each core's RVFI (`--core`, docs/soc.md §1.7): the core's
//! retirement turned into what the RISC-V event table and the adapter's rules expect,
//! before they apply, so that the events mean the same on every core.
//!
//! - `generic`: the port as riscv-formal defines it, unchanged.
//! - PicoRV32: ECALL, EBREAK and C.EBREAK trap (its IRQ 1), though it reports
//!   `rvfi_trap` = 0 for them.
//! - SERV: `rvfi_intr` is never set, so the first retirement after a trapping one is
//!   the handler's first instruction; a trapping retirement that is not ECALL or EBREAK
//!   is an instruction an interrupt stopped (it runs again after MRET), so no retirement.
//! - Ibex: `rvfi_mem_rmask` is set on every retirement, so only a load opcode that did
//!   not trap reads memory; the next address of a trapping instruction is not the
//!   handler's, so a trapping instruction's next address is taken as its own address
//!   (never the fall-through: a trapping branch is taken).
use super::decode::decode;
use super::kernel::KernelRule;
use super::retirement::{Retirement, Xlen};

/// ECALL.
pub const ECALL: u32 = 0x0000_0073;
/// EBREAK.
pub const EBREAK: u32 = 0x0010_0073;
/// C.EBREAK.
pub const C_EBREAK: u16 = 0x9002;

/// The core that drives the adapter (`--core`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Core {
    /// RVFI as riscv-formal defines it.
    #[default]
    Generic,
    /// PicoRV32.
    Picorv32,
    /// SERV.
    Serv,
    /// Ibex.
    Ibex,
}

impl Core {
    /// Every core, `generic` first.
    pub const ALL: [Core; 4] = [Core::Generic, Core::Picorv32, Core::Serv, Core::Ibex];

    /// The value of `--core`.
    pub fn name(self) -> &'static str {
        match self {
            Core::Generic => "generic",
            Core::Picorv32 => "picorv32",
            Core::Serv => "serv",
            Core::Ibex => "ibex",
        }
    }

    /// The kernel rule when `--kernel` is not given: `handler` for the cores that run in
    /// machine mode only.
    pub fn default_kernel_rule(self) -> KernelRule {
        match self {
            Core::Picorv32 | Core::Serv => KernelRule::Handler,
            Core::Generic | Core::Ibex => KernelRule::Mode,
        }
    }
}

/// `insn` raises an exception whatever its operands: ECALL, EBREAK or C.EBREAK.
pub fn is_exception_call(insn: u32) -> bool {
    insn == ECALL || insn == EBREAK || (insn & 0b11 != 0b11 && insn as u16 == C_EBREAK)
}

/// `insn`'s expansion reads memory by its opcode: LOAD (0x03) or LOAD-FP (0x07).
pub fn is_load(insn: u32, xlen: Xlen) -> bool {
    matches!(decode(insn, xlen).opcode(), Some(0x03 | 0x07))
}

/// One hart's reader of its core's retirements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreReader {
    core: Core,
    /// SERV: the last retirement trapped (so the next one enters a handler).
    after_trap: bool,
}

impl CoreReader {
    /// The reader after reset.
    pub fn new(core: Core) -> Self {
        Self { core, after_trap: false }
    }

    /// The retirement `r` (already cut to the ports' widths) as the rules take it, and
    /// the state after it.
    pub fn read(&mut self, r: &Retirement, xlen: Xlen) -> Retirement {
        if !r.valid {
            return *r;
        }
        match self.core {
            Core::Generic => *r,
            Core::Picorv32 => Retirement { trap: r.trap || is_exception_call(r.insn), ..*r },
            Core::Serv => {
                let entered = std::mem::replace(&mut self.after_trap, r.trap);
                if r.trap && !is_exception_call(r.insn) {
                    Retirement::idle()
                } else {
                    Retirement { intr: r.intr || entered, ..*r }
                }
            }
            Core::Ibex => Retirement {
                mem_rmask: if is_load(r.insn, xlen) && !r.trap { r.mem_rmask } else { 0 },
                pc_wdata: if r.trap { r.pc_rdata } else { r.pc_wdata },
                ..*r
            },
        }
    }
}
