//! Reading a flattened yosys JSON netlist: which group owns each flip-flop bit (by
//! the name of the register net its Q drives), and, for the monitor, which cells are
//! the order comparators and pair multiplexers.
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

use pmugen_hdl::flip_flops::FlipFlops;

/// Does `name` match `pattern` (`*` matches any run of characters)? For the
/// structural checks that find nets by the generator's naming (the comparators).
pub fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head) && (0..=name.len() - head.len()).any(|skip| glob(tail, &name[head.len() + skip..]))
        }
    }
}

/// What the coarse netlist contains.
#[derive(Clone, Debug, Default)]
pub struct CoarseCounts {
    /// Flip-flop bits per group.
    pub flip_flops: BTreeMap<String, usize>,
    /// Cell count by yosys cell type (with width), as `stat -width` shows.
    pub cells: BTreeMap<String, usize>,
    /// The netlist bits each group's flip-flops drive.
    pub group_bits: HashMap<String, HashSet<i64>>,
}

impl CoarseCounts {
    /// All flip-flop bits.
    pub fn total_flip_flops(&self) -> usize {
        self.flip_flops.values().sum()
    }
    /// Flip-flop bits of `group` (0 if none).
    pub fn group(&self, group: &str) -> usize {
        self.flip_flops.get(group).copied().unwrap_or(0)
    }
}

fn bits(value: &Value) -> Vec<i64> {
    value.as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
}

/// The cells of module `top` in `json` (yosys `write_json` after `proc; flatten; opt -full`).
pub fn cells<'a>(netlist: &'a Value, top: &str) -> Result<&'a serde_json::Map<String, Value>> {
    let module = netlist["modules"].get(top).with_context(|| format!("module {top} is not in the netlist"))?;
    module["cells"].as_object().context("the netlist module has no cells")
}

/// The group of the flip-flops a bus slave adds around a design.
pub const BUS_SLAVE: &str = "bus slave";

/// Count flip-flops by group in `netlist` for module `top`: each flip-flop bit in the
/// group of the declared register ([`FlipFlops`]) whose net its Q drives; `groups`
/// lists every group in report order. With a `scope` (`core.`), `registers` are the
/// flip-flops under it and every other flip-flop is the [`BUS_SLAVE`]'s. A flip-flop
/// that no block declared is an error.
pub fn analyse(
    netlist: &Value,
    top: &str,
    registers: &[FlipFlops],
    groups: &[&'static str],
    scope: &str,
) -> Result<CoarseCounts> {
    let declared: HashMap<String, &'static str> =
        registers.iter().map(|register| (format!("{scope}{}", register.net), register.group)).collect();
    let mut names: HashMap<i64, Vec<&str>> = HashMap::new();
    for (name, net) in netnames(netlist, top)? {
        if net["hide_name"].as_i64() == Some(1) {
            continue;
        }
        for bit in bits(&net["bits"]) {
            names.entry(bit).or_default().push(name);
        }
    }
    let mut counts = CoarseCounts::default();
    for group in groups {
        counts.flip_flops.insert(group.to_string(), 0);
    }
    if !scope.is_empty() {
        counts.flip_flops.insert(BUS_SLAVE.to_string(), 0);
    }
    for (cell_name, cell) in cells(netlist, top)? {
        let kind = cell["type"].as_str().unwrap_or("");
        let width = cell["parameters"]["WIDTH"]
            .as_str()
            .and_then(|w| i64::from_str_radix(w, 2).ok())
            .or_else(|| cell["parameters"]["Y_WIDTH"].as_str().and_then(|w| i64::from_str_radix(w, 2).ok()));
        let label = match width {
            Some(w) => format!("{kind}_{w}"),
            None => kind.to_string(),
        };
        *counts.cells.entry(label).or_default() += 1;
        if !kind.contains("dff") && !kind.contains("dlatch") {
            continue;
        }
        for bit in bits(&cell["connections"]["Q"]) {
            let candidates = names.get(&bit).map(Vec::as_slice).unwrap_or_default();
            let group = match candidates.iter().find_map(|name| declared.get(*name)) {
                Some(group) => *group,
                None if !scope.is_empty() && !candidates.iter().any(|name| name.starts_with(scope)) => BUS_SLAVE,
                None => bail!(
                    "flip-flop {cell_name} drives {candidates:?}, which no block declares as a register (FlipFlops)"
                ),
            };
            *counts.flip_flops.get_mut(group).with_context(|| format!("group {group} is not listed"))? += 1;
            counts.group_bits.entry(group.to_string()).or_default().insert(bit);
        }
    }
    Ok(counts)
}

/// The named nets of module `top` in `json`.
fn netnames<'a>(netlist: &'a Value, top: &str) -> Result<&'a serde_json::Map<String, Value>> {
    let module = netlist["modules"].get(top).with_context(|| format!("module {top} is not in the netlist"))?;
    module["netnames"].as_object().context("netnames")
}

