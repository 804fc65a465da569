//! The Slurm runner (`--slurm`, docs/report.md §8.4): the jobs still to run are
//! submitted with `sbatch` as one job array (one task per job, `sbatch`'s extra
//! arguments passed through; more than 1,000 jobs go in one array per thousand, under
//! Slurm's default MaxArraySize), each task runs `pmugen sweep --run-job` for its job,
//! and pmugen waits for the array by polling `squeue`, printing each result as its
//! file appears. Interrupting the wait leaves the array running.
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use super::local::progress_line;
use super::record::Record;
use super::{Job, Layout};
use pmugen_sim::tools::on_path;

/// Jobs per array: task indices stay within 0..=999, under Slurm's default MaxArraySize
/// (1001).
const PER_ARRAY: usize = 1000;

/// Run `program args` and give (success, stdout and stderr).
fn output(program: &str, args: &[&str]) -> Result<(bool, String)> {
    let out = Command::new(program).args(args).output().with_context(|| format!("running {program}"))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok((out.status.success(), text.trim().to_string()))
}

/// Check, before anything is written, that Slurm's commands are here and its
/// controller answers.
pub fn check() -> Result<()> {
    for command in ["sbatch", "squeue", "scontrol"] {
        if !on_path(command) {
            bail!(
                "--slurm: `{command}` not found on PATH: run the sweep where Slurm's commands are (a cluster's login \
                 node; Debian's package slurm-client), or run it here with --jobs N"
            );
        }
    }
    let conf = std::env::var("SLURM_CONF").ok();
    // scontrol waits up to a minute for a configuration file that is not there.
    if let Some(path) = conf.as_deref().filter(|path| !std::path::Path::new(path).is_file()) {
        bail!("--slurm: SLURM_CONF={path}: no such file; Slurm's commands cannot find the cluster");
    }
    // A controller that answers is enough: with a backup controller down, `scontrol
    // ping` fails but the primary takes jobs.
    let (_, said) = output("scontrol", &["ping"])?;
    if !said.contains("is UP") {
        let said = said.lines().next().unwrap_or("nothing");
        let place = conf.map_or("its configuration in /etc/slurm".to_string(), |path| format!("SLURM_CONF={path}"));
        bail!(
            "--slurm: Slurm is not running or this machine cannot reach its controller ({place}): \
             `scontrol ping` says: {said}"
        );
    }
    Ok(())
}

/// Task indices as an array specification: `0-3,5,7-9`.
pub fn array_spec(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    for &index in indices {
        run = match run {
            Some((first, last)) if index == last + 1 => Some((first, index)),
            Some(done) => {
                parts.push(range_text(done));
                Some((index, index))
            }
            None => Some((index, index)),
        };
    }
    parts.extend(run.map(range_text));
    parts.join(",")
}

fn range_text((first, last): (usize, usize)) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    }
}

/// Slurm's output of job `index`'s task (what the task printed before and around its
/// job, e.g. Slurm's own "CANCELLED ... DUE TO TIME LIMIT"), when there is one.
pub fn task_output(layout: &Layout, index: usize) -> Option<PathBuf> {
    let suffix = format!("-o{}-{}.out", index / PER_ARRAY * PER_ARRAY, index % PER_ARRAY);
    let entries = std::fs::read_dir(layout.dir.join("logs")).ok()?;
    let mut outputs: Vec<(SystemTime, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("slurm-") && n.ends_with(&suffix))
        })
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    outputs.sort();
    outputs.pop().map(|(_, path)| path)
}

