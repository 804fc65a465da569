//! The kernel rule (the RVFI adapter rules, docs/soc.md): `mode` and `handler`.
use super::insn::*;
use super::kernel_values;
use crate::reference::rvfi::{KernelRule, Retirement};

const USER: u64 = 0x1000;
const HANDLER: u64 = 0x10;

fn user(offset: u64) -> Retirement {
    Retirement::at(USER + offset, ADDI).in_mode(3)
}

fn handler(offset: u64, insn: u32) -> Retirement {
    Retirement::at(HANDLER + offset, insn).in_mode(3)
}

#[test]
fn the_mode_rule_follows_rvfi_mode() {
    let idle = Retirement::idle();
    let log = [
        idle,
        Retirement::at(USER, ADDI),
        Retirement::at(USER, ADDI).in_mode(1),
        idle,
        Retirement::at(USER, ADDI).in_mode(3),
        Retirement::at(USER, ADDI).interrupted(),
        idle,
        Retirement::at(USER, ADDI).in_mode(2),
        Retirement::at(USER, ADDI).in_mode(4),
    ];
    let expected = [false, false, true, true, true, false, false, true, false];
    assert_eq!(kernel_values(&log, KernelRule::Mode), expected, "mode has 2 bits; intr plays no part");
}

#[test]
fn the_handler_rule_runs_from_the_first_instruction_through_the_return() {
    let log = [
        user(0),
        user(4),
        handler(0, ADDI).interrupted(),
        handler(4, BEQ),
        Retirement::idle(),
        handler(8, MRET).then(USER + 8),
        Retirement::idle(),
        Retirement::idle(),
        user(8),
        Retirement::idle(),
    ];
    let expected = [false, false, true, true, true, true, true, true, false, false];
    assert_eq!(kernel_values(&log, KernelRule::Handler), expected, "the cycles after a return are kernel cycles");
}

#[test]
fn retirq_is_a_return_and_sret_is_not() {
    let log = [handler(0, ADDI).interrupted(), handler(4, SRET), handler(8, RETIRQ), user(0)];
    assert_eq!(kernel_values(&log, KernelRule::Handler), [true, true, true, false]);
}

#[test]
fn a_handler_of_one_instruction() {
    let log = [user(0), handler(0, MRET).interrupted(), user(4)];
    assert_eq!(kernel_values(&log, KernelRule::Handler), [false, true, false]);
}

#[test]
fn nested_returns_clear_the_one_flag() {
    let log = [
        user(0),
        handler(0, ADDI).interrupted(),
        handler(0, ADDI).interrupted(), // a nested entry
        handler(4, MRET),               // the inner return clears h
        handler(8, ADDI),               // the rest of the outer handler is user code
        handler(12, MRET),              // a return with kernel(r) = 0 changes nothing
        Retirement::idle(),
        user(4),
    ];
    assert_eq!(kernel_values(&log, KernelRule::Handler), [false, true, true, true, false, false, false, false]);
}

#[test]
fn a_return_retired_in_user_mode_changes_nothing() {
    let log =
        [user(0), user(4).then(USER + 8), Retirement::at(USER + 8, MRET).in_mode(3), user(12), Retirement::idle()];
    assert_eq!(kernel_values(&log, KernelRule::Handler), [false; 5]);
    let retirq = [Retirement::at(USER, RETIRQ), Retirement::idle(), user(4)];
    assert_eq!(kernel_values(&retirq, KernelRule::Handler), [false; 3]);
}

#[test]
fn idle_cycles_after_reset_are_user_cycles() {
    let log = [Retirement::idle(), Retirement::idle(), handler(0, ADDI).interrupted(), Retirement::idle()];
    assert_eq!(kernel_values(&log, KernelRule::Handler), [false, false, true, true]);
    assert_eq!(kernel_values(&log, KernelRule::Mode), [false, false, true, true]);
}
