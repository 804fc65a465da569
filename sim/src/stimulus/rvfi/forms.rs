//! What the walk places at an address the first time it gets there: a straight-line
//! instruction (arithmetic, MUL/DIV, a CSR access, a fence, a load or store), a
//! control transfer (a branch, a jump, a call, a tail jump, a return), an instruction
//! that traps into a handler, or a handler's return; each in its 32-bit or, on a core
//! with the C extension, sometimes its compressed form. The walk keeps what it placed,
//! so code it comes back to (loops, functions, the handler) is the same code.
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::encode::{
    branch, c_addi, c_addiw, c_branch, c_jump, c_jump_register, c_load, c_move, c_store, i_type, jal, jalr, load,
    r_type, store, CSRW_MSCRATCH_A0, C_EBREAK, EBREAK, ECALL, FENCE, ILLEGAL, MRET, OP, OP_IMM, RDCYCLE_A0, RETIRQ,
    SRET, WFI,
};
use super::walk::HartWalk;
use crate::reference::rvfi::{KernelRule, Xlen};

/// The memory access of a straight-line instruction: none, or a read or write of
/// 2^n bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    None,
    Read(u32),
    Write(u32),
}

/// One instruction of the walk's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// Falls through to the next instruction.
    Straight { insn: u32, access: Access },
    /// A conditional branch by `offset` (backward ones are mostly taken: loops).
    Branch { insn: u32, offset: i64 },
    /// A jump that links nothing, forward to `target` (J, C.J).
    Jump { insn: u32, target: u64 },
    /// A call linking in `link` (x1 or x5), to `target` (JAL, C.JAL) or to any
    /// function (JALR, C.JALR: None).
    Call { insn: u32, link: u32, target: Option<u64> },
    /// A jump through a0 to any function (JALR x0 or C.JR).
    Tail { insn: u32 },
    /// A return through the link register, to the innermost call's return address.
    Return { insn: u32 },
    /// Traps into a handler with `rvfi_trap` = `trap`; the handler resumes after it.
    Trap { insn: u32, trap: bool },
    /// The innermost handler's return.
    HandlerReturn { insn: u32 },
}

impl Form {
    /// The instruction word.
    pub(super) fn insn(self) -> u32 {
        match self {
            Form::Straight { insn, .. }
            | Form::Branch { insn, .. }
            | Form::Jump { insn, .. }
            | Form::Call { insn, .. }
            | Form::Tail { insn }
            | Form::Return { insn }
            | Form::Trap { insn, .. }
            | Form::HandlerReturn { insn } => insn,
        }
    }
}

/// len(insn): 4, or 2 for a compressed instruction.
pub(super) fn length(insn: u32) -> u64 {
    if insn & 0b11 == 0b11 {
        4
    } else {
        2
    }
}

/// A register that every form can name (x8..x15).
fn register(rng: &mut ChaCha8Rng) -> u32 {
    rng.gen_range(8..16)
}

impl HartWalk {
    fn use_compressed(&self, rng: &mut ChaCha8Rng) -> bool {
        self.compressed && rng.gen_bool(0.4)
    }

    /// A straight-line instruction.
    pub(super) fn straight(&self, rng: &mut ChaCha8Rng, in_handler: bool) -> Form {
        let (rd, rs1, rs2, imm) = (register(rng), register(rng), register(rng), rng.gen_range(-32..32));
        let compressed = self.use_compressed(rng);
        let rv64 = self.xlen == Xlen::Rv64;
        let widest = if rv64 { 3 } else { 2 };
        let insn = match rng.gen_range(0..100) {
            0..=29 if compressed => match rng.gen_range(0..4) {
                0 => c_move(false, rd, rs2),
                1 => c_move(true, rd, rs2),
                2 if rv64 => c_addiw(rd, imm),
                _ => c_addi(rd, imm),
            },
            0..=29 => [i_type(OP_IMM, rd, 0, rs1, imm), r_type(OP, rd, 0, rs1, rs2, 0x20)][rng.gen_range(0..2)],
            30..=49 => r_type(OP, rd, rng.gen_range(0..8), rs1, rs2, 0),
            50..=57 => {
                r_type(if rv64 && rng.gen_ratio(1, 4) { 0x3B } else { OP }, rd, rng.gen_range(0..8), rs1, rs2, 1)
            }
            58..=62 if in_handler && rng.gen_bool(0.5) => CSRW_MSCRATCH_A0,
            58..=62 => RDCYCLE_A0,
            63..=65 => [FENCE, WFI][rng.gen_range(0..2)],
            66..=83 => {
                let width = if compressed { rng.gen_range(2..=widest) } else { rng.gen_range(0..=widest) };
                let insn = if compressed {
                    c_load(width == 3, rd, rs1)
                } else {
                    let unsigned = width < widest && rng.gen_bool(0.3);
                    load(width | (unsigned as u32) << 2, rd, rs1, rng.gen_range(-64..64))
                };
                return Form::Straight { insn, access: Access::Read(width) };
            }
            _ => {
                let width = if compressed { rng.gen_range(2..=widest) } else { rng.gen_range(0..=widest) };
                let insn = if compressed {
                    c_store(width == 3, rs1, rs2)
                } else {
                    store(width, rs1, rs2, rng.gen_range(-64..64))
                };
                return Form::Straight { insn, access: Access::Write(width) };
            }
        };
        Form::Straight { insn, access: Access::None }
    }

