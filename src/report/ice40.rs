//! iCE40 figures: yosys `synth_ice40` cell counts, and nextpnr-ice40 placement,
//! utilisation and maximum frequency on each device a design is reported for.
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use pmugen_sim::tools::{run_tool, run_tool_within};

/// An iCE40 device and package to place on.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Device {
    /// Name in reports, e.g. `iCE40-HX8K ct256`.
    pub name: &'static str,
    /// Short name for file names, e.g. `hx8k`.
    pub short: &'static str,
    /// nextpnr-ice40's device and package options.
    #[serde(skip)]
    pub options: &'static [&'static str],
    /// Logic cells of the device.
    pub logic_cells: u64,
}

/// iCE40-HX8K in the ct256 package (the HX8K breakout board), 7680 logic cells.
pub const HX8K: Device =
    Device { name: "iCE40-HX8K ct256", short: "hx8k", options: &["--hx8k", "--package", "ct256"], logic_cells: 7680 };
/// iCE40-UP5K in the sg48 package (iCEBreaker), 5280 logic cells.
pub const UP5K: Device =
    Device { name: "iCE40-UP5K sg48", short: "up5k", options: &["--up5k", "--package", "sg48"], logic_cells: 5280 };

/// Target frequency given to nextpnr (timing-driven placement; failing it is allowed,
/// the achieved Fmax is what the report states).
pub const TARGET_MHZ: u32 = 100;

/// How long one nextpnr-ice40 run may take. On a nearly full device the router can
/// search for hours without converging; after this limit the report states the packed
/// size and that routing did not finish, instead of waiting. The largest designs that do
/// route on an HX8K take a good part of it on a 2-core machine (the README gives the
/// times); the limit leaves room for slower machines.
pub const PLACE_LIMIT_MINUTES: u64 = 30;

/// A table cell for a placement's size: the packed logic cells, followed by what kept
/// it from being timed (too big for the device, or not routed within the limit).
pub fn cells_text(logic_cells: Option<u64>, fits: bool, not_routed: bool) -> String {
    match (logic_cells, fits, not_routed) {
        (Some(lc), true, _) => lc.to_string(),
        (Some(lc), false, true) => format!("{lc}, packs; not routed in {PLACE_LIMIT_MINUTES} min"),
        (Some(lc), false, false) => format!("{lc}, does not fit"),
        (None, _, _) => "n/a".to_string(),
    }
}

/// `synth_ice40` results (the same for every device).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Synthesis {
    /// `SB_LUT4` cells.
    pub lut4: u64,
    /// `SB_DFF*` cells.
    pub dff: u64,
    /// `SB_CARRY` cells.
    pub carry: u64,
    /// `SB_RAM40_4K` block RAMs.
    pub ram: u64,
    /// Every cell type.
    pub cells: BTreeMap<String, u64>,
}

/// Placement on one device (also read back from an earlier `report.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Placement {
    /// Device name.
    pub device: String,
    /// Logic cells after packing (from nextpnr, also when the design does not fit).
    pub logic_cells: Option<u64>,
    /// Logic cells of the device.
    pub logic_cells_available: u64,
    /// The design fits the device.
    pub fits: bool,
    /// Maximum frequency of `clock` from nextpnr with placement seed 1, MHz.
    pub fmax_mhz: Option<f64>,
    /// Fmax of each placement seed tried (seed 1 first), MHz.
    #[serde(default)]
    pub fmax_by_seed: Vec<(u64, Option<f64>)>,
    /// Fmax was measured in the pin harness (the core has more ports than pins).
    pub timed_in_harness: bool,
    /// Logic cells of the harness placement, when one was needed.
    pub harness_logic_cells: Option<u64>,
    /// What went wrong in placement, if anything (e.g. does not fit).
    pub note: Option<String>,
    /// nextpnr was stopped after [`PLACE_LIMIT_MINUTES`]: the design packs into the
    /// device, but whether it routes is unknown.
    #[serde(default)]
    pub not_routed: bool,
}

impl Placement {
    /// The "fits" cell of a report table: yes, not routed (stopped after the time
    /// limit), or does not fit.
    pub fn fit_text(&self) -> &'static str {
        match (self.fits, self.not_routed) {
            (true, _) => "yes",
            (false, true) => "packs; not routed",
            (false, false) => "**does not fit**",
        }
    }

    /// The best Fmax over the seeds tried and its seed.
    pub fn best_fmax(&self) -> Option<(u64, f64)> {
        self.fmax_by_seed.iter().filter_map(|&(seed, f)| f.map(|f| (seed, f))).max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Placement failed only because the ports outnumber the package's pins.
    pub fn pin_limited(&self) -> bool {
        !self.fits
            && self.logic_cells.is_some_and(|lc| lc <= self.logic_cells_available)
            && self.note.as_deref().is_some_and(|note| note.contains("$sb_io"))
    }
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

/// A line `Info:  <CELL>:  used/ available  N%` of nextpnr's device utilisation after
/// packing: (cell, used, available).
pub fn utilisation_line(line: &str) -> Option<(&str, u64, u64)> {
    let rest = line.trim_start().strip_prefix("Info:")?.trim_start();
    let (cell, counts) = rest.split_once(':')?;
    if cell.is_empty() || !cell.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
        return None;
    }
    let (used, available) = counts.split_once('/')?;
    Some((cell, used.trim().parse().ok()?, available.split_whitespace().next()?.parse().ok()?))
}

/// `cell`'s (used, available) in nextpnr's device utilisation after packing.
pub fn utilisation(log: &str, cell: &str) -> Option<(u64, u64)> {
    log.lines()
        .filter_map(utilisation_line)
        .find(|(name, _, _)| *name == cell)
        .map(|(_, used, available)| (used, available))
}

