//! `pmugen report`: resource report and budget check for any design.
//!
//! Runs real yosys (`proc; flatten; opt -full` for the coarse count, each chosen
//! family's synthesis for its LUTs, flip-flops, carries, block RAMs and DSPs) and
//! nextpnr (logic and Fmax on each of the family's devices), writes `report.md` and
//! `report.json`, and fails naming the group whose count differs from the design's
//! formula. A design that does not fit a device is stated in the report, not a
//! failure. The budget check is the same whatever the family.
pub mod compare;
pub mod family;
pub mod fpga;
pub mod harness;
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

use crate::design::Artifact;
use crate::toolchain::{Tool, Toolchain};
use family::{Device, Family};
use fpga::{Placement, Synthesis};
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
    /// The placement seeds whose Fmax the report gives: seed 1 always, and the best of
    /// these (the monitor: 1..3; the PMU: 1, its placements take minutes).
    fn seeds(&self) -> &'static [u64] {
        &[1]
    }
    /// Parts of the design whose cost is reported on its own: (label, module
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
    /// Each family's figures, in the order asked for (none for `--budget-only`).
    pub families: Vec<FamilyReport>,
    /// Coarse cells by type.
    pub coarse_cells: BTreeMap<String, usize>,
}

/// One family's figures in a report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FamilyReport {
    /// The synthesis counts.
    pub synthesis: Synthesis,
    /// Placement (or, for the xc7, the estimate) per device.
    pub placements: Vec<Placement>,
    /// The design's parts synthesized alone (see [`Subject::parts`]).
    pub parts: BTreeMap<String, Synthesis>,
    /// Wall-clock seconds the family's synthesis and placements took.
    #[serde(default)]
    pub seconds: f64,
}

impl Report {
    /// The figures of `family`, when the report has them.
    pub fn family(&self, family: Family) -> Option<&FamilyReport> {
        self.families.iter().find(|f| f.synthesis.family == family)
    }

    /// The placement on the device named `device`.
    pub fn placement(&self, device: &Device) -> &Placement {
        self.families
            .iter()
            .flat_map(|f| &f.placements)
            .find(|p| p.device == device.name)
            .expect("the report placed on this device")
    }
}

/// The tools a report of `families` runs (yosys alone for a budget-only report).
fn report_tools(families: &[Family], place: bool) -> Vec<Tool> {
    let mut tools = vec![Tool::Yosys];
    tools.extend(families.iter().filter(|_| place).filter_map(|f| f.nextpnr()));
    tools
}

/// The versions of the tools a report of `options` runs, with the toolchain's name.
pub(crate) fn tool_versions(options: &Options, dir: &Path) -> BTreeMap<String, String> {
    options.toolchain.versions(&report_tools(&options.families, options.place), dir)
}

/// The Markdown rendering of `report`.
pub fn markdown(report: &Report, budget_source: &str) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Resource report: {}\n", report.design);
    let parameters: Vec<String> = report.parameters.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let tools: Vec<&str> =
        report.tools.iter().filter(|(tool, _)| tool.as_str() != "toolchain").map(|(_, v)| v.as_str()).collect();
    let toolchain = report.tools.get("toolchain").map_or("", String::as_str);
    let _ = writeln!(
        md,
        "{}. Generated by pmugen {}; {toolchain} toolchain: {}.\n",
        parameters.join(", "),
        report.generator,
        tools.join("; ")
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
    if report.families.is_empty() {
        let _ = writeln!(md, "## FPGA figures\n\nNot synthesized: a budget-only run (`--budget-only`).");
    }
    for family in &report.families {
        family_markdown(&mut md, family);
    }
    let _ = writeln!(md, "\n## Coarse cells\n\n| cell | count |\n|---|---:|");
    for (cell, count) in &report.coarse_cells {
        let _ = writeln!(md, "| `{cell}` | {count} |");
    }
    md
}

