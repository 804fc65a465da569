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

/// The sweep's own flags, in the order `--help` lists them.
const SWEEP_ORDER: [&str; 10] =
    ["family", "device", "seeds", "out", "jobs", "slurm", "timeout", "dry-run", "model", "sbatch"];

const EXAMPLES: &str = "Example:\n  \
    pmugen sweep monitor --events 2..=8 --family ice40,ecp5 --synth-only --out target/sweep-monitor\n  \
    pmugen sweep pmu --threads 1,2,4 --counters 1..=4 --no-fmax --jobs 2 --out target/sweep-pmu\n  \
    pmugen sweep pmu --threads 1,2,4 --family ecp5 --seeds 1..=3 --out /scratch/sweep --slurm -- \\\n      \
    --partition=short --time=02:00:00 --mem=1G\n  \
    pmugen sweep --collect /scratch/sweep";

/// The `report <design>` command.
pub fn report_command(design: &str) -> Command {
    let mut base = crate::Cli::command();
    base.build();
    base.find_subcommand("report").and_then(|r| r.find_subcommand(design)).expect("report has the design").clone()
}

/// The design's flags of `report`, in its order.
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

/// Does the flag take a value (else it is a switch)?
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
    let design_ids: Vec<&str> = design_flags(&report).iter().map(|a| a.get_id().as_str()).collect();
    for (order, arg) in design_flags(&report).into_iter().enumerate() {
        // The sweep reads every combination itself; the report's own rules between
        // flags are applied to each job's arguments (plan.rs).
        let arg = unbound(arg).display_order(order);
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
        .arg(
            option(
                "family",
                "FAMILY",
                "The families, comma separated (ice40, ecp5, gowin, xc7, all; default ice40): a \
                                        job each, on the family's first device (or synthesis only, --synth-only).",
            )
            .value_delimiter(',')
            .value_parser(clap::value_parser!(FamilyChoice)),
        )
        .arg(
            option(
                "device",
                "DEVICE",
                "Place on these devices instead, comma separated (hx8k, up5k, lfe5u-25f, \
                                        lfe5u-45f, lfe5u-85f, gw1nr-9, xc7a35t): a job each.",
            )
            .value_delimiter(',')
            .value_parser(parse_device),
        )
        .arg(option(
            "seeds",
            "LIST",
            "Placement seeds, a list 1,2,3 or a range 1..=3: a job each (default 1; none \
                                      with --synth-only).",
        ))
        .arg(
            option(
                "out",
                "DIR",
                "The sweep's directory: jobs.json, runs/, logs/, results/, and the merged \
                                  results.json, results.csv, results.md, results.svg.",
            )
            .required(true)
            .value_parser(clap::value_parser!(PathBuf)),
        )
        .arg(
            option("jobs", "N", "Run N jobs at a time on this machine (default: its cores).")
                .value_parser(clap::value_parser!(usize))
                .conflicts_with("slurm"),
        )
        .arg(switch(
            "slurm",
            "Submit the jobs as one Slurm job array with sbatch and wait for it; arguments after -- \
                              go to sbatch (e.g. -- --partition=short --time=02:00:00 --mem=1G).",
        ))
        .arg(
            Arg::new("sbatch")
                .value_name("SBATCH ARGS")
                .num_args(0..)
                .last(true)
                .allow_hyphen_values(true)
                .requires("slurm")
                .help("With --slurm, after --: arguments for sbatch (partition, time limit, memory, account ...)."),
        )
        .arg(timeout_arg())
        .arg(switch("dry-run", "Write jobs.json and print the commands that would run; run nothing."))
        .arg(model_arg())
        // The design's flags first, in the report's order, then the sweep's own.
        .mut_args(|arg| match design_ids.iter().position(|id| *id == arg.get_id().as_str()) {
            Some(_) => arg,
            None => {
                let order =
                    design_ids.len() + SWEEP_ORDER.iter().position(|id| *id == arg.get_id().as_str()).unwrap_or(0);
                arg.display_order(order)
            }
        })
}

/// An option `--<long>` taking `value`.
fn option(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    Arg::new(long).long(long).value_name(value).help(help)
}

/// A switch `--<long>`.
fn switch(long: &'static str, help: &'static str) -> Arg {
    Arg::new(long).long(long).action(ArgAction::SetTrue).help(help)
}

fn timeout_arg() -> Arg {
    option(
        "timeout",
        "TIME",
        "Stop a job after TIME (90s, 30m, 2h; a bare number is minutes), its report and tools \
                               with it: reported as timed out, with its log.",
    )
    .value_parser(values::parse_duration)
}

fn model_arg() -> Arg {
    option(
        "model",
        "TERMS",
        "Fit each family's LUTs to these terms by least squares, e.g. 'T*K*CW + T*K + T + \
                              log2(D) + 1': model.md and model.json.",
    )
}

/// `pmugen sweep`.
pub fn command() -> Command {
    Command::new("sweep")
        .about(
            "Report many configurations as a job list: run on this machine's cores or as a Slurm job array, \
                results merged into results.json, .csv, .md and a plot.",
        )
        .after_help(EXAMPLES)
        .arg_required_else_help(true)
        .args_conflicts_with_subcommands(true)
        .arg(
            option(
                "collect",
                "DIR",
                "Merge the results in DIR (a sweep's --out), saying what is missing or failed; \
                                      runs nothing.",
            )
            .value_parser(clap::value_parser!(PathBuf)),
        )
        .arg(
            option(
                "run-job",
                "DIR",
                "Run job --index I of DIR's jobs.json and write its result: what each Slurm \
                                      task runs, and how to run a sweep under another scheduler (docs/report.md §8.4).",
            )
            .value_parser(clap::value_parser!(PathBuf))
            .requires("index")
            .conflicts_with("collect"),
        )
        .arg(
            option("index", "I", "With --run-job: the job's index in jobs.json (from 0).")
                .value_parser(clap::value_parser!(usize))
                .requires("run-job"),
        )
        .arg(timeout_arg().requires("run-job"))
        .arg(model_arg().requires("collect"))
        .subcommand(design_command("monitor"))
        .subcommand(design_command("pmu"))
}

/// The first line of a command-line error, without clap's `error: `.
pub fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default().trim_start_matches("error: ")
}
