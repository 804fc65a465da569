//! Tests of the RVFI adapter's reference model, each pinning one rule of the RISC-V
//! event table (docs/soc.md) or the RVFI adapter rules (docs/soc.md) with hand-made
//! retirements. The instruction words are an assembler's (llvm-mc, rv32imc/rv64imc).
mod blocks;
mod core;
mod events;
mod kernel;
mod log;
mod random;
mod stage;

use super::{classify, Event, HartRules, KernelRule, Retirement, Xlen};

/// Instruction words used across the tests.
mod insn {
    pub const ADDI: u32 = 0x0015_0513; // addi a0, a0, 1
    pub const C_ADDI: u32 = 0x0505; // c.addi a0, 1
    pub const BEQ: u32 = 0x0000_0463; // beq x0, x0, 8
    pub const BNE_BACK: u32 = 0xFEB5_1EE3; // bne a0, a1, -4
    pub const C_BEQZ: u32 = 0xC501; // c.beqz a0, 8
    pub const C_BNEZ_BACK: u32 = 0xFCFD; // c.bnez s1, -2
    pub const JAL_RA: u32 = 0x0100_00EF; // jal ra, 16
    pub const J: u32 = 0x0100_006F; // jal x0, 16
    pub const C_J: u32 = 0xA801; // c.j 16
    pub const RET: u32 = 0x0000_8067; // jalr x0, 0(ra)
    pub const C_JR_RA: u32 = 0x8082; // c.jr ra
    pub const C_JALR_A0: u32 = 0x9502; // c.jalr a0
    pub const ECALL: u32 = 0x0000_0073;
    pub const MRET: u32 = 0x3020_0073;
    pub const SRET: u32 = 0x1020_0073;
    pub const RETIRQ: u32 = 0x0400_000B;
    pub const LW: u32 = 0x0005_A503; // lw a0, 0(a1)
}

/// The event names of `events`, in table order.
fn names(events: super::EventSet) -> Vec<&'static str> {
    events.iter().map(Event::name).collect()
}

/// The event names `r` counts on RV32, without CYCLES and INSTRET (which every
/// retirement counts).
fn counted(r: Retirement, xlen: Xlen) -> Vec<&'static str> {
    let events = classify(&r, xlen);
    assert!(events.contains(Event::Cycles) && events.contains(Event::Instret), "{r:?}");
    names(events).into_iter().filter(|&name| name != "CYCLES" && name != "INSTRET").collect()
}

/// The kernel value of each cycle of `log` under `rule`, from reset.
fn kernel_values(log: &[Retirement], rule: KernelRule) -> Vec<bool> {
    let mut rules = HartRules::new(Xlen::Rv32, rule);
    log.iter().map(|r| rules.cycle(r).kernel).collect()
}

/// The block ends of each cycle of `log` under `rule` (RV32), from reset.
fn block_ends(log: &[Retirement], rule: KernelRule) -> Vec<Option<u64>> {
    let mut rules = HartRules::new(Xlen::Rv32, rule);
    log.iter().map(|r| rules.cycle(r).block_end).collect()
}
