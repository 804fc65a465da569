//! `pmugen report`: resource report and budget check for any design.
//!
//! Runs real yosys (`proc; flatten; opt -full` for the coarse count, `synth_ice40`
//! for LUT/DFF/CARRY/RAM) and nextpnr-ice40 (logic cells and Fmax on each of the
//! design's devices), writes `report.md` and `report.json`, and fails naming the
//! group whose count differs from the design's formula. A design that does not fit
//! a device is stated in the report, not a failure.
pub mod compare;
pub mod harness;
pub mod ice40;
pub mod monitor;
pub mod netlist;
pub mod pmu;
pub mod sweep;
pub mod wrapped;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use pmugen_sim::tools::run_tool;

use crate::design::Artifact;
use ice40::{Device, Placement, Synthesis};
use netlist::CoarseCounts;
use pmugen_hdl::flip_flops::FlipFlops;

/// One line of a design's hardware budget.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BudgetLine {
    /// What is counted.
    pub item: String,
    /// The formula.
    pub formula: String,
    /// The formula's value.
    pub expected: usize,
    /// The count in the netlist.
    pub actual: usize,
}

impl BudgetLine {
    /// A line of `item` counted by `formula`.
    pub fn new(item: &str, formula: &str, expected: usize, actual: usize) -> Self {
        Self { item: item.to_string(), formula: formula.to_string(), expected, actual }
    }
    /// Does the count equal the formula?
    pub fn ok(&self) -> bool {
        self.expected == self.actual
    }
}

/// What a design tells the report.
pub trait Subject {
    /// Top-module name.
    fn top_name(&self) -> String;
    /// The generated files, the Verilog first.
    fn files(&self) -> Result<Vec<Artifact>, String>;
    /// The parameters, for the report's header.
    fn parameters(&self) -> Vec<(&'static str, String)>;
    /// Where the budget's formulas are documented.
    fn budget_source(&self) -> &'static str;
    /// Every register the design declares, with its report group.
    fn flip_flops(&self) -> Vec<FlipFlops>;
    /// The report groups, in order.
    fn groups(&self) -> &'static [&'static str];
    /// Where the groups' flip-flops sit in the synthesized top: "" for the design
    /// itself, `core.` for the design inside a bus slave (the rest is the slave's).
    fn scope(&self) -> &'static str {
        ""
    }
    /// The budget lines: the formulas against the counts (and, for designs that
    /// need it, cells found in module `top` of `netlist`).
    fn budget(&self, top: &str, counts: &CoarseCounts, netlist: &serde_json::Value) -> Result<Vec<BudgetLine>>;
    /// What the chosen structure keeps of the budget, in sentences (e.g. the
    /// monitor's matcher options).
    fn statements(&self) -> Vec<String> {
        Vec::new()
    }
    /// Other figures worth a line (e.g. the PMU's trace queue RAM bits).
    fn notes(&self, _top: &str, _counts: &CoarseCounts, _netlist: &serde_json::Value) -> Result<Vec<(String, usize)>> {
        Ok(Vec::new())
    }
    /// The devices to place on.
    fn devices(&self) -> &'static [Device];
    /// The placement seeds whose Fmax the report gives: seed 1 always, and the best of
    /// these (the monitor: 1..3; the PMU: 1, its placements take minutes).
    fn seeds(&self) -> &'static [u64] {
        &[1]
    }
    /// Parts of the design whose iCE40 cost is reported on its own: (label, module
    /// name in the generated file), each synthesized alone.
    fn parts(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Everything the report says about one design.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Top-module name.
    pub design: String,
    /// Parameter values.
    pub parameters: BTreeMap<String, String>,
    /// Generator version.
    pub generator: String,
    /// Tool versions.
    pub tools: BTreeMap<String, String>,
    /// Flip-flop bits per group after `proc; flatten; opt -full`.
    pub flip_flops: BTreeMap<String, usize>,
    /// All flip-flop bits.
    pub total_flip_flops: usize,
    /// The budget lines.
    pub budget: Vec<BudgetLine>,
    /// Further counts.
    pub notes: BTreeMap<String, usize>,
    /// What the chosen structure keeps of the budget.
    pub statements: Vec<String>,
    /// iCE40 synthesis figures.
    pub synthesis: Synthesis,
    /// Placement per device.
    pub placements: Vec<Placement>,
    /// The design's parts synthesized alone (see [`Subject::parts`]).
    pub parts: BTreeMap<String, Synthesis>,
    /// Coarse cells by type.
    pub coarse_cells: BTreeMap<String, usize>,
}

