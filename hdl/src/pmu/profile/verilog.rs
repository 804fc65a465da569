//! The profile table's Verilog: the RAM (one write port, one registered read port
//! with a read enable: block RAM on every family), the phase register and its next
//! value, and the trace ports. Its Rust twin is `table.rs` and `edge.rs`; the block's
//! lockstep test proves the two equal.
use super::table::{Phase, ProfileTable};
use super::EXECUTIONS_BITS;
use crate::custom::{literal, range, slice, unused_sink, zero_extend};
use crate::flip_flops::declarations;
use crate::verilog;

impl ProfileTable {
    /// The block's Verilog body.
    pub(super) fn verilog(&self) -> String {
        let shape = self.shape.0;
        let (k, cw, aw) = (shape.counters, shape.counter_width, shape.address_width);
        let (bits, tb, l, wb) = (shape.entry_bits(), shape.thread_bits(), shape.index_bits(), shape.word_bits());
        let cb = shape.count_bits();
        let phase = |p: Phase| literal(3, p.code());
        let mut v = String::new();
        // Reads and writes never meet on one entry at one edge (docs/pmu.md §15.4: a
        // record's entry is read when its first word moves and written when it is
        // done; a walk reads the next entry while it invalidates this one).
        verilog!(v, "(* no_rw_check *)\nreg [{}:0] memory [0:{}];", bits - 1, shape.entries - 1);
        verilog!(v, "reg [{}:0] read_data_q;", bits - 1);
        v.push_str(&declarations(&self.flip_flops()));
        // The entry read, field by field.
        let field = |lsb: usize, width: usize| slice("read_data_q", lsb, width, bits);
        verilog!(v, "wire e_valid = read_data_q[0];");
        verilog!(v, "wire [31:0] e_pid = {};", field(shape.pid_lsb(), 32));
        verilog!(v, "wire [{}:0] e_address = {};", aw - 1, field(shape.address_lsb(), aw));
        verilog!(v, "wire [31:0] e_executions = {};", field(shape.executions_lsb(), EXECUTIONS_BITS));
        let (thread_q, same_thread) = if tb == 0 {
            (None, String::new())
        } else {
            verilog!(v, "wire {}e_thread = {};", range(tb), field(shape.thread_lsb(), tb));
            (Some("thread_q"), " & (e_thread == thread_q)".to_string())
        };
        let mut wraps = vec!["(&e_executions)".to_string()];
        for i in 0..k {
            let value = slice("values_q", i * cw, cw, k * cw);
            verilog!(v, "wire [{cw}:0] sum_{i} = {{1'b0, {}}} + {{1'b0, {value}}};", field(shape.sum_lsb(i), cw));
            wraps.push(format!("sum_{i}[{cw}]"));
        }
        verilog!(v, "wire wraps = {};", wraps.join(" | "));
        verilog!(v, "wire hit = e_valid{same_thread} & (e_pid == pid_q) & (e_address == address_q);");
        verilog!(v, "wire add = hit & ~wraps;");
        let key = [Some("address_q"), Some("pid_q"), thread_q, Some("1'b1")].into_iter().flatten().collect::<Vec<_>>();
        let key = key.join(", ");
        verilog!(v, "wire [{}:0] fresh_entry = {{values_q, 32'h1, {key}}};", bits - 1);
        let sums: Vec<String> = (0..k).rev().map(|i| format!("sum_{i}[{}:0]", cw - 1)).collect();
        verilog!(v, "wire [{}:0] added_entry = {{{}, e_executions + 32'h1, {key}}};", bits - 1, sums.join(", "));
        // This cycle's decisions (§15.4).
        let mut is = |name: &str, p: Phase| verilog!(v, "wire {name} = phase_q == {};", phase(p));
        is("idle", Phase::Idle);
        is("passing", Phase::Passing);
        is("taking", Phase::Taking);
        is("evicting", Phase::Evicting);
        is("flushing", Phase::Flushing);
        verilog!(v, "wire walk_due = flushing_q & (pending_q == {});", literal(cb, 0));
        verilog!(v, "wire sending = evicting | flushing;");
        verilog!(v, "wire through = passing | (idle & ~walk_due & ~summarize_q);");
        verilog!(v, "wire take_first = idle & ~walk_due & summarize_q & ~clearing_q;");
        verilog!(v, "wire ready_w = through ? ready : (take_first | taking);");
        verilog!(v, "wire moves = in_valid & ready_w;\nwire leaves = moves & in_last;");
        let last_word = literal(wb, k as u64 + 1);
        verilog!(v, "wire at_last = word_q == {last_word};");
        verilog!(
            v,
            "wire [{}:0] records_d = records_q + {} - {};",
            cb - 1,
            zero_extend("accepted", 1, cb),
            zero_extend("leaves", 1, cb)
        );
        verilog!(v, "wire starts_flush = ctrl_write & wdata[1] & ~flushing_q;");
        let slices: Vec<String> = shape
            .index_slices()
            .into_iter()
            .map(|(lsb, width)| zero_extend(&slice("in_data", lsb, width, 64), width, l))
            .collect();
        verilog!(v, "wire [{}:0] first_index = {};", l - 1, slices.join(" ^ "));
        v.push_str(&self.next_state_verilog());
        v.push_str(&self.registers_verilog());
        // The summary record of the entry read (§15.3).
        let thread_bits = if tb == 0 { "2'h0".to_string() } else { zero_extend("e_thread", tb, 2) };
        verilog!(v, "reg [63:0] summary;\nalways @(*) begin\n    case (word_q)");
        let address = zero_extend("e_address", aw, 48);
        verilog!(v, "        {}: summary = {{1'b0, {thread_bits}, 1'b1, 12'h0, {address}}};", literal(wb, 0));
        verilog!(v, "        {}: summary = {{e_executions, e_pid}};", literal(wb, 1));
        for i in 0..k {
            let sum = zero_extend(&field(shape.sum_lsb(i), cw), cw, 64);
            verilog!(v, "        {}: summary = {sum};", literal(wb, i as u64 + 2));
        }
        if (1 << wb) > k + 2 {
            verilog!(v, "        default: summary = 64'h0;");
        }
        verilog!(v, "    endcase\nend");
        verilog!(v, "always @(*) begin\n    in_ready = ready_w;");
        verilog!(v, "    valid = through ? in_valid : sending;");
        verilog!(v, "    data = (through & in_valid) ? in_data : (sending ? summary : 64'h0);");
        verilog!(v, "    last = through ? (in_valid & in_last) : (sending & at_last);");
        verilog!(v, "    ctrl = {{flushing_q, summarize_q}};\n    evicted = evicted_q;\nend");
        // PROFILE_CTRL keeps bits [1:0]; PROFILE_EVICTED ignores the data (§15.1).
        let unused: Vec<String> = (2..64).map(|b| format!("wdata[{b}]")).collect();
        v.push_str(&unused_sink("wdata", &unused));
        v
    }

