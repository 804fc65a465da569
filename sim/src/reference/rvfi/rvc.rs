//! The C extension's expansions (RV32C and RV64C, base C only): for each compressed
//! encoding, the fields of the 32-bit instruction it stands for (opcode, funct3,
//! funct7, rd, rs1, rs2; immediates are not rebuilt, no event depends on them). As the
//! RISC-V event table (docs/soc.md) says: C.BEQZ and C.BNEZ are branches, C.J and C.JAL
//! are JAL (C.JAL links in x1), C.JR and C.JALR are JALR (C.JALR links in x1), C.EBREAK
//! is EBREAK, and the C.JAL encoding is C.ADDIW on RV64. Reserved encodings (and those
//! of later extensions such as Zcb) have no expansion.
use super::decode::Expansion;
use super::retirement::Xlen;

const LOAD: u8 = 0x03;
const LOAD_FP: u8 = 0x07;
const OP_IMM: u8 = 0x13;
const OP_IMM_32: u8 = 0x1B;
const STORE: u8 = 0x23;
const STORE_FP: u8 = 0x27;
const OP: u8 = 0x33;
const LUI: u8 = 0x37;
const OP_32: u8 = 0x3B;
const BRANCH: u8 = 0x63;
const JALR: u8 = 0x67;
const JAL: u8 = 0x6F;
const SYSTEM: u8 = 0x73;

/// An expansion from its fields, funct7 = 0 and rs2 = 0 unless set.
fn fields(opcode: u8, funct3: u8, rd: u8, rs1: u8) -> Expansion {
    Expansion { opcode, funct3, rd, rs1, ..Expansion::default() }
}

/// The expansion of the compressed instruction `half` (half[1:0] != 3).
pub fn expand(half: u16, xlen: Xlen) -> Option<Expansion> {
    let quadrant = half & 0b11;
    let funct3 = (half >> 13) as u8;
    let bit12 = half >> 12 & 1 == 1;
    // Full register fields [11:7] and [6:2]; 3-bit ones (x8..x15) at [9:7] and [4:2].
    let rd = (half >> 7 & 0x1F) as u8;
    let rs2 = (half >> 2 & 0x1F) as u8;
    let rd_short = 8 + (half >> 7 & 0x7) as u8;
    let rs2_short = 8 + (half >> 2 & 0x7) as u8;
    let rv64 = xlen == Xlen::Rv64;
    let store = |opcode: u8, funct3: u8, rs1: u8, rs2: u8| Expansion { rs2, ..fields(opcode, funct3, 0, rs1) };
    match (quadrant, funct3) {
        (0, 0b000) if half >> 5 & 0xFF == 0 => None, // C.ADDI4SPN with 0 (and all-zero)
        (0, 0b000) => Some(fields(OP_IMM, 0, rs2_short, 2)), // C.ADDI4SPN
        (0, 0b001) => Some(fields(LOAD_FP, 3, rs2_short, rd_short)), // C.FLD
        (0, 0b010) => Some(fields(LOAD, 2, rs2_short, rd_short)), // C.LW
        (0, 0b011) if rv64 => Some(fields(LOAD, 3, rs2_short, rd_short)), // C.LD
        (0, 0b011) => Some(fields(LOAD_FP, 2, rs2_short, rd_short)), // C.FLW
        (0, 0b101) => Some(store(STORE_FP, 3, rd_short, rs2_short)), // C.FSD
        (0, 0b110) => Some(store(STORE, 2, rd_short, rs2_short)), // C.SW
        (0, 0b111) if rv64 => Some(store(STORE, 3, rd_short, rs2_short)), // C.SD
        (0, 0b111) => Some(store(STORE_FP, 2, rd_short, rs2_short)), // C.FSW
        (0, _) => None,
        (1, 0b000) => Some(fields(OP_IMM, 0, rd, rd)), // C.NOP, C.ADDI
        (1, 0b001) if rv64 && rd == 0 => None,         // C.ADDIW with rd = x0
        (1, 0b001) if rv64 => Some(fields(OP_IMM_32, 0, rd, rd)), // C.ADDIW
        (1, 0b001) => Some(fields(JAL, 0, 1, 0)),      // C.JAL
        (1, 0b010) => Some(fields(OP_IMM, 0, rd, 0)),  // C.LI
        (1, 0b011) if !bit12 && half >> 2 & 0x1F == 0 => None, // C.ADDI16SP, C.LUI with 0
        (1, 0b011) if rd == 2 => Some(fields(OP_IMM, 0, 2, 2)), // C.ADDI16SP
        (1, 0b011) => Some(fields(LUI, 0, rd, 0)),     // C.LUI
        (1, 0b100) => arithmetic(half, rd_short, rs2_short, rv64),
        (1, 0b101) => Some(fields(JAL, 0, 0, 0)),           // C.J
        (1, 0b110) => Some(fields(BRANCH, 0, 0, rd_short)), // C.BEQZ
        (1, 0b111) => Some(fields(BRANCH, 1, 0, rd_short)), // C.BNEZ
        (2, 0b000) if bit12 && !rv64 => None,               // RV32 C.SLLI with shamt[5] = 1
        (2, 0b000) => Some(fields(OP_IMM, 1, rd, rd)),      // C.SLLI
        (2, 0b001) => Some(fields(LOAD_FP, 3, rd, 2)),      // C.FLDSP
        (2, 0b010) if rd == 0 => None,
        (2, 0b010) => Some(fields(LOAD, 2, rd, 2)), // C.LWSP
        (2, 0b011) if rv64 && rd == 0 => None,
        (2, 0b011) if rv64 => Some(fields(LOAD, 3, rd, 2)), // C.LDSP
        (2, 0b011) => Some(fields(LOAD_FP, 2, rd, 2)),      // C.FLWSP
        (2, 0b100) => jumps_and_moves(bit12, rd, rs2),
        (2, 0b101) => Some(store(STORE_FP, 3, 2, rs2)),      // C.FSDSP
        (2, 0b110) => Some(store(STORE, 2, 2, rs2)),         // C.SWSP
        (2, 0b111) if rv64 => Some(store(STORE, 3, 2, rs2)), // C.SDSP
        (2, 0b111) => Some(store(STORE_FP, 2, 2, rs2)),      // C.FSWSP
        _ => None,
    }
}

