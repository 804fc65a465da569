//! RISC-V instruction words for the RVFI stimulus: the base formats and the C
//! extension's forms the program walk retires, with their real encodings (so the
//! words a model decodes are the ones an assembler writes). Register numbers are x0 to
//! x31; a compressed form with 3-bit register fields takes x8 to x15.

/// ECALL.
pub const ECALL: u32 = 0x0000_0073;
/// EBREAK.
pub const EBREAK: u32 = 0x0010_0073;
/// C.EBREAK.
pub const C_EBREAK: u32 = 0x9002;
/// MRET.
pub const MRET: u32 = 0x3020_0073;
/// SRET.
pub const SRET: u32 = 0x1020_0073;
/// WFI.
pub const WFI: u32 = 0x1050_0073;
/// FENCE (iorw, iorw).
pub const FENCE: u32 = 0x0FF0_000F;
/// PicoRV32's `retirq`.
pub const RETIRQ: u32 = 0x0400_000B;
/// An illegal instruction (the all-zero word).
pub const ILLEGAL: u32 = 0;
/// `rdcycle a0` (CSRRS a0, cycle, x0).
pub const RDCYCLE_A0: u32 = 0xC000_2573;
/// `csrw mscratch, a0` (CSRRW x0, mscratch, a0).
pub const CSRW_MSCRATCH_A0: u32 = 0x3405_1073;

/// Opcode OP: register-register arithmetic (funct7 = 1: MUL/DIV).
pub const OP: u32 = 0x33;
/// Opcode OP-IMM.
pub const OP_IMM: u32 = 0x13;

/// An R-type word.
pub fn r_type(opcode: u32, rd: u32, funct3: u32, rs1: u32, rs2: u32, funct7: u32) -> u32 {
    funct7 << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode
}

/// An I-type word with a 12-bit immediate.
pub fn i_type(opcode: u32, rd: u32, funct3: u32, rs1: u32, imm: i32) -> u32 {
    (imm as u32 & 0xFFF) << 20 | rs1 << 15 | funct3 << 12 | rd << 7 | opcode
}

/// A load (`funct3` = width: 0 LB, 1 LH, 2 LW, 3 LD) of `offset`(`rs1`) into `rd`.
pub fn load(funct3: u32, rd: u32, rs1: u32, offset: i32) -> u32 {
    i_type(0x03, rd, funct3, rs1, offset)
}

