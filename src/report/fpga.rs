//! FPGA figures of any family: yosys's cell counts after the family's synthesis, and
//! nextpnr's placement, utilisation and maximum frequency on each device (for the xc7,
//! which has no open place and route, a synthesis estimate against the device).
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use super::family::{Device, Family, Figure};
use super::family::{XC7A35T_DSPS, XC7A35T_FLIP_FLOPS};
use crate::toolchain::{Tool, Toolchain};

/// Target frequency given to nextpnr (timing-driven placement; failing it is allowed,
/// the achieved Fmax is what the report states).
pub const TARGET_MHZ: u32 = 100;

/// How long one nextpnr run may take. On a nearly full device the router can
/// search for hours without converging; after this limit the report states the packed
/// size and that routing did not finish, instead of waiting. The largest designs that do
/// route on an HX8K take a good part of it on a 2-core machine (docs/figures.md gives
/// the times); the limit leaves room for slower machines.
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

/// How far nextpnr's router got, from its log: router2's last `overused=N` (wires
/// wanted by more than one net), or the last row of router1's table (arcs still to
/// route).
pub fn unrouted(log: &str) -> Option<String> {
    let last_router2 = log.lines().rev().find_map(|l| l.split_once("overused=")).map(|(_, rest)| rest);
    if let Some(count) = last_router2.and_then(|rest| rest.split_whitespace().next()) {
        return Some(format!("{count} overused wires"));
    }
    // router1: `Info:  76000 |  40775  34712 |  549  447 |  5881|  4.19  200.11|`.
    let row = log.lines().rev().find(|l| l.starts_with("Info:") && l.matches('|').count() == 5)?;
    let remaining = row.split('|').nth(3)?.trim();
    remaining.parse::<u64>().ok().map(|n| format!("{n} arcs to route"))
}

/// A family's synthesis results (the same for each of its devices), counted from the
/// family's own primitives ([`Family::figure`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Synthesis {
    /// The family.
    pub family: Family,
    /// Look-up tables.
    pub luts: u64,
    /// Flip-flops.
    pub flip_flops: u64,
    /// Carry-chain cells.
    pub carries: u64,
    /// Block RAMs ([`Figure::Ram`] units).
    pub ram_blocks: u64,
    /// Multiplier and DSP blocks.
    pub dsps: u64,
    /// Every cell type of the flattened top (yosys's own `$` cells left out).
    pub cells: BTreeMap<String, u64>,
}

impl Synthesis {
    /// The five figures, in [`Family::figure_heads`] order.
    pub fn figures(&self) -> [u64; 5] {
        [self.luts, self.flip_flops, self.carries, self.ram_blocks, self.dsps]
    }

    /// The five figures joined by `separator`.
    pub fn figures_text(&self, separator: &str) -> String {
        self.figures().iter().map(u64::to_string).collect::<Vec<_>>().join(separator)
    }

    /// The figures of `cells` (cell type -> count) in `family`.
    pub fn count(family: Family, cells: BTreeMap<String, u64>) -> Self {
        let [mut luts, mut flip_flops, mut carries, mut ram_blocks, mut dsps] = [0; 5];
        for (cell, &n) in &cells {
            match family.figure(cell) {
                Some(Figure::Lut) => luts += n,
                Some(Figure::FlipFlop) => flip_flops += n,
                Some(Figure::Carry) => carries += n,
                Some(Figure::Ram(units)) => ram_blocks += n * units,
                Some(Figure::Dsp) => dsps += n,
                None => {}
            }
        }
        Synthesis { family, luts, flip_flops, carries, ram_blocks, dsps, cells }
    }
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
    /// Maximum frequency of `clock` from nextpnr with the first placement seed (1 unless
    /// `--seed` chose another), MHz.
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
    /// No placement: the synthesis held against the device ([`estimate`]).
    #[serde(default)]
    pub estimate: bool,
}

impl Placement {
    /// `device` before any placement: nothing known, nothing fits.
    pub fn unplaced(device: &Device) -> Self {
        Placement {
            device: device.name.to_string(),
            logic_cells: None,
            logic_cells_available: device.logic_cells,
            fits: false,
            fmax_mhz: None,
            fmax_by_seed: Vec::new(),
            timed_in_harness: false,
            harness_logic_cells: None,
            note: None,
            not_routed: false,
            estimate: false,
        }
    }

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

