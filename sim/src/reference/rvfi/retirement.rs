//! One hart's RVFI signals in one cycle (NRET = 1), and the core's XLEN, as the RVFI
//! adapter rules (docs/soc.md) take them: `rvfi_mode` is 2 bits, the PCs XLEN bits and
//! the memory masks XLEN/8 bits, so bits of the fields above those widths do not exist
//! in hardware and are dropped by [`Retirement::normalized`].

/// The core's register width (`--xlen 32|64`): the width of the PCs and masks, and
/// whether the RVC encoding of C.JAL means C.JAL (RV32) or C.ADDIW (RV64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Xlen {
    /// RV32: 32-bit PCs, 4-bit memory masks.
    #[default]
    Rv32,
    /// RV64: 64-bit PCs, 8-bit memory masks.
    Rv64,
}

impl Xlen {
    /// XLEN in bits.
    pub fn bits(self) -> u32 {
        match self {
            Xlen::Rv32 => 32,
            Xlen::Rv64 => 64,
        }
    }

    /// The bits of a PC (`rvfi_pc_rdata`, `rvfi_pc_wdata`).
    pub fn pc_mask(self) -> u64 {
        match self {
            Xlen::Rv32 => u32::MAX as u64,
            Xlen::Rv64 => u64::MAX,
        }
    }

    /// The bits of a memory mask (`rvfi_mem_rmask`, `rvfi_mem_wmask`): XLEN/8.
    pub fn byte_mask(self) -> u8 {
        match self {
            Xlen::Rv32 => 0x0F,
            Xlen::Rv64 => 0xFF,
        }
    }
}

/// One hart's RVFI retirement port during one cycle. With `valid` = 0 there is no
/// retirement and every other field is ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Retirement {
    /// `rvfi_valid`: an instruction retires this cycle.
    pub valid: bool,
    /// `rvfi_insn`: the instruction word (a compressed one in bits [15:0]).
    pub insn: u32,
    /// `rvfi_trap`: the instruction traps.
    pub trap: bool,
    /// `rvfi_intr`: the first instruction of a trap or interrupt handler.
    pub intr: bool,
    /// `rvfi_mode`: the privilege the instruction ran in (0 U, 1 S, 3 M).
    pub mode: u8,
    /// `rvfi_pc_rdata`: the instruction's address.
    pub pc_rdata: u64,
    /// `rvfi_pc_wdata`: the address of the next instruction.
    pub pc_wdata: u64,
    /// `rvfi_mem_rmask`: the bytes read.
    pub mem_rmask: u8,
    /// `rvfi_mem_wmask`: the bytes written.
    pub mem_wmask: u8,
}

impl Retirement {
    /// A cycle without a retirement (`rvfi_valid` = 0).
    pub fn idle() -> Self {
        Self::default()
    }

    /// `insn` retiring at `pc` in mode 0 with no trap, no memory access and the next
    /// instruction right after it (`pc` + 2 for a compressed `insn`, else `pc` + 4).
    pub fn at(pc: u64, insn: u32) -> Self {
        let length = if insn & 0b11 == 0b11 { 4 } else { 2 };
        Self { valid: true, insn, pc_rdata: pc, pc_wdata: pc.wrapping_add(length), ..Self::default() }
    }

    /// The same retirement with `rvfi_pc_wdata` = `next`.
    pub fn then(self, next: u64) -> Self {
        Self { pc_wdata: next, ..self }
    }

    /// The same retirement in privilege mode `mode`.
    pub fn in_mode(self, mode: u8) -> Self {
        Self { mode, ..self }
    }

    /// The same retirement with `rvfi_intr` = 1.
    pub fn interrupted(self) -> Self {
        Self { intr: true, ..self }
    }

    /// The same retirement with `rvfi_trap` = 1 and `rvfi_pc_wdata` = `handler`.
    pub fn trapping_to(self, handler: u64) -> Self {
        Self { trap: true, pc_wdata: handler, ..self }
    }

    /// The same retirement with memory masks `read` and `written`.
    pub fn accessing(self, read: u8, written: u8) -> Self {
        Self { mem_rmask: read, mem_wmask: written, ..self }
    }

    /// The retirement as the adapter's ports see it for `xlen`: all 0 without `valid`;
    /// else the mode's 2 bits, the PCs' XLEN bits and the masks' XLEN/8 bits.
    pub fn normalized(&self, xlen: Xlen) -> Self {
        if !self.valid {
            return Self::idle();
        }
        Self {
            mode: self.mode & 0b11,
            pc_rdata: self.pc_rdata & xlen.pc_mask(),
            pc_wdata: self.pc_wdata & xlen.pc_mask(),
            mem_rmask: self.mem_rmask & xlen.byte_mask(),
            mem_wmask: self.mem_wmask & xlen.byte_mask(),
            ..*self
        }
    }
}