/// A family's section of a report: cell counts and each device's placement.
fn family_markdown(md: &mut String, report: &FamilyReport) {
    let s = &report.synthesis;
    let family = s.family;
    let heads = family.figure_heads();
    let seeds: Vec<String> =
        report.placements.first().map_or(Vec::new(), |p| p.fmax_by_seed.iter().map(|(s, _)| s.to_string()).collect());
    // A best-of column only where more than one seed was placed (the PMU places one).
    let several = report.placements.iter().any(|p| p.fmax_by_seed.len() > 1);
    let seed_text = if several { format!("seeds {}", seeds.join(", ")) } else { "seed 1".to_string() };
    let place_text = match family.nextpnr() {
        Some(tool) => format!("{} {seed_text}, {} MHz target", tool.name(), fpga::TARGET_MHZ),
        None => "no open place and route: a synthesis estimate".to_string(),
    };
    let synth = family.synth_command("", "").split(' ').next().unwrap_or_default().to_string();
    let _ = writeln!(md, "## {} (`{synth}`, {place_text})\n", family.title());
    let _ = writeln!(md, "Synthesis and placement took {:.0} s.\n", report.seconds);
    let _ = writeln!(md, "| figure | value |\n|---|---:|");
    for (head, value) in heads.iter().zip(s.figures()) {
        let _ = writeln!(md, "| {head} | {value} |");
    }
    let unit = family.logic_unit().1;
    let (fmax_head, best_head, best_rule) =
        if several { ("Fmax `clock`, seed 1", " best Fmax (seed) |", "---:|") } else { ("Fmax `clock`", "", "") };
    let _ = writeln!(md, "\n| device | {unit} | fits | {fmax_head} |{best_head}\n|---|---:|---|---:|{best_rule}");
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
        let _ = writeln!(md, "\n{}", harness_text(family));
    }
    for p in report.placements.iter().filter(|p| p.note.is_some()) {
        let _ = writeln!(md, "\n{}: {}", p.device, p.note.as_deref().unwrap_or(""));
    }
    if !report.parts.is_empty() {
        let _ = writeln!(md, "\n### Parts synthesized alone (`{synth}` of the part's module as top)\n");
        let _ = writeln!(md, "| part | {} |\n|---|---:|---:|---:|---:|---:|", heads.join(" | "));
        for (part, s) in &report.parts {
            let figures: Vec<String> = s.figures().iter().map(u64::to_string).collect();
            let _ = writeln!(md, "| {part} | {} |", figures.join(" | "));
        }
    }
    md.push('\n');
}

/// What the pin harness means for a family's figures.
fn harness_text(family: Family) -> String {
    let what = "its Fmax is measured in a pin harness (every input from its own shift-chain flip-flop, the \
                outputs folded into one registered XOR), so the register port's and the event inputs' paths are \
                timed from flip-flops as in a system-on-chip";
    match family {
        Family::Gowin => format!(
            "nextpnr-himbaechel-gowin places only designs whose every port is on a constrained pin, so the core \
             is placed in the pin harness (on the Tang Nano 9K's clock and UART pins): its LUT4s are those of \
             that placement (the harness's XOR tree adds about one LUT4 per three output bits; its chain adds \
             flip-flops only), and {what}."
        ),
        _ => format!(
            "The core has more ports than the package has pins: its logic is that of the bare core (nextpnr packs \
             before it places), and {what}."
        ),
    }
}

/// What a report run does besides the budget count.
#[derive(Clone, Debug)]
pub struct Options {
    /// Synthesize for each family and place on its devices (minutes); without, only
    /// the coarse netlist is built and the budget checked (seconds).
    pub place: bool,
    /// Measure Fmax in the pin harness when the core has more ports than pins
    /// (without, such a core gets its logic cells and fit only).
    pub fmax: bool,
    /// The placement seeds, or `None` for the design's own ([`Subject::seeds`]). The
    /// test suite places seed 1 only: its checks do not read the best of several.
    pub seeds: Option<&'static [u64]>,
    /// The tools.
    pub toolchain: Toolchain,
    /// The families, in report order.
    pub families: Vec<Family>,
    /// Only these devices (by [`Device::short`] name); `None` for each family's all.
    pub devices: Option<Vec<&'static str>>,
}

impl Default for Options {
    /// The iCE40 report with the current tools, Fmax measured, the design's own seeds.
    fn default() -> Self {
        Options {
            place: true,
            fmax: true,
            seeds: None,
            toolchain: Toolchain::Current,
            families: vec![Family::Ice40],
            devices: None,
        }
    }
}

impl Options {
    /// The devices of `family` this run places on.
    fn devices(&self, family: Family) -> Vec<Device> {
        let chosen = |d: &Device| self.devices.as_ref().is_none_or(|names| names.contains(&d.short));
        family.devices().into_iter().filter(chosen).collect()
    }
}

