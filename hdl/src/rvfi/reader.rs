//! One hart's reader of its core's RVFI (`--core`, docs/soc.md §1.7): the retirement
//! turned into what the classifier, the kernel rule and the block tracker expect.
//!
//! - `generic`: wires.
//! - PicoRV32: ECALL, EBREAK and C.EBREAK trap (`rvfi_trap` is 0 for them).
//! - SERV: a flag, set by a trapping retirement and cleared by any other, makes the
//!   next retirement a handler entry (`rvfi_intr`); a trapping retirement that is not
//!   ECALL, EBREAK or C.EBREAK is the instruction an interrupt stopped: no retirement.
//! - Ibex: the read mask only for a load opcode (0x03, 0x07, compressed loads
//!   included) that did not trap; a trapping retirement's next address is its own
//!   (never the fall-through, so a trapping branch is taken).
//!
//! Latency: combinational; SERV's flag is registered (reset clears it).
//!
//! ```text
//!  valid, insn, trap, intr, pc_rdata, pc_wdata, mem_rmask --> [core's rule] --> read_valid, read_trap, read_intr, read_pc_wdata, read_rmask
//! ```
use rust_hdl::prelude::*;

use super::groups;
use super::params::{Core, Xlen};
use super::port::HartSignals;
use crate::custom::{literal, unused_sink, Internal};
use crate::dyn_signal::DynSignal;
use crate::flip_flops::{declarations, FlipFlops};
use crate::verilog;

/// ECALL.
const ECALL: u32 = 0x0000_0073;
/// EBREAK.
const EBREAK: u32 = 0x0010_0073;
/// C.EBREAK (in `insn[15:0]`).
const C_EBREAK: u32 = 0x9002;

/// One hart's reader for `core`.
#[derive(LogicBlock)]
pub struct CoreReader {
    /// Clock (SERV's flag).
    pub clock: Signal<In, Clock>,
    /// Synchronous, active-high reset: the flag to 0.
    pub reset: Signal<In, Bit>,
    /// `rvfi_valid`.
    pub valid: Signal<In, Bit>,
    /// `rvfi_insn`.
    pub insn: Signal<In, Bits<32>>,
    /// `rvfi_trap`.
    pub trap: Signal<In, Bit>,
    /// `rvfi_intr`.
    pub intr: Signal<In, Bit>,
    /// `rvfi_pc_rdata`, XLEN bits.
    pub pc_rdata: DynSignal<In>,
    /// `rvfi_pc_wdata`, XLEN bits.
    pub pc_wdata: DynSignal<In>,
    /// `rvfi_mem_rmask`, XLEN/8 bits.
    pub mem_rmask: DynSignal<In>,
    /// An instruction retires, as the rules take it.
    pub read_valid: Signal<Out, Bit>,
    /// It traps.
    pub read_trap: Signal<Out, Bit>,
    /// It is a handler's first instruction.
    pub read_intr: Signal<Out, Bit>,
    /// Its next address, XLEN bits.
    pub read_pc_wdata: DynSignal<Out>,
    /// The bytes it read, XLEN/8 bits.
    pub read_rmask: DynSignal<Out>,
    after_trap: Internal<bool>,
    core: Internal<Core>,
    xlen: Internal<Xlen>,
}

/// `insn` raises an exception whatever its operands.
fn exception_call(insn: u32) -> bool {
    insn == ECALL || insn == EBREAK || (insn & 3 != 3 && insn & 0xFFFF == C_EBREAK)
}

/// `insn`'s expansion has a load opcode (the compressed loads of RV32C/RV64C: C.LW,
/// C.LWSP, C.FLD, C.FLDSP, C.FLW/C.LD and C.FLWSP/C.LDSP, their reserved forms not).
fn load(insn: u32, xlen: Xlen) -> bool {
    let (quadrant, funct3, rd) = (insn & 3, insn >> 13 & 7, insn >> 7 & 0x1F);
    match quadrant {
        3 => matches!(insn & 0x7F, 0x03 | 0x07),
        0 => matches!(funct3, 1..=3),
        2 => funct3 == 1 || (funct3 == 2 && rd != 0) || (funct3 == 3 && (xlen == Xlen::Rv32 || rd != 0)),
        _ => false,
    }
}

