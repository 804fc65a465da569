//! The files SymbiYosys reads for one run (the wrapper and the `.sby` script), the
//! run itself with the YoWASP tools, and what it reports per property.
use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};

use super::Mode;
use crate::toolchain::{Tool, Toolchain};

/// The wrapper module `<top>_formal`: the design (its ports from its model) with every
/// input free, reset asserted in the first cycle (from then on reset is free too).
pub fn wrapper(model: &pmugen_hdl::model::DesignModel) -> String {
    let top = &model.top;
    let ports = model.port_list();
    let inputs: Vec<&str> = ports.iter().filter(|p| p.1).map(|p| p.0.as_str()).collect();
    let mut text = format!(
        "// {top}_formal: the formal wrapper of {top} written by `pmugen prove` (docs/formal.md).\n\
         // Every input is free; reset is asserted in the first cycle.\nmodule {top}_formal({});\n",
        inputs.join(", ")
    );
    for (name, input, width) in &ports {
        let kind = if *input { "input wire" } else { "wire" };
        text.push_str(&format!("    {kind} {}{name};\n", pmugen_hdl::custom::range(*width)));
    }
    let connections: Vec<String> = ports.iter().map(|p| format!(".{0}({0})", p.0)).collect();
    text.push_str(&format!("    {top} uut({});\n", connections.join(", ")));
    text.push_str("    reg f_first;\n    initial f_first = 1'b1;\n    always @(posedge clock) f_first <= 1'b0;\n");
    text.push_str("    always @(*) if (f_first) assume(reset);\nendmodule\n");
    text
}

/// The `.sby` script of one run.
pub fn script(top: &str, mode: Mode, depth: usize) -> String {
    let (sby_mode, engine) = match mode {
        Mode::Bmc => ("bmc", "smtbmc --keep-going boolector"),
        Mode::Prove => ("prove", "smtbmc boolector"),
        Mode::Cover => ("cover", "smtbmc boolector"),
    };
    format!(
        "# {top}: `pmugen prove` (docs/formal.md).\n[options]\nmode {sby_mode}\ndepth {depth}\n\n\
         [engines]\n{engine}\n\n[script]\nread -formal {top}.v\nread -formal {top}_formal.sv\nprep -top {top}_formal\n\n\
         [files]\n{top}.v\n{top}_formal.sv\n"
    )
}

/// What SymbiYosys said of a property it named: failed (an assertion) or reached (a
/// cover) at this step, with the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The step.
    pub step: Option<usize>,
    /// The trace's VCD, relative to the work directory.
    pub trace: Option<String>,
}

/// The run's overall status and the properties it named.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// PASS, FAIL, UNKNOWN or ERROR.
    pub status: String,
    /// Per hierarchical label (`uut.controls__0.assert_overflow_beats_clear`).
    pub named: BTreeMap<String, Verdict>,
    /// The assertions that the induction step could not prove.
    pub induction_failed: Vec<String>,
    /// The log lines that say why, for an ERROR.
    pub errors: Vec<String>,
}

/// Check that SymbiYosys, yosys, its solver and its helpers are there (an error names
/// the PyPI package to install).
pub fn require() -> Result<()> {
    Toolchain::Current.require(&[Tool::Sby, Tool::Yosys, Tool::Smtbmc, Tool::Witness, Tool::Boolector])
}

/// Run SymbiYosys on `<dir>/<top>_<mode>.sby`; its work directory is `<dir>/<top>_<mode>`.
pub fn run(dir: &Path, top: &str, mode: Mode, progress: &dyn Fn(&str)) -> Result<Outcome> {
    let tools = Toolchain::Current;
    require()?;
    // yosys-smtbmc starts its solver as `boolector`: a shim in the run's directory
    // calls the YoWASP build (Debian's boolector is too old for smtbmc).
    let shim_dir = dir.join("bin");
    std::fs::create_dir_all(&shim_dir).with_context(|| format!("cannot create {}", shim_dir.display()))?;
    let shim = shim_dir.join("boolector");
    std::fs::write(&shim, format!("#!/bin/sh\nexec '{}' \"$@\"\n", tools.program(Tool::Boolector)?))?;
    std::fs::set_permissions(&shim, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(shim_dir.canonicalize()?).chain(std::env::split_paths(&path)))?;
    let name = format!("{top}_{}", mode.name());
    let mut child = std::process::Command::new(tools.program(Tool::Sby)?)
        .args(["-f", &format!("{name}.sby")])
        .current_dir(dir)
        .env("PATH", path)
        .env("YOSYS", tools.program(Tool::Yosys)?)
        .env("SMTBMC", tools.program(Tool::Smtbmc)?)
        .env("WITNESS", tools.program(Tool::Witness)?)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .context("cannot start SymbiYosys")?;
    let mut log = String::new();
    let stdout = child.stdout.take().expect("piped");
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line?;
        if line.contains("Checking assertions in step") || line.contains("Trying induction in step") {
            progress(line.split("##").last().unwrap_or("").trim());
        }
        log.push_str(&line);
        log.push('\n');
    }
    child.wait()?;
    let tag = format!("[{name}] ");
    let texts: Vec<&str> = log.lines().filter_map(|line| line.split_once(&tag).map(|(_, text)| text)).collect();
    let Some(status) = texts.iter().find_map(|t| t.strip_prefix("DONE (")) else {
        bail!("SymbiYosys ended without a result; its log is {}/{name}/logfile.txt", dir.display());
    };
    let status = status.split([',', ')']).next().unwrap_or("").to_string();
    // The status file lists every trace (the log's summary stops after a few).
    let summary = std::fs::read_to_string(dir.join(&name).join(&status)).unwrap_or_default();
    let mut outcome = parse_summary(summary.lines(), status);
    outcome.errors =
        texts.iter().filter(|t| t.contains("ERROR") && !t.starts_with("summary")).map(|t| t.to_string()).collect();
    Ok(outcome)
}

/// Read the summary lines of SymbiYosys's status file (trace paths relative to the
/// work directory).
fn parse_summary<'a>(lines: impl Iterator<Item = &'a str>, status: String) -> Outcome {
    let mut outcome = Outcome { status, ..Outcome::default() };
    let mut trace: Option<String> = None;
    let mut induction = false;
    for text in lines {
        if let Some(rest) = text.strip_prefix("counterexample trace").or_else(|| text.strip_prefix("cover trace")) {
            let file = rest.rsplit(": ").next().map(|f| f.trim().to_string());
            if file.as_deref().is_some_and(|f| f.ends_with(".vcd")) {
                induction = rest.contains("[induction]");
                trace = file;
            }
        } else if let Some(rest) = text
            .trim_start()
            .strip_prefix("failed assertion ")
            .or_else(|| text.trim_start().strip_prefix("reached cover statement "))
        {
            let label = rest.split_whitespace().next().unwrap_or("").to_string();
            let step = rest.split(" step ").nth(1).and_then(|s| s.trim().parse().ok());
            if induction {
                outcome.induction_failed.push(label);
            } else {
                outcome.named.insert(label, Verdict { step, trace: trace.clone() });
            }
        }
    }
    outcome
}