    /// A nonzero aligned offset within +-`reach` bytes.
    fn offset(&self, rng: &mut ChaCha8Rng, reach: i64) -> i64 {
        let alignment = self.alignment() as i64;
        match rng.gen_range(-reach / alignment..reach / alignment) * alignment {
            0 => 4 * alignment,
            offset => offset,
        }
    }

    /// A branch, a forward jump, a tail jump, a call, or (with a call under way) a
    /// return.
    pub(super) fn control_transfer(&mut self, rng: &mut ChaCha8Rng) -> Form {
        let compressed = self.use_compressed(rng);
        match rng.gen_range(0..10) {
            0..=4 => {
                let offset = self.offset(rng, if compressed { 256 } else { 2048 });
                let insn = if compressed {
                    c_branch(rng.gen(), register(rng), offset as i32)
                } else {
                    branch([0, 1, 4, 5, 6, 7][rng.gen_range(0..6)], register(rng), register(rng), offset as i32)
                };
                Form::Branch { insn, offset }
            }
            5 if rng.gen_ratio(1, 4) => {
                Form::Tail { insn: if compressed { c_jump_register(false, 10) } else { jalr(0, 10, 0) } }
            }
            5 => {
                let offset = self.alignment() as i64 * rng.gen_range(2..128);
                let insn = if compressed { c_jump(false, offset as i32) } else { jal(0, offset as i32) };
                Form::Jump { insn, target: self.after(offset) }
            }
            8..=9 if !self.calls().is_empty() => self.return_form(rng),
            _ => self.call(rng),
        }
    }

    /// A call linking in ra (sometimes t0): JAL or C.JAL (RV32) to a function near
    /// enough, or JALR through a5 or C.JALR to any function.
    fn call(&mut self, rng: &mut ChaCha8Rng) -> Form {
        let link = if rng.gen_ratio(1, 5) { 5 } else { 1 };
        let target = self.function(rng);
        let offset = target.wrapping_sub(self.pc) as i64;
        let offset = if self.xlen == Xlen::Rv32 { offset as i32 as i64 } else { offset };
        let compressed = self.use_compressed(rng) && link == 1;
        match rng.gen_range(0..3) {
            0 if compressed && self.xlen == Xlen::Rv32 && (-2048..2048).contains(&offset) => {
                Form::Call { insn: c_jump(true, offset as i32), link, target: Some(target) }
            }
            0..=1 if (-(1 << 20)..1 << 20).contains(&offset) => {
                Form::Call { insn: jal(link, offset as i32), link, target: Some(target) }
            }
            _ if compressed => Form::Call { insn: c_jump_register(true, 15), link, target: None },
            _ => Form::Call { insn: jalr(link, 15, 0), link, target: None },
        }
    }

    /// A return through the innermost call's link register.
    pub(super) fn return_form(&mut self, rng: &mut ChaCha8Rng) -> Form {
        let link = self.calls().last().map_or(1, |call| call.link);
        Form::Return { insn: if self.use_compressed(rng) { c_jump_register(false, link) } else { jalr(0, link, 0) } }
    }

    /// An instruction of user code that traps (ECALL, EBREAK, C.EBREAK, an illegal
    /// instruction, a faulting load or branch), or under the handler rule sometimes a
    /// stray return, which retires outside any handler and falls through.
    pub(super) fn exception(&mut self, rng: &mut ChaCha8Rng) -> Form {
        let ebreak = if self.use_compressed(rng) { C_EBREAK } else { EBREAK };
        match rng.gen_range(0..10) {
            0..=3 => Form::Trap { insn: ECALL, trap: rng.gen_ratio(1, 3) },
            4..=5 => Form::Trap { insn: ebreak, trap: rng.gen_ratio(1, 3) },
            6 => Form::Trap { insn: ILLEGAL, trap: true },
            7 => Form::Trap { insn: load(2, 10, 11, 1), trap: true },
            8 => Form::Trap { insn: branch(0, 10, 11, 6), trap: true },
            _ if self.rule == KernelRule::Handler => {
                Form::Straight { insn: if rng.gen_bool(0.5) { MRET } else { RETIRQ }, access: Access::None }
            }
            _ => Form::Straight { insn: WFI, access: Access::None },
        }
    }

    /// The return of a handler running in `mode`: MRET (SRET from S under the mode
    /// rule; MRET or `retirq` under the handler rule).
    pub(super) fn handler_return_form(&self, rng: &mut ChaCha8Rng, mode: u8) -> Form {
        let insn = match self.rule {
            KernelRule::Handler if rng.gen_bool(0.5) => RETIRQ,
            KernelRule::Mode if mode == 1 => SRET,
            _ => MRET,
        };
        Form::HandlerReturn { insn }
    }
}
