//! `pmugen plan`: plan (default), merge (`--merge RESULTS`) or run a plan end to end on
//! simulated PMUs (`--simulate`). Everything is checked before anything is written;
//! files are written all together (docs/pmu.md §14).
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use std::path::PathBuf;

use super::simulate::{self, Options};
use super::{merge, results, table, Modes, Plan};
use crate::design::pmu::PmuDesign;
use crate::design::Artifact;
use crate::generate::write_artifacts;
use crate::simulate::EngineChoice;

/// `pmugen plan` arguments (the PMU's own flags come with them).
#[derive(Args, Clone, Debug)]
pub struct PlanArgs {
    /// The events to measure, by EventName, comma separated, in order.
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub events: Vec<String>,
    /// C: the cores available, each with one PMU of the given parameters.
    #[arg(long, value_name = "C", value_parser = parse_cores, allow_hyphen_values = true)]
    pub cores: Option<usize>,
    /// Count every thread's occurrences (EVTSEL.ANY = 1), not only thread 0's.
    #[arg(long)]
    pub all_threads: bool,
    /// When one run cannot hold the events, split them over the fewest runs that can.
    #[arg(long)]
    pub rounds: bool,
    /// Count in ring 3 (EVTSEL.USR). Without --usr and --os: both rings.
    #[arg(long)]
    pub usr: bool,
    /// Count in ring 0 (EVTSEL.OS). Without --usr and --os: both rings.
    #[arg(long)]
    pub os: bool,
    /// Merge the counts read back (a RESULTS file, docs/pmu.md §14.4) instead of planning.
    #[arg(long, value_name = "RESULTS", conflicts_with = "simulate")]
    pub merge: Option<PathBuf>,
    /// With --merge: the plan.json the counts come from (default: plan again from the flags).
    #[arg(long, value_name = "PLAN", requires = "merge")]
    pub plan: Option<PathBuf>,
    /// Flag events whose merged count is below N (0 is always flagged).
    #[arg(long, value_name = "N", default_value = "1")]
    pub low: u64,
    /// Run the plan on simulated PMUs fed one seeded workload, merge, and check the
    /// merged counts against the workload's true counts.
    #[arg(long)]
    pub simulate: bool,
    /// With --simulate: cycles of the workload.
    #[arg(long, value_name = "N", default_value = "2000", requires = "simulate", value_parser = parse_workload_cycles)]
    pub cycles: u64,
    /// With --simulate: the workload's seed.
    #[arg(long, value_name = "S", default_value = "1", requires = "simulate", value_parser = crate::flags::parse_seed)]
    pub seed: u64,
    /// With --simulate: the engines next to the reference model.
    #[arg(long, value_enum, default_value = "native", requires = "simulate")]
    pub engine: EngineChoice,
    /// With --simulate: this core's event inputs are stuck at 0.
    #[arg(long, value_name = "CORE", requires = "simulate")]
    pub stuck_core: Option<usize>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "target/pmugen/plan")]
    pub out: PathBuf,
}

fn parse_cores(text: &str) -> Result<usize, String> {
    crate::flags::parse_whole("--cores (C)", text, 1..=4096).map(|cores| cores as usize)
}

fn parse_workload_cycles(text: &str) -> Result<u64, String> {
    crate::flags::parse_whole("--cycles", text, 1..=1_000_000)
}

impl PlanArgs {
    fn modes(&self) -> Modes {
        let both = !self.usr && !self.os;
        Modes { usr: self.usr || both, os: self.os || both, all_threads: self.all_threads }
    }

    /// The plan of the flags.
    fn plan_from_flags(&self, design: &PmuDesign) -> Result<Plan> {
        let Some(cores) = self.cores else { bail!("--cores: give the number of cores, C >= 1") };
        if self.events.is_empty() {
            bail!("--events: give the events to measure, e.g. --events {}", design.params.table.events[0].name);
        }
        Plan::new(&design.params, &self.events, cores, self.modes(), self.rounds)
    }
}

