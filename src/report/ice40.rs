//! iCE40 figures: yosys `synth_ice40` cell counts and nextpnr-ice40 placement,
//! utilisation and maximum frequency on an iCE40-HX8K (ct256).
use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use pmugen_sim::tools::run_tool;

/// The device the report places on.
pub const DEVICE: &str = "iCE40-HX8K ct256";
/// Logic cells of an iCE40-HX8K.
pub const HX8K_LOGIC_CELLS: u64 = 7680;
/// Target frequency given to nextpnr (timing-driven placement; failing it is allowed,
/// the achieved Fmax is what the report states).
pub const TARGET_MHZ: u32 = 100;

/// iCE40 results of one design.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Ice40Figures {
    /// Device name.
    pub device: String,
    /// `SB_LUT4` cells after `synth_ice40`.
    pub lut4: u64,
    /// `SB_DFF*` cells after `synth_ice40`.
    pub dff: u64,
    /// `SB_CARRY` cells after `synth_ice40`.
    pub carry: u64,
    /// Every cell type after `synth_ice40`.
    pub cells: BTreeMap<String, u64>,
    /// Logic cells after packing (from nextpnr, also when the design does not fit).
    pub logic_cells: Option<u64>,
    /// Logic cells of the device.
    pub logic_cells_available: u64,
    /// The design fits the device.
    pub fits: bool,
    /// Maximum frequency of `clock` from nextpnr, MHz.
    pub fmax_mhz: Option<f64>,
    /// What went wrong in placement, if anything (e.g. does not fit).
    pub note: Option<String>,
}

fn count_cells(json: &str, top: &str) -> Result<BTreeMap<String, u64>> {
    let netlist: Value = serde_json::from_str(json).context("parsing synth_ice40 JSON")?;
    let cells = netlist["modules"][top]["cells"].as_object().context("synth_ice40 netlist has no cells")?;
    let mut counts = BTreeMap::new();
    for cell in cells.values() {
        *counts.entry(cell["type"].as_str().unwrap_or("?").to_string()).or_default() += 1;
    }
    Ok(counts)
}

/// The slowest achieved clock frequency in a nextpnr `--report` JSON, MHz.
pub fn fmax_mhz(report: &Value) -> Option<f64> {
    report["fmax"]
        .as_object()
        .and_then(|clocks| clocks.values().filter_map(|c| c["achieved"].as_f64()).reduce(f64::min))
}

/// The `ICESTORM_LC: used/ available` line of nextpnr's device utilisation.
fn packed_logic_cells(log: &str) -> Option<u64> {
    let line = log.lines().find(|line| line.contains("ICESTORM_LC:"))?;
    line.split("ICESTORM_LC:").nth(1)?.split('/').next()?.trim().parse().ok()
}

/// Synthesize `verilog_file` (top `top`) for iCE40 and place it, in `dir`.
pub fn figures(dir: &Path, verilog_file: &str, top: &str) -> Result<Ice40Figures> {
    let script = include_str!("../../scripts/yosys/ice40.ys").replace("{file}", verilog_file).replace("{top}", top);
    std::fs::write(dir.join("ice40.ys"), &script)?;
    let (ok, log) = run_tool("yosys", &["-q", "-l", "ice40.log", "-s", "ice40.ys"], dir).map_err(anyhow::Error::msg)?;
    if !ok {
        anyhow::bail!("yosys synth_ice40 failed for {top}:\n{log}");
    }
    let cells = count_cells(&std::fs::read_to_string(dir.join("ice40.json"))?, top)?;
    let sum = |prefix: &str| cells.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, v)| v).sum();
    let mut figures = Ice40Figures {
        device: DEVICE.to_string(),
        lut4: sum("SB_LUT4"),
        dff: sum("SB_DFF"),
        carry: sum("SB_CARRY"),
        cells: cells.clone(),
        logic_cells_available: HX8K_LOGIC_CELLS,
        ..Default::default()
    };
    let freq = TARGET_MHZ.to_string();
    let args = [
        "--hx8k", "--package", "ct256", "--json", "ice40.json", "--pcf-allow-unconstrained", "--freq", &freq,
        "--timing-allow-fail", "--seed", "1", "--report", "nextpnr.json", "-l", "nextpnr.log", "-q",
    ];
    let (placed, log) = run_tool("nextpnr-ice40", &args, dir).map_err(anyhow::Error::msg)?;
    let full_log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
    figures.logic_cells = packed_logic_cells(&full_log);
    if placed {
        let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("nextpnr.json"))?)
            .context("parsing the nextpnr report")?;
        figures.logic_cells = report["utilization"]["ICESTORM_LC"]["used"].as_u64();
        figures.fits = true;
        figures.fmax_mhz = fmax_mhz(&report);
    } else {
        let reason = log
            .lines()
            .find(|line| line.contains("ERROR"))
            .unwrap_or("nextpnr-ice40 failed (see nextpnr.log)")
            .trim()
            .to_string();
        let too_big = figures.logic_cells.is_some_and(|lc| lc > HX8K_LOGIC_CELLS) || log.contains("Unable to place");
        figures.note = Some(if too_big {
            format!("does not fit the {DEVICE} ({HX8K_LOGIC_CELLS} logic cells): {reason}")
        } else {
            reason
        });
    }
    Ok(figures)
}