impl Report {
    /// The placement on the device named `device`.
    pub fn placement(&self, device: &Device) -> &Placement {
        self.placements.iter().find(|p| p.device == device.name).expect("the report placed on this device")
    }
}

/// The versions of yosys and nextpnr-ice40 a report records.
pub(crate) fn tool_versions(dir: &Path) -> BTreeMap<String, String> {
    let mut tools = BTreeMap::new();
    tools.insert("yosys".to_string(), tool_version("yosys", "-V", dir));
    tools.insert("nextpnr-ice40".to_string(), tool_version("nextpnr-ice40", "--version", dir));
    tools
}

fn tool_version(tool: &str, flag: &str, dir: &Path) -> String {
    run_tool(tool, &[flag], dir)
        .map(|(_, text)| text.lines().next().unwrap_or("").trim().to_string())
        .unwrap_or_else(|_| "missing".to_string())
}

/// The Markdown rendering of `report`.
pub fn markdown(report: &Report, budget_source: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Resource report: {}\n", report.design);
    let parameters: Vec<String> = report.parameters.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let _ = writeln!(
        md,
        "{}. Generated by pmugen {}; {}; {}.\n",
        parameters.join(", "),
        report.generator,
        report.tools["yosys"],
        report.tools["nextpnr-ice40"]
    );
    let _ = writeln!(md, "## Budget ({budget_source}, after `proc; flatten; opt -full`)\n");
    let _ = writeln!(md, "| item | formula | expected | counted | check |\n|---|---|---:|---:|---|");
    for line in &report.budget {
        let verdict = if line.ok() { "ok" } else { "**OFF**" };
        let _ = writeln!(md, "| {} | {} | {} | {} | {verdict} |", line.item, line.formula, line.expected, line.actual);
    }
    for (note, count) in &report.notes {
        let _ = writeln!(md, "\n{note}: {count}");
    }
    for statement in &report.statements {
        let _ = writeln!(md, "\n{statement}");
    }
    let _ = writeln!(md, "\n## Flip-flops by group\n\n| group | flip-flops |\n|---|---:|");
    for (group, count) in &report.flip_flops {
        let _ = writeln!(md, "| {group} | {count} |");
    }
    let _ = writeln!(md, "| **total** | **{}** |\n", report.total_flip_flops);
    if report.placements.is_empty() {
        let _ = writeln!(md, "## iCE40\n\nNot synthesized: a budget-only run (`--budget-only`).");
    } else {
        ice40_markdown(&mut md, report);
    }
    let _ = writeln!(md, "\n## Coarse cells\n\n| cell | count |\n|---|---:|");
    for (cell, count) in &report.coarse_cells {
        let _ = writeln!(md, "| `{cell}` | {count} |");
    }
    md
}