    /// The next phase, word and index, and the RAM's ports, from this cycle.
    fn next_state_verilog(&self) -> String {
        let shape = self.shape.0;
        let (bits, l, wb) = (shape.entry_bits(), shape.index_bits(), shape.word_bits());
        let phase = |p: Phase| literal(3, p.code());
        let last_index = literal(l, shape.entries as u64 - 1);
        let next_entry = format!(
            "if (index_q == {last_index}) begin ends_flush = 1'b1; phase_d = {}; end \
             else begin read_enable = 1'b1; read_address = index_q + {}; index_d = index_q + {}; phase_d = {}; end",
            phase(Phase::Idle),
            literal(l, 1),
            literal(l, 1),
            phase(Phase::Walking)
        );
        let mut v = String::new();
        verilog!(v, "reg [2:0] phase_d;\nreg [{}:0] index_d;\nreg [{}:0] word_d;", l - 1, wb - 1);
        verilog!(
            v,
            "reg read_enable;\nreg [{0}:0] read_address;\nreg write_enable;\nreg [{0}:0] write_address;",
            l - 1
        );
        verilog!(v, "reg [{}:0] write_data;\nreg ends_flush;\nreg evicted_now;", bits - 1);
        verilog!(v, "always @(*) begin");
        verilog!(
            v,
            "    phase_d = phase_q; index_d = index_q; word_d = word_q; ends_flush = 1'b0; evicted_now = 1'b0;"
        );
        verilog!(v, "    read_enable = 1'b0; read_address = index_q;");
        verilog!(v, "    write_enable = 1'b0; write_address = index_q; write_data = {bits}'h0;");
        verilog!(v, "    if (clearing_q) begin write_enable = 1'b1; index_d = index_q + {}; end", literal(l, 1));
        verilog!(v, "    case (phase_q)");
        verilog!(v, "        {}: begin", phase(Phase::Idle));
        verilog!(
            v,
            "            if (walk_due) begin if (~clearing_q) begin read_enable = 1'b1; read_address = {0}; index_d = {0}; phase_d = {1}; end end",
            literal(l, 0),
            phase(Phase::Walking)
        );
        verilog!(
            v,
            "            else if (in_valid & ~summarize_q) phase_d = leaves ? {} : {};",
            phase(Phase::Idle),
            phase(Phase::Passing)
        );
        verilog!(
            v,
            "            else if (moves) begin read_enable = 1'b1; read_address = first_index; index_d = first_index; word_d = {}; phase_d = {}; end",
            literal(wb, 1),
            phase(Phase::Taking)
        );
        verilog!(v, "        end");
        verilog!(v, "        {}: if (leaves) phase_d = {};", phase(Phase::Passing), phase(Phase::Idle));
        verilog!(
            v,
            "        {}: if (moves) begin word_d = word_q + {}; if (in_last) phase_d = {}; end",
            phase(Phase::Taking),
            literal(wb, 1),
            phase(Phase::Updating)
        );
        verilog!(
            v,
            "        {}: if (add | ~e_valid) begin write_enable = 1'b1; write_data = add ? added_entry : fresh_entry; phase_d = {}; end \
             else begin word_d = {}; phase_d = {}; end",
            phase(Phase::Updating),
            phase(Phase::Idle),
            literal(wb, 0),
            phase(Phase::Evicting)
        );
        verilog!(
            v,
            "        {}: if (ready) begin if (at_last) begin write_enable = 1'b1; write_data = fresh_entry; evicted_now = 1'b1; phase_d = {}; end \
             else word_d = word_q + {}; end",
            phase(Phase::Evicting),
            phase(Phase::Idle),
            literal(wb, 1)
        );
        verilog!(
            v,
            "        {}: if (ready) begin if (at_last) begin write_enable = 1'b1; {next_entry} end else word_d = word_q + {}; end",
            phase(Phase::Flushing),
            literal(wb, 1)
        );
        verilog!(
            v,
            "        {}: if (e_valid) begin word_d = {}; phase_d = {}; end else begin {next_entry} end",
            phase(Phase::Walking),
            literal(wb, 0),
            phase(Phase::Flushing)
        );
        verilog!(v, "        default: ;\n    endcase\nend");
        v
    }
}
