//! The job list of a sweep (docs/report.md §8.1): every combination of the swept
//! flags' values (the first flag outermost), then each family or device, then each
//! placement seed. Each job's report arguments are checked by the command line's own
//! parser and design checks, and its inputs (the Verilog's hash, the tools' versions)
//! found, before anything is written.
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::time::Instant;

use super::{text_hash, Inputs, Job, JobId, Layout, Sweep};
use crate::report::family::{Device, Family};
use crate::report::{self, Options};

/// A family, and the device a job places on (none: synthesis only).
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The family.
    pub family: Family,
    /// The device; none for a synthesis-only job.
    pub device: Option<Device>,
}

/// A flag of the design that takes a value, as a job's parameter.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// The flag (`--threads`).
    pub flag: String,
    /// Its name in the results: the value's name for a number (`T`), else the flag's
    /// (`matcher`).
    pub name: String,
    /// Its value when the flag is not given.
    pub default: Option<String>,
}

/// What a sweep runs over.
#[derive(Clone, Debug)]
pub struct Axes {
    /// `monitor` or `pmu`.
    pub design: String,
    /// Every flag of the design that takes a value, in the design's order.
    pub parameters: Vec<Parameter>,
    /// Each flag of the design given on the command line, with its values.
    pub flags: Vec<(String, Vec<String>)>,
    /// The switches given (flags without a value: `--no-serial`, `--synth-only`, ...).
    pub switches: Vec<String>,
    /// The families and devices.
    pub targets: Vec<Target>,
    /// The placement seeds (a single none for synthesis only).
    pub seeds: Vec<Option<u64>>,
}

/// A design as the command line makes it from a report's arguments.
pub struct Described {
    /// The top module.
    pub top: String,
    /// The generated Verilog the report synthesizes.
    pub verilog: String,
}

/// How the command line reads `pmugen report <design> ...` arguments.
pub trait Reports {
    /// The design of the report arguments `args`, every flag and design rule checked.
    fn describe(&self, args: &[String]) -> Result<Described>;
    /// The options the report of `args` runs with.
    fn options(&self, args: &[String]) -> Result<Options>;
}

/// Every combination of `flags`' values, the first flag outermost: each as the flag
/// and value pairs.
pub fn combinations(flags: &[(String, Vec<String>)]) -> Vec<Vec<(String, String)>> {
    flags.iter().fold(vec![Vec::new()], |partial, (flag, values)| {
        partial
            .iter()
            .flat_map(|head| values.iter().map(move |v| [head.clone(), vec![(flag.clone(), v.clone())]].concat()))
            .collect()
    })
}

/// A configuration's parameters: each flag's value, given or default, and `yes` for
/// each switch given.
fn parameters(axes: &Axes, configuration: &[(String, String)]) -> BTreeMap<String, String> {
    let mut parameters = BTreeMap::new();
    for parameter in &axes.parameters {
        let given = configuration.iter().find(|(flag, _)| *flag == parameter.flag).map(|(_, value)| value);
        if let Some(value) = given.or(parameter.default.as_ref()) {
            parameters.insert(parameter.name.clone(), value.clone());
        }
    }
    for switch in &axes.switches {
        parameters.insert(switch.trim_start_matches('-').to_string(), "yes".to_string());
    }
    parameters
}

