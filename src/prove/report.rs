//! What `prove` prints and writes: a verdict per property (from SymbiYosys's summary
//! and the properties the Verilog lists), and for each failure its counterexample's
//! story.
use std::path::{Path, PathBuf};

use pmugen_hdl::formal::{listed, Kind, Listed};

use super::{sby, story, Mode};

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

pub(super) fn results(
    verilog: &str,
    model: &pmugen_hdl::model::DesignModel,
    mode: Mode,
    depth: usize,
    work: &Path,
    outcome: &sby::Outcome,
    seconds: f64,
) -> Report {
    let mut properties = Vec::new();
    let top = model.top.as_str();
    let mut paths = model.instance_paths();
    paths.insert(top.to_string(), String::new());
    for Listed { module, name, rule, kind } in listed(verilog) {
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

pub(super) fn render(report: &Report, top: &str, mode: Mode, depth: usize, work: &Path) -> String {
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