/// Quadrant 1, funct3 100: shifts, ANDI and the register-register operations.
fn arithmetic(half: u16, rd_short: u8, rs2_short: u8, rv64: bool) -> Option<Expansion> {
    let bit12 = half >> 12 & 1 == 1;
    let op = |opcode: u8, funct3: u8, funct7: u8| Expansion {
        funct7,
        rs2: rs2_short,
        ..fields(opcode, funct3, rd_short, rd_short)
    };
    match (half >> 10 & 0b11, bit12, half >> 5 & 0b11) {
        (0b00 | 0b01, true, _) if !rv64 => None, // RV32 shifts with shamt[5] = 1
        (0b00, _, _) => Some(fields(OP_IMM, 5, rd_short, rd_short)), // C.SRLI
        (0b01, _, _) => Some(Expansion { funct7: 0x20, ..fields(OP_IMM, 5, rd_short, rd_short) }), // C.SRAI
        (0b10, _, _) => Some(fields(OP_IMM, 7, rd_short, rd_short)), // C.ANDI
        (_, false, 0b00) => Some(op(OP, 0, 0x20)), // C.SUB
        (_, false, 0b01) => Some(op(OP, 4, 0)),  // C.XOR
        (_, false, 0b10) => Some(op(OP, 6, 0)),  // C.OR
        (_, false, _) => Some(op(OP, 7, 0)),     // C.AND
        (_, true, 0b00) if rv64 => Some(op(OP_32, 0, 0x20)), // C.SUBW
        (_, true, 0b01) if rv64 => Some(op(OP_32, 0, 0)), // C.ADDW
        _ => None,
    }
}

/// Quadrant 2, funct3 100: C.JR, C.MV, C.EBREAK, C.JALR and C.ADD.
fn jumps_and_moves(bit12: bool, rd: u8, rs2: u8) -> Option<Expansion> {
    match (bit12, rd, rs2) {
        (false, 0, 0) => None,                                                 // C.JR with rs1 = x0
        (false, rs1, 0) => Some(fields(JALR, 0, 0, rs1)),                      // C.JR
        (false, rd, rs2) => Some(Expansion { rs2, ..fields(OP, 0, rd, 0) }),   // C.MV
        (true, 0, 0) => Some(Expansion { rs2: 1, ..fields(SYSTEM, 0, 0, 0) }), // C.EBREAK
        (true, rs1, 0) => Some(fields(JALR, 0, 1, rs1)),                       // C.JALR
        (true, rd, rs2) => Some(Expansion { rs2, ..fields(OP, 0, rd, rd) }),   // C.ADD
    }
}