/// The job list of `axes`, each job's report written under `layout` and run by `exe`.
pub fn plan(axes: &Axes, layout: &Layout, exe: &str, reports: &dyn Reports) -> Result<Sweep> {
    let configurations = combinations(&axes.flags);
    let mut jobs: Vec<Job> = Vec::new();
    let mut versions: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut parameter_names: Vec<String> = axes.parameters.iter().map(|p| p.name.clone()).collect();
    parameter_names.extend(axes.switches.iter().map(|s| s.trim_start_matches('-').to_string()));
    let mut last_line = Instant::now();
    for (number, configuration) in configurations.iter().enumerate() {
        if last_line.elapsed().as_secs() >= 5 {
            eprintln!("sweep: generating configuration {} of {} ...", number + 1, configurations.len());
            last_line = Instant::now();
        }
        let mut args = vec!["report".to_string(), axes.design.clone()];
        args.extend(configuration.iter().flat_map(|(flag, value)| [flag.clone(), value.clone()]));
        args.extend(axes.switches.iter().cloned());
        let described = reports.describe(&args)?;
        let verilog = text_hash(&described.verilog);
        let parameters = parameters(axes, configuration);
        for target in &axes.targets {
            for &seed in &axes.seeds {
                let mut arguments = args.clone();
                match target.device {
                    Some(device) => arguments.extend(["--device".to_string(), device.short.to_string()]),
                    None => arguments.extend(["--family".to_string(), target.family.key().to_string()]),
                }
                arguments.extend(seed.map(|s| ["--seed".to_string(), s.to_string()]).into_iter().flatten());
                let options = reports.options(&arguments)?;
                let placing = options.place && !options.synthesis_only;
                let key = format!("{:?} {:?} {placing}", options.toolchain, options.families);
                if !versions.contains_key(&key) {
                    report::require_tools(&options)?;
                    versions.insert(key.clone(), report::tool_versions(&options, &std::env::temp_dir()));
                }
                let place = target.device.map_or(target.family.key(), |d| d.short);
                let mut name = format!("{}-{place}{}", described.top, seed.map_or(String::new(), |s| format!("-s{s}")));
                if jobs.iter().any(|job| job.name == name) {
                    name = format!("{name}-{}", jobs.len());
                }
                let mut command = vec![exe.to_string()];
                command.extend(arguments.iter().cloned());
                command.extend(["--out".to_string(), layout.run_dir(&name).display().to_string()]);
                jobs.push(Job {
                    id: JobId {
                        name,
                        design: described.top.clone(),
                        parameters: parameters.clone(),
                        family: target.family,
                        device: target.device.map(|d| d.short.to_string()),
                        seed,
                    },
                    command,
                    inputs: Inputs {
                        verilog: verilog.clone(),
                        generator: env!("CARGO_PKG_VERSION").to_string(),
                        tools: versions[&key].clone(),
                        arguments,
                    },
                });
            }
        }
    }
    if jobs.is_empty() {
        bail!("the sweep has no jobs: give at least one family");
    }
    parameter_names.retain(|name| jobs[0].parameters.contains_key(name));
    let swept = parameter_names
        .iter()
        .filter(|name| {
            let mut values = jobs.iter().map(|job| job.parameters.get(*name));
            let first = values.next().flatten();
            values.any(|value| value != first)
        })
        .cloned()
        .collect();
    Ok(Sweep { design: axes.design.clone(), parameters: parameter_names, swept, jobs })
}

/// Check that `workers` is a usable `--jobs`.
pub fn check_workers(workers: usize) -> Result<usize> {
    let most = super::job::MOST_AT_ONCE;
    if workers == 0 || workers > most {
        bail!("--jobs {workers}: give 1..={most} jobs at a time");
    }
    Ok(workers)
}

/// pmugen's own absolute path, which the job commands run.
pub fn executable() -> Result<String> {
    let exe = std::env::current_exe().context("finding pmugen's own path for the job commands")?;
    Ok(exe.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_run_the_first_flag_outermost() {
        let flags = vec![
            ("--threads".to_string(), vec!["1".into(), "2".into()]),
            ("--counters".into(), vec!["3".into(), "4".into()]),
        ];
        let text: Vec<String> = combinations(&flags)
            .iter()
            .map(|c| c.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>().join(","))
            .collect();
        assert_eq!(text, ["1,3", "1,4", "2,3", "2,4"]);
        assert_eq!(combinations(&[]), vec![Vec::<(String, String)>::new()], "no flag: the one default configuration");
    }
}
