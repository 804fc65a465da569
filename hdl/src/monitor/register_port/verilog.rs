//! The register port's Verilog (docs/monitor.md §4, §5), from the register table in
//! [`crate::monitor::regmap`]: CTRL and the read-data flip-flops, the CMD strobes, the
//! ORDER write decode and the read mux entries. Sized at run time: the same text
//! generator serves every (N, W).
use std::fmt::Write;

use crate::custom::{row_without_bit, unused_diagonal, zero_extend_32};
use crate::monitor::regmap::{self, Register, Source};
use crate::regmap::read_mux::{self, MuxShape, ReadEntry};

/// Width of the CTRL flip-flops: its fields are packed from bit 0.
pub(super) fn ctrl_width() -> usize {
    64 - regmap::CTRL.mask(&regmap::params(32, 8)).leading_zeros() as usize
}

/// Every readable register copy, for the read mux: the single registers in one
/// group, each per-event array in its own.
pub(super) fn read_entries(n: usize, w: usize) -> Vec<ReadEntry> {
    let params = regmap::params(n, w);
    let mut entries = Vec::new();
    for register in regmap::REGISTERS.iter().filter(|r| r.source != Source::Command) {
        let copies = register.count(&params);
        let group = match register.source {
            _ if copies == 1 => "single",
            Source::OrderRegister => "order",
            Source::RecordRow => "before",
            other => panic!("RegisterPort: no read group for the per-event {other:?}"),
        };
        let zero_unless = (register.source == Source::RecordRow).then_some("live");
        for index in 0..copies {
            let expr = read_expression(register, index, n, w);
            entries.push(ReadEntry { addr: register.addr as usize + index, group, expr, zero_unless });
        }
    }
    entries
}

/// The Verilog expression a read of copy `index` of `register` returns.
fn read_expression(register: &Register, index: usize, n: usize, w: usize) -> String {
    match register.source {
        Source::Identity => format!("32'h{:08x}", regmap::id_value(n, w)),
        Source::Control => zero_extend_32("ctrl_q", ctrl_width()),
        Source::Command => "32'h0".to_string(),
        Source::Flags => {
            let mut fields: Vec<_> = register.fields.iter().collect();
            fields.sort_by_key(|field| std::cmp::Reverse(field.lsb));
            let top = fields[0].lsb + 1;
            let bits: Vec<String> = fields.iter().map(|field| field.name.to_lowercase()).collect();
            zero_extend_32(&format!("{{{}}}", bits.join(", ")), top)
        }
        Source::Counter => "32'h0".to_string(),
        Source::EventRegister => zero_extend_32("seen", n),
        Source::OrderRegister => zero_extend_32(&format!("order${index}"), w),
        Source::RecordRow => zero_extend_32(&row_without_bit(&format!("before${index}"), n, index), n),
    }
}

/// The port's Verilog body for `n` events of `w` order bits.
pub(super) fn body(n: usize, w: usize) -> String {
    let ctrl_bits = ctrl_width();
    let mut v = String::new();
    let _ = writeln!(v, "reg [{}:0] ctrl_q;", ctrl_bits - 1);
    let _ = writeln!(v, "reg [31:0] rdata_q;");
    let _ = writeln!(v, "// COUNT is read from the counter's register after the edge: it holds then");
    let _ = writeln!(v, "// what COUNT was during the read's cycle (docs/monitor.md §7.2).");
    let _ = writeln!(v, "reg count_read_q;");
    let _ = writeln!(v, "wire ctrl_write = write & (addr == 8'h{:02x});", regmap::CTRL.addr);
    let _ = writeln!(v, "wire cmd_write = write & (addr == 8'h{:02x});", regmap::CMD.addr);
    let _ = writeln!(v, "wire unused_wdata = ^wdata; // bits no register holds are ignored");
    let _ = writeln!(v, "initial begin");
    let _ = writeln!(v, "    ctrl_q = {ctrl_bits}'h{:x};", regmap::CTRL_RESET);
    let _ = writeln!(v, "    rdata_q = 32'h0;");
    let _ = writeln!(v, "    count_read_q = 1'b0;");
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "always @(posedge clock) begin");
    let _ = writeln!(v, "    if (reset) ctrl_q <= {ctrl_bits}'h{:x};", regmap::CTRL_RESET);
    let _ = writeln!(v, "    else if (ctrl_write) ctrl_q <= wdata[{}:0];", ctrl_bits - 1);
    let _ = writeln!(v, "    if (reset | read_zero) rdata_q <= 32'h0;");
    let _ = writeln!(v, "    else rdata_q <= read_value;");
    let _ = writeln!(v, "    count_read_q <= ~reset & (addr == 8'h{:02x});", regmap::COUNT.addr);
    let _ = writeln!(v, "end");
    v.push_str(&read_mux::verilog(&read_entries(n, w), MuxShape { address: "addr", address_bits: 8, data_bits: 32 }));
    let _ = writeln!(v, "always @(*) begin");
    for field in regmap::CTRL.fields {
        let bits = field.width.bits(&regmap::params(n, w));
        let slice =
            if bits == 1 { format!("{}", field.lsb) } else { format!("{}:{}", field.lsb + bits - 1, field.lsb) };
        let _ = writeln!(v, "    {} = ctrl_q[{slice}];", field.name.to_lowercase());
    }
    for field in regmap::CMD.fields {
        let _ = writeln!(v, "    {} = cmd_write & wdata[{}];", field.name.to_lowercase(), field.lsb);
    }
    for e in 0..n {
        let _ = writeln!(v, "    order_write[{e}] = write & (addr == 8'h{:02x});", regmap::ORDER.addr as usize + e);
    }
    let _ = writeln!(v, "    order_wdata = wdata[{}:0];", w - 1);
    let _ = writeln!(v, "    rdata = rdata_q | ({{32{{count_read_q}}}} & count);");
    let _ = writeln!(v, "end");
    v.push_str(&unused_diagonal("before", n));
    v
}
