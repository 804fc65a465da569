//! The RISC-V event table (docs/soc.md): every event on its 32-bit and RVC encodings.
use super::insn::*;
use super::{counted, names};
use crate::reference::rvfi::{classify, decode, Event, EventSet, Retirement, Xlen, EVENTS};

const PC: u64 = 0x1000;
const HANDLER: u64 = 0x10;

fn rv32(r: Retirement) -> Vec<&'static str> {
    counted(r, Xlen::Rv32)
}

fn rv64(r: Retirement) -> Vec<&'static str> {
    counted(r, Xlen::Rv64)
}

fn at(insn: u32) -> Retirement {
    Retirement::at(PC, insn)
}

#[test]
fn the_table_lists_fourteen_events_in_order() {
    let order = [
        "CYCLES",
        "INSTRET",
        "STALL_CYCLES",
        "LOAD",
        "STORE",
        "BRANCH",
        "BRANCH_TAKEN",
        "JUMP",
        "CALL",
        "RETURN",
        "TRAP",
        "INTERRUPT",
        "SYSTEM",
        "MULDIV",
    ];
    assert_eq!(EVENTS.map(|info| info.name), order);
    for (index, info) in EVENTS.iter().enumerate() {
        assert_eq!(info.event.index(), index);
        assert_eq!(Event::ALL[index], info.event);
        assert_eq!(Event::from_name(info.name), Some(info.event));
        assert!(info.description.ends_with('.'), "{}", info.name);
    }
    assert_eq!(Event::from_name("cycles"), None);
    assert_eq!(EventSet::from_bits(u16::MAX).iter().count(), 14);
}

#[test]
fn an_idle_cycle_counts_cycles_and_stall_cycles_only() {
    let idle = Retirement { insn: BEQ, trap: true, intr: true, mem_rmask: 0xF, ..Retirement::idle() };
    assert_eq!(names(classify(&idle, Xlen::Rv32)), ["CYCLES", "STALL_CYCLES"]);
    assert_eq!(names(classify(&at(ADDI), Xlen::Rv32)), ["CYCLES", "INSTRET"]);
    assert_eq!(rv32(at(C_ADDI)), Vec::<&str>::new());
}

#[test]
fn branches_count_taken_when_the_next_pc_is_not_the_next_instruction() {
    assert_eq!(rv32(at(BEQ)), ["BRANCH"]);
    assert_eq!(rv32(at(BEQ).then(PC + 8)), ["BRANCH", "BRANCH_TAKEN"]);
    assert_eq!(rv32(at(BNE_BACK).then(PC - 4)), ["BRANCH", "BRANCH_TAKEN"]);
    assert_eq!(rv32(at(BEQ).then(PC + 2)), ["BRANCH", "BRANCH_TAKEN"], "len is 4");
    assert_eq!(rv32(at(C_BEQZ)), ["BRANCH"], "c.beqz falls through to pc + 2");
    assert_eq!(rv32(at(C_BEQZ).then(PC + 4)), ["BRANCH", "BRANCH_TAKEN"]);
    assert_eq!(rv32(at(C_BNEZ_BACK).then(PC - 2)), ["BRANCH", "BRANCH_TAKEN"]);
    assert_eq!(rv64(at(C_BEQZ).then(PC + 8)), ["BRANCH", "BRANCH_TAKEN"]);
    let wrapping = Retirement::at(0xFFFF_FFFC, BEQ).then(0);
    assert_eq!(rv32(wrapping), ["BRANCH"], "PCs wrap at 2^XLEN");
    assert_eq!(rv64(wrapping), ["BRANCH", "BRANCH_TAKEN"]);
}

#[test]
fn a_trapping_branch_counts_taken() {
    assert_eq!(rv32(at(BEQ).trapping_to(HANDLER)), ["BRANCH", "BRANCH_TAKEN", "TRAP"]);
    assert_eq!(rv32(at(C_BEQZ).trapping_to(HANDLER)), ["BRANCH", "BRANCH_TAKEN", "TRAP"]);
}