/// Generate, synthesize, place, write `report.md`/`report.json` into `out`, and
/// check the budget. Returns the report; an error names the group that is off.
pub fn run(subject: &dyn Subject, out: &Path) -> Result<Report> {
    run_with(subject, out, &Options::default())
}

/// The earlier report in `out`, if it is of the very Verilog `subject` generates now,
/// was made by this pmugen version with the tools `options` would run, for its
/// families, and met its budget. The sweep and the comparison use it instead of
/// placing again: their largest configurations take most of their time in nextpnr.
pub fn current_report(subject: &dyn Subject, out: &Path, options: &Options) -> Result<Option<Report>> {
    let Ok(text) = std::fs::read_to_string(out.join("report.json")) else { return Ok(None) };
    let Ok(earlier) = serde_json::from_str::<Report>(&text) else { return Ok(None) };
    let files = subject.files().map_err(anyhow::Error::msg)?;
    let verilog = &files[0];
    let same_verilog = std::fs::read_to_string(out.join(&verilog.name)).is_ok_and(|text| text == verilog.text);
    let same_tools = earlier.generator == env!("CARGO_PKG_VERSION") && earlier.tools == tool_versions(options, out);
    let same_families = earlier.families.iter().map(|f| f.synthesis.family).eq(options.families.iter().copied());
    let budget_met = earlier.budget.iter().all(|line| line.actual == line.expected);
    Ok((same_verilog && same_tools && same_families && budget_met).then_some(earlier))
}

/// [`run_with`], or the report already in `out` when it is current ([`current_report`]).
pub fn run_or_reuse(subject: &dyn Subject, out: &Path, options: &Options) -> Result<Report> {
    if let Some(report) = current_report(subject, out, options)? {
        let path = out.join("report.json");
        eprintln!(
            "report {}: {} is current (same Verilog, pmugen and tools); not run again",
            subject.top_name(),
            path.display()
        );
        return Ok(report);
    }
    run_with(subject, out, options)
}