/// The iCE40 section of a report: cell counts and each device's placement.
fn ice40_markdown(md: &mut String, report: &Report) {
    let s = &report.synthesis;
    let seeds: Vec<String> =
        report.placements.first().map_or(Vec::new(), |p| p.fmax_by_seed.iter().map(|(s, _)| s.to_string()).collect());
    // A best-of column only where more than one seed was placed (the PMU places one).
    let several = report.placements.iter().any(|p| p.fmax_by_seed.len() > 1);
    let seed_text = if several { format!("seeds {}", seeds.join(", ")) } else { "seed 1".to_string() };
    let _ = writeln!(md, "## iCE40 (`synth_ice40`, nextpnr-ice40 {seed_text}, {} MHz target)\n", ice40::TARGET_MHZ);
    let _ = writeln!(md, "| figure | value |\n|---|---:|");
    let _ = writeln!(
        md,
        "| SB_LUT4 | {} |\n| SB_DFF* | {} |\n| SB_CARRY | {} |\n| SB_RAM40_4K | {} |",
        s.lut4, s.dff, s.carry, s.ram
    );
    let (fmax_head, best_head, best_rule) =
        if several { ("Fmax `clock`, seed 1", " best Fmax (seed) |", "---:|") } else { ("Fmax `clock`", "", "") };
    let _ = writeln!(md, "\n| device | logic cells | fits | {fmax_head} |{best_head}\n|---|---:|---|---:|{best_rule}");
    for p in &report.placements {
        let cells = p.logic_cells.map_or("n/a".to_string(), |lc| format!("{lc} / {}", p.logic_cells_available));
        let fmax = p.fmax_mhz.map_or("–".to_string(), |f| format!("{f:.1} MHz"));
        let fmax = if p.timed_in_harness { format!("{fmax} (pin harness)") } else { fmax };
        let best = p.best_fmax().map_or("–".to_string(), |(seed, f)| format!("{f:.1} MHz ({seed})"));
        let best = if several { format!(" {best} |") } else { String::new() };
        let fits = p.fit_text();
        let _ = writeln!(md, "| {} | {cells} | {fits} | {fmax} |{best}", p.device);
    }
    if report.placements.iter().any(|p| p.timed_in_harness) {
        let _ = writeln!(
            md,
            "\nThe core has more ports than the package has pins: its logic cells are those of the bare core \
             (nextpnr packs before it places), and its Fmax is measured in a pin harness (every input from its \
             own shift-chain flip-flop, the outputs folded into one registered XOR), so the register port's \
             and the event inputs' paths are timed from flip-flops as in a system-on-chip."
        );
    }
    for p in report.placements.iter().filter(|p| p.note.is_some()) {
        let _ = writeln!(md, "\n{}: {}", p.device, p.note.as_deref().unwrap_or(""));
    }
    if !report.parts.is_empty() {
        let _ = writeln!(md, "\n### Parts synthesized alone (`synth_ice40` of the part's module as top)\n");
        let _ = writeln!(md, "| part | SB_LUT4 | SB_DFF* | SB_CARRY | SB_RAM40_4K |\n|---|---:|---:|---:|---:|");
        for (part, s) in &report.parts {
            let _ = writeln!(md, "| {part} | {} | {} | {} | {} |", s.lut4, s.dff, s.carry, s.ram);
        }
    }
}

/// What a report run does besides the budget count.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Synthesize for iCE40 and place on the design's devices (minutes); without,
    /// only the coarse netlist is built and the budget checked (seconds).
    pub place: bool,
    /// Measure Fmax in the pin harness when the core has more ports than pins
    /// (without, such a core gets its logic cells and fit only).
    pub fmax: bool,
    /// The placement seeds, or `None` for the design's own ([`Subject::seeds`]). The
    /// test suite places seed 1 only: its checks do not read the best of several.
    pub seeds: Option<&'static [u64]>,
}

/// Generate, synthesize, place, write `report.md`/`report.json` into `out`, and
/// check the budget. Returns the report; an error names the group that is off.
pub fn run(subject: &dyn Subject, out: &Path) -> Result<Report> {
    run_with(subject, out, &Options { place: true, fmax: true, seeds: None })
}