/// One retirement as the rules take it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Read {
    /// An instruction retires.
    pub valid: bool,
    /// It traps.
    pub trap: bool,
    /// It is a handler's first instruction.
    pub intr: bool,
    /// Its next address.
    pub pc_wdata: u64,
    /// The bytes it read.
    pub rmask: u64,
}

/// What `r` reads as on `core`, SERV's flag being `after_trap` (the block's twin).
pub fn read(core: Core, xlen: Xlen, after_trap: bool, r: &HartSignals) -> Read {
    let (valid, trap, intr, insn) = (r.valid, r.trap, r.intr, r.insn);
    let (pc_wdata, rmask) = (r.pc_wdata, r.mem_rmask as u64);
    let plain = Read { valid, trap, intr, pc_wdata, rmask };
    match core {
        Core::Generic => plain,
        Core::Picorv32 => Read { trap: trap || exception_call(insn), ..plain },
        Core::Serv => {
            let stopped = trap && !exception_call(insn);
            Read { valid: valid && !stopped, trap: trap && !stopped, intr: intr || after_trap, ..plain }
        }
        Core::Ibex => Read {
            pc_wdata: if trap { r.pc_rdata } else { pc_wdata },
            rmask: if load(insn, xlen) && !trap { rmask } else { 0 },
            ..plain
        },
    }
}

impl CoreReader {
    /// The reader of `core`'s retirements, for XLEN.
    pub fn new(core: Core, xlen: Xlen) -> Self {
        let (x, m) = (xlen.bits(), xlen.mask_bits());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            insn: Default::default(),
            trap: Default::default(),
            intr: Default::default(),
            pc_rdata: DynSignal::new(x),
            pc_wdata: DynSignal::new(x),
            mem_rmask: DynSignal::new(m),
            read_valid: Default::default(),
            read_trap: Default::default(),
            read_intr: Default::default(),
            read_pc_wdata: DynSignal::new(x),
            read_rmask: DynSignal::new(m),
            after_trap: Internal(false),
            core: Internal(core),
            xlen: Internal(xlen),
        }
    }

    /// The registers: SERV's "the last retirement trapped" flag.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        match self.core.0 {
            Core::Serv => vec![FlipFlops::new("after_trap_q", 1, 0, groups::READER)],
            _ => vec![],
        }
    }
}

