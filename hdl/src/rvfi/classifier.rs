//! One hart's retirement classified (docs/soc.md §1.1-§1.3): its 14 event bits, whether
//! it can end a basic block (a control transfer or a trap) and whether it is a handler
//! return (MRET or PicoRV32's `retirq`, the whole 32-bit word).
//!
//! A compressed instruction (`insn[1:0]` != 3) is classified as its expansion, decoded
//! from `insn[15:0]`, as far as the events need it: C.BEQZ/C.BNEZ are branches, C.J and
//! C.JAL (RV32 only; on RV64 that encoding is C.ADDIW) are JAL, C.JR and C.JALR are
//! JALR (C.JAL and C.JALR link in x1), C.EBREAK is SYSTEM; C.JR with rs1 = x0 is
//! reserved and in no class. Only the expansion's opcode (with funct3 for the system
//! transfers and funct7 for MULDIV) decides a class.
//!
//! Latency: combinational.
//!
//! ```text
//!  valid, insn, trap, intr, pc_rdata, pc_wdata, mem_rmask, mem_wmask --> [decode] --> events[14], ends_block, handler_return
//! ```
use rust_hdl::prelude::*;

use super::classify::{classify, MRET, RETIRQ};
use super::params::Xlen;
use super::port::HartSignals;
use crate::custom::{literal, Internal};
use crate::dyn_signal::DynSignal;
use crate::verilog;

/// One hart's retirement classifier for XLEN.
#[derive(LogicBlock)]
pub struct RetirementClassifier {
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
    /// `rvfi_mem_wmask`, XLEN/8 bits.
    pub mem_wmask: DynSignal<In>,
    /// This cycle's event bits (bit i = `events::EVENTS[i]`).
    pub events: Signal<Out, Bits<14>>,
    /// The retirement can end a basic block (the block tracker decides).
    pub ends_block: Signal<Out, Bit>,
    /// The retirement is a handler return.
    pub handler_return: Signal<Out, Bit>,
    xlen: Internal<Xlen>,
}

impl RetirementClassifier {
    /// A classifier for a core of `xlen`.
    pub fn new(xlen: Xlen) -> Self {
        let (x, m) = (xlen.bits(), xlen.mask_bits());
        Self {
            valid: Default::default(),
            insn: Default::default(),
            trap: Default::default(),
            intr: Default::default(),
            pc_rdata: DynSignal::new(x),
            pc_wdata: DynSignal::new(x),
            mem_rmask: DynSignal::new(m),
            mem_wmask: DynSignal::new(m),
            events: Default::default(),
            ends_block: Default::default(),
            handler_return: Default::default(),
            xlen: Internal(xlen),
        }
    }

    /// This cycle's signals as the classifier sees them (no `rvfi_mode`).
    fn signals(&self) -> HartSignals {
        HartSignals {
            valid: self.valid.val(),
            insn: self.insn.val().index() as u32,
            trap: self.trap.val(),
            intr: self.intr.val(),
            mode: 0,
            pc_rdata: self.pc_rdata.get(),
            pc_wdata: self.pc_wdata.get(),
            mem_rmask: self.mem_rmask.get() as u8,
            mem_wmask: self.mem_wmask.get() as u8,
        }
    }
}

impl Logic for RetirementClassifier {
    fn update(&mut self) {
        let classified = classify(&self.signals(), self.xlen.0);
        self.events.next = (classified.events as u64).to_bits();
        self.ends_block.next = classified.ends_block;
        self.handler_return.next = classified.handler_return;
    }

    fn connect(&mut self) {
        self.events.connect();
        self.ends_block.connect();
        self.handler_return.connect();
    }

