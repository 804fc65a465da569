//! Reading a flattened yosys JSON netlist: which block owns each flip-flop bit, and
//! which cells are the order comparators and pair multiplexers (SPEC A.7).
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Flip-flop groups of SPEC A.7, by the hierarchical name of the register net a
/// flip-flop's Q drives in the flattened netlist. Register nets are named by
/// convention: `<block>.<dff>.q` for rust-hdl `DFF`s, `<block>.<name>_q` in custom
/// Verilog. First match wins.
pub const FLIP_FLOP_GROUPS: &[(&str, &str)] = &[
    ("event_edges.", "edge-detector history"),
    ("trigger.start_edges.", "edge-detector history"),
    ("trigger.stop_edges.", "edge-detector history"),
    ("event_register.", "event register"),
    ("record.", "context record"),
    ("order.", "order register"),
    ("counter.value", "match counter"),
    ("counter.wrapped", "match counter"),
    ("counter.match_flag", "window and match flags"),
    ("trigger.state", "window and match flags"),
    ("port.ctrl_q", "control"),
    ("port.rdata_q", "read-data register"),
    ("serial.", "serial shifter"),
];

/// Group names in report order.
pub fn group_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Vec::new();
    for (_, group) in FLIP_FLOP_GROUPS {
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
    /// `$lt/$le/$gt/$ge` cells comparing two order-register fields.
    pub comparators: usize,
    /// 1-bit `$mux` cells selected by such a comparator.
    pub pair_muxes: usize,
    /// `$eq/$ne` cells comparing two order-register fields (the tie test of the pair select).
    pub tie_tests: usize,
    /// Cell count by yosys cell type (with width), as `stat -width` shows.
    pub cells: BTreeMap<String, usize>,
}

impl CoarseCounts {
    /// All flip-flop bits.
    pub fn total_flip_flops(&self) -> usize {
        self.flip_flops.values().sum()
    }
}

/// Is `name` a register's output by the naming convention (`.q` or `_q`)?
fn is_register_net(name: &str) -> bool {
    name.ends_with(".q") || name.ends_with("_q")
}

fn bits(value: &Value) -> Vec<i64> {
    value.as_array().map(|a| a.iter().filter_map(Value::as_i64).collect()).unwrap_or_default()
}

/// Count flip-flops by group and find the comparator/multiplexer pairs in
/// `json` (yosys `write_json` after `proc; flatten; opt -full`) for module `top`.
pub fn analyse(json: &str, top: &str) -> Result<CoarseCounts> {
    let netlist: Value = serde_json::from_str(json).context("parsing the yosys JSON netlist")?;
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
    let cells = module["cells"].as_object().context("cells")?;
    let mut counts = CoarseCounts::default();
    for group in group_names() {
        counts.flip_flops.insert(group.to_string(), 0);
    }
    let mut order_bits: HashSet<i64> = HashSet::new();
    for (cell_name, cell) in cells {
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
            let Some((_, group)) = FLIP_FLOP_GROUPS.iter().find(|(prefix, _)| owner.starts_with(prefix)) else {
                bail!("flip-flop bit of net `{owner}` belongs to no group of SPEC A.7 (cell {cell_name})");
            };
            *counts.flip_flops.get_mut(*group).expect("group listed") += 1;
            if *group == "order register" {
                order_bits.insert(bit);
            }
        }
    }
    let from_orders = |cell: &Value, port: &str| {
        let port_bits = bits(&cell["connections"][port]);
        !port_bits.is_empty() && port_bits.iter().all(|b| order_bits.contains(b))
    };
    let mut comparator_outputs: HashSet<i64> = HashSet::new();
    for cell in cells.values() {
        let kind = cell["type"].as_str().unwrap_or("");
        let between_orders = from_orders(cell, "A") && from_orders(cell, "B");
        match kind {
            "$lt" | "$le" | "$gt" | "$ge" if between_orders => {
                counts.comparators += 1;
                comparator_outputs.extend(bits(&cell["connections"]["Y"]));
            }
            "$eq" | "$ne" if between_orders => counts.tie_tests += 1,
            _ => {}
        }
    }
    counts.pair_muxes = cells
        .values()
        .filter(|cell| cell["type"].as_str() == Some("$mux"))
        .filter(|cell| bits(&cell["connections"]["Y"]).len() == 1)
        .filter(|cell| bits(&cell["connections"]["S"]).iter().all(|b| comparator_outputs.contains(b)))
        .count();
    Ok(counts)
}