#[test]
fn jal_links_in_x1_or_x5_are_calls() {
    assert_eq!(rv32(at(JAL_RA).then(PC + 16)), ["JUMP", "CALL"]);
    assert_eq!(rv32(at(0x0100_02EF)), ["JUMP", "CALL"], "jal t0");
    assert_eq!(rv32(at(0x0100_016F)), ["JUMP"], "jal sp");
    assert_eq!(rv32(at(J)), ["JUMP"]);
    assert_eq!(rv32(at(C_J)), ["JUMP"]);
    assert_eq!(rv64(at(C_J)), ["JUMP"]);
}

#[test]
fn c_jal_is_a_call_on_rv32_and_c_addiw_on_rv64() {
    for word in [0x2801, 0x2FFD, 0x2505, 0x30FD] {
        assert_eq!(rv32(at(word)), ["JUMP", "CALL"], "{word:#x}");
        assert_eq!(rv64(at(word)), Vec::<&str>::new(), "{word:#x}");
        assert_eq!(decode(word, Xlen::Rv32).rd(), Some(1));
        assert_eq!(decode(word, Xlen::Rv64).opcode(), Some(0x1B));
    }
    // c.jal -2048 has x0 in the rd field: C.ADDIW with rd = x0 is reserved on RV64.
    assert_eq!(rv32(at(0x3001)), ["JUMP", "CALL"]);
    assert_eq!(decode(0x3001, Xlen::Rv64).expansion, None);
}

#[test]
fn jalr_without_link_through_x1_or_x5_is_a_return() {
    assert_eq!(rv32(at(RET)), ["JUMP", "RETURN"]);
    assert_eq!(rv32(at(0x0002_8067)), ["JUMP", "RETURN"], "jalr x0, 0(t0)");
    assert_eq!(rv32(at(0x0007_80E7)), ["JUMP", "CALL"], "jalr ra, 0(a5)");
    assert_eq!(rv32(at(0x0002_80E7)), ["JUMP", "CALL"], "jalr ra, 0(t0) links: a call only");
    assert_eq!(rv32(at(0x0005_0067)), ["JUMP"], "jalr x0, 0(a0): a tail jump");
}

#[test]
fn compressed_register_jumps() {
    assert_eq!(rv32(at(C_JR_RA)), ["JUMP", "RETURN"], "c.jr ra");
    assert_eq!(rv64(at(C_JR_RA)), ["JUMP", "RETURN"]);
    assert_eq!(rv32(at(0x8282)), ["JUMP", "RETURN"], "c.jr t0");
    assert_eq!(rv32(at(0x8502)), ["JUMP"], "c.jr a0");
    assert_eq!(rv32(at(C_JALR_A0)), ["JUMP", "CALL"], "c.jalr a0");
    assert_eq!(rv32(at(0x9082)), ["JUMP", "CALL"], "c.jalr ra links: a call only");
    assert_eq!(rv32(at(0x8002)), Vec::<&str>::new(), "c.jr x0 is reserved");
    assert_eq!(decode(0x8002, Xlen::Rv32).expansion, None);
}

#[test]
fn system_instructions() {
    let words = [ECALL, 0x0010_0073, 0x9002, MRET, SRET, 0x1050_0073, 0x3405_1073, 0xC000_2573, 0x1200_0073];
    for word in words {
        assert_eq!(rv32(at(word)), ["SYSTEM"], "{word:#x}");
        assert_eq!(rv64(at(word)), ["SYSTEM"], "{word:#x}");
    }
    // ECALL, EBREAK, C.EBREAK, MRET, SRET, WFI, SFENCE.VMA end a block; CSR accesses do not.
    let transfers = words.map(|word| decode(word, Xlen::Rv32).is_control_transfer());
    assert_eq!(transfers, [true, true, true, true, true, true, false, false, true]);
    assert_eq!(rv32(at(RETIRQ)), Vec::<&str>::new(), "retirq is custom-0, not SYSTEM");
    assert_eq!(rv32(at(0x0FF0_000F)), Vec::<&str>::new(), "fence");
}

