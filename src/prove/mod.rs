//! `pmugen prove`: the properties that the generator puts into every block
//! (docs/formal.md) checked by SymbiYosys: bounded (`bmc`), proved by k-induction
//! (`prove`) or their corners reached (`cover`). Prints a verdict per property, and
//! for a failure the counterexample's VCD and its cycle-by-cycle story.
pub mod command;
pub mod sby;
pub mod story;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use pmugen_hdl::formal::{instance_paths, listed, Kind};

/// What the solver is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Every assertion holds for the first DEPTH cycles after reset.
    Bmc,
    /// Every assertion holds in every reachable cycle (k-induction of depth DEPTH).
    Prove,
    /// Every cover is reached within DEPTH cycles.
    Cover,
}

impl Mode {
    /// The name in files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Bmc => "bmc",
            Mode::Prove => "prove",
            Mode::Cover => "cover",
        }
    }

    fn default_depth(self) -> usize {
        match self {
            Mode::Bmc | Mode::Cover => 20,
            Mode::Prove => 8,
        }
    }
}

/// The flags of `prove` shared by both designs.
#[derive(Args, Clone, Debug)]
pub struct ProveArgs {
    /// bmc (bounded), prove (k-induction: holds in every cycle) or cover (corners reached).
    #[arg(long, value_enum, default_value = "prove")]
    pub mode: Mode,
    /// Cycles of the bounded check, or the induction's depth (default 20 for bmc and
    /// cover, 8 for prove).
    #[arg(long, value_name = "N", value_parser = parse_depth)]
    pub depth: Option<usize>,
    /// Prove this Verilog file instead of generating it (for example an edited copy);
    /// it must hold the module the parameters name.
    #[arg(long, value_name = "FILE")]
    pub verilog: Option<PathBuf>,
    /// Output directory (default target/pmugen/prove/<top>).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

fn parse_depth(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(depth) if (1..=200).contains(&depth) => Ok(depth),
        _ => Err(format!("--depth = '{text}' is not a depth in cycles; allowed 1..=200")),
    }
}

/// One property's result, as printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyResult {
    /// Instance path below the design's top (`controls__0`, `pmu.counters__0`; empty
    /// for the top).
    pub instance: String,
    /// Its name (`overflow_beats_clear`).
    pub name: String,
    /// The rule it checks.
    pub rule: String,
    /// `proved`, `passed to depth N`, `failed at step K`, `reached at step K`, ...
    pub verdict: String,
    /// The counterexample or cover trace, for a failure or a cover.
    pub trace: Option<PathBuf>,
}

/// The results of one run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Per property, in the order of the Verilog.
    pub properties: Vec<PropertyResult>,
    /// True when no assertion failed (and, for cover, every cover was reached).
    pub passed: bool,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Prove the design `top` of Verilog `verilog` (or of the file `--verilog` names)
