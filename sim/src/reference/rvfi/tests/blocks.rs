//! The block rule (the RVFI adapter rules, docs/soc.md): which user retirements end a
//! block, and where the next block starts.
use super::block_ends;
use super::insn::*;
use crate::reference::rvfi::{KernelRule, Retirement};

const HANDLER: u64 = 0x8000_0100;

fn at(pc: u64, insn: u32) -> Retirement {
    Retirement::at(pc, insn)
}

fn kernel(pc: u64, insn: u32) -> Retirement {
    Retirement::at(pc, insn).in_mode(3)
}

#[test]
fn a_branch_ends_the_block_that_starts_after_the_previous_end() {
    let log = [
        at(0x100, ADDI),
        Retirement::idle(),
        at(0x104, ADDI),
        at(0x108, BEQ).then(0x200),
        Retirement::idle(),
        at(0x200, C_ADDI),
        at(0x202, C_BEQZ),
    ];
    let ends = block_ends(&log, KernelRule::Mode);
    assert_eq!(ends, [None, None, None, Some(0x100), None, None, Some(0x200)]);
}

#[test]
fn every_control_transfer_ends_a_block() {
    let words = [BEQ, C_BEQZ, JAL_RA, J, C_J, RET, C_JR_RA, C_JALR_A0, ECALL, 0x0010_0073, 0x9002, MRET, SRET];
    for word in words {
        let log = [at(0x100, ADDI), at(0x104, word)];
        assert_eq!(block_ends(&log, KernelRule::Mode), [None, Some(0x100)], "{word:#x}");
    }
    let wfi = [at(0x100, ADDI), at(0x104, 0x1050_0073)];
    assert_eq!(block_ends(&wfi, KernelRule::Mode), [None, Some(0x100)], "wfi");
    for word in [0x3405_1073, RETIRQ, LW, 0x02C5_8533, 0x0FF0_000F] {
        let log = [at(0x100, ADDI), at(0x104, word)];
        assert_eq!(block_ends(&log, KernelRule::Mode), [None, None], "{word:#x}");
    }
}

#[test]
fn back_to_back_control_transfers_are_one_instruction_blocks() {
    let log = [at(0x100, JAL_RA).then(0x300), at(0x300, BEQ), at(0x304, C_J).then(0x400), at(0x400, RET)];
    assert_eq!(block_ends(&log, KernelRule::Mode), [Some(0x100), Some(0x300), Some(0x304), Some(0x400)]);
}

#[test]
fn a_trap_ends_a_block() {
    let log = [
        at(0x100, ADDI),
        at(0x104, LW).trapping_to(HANDLER),
        kernel(HANDLER, ADDI).interrupted(),
        kernel(HANDLER + 4, MRET).then(0x108),
        at(0x108, 0).trapping_to(HANDLER),
        kernel(HANDLER, MRET).interrupted(),
        at(0x10A, ADDI),
    ];
    let ends = block_ends(&log, KernelRule::Mode);
    assert_eq!(ends, [None, Some(0x100), None, None, Some(0x108), None, None]);
}

#[test]
fn an_interrupted_block_continues_after_the_handler() {
    for rule in [KernelRule::Mode, KernelRule::Handler] {
        let log = [
            at(0x100, ADDI),
            kernel(HANDLER, ADDI).interrupted(),
            kernel(HANDLER + 4, BEQ).then(HANDLER + 12),
            kernel(HANDLER + 12, JAL_RA),
            kernel(HANDLER + 0x10, MRET).then(0x104),
            Retirement::idle(),
            at(0x104, ADDI),
            at(0x108, BNE_BACK).then(0x104),
        ];
        let ends = block_ends(&log, rule);
        assert_eq!(ends, [None, None, None, None, None, None, None, Some(0x100)], "{rule:?}");
    }
}

#[test]
fn the_block_after_an_ecall_starts_where_the_program_resumes() {
    let log = [
        at(0x100, ADDI),
        at(0x104, ECALL).then(HANDLER),
        kernel(HANDLER, ADDI).interrupted(),
        kernel(HANDLER + 4, MRET).then(0x108),
        at(0x108, ADDI),
        at(0x10C, BEQ),
    ];
    let ends = block_ends(&log, KernelRule::Mode);
    assert_eq!(ends, [None, Some(0x100), None, None, None, Some(0x108)]);
}

#[test]
fn kernel_retirements_never_end_or_start_a_block() {
    let log = [kernel(HANDLER, BEQ), kernel(HANDLER + 4, ECALL).trapping_to(HANDLER), at(0x100, ADDI), at(0x104, J)];
    assert_eq!(block_ends(&log, KernelRule::Mode), [None, None, None, Some(0x100)]);
}

#[test]
fn the_first_user_retirement_after_reset_can_end_a_one_instruction_block() {
    assert_eq!(block_ends(&[at(0x100, BEQ), at(0x104, ADDI)], KernelRule::Mode), [Some(0x100), None]);
}

#[test]
fn a_stray_return_ends_a_block_under_the_handler_rule() {
    let log = [at(0x100, ADDI).in_mode(3), at(0x104, MRET).in_mode(3), at(0x108, RETIRQ).in_mode(3), at(0x10C, BEQ)];
    assert_eq!(block_ends(&log, KernelRule::Handler), [None, Some(0x100), None, Some(0x108)]);
}

#[test]
fn the_handler_return_itself_is_kernel_and_ends_nothing() {
    let log = [
        at(0x100, ADDI).in_mode(3),
        kernel(0x10, RETIRQ).interrupted().then(0x104),
        at(0x104, C_J).in_mode(3).then(0x200),
    ];
    assert_eq!(block_ends(&log, KernelRule::Handler), [None, None, Some(0x100)]);
}
