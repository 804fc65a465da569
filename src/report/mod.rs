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
mod measure;
pub mod monitor;
pub mod netlist;
pub mod pmu;
pub mod render;
pub mod wrapped;

use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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
    /// The design's model (its top's ports for the pin harness).
    fn model(&self) -> pmugen_hdl::model::DesignModel;
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
    /// The placement seeds whose Fmax the report gives unless `--seed` chooses one: the
    /// first one's, and the best of them (the monitor: 1..3; the PMU: 1, its placements
    /// take minutes).
    fn seeds(&self) -> &'static [u64] {
        &[1]
    }
    /// Parts of the design whose cost is reported on its own: (label, module
    /// name in the generated file), each synthesized alone.
    fn parts(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Every other block of the design, synthesized alone with [`Options::blocks`]:
    /// (label, module name), one instance of each kind of block.
    fn blocks(&self) -> Vec<(String, String)> {
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
    /// What was measured, as the report's flags ([`Options::describe`]): a report is
    /// reused only for the same measurements.
    #[serde(default)]
    pub measured: String,
    /// The hash of the Verilog measured ([`crate::sweep::text_hash`]).
    #[serde(default)]
    pub verilog_hash: String,
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
fn report_tools(options: &Options) -> Vec<Tool> {
    let mut tools = vec![Tool::Yosys];
    let placing = options.place && !options.synthesis_only;
    tools.extend(options.families.iter().filter(|_| placing).filter_map(|f| f.nextpnr()));
    tools
}

/// The versions of the tools a report of `options` runs, with the toolchain's name.
pub fn tool_versions(options: &Options, dir: &Path) -> BTreeMap<String, String> {
    options.toolchain.versions(&report_tools(options), dir)
}

/// Check that every tool a report of `options` runs is there.
pub fn require_tools(options: &Options) -> Result<()> {
    options.toolchain.require(&report_tools(options))
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
    /// Only the family's synthesis of the whole design (with `place`): no placement and
    /// no parts alone, the LUTs, flip-flops, carries, block RAMs and DSPs in seconds to
    /// a minute (`--synth-only`, what a sweep over many configurations measures).
    pub synthesis_only: bool,
    /// The placement seeds, the first one's Fmax given and the best of them, or `None`
    /// for the design's own ([`Subject::seeds`]). The test suite places seed 1 only: its
    /// checks do not read the best of several.
    pub seeds: Option<Vec<u64>>,
    /// The tools.
    pub toolchain: Toolchain,
    /// The families, in report order.
    pub families: Vec<Family>,
    /// Only these devices (by [`Device::short`] name); `None` for each family's all.
    pub devices: Option<Vec<&'static str>>,
    /// Also synthesize every block of the design alone ([`Subject::blocks`]): where
    /// the area goes, block by block (a minute or two more per family).
    pub blocks: bool,
}

impl Default for Options {
    /// The iCE40 report with the current tools, Fmax measured, the design's own seeds.
    fn default() -> Self {
        Options {
            place: true,
            fmax: true,
            synthesis_only: false,
            seeds: None,
            toolchain: Toolchain::Current,
            families: vec![Family::Ice40],
            devices: None,
            blocks: false,
        }
    }
}

impl Options {
    /// The devices of `family` this run places on.
    fn devices(&self, family: Family) -> Vec<Device> {
        let chosen = |d: &Device| self.devices.as_ref().is_none_or(|names| names.contains(&d.short));
        family.devices().into_iter().filter(chosen).collect()
    }

    /// What these options measure for `subject`, as `report` flags (every device and
    /// seed spelled out): `--budget-only`, or `--family ... --device ... --seed ...`
    /// with `--synth-only`, `--no-fmax` and `--blocks` where they apply.
    pub fn describe(&self, subject: &dyn Subject) -> String {
        if !self.place {
            return "--budget-only".to_string();
        }
        let families: Vec<&str> = self.families.iter().map(|f| f.key()).collect();
        let devices: Vec<&str> = self.families.iter().flat_map(|&f| self.devices(f)).map(|d| d.short).collect();
        let seeds: Vec<String> = self.seeds.as_deref().unwrap_or(subject.seeds()).iter().map(u64::to_string).collect();
        let mut flags = format!("--family {} --toolchain {}", families.join(","), self.toolchain.name());
        if self.synthesis_only {
            return flags + " --synth-only";
        }
        flags += &format!(" --device {} --seed {}", devices.join(","), seeds.join(","));
        for (set, flag) in [(!self.fmax, " --no-fmax"), (self.blocks, " --blocks")] {
            if set {
                flags += flag;
            }
        }
        flags
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
    // The hash the report holds, not the file beside it: `flow` writes the Verilog
    // before it reports.
    let same_verilog = earlier.verilog_hash == crate::sweep::text_hash(&verilog.text);
    let same_tools = earlier.generator == env!("CARGO_PKG_VERSION") && earlier.tools == tool_versions(options, out);
    let same_measurements = earlier.measured == options.describe(subject);
    let budget_met = earlier.budget.iter().all(|line| line.actual == line.expected);
    Ok((same_verilog && same_tools && same_measurements && budget_met).then_some(earlier))
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
    require_tools(options)?;
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
    let job = measure::Job { subject, options, dir: out, top: &top, verilog: &files[0], verilog_file: &verilog_file };
    let families = if options.place {
        options.families.iter().map(|&family| job.family(family)).collect::<Result<Vec<_>>>()?
    } else {
        Vec::new()
    };
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
        measured: options.describe(subject),
        verilog_hash: crate::sweep::text_hash(&files[0].text),
    };
    std::fs::write(out.join("report.md"), render::markdown(&report, subject.budget_source()))?;
    std::fs::write(out.join("report.json"), serde_json::to_string_pretty(&report)? + "\n")?;
    staging.publish()?;
    let out = published;
    render::print_summary(&report, &out.join("report.md"));
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