#[test]
fn multiplications_and_divisions() {
    for word in [0x02C5_8533, 0x02C5_C533, 0x02C5_F533] {
        assert_eq!(rv32(at(word)), ["MULDIV"], "{word:#x}");
    }
    assert_eq!(rv32(at(0x00C5_8533)), Vec::<&str>::new(), "add");
    assert_eq!(rv32(at(0x40C5_8533)), Vec::<&str>::new(), "sub");
    assert_eq!(rv64(at(0x02C5_853B)), Vec::<&str>::new(), "mulw: opcode 0x3B");
    assert_eq!(rv32(at(0x952E)), Vec::<&str>::new(), "c.add");
    assert_eq!(rv64(at(0x9D0D)), Vec::<&str>::new(), "c.subw");
}

#[test]
fn loads_and_stores_by_their_masks() {
    assert_eq!(rv32(at(LW).accessing(0xF, 0)), ["LOAD"]);
    assert_eq!(rv32(at(0x4188).accessing(0xF, 0)), ["LOAD"], "c.lw");
    assert_eq!(rv32(at(0x00A5_A023).accessing(0, 0x3)), ["STORE"], "sw");
    assert_eq!(rv64(at(0xE188).accessing(0, 0xFF)), ["STORE"], "c.sd");
    assert_eq!(rv32(at(0x0000_0000).accessing(0x1, 0x1)), ["LOAD", "STORE"], "by mask, whatever the word");
    assert_eq!(rv32(at(LW).trapping_to(HANDLER)), ["TRAP"], "a faulting load reads nothing");
    assert_eq!(rv32(at(LW).accessing(0xF0, 0x10)), Vec::<&str>::new(), "RV32 masks have 4 bits");
    assert_eq!(rv64(at(LW).accessing(0xF0, 0x10)), ["LOAD", "STORE"]);
}

#[test]
fn traps_and_interrupts() {
    assert_eq!(rv32(at(ECALL).trapping_to(HANDLER)), ["TRAP", "SYSTEM"]);
    assert_eq!(rv32(Retirement::at(HANDLER, ADDI).interrupted()), ["INTERRUPT"]);
    assert_eq!(rv32(at(0).trapping_to(HANDLER)), ["TRAP"], "the all-zero word is illegal");
    assert_eq!(rv32(at(ADDI).in_mode(3)), Vec::<&str>::new(), "the mode counts nothing");
}

#[test]
fn decoded_fields_of_the_expansion() {
    let c_jalr = decode(C_JALR_A0, Xlen::Rv32);
    assert_eq!((c_jalr.length, c_jalr.opcode(), c_jalr.rd(), c_jalr.rs1()), (2, Some(0x67), Some(1), Some(10)));
    assert!(c_jalr.is_jalr() && c_jalr.is_call() && !c_jalr.is_return_jump() && c_jalr.is_compressed());
    let c_jr = decode(C_JR_RA, Xlen::Rv32);
    assert_eq!((c_jr.rd(), c_jr.rs1()), (Some(0), Some(1)));
    let c_beqz = decode(C_BEQZ, Xlen::Rv32);
    assert_eq!((c_beqz.opcode(), c_beqz.rs1()), (Some(0x63), Some(10)));
    assert!(decode(0x9002, Xlen::Rv32).is_control_transfer(), "c.ebreak");
    assert!(decode(MRET, Xlen::Rv32).handler_return && decode(RETIRQ, Xlen::Rv32).handler_return);
    assert!(!decode(SRET, Xlen::Rv32).handler_return);
    assert_eq!(decode(0, Xlen::Rv32).expansion, None);
    assert_eq!(decode(0xFFFF_0505, Xlen::Rv32), decode(C_ADDI, Xlen::Rv32), "bits [31:16] of a compressed word");
}
