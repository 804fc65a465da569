//! `pmugen sweep`'s command line (docs/report.md §8): built from `pmugen report
//! <design>`'s own flags, read from that command, so every parameter a design gains
//! joins the sweep by itself. Each flag that takes a value takes a list or a range
//! there, checked value by value by the report's own parser.
use clap::builder::{NonEmptyStringValueParser, Resettable};
use clap::{Arg, ArgAction, Command, CommandFactory};
use std::path::PathBuf;

use crate::cli::parse_device;
use pmugen::report::family::FamilyChoice;
use pmugen::sweep::values;

/// `report <design>` flags that are not the design's: the sweep has its own output,
/// families, devices and seeds, and a sweep of budgets alone is `--budget-only`'s
/// business, not a sweep's.
const NOT_SWEPT: [&str; 9] =
    ["out", "sweep", "sweep_events", "compare", "family", "device", "seed", "budget_only", "help"];

const EXAMPLES: &str = "Example:\n  \
    pmugen sweep monitor --events 2..=8 --family ice40,ecp5 --synth-only --out target/sweep-monitor\n  \
    pmugen sweep pmu --threads 1,2,4 --counters 1..=4 --no-fmax --jobs 2 --out target/sweep-pmu\n  \
    pmugen sweep pmu --threads 1,2,4 --family ecp5 --seeds 1..=3 --out /scratch/sweep --slurm -- \\\n      \
    --partition=short --time=02:00:00 --mem=4G\n  \
    pmugen sweep --collect /scratch/sweep";

/// The `report <design>` command.
pub fn report_command(design: &str) -> Command {
    let mut base = crate::Cli::command();
    base.build();
    base.find_subcommand("report").and_then(|r| r.find_subcommand(design)).expect("report has the design").clone()
}

/// The design's flags of `report`: (flag, takes a value).
pub fn design_flags(report: &Command) -> Vec<&Arg> {
    report.get_arguments().filter(|a| a.get_long().is_some() && !NOT_SWEPT.contains(&a.get_id().as_str())).collect()
}

/// `arg` without its rules about other flags.
pub fn unbound(arg: &Arg) -> Arg {
    arg.clone().conflicts_with(Resettable::Reset).requires(Resettable::Reset).overrides_with(Resettable::Reset)
}

/// Check `value` with `arg`'s own parser: the parser's message when it is refused.
pub fn check_value(arg: &Arg, value: &str) -> Result<(), String> {
    let flag = format!("--{}", arg.get_long().expect("long"));
    let command = Command::new("check").no_binary_name(true).arg(unbound(arg));
    command
        .try_get_matches_from([flag.as_str(), value])
        .map(drop)
        .map_err(|error| first_line(&error.to_string()).to_string())
}

/// The flag's default, when it has one.
pub fn default_value(arg: &Arg) -> Option<String> {
    arg.get_default_values().first().map(|v| v.to_string_lossy().into_owned())
}

/// A flag whose default is a number is a numeric parameter: its results column is
/// named by its value (`T`, `CW`, `E`).
pub fn numeric_default(arg: &Arg) -> bool {
    default_value(arg).is_some_and(|d| d.parse::<f64>().is_ok())
}

pub fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

