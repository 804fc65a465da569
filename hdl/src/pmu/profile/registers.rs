//! The profile table's registers: their report groups (docs/pmu.md §8) and their
//! Verilog at the clock edge.
use super::table::ProfileTable;
use crate::custom::{literal, slice, zero_extend};
use crate::flip_flops::FlipFlops;
use crate::pmu::groups;
use crate::verilog;

impl ProfileTable {
    /// The registers: the record being taken (phase, word, its first word's fields,
    /// the values, the entry's index, the current pid) and the table's control
    /// (SUMMARIZE, FLUSH, pending records, the queue's record count, PROFILE_EVICTED,
    /// clearing). The RAM's read register belongs to its read port.
    pub fn flip_flops(&self) -> Vec<FlipFlops> {
        let shape = self.shape.0;
        let record = groups::PROFILE_RECORD;
        let control = groups::PROFILE_CONTROL;
        let mut registers = vec![
            FlipFlops::new("phase_q", 3, 0, record),
            FlipFlops::new("word_q", shape.word_bits(), 0, record),
            FlipFlops::new("new_process_q", 1, 0, record),
            FlipFlops::new("address_q", shape.address_width, 0, record),
            FlipFlops::new("values_q", shape.counters * shape.counter_width, 0, record),
            FlipFlops::new("index_q", shape.index_bits(), 0, record),
            FlipFlops::new("pid_q", 32, 0, record),
            FlipFlops::new("clearing_q", 1, 1, control),
            FlipFlops::new("summarize_q", 1, 0, control),
            FlipFlops::new("flushing_q", 1, 0, control),
            FlipFlops::new("pending_q", shape.count_bits(), 0, control),
            FlipFlops::new("records_q", shape.count_bits(), 0, control),
            FlipFlops::new("evicted_q", 32, 0, control),
        ];
        if shape.thread_bits() != 0 {
            registers.push(FlipFlops::new("thread_q", shape.thread_bits(), 0, record));
        }
        registers
    }

    /// The registers at the clock edge (and the RAM's two ports).
    pub(super) fn registers_verilog(&self) -> String {
        let shape = self.shape.0;
        let (k, cw, aw, tb) = (shape.counters, shape.counter_width, shape.address_width, shape.thread_bits());
        let cb = shape.count_bits();
        let mut v = String::new();
        verilog!(v, "always @(posedge clock) begin");
        verilog!(v, "    if (write_enable & ~reset) memory[write_address] <= write_data;");
        verilog!(v, "    if (read_enable & ~reset) read_data_q <= memory[read_address];");
        verilog!(v, "end");
        verilog!(v, "always @(posedge clock) begin\n    if (reset) begin");
        for register in self.flip_flops() {
            let reset = register.reset.expect("every listed register has a reset value");
            verilog!(v, "        {} <= {};", register.net, literal(register.width, reset));
        }
        verilog!(v, "    end else begin");
        verilog!(v, "        phase_q <= phase_d; word_q <= word_d; index_q <= index_d;");
        let last_index = literal(shape.index_bits(), shape.entries as u64 - 1);
        verilog!(v, "        if (clearing_q & (index_q == {last_index})) clearing_q <= 1'b0;");
        verilog!(v, "        if (take_first & moves) begin");
        verilog!(v, "            new_process_q <= in_data[63]; address_q <= {};", slice("in_data", 0, aw, 64));
        if tb != 0 {
            verilog!(v, "            thread_q <= {};", slice("in_data", 61, tb, 64));
        }
        verilog!(v, "        end");
        verilog!(
            v,
            "        if (taking & moves & new_process_q & (word_q == {})) pid_q <= in_data[31:0];",
            literal(shape.word_bits(), 1)
        );
        for i in 0..k {
            let word = |w: usize| literal(shape.word_bits(), w as u64);
            verilog!(
                v,
                "        if (taking & moves & (word_q == (new_process_q ? {} : {}))) {} <= {};",
                word(i + 2),
                word(i + 1),
                slice("values_q", i * cw, cw, k * cw),
                slice("in_data", 0, cw, 64)
            );
        }
        verilog!(v, "        if (ctrl_write) summarize_q <= wdata[0];");
        let one = zero_extend(&format!("(leaves & (pending_q != {}))", literal(cb, 0)), 1, cb);
        verilog!(v, "        pending_q <= starts_flush ? records_d : pending_q - {one};");
        verilog!(v, "        flushing_q <= starts_flush | (flushing_q & ~ends_flush);");
        verilog!(v, "        records_q <= records_d;");
        verilog!(v, "        if (evicted_write) evicted_q <= {{31'h0, evicted_now}};");
        verilog!(v, "        else if (evicted_now & ~&evicted_q) evicted_q <= evicted_q + 32'h1;");
        verilog!(v, "    end\nend");
        v
    }
}