    fn hdl(&self) -> Verilog {
        let x = self.xlen.0.bits();
        let mut v = String::new();
        verilog!(v, "// The instruction as far as the events need it (a compressed one as its expansion).");
        verilog!(v, "wire full = insn[1:0] == 2'b11;\nwire [6:0] opcode = insn[6:0];");
        verilog!(v, "wire [2:0] c_funct3 = insn[15:13];\nwire [4:0] c_rs1 = insn[11:7];");
        verilog!(v, "wire c_quadrant1 = insn[1:0] == 2'b01;");
        verilog!(v, "wire c_jr_form = insn[1:0] == 2'b10 && c_funct3 == 3'b100 && insn[6:2] == 5'd0;");
        match self.xlen.0 {
            Xlen::Rv32 => verilog!(v, "wire c_jal = c_quadrant1 && c_funct3 == 3'b001;"),
            Xlen::Rv64 => verilog!(v, "wire c_jal = 1'b0; // C.ADDIW on RV64"),
        }
        verilog!(v, "wire c_jalr = c_jr_form && insn[12] && c_rs1 != 5'd0;");
        verilog!(v, "wire c_jr = c_jr_form && !insn[12] && c_rs1 != 5'd0;");
        verilog!(v, "wire c_ebreak = c_jr_form && insn[12] && c_rs1 == 5'd0;");
        verilog!(v, "wire is_branch = full ? opcode == 7'h63 : c_quadrant1 && c_funct3[2:1] == 2'b11;");
        verilog!(v, "wire is_jal = full ? opcode == 7'h6f : c_jal || (c_quadrant1 && c_funct3 == 3'b101);");
        verilog!(v, "wire is_jalr = full ? opcode == 7'h67 : c_jr || c_jalr;");
        verilog!(v, "wire is_system = full ? opcode == 7'h73 : c_ebreak;");
        verilog!(v, "wire system_transfer = full ? opcode == 7'h73 && insn[14:12] == 3'd0 : c_ebreak;");
        verilog!(v, "wire [4:0] rd = full ? insn[11:7] : {{4'd0, c_jal || c_jalr}};");
        verilog!(v, "wire [4:0] rs1 = full ? insn[19:15] : c_rs1;");
        verilog!(v, "wire links_rd = rd == 5'd1 || rd == 5'd5;\nwire links_rs1 = rs1 == 5'd1 || rs1 == 5'd5;");
        verilog!(v, "wire is_jump = is_jal || is_jalr;");
        verilog!(v, "wire is_muldiv = full && opcode == 7'h33 && insn[31:25] == 7'h01;");
        let (four, two) = (literal(x, 4), literal(x, 2));
        verilog!(v, "wire [{}:0] fall_through = pc_rdata + (full ? {four} : {two});", x - 1);
        verilog!(v, "wire taken = pc_wdata != fall_through;");
        verilog!(v, "always @(*) begin");
        // Table order, CYCLES at bit 0.
        let bits = [
            "1'b1",
            "valid",
            "~valid",
            "valid & (|mem_rmask)",
            "valid & (|mem_wmask)",
            "valid & is_branch",
            "valid & is_branch & taken",
            "valid & is_jump",
            "valid & is_jump & links_rd",
            "valid & is_jalr & (rd == 5'd0) & links_rs1",
            "valid & trap",
            "valid & intr",
            "valid & is_system",
            "valid & is_muldiv",
        ];
        let high_first: Vec<String> = bits.iter().rev().map(|bit| format!("({bit})")).collect();
        verilog!(v, "    events = {{{}}};", high_first.join(",\n        "));
        verilog!(v, "    ends_block = valid & (trap | is_jump | is_branch | system_transfer);");
        verilog!(v, "    handler_return = valid & (insn == 32'h{MRET:08x} || insn == 32'h{RETIRQ:08x});");
        verilog!(v, "end");
        crate::custom::hand_written::<Self>(v)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::port_list;
    use crate::rvfi::params::KernelRule;
    use crate::rvfi::testing::{by_name, HartStream};
    use crate::testing::assert_valid_verilog;
    use crate::testing::lockstep::Lockstep;
    use crate::testing::ports::{Combinational, CombinationalPorts, Port};
    use rand::SeedableRng;
    use std::cell::RefCell;

    impl CombinationalPorts for RetirementClassifier {
        fn ports(&mut self) -> Vec<(String, &mut dyn Port)> {
            port_list!(self; valid, insn, trap, intr, pc_rdata, pc_wdata, mem_rmask, mem_wmask, events, ends_block,
                handler_return)
        }
    }

    #[test]
    fn verilog_is_valid() {
        assert_valid_verilog(&mut RetirementClassifier::new(Xlen::Rv32), "classifier_x32");
        assert_valid_verilog(&mut RetirementClassifier::new(Xlen::Rv64), "classifier_x64");
    }

    /// Both XLENs on retirement streams of both kernel rules (compressed code mostly on),
    /// with a cycle of arbitrary words now and then.
    #[test]
    pub(crate) fn native_twin_equals_its_verilog() {
        let seed = 0x5eed_5101;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let shapes =
            [(Xlen::Rv32, KernelRule::Mode), (Xlen::Rv64, KernelRule::Handler), (Xlen::Rv64, KernelRule::Mode)];
        let streams: Vec<HartStream> =
            shapes.iter().map(|&(xlen, rule)| HartStream::new(&mut rng, xlen, rule)).collect();
        let instances = shapes
            .iter()
            .map(|&(xlen, rule)| {
                (format!("XLEN={xlen}, {rule} stream"), Combinational::new(RetirementClassifier::new(xlen)))
            })
            .collect();
        let streams = RefCell::new(streams);
        Lockstep::new("classifier", seed)
            .cycle_stimulus(move |_, instance, inputs| {
                let (r, _) = streams.borrow_mut()[instance].next_cycle();
                by_name(
                    inputs,
                    &[
                        ("valid", r.valid as u64),
                        ("insn", r.insn as u64),
                        ("trap", r.trap as u64),
                        ("intr", r.intr as u64),
                        ("pc_rdata", r.pc_rdata),
                        ("pc_wdata", r.pc_wdata),
                        ("mem_rmask", r.mem_rmask as u64),
                        ("mem_wmask", r.mem_wmask as u64),
                    ],
                )
            })
            .cycles(8_000)
            .run(instances);
    }
}
