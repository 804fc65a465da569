//! Reading a flattened yosys JSON netlist: which group owns each flip-flop bit (by
//! the name of the register net its Q drives), and, for the monitor, which cells are
//! the order comparators and pair multiplexers.
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Flip-flop groups: (pattern of a register net's hierarchical name, group), first
/// match wins. Register nets are named by convention: `<block>.<name>_q` in custom
/// Verilog, `<block>.<dff>.q` for rust-hdl `DFF`s; `*` in a pattern matches anything
/// (e.g. the index of `counters__3`).
pub type Groups = &'static [(&'static str, &'static str)];

/// Does `name` match `pattern` (`*` matches any run of characters)?
pub fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head) && (0..=name.len() - head.len()).any(|skip| glob(tail, &name[head.len() + skip..]))
        }
    }
}

/// Group names in report order.
pub fn group_names(groups: Groups) -> Vec<&'static str> {
    let mut names: Vec<&str> = Vec::new();
    for (_, group) in groups {
        if !names.contains(group) {
            names.push(group);
        }
    }
    names
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

/// Is `name` a register's output by the naming convention (`.q` or `_q`)?
fn is_register_net(name: &str) -> bool {
    name.ends_with(".q") || name.ends_with("_q")
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

/// Count flip-flops by group in `netlist` for module `top`. With a `scope` (`core.`),
/// `groups` name the flip-flops under it and every other flip-flop is the
/// [`BUS_SLAVE`]'s.
pub fn analyse(netlist: &Value, top: &str, groups: Groups, scope: &str) -> Result<CoarseCounts> {
    let module = netlist["modules"].get(top).with_context(|| format!("module {top} is not in the netlist"))?;
    let mut names: HashMap<i64, Vec<&str>> = HashMap::new();
    for (name, net) in module["netnames"].as_object().context("netnames")? {
        if net["hide_name"].as_i64() == Some(1) {
            continue;
        }
        for bit in bits(&net["bits"]) {
            names.entry(bit).or_default().push(name);
        }
    }
    let mut counts = CoarseCounts::default();
    for group in group_names(groups) {
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
            let owner = names
                .get(&bit)
                .and_then(|candidates| {
                    candidates.iter().copied().filter(|name| is_register_net(name)).max_by(|a, b| {
                        a.matches('.').count().cmp(&b.matches('.').count()).then_with(|| b.cmp(a))
                    })
                })
                .with_context(|| format!("flip-flop {cell_name} drives no register net (`*.q` or `*_q`)"))?;
            let group = match owner.strip_prefix(scope) {
                Some(inner) => match groups.iter().find(|(pattern, _)| glob(pattern, inner)) {
                    Some((_, group)) => *group,
                    None => bail!("flip-flop bit of net `{owner}` belongs to no named group (cell {cell_name})"),
                },
                None => BUS_SLAVE,
            };
            *counts.flip_flops.get_mut(group).expect("group listed") += 1;
            counts.group_bits.entry(group.to_string()).or_default().insert(bit);
        }
    }
    Ok(counts)
}

/// The bits of every public net of module `top` whose name matches `pattern`.
pub fn net_bits(netlist: &Value, top: &str, pattern: &str) -> Result<HashSet<i64>> {
    let module = netlist["modules"].get(top).with_context(|| format!("module {top} is not in the netlist"))?;
    let mut found = HashSet::new();
    for (name, net) in module["netnames"].as_object().context("netnames")? {
        if glob(pattern, name) {
            found.extend(bits(&net["bits"]));
        }
    }
    Ok(found)
}

/// The monitor's comparators and pair select, counted in the coarse netlist.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairSelect {
    /// `$lt/$le/$gt/$ge` cells between two order fields (each operand from the order
    /// register or from ORDER's next value, `*order_next_*`).
    pub pair_comparators: usize,
    /// 1-bit `$mux` cells selected by a pair comparator, directly or through the
    /// flip-flop that registers it.
    pub pair_muxes: usize,
    /// `$eq/$ne` cells between two order fields (the pair select's tie tests).
    pub tie_tests: usize,
    /// `$lt/$le/$gt/$ge` cells between an order field and the ORDER write data
    /// (`*matcher.wdata`): the compact matcher's.
    pub write_comparators: usize,
}

/// Count the monitor's [`PairSelect`] cells; `order_group` names the order register's
/// flip-flops in `counts`.
pub fn pair_select(netlist: &Value, top: &str, counts: &CoarseCounts, order_group: &str) -> Result<PairSelect> {
    let cells = cells(netlist, top)?;
    let empty = HashSet::new();
    let stored = counts.group_bits.get(order_group).unwrap_or(&empty);
    let next = net_bits(netlist, top, "*order_next_*")?;
    let write_data = net_bits(netlist, top, "*matcher.wdata")?;
    let within = |cell: &Value, port: &str, set: &dyn Fn(i64) -> bool| {
        let port_bits = bits(&cell["connections"][port]);
        !port_bits.is_empty() && port_bits.iter().all(|&b| set(b))
    };
    let field = |b: i64| stored.contains(&b) || next.contains(&b);
    let written = |b: i64| write_data.contains(&b);
    let mut counted = PairSelect::default();
    let mut comparator_outputs: HashSet<i64> = HashSet::new();
    for cell in cells.values() {
        let between_fields = within(cell, "A", &field) && within(cell, "B", &field);
        let against_write = (within(cell, "A", &field) && within(cell, "B", &written))
            || (within(cell, "A", &written) && within(cell, "B", &field));
        match cell["type"].as_str().unwrap_or("") {
            "$lt" | "$le" | "$gt" | "$ge" if between_fields => {
                counted.pair_comparators += 1;
                comparator_outputs.extend(bits(&cell["connections"]["Y"]));
            }
            "$lt" | "$le" | "$gt" | "$ge" if against_write => counted.write_comparators += 1,
            "$eq" | "$ne" if between_fields => counted.tie_tests += 1,
            _ => {}
        }
    }
    // A comparator registered because ORDER changes only at writes still selects its
    // pair's multiplexer, through its flip-flop.
    let registered: HashSet<i64> = cells
        .values()
        .filter(|cell| cell["type"].as_str().is_some_and(|kind| kind.contains("dff")))
        .flat_map(|cell| {
            let (d, q) = (bits(&cell["connections"]["D"]), bits(&cell["connections"]["Q"]));
            d.into_iter().zip(q).filter(|(d, _)| comparator_outputs.contains(d)).map(|(_, q)| q).collect::<Vec<_>>()
        })
        .collect();
    counted.pair_muxes = cells
        .values()
        .filter(|cell| cell["type"].as_str() == Some("$mux"))
        .filter(|cell| bits(&cell["connections"]["Y"]).len() == 1)
        .filter(|cell| bits(&cell["connections"]["S"]).iter().all(|b| comparator_outputs.contains(b) || registered.contains(b)))
        .count();
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn glob_matches_indices_and_prefixes() {
        assert!(glob("counters__*.value_q", "counters__12.value_q"));
        assert!(!glob("counters__*.value_q", "counters__1.shadow_q"));
        assert!(glob("inputs.*", "inputs.events_q"));
        assert!(glob("port.rdata_q", "port.rdata_q") && !glob("port.rdata_q", "port.rdata_qq"));
    }
}