    /// Placement failed only because the ports outnumber the package's pins (nextpnr-ice40
    /// names its `$sb_io` cells, nextpnr-ecp5 its `TRELLIS_IO`s).
    pub fn pin_limited(&self) -> bool {
        !self.fits
            && self.logic_cells.is_some_and(|lc| lc <= self.logic_cells_available)
            && self.note.as_deref().is_some_and(|note| note.contains("$sb_io") || note.contains("TRELLIS_IO"))
    }
}

fn count_cells(json: &str, top: &str) -> Result<BTreeMap<String, u64>> {
    let netlist: Value = serde_json::from_str(json).context("parsing the synthesized JSON")?;
    let cells = netlist["modules"][top]["cells"].as_object().context("the synthesized netlist has no cells")?;
    let mut counts = BTreeMap::new();
    // yosys 0.70's `$scopeinfo` cells keep the flattened hierarchy's names; no hardware.
    for kind in cells.values().map(|cell| cell["type"].as_str().unwrap_or("?")).filter(|k| !k.starts_with('$')) {
        *counts.entry(kind.to_string()).or_default() += 1;
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

/// The `<logic unit>: used/ available` line of nextpnr's device utilisation.
fn packed_logic_cells(log: &str, family: Family) -> Option<u64> {
    utilisation(log, family.logic_unit().0).map(|(used, _)| used)
}

/// Synthesize `verilog_file` (top `top`) for `family` in `dir`, writing `<name>.json`
/// and `<name>.log`.
pub fn synthesize(
    toolchain: Toolchain,
    family: Family,
    dir: &Path,
    verilog_file: &str,
    top: &str,
    name: &str,
) -> Result<Synthesis> {
    let script = format!(
        "# {} synthesis for the area and Fmax figures (docs/report.md).\nread_verilog {verilog_file}\n\
         hierarchy -check -top {top}\n{}\nstat\n",
        family.title(),
        family.synth_command(top, &format!("{name}.json"))
    );
    std::fs::write(dir.join(format!("{name}.ys")), &script)?;
    let (log, ys) = (format!("{name}.log"), format!("{name}.ys"));
    let run = || toolchain.run(Tool::Yosys, &["-q", "-l", &log, "-s", &ys], dir);
    let (mut ok, mut text) = run()?;
    // yosys 0.23's ABC aborts now and then on an input it maps on the next try (an
    // assertion in ABC, known upstream as intermittent); one more run tells a crash
    // from a design that really fails.
    if !ok && text.contains("ABC: execution of command") {
        eprintln!("report {top}: yosys's ABC crashed; running the synthesis once more");
        (ok, text) = run()?;
    }
    if !ok {
        anyhow::bail!("yosys {} synthesis failed for {top}:\n{text}", family.title());
    }
    let cells = count_cells(&std::fs::read_to_string(dir.join(format!("{name}.json")))?, top)?;
    Ok(Synthesis::count(family, cells))
}

/// The xc7's estimate: no open place and route, so the synthesized figures are held
/// against the device's LUTs, flip-flops, RAMB18s and DSP48E1s.
pub fn estimate(synthesis: &Synthesis, device: &Device) -> Placement {
    let fits = synthesis.luts <= device.logic_cells
        && synthesis.flip_flops <= XC7A35T_FLIP_FLOPS
        && synthesis.ram_blocks <= device.ram_blocks
        && synthesis.dsps <= XC7A35T_DSPS;
    Placement {
        logic_cells: Some(synthesis.luts),
        fits,
        note: Some("no open place and route; synthesis estimate".to_string()),
        estimate: true,
        ..Placement::unplaced(device)
    }
}

/// Place the synthesized `<name>.json` in `dir` on `device` with the first of `seeds`
/// (1 when empty), then, when `timed`, with each further seed (two at a time) for Fmax
/// only: placement is a randomised search, and one seed's Fmax varies by ±10 % on these
/// designs. Untimed ([`place`]), one seed gives the fit and the logic.
pub fn place_seeds(
    toolchain: Toolchain,
    dir: &Path,
    name: &str,
    device: &Device,
    seeds: &[u64],
    timed: bool,
) -> Result<Placement> {
    let first = seeds.first().copied().unwrap_or(1);
    let mut placement = place(toolchain, dir, name, device, first, timed)?;
    placement.fmax_by_seed = vec![(first, placement.fmax_mhz)];
    if !placement.fits || !timed {
        return Ok(placement);
    }
    let others: Vec<u64> = seeds.iter().copied().filter(|&s| s != first).collect();
    for pair in others.chunks(2) {
        let results: Vec<Result<Placement>> = std::thread::scope(|scope| {
            let runs: Vec<_> =
                pair.iter().map(|&seed| scope.spawn(move || place(toolchain, dir, name, device, seed, true))).collect();
            runs.into_iter().map(|run| run.join().expect("placement thread")).collect()
        });
        for (&seed, result) in pair.iter().zip(results) {
            placement.fmax_by_seed.push((seed, result?.fmax_mhz));
        }
    }
    Ok(placement)
}

/// The Tang Nano 9K's pins for the pin harness: the 27 MHz clock and the UART's two
/// pins. nextpnr-himbaechel-gowin places only constrained I/O.
const GOWIN_HARNESS_CST: &str = "IO_LOC \"clock\" 52;\nIO_LOC \"serial_in\" 18;\nIO_LOC \"serial_out\" 17;\n";

/// nextpnr's flags for a placement that only decides the fit and the packed logic:
/// without routing there is no Fmax to place for, and neither depends on timing.
pub const UNTIMED: [&str; 2] = ["--no-route", "--no-tmdriv"];

/// Place the synthesized `<name>.json` in `dir` on `device` with placement `seed`; when
/// `timed`, also route it for its Fmax. Untimed (`--no-fmax`) it is placed without
/// routing and without timing-driven placement, in a fraction of the time: whether a
/// design fits and the logic it packs into do not depend on either.
pub fn place(
    toolchain: Toolchain,
    dir: &Path,
    name: &str,
    device: &Device,
    seed: u64,
    timed: bool,
) -> Result<Placement> {
    let family = device.family;
    let nextpnr = family.nextpnr().context("the family has no open place and route")?;
    let freq = TARGET_MHZ.to_string();
    let json = format!("{name}.json");
    let suffix = if seed == 1 { String::new() } else { format!("-seed{seed}") };
    let (report_file, log_file) =
        (format!("{name}-{}{suffix}.json", device.short), format!("{name}-{}{suffix}.log", device.short));
    let seed_text = seed.to_string();
    let mut args: Vec<&str> = device.options.to_vec();
    let cst = format!("{name}.cst");
    let cst_option = format!("cst={cst}");
    match family {
        Family::Ice40 => args.push("--pcf-allow-unconstrained"),
        Family::Gowin => {
            std::fs::write(dir.join(&cst), GOWIN_HARNESS_CST)?;
            args.extend(["--vopt", &cst_option]);
        }
        Family::Ecp5 | Family::Xc7 => {}
    }
    args.extend([
        "--json",
        &json,
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
    let limit = std::time::Duration::from_secs(PLACE_LIMIT_MINUTES * 60);
    if family.places_beyond_capacity() {
        // The count is read from this run's log only, never an earlier one's.
        let _ = std::fs::remove_file(dir.join(&log_file));
        toolchain.run_within(nextpnr, &[&args[..], &["--pack-only"]].concat(), dir, limit)?;
        let log = std::fs::read_to_string(dir.join(&log_file)).unwrap_or_default();
        if let Some((cell, used, available)) = log.lines().filter_map(utilisation_line).find(|(_, u, a)| u > a) {
            return Ok(Placement {
                logic_cells: packed_logic_cells(&log, family),
                note: Some(format!(
                    "does not fit the {}: nextpnr's packing needs {used} {cell} of its {available}",
                    device.name
                )),
                ..Placement::unplaced(device)
            });
        }
        // A packing that fails for another reason fails the same way in the full run
        // below, which reports it.
    }
    if !timed {
        args.extend(UNTIMED);
    }
    let _ = std::fs::remove_file(dir.join(&report_file));
    let run = toolchain.run_within(nextpnr, &args, dir, limit)?;
    let (placed, log) = (run.success, run.output);
    let full_log = std::fs::read_to_string(dir.join(&log_file)).unwrap_or_default();
    let mut placement = Placement { logic_cells: packed_logic_cells(&full_log, family), ..Placement::unplaced(device) };
    if placed {
        let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(&report_file))?)
            .context("parsing the nextpnr report")?;
        placement.logic_cells = report["utilization"][family.logic_unit().0]["used"].as_u64();
        placement.fits = true;
        if timed {
            placement.fmax_mhz = fmax_mhz(&report);
        } else {
            placement.note = Some("placed without routing (--no-fmax): no Fmax".to_string());
        }
    } else {
        let reason = log
            .lines()
            .find(|line| line.contains("ERROR"))
            .unwrap_or("nextpnr failed (see the nextpnr log)")
            .trim()
            .to_string();
        let too_big =
            placement.logic_cells.is_some_and(|lc| lc > device.logic_cells) || log.contains("Unable to place");
        placement.not_routed = run.timed_out;
        placement.note = Some(if run.timed_out {
            let progress = match unrouted(&full_log) {
                Some(left) => format!("the router still had {left} when it was stopped"),
                None => "it was still placing when it was stopped".to_string(),
            };
            format!(
                "packs into the {} but nextpnr (seed {seed}) did not finish placing and routing within \
                 {PLACE_LIMIT_MINUTES} minutes: {progress} (routing congestion); no Fmax",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A flattened netlist of module `top` with one cell of each type in `types`
    /// (repeated types give several cells), as yosys writes it.
    fn netlist(types: &[&str]) -> String {
        let cells: Vec<String> =
            types.iter().enumerate().map(|(i, t)| format!("\"c{i}\": {{\"type\": \"{t}\"}}")).collect();
        format!("{{\"modules\": {{\"top\": {{\"cells\": {{{}}}}}}}}}", cells.join(", "))
    }

    fn counted(family: Family, types: &[&str]) -> [u64; 5] {
        Synthesis::count(family, count_cells(&netlist(types), "top").unwrap()).figures()
    }

    #[test]
    fn each_family_counts_its_netlist_by_its_own_primitives() {
        let ice40 = ["SB_LUT4", "SB_LUT4", "SB_DFFER", "SB_DFF", "SB_CARRY", "SB_RAM40_4K", "$scopeinfo", "LUT4"];
        assert_eq!(counted(Family::Ice40, &ice40), [2, 2, 1, 1, 0]);
        let ecp5 = ["LUT4", "LUT4", "PFUMX", "L6MUX21", "TRELLIS_FF", "CCU2C", "DP16KD", "MULT18X18D", "SB_LUT4"];
        assert_eq!(counted(Family::Ecp5, &ecp5), [2, 1, 1, 1, 1]);
        let gowin = ["LUT1", "LUT2", "LUT4", "MUX2_LUT5", "DFFRE", "DFF", "ALU", "SDPB", "IBUF", "OBUF"];
        assert_eq!(counted(Family::Gowin, &gowin), [3, 2, 1, 1, 0]);
        let xc7 = ["LUT6", "LUT2", "MUXF7", "FDRE", "FDCE", "CARRY4", "RAMB18E1", "RAMB36E1", "DSP48E1", "BUFG"];
        assert_eq!(counted(Family::Xc7, &xc7), [2, 2, 1, 3, 1], "a RAMB36E1 is two RAMB18E1s");
        let cells = count_cells(&netlist(&ice40), "top").unwrap();
        assert!(!cells.contains_key("$scopeinfo"), "yosys's scope cells are not hardware");
    }

    #[test]
    fn a_router_stopped_at_the_time_limit_says_how_far_it_got() {
        let router1 = "Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |\n\
                       Info:      76000 |    40775      34712 |  549   447 |      5881|       4.19     200.11|\n";
        assert_eq!(unrouted(router1).as_deref(), Some("5881 arcs to route"));
        let router2 = "Info:     iter=19 wires=114497 overused=3552 overuse=3560 archfail=NA\n";
        assert_eq!(unrouted(router2).as_deref(), Some("3552 overused wires"));
        assert_eq!(unrouted("Info: placing\n"), None);
    }

    #[test]
    fn the_xc7_estimate_holds_every_resource_against_the_device() {
        let device = super::super::family::XC7A35T;
        let mut synthesis = Synthesis::count(Family::Xc7, BTreeMap::from([("LUT6".to_string(), 20_000)]));
        let fits = estimate(&synthesis, &device);
        assert!(fits.fits && fits.estimate && fits.note.as_deref().unwrap().contains("synthesis estimate"));
        synthesis.ram_blocks = 101;
        assert!(!estimate(&synthesis, &device).fits, "101 RAMB18E1 of 100");
        synthesis.ram_blocks = 0;
        synthesis.luts = 20_801;
        assert!(!estimate(&synthesis, &device).fits, "20,801 LUTs of 20,800");
    }
}