/// The sweep's command for `design`: the report's design flags, then the sweep's own.
pub fn design_command(design: &'static str) -> Command {
    let report = report_command(design);
    let mut command = Command::new(design)
        .about(format!(
            "Sweep {}: every combination of its flags' lists and ranges, a job each.",
            report
                .get_about()
                .map_or(design.to_string(), |a| a.to_string().replacen("The ", "the ", 1))
                .trim_end_matches('.')
        ))
        .after_help(EXAMPLES);
    for arg in design_flags(&report) {
        // The sweep reads every combination itself; the report's own rules between
        // flags are applied to each job's arguments (plan.rs).
        let arg = unbound(arg);
        command = command.arg(if takes_value(&arg) {
            let help = arg.get_help().map_or(String::new(), |h| h.to_string());
            let help = if help.ends_with('.') { help } else { format!("{help}.") };
            let several = match numeric_default(&arg) {
                true => "Several: a list 1,2,4 or a range 1..=4, a job each.",
                false => "Several: a comma-separated list, a job each.",
            };
            arg.value_parser(NonEmptyStringValueParser::new()).help(format!("{help} {several}"))
        } else {
            arg
        });
    }
    command
        .arg(Arg::new("family").long("family").value_name("FAMILY").value_delimiter(',').value_parser(clap::value_parser!(FamilyChoice))
            .help("The families, comma separated (ice40, ecp5, gowin, xc7, all; default ice40): a job each, on the family's first device (or synthesis only with --synth-only)."))
        .arg(Arg::new("device").long("device").value_name("DEVICE").value_delimiter(',').value_parser(parse_device)
            .help("Place on these devices instead, comma separated (hx8k, up5k, lfe5u-25f, lfe5u-45f, lfe5u-85f, gw1nr-9, xc7a35t): a job each."))
        .arg(Arg::new("seeds").long("seeds").value_name("LIST")
            .help("Placement seeds, a list 1,2,3 or a range 1..=3: a job each (default 1; none with --synth-only)."))
        .arg(Arg::new("out").long("out").value_name("DIR").required(true).value_parser(clap::value_parser!(PathBuf))
            .help("The sweep's directory: jobs.json, runs/, logs/, results/, and the merged results.json, results.csv, results.md, results.svg."))
        .arg(Arg::new("jobs").long("jobs").value_name("N").value_parser(clap::value_parser!(usize)).conflicts_with("slurm")
            .help("Run N jobs at a time on this machine (default: its cores)."))
        .arg(Arg::new("slurm").long("slurm").action(ArgAction::SetTrue)
            .help("Submit the jobs as one Slurm job array with sbatch and wait for it; arguments after -- go to sbatch (e.g. -- --partition=short --time=02:00:00 --mem=4G)."))
        .arg(Arg::new("sbatch").value_name("SBATCH ARGS").num_args(0..).last(true).allow_hyphen_values(true).requires("slurm")
            .help("With --slurm, after --: arguments for sbatch (partition, time limit, memory, account ...)."))
        .arg(timeout_arg())
        .arg(Arg::new("dry_run").long("dry-run").action(ArgAction::SetTrue)
            .help("Write jobs.json and print the commands that would run; run nothing."))
        .arg(model_arg())
}

pub fn timeout_arg() -> Arg {
    Arg::new("timeout").long("timeout").value_name("TIME").value_parser(values::parse_duration)
        .help("Stop a job after TIME (90s, 30m, 2h; a bare number is minutes), its report and tools with it: reported as timed out, with its log.")
}

pub fn model_arg() -> Arg {
    Arg::new("model").long("model").value_name("TERMS")
        .help("Fit the LUTs of each family to these terms by least squares, e.g. 'T*K*CW + T*K + T + log2(D) + 1': model.md and model.json.")
}

/// `pmugen sweep`.
pub fn command() -> Command {
    Command::new("sweep")
        .about("Report many configurations as a job list: run on this machine's cores or as a Slurm job array, results merged into results.json, .csv, .md and a plot.")
        .after_help(EXAMPLES)
        .arg_required_else_help(true)
        .args_conflicts_with_subcommands(true)
        .arg(Arg::new("collect").long("collect").value_name("DIR").value_parser(clap::value_parser!(PathBuf))
            .help("Merge the results in DIR (a sweep's --out), saying what is missing or failed; runs nothing."))
        .arg(Arg::new("run_job").long("run-job").value_name("DIR").value_parser(clap::value_parser!(PathBuf)).requires("index").conflicts_with("collect").hide(true))
        .arg(Arg::new("index").long("index").value_name("I").value_parser(clap::value_parser!(usize)).requires("run_job").hide(true))
        .arg(timeout_arg().requires("run_job"))
        .arg(model_arg().requires("collect"))
        .subcommand(design_command("monitor"))
        .subcommand(design_command("pmu"))
}

/// The first line of a command-line error, without clap's `error: `.
pub fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default().trim_start_matches("error: ")
}