/// Submit the jobs `pending` (indices into the job list) of the sweep in `layout` as
/// job arrays, each task running `exe sweep --run-job`, with `sbatch_args` passed to
/// `sbatch`; the arrays' job IDs.
pub fn submit(
    layout: &Layout,
    pending: &[usize],
    exe: &str,
    timeout: Option<Duration>,
    sbatch_args: &[String],
) -> Result<Vec<String>> {
    let dir = layout.dir.display().to_string();
    let scripts = layout.dir.join("slurm");
    std::fs::create_dir_all(&scripts)?;
    std::fs::create_dir_all(layout.dir.join("logs"))?;
    let timeout = timeout.map_or(String::new(), |limit| format!(" --timeout {}s", limit.as_secs()));
    let mut ids = Vec::new();
    for chunk in pending.chunk_by(|a, b| a / PER_ARRAY == b / PER_ARRAY) {
        let offset = chunk[0] / PER_ARRAY * PER_ARRAY;
        let script = scripts.join(format!("sweep-o{offset}.sbatch"));
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n# One task per job of {dir}/jobs.json: task i runs job {offset} + i \
                 (docs/report.md §8.4).\n\
                 #SBATCH --job-name=pmugen-sweep\n#SBATCH --output={dir}/logs/slurm-%A-o{offset}-%a.out\n\
                 exec '{exe}' sweep --run-job '{dir}' --index \"$((SLURM_ARRAY_TASK_ID + {offset}))\"{timeout}\n"
            ),
        )?;
        let indices: Vec<usize> = chunk.iter().map(|i| i - offset).collect();
        let array = format!("--array={}", array_spec(&indices));
        let mut args: Vec<&str> = vec!["--parsable", &array];
        args.extend(sbatch_args.iter().map(String::as_str));
        let script_text = script.display().to_string();
        args.push(&script_text);
        let (submitted, said) = output("sbatch", &args)?;
        if !submitted {
            bail!("sbatch {} refused the job array: {said}", args.join(" "));
        }
        let id = said.lines().last().unwrap_or_default().split(';').next().unwrap_or_default().trim().to_string();
        eprintln!("sweep: submitted job array {id} ({} tasks, {})", chunk.len(), script.display());
        ids.push(id);
    }
    eprintln!(
        "sweep: waiting for the arrays (`squeue -j {}`); interrupting this leaves them running: \
         `pmugen sweep --collect {dir}` merges what is there, `scancel {}` stops them",
        ids.join(","),
        ids.join(" ")
    );
    Ok(ids)
}

/// Wait until no task of the arrays `ids` is queued or running, printing each of
/// `jobs`' results as its file appears and a line every 30 s.
pub fn wait(layout: &Layout, ids: &[String], jobs: &[&Job]) -> Result<()> {
    let (started, since) = (Instant::now(), SystemTime::now() - Duration::from_secs(2));
    let mut seen = BTreeSet::new();
    let mut last_line = Instant::now();
    let joined = ids.join(",");
    let mut failures = 0;
    loop {
        for job in jobs {
            if seen.contains(&job.name) {
                continue;
            }
            let path = layout.result(&job.name);
            let fresh = std::fs::metadata(&path).and_then(|m| m.modified()).is_ok_and(|m| m >= since);
            let record = fresh.then(|| std::fs::read_to_string(&path).ok()).flatten();
            if let Some(record) = record.and_then(|text| serde_json::from_str::<Record>(&text).ok()) {
                seen.insert(job.name.clone());
                eprintln!("{}", progress_line(seen.len(), jobs.len(), &record));
            }
        }
        let (answered, queued) = output("squeue", &["-h", "-o", "%i %t", "-j", &joined])?;
        if answered || queued.contains("Invalid job id") {
            failures = 0;
            let queued = if answered { queued } else { String::new() };
            if queued.is_empty() {
                return Ok(());
            }
            if last_line.elapsed() > Duration::from_secs(30) {
                let running = queued.lines().filter(|l| l.ends_with(" R")).count();
                eprintln!(
                    "sweep: {} of {} jobs done, {running} tasks running ({:.0} s)",
                    seen.len(),
                    jobs.len(),
                    started.elapsed().as_secs_f64()
                );
                last_line = Instant::now();
            }
        } else {
            failures += 1;
            if failures == 30 {
                bail!(
                    "squeue stopped answering ({queued}); the arrays {joined} may still run: `pmugen sweep \
                     --collect {}` merges what is there later",
                    layout.dir.display()
                );
            }
        }
        std::thread::sleep(Duration::from_millis(1000));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_specifications_join_runs_of_indices() {
        assert_eq!(array_spec(&[0, 1, 2, 3, 5, 7, 8, 9]), "0-3,5,7-9");
        assert_eq!(array_spec(&[4]), "4");
        assert_eq!(array_spec(&[1, 3]), "1,3");
    }
}
