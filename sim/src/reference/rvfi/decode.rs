//! The instruction classes that the RISC-V event table (docs/soc.md) and the RVFI
//! adapter rules (docs/soc.md) need, decoded from `rvfi_insn`: a compressed instruction
//! (insn[1:0] != 3, length 2, bits [31:16] ignored) is classified as its 32-bit
//! expansion (rvc.rs), any other as itself (length 4), by opcode alone as the table
//! defines its events (so a reserved funct3 under the branch opcode still counts as a
//! branch).
use super::retirement::Xlen;
use super::rvc::expand;

/// The expansion's opcodes that the rules name.
pub mod opcode {
    /// Conditional branches (BEQ, BNE, BLT, BGE, BLTU, BGEU).
    pub const BRANCH: u8 = 0x63;
    /// JAL.
    pub const JAL: u8 = 0x6F;
    /// JALR.
    pub const JALR: u8 = 0x67;
    /// SYSTEM: ECALL, EBREAK, xRET, WFI, SFENCE.VMA, CSR accesses.
    pub const SYSTEM: u8 = 0x73;
    /// OP: register-register arithmetic, MUL/DIV with funct7 = 1.
    pub const OP: u8 = 0x33;
}

/// MRET: a return for the handler kernel rule.
pub const MRET: u32 = 0x3020_0073;
/// PicoRV32's `retirq`: a return for the handler kernel rule.
pub const RETIRQ: u32 = 0x0400_000B;

/// The fields of a 32-bit instruction word (an expansion's, for a compressed one) that
/// name the instruction and its registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansion {
    /// Bits [6:0].
    pub opcode: u8,
    /// Bits [14:12].
    pub funct3: u8,
    /// Bits [31:25].
    pub funct7: u8,
    /// Bits [11:7].
    pub rd: u8,
    /// Bits [19:15].
    pub rs1: u8,
    /// Bits [24:20].
    pub rs2: u8,
}

impl Expansion {
    /// The fields of the 32-bit word `word`.
    pub fn of_word(word: u32) -> Self {
        Self {
            opcode: (word & 0x7F) as u8,
            funct3: (word >> 12 & 0x7) as u8,
            funct7: (word >> 25) as u8,
            rd: (word >> 7 & 0x1F) as u8,
            rs1: (word >> 15 & 0x1F) as u8,
            rs2: (word >> 20 & 0x1F) as u8,
        }
    }
}

/// What one `rvfi_insn` is, for the events and the adapter's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstructionClass {
    /// len(r): 2 for a compressed instruction, else 4.
    pub length: u8,
    /// The expansion; None for a reserved compressed encoding (it has none, so it is
    /// in no instruction class).
    pub expansion: Option<Expansion>,
    /// `rvfi_insn` is MRET (0x30200073) or `retirq` (0x0400000B): a return for the
    /// handler kernel rule (SRET, URET and DRET are not).
    pub handler_return: bool,
}

impl InstructionClass {
    /// The expansion's opcode (None for a reserved compressed encoding).
    pub fn opcode(&self) -> Option<u8> {
        self.expansion.map(|fields| fields.opcode)
    }

    /// The expansion's rd.
    pub fn rd(&self) -> Option<u8> {
        self.expansion.map(|fields| fields.rd)
    }

    /// The expansion's rs1.
    pub fn rs1(&self) -> Option<u8> {
        self.expansion.map(|fields| fields.rs1)
    }

    /// The instruction is compressed.
    pub fn is_compressed(&self) -> bool {
        self.length == 2
    }

    /// A conditional branch (opcode 0x63; C.BEQZ, C.BNEZ).
    pub fn is_branch(&self) -> bool {
        self.opcode() == Some(opcode::BRANCH)
    }

    /// JAL (opcode 0x6F; C.J, C.JAL).
    pub fn is_jal(&self) -> bool {
        self.opcode() == Some(opcode::JAL)
    }

    /// JALR (opcode 0x67; C.JR, C.JALR).
    pub fn is_jalr(&self) -> bool {
        self.opcode() == Some(opcode::JALR)
    }

    /// JAL or JALR.
    pub fn is_jump(&self) -> bool {
        self.is_jal() || self.is_jalr()
    }

    /// A jump that links in x1 or x5 (the CALL event).
    pub fn is_call(&self) -> bool {
        self.is_jump() && matches!(self.rd(), Some(1 | 5))
    }

    /// A JALR with rd = x0 and rs1 = x1 or x5 (the RETURN event).
    pub fn is_return_jump(&self) -> bool {
        self.is_jalr() && self.rd() == Some(0) && matches!(self.rs1(), Some(1 | 5))
    }

    /// Opcode 0x73 (the SYSTEM event).
    pub fn is_system(&self) -> bool {
        self.opcode() == Some(opcode::SYSTEM)
    }

    /// Opcode 0x33 with funct7 = 1 (the MULDIV event).
    pub fn is_muldiv(&self) -> bool {
        matches!(self.expansion, Some(Expansion { opcode: opcode::OP, funct7: 1, .. }))
    }

    /// A control transfer for the block rule: a branch, JAL or JALR, or opcode 0x73
    /// with funct3 = 0 (ECALL, EBREAK, C.EBREAK, xRET, WFI, SFENCE.VMA).
    pub fn is_control_transfer(&self) -> bool {
        let privileged = matches!(self.expansion, Some(Expansion { opcode: opcode::SYSTEM, funct3: 0, .. }));
        self.is_branch() || self.is_jump() || privileged
    }
}

/// The class of `insn` on a core of width `xlen`.
pub fn decode(insn: u32, xlen: Xlen) -> InstructionClass {
    let handler_return = insn == MRET || insn == RETIRQ;
    if insn & 0b11 == 0b11 {
        InstructionClass { length: 4, expansion: Some(Expansion::of_word(insn)), handler_return }
    } else {
        InstructionClass { length: 2, expansion: expand(insn as u16, xlen), handler_return }
    }
}
