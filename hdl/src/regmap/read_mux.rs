//! The read multiplexer of both designs' register ports (docs/monitor.md §7.2,
//! docs/pmu.md §5), as Verilog.
//!
//! The readable register copies are split into groups whose addresses differ in
//! their low bits (the monitor: its single registers together and each per-event
//! array alone; the PMU: each kind of register, its per-thread and per-counter copies
//! told apart by the low bits of the address `{addr, thread}`). A group is a table
//! indexed by those low address bits (a LUT mux tree on the address, shared by every
//! bit), chosen by whether the address lies in the group. An address in no group, and
//! a group read while its `zero_unless` condition is 0 (the monitor's BEFORE while the
//! record is cleared), resets the read-data flip-flops instead of selecting a 0: the
//! iCE40 flip-flop's synchronous reset pin does that without a LUT input.
//!
//! Latency: none here (combinational); the port registers the result.
use std::fmt::Write;

/// The address and data the multiplexer works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MuxShape {
    /// The Verilog address signal.
    pub address: &'static str,
    /// Its width.
    pub address_bits: usize,
    /// Width of a register's value.
    pub data_bits: usize,
}

/// One readable register copy.
#[derive(Clone, Debug)]
pub struct ReadEntry {
    /// Its address on the multiplexer's address signal.
    pub addr: usize,
    /// The group it belongs to (a Verilog identifier part, e.g. `single`, `order`).
    pub group: &'static str,
    /// The Verilog expression it reads, of the data width.
    pub expr: String,
    /// A 1-bit Verilog expression: the register reads 0 while it is 0.
    pub zero_unless: Option<&'static str>,
}

/// Low address bits that tell the addresses of a group apart.
fn index_bits(addrs: &[usize]) -> usize {
    (0..=usize::BITS as usize)
        .find(|&bits| {
            let mut low: Vec<usize> = addrs.iter().map(|a| a & ((1 << bits) - 1)).collect();
            low.sort_unstable();
            low.dedup();
            low.len() == addrs.len()
        })
        .expect("addresses are distinct")
}

/// Verilog declaring and driving `read_value` (the data width) and `read_zero` (reset
/// the read-data register to 0 instead of loading `read_value`) from the address.
pub fn verilog(entries: &[ReadEntry], shape: MuxShape) -> String {
    let MuxShape { address, address_bits, data_bits } = shape;
    let mut groups: Vec<&'static str> = Vec::new();
    for entry in entries {
        if !groups.contains(&entry.group) {
            groups.push(entry.group);
        }
    }
    let members = |group: &str| -> Vec<usize> { entries.iter().filter(|e| e.group == group).map(|e| e.addr).collect() };
    let mut v = String::new();
    let mut hits = Vec::new();
    let mut zeros = Vec::new();
    for group in &groups {
        let addrs = members(group);
        let bits = index_bits(&addrs).max(1);
        let block = addrs[0] >> bits;
        let others_in_block = entries.iter().any(|e| e.group != *group && e.addr >> bits == block);
        // A group within one aligned block that holds nothing else is that block
        // (its other addresses read 0 from the table); otherwise list the addresses.
        // A group covering the whole address reads 0 from its table wherever it has no
        // register.
        let hit = if bits >= address_bits {
            "1'b1".to_string()
        } else if addrs.iter().all(|a| a >> bits == block) && !others_in_block {
            format!("{address}[{}:{bits}] == {}'h{block:x}", address_bits - 1, address_bits - bits)
        } else {
            let digits = address_bits.div_ceil(4);
            addrs
                .iter()
                .map(|a| format!("({address} == {address_bits}'h{a:0digits$x})"))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let _ = writeln!(v, "wire in_{group} = {hit};");
        let _ = writeln!(v, "reg [{}:0] {group}_value;", data_bits - 1);
        let _ = writeln!(v, "always @(*) begin");
        let _ = writeln!(v, "    case ({address}[{}:0])", bits - 1);
        for entry in entries.iter().filter(|e| e.group == *group) {
            let _ =
                writeln!(v, "        {bits}'h{:x}: {group}_value = {};", entry.addr & ((1 << bits) - 1), entry.expr);
        }
        if addrs.len() < 1 << bits {
            let _ = writeln!(v, "        default: {group}_value = {data_bits}'h0;");
        }
        let _ = writeln!(v, "    endcase");
        let _ = writeln!(v, "end");
        hits.push(format!("in_{group}"));
        if let Some(condition) = entries.iter().find(|e| e.group == *group).and_then(|e| e.zero_unless) {
            zeros.push(format!("(in_{group} & ~{condition})"));
        }
    }
    // Which group's value to load: only addresses in some group are loaded, so a
    // group is told from the later ones by one address bit where one exists.
    let _ = writeln!(v, "reg [{}:0] read_value;", data_bits - 1);
    let _ = writeln!(v, "always @(*) begin");
    let (last, rest) = groups.split_last().expect("registers to read");
    let _ = writeln!(v, "    read_value = {last}_value;");
    for (position, group) in rest.iter().enumerate().rev() {
        let later: Vec<usize> = groups[position + 1..].iter().flat_map(|g| members(g)).collect();
        let select =
            select_bit(&members(group), &later, address, address_bits).unwrap_or_else(|| format!("in_{group}"));
        let _ = writeln!(v, "    if ({select}) read_value = {group}_value;");
    }
    let _ = writeln!(v, "end");
    zeros.insert(0, format!("~({})", hits.join(" | ")));
    let _ = writeln!(v, "wire read_zero = {};", zeros.join(" | "));
    v
}

/// An address bit, as a Verilog condition, that is true for every address of
/// `these` and false for every address of `those`; the highest such bit (the
/// monitor's ORDER and BEFORE told apart by bit 6 rather than bit 4 placed smaller).
fn select_bit(these: &[usize], those: &[usize], address: &str, address_bits: usize) -> Option<String> {
    (0..address_bits).rev().find_map(|bit| {
        let value = these[0] >> bit & 1;
        let splits = these.iter().all(|a| a >> bit & 1 == value) && those.iter().all(|a| a >> bit & 1 != value);
        splits.then(|| if value == 1 { format!("{address}[{bit}]") } else { format!("~{address}[{bit}]") })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_bits_tell_every_address_of_a_group_apart() {
        assert_eq!(index_bits(&[0, 1, 3, 4, 5]), 3);
        assert_eq!(index_bits(&(0x10..0x18).collect::<Vec<_>>()), 3);
        // 0x10..0x2f spans an aligned 32-address block boundary: still 5 bits.
        assert_eq!(index_bits(&(0x10..0x30).collect::<Vec<_>>()), 5);
        assert_eq!(index_bits(&[0x40, 0x41, 0x42]), 2);
    }

    #[test]
    fn a_group_is_told_from_later_ones_by_one_bit_where_there_is_one() {
        let order: Vec<usize> = (0x10..0x18).collect();
        let before: Vec<usize> = (0x40..0x48).collect();
        assert_eq!(select_bit(&order, &before, "addr", 8).as_deref(), Some("~addr[6]"));
        let later: Vec<usize> = order.iter().chain(&before).copied().collect();
        assert_eq!(select_bit(&[0, 1, 3, 4, 5], &later, "addr", 8), None);
    }
}