/// The earlier report in `out`, if it is of the very Verilog `subject` generates now,
/// was made by this pmugen version with the installed yosys and nextpnr-ice40, and met
/// its budget. The sweep and the comparison use it instead of placing again: their
/// largest configurations take most of their hour in nextpnr-ice40.
pub fn current_report(subject: &dyn Subject, out: &Path) -> Result<Option<Report>> {
    let Ok(text) = std::fs::read_to_string(out.join("report.json")) else { return Ok(None) };
    let Ok(earlier) = serde_json::from_str::<Report>(&text) else { return Ok(None) };
    let files = subject.files().map_err(anyhow::Error::msg)?;
    let verilog = &files[0];
    let same_verilog = std::fs::read_to_string(out.join(&verilog.name)).is_ok_and(|text| text == verilog.text);
    let same_tools = earlier.generator == env!("CARGO_PKG_VERSION") && earlier.tools == tool_versions(out);
    let budget_met = earlier.budget.iter().all(|line| line.actual == line.expected);
    Ok((same_verilog && same_tools && budget_met).then_some(earlier))
}

/// [`run`], or the report already in `out` when it is current ([`current_report`]).
pub fn run_or_reuse(subject: &dyn Subject, out: &Path) -> Result<Report> {
    if let Some(report) = current_report(subject, out)? {
        let path = out.join("report.json");
        eprintln!(
            "report {}: {} is current (same Verilog, pmugen and tools); not run again",
            subject.top_name(),
            path.display()
        );
        return Ok(report);
    }
    run(subject, out)
}

/// [`run`] with `options`.
pub fn run_with(subject: &dyn Subject, out: &Path, options: &Options) -> Result<Report> {
    let published = out;
    let tools: &[&str] = if options.place { &["yosys", "nextpnr-ice40"] } else { &["yosys"] };
    pmugen_sim::tools::require(tools).map_err(anyhow::Error::msg)?;
    let top = subject.top_name();
    let files = subject.files().map_err(anyhow::Error::msg)?;
    // Everything is written in a staging directory and moved into `out` at the end, so
    // an interrupted run leaves the previous run's files complete and alone.
    let staging = crate::staging::Staging::new(published)?;
    let out = staging.path();
    let verilog_path = crate::generate::write_artifacts(&files, out)?;
    let verilog_file = verilog_path.file_name().and_then(|f| f.to_str()).unwrap_or_default().to_string();
    let script = include_str!("../../scripts/yosys/budget.ys").replace("{file}", &verilog_file).replace("{top}", &top);
    std::fs::write(out.join("budget.ys"), &script)?;
    eprintln!("report {top}: yosys coarse netlist ...");
    let (ok, log) =
        run_tool("yosys", &["-q", "-l", "budget.log", "-s", "budget.ys"], out).map_err(anyhow::Error::msg)?;
    if !ok {
        bail!("yosys budget pass failed for {top}:\n{log}");
    }
    let netlist: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("coarse.json"))?)?;
    let counts = netlist::analyse(&netlist, &top, &subject.flip_flops(), subject.groups(), subject.scope())?;
    let synthesis = if options.place {
        eprintln!("report {top}: yosys synth_ice40 ...");
        ice40::synthesize(out, &verilog_file, &top, "ice40")?
    } else {
        Synthesis::default()
    };
    let mut placements = Vec::new();
    let mut harness_ready = false;
    let seeds = options.seeds.unwrap_or_else(|| subject.seeds());
    for device in subject.devices().iter().filter(|_| options.place) {
        eprintln!("report {top}: nextpnr-ice40 on the {} ...", device.name);
        let mut placement = ice40::place_seeds(out, "ice40", device, seeds)?;
        if placement.pin_limited() && !options.fmax {
            placement.fits = true;
            placement.note = Some("the core fits; Fmax not measured (--no-fmax)".to_string());
        } else if placement.pin_limited() {
            if !harness_ready {
                eprintln!("report {top}: more ports than pins; timing in the pin harness ...");
                let ports = harness::top_ports(&files[0].text, &top)?;
                let text = format!("{}\n{}", files[0].text, harness::verilog(&top, &ports));
                std::fs::write(out.join("harness.v"), text)?;
                ice40::synthesize(out, "harness.v", &format!("{top}_harness"), "harness")?;
                harness_ready = true;
            }
            let timed = ice40::place_seeds(out, "harness", device, seeds)?;
            placement.fits = true;
            placement.timed_in_harness = true;
            placement.harness_logic_cells = timed.logic_cells;
            placement.fmax_mhz = timed.fmax_mhz;
            placement.fmax_by_seed = timed.fmax_by_seed.clone();
            placement.note = match timed.fits {
                true => None,
                false => Some(format!(
                    "the core fits; Fmax not measured: the pin harness does not fit ({})",
                    timed.note.unwrap_or_default()
                )),
            };
        }
        placements.push(placement);
    }
    let mut parts = BTreeMap::new();
    for (label, module) in subject.parts().into_iter().filter(|_| options.place) {
        eprintln!("report {top}: yosys synth_ice40 of the {label} alone ...");
        let name = format!("part_{}", label.replace(' ', "_"));
        parts.insert(label, ice40::synthesize(out, &verilog_file, &module, &name)?);
    }
    let tools = tool_versions(out);
    let report = Report {
        design: top.clone(),
        parameters: subject.parameters().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        generator: env!("CARGO_PKG_VERSION").to_string(),
        tools,
        total_flip_flops: counts.total_flip_flops(),
        flip_flops: counts.flip_flops.clone(),
        budget: subject.budget(&top, &counts, &netlist)?,
        notes: subject.notes(&top, &counts, &netlist)?.into_iter().collect(),
        statements: subject.statements(),
        synthesis,
        placements,
        parts,
        coarse_cells: counts.cells.clone(),
    };
    std::fs::write(out.join("report.md"), markdown(&report, subject.budget_source()))?;
    std::fs::write(out.join("report.json"), serde_json::to_string_pretty(&report)? + "\n")?;
    staging.publish()?;
    let out = published;
    print_summary(&report, &out.join("report.md"));
    if let Some(off) = report.budget.iter().find(|line| !line.ok()) {
        bail!(
            "budget check failed: {} = {}, {} requires {} = {} (report: {})",
            off.item,
            off.actual,
            subject.budget_source(),
            off.formula,
            off.expected,
            out.join("report.md").display()
        );
    }
    Ok(report)
}

