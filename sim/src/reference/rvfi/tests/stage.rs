//! The adapter's register stage and its T harts (the RVFI adapter rules, docs/soc.md):
//! the outputs of cycle c are what the retirements of cycle c-1 give.
use super::insn::*;
use super::names;
use crate::ports::pmu::{get_bits, PmuInputs};
use crate::reference::rvfi::{Event, HartOutputs, KernelRule, ReferenceAdapter, Retirement, Xlen};

#[test]
fn outputs_follow_the_retirements_one_cycle_late() {
    let mut adapter = ReferenceAdapter::new(1, Xlen::Rv32, KernelRule::Mode, 32);
    let cycles = [
        Retirement::at(0x100, ADDI),
        Retirement::at(0x104, BEQ).then(0x10C),
        Retirement::idle(),
        Retirement::at(0x10C, ECALL).then(0x8000_0000),
        Retirement::at(0x8000_0000, ADDI).in_mode(3).interrupted(),
    ];
    let outputs: Vec<HartOutputs> = cycles.iter().map(|r| adapter.step(&[*r]).harts[0]).collect();
    assert_eq!(outputs[0], HartOutputs::default(), "all 0 in the first cycle after reset, CYCLES included");
    assert_eq!(names(outputs[1].events), ["CYCLES", "INSTRET"]);
    assert_eq!(names(outputs[2].events), ["CYCLES", "INSTRET", "BRANCH", "BRANCH_TAKEN"]);
    assert_eq!((outputs[2].bb_end, outputs[2].bb_addr), (true, 0x100));
    assert_eq!(names(outputs[3].events), ["CYCLES", "STALL_CYCLES"]);
    assert_eq!((outputs[3].bb_end, outputs[3].bb_addr), (false, 0), "bb_addr is 0 without bb_end");
    assert_eq!((outputs[4].bb_end, outputs[4].bb_addr, outputs[4].kernel), (true, 0x10C, false));
    let last = adapter.outputs().harts[0];
    assert_eq!((last.kernel, last.events.contains(Event::Interrupt)), (true, true));
}

#[test]
fn reset_clears_the_stage_and_the_rules() {
    let mut adapter = ReferenceAdapter::new(1, Xlen::Rv32, KernelRule::Handler, 32);
    adapter.step(&[Retirement::at(0x100, ADDI).in_mode(3)]);
    adapter.step(&[Retirement::at(0x10, ADDI).in_mode(3).interrupted()]);
    assert!(adapter.outputs().harts[0].kernel);
    adapter.reset();
    assert_eq!(adapter.outputs().harts[0], HartOutputs::default());
    let after = adapter.step(&[Retirement::at(0x200, J).in_mode(3)]).harts[0];
    assert_eq!(after, HartOutputs::default());
    let end = adapter.step(&[Retirement::idle()]).harts[0];
    assert_eq!((end.kernel, end.bb_end, end.bb_addr), (false, true, 0x200), "h and start were cleared");
}

#[test]
fn harts_are_independent_and_addresses_keep_aw_bits() {
    let mut adapter = ReferenceAdapter::new(3, Xlen::Rv64, KernelRule::Mode, 16);
    let first = [
        Retirement::at(0x1234_5678_9ABC, ADDI),
        Retirement::at(0xFFFF_FFFF_8000_0000, BEQ).in_mode(1),
        Retirement::at(0x4_0000, C_J).then(0x5_0000),
    ];
    adapter.step(&first);
    let second = [Retirement::at(0x1234_5678_9AC0, J), Retirement::idle(), Retirement::idle()];
    let outputs = adapter.step(&second);
    assert!(!outputs.harts[0].bb_end);
    assert_eq!((outputs.harts[1].bb_end, outputs.harts[1].kernel), (false, true));
    assert_eq!((outputs.harts[2].bb_end, outputs.harts[2].bb_addr), (true, 0));
    let outputs = adapter.step(&[Retirement::idle(); 3]);
    assert_eq!((outputs.harts[0].bb_end, outputs.harts[0].bb_addr), (true, 0x9ABC));
    assert!(outputs.harts[1].kernel, "an idle cycle keeps the last retirement's kernel value");
}

#[test]
fn the_outputs_drive_the_pmu_event_inputs() {
    let mut adapter = ReferenceAdapter::new(2, Xlen::Rv32, KernelRule::Mode, 32);
    adapter.step(&[Retirement::at(0x100, BEQ).then(0x108).in_mode(3), Retirement::at(0x200, LW).accessing(0xF, 0)]);
    let table = [Event::Instret, Event::Branch, Event::Load, Event::Cycles];
    let mut inputs = PmuInputs { pid: [7, 8, 0, 0], ..PmuInputs::default() };
    adapter.outputs().drive_pmu_inputs(&table, &mut inputs);
    assert_eq!(get_bits(&inputs.events, 0, 4), 0b1011, "hart 0: INSTRET, BRANCH, CYCLES");
    assert_eq!(get_bits(&inputs.events, 4, 4), 0b1101, "hart 1: INSTRET, LOAD, CYCLES");
    assert_eq!((inputs.kernel, inputs.bb_end, inputs.bb_addr), (0b01, 0b00, [0; 4]));
    assert_eq!(inputs.pid, [7, 8, 0, 0]);
}