/// [`run`] with `options`.
pub fn run_with(subject: &dyn Subject, out: &Path, options: &Options) -> Result<Report> {
    let published = out;
    let toolchain = options.toolchain;
    toolchain.require(&report_tools(&options.families, options.place))?;
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
    let (ok, log) = toolchain.run(Tool::Yosys, &["-q", "-l", "budget.log", "-s", "budget.ys"], out)?;
    if !ok {
        bail!("yosys budget pass failed for {top}:\n{log}");
    }
    let netlist: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("coarse.json"))?)?;
    let counts = netlist::analyse(&netlist, &top, &subject.flip_flops(), subject.groups(), subject.scope())?;
    let mut families = Vec::new();
    let mut harness_written = false;
    for &family in options.families.iter().filter(|_| options.place) {
        let places = family.nextpnr().is_some();
        let ports = harness::top_ports(&files[0].text, &top)?;
        let mut harness = |family: Family| -> Result<String> {
            if !harness_written {
                let text = format!("{}\n{}", files[0].text, harness::verilog(&top, &ports));
                std::fs::write(out.join("harness.v"), text)?;
                harness_written = true;
            }
            let name = format!("{}-harness", family.key());
            fpga::synthesize(toolchain, family, out, "harness.v", &format!("{top}_harness"), &name)?;
            Ok(name)
        };
        eprintln!("report {top}: yosys {} synthesis ...", family.title());
        let started = std::time::Instant::now();
        let synthesis = fpga::synthesize(toolchain, family, out, &verilog_file, &top, family.key())?;
        let mut placements = Vec::new();
        let mut harness_name = None;
        let seeds = options.seeds.unwrap_or_else(|| subject.seeds());
        for device in options.devices(family) {
            if !places {
                placements.push(fpga::estimate(&synthesis, &device));
                continue;
            }
            let in_harness_only = family == Family::Gowin;
            let mut placement = if in_harness_only {
                core_on_gowin(&device)
            } else {
                eprintln!("report {top}: nextpnr on the {} ...", device.name);
                fpga::place_seeds(toolchain, out, family.key(), &device, seeds)?
            };
            let pin_limited = in_harness_only || placement.pin_limited();
            // nextpnr-himbaechel-gowin gives the Gowin core's LUT4s only by placing it in
            // the harness, so --no-fmax does not skip that placement.
            if pin_limited && !options.fmax && !in_harness_only {
                placement.fits = placement.logic_cells.is_some_and(|lc| lc <= device.logic_cells);
                placement.note = Some("the core's logic from its packing; Fmax not measured (--no-fmax)".to_string());
            } else if pin_limited {
                if harness_name.is_none() {
                    eprintln!("report {top}: more ports than pins; timing in the pin harness ...");
                    harness_name = Some(harness(family)?);
                }
                let name = harness_name.as_deref().unwrap_or_default();
                eprintln!("report {top}: nextpnr on the {} (pin harness) ...", device.name);
                let timed = fpga::place_seeds(toolchain, out, name, &device, seeds)?;
                let core_fits = placement.logic_cells.is_some_and(|lc| lc <= device.logic_cells);
                placement.fits = core_fits && !in_harness_only;
                placement.timed_in_harness = true;
                placement.harness_logic_cells = timed.logic_cells;
                placement.fmax_mhz = timed.fmax_mhz;
                placement.fmax_by_seed = timed.fmax_by_seed.clone();
                if in_harness_only {
                    // The core's logic is counted as placed: its LUT4s in the harness.
                    (placement.logic_cells, placement.fits) = (timed.logic_cells, timed.fits);
                }
                let core_fits = placement.fits || core_fits;
                placement.note = match (core_fits, timed.fits) {
                    (false, _) => Some(match placement.logic_cells {
                        Some(lc) => format!(
                            "does not fit the {}: needs {lc} of its {} {}",
                            device.name,
                            device.logic_cells,
                            family.logic_unit().1
                        ),
                        None => timed.note.clone().unwrap_or_else(|| format!("does not fit the {}", device.name)),
                    }),
                    (true, true) => None,
                    (true, false) => Some(format!(
                        "the core fits; Fmax not measured: the pin harness does not fit ({})",
                        timed.note.unwrap_or_default()
                    )),
                };
            }
            placements.push(placement);
        }
        let mut parts = BTreeMap::new();
        for (label, module) in subject.parts() {
            eprintln!("report {top}: yosys {} synthesis of the {label} alone ...", family.title());
            let name = format!("{}-part_{}", family.key(), label.replace(' ', "_"));
            parts.insert(label, fpga::synthesize(toolchain, family, out, &verilog_file, &module, &name)?);
        }
        let seconds = started.elapsed().as_secs_f64();
        families.push(FamilyReport { synthesis, placements, parts, seconds });
    }
    let tools = tool_versions(options, out);
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
        families,
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
    if report.families.is_empty() {
        println!("  FPGA                         not synthesized (budget only)");
        return;
    }
    for family in &report.families {
        let s = &family.synthesis;
        let heads = s.family.figure_heads();
        let figures: Vec<String> = s.figures().iter().map(u64::to_string).collect();
        println!("  {} {}  {}", s.family.title(), heads.join(" / "), figures.join(" / "));
        for (part, s) in &family.parts {
            let figures: Vec<String> = s.figures().iter().map(u64::to_string).collect();
            println!("    {part:<26} {} (alone)", figures.join(" / "));
        }
        for p in &family.placements {
            let cells = p.logic_cells.map_or("n/a".to_string(), |lc| format!("{lc} / {}", p.logic_cells_available));
            let unit = s.family.logic_unit().1;
            match p.fmax_mhz {
                Some(f) => match p.best_fmax().filter(|_| p.fmax_by_seed.len() > 1) {
                    Some((seed, best)) => println!(
                        "  {:<24} {cells} {unit}, Fmax {f:.1} MHz (seed 1), best {best:.1} MHz (seed {seed} of {})",
                        p.device,
                        p.fmax_by_seed.len()
                    ),
                    None => println!("  {:<24} {cells} {unit}, Fmax {f:.1} MHz", p.device),
                },
                None => println!(
                    "  {:<24} {cells} {unit}, {}: {}",
                    p.device,
                    p.fit_text().trim_matches('*'),
                    p.note.as_deref().unwrap_or("not placed")
                ),
            }
        }
    }
}

/// The Gowin core before placement: nextpnr-himbaechel-gowin places only constrained
/// I/O, so the core is placed and timed in the pin harness, which gives its LUT4s.
fn core_on_gowin(device: &Device) -> Placement {
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