/// with `args`: write the files, run SymbiYosys, print and write the report.
pub fn prove(verilog: &str, top: &str, args: &ProveArgs) -> Result<Report> {
    let verilog = match &args.verilog {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("--verilog {}: cannot read it", file.display()))?;
            if !text.contains(&format!("module {top}(")) {
                bail!("--verilog {}: no module {top} in it (the parameters name that top)", file.display());
            }
            text
        }
        None => verilog.to_string(),
    };
    sby::require()?;
    let depth = args.depth.unwrap_or(args.mode.default_depth());
    let dir = args.out.clone().unwrap_or_else(|| PathBuf::from("target/pmugen/prove").join(top));
    let wrapper = sby::wrapper(&verilog, top)?;
    std::fs::create_dir_all(&dir).with_context(|| format!("--out {}: cannot create it", dir.display()))?;
    let name = format!("{top}_{}", args.mode.name());
    // A report of an earlier run must not outlive this one's start.
    let report_file = dir.join(format!("{name}.md"));
    let _ = std::fs::remove_file(&report_file);
    write(&dir.join(format!("{top}.v")), &verilog)?;
    write(&dir.join(format!("{top}_formal.sv")), &wrapper)?;
    write(&dir.join(format!("{name}.sby")), &sby::script(top, args.mode, depth))?;
    eprintln!(
        "pmugen prove: {top}, {} to depth {depth} with SymbiYosys (smtbmc, boolector) in {}",
        args.mode.name(),
        dir.display()
    );
    let started = Instant::now();
    let outcome = sby::run(&dir, top, args.mode, &|line| eprintln!("  {line}"))?;
    if outcome.status == "ERROR" {
        bail!(
            "SymbiYosys stopped with an error:\n  {}\n(log: {}/{name}/logfile.txt)",
            outcome.errors.join("\n  "),
            dir.display()
        );
    }
    let report = results(&verilog, top, args.mode, depth, &dir.join(&name), &outcome, started.elapsed().as_secs_f64());
    let text = render(&report, top, args.mode, depth, &dir.join(&name));
    print!("{text}");
    write(&report_file, &text)?;
    Ok(report)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn results(
    verilog: &str,
    top: &str,
    mode: Mode,
    depth: usize,
    work: &Path,
    outcome: &sby::Outcome,
    seconds: f64,
) -> Report {
    let mut properties = Vec::new();
    let paths = instance_paths(verilog, top);
    for (module, name, rule, kind) in listed(verilog) {
        let Some(instance) = paths.get(&module).cloned() else { continue };
        if (kind == Kind::Cover) != (mode == Mode::Cover) {
            continue;
        }
        let prefix = if kind == Kind::Cover { "cover" } else { "assert" };
        let path =
            if instance.is_empty() { format!("{top}_formal.uut") } else { format!("{top}_formal.uut.{instance}") };
        let label = format!("{path}.{prefix}_{name}");
        let found = outcome.named.get(&label);
        let verdict = match (found, mode, outcome.status.as_str()) {
            (Some(found), Mode::Cover, _) => format!("reached at step {}", found.step.unwrap_or(0)),
            (Some(found), ..) => format!("FAILED at step {}", found.step.unwrap_or(0)),
            (None, Mode::Cover, _) => format!("NOT reached within {depth} steps"),
            (None, Mode::Prove, "PASS") => "proved (k-induction)".to_string(),
            (None, Mode::Prove, _) if outcome.induction_failed.contains(&label) => {
                format!("passed to depth {depth}; induction did not close")
            }
            (None, Mode::Prove, "UNKNOWN") | (None, Mode::Bmc, "PASS" | "FAIL") => format!("passed to depth {depth}"),
            _ => "not decided (the run stopped at a failure)".to_string(),
        };
        let trace = found.and_then(|f| f.trace.as_ref()).map(|t| work.join(t));
        properties.push(PropertyResult { instance, name, rule, verdict, trace });
    }
    // SymbiYosys passes a run only when every assertion held (proved, for prove) and,
    // for cover, every cover was reached.
    Report { properties, passed: outcome.status == "PASS", seconds }
}

fn render(report: &Report, top: &str, mode: Mode, depth: usize, work: &Path) -> String {
    let mut text = format!("# pmugen prove {top}: {} to depth {depth}\n\n", mode.name());
    text.push_str("| instance | property | result | rule |\n|---|---|---|---|\n");
    for p in &report.properties {
        let instance = if p.instance.is_empty() { "(top)" } else { &p.instance };
        text.push_str(&format!("| {instance} | {} | {} | {} |\n", p.name, p.verdict, p.rule));
    }
    let failed: Vec<&PropertyResult> = report.properties.iter().filter(|p| p.verdict.starts_with("FAILED")).collect();
    for p in &failed {
        let Some(trace) = &p.trace else { continue };
        text.push_str(&format!(
            "\n## {} in {} failed\n\nRule: {}\nCounterexample: {}\n\n",
            p.name,
            instance_label(p),
            p.rule,
            trace.display()
        ));
        let block = (!p.instance.is_empty()).then(|| format!("uut.{}", p.instance));
        match std::fs::read_to_string(trace)
            .map_err(|e| e.to_string())
            .and_then(|vcd| story::story(&vcd, &format!("{top}_formal"), block.as_deref()))
        {
            Ok(story) => text.push_str(&format!(
                "Cycle by cycle (the design's ports and the signals of {}; only what changed):\n\n```\n{story}```\n",
                instance_label(p)
            )),
            Err(why) => text.push_str(&format!("(no story: {why})\n")),
        }
    }
    let verdict = if report.passed { "PASS" } else { "FAIL" };
    text.push_str(&format!(
        "\n{verdict}: {} properties, {} failed, in {:.0} s. Work directory: {} (docs/formal.md §5 reads a counterexample).\n",
        report.properties.len(),
        failed.len(),
        report.seconds,
        work.display()
    ));
    text
}

fn instance_label(p: &PropertyResult) -> String {
    if p.instance.is_empty() {
        "the top".to_string()
    } else {
        p.instance.clone()
    }
}
