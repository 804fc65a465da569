//! A whole retirement log summed up: counts per ring, blocks and their ends.
use super::insn::*;
use crate::reference::rvfi::{summarize_log, Event, KernelRule, Retirement, Ring, Xlen};

#[test]
fn a_log_with_an_interrupted_loop() {
    let handler = |offset: u64, insn: u32| Retirement::at(0x10 + offset, insn).in_mode(3);
    let user = |pc: u64, insn: u32| Retirement::at(pc, insn).in_mode(3);
    let log = [
        user(0x1000, ADDI),                  // 0: block 0x1000 starts
        user(0x1004, LW).accessing(0xF, 0),  // 1
        handler(0, ADDI).interrupted(),      // 2: kernel
        handler(4, RETIRQ).then(0x1008),     // 3: kernel
        Retirement::idle(),                  // 4: kernel (after the return)
        user(0x1008, BNE_BACK).then(0x1004), // 5: ends 0x1000
        user(0x1004, LW).accessing(0xF, 0),  // 6: block 0x1004 starts
        user(0x1008, BNE_BACK),              // 7: ends 0x1004, not taken
        user(0x100C, JAL_RA).then(0x1100),   // 8: ends 0x100C
        Retirement::idle(),                  // 9
        user(0x1100, C_ADDI),                // 10: block 0x1100 under way
    ];
    let summary = summarize_log(&log, Xlen::Rv32, KernelRule::Handler, 12);
    assert_eq!(summary.cycles, 11);
    assert_eq!(summary.counts.get(Event::Cycles, Ring::User), 8);
    assert_eq!(summary.counts.get(Event::Cycles, Ring::Kernel), 3);
    assert_eq!(summary.counts.get(Event::StallCycles, Ring::Kernel), 1);
    assert_eq!(summary.counts.get(Event::Interrupt, Ring::Kernel), 1);
    assert_eq!(summary.counts.total(Event::Instret), 9);
    assert_eq!(summary.counts.get(Event::Load, Ring::User), 2);
    assert_eq!(summary.counts.get(Event::Branch, Ring::User), 2);
    assert_eq!(summary.counts.get(Event::BranchTaken, Ring::User), 1);
    assert_eq!(summary.counts.get(Event::Call, Ring::User), 1);
    let starts: Vec<(u64, u64, usize)> = summary.blocks.iter().map(|b| (b.start, b.address, b.end_cycle)).collect();
    assert_eq!(starts, [(0x1000, 0x000, 5), (0x1004, 0x004, 7), (0x100C, 0x00C, 8)], "AW = 12");
    assert_eq!(summary.blocks[0].retirements, [0, 1, 5]);
    assert_eq!(summary.blocks[0].counts.total(Event::Cycles), 6);
    assert_eq!(summary.blocks[0].counts.get(Event::Instret, Ring::Kernel), 2);
    assert_eq!(summary.blocks[1].retirements, [6, 7]);
    assert_eq!(summary.blocks[2].retirements, [8]);
    assert_eq!(summary.blocks[2].counts.total(Event::Cycles), 1);
    assert_eq!(summary.ends_by_address.iter().map(|(&a, &n)| (a, n)).collect::<Vec<_>>(), [(0, 1), (4, 1), (0xC, 1)]);
    assert_eq!(summary.unfinished, [10]);
}
