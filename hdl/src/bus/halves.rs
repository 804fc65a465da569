//! The holding words of a 32-bit slave in front of 64-bit registers (the PMU with
//! `--bus-width 32`, docs/bus.md §8), written once for both buses: the shared access
//! layer (`register_access.rs`) puts this logic between the bus access and the
//! design's register port.
//!
//! Register `a` of thread `t` is two bus words: bits [31:0] at `t*0x800 + 8a` (+0) and
//! bits [63:32] at +4. "That register" is the thread and the address, address bits
//! [12:3].
//!
//! - Reads have their own history: a +0 read latches [63:32] of the register-port
//!   read it makes (0 when denied, as the design answers a denied read) into the read
//!   holding word; a +4 read answers that word if the previous read was +0 of the same
//!   register, else the live [63:32] of its own register-port read. Any read ends the
//!   latch but a +0 read, which starts a new one.
//! - Writes have their own history: a +4 write is held (no register-port cycle); a +0
//!   write makes one register-port write of {held word, data} if the previous write
//!   was +4 of the same register, else {0, data}, and uses the held word up whether
//!   or not the design allows it (its own privilege decides).
//! - A misaligned or strobe-refused access changes neither history; reset clears both.
//!
//! Timing: the register port answers a read after the edge of the cycle that took
//! it, so the +0 read's high word is latched one edge later, in its response cycle.
//! Neither slave takes an access in that cycle, so the next read sees the latch.
use std::fmt::Write;

use super::BusLayout;

/// The wire with a read's bus-word answer in the cycle after it was taken.
pub const ANSWER: &str = "answer_rdata";
/// The wire with the register port's 64-bit write data.
pub const PORT_WDATA: &str = "port_wdata";
/// The wire that is 1 when the access reaches the high word (+4).
pub const HIGH_WORD: &str = "high_word";

/// The holding words' Verilog, inside the slave module: after `aligned`,
/// `full_strobes`, `design_rdata` and `design_fault` are declared, before the
/// design's instance. Declares [`HIGH_WORD`], [`PORT_WDATA`] and [`ANSWER`].
pub fn verilog(layout: &BusLayout) -> String {
    let shift = layout.register_shift();
    let id_msb = layout.address_bits - 1;
    let id_bits = layout.address_bits - shift;
    let id = format!("[{}:0]", id_bits - 1);
    let mut v = String::new();
    let _ = writeln!(
        v,
        "\n    // 64-bit registers on a 32-bit bus (docs/bus.md §8): bits [31:0] at +0, [63:32] at +4.\n    \
         // \"That register\" is the thread and the register address.\n    \
         wire {HIGH_WORD} = access_address[{offset}];\n    \
         wire {id} word_register = access_address[{id_msb}:{shift}];\n    \
         // The bus rules' refusals (misaligned, partial strobes) change no holding state.\n    \
         wire read_kept = take_read && aligned;\n    \
         wire write_kept = take_write && aligned && full_strobes;\n\n    \
         // The held write word: a +4 write waits for the +0 write of its register.\n    \
         reg write_held_q;\n    reg {id} write_held_register_q;\n    reg [31:0] write_held_word_q;\n    \
         wire held_word_applies = write_held_q && write_held_register_q == word_register;\n    \
         wire [63:0] {PORT_WDATA} = {{held_word_applies ? write_held_word_q : 32'd0, access_wdata}};\n\n    \
         // The read holding word: what a +0 read saw of [63:32], for the +4 read after it.\n    \
         reg read_latched_q;\n    reg {id} read_latched_register_q;\n    reg [31:0] read_latched_word_q;\n    \
         // The read answered in this cycle: whether it was taken in the previous one, was a\n    \
         // +4 read, and follows the +0 read of its register.\n    \
         reg answer_due_q;\n    reg answer_high_q;\n    reg answer_latched_q;\n    \
         wire [31:0] latched_answer = design_fault ? 32'd0 : read_latched_word_q;\n    \
         wire [31:0] {ANSWER} = !answer_high_q ? design_rdata[31:0]\n        \
             : answer_latched_q ? latched_answer : design_rdata[63:32];",
        offset = layout.offset_bits(),
    );
    let flops = [
        ("write_held_q", 1),
        ("write_held_register_q", id_bits),
        ("write_held_word_q", 32),
        ("read_latched_q", 1),
        ("read_latched_register_q", id_bits),
        ("read_latched_word_q", 32),
        ("answer_due_q", 1),
        ("answer_high_q", 1),
        ("answer_latched_q", 1),
    ];
    let zero = |bits: usize| if bits == 1 { "1'b0".to_string() } else { format!("{bits}'d0") };
    let _ = writeln!(
        v,
        "\n    // Power-up values as the design's own flip-flops have (FPGA initial state).\n    initial begin"
    );
    for (name, bits) in flops {
        let _ = writeln!(v, "        {name} = {};", zero(bits));
    }
    let _ = writeln!(v, "    end\n\n    always @(posedge clock) begin\n        if (reset) begin");
    for (name, bits) in flops {
        let _ = writeln!(v, "            {name} <= {};", zero(bits));
    }
    let _ = write!(
        v,
        "        end else begin\n            \
                 answer_due_q <= read_kept;\n            \
                 if (write_kept) begin\n                \
                     write_held_q <= {HIGH_WORD};\n                \
                     write_held_register_q <= word_register;\n                \
                     write_held_word_q <= access_wdata;\n            \
                 end\n            \
                 if (read_kept) begin\n                \
                     answer_high_q <= {HIGH_WORD};\n                \
                     answer_latched_q <= {HIGH_WORD} && read_latched_q && read_latched_register_q == word_register;\n                \
                     read_latched_q <= !{HIGH_WORD};\n                \
                     read_latched_register_q <= word_register;\n            \
                 end\n            \
                 // A +0 read's answer: its high word is the holding word from now on.\n            \
                 if (answer_due_q && !answer_high_q) read_latched_word_q <= design_rdata[63:32];\n        \
             end\n    end\n\n"
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bus::Bus;

    #[test]
    fn the_holding_words_key_on_thread_and_register() {
        let layout = BusLayout::pmu(4).on(Bus::Axi4Lite32).unwrap();
        let v = verilog(&layout);
        assert!(v.contains("wire high_word = access_address[2];"), "{v}");
        assert!(v.contains("wire [9:0] word_register = access_address[12:3];"), "{v}");
        assert!(v.contains("reg [9:0] read_latched_register_q;") && v.contains("write_held_register_q <= 10'd0;"));
        assert!(v.contains("read_latched_word_q <= 32'd0;"), "{v}");
    }
}