fn print_summary(report: &Report, path: &Path) {
    println!("report {}: {}", report.design, path.display());
    for line in &report.budget {
        let verdict = if line.ok() { "ok" } else { "OFF" };
        println!("  {:<28} {:>5} (expected {} = {}) {verdict}", line.item, line.actual, line.formula, line.expected);
    }
    println!("  total flip-flops             {:>5}", report.total_flip_flops);
    let s = &report.synthesis;
    if report.placements.is_empty() {
        println!("  iCE40                        not synthesized (budget only)");
        return;
    }
    println!("  iCE40 LUT4 / DFF / CARRY / RAM  {} / {} / {} / {}", s.lut4, s.dff, s.carry, s.ram);
    for (part, s) in &report.parts {
        println!("  {part:<28} LUT4 / DFF / CARRY / RAM  {} / {} / {} / {} (alone)", s.lut4, s.dff, s.carry, s.ram);
    }
    for p in &report.placements {
        let cells = p.logic_cells.map_or("n/a".to_string(), |lc| format!("{lc} / {}", p.logic_cells_available));
        match p.fmax_mhz {
            Some(f) => match p.best_fmax().filter(|_| p.fmax_by_seed.len() > 1) {
                Some((seed, best)) => println!(
                    "  {:<20} {cells} logic cells, Fmax {f:.1} MHz (seed 1), best {best:.1} MHz (seed {seed} of {})",
                    p.device,
                    p.fmax_by_seed.len()
                ),
                None => println!("  {:<20} {cells} logic cells, Fmax {f:.1} MHz", p.device),
            },
            None => println!("  {:<20} {cells} logic cells, {}", p.device, p.note.as_deref().unwrap_or("not placed")),
        }
    }
}
