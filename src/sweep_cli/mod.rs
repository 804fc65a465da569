//! `pmugen sweep` (docs/report.md §8): from its command line ([`command`]) to the
//! sweep's axes, job list and run. Each job's report arguments are read by the report's
//! own command line ([`Reports`]), so the report's rules between flags hold for each.
mod command;

use anyhow::{bail, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Command, Parser};
use std::path::PathBuf;
use std::time::Duration;

use crate::report_cli::with_report;
pub use command::command;
use command::{check_value, default_value, design_flags, first_line, numeric_default, report_command, takes_value};
use pmugen::report::family::{Device, Family, FamilyChoice};
use pmugen::report::Options;
use pmugen::sweep::plan::{self, Axes, Described, Parameter, Target};
use pmugen::sweep::runner::{self, Run, Runner};
use pmugen::sweep::{collect, local, model, values, Layout};

/// Run `pmugen sweep` with `args` (after `pmugen`).
pub fn run_args(args: &[String]) -> Result<()> {
    let matches = Command::new("pmugen")
        .subcommand(command())
        .try_get_matches_from(std::iter::once("pmugen".to_string()).chain(args.iter().cloned()))?;
    run(matches.subcommand_matches("sweep").expect("sweep"))
}

/// Run `pmugen sweep` as `matches` says.
pub fn run(matches: &ArgMatches) -> Result<()> {
    let model = matches.get_one::<String>("model").map(|terms| model::Model::parse(terms)).transpose()?;
    if let Some(dir) = matches.get_one::<PathBuf>("collect") {
        let layout = Layout::new(dir)?;
        let records = collect::collect(&layout, &layout.read()?, model.as_ref())?;
        return collect::verdict(&layout, &records);
    }
    if let Some(dir) = matches.get_one::<PathBuf>("run-job") {
        let index = *matches.get_one::<usize>("index").expect("required");
        if !runner::run_one(&Layout::new(dir)?, index, matches.get_one::<Duration>("timeout").copied())? {
            std::process::exit(1);
        }
        return Ok(());
    }
    let Some((design, matches)) = matches.subcommand() else {
        bail!("give a design (monitor or pmu) or --collect DIR")
    };
    sweep(design, matches)
}

/// Run `pmugen sweep <design>`: everything is checked before the job list is
/// written.
fn sweep(design: &str, matches: &ArgMatches) -> Result<()> {
    let axes = axes(design, matches)?;
    let model = matches.get_one::<String>("model").map(|terms| model::Model::parse(terms)).transpose()?;
    if let Some(model) = &model {
        let mut names: Vec<String> = axes.parameters.iter().map(|p| p.name.clone()).collect();
        names.extend(axes.switches.iter().map(|s| s.trim_start_matches('-').to_string()));
        model.check(&names)?;
    }
    let runner = if matches.get_flag("slurm") {
        pmugen::sweep::slurm::check()?;
        Runner::Slurm(matches.get_many::<String>("sbatch").map(|v| v.cloned().collect()).unwrap_or_default())
    } else {
        Runner::Local(plan::check_workers(matches.get_one::<usize>("jobs").copied().unwrap_or_else(local::cores))?)
    };
    let layout = Layout::new(matches.get_one::<PathBuf>("out").expect("required"))?;
    let exe = plan::executable()?;
    let sweep = plan::plan(&axes, &layout, &exe, &Reports)?;
    let run = Run {
        runner,
        timeout: matches.get_one::<Duration>("timeout").copied(),
        dry_run: matches.get_flag("dry-run"),
        model,
    };
    runner::run(&layout, &sweep, &run, &exe).map(drop)
}