fn artifact(name: &str, text: String) -> Artifact {
    Artifact { name: name.into(), text }
}

/// Run `pmugen plan` for PMUs of `design` (from the PMU flags).
pub fn run(args: &PlanArgs, design: impl FnOnce() -> Result<PmuDesign>) -> Result<()> {
    if args.plan.is_some()
        && (!args.events.is_empty() || args.cores.is_some() || args.usr || args.os || args.all_threads || args.rounds)
    {
        bail!("--plan: the plan file fixes the events, cores and modes; leave out --events, --cores, --usr, --os, --all-threads and --rounds");
    }
    if args.low != 1 && args.merge.is_none() && !args.simulate {
        bail!("--low {}: only --merge and --simulate flag low counts", args.low);
    }
    if let Some(path) = &args.merge {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("--merge {source}: cannot read"))?;
        let plan = match &args.plan {
            Some(plan_path) => {
                let name = plan_path.display().to_string();
                let plan_text =
                    std::fs::read_to_string(plan_path).with_context(|| format!("--plan {name}: cannot read"))?;
                Plan::from_json(&plan_text, &format!("--plan {name}"))?
            }
            None => args.plan_from_flags(&design()?).context("--merge without --plan plans again from the flags")?,
        };
        let counts = results::read(&text, &format!("--merge {source}"), &plan)?;
        let merged = merge::merge(&plan, &counts, args.low);
        write_artifacts(
            &[artifact("merge.json", merged.to_json()), artifact("merge.md", merged.markdown())],
            &args.out,
        )?;
        println!("{}", merged.markdown());
        println!("wrote {} and merge.md", args.out.join("merge.json").display());
        return Ok(());
    }
    let design = design()?;
    let plan = args.plan_from_flags(&design)?;
    if !args.simulate {
        write_artifacts(
            &[artifact("plan.json", plan.to_json()), artifact("plan.md", table::markdown(&plan))],
            &args.out,
        )?;
        println!("{}", table::markdown(&plan));
        println!("wrote {} and plan.md", args.out.join("plan.json").display());
        return Ok(());
    }
    let options =
        Options { cycles: args.cycles as usize, seed: args.seed, engine: args.engine, stuck_core: args.stuck_core };
    eprintln!(
        "simulate {} cores of {} on a {}-cycle workload, seed {}",
        plan.cores, plan.pmu.top, args.cycles, args.seed
    );
    if let Some(core) = args
        .stuck_core
        .filter(|&core| core < plan.cores && plan.runs.iter().all(|r| r.cores.iter().all(|c| c.core != core)))
    {
        eprintln!("note: the plan does not use core {core}, so --stuck-core {core} changes nothing");
    }
    let outcome = simulate::run(&design, &plan, &options, &mut |step| eprintln!("  {step}"))?;
    let results_text = outcome.results.to_json();
    let counts = results::read(&results_text, "the simulated results", &plan)?;
    let merged = merge::merge(&plan, &counts, args.low);
    let rows = simulate::check(&merged, &outcome.truth, args.stuck_core);
    let check = simulate::check_markdown(&rows);
    write_artifacts(
        &[
            artifact("plan.json", plan.to_json()),
            artifact("plan.md", table::markdown(&plan)),
            artifact("results.json", results_text),
            artifact("merge.json", merged.to_json()),
            artifact("merge.md", merged.markdown()),
            artifact("check.md", check.clone()),
        ],
        &args.out,
    )?;
    println!(
        "{}\n## Merged counts\n\n{}\n## Against the workload's true counts\n\n{check}",
        table::markdown(&plan),
        merged.markdown()
    );
    println!("wrote plan.json, plan.md, results.json, merge.json, merge.md and check.md in {}", args.out.display());
    let wrong: Vec<&str> = rows.iter().filter(|r| !r.expected).map(|r| r.event.as_str()).collect();
    if !wrong.is_empty() {
        return Err(anyhow!("merged counts differ from the workload's true counts: {}", wrong.join(", ")));
    }
    Ok(())
}
