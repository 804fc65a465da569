//! The classifier's rules in plain Rust (docs/soc.md §1.1-§1.3): what one hart's RVFI
//! signals give in one cycle. The classifier block's twin (`classifier.rs`), also what
//! the adapter's native simulation runs.
use super::params::Xlen;
use super::port::HartSignals;
use crate::dyn_signal::low_mask;

/// MRET: a handler's return.
pub const MRET: u32 = 0x3020_0073;
/// PicoRV32's `retirq` (custom-0 opcode): its handler's return.
pub const RETIRQ: u32 = 0x0400_000B;

/// What one hart's RVFI signals give in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classified {
    /// Bit i: event i of the table (`events::EVENTS`) happens this cycle.
    pub events: u16,
    /// A retirement that is a branch, JAL, JALR, a SYSTEM instruction with funct3 = 0,
    /// or that traps.
    pub ends_block: bool,
    /// A retirement whose word is MRET or `retirq`.
    pub handler_return: bool,
}

/// The classification of `r` on a core of `xlen`, as the classifier's Verilog computes it.
pub fn classify(r: &HartSignals, xlen: Xlen) -> Classified {
    let insn = r.insn;
    let field = |lsb: u32, bits: u32| insn >> lsb & ((1 << bits) - 1);
    let full = field(0, 2) == 3;
    let (opcode, c_funct3, c_rs1) = (field(0, 7), field(13, 3), field(7, 5));
    let c_quadrant1 = field(0, 2) == 1;
    let c_jr_form = field(0, 2) == 2 && c_funct3 == 4 && field(2, 5) == 0;
    let c_jal = c_quadrant1 && c_funct3 == 1 && xlen == Xlen::Rv32;
    let c_jalr = c_jr_form && field(12, 1) == 1 && c_rs1 != 0;
    let c_jr = c_jr_form && field(12, 1) == 0 && c_rs1 != 0;
    let c_ebreak = c_jr_form && field(12, 1) == 1 && c_rs1 == 0;
    let branch = if full { opcode == 0x63 } else { c_quadrant1 && c_funct3 >> 1 == 3 };
    let jal = if full { opcode == 0x6F } else { c_jal || (c_quadrant1 && c_funct3 == 5) };
    let jalr = if full { opcode == 0x67 } else { c_jr || c_jalr };
    let system = if full { opcode == 0x73 } else { c_ebreak };
    let system_transfer = if full { opcode == 0x73 && field(12, 3) == 0 } else { c_ebreak };
    let rd = if full { field(7, 5) } else { (c_jal || c_jalr) as u32 };
    let rs1 = if full { field(15, 5) } else { c_rs1 };
    let links = |register: u32| register == 1 || register == 5;
    let muldiv = full && opcode == 0x33 && field(25, 7) == 1;
    let mask = low_mask(xlen.bits());
    let fall_through = r.pc_rdata.wrapping_add(if full { 4 } else { 2 }) & mask;
    let taken = r.pc_wdata & mask != fall_through;
    let masks = low_mask(xlen.mask_bits());
    let v = r.valid;
    let bits = [
        true,
        v,
        !v,
        v && r.mem_rmask as u64 & masks != 0,
        v && r.mem_wmask as u64 & masks != 0,
        v && branch,
        v && branch && taken,
        v && (jal || jalr),
        v && (jal || jalr) && links(rd),
        v && jalr && rd == 0 && links(rs1),
        v && r.trap,
        v && r.intr,
        v && system,
        v && muldiv,
    ];
    Classified {
        events: bits.iter().enumerate().fold(0, |events, (i, &bit)| events | (bit as u16) << i),
        ends_block: v && (r.trap || branch || jal || jalr || system_transfer),
        handler_return: v && (insn == MRET || insn == RETIRQ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rvfi::params::KernelRule;
    use crate::rvfi::testing::{arbitrary, reference_xlen, signals, CoreStream};
    use pmugen_sim::reference::rvfi as reference;
    use rand::SeedableRng;

    /// The event bits equal the reference model's classification, written from the
    /// same rules by other hands, on core streams and on arbitrary words.
    #[test]
    fn events_equal_the_reference_classification() {
        let seed = 0x5eed_5102;
        println!("seed {seed:#x}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for (xlen, rule) in [(Xlen::Rv32, KernelRule::Mode), (Xlen::Rv64, KernelRule::Handler)] {
            let mut stream = CoreStream::new(1, xlen, rule, true, seed, 0);
            for cycle in 0..40_000 {
                let r = if cycle % 4 == 0 { arbitrary(&mut rng) } else { stream.next_cycle()[0] };
                let expected = reference::classify(&r, reference_xlen(xlen)).bits();
                let events = classify(&signals(&r), xlen).events;
                // The reference leaves CYCLES and STALL_CYCLES to the adapter's cycle rule.
                let compared = !0b101u16;
                assert_eq!(events & compared, expected & compared, "XLEN {xlen}, {r:x?}, seed {seed:#x}");
            }
        }
    }

    #[test]
    fn compressed_forms_are_their_expansions() {
        let at = |insn: u32, next: u64| HartSignals {
            valid: true,
            insn,
            pc_rdata: 0x100,
            pc_wdata: next,
            ..Default::default()
        };
        let names = |r: &HartSignals, xlen: Xlen| -> Vec<&str> {
            let events = classify(r, xlen).events;
            (0..14).filter(|i| events >> i & 1 == 1).map(|i| crate::rvfi::events::EVENTS[i]).collect()
        };
        // C.JAL (RV32) calls; the same encoding is C.ADDIW on RV64.
        assert_eq!(names(&at(0x2001, 0x200), Xlen::Rv32), ["CYCLES", "INSTRET", "JUMP", "CALL"]);
        assert_eq!(names(&at(0x2001, 0x102), Xlen::Rv64), ["CYCLES", "INSTRET"]);
        // C.JR ra returns, C.JALR a0 calls, C.EBREAK is SYSTEM and ends a block.
        assert_eq!(names(&at(0x8082, 0x40), Xlen::Rv32), ["CYCLES", "INSTRET", "JUMP", "RETURN"]);
        assert_eq!(names(&at(0x9502, 0x40), Xlen::Rv32), ["CYCLES", "INSTRET", "JUMP", "CALL"]);
        assert_eq!(names(&at(0x9002, 0x40), Xlen::Rv32), ["CYCLES", "INSTRET", "SYSTEM"]);
        assert!(classify(&at(0x9002, 0x40), Xlen::Rv32).ends_block);
        // C.JR x0 is reserved: no class, no block end.
        assert_eq!(names(&at(0x8002, 0x102), Xlen::Rv32), ["CYCLES", "INSTRET"]);
        assert!(!classify(&at(0x8002, 0x102), Xlen::Rv32).ends_block);
        // C.BEQZ falling through (pc + 2) is not taken; MUL is MULDIV.
        assert_eq!(names(&at(0xC001, 0x102), Xlen::Rv32), ["CYCLES", "INSTRET", "BRANCH"]);
        assert_eq!(names(&at(0x02B5_0533, 0x104), Xlen::Rv32), ["CYCLES", "INSTRET", "MULDIV"]);
        assert!(classify(&at(MRET, 0x40), Xlen::Rv32).handler_return);
    }
}