/// A store (`funct3` = width: 0 SB, 1 SH, 2 SW, 3 SD) of `rs2` to `offset`(`rs1`).
pub fn store(funct3: u32, rs1: u32, rs2: u32, offset: i32) -> u32 {
    let imm = offset as u32 & 0xFFF;
    (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | funct3 << 12 | (imm & 0x1F) << 7 | 0x23
}

/// A conditional branch (`funct3`: 0 BEQ, 1 BNE, 4 BLT, 5 BGE, 6 BLTU, 7 BGEU) by the
/// even `offset` (-4096..4096).
pub fn branch(funct3: u32, rs1: u32, rs2: u32, offset: i32) -> u32 {
    let o = offset as u32;
    (o >> 12 & 1) << 31
        | (o >> 5 & 0x3F) << 25
        | rs2 << 20
        | rs1 << 15
        | funct3 << 12
        | (o >> 1 & 0xF) << 8
        | (o >> 11 & 1) << 7
        | 0x63
}

/// JAL linking in `rd`, by the even `offset` (within +-1 MiB).
pub fn jal(rd: u32, offset: i32) -> u32 {
    let o = offset as u32;
    (o >> 20 & 1) << 31 | (o >> 1 & 0x3FF) << 21 | (o >> 11 & 1) << 20 | (o >> 12 & 0xFF) << 12 | rd << 7 | 0x6F
}

/// JALR linking in `rd`, to `offset`(`rs1`).
pub fn jalr(rd: u32, rs1: u32, offset: i32) -> u32 {
    i_type(0x67, rd, 0, rs1, offset)
}

/// C.J (`link` = false) or C.JAL (`link` = true, RV32 only) by the even `offset`
/// (-2048..2048).
pub fn c_jump(link: bool, offset: i32) -> u32 {
    let o = offset as u32;
    let funct3 = if link { 0b001 } else { 0b101 };
    funct3 << 13
        | (o >> 11 & 1) << 12
        | (o >> 4 & 1) << 11
        | (o >> 8 & 3) << 9
        | (o >> 10 & 1) << 8
        | (o >> 6 & 1) << 7
        | (o >> 7 & 1) << 6
        | (o >> 1 & 7) << 3
        | (o >> 5 & 1) << 2
        | 0b01
}

/// C.BEQZ (`not_zero` = false) or C.BNEZ of `rs1` (x8..x15) by the even `offset`
/// (-256..256).
pub fn c_branch(not_zero: bool, rs1: u32, offset: i32) -> u32 {
    let o = offset as u32;
    let funct3 = if not_zero { 0b111 } else { 0b110 };
    funct3 << 13
        | (o >> 8 & 1) << 12
        | (o >> 3 & 3) << 10
        | (rs1 - 8) << 7
        | (o >> 6 & 3) << 5
        | (o >> 1 & 3) << 3
        | (o >> 5 & 1) << 2
        | 0b01
}

/// C.JR (`link` = false) or C.JALR (`link` = true, links in x1) through `rs1` (not x0).
pub fn c_jump_register(link: bool, rs1: u32) -> u32 {
    0x8002 | (link as u32) << 12 | rs1 << 7
}

/// C.ADDI `rd`, `imm` (-32..32).
pub fn c_addi(rd: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    (imm >> 5 & 1) << 12 | rd << 7 | (imm & 0x1F) << 2 | 0b01
}

/// C.ADDIW `rd` (not x0), `imm` (-32..32): RV64 only (the encoding of C.JAL on RV32).
pub fn c_addiw(rd: u32, imm: i32) -> u32 {
    0b001 << 13 | c_addi(rd, imm)
}

/// C.MV (`add` = false) or C.ADD of `rs2` (not x0) into `rd`.
pub fn c_move(add: bool, rd: u32, rs2: u32) -> u32 {
    0x8002 | (add as u32) << 12 | rd << 7 | rs2 << 2
}

/// C.LW / C.LD (`double`) of 0(`rs1`) into `rd` (both x8..x15).
pub fn c_load(double: bool, rd: u32, rs1: u32) -> u32 {
    let funct3 = if double { 0b011 } else { 0b010 };
    funct3 << 13 | (rs1 - 8) << 7 | (rd - 8) << 2
}

/// C.SW / C.SD (`double`) of `rs2` to 0(`rs1`) (both x8..x15).
pub fn c_store(double: bool, rs1: u32, rs2: u32) -> u32 {
    let funct3 = if double { 0b111 } else { 0b110 };
    funct3 << 13 | (rs1 - 8) << 7 | (rs2 - 8) << 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words as an assembler writes them (llvm-mc, rv32imc / rv64imc).
    #[test]
    fn encodings_match_the_assembler() {
        assert_eq!(branch(0, 0, 0, 8), 0x0000_0463); // beq x0, x0, 8
        assert_eq!(branch(1, 10, 11, -4), 0xFEB5_1EE3); // bne a0, a1, -4
        assert_eq!(jal(1, 16), 0x0100_00EF);
        assert_eq!(jal(5, 16), 0x0100_02EF);
        assert_eq!(jalr(0, 1, 0), 0x0000_8067); // ret
        assert_eq!(jalr(1, 15, 0), 0x0007_80E7); // jalr a5
        assert_eq!(load(2, 10, 11, 0), 0x0005_A503); // lw a0, 0(a1)
        assert_eq!(load(0, 10, 11, 1), 0x0015_8503); // lb a0, 1(a1)
        assert_eq!(store(2, 11, 10, 0), 0x00A5_A023); // sw a0, 0(a1)
        assert_eq!(r_type(OP, 10, 0, 11, 12, 1), 0x02C5_8533); // mul a0, a1, a2
        assert_eq!(i_type(OP_IMM, 10, 0, 10, 1), 0x0015_0513); // addi a0, a0, 1
        assert_eq!(c_jump(true, 16), 0x2801); // c.jal 16
        assert_eq!(c_jump(true, 2046), 0x2FFD);
        assert_eq!(c_jump(true, -2048), 0x3001);
        assert_eq!(c_jump(false, 16), 0xA801); // c.j 16
        assert_eq!(c_branch(false, 10, 8), 0xC501); // c.beqz a0, 8
        assert_eq!(c_branch(true, 9, -2), 0xFCFD); // c.bnez s1, -2
        assert_eq!(c_jump_register(false, 1), 0x8082); // c.jr ra
        assert_eq!(c_jump_register(true, 10), 0x9502); // c.jalr a0
        assert_eq!(c_addi(10, 1), 0x0505);
        assert_eq!(c_addiw(10, 1), 0x2505);
        assert_eq!(c_addiw(1, -1), 0x30FD);
        assert_eq!(c_move(false, 10, 11), 0x852E); // c.mv a0, a1
        assert_eq!(c_move(true, 10, 11), 0x952E); // c.add a0, a1
        assert_eq!(c_load(false, 10, 11), 0x4188); // c.lw a0, 0(a1)
        assert_eq!(c_store(false, 11, 10), 0xC188); // c.sw a0, 0(a1)
        assert_eq!(c_load(true, 10, 11), 0x6188); // c.ld a0, 0(a1)
        assert_eq!(c_store(true, 11, 10), 0xE188); // c.sd a0, 0(a1)
    }
}
