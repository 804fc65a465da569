//! `pmugen prove`: the properties that the generator puts into every block
//! (docs/formal.md) checked by SymbiYosys: bounded (`bmc`), proved by k-induction
//! (`prove`) or their corners reached (`cover`). Prints a verdict per property, and
//! for a failure the counterexample's VCD and its cycle-by-cycle story.
pub mod command;
pub mod report;
pub mod sby;
pub mod story;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use pmugen_hdl::model::DesignModel;

pub use report::{PropertyResult, Report};

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

/// Prove the design of model `model` and Verilog `verilog` (or the file `--verilog`
/// names, which must keep the design's top and instances) with `args`: write the
/// files, run SymbiYosys, print and write the report.
pub fn prove(verilog: &str, model: &DesignModel, args: &ProveArgs) -> Result<Report> {
    let top = model.top.as_str();
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
    let wrapper = sby::wrapper(model);
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
    let report =
        report::results(&verilog, model, args.mode, depth, &dir.join(&name), &outcome, started.elapsed().as_secs_f64());
    let text = report::render(&report, top, args.mode, depth, &dir.join(&name));
    print!("{text}");
    write(&report_file, &text)?;
    Ok(report)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