/// The `ICESTORM_LC: used/ available` line of nextpnr's device utilisation.
fn packed_logic_cells(log: &str) -> Option<u64> {
    utilisation(log, "ICESTORM_LC").map(|(used, _)| used)
}

/// Synthesize `verilog_file` (top `top`) for iCE40 in `dir`, writing `<name>.json`
/// and `<name>.log`.
pub fn synthesize(dir: &Path, verilog_file: &str, top: &str, name: &str) -> Result<Synthesis> {
    let script = include_str!("../../scripts/yosys/ice40.ys")
        .replace("{file}", verilog_file)
        .replace("{top}", top)
        .replace("{json}", &format!("{name}.json"));
    std::fs::write(dir.join(format!("{name}.ys")), &script)?;
    let (log, ys) = (format!("{name}.log"), format!("{name}.ys"));
    let run = || run_tool("yosys", &["-q", "-l", &log, "-s", &ys], dir).map_err(anyhow::Error::msg);
    let (mut ok, mut text) = run()?;
    // yosys 0.23's ABC aborts now and then on an input it maps on the next try (an
    // assertion in ABC, known upstream as intermittent); one more run tells a crash
    // from a design that really fails.
    if !ok && text.contains("ABC: execution of command") {
        eprintln!("report {top}: yosys's ABC crashed; running synth_ice40 once more");
        (ok, text) = run()?;
    }
    if !ok {
        anyhow::bail!("yosys synth_ice40 failed for {top}:\n{text}");
    }
    let cells = count_cells(&std::fs::read_to_string(dir.join(format!("{name}.json")))?, top)?;
    let sum = |prefix: &str| cells.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, v)| v).sum();
    Ok(Synthesis { lut4: sum("SB_LUT4"), dff: sum("SB_DFF"), carry: sum("SB_CARRY"), ram: sum("SB_RAM40"), cells })
}

/// Place the synthesized `<name>.json` in `dir` on `device` with seed 1, then with
/// each further seed of `seeds` (two at a time) for Fmax only: placement is a
/// randomised search, and one seed's Fmax varies by ±10 % on these designs.
pub fn place_seeds(dir: &Path, name: &str, device: &Device, seeds: &[u64]) -> Result<Placement> {
    let mut placement = place(dir, name, device, 1)?;
    placement.fmax_by_seed = vec![(1, placement.fmax_mhz)];
    if !placement.fits {
        return Ok(placement);
    }
    let others: Vec<u64> = seeds.iter().copied().filter(|&s| s != 1).collect();
    for pair in others.chunks(2) {
        let results: Vec<Result<Placement>> = std::thread::scope(|scope| {
            let runs: Vec<_> = pair.iter().map(|&seed| scope.spawn(move || place(dir, name, device, seed))).collect();
            runs.into_iter().map(|run| run.join().expect("placement thread")).collect()
        });
        for (&seed, result) in pair.iter().zip(results) {
            placement.fmax_by_seed.push((seed, result?.fmax_mhz));
        }
    }
    Ok(placement)
}

/// Place the synthesized `<name>.json` in `dir` on `device` with placement `seed`.
pub fn place(dir: &Path, name: &str, device: &Device, seed: u64) -> Result<Placement> {
    let freq = TARGET_MHZ.to_string();
    let json = format!("{name}.json");
    let suffix = if seed == 1 { String::new() } else { format!("-seed{seed}") };
    let (report_file, log_file) =
        (format!("{name}-{}{suffix}.json", device.short), format!("{name}-{}{suffix}.log", device.short));
    let seed_text = seed.to_string();
    let mut args: Vec<&str> = device.options.to_vec();
    args.extend([
        "--json",
        &json,
        "--pcf-allow-unconstrained",
        "--freq",
        &freq,
        "--timing-allow-fail",
        "--seed",
        &seed_text,
        "--report",
        &report_file,
        "-l",
        &log_file,
        "-q",
    ]);
    let _ = std::fs::remove_file(dir.join(&report_file));
    let limit = std::time::Duration::from_secs(PLACE_LIMIT_MINUTES * 60);
    let run = run_tool_within("nextpnr-ice40", &args, dir, Some(limit)).map_err(anyhow::Error::msg)?;
    let (placed, log) = (run.success, run.output);
    let full_log = std::fs::read_to_string(dir.join(&log_file)).unwrap_or_default();
    let mut placement = Placement {
        device: device.name.to_string(),
        logic_cells: packed_logic_cells(&full_log),
        logic_cells_available: device.logic_cells,
        fits: false,
        fmax_mhz: None,
        fmax_by_seed: Vec::new(),
        timed_in_harness: false,
        harness_logic_cells: None,
        note: None,
        not_routed: false,
    };
    if placed {
        let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(&report_file))?)
            .context("parsing the nextpnr report")?;
        placement.logic_cells = report["utilization"]["ICESTORM_LC"]["used"].as_u64();
        placement.fits = true;
        placement.fmax_mhz = fmax_mhz(&report);
    } else {
        let reason = log
            .lines()
            .find(|line| line.contains("ERROR"))
            .unwrap_or("nextpnr-ice40 failed (see the nextpnr log)")
            .trim()
            .to_string();
        let too_big =
            placement.logic_cells.is_some_and(|lc| lc > device.logic_cells) || log.contains("Unable to place");
        placement.not_routed = run.timed_out;
        placement.note = Some(if run.timed_out {
            format!(
                "packs into the {} but nextpnr-ice40 (seed {seed}) did not finish placing and routing within {PLACE_LIMIT_MINUTES} minutes (congestion on a nearly full device); no Fmax",
                device.name
            )
        } else if too_big {
            format!("does not fit the {} ({} logic cells): {reason}", device.name, device.logic_cells)
        } else {
            reason
        });
    }
    Ok(placement)
}
