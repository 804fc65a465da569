//! The RISC-V event table (docs/soc.md) applied to one cycle: which of its 14 events
//! one hart's retirement port counts. CYCLES counts in every cycle, STALL_CYCLES in a
//! cycle without a retirement, every other event only with a retirement r.
use super::decode::decode;
use super::events::{Event, EventSet};
use super::retirement::{Retirement, Xlen};

/// The events that `r` (one cycle of one hart's port, `valid` = 0 for none) counts on
/// a core of width `xlen`. Fields beyond the ports' widths are ignored
/// ([`Retirement::normalized`]); BRANCH_TAKEN compares `pc_wdata` with `pc_rdata` +
/// len(r) modulo 2^XLEN.
pub fn classify(r: &Retirement, xlen: Xlen) -> EventSet {
    let r = r.normalized(xlen);
    let cycle = EventSet::EMPTY.with(Event::Cycles);
    if !r.valid {
        return cycle.with(Event::StallCycles);
    }
    let class = decode(r.insn, xlen);
    let fall_through = r.pc_rdata.wrapping_add(class.length as u64) & xlen.pc_mask();
    cycle
        .with(Event::Instret)
        .with_if(Event::Load, r.mem_rmask != 0)
        .with_if(Event::Store, r.mem_wmask != 0)
        .with_if(Event::Branch, class.is_branch())
        .with_if(Event::BranchTaken, class.is_branch() && r.pc_wdata != fall_through)
        .with_if(Event::Jump, class.is_jump())
        .with_if(Event::Call, class.is_call())
        .with_if(Event::Return, class.is_return_jump())
        .with_if(Event::Trap, r.trap)
        .with_if(Event::Interrupt, r.intr)
        .with_if(Event::System, class.is_system())
        .with_if(Event::Muldiv, class.is_muldiv())
}