/// The bits of every public net of module `top` whose name matches `pattern`.
pub fn net_bits(netlist: &Value, top: &str, pattern: &str) -> Result<HashSet<i64>> {
    let mut found = HashSet::new();
    for (name, net) in netnames(netlist, top)? {
        if glob(pattern, name) {
            found.extend(bits(&net["bits"]));
        }
    }
    Ok(found)
}

/// The monitor's comparators and pair select, counted in the coarse netlist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairSelect {
    /// Pairs of order fields {a, b} compared with each other: by a `$lt/$le/$gt/$ge`
    /// cell between the two fields (each operand from the order register or from
    /// ORDER's next value, `*order_next_*`), or by a registered comparator, a flip-flop
    /// that selects a pair multiplexer and whose logic reads exactly those two fields.
    /// A three-way comparator (a first, b first) of one pair is one comparator.
    pub pair_comparators: usize,
    /// 1-bit `$mux` cells selected by a pair comparator, directly or through the
    /// flip-flop that registers it.
    pub pair_muxes: usize,
    /// Comparators of one order field against the ORDER write data (the compact
    /// matcher's): `$lt/$le/$gt/$ge` cells between a field and `*matcher.wdata`, or
    /// bits of `*matcher.below_value` / `*matcher.above_value` (comparators written as
    /// logic) whose logic reads exactly one order field.
    pub write_comparators: usize,
}

/// The order field (event index) of every netlist bit named `*order_next_<e>` (ORDER's
/// next value) or `*.order__<e>` (the order register as a block reads it).
fn order_fields(netlist: &Value, top: &str) -> Result<HashMap<i64, usize>> {
    let mut fields = HashMap::new();
    for (name, net) in netnames(netlist, top)? {
        let index = ["order_next_", ".order__"]
            .iter()
            .find_map(|marker| name.rfind(marker).map(|at| &name[at + marker.len()..]))
            .and_then(|digits| digits.parse::<usize>().ok());
        if let Some(field) = index {
            fields.extend(bits(&net["bits"]).into_iter().map(|bit| (bit, field)));
        }
    }
    Ok(fields)
}

/// The order fields each bit's combinational logic reads (bit e of the mask = field
/// e), stopping at flip-flops and the fields themselves; memoised over the netlist.
struct FieldCone<'a> {
    fields: &'a HashMap<i64, usize>,
    driver: HashMap<i64, &'a Value>,
    memo: HashMap<i64, u64>,
}

impl<'a> FieldCone<'a> {
    fn new(cells: &'a serde_json::Map<String, Value>, fields: &'a HashMap<i64, usize>) -> Self {
        let mut driver = HashMap::new();
        for cell in cells.values().filter(|cell| !cell["type"].as_str().unwrap_or("").contains("dff")) {
            for (port, direction) in cell["port_directions"].as_object().into_iter().flatten() {
                if direction.as_str() == Some("output") {
                    driver.extend(bits(&cell["connections"][port]).into_iter().map(|bit| (bit, cell)));
                }
            }
        }
        Self { fields, driver, memo: HashMap::new() }
    }