impl Logic for CoreReader {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.core.0 == Core::Serv {
            self.after_trap.0 = match (self.reset.val(), self.valid.val()) {
                (true, _) => false,
                (false, true) => self.trap.val(),
                (false, false) => self.after_trap.0,
            };
        }
        let r = HartSignals {
            valid: self.valid.val(),
            insn: self.insn.val().index() as u32,
            trap: self.trap.val(),
            intr: self.intr.val(),
            mode: 0,
            pc_rdata: self.pc_rdata.get(),
            pc_wdata: self.pc_wdata.get(),
            mem_rmask: self.mem_rmask.get() as u8,
            mem_wmask: 0,
        };
        let Read { valid: read_valid, trap: read_trap, intr: read_intr, pc_wdata: read_pc_wdata, rmask: read_rmask } =
            read(self.core.0, self.xlen.0, self.after_trap.0, &r);
        self.read_valid.next = read_valid;
        self.read_trap.next = read_trap;
        self.read_intr.next = read_intr;
        self.read_pc_wdata.set(read_pc_wdata);
        self.read_rmask.set(read_rmask);
    }

    fn connect(&mut self) {
        self.read_valid.connect();
        self.read_trap.connect();
        self.read_intr.connect();
        self.read_pc_wdata.connect();
        self.read_rmask.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut v = String::new();
        let exception_call = format!(
            "wire exception_call = insn == 32'h{ECALL:08x} || insn == 32'h{EBREAK:08x} || (insn[1:0] != 2'b11 && \
             insn[15:0] == 16'h{C_EBREAK:04x});"
        );
        let mut unused: Vec<&str> = vec!["clock", "reset"];
        match self.core.0 {
            Core::Generic => {
                verilog!(v, "// generic: RVFI as riscv-formal defines it.");
                verilog!(v, "always @(*) begin\n    read_valid = valid;\n    read_trap = trap;\n    read_intr = intr;");
                verilog!(v, "    read_pc_wdata = pc_wdata;\n    read_rmask = mem_rmask;\nend");
                unused.extend(["insn", "pc_rdata"]);
            }
            Core::Picorv32 => {
                verilog!(v, "// PicoRV32: ECALL and EBREAK raise IRQ 1 with rvfi_trap = 0; they trap.");
                verilog!(v, "{exception_call}");
                verilog!(v, "always @(*) begin\n    read_valid = valid;\n    read_trap = trap | exception_call;");
                verilog!(v, "    read_intr = intr;\n    read_pc_wdata = pc_wdata;\n    read_rmask = mem_rmask;\nend");
                unused.push("pc_rdata");
            }
            Core::Serv => {
                unused.clear();
                v.push_str(&declarations(&self.flip_flops()));
                verilog!(v, "// SERV: rvfi_intr is 0; the retirement after a trapping one enters a handler.");
                verilog!(v, "// A trapping retirement other than ECALL/EBREAK is an instruction an interrupt stopped.");
                verilog!(v, "{exception_call}");
                verilog!(v, "wire stopped = trap & ~exception_call;");
                verilog!(v, "always @(posedge clock) begin");
                verilog!(v, "    if (reset) after_trap_q <= 1'b0;\n    else if (valid) after_trap_q <= trap;\nend");
                verilog!(v, "always @(*) begin\n    read_valid = valid & ~stopped;\n    read_trap = trap & ~stopped;");
                verilog!(
                    v,
                    "    read_intr = intr | after_trap_q;\n    read_pc_wdata = pc_wdata;\n    read_rmask = mem_rmask;"
                );
                verilog!(v, "end");
                unused.push("pc_rdata");
            }
            Core::Ibex => {
                let (m, rv32) = (self.mem_rmask.width(), self.xlen.0 == Xlen::Rv32);
                verilog!(v, "// Ibex: rvfi_mem_rmask on every retirement; only a load opcode that did not trap reads.");
                verilog!(v, "wire [2:0] c_funct3 = insn[15:13];\nwire c_rd_nonzero = insn[11:7] != 5'd0;");
                verilog!(v, "wire c_load3 = {};", if rv32 { "1'b1" } else { "c_rd_nonzero" });
                verilog!(v, "wire is_load = insn[1:0] == 2'b11 ? (insn[6:0] == 7'h03 || insn[6:0] == 7'h07)");
                verilog!(v, "    : insn[1:0] == 2'b00 ? (c_funct3 == 3'd1 || c_funct3 == 3'd2 || c_funct3 == 3'd3)");
                verilog!(v, "    : insn[1:0] == 2'b10 ? (c_funct3 == 3'd1 || (c_funct3 == 3'd2 && c_rd_nonzero)");
                verilog!(v, "        || (c_funct3 == 3'd3 && c_load3)) : 1'b0;");
                verilog!(v, "// A trapping instruction's next address is not the handler's: take its own.");
                verilog!(v, "always @(*) begin\n    read_valid = valid;\n    read_trap = trap;\n    read_intr = intr;");
                verilog!(v, "    read_pc_wdata = trap ? pc_rdata : pc_wdata;");
                verilog!(v, "    read_rmask = is_load & ~trap ? mem_rmask : {};\nend", literal(m, 0));
                unused.extend(["insn[31:16]", "insn[12]"]);
            }
        }
        let unused: Vec<String> = unused.into_iter().map(String::from).collect();
        v.push_str(&unused_sink("reader_inputs", &unused));
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests;
