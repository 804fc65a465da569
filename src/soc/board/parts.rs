//! The parts of a board's system (docs/soc.md §5.2): each part's cells from a yosys
//! synthesis that keeps the hierarchy, by the instances of the SoC's top (the CPU, the
//! PMU with its RVFI adapter apart, the monitor, the trace sink, the RAM) and the glue
//! around them (the bus, the I/O registers, the board top's UART and reset).
use anyhow::{Context, Result};
use serde_json::Value;
use std::path::Path;

use super::TOP;
use crate::toolchain::{Tool, Toolchain};

/// One part's cells in the hierarchical synthesis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// Its name.
    pub name: String,
    /// SB_LUT4 cells.
    pub luts: u64,
    /// Flip-flops (SB_DFF*).
    pub flip_flops: u64,
    /// SB_CARRY cells.
    pub carries: u64,
    /// SB_RAM40_4K cells.
    pub block_rams: u64,
    /// SB_SPRAM256KA cells.
    pub sprams: u64,
}

/// The part an instance of the SoC's top belongs to.
fn part_of(instance: &str) -> &'static str {
    match instance {
        "cpu" => "CPU",
        "pmu" => "PMU",
        "monitor" => "monitor",
        "sink" => "trace sink",
        "ram" => "RAM",
        _ => "glue (bus, I/O, UART, reset)",
    }
}

/// The cells of `module` in the yosys JSON `netlist`, into `parts` under `part`
/// (instances below the SoC's top get their own parts; the PMU's `adapter` its own).
fn count(netlist: &Value, module: &str, part: &str, depth: usize, parts: &mut Vec<Part>) {
    let cells = netlist["modules"][module]["cells"].as_object().cloned().unwrap_or_default();
    for (name, cell) in cells {
        let kind = cell["type"].as_str().unwrap_or("");
        // The primitives are modules of the netlist too (black boxes): count them.
        if !kind.starts_with("SB_") && netlist["modules"].get(kind).is_some() {
            let sub = match (depth, part) {
                (1, _) => part_of(&name),
                (_, "PMU") if name == "adapter" => "RVFI adapter (PMU)",
                _ => part,
            };
            count(netlist, kind, sub, depth + 1, parts);
            continue;
        }
        let index = match parts.iter().position(|p| p.name == part) {
            Some(index) => index,
            None => {
                parts.push(Part { name: part.to_string(), ..Part::default() });
                parts.len() - 1
            }
        };
        let entry = &mut parts[index];
        match kind {
            "SB_LUT4" => entry.luts += 1,
            "SB_CARRY" => entry.carries += 1,
            "SB_RAM40_4K" => entry.block_rams += 1,
            "SB_SPRAM256KA" => entry.sprams += 1,
            kind if kind.starts_with("SB_DFF") => entry.flip_flops += 1,
            _ => {}
        }
    }
}

/// Each part's cells in a hierarchical netlist of the board top.
pub fn parts(netlist: &Value) -> Vec<Part> {
    let mut parts = Vec::new();
    count(netlist, TOP, "glue (bus, I/O, UART, reset)", 0, &mut parts);
    parts.sort_by_key(|p| std::cmp::Reverse(p.luts));
    parts
}

/// The parts of the system in `dir` from a synthesis (by `toolchain`'s yosys) that keeps
/// its hierarchy.
pub fn hierarchy(dir: &Path, toolchain: Toolchain) -> Result<Vec<Part>> {
    let verilog: Vec<String> = std::fs::read_to_string(dir.join("pmugen_soc.f"))?
        .lines()
        .filter(|l| l.ends_with(".v"))
        .map(str::to_string)
        .chain([format!("{TOP}.v")])
        .collect();
    let script = format!(
        "read_verilog -DRISCV_FORMAL {}; synth_ice40 -noflatten -top {TOP} -json hierarchy.json",
        verilog.join(" ")
    );
    toolchain.run_ok(Tool::Yosys, &["-q", "-l", "hierarchy.log", "-p", &script], dir, "the hierarchy")?;
    let text = std::fs::read_to_string(dir.join("hierarchy.json"))?;
    Ok(parts(&serde_json::from_str(&text).context("yosys's hierarchical netlist")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_follow_the_instances_of_the_socs_top() {
        let netlist = serde_json::json!({ "modules": {
            "pmugen_soc_board": { "cells": { "soc": { "type": "pmugen_soc" }, "u": { "type": "SB_LUT4" } } },
            "pmugen_soc": { "cells": {
                "cpu": { "type": "picorv32" }, "pmu": { "type": "p" }, "bus": { "type": "b" },
                "x": { "type": "SB_DFFE" },
            } },
            "picorv32": { "cells": { "a": { "type": "SB_LUT4" }, "b": { "type": "SB_LUT4" }, "c": { "type": "SB_CARRY" } } },
            "p": { "cells": { "adapter": { "type": "ad" }, "core": { "type": "q" }, "r": { "type": "SB_RAM40_4K" } } },
            "q": { "cells": { "l": { "type": "SB_LUT4" }, "f": { "type": "SB_DFFSR" } } },
            "ad": { "cells": { "l": { "type": "SB_LUT4" } } },
            "b": { "cells": { "l": { "type": "SB_LUT4" } } },
            "SB_LUT4": { "attributes": { "blackbox": "1" } },
            "SB_CARRY": { "attributes": { "blackbox": "1" } },
        } });
        let parts = parts(&netlist);
        let find = |name: &str| parts.iter().find(|p| p.name == name).cloned().unwrap_or_default();
        assert_eq!(find("CPU"), Part { name: "CPU".into(), luts: 2, carries: 1, ..Part::default() });
        assert_eq!(find("PMU"), Part { name: "PMU".into(), luts: 1, flip_flops: 1, block_rams: 1, ..Part::default() });
        assert_eq!(find("RVFI adapter (PMU)").luts, 1);
        // The board top's LUT, the SoC top's flip-flop and the bus's LUT are glue.
        let glue = find("glue (bus, I/O, UART, reset)");
        assert_eq!((glue.luts, glue.flip_flops), (2, 1));
    }
}
