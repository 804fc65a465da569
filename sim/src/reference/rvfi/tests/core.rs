//! How each core's retirements are read (`--core`, docs/soc.md §1.7), one rule each.
use super::insn::{ADDI, BEQ, C_ADDI, ECALL, LW, MRET};
use super::names;
use crate::reference::rvfi::{summarize_core_log, Core, Event, HartRules, KernelRule, Retirement, Ring, Xlen};

/// The events and kernel value of each cycle of `log` read as `core`'s, RV32.
fn read(log: &[Retirement], core: Core) -> Vec<(Vec<&'static str>, bool)> {
    let mut rules = HartRules::for_core(Xlen::Rv32, core.default_kernel_rule(), core);
    log.iter()
        .map(|r| {
            let cycle = rules.cycle(r);
            (names(cycle.events), cycle.kernel)
        })
        .collect()
}

#[test]
fn generic_reads_the_port_as_it_is() {
    let log = [Retirement::at(0x100, ECALL).trapping_to(0x10), Retirement::at(0x10, ADDI).interrupted()];
    let read = read(&log, Core::Generic);
    assert_eq!(read[0].0, ["CYCLES", "INSTRET", "TRAP", "SYSTEM"]);
    assert_eq!(read[1], (vec!["CYCLES", "INSTRET", "INTERRUPT"], false), "mode rule, mode 0");
}

#[test]
fn picorv32_ecall_and_ebreak_trap() {
    let log = [
        Retirement::at(0x100, ECALL).then(0x104).in_mode(3),
        Retirement::at(0x10, ADDI).interrupted().in_mode(3),
        Retirement::at(0x14, 0x9002).in_mode(3),
        Retirement::at(0x16, 0x0010_0073).in_mode(3),
        Retirement::at(0x1A, ADDI).in_mode(3),
    ];
    let read = read(&log, Core::Picorv32);
    assert_eq!(read[0], (vec!["CYCLES", "INSTRET", "TRAP", "SYSTEM"], false));
    assert_eq!(read[1], (vec!["CYCLES", "INSTRET", "INTERRUPT"], true), "the handler rule by default");
    assert!(read[2].0.contains(&"TRAP") && read[3].0.contains(&"TRAP"), "C.EBREAK, EBREAK");
    assert_eq!(read[4].0, ["CYCLES", "INSTRET"]);
}

/// An interrupted instruction is no retirement, runs again after MRET and counts once;
/// the handler entries after it and after an ECALL are INTERRUPTs in the kernel.
#[test]
fn serv_interrupt_is_one_entry_and_the_stopped_instruction_counts_once() {
    let m = |r: Retirement| r.in_mode(3);
    let log = [
        m(Retirement::at(0x200, BEQ).trapping_to(0x100)), // stopped by the timer
        m(Retirement::at(0x100, ADDI)),
        Retirement::idle(),
        m(Retirement::at(0x104, MRET).then(0x200)),
        m(Retirement::at(0x200, BEQ).then(0x208)), // runs again, taken
        m(Retirement::at(0x208, ECALL).trapping_to(0x100)),
        m(Retirement::at(0x100, LW).accessing(0xF, 0)),
        m(Retirement::at(0x104, MRET).then(0x20C)),
        m(Retirement::at(0x20C, C_ADDI)),
    ];
    let read = read(&log, Core::Serv);
    assert_eq!(read[0], (vec!["CYCLES", "STALL_CYCLES"], false), "no retirement");
    assert_eq!(read[1], (vec!["CYCLES", "INSTRET", "INTERRUPT"], true));
    assert_eq!(read[2], (vec!["CYCLES", "STALL_CYCLES"], true));
    assert!(read[3].1, "the return is in the kernel");
    assert_eq!(read[4], (vec!["CYCLES", "INSTRET", "BRANCH", "BRANCH_TAKEN"], false));
    assert_eq!(read[5], (vec!["CYCLES", "INSTRET", "TRAP", "SYSTEM"], false), "ECALL retires and traps");
    assert_eq!(read[6], (vec!["CYCLES", "INSTRET", "LOAD", "INTERRUPT"], true));
    assert_eq!(read[8], (vec!["CYCLES", "INSTRET"], false));
    // The stopped branch does not end a block; it ends the block it belongs to when it runs.
    let summary = summarize_core_log(&log, Xlen::Rv32, KernelRule::Handler, Core::Serv, 32);
    let ends: Vec<(u64, usize)> = summary.blocks.iter().map(|b| (b.start, b.end_cycle)).collect();
    assert_eq!(ends, [(0x200, 4), (0x208, 5)]);
    assert_eq!(summary.counts.get(Event::Instret, Ring::User), 3);
    assert_eq!(summary.counts.get(Event::Interrupt, Ring::Kernel), 2);
}

#[test]
fn ibex_loads_by_opcode_and_trapping_branches_are_taken() {
    let log = [
        Retirement::at(0x80, ADDI).accessing(0xF, 0),
        Retirement::at(0x84, LW).accessing(0xF, 0),
        Retirement::at(0x88, 0x4108).accessing(0xF, 0), // c.lw a0, 0(a0)
        Retirement::at(0x8A, LW).accessing(0xF, 0).trapping_to(0x8E),
        Retirement::at(0x8E, BEQ).trapping_to(0x92),
        Retirement::at(0x92, BEQ).then(0x96),
    ];
    let read = read(&log, Core::Ibex);
    assert_eq!(read[0].0, ["CYCLES", "INSTRET"]);
    assert_eq!(read[1].0, ["CYCLES", "INSTRET", "LOAD"]);
    assert_eq!(read[2].0, ["CYCLES", "INSTRET", "LOAD"]);
    assert_eq!(read[3].0, ["CYCLES", "INSTRET", "TRAP"], "a trapping load read nothing");
    assert_eq!(read[4].0, ["CYCLES", "INSTRET", "BRANCH", "BRANCH_TAKEN", "TRAP"]);
    assert_eq!(read[5].0, ["CYCLES", "INSTRET", "BRANCH"]);
}

#[test]
fn cores_name_themselves_and_their_kernel_rule() {
    let names: Vec<&str> = Core::ALL.iter().map(|core| core.name()).collect();
    assert_eq!(names, ["generic", "picorv32", "serv", "ibex"]);
    let rules: Vec<KernelRule> = Core::ALL.iter().map(|core| core.default_kernel_rule()).collect();
    assert_eq!(rules, [KernelRule::Mode, KernelRule::Handler, KernelRule::Handler, KernelRule::Mode]);
}