    fn of(&mut self, bit: i64) -> u64 {
        if let Some(&field) = self.fields.get(&bit) {
            return 1 << field;
        }
        if let Some(&mask) = self.memo.get(&bit) {
            return mask;
        }
        self.memo.insert(bit, 0);
        let Some(cell) = self.driver.get(&bit).copied() else { return 0 };
        let mut mask = 0;
        for (port, direction) in cell["port_directions"].as_object().into_iter().flatten() {
            if direction.as_str() == Some("input") {
                mask |=
                    bits(&cell["connections"][port]).into_iter().map(|input| self.of(input)).fold(0, |all, m| all | m);
            }
        }
        self.memo.insert(bit, mask);
        mask
    }
}

/// Count the monitor's [`PairSelect`] cells; `order_group` names the order register's
/// flip-flops in `counts`.
pub fn pair_select(netlist: &Value, top: &str, counts: &CoarseCounts, order_group: &str) -> Result<PairSelect> {
    let cells = cells(netlist, top)?;
    let empty = HashSet::new();
    let stored = counts.group_bits.get(order_group).unwrap_or(&empty);
    let write_data = net_bits(netlist, top, "*matcher.wdata")?;
    let fields = order_fields(netlist, top)?;
    let within = |cell: &Value, port: &str, set: &dyn Fn(i64) -> bool| {
        let port_bits = bits(&cell["connections"][port]);
        !port_bits.is_empty() && port_bits.iter().all(|&b| set(b))
    };
    let field = |b: i64| stored.contains(&b) || fields.contains_key(&b);
    let written = |b: i64| write_data.contains(&b);
    let field_of =
        |cell: &Value, port: &str| bits(&cell["connections"][port]).first().and_then(|b| fields.get(b).copied());
    let mut counted = PairSelect::default();
    let mut compared: HashSet<(usize, usize)> = HashSet::new();
    let mut comparator_outputs: HashSet<i64> = HashSet::new();
    for cell in cells.values() {
        let between_fields = within(cell, "A", &field) && within(cell, "B", &field);
        let against_write = (within(cell, "A", &field) && within(cell, "B", &written))
            || (within(cell, "A", &written) && within(cell, "B", &field));
        match cell["type"].as_str().unwrap_or("") {
            "$lt" | "$le" | "$gt" | "$ge" if between_fields => {
                let (a, b) = (field_of(cell, "A").unwrap_or(usize::MAX), field_of(cell, "B").unwrap_or(usize::MAX));
                compared.insert((a.min(b), a.max(b)));
                comparator_outputs.extend(bits(&cell["connections"]["Y"]));
            }
            "$lt" | "$le" | "$gt" | "$ge" if against_write => counted.write_comparators += 1,
            _ => {}
        }
    }
    // A comparator registered because ORDER changes only at writes still selects its
    // pair's multiplexer, through its flip-flop; a comparator written as logic is
    // recognised by the fields its flip-flop's input reads.
    let registered: HashMap<i64, i64> = cells
        .values()
        .filter(|cell| cell["type"].as_str().is_some_and(|kind| kind.contains("dff")))
        .flat_map(|cell| bits(&cell["connections"]["Q"]).into_iter().zip(bits(&cell["connections"]["D"])))
        .collect();
    let mut cone = FieldCone::new(cells, &fields);
    for pattern in ["*matcher.below_value", "*matcher.above_value"] {
        let compared = net_bits(netlist, top, pattern)?;
        counted.write_comparators += compared.into_iter().filter(|&bit| cone.of(bit).count_ones() == 1).count();
    }
    for cell in cells.values().filter(|cell| cell["type"].as_str() == Some("$mux")) {
        let select = bits(&cell["connections"]["S"]);
        if bits(&cell["connections"]["Y"]).len() != 1 || select.len() != 1 {
            continue;
        }
        let by_comparator = match registered.get(&select[0]) {
            None => comparator_outputs.contains(&select[0]),
            Some(d) if comparator_outputs.contains(d) => true,
            Some(&d) => {
                let read = cone.of(d);
                let pair = read.count_ones() == 2;
                if pair {
                    let (a, b) = (read.trailing_zeros() as usize, 63 - read.leading_zeros() as usize);
                    compared.insert((a, b));
                }
                pair
            }
        };
        counted.pair_muxes += usize::from(by_comparator);
    }
    counted.pair_comparators = compared.len();
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::{glob, pair_select, CoarseCounts};

    /// `verilog` (top module `t`) as the report's coarse netlist: `proc; flatten; opt -full`.
    fn coarse_netlist(name: &str, verilog: &str) -> serde_json::Value {
        let dir = std::env::temp_dir().join(format!("pmugen-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.v"), verilog).unwrap();
        let status = std::process::Command::new("yosys")
            .current_dir(&dir)
            .args(["-q", "-p", "read_verilog t.v; hierarchy -top t; proc; flatten; opt -full; write_json t.json"])
            .status()
            .expect("yosys runs (scripts/install-tools.sh installs it)");
        assert!(status.success());
        let netlist = serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        netlist
    }

    /// A registered select whose logic reads exactly two order fields is a comparator
    /// and its multiplexer a pair multiplexer; one that reads three fields is neither.
    #[test]
    fn registered_comparators_are_told_by_the_fields_they_read() {
        let verilog = "module t(input clock, input [2:0] order_next_0, input [2:0] order_next_1, \
                       input [2:0] order_next_2, input [3:0] f, output y0, output y1);\n\
                       reg two_q, three_q;\n\
                       always @(posedge clock) begin\n\
                       two_q <= |(order_next_0 & ~order_next_1);\n\
                       three_q <= |(order_next_0 & order_next_1 & ~order_next_2);\n\
                       end\n\
                       assign y0 = two_q ? f[0] : f[1];\n\
                       assign y1 = three_q ? f[2] : f[3];\n\
                       endmodule\n";
        let netlist = coarse_netlist("pair-select", verilog);
        let counted = pair_select(&netlist, "t", &CoarseCounts::default(), "order register").unwrap();
        assert_eq!((counted.pair_comparators, counted.pair_muxes), (1, 1), "{counted:?}");
    }

    /// A write-value comparator written as logic is a bit of `matcher.below_value` or
    /// `matcher.above_value` whose logic reads one order field; one reading two is not.
    #[test]
    fn write_comparators_written_as_logic_are_told_by_the_fields_they_read() {
        let verilog = "module m(input [2:0] order__0, input [2:0] order__1, input [2:0] wdata, output [1:0] y);\n\
                       wire [1:0] below_value;\n\
                       assign below_value[0] = |(order__0 & ~wdata);\n\
                       assign below_value[1] = |(order__0 & order__1 & ~wdata);\n\
                       assign y = below_value;\n\
                       endmodule\n\
                       module t(input [2:0] a, input [2:0] b, input [2:0] w, output [1:0] y);\n\
                       m matcher(.order__0(a), .order__1(b), .wdata(w), .y(y));\n\
                       endmodule\n";
        let netlist = coarse_netlist("write-compare", verilog);
        let counted = pair_select(&netlist, "t", &CoarseCounts::default(), "order register").unwrap();
        assert_eq!(counted.write_comparators, 1, "{counted:?}");
    }

    #[test]
    fn glob_matches_indices_and_prefixes() {
        assert!(glob("*matcher.wdata", "core.matcher.wdata"));
        assert!(!glob("*matcher.wdata", "core.matcher.wdata_q"));
        assert!(glob("*order_next_*", "matcher.order_next_12"));
    }
}
