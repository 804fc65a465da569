//! The RVFI adapter's reference model, written from the RISC-V event table
//! (docs/soc.md) and the RVFI adapter rules (docs/soc.md) alone: the 14 events of one
//! retirement (RVFI with NRET = 1, compressed instructions classified as their
//! expansions), the kernel rule (`mode` or `handler`), the block rule (`bb_end`,
//! `bb_addr`) and the adapter's one register stage, for T harts, cycle by cycle; and
//! the same rules summed over a whole retirement log.
//!
//! # Choices the rules leave open
//! - Bits the ports do not have are ignored: `rvfi_mode` has 2 bits, the PCs XLEN bits,
//!   the memory masks XLEN/8 bits; with `rvfi_valid` = 0 every other field is ignored.
//!   A compressed instruction is decoded from `rvfi_insn[15:0]` alone.
//! - Events are defined by the expansion's opcode (and funct3/funct7 where named), not
//!   by a full legality check of the 32-bit word. A reserved compressed encoding (C.JR
//!   with rs1 = x0, C.ADDI4SPN with 0 and the all-zero word, and the like) has no
//!   expansion and is in no class (only CYCLES, INSTRET and what `rvfi_trap`,
//!   `rvfi_intr` and the masks give). RV64's MULW/DIVW (opcode 0x3B) are not MULDIV.
//! - A control transfer for the block rule is any opcode 0x73 with funct3 = 0, so
//!   SFENCE.VMA, SRET, URET and DRET end a block as ECALL, EBREAK, MRET and WFI do.
//!   PicoRV32's `retirq` (custom opcode 0x0B) does not end a block; it matters only as
//!   a return for the handler kernel rule. A return is recognised by the whole 32-bit
//!   word (MRET 0x30200073, `retirq` 0x0400000B), trapping or not.
//! - "A cycle without r has the kernel value of the last retirement (0 after reset)"
//!   holds under both kernel rules. Under the handler rule h is one flag, not a depth:
//!   after the return of a nested handler the rest of the outer handler is user code.
//! - The retirement that ends a block while no start is pending (the first user
//!   retirement after reset or after a block end) sets start to its own address first,
//!   so it ends a one-instruction block at its own address.
//! - `bb_addr` is 0 in a cycle without `bb_end`.
//! - The register stage holds 0 after reset: during the first cycle after reset every
//!   output is 0, CYCLES and STALL_CYCLES included; CYCLES is 1 in every later cycle.
//!   The retirements of a cycle with reset asserted are dropped ([`ReferenceAdapter::reset`]).
mod adapter;
mod blocks;
mod classify;
mod core;
mod decode;
mod events;
mod hart;
mod kernel;
mod log;
mod log_file;
mod pmu_inputs;
mod retirement;
mod rvc;
#[cfg(test)]
mod tests;

pub use self::core::{is_exception_call, is_load, Core, CoreReader};
pub use adapter::{AdapterOutputs, HartOutputs, ReferenceAdapter};
pub use blocks::BlockTracker;
pub use classify::classify;
pub use decode::{decode, opcode, Expansion, InstructionClass, MRET, RETIRQ};
pub use events::{Event, EventInfo, EventSet, EVENTS, EVENT_COUNT};
pub use hart::{HartCycle, HartRules};
pub use kernel::{KernelRule, KernelTracker};
pub use log::{summarize_core_log, summarize_log, Block, LogSummary, Ring, RingCounts};
pub use log_file::{log_line, parse_log, LOG_HEADER};
pub use retirement::{Retirement, Xlen};
pub use rvc::expand;