/// What `pmugen sweep <design>` runs over: the design's flags with their values, each
/// checked by the report's parser, the switches, the families or devices and the seeds.
fn axes(design: &str, matches: &ArgMatches) -> Result<Axes> {
    let report = report_command(design);
    let mut axes = Axes {
        design: design.to_string(),
        parameters: Vec::new(),
        flags: Vec::new(),
        switches: Vec::new(),
        targets: Vec::new(),
        seeds: vec![None],
    };
    for arg in design_flags(&report) {
        let (id, flag) = (arg.get_id().as_str(), format!("--{}", arg.get_long().expect("long")));
        let given = matches.value_source(id) == Some(ValueSource::CommandLine);
        if !takes_value(arg) {
            if given && matches.get_flag(id) {
                axes.switches.push(flag);
            }
            continue;
        }
        let default = default_value(arg);
        let value_name = arg.get_value_names().and_then(|names| names.first()).map(|n| n.to_string());
        let name = match value_name {
            Some(name) if numeric_default(arg) => name,
            _ => flag.trim_start_matches('-').to_string(),
        };
        axes.parameters.push(Parameter { flag: flag.clone(), name, default });
        if given {
            let text = matches.get_one::<String>(id).expect("given");
            let values = values::expand(&flag, text)?;
            for value in &values {
                if let Err(error) = check_value(arg, value) {
                    bail!("{flag} {text}: {error}");
                }
            }
            axes.flags.push((flag, values));
        }
    }
    let synthesis_only = axes.switches.iter().any(|s| s == "--synth-only");
    axes.targets = targets(matches, synthesis_only)?;
    if let Some(text) = matches.get_one::<String>("seeds") {
        if synthesis_only {
            bail!("--seeds {text}: a synthesis-only sweep (--synth-only) places nothing; leave --seeds out");
        }
        let seeds = values::expand("--seeds", text)?;
        axes.seeds = seeds
            .iter()
            .map(|s| pmugen::flags::parse_seed(s).map(Some).map_err(anyhow::Error::msg))
            .collect::<Result<_>>()?;
    } else if !synthesis_only {
        axes.seeds = vec![Some(1)];
    }
    Ok(axes)
}

/// The families and devices of `--family` and `--device`.
fn targets(matches: &ArgMatches, synthesis_only: bool) -> Result<Vec<Target>> {
    let mut families: Vec<Family> = Vec::new();
    for family in matches.get_many::<FamilyChoice>("family").into_iter().flatten().flat_map(|c| c.families()) {
        if !families.contains(&family) {
            families.push(family);
        }
    }
    let devices: Vec<Device> = matches.get_many::<Device>("device").into_iter().flatten().copied().collect();
    if let Some(device) = devices.iter().find(|d| !families.is_empty() && !families.contains(&d.family)) {
        bail!("--device {} belongs to the {} family, which --family leaves out", device.short, device.family.title());
    }
    if !devices.is_empty() {
        if synthesis_only {
            bail!("--device: a synthesis-only sweep (--synth-only) places nothing; choose families with --family");
        }
        return Ok(devices.into_iter().map(|d| Target { family: d.family, device: Some(d) }).collect());
    }
    if families.is_empty() {
        families.push(Family::Ice40);
    }
    let device = |family: Family| (!synthesis_only).then(|| family.devices()[0]);
    Ok(families.into_iter().map(|family| Target { family, device: device(family) }).collect())
}

/// The report's own command line, reading each job's arguments.
struct Reports;

impl Reports {
    fn report(args: &[String]) -> Result<crate::report_cli::ReportDesign> {
        let parsed = crate::Cli::try_parse_from(std::iter::once("pmugen".to_string()).chain(args.iter().cloned()));
        match parsed {
            Ok(crate::Cli { command: crate::Command::Report { design } }) => Ok(design),
            Ok(_) => unreachable!("the arguments start with `report`"),
            Err(error) => bail!("pmugen {}: {}", args.join(" "), first_line(&error.to_string())),
        }
    }
}

impl plan::Reports for Reports {
    fn describe(&self, args: &[String]) -> Result<Described> {
        let design = Self::report(args)?;
        with_report(&design, |subject, _, _| {
            let files = subject.files().map_err(anyhow::Error::msg)?;
            Ok(Described { top: subject.top_name(), verilog: files[0].text.clone() })
        })
        .map_err(|error| anyhow::anyhow!("pmugen {}: {error:#}", args.join(" ")))
    }
    fn options(&self, args: &[String]) -> Result<Options> {
        with_report(&Self::report(args)?, |_, options, _| Ok(options.clone()))
    }
}
