//! A sweep from its job list to its merged results (docs/report.md §8.2): write
//! `jobs.json`, leave out every job whose result of the same inputs is there, run the
//! rest on this machine or through Slurm, then merge.
use anyhow::Result;
use std::time::Duration;

use super::record::{Record, Status};
use super::{collect, job, local, model, slurm, write_atomically, Layout, Sweep};

/// Where the jobs run.
#[derive(Clone, Debug)]
pub enum Runner {
    /// On this machine, this many at a time (`--jobs N`).
    Local(usize),
    /// As a Slurm job array, with these extra `sbatch` arguments (`--slurm -- ARGS`).
    Slurm(Vec<String>),
}

/// How a sweep runs.
#[derive(Clone, Debug)]
pub struct Run {
    /// Where.
    pub runner: Runner,
    /// Stop a job after this long.
    pub timeout: Option<Duration>,
    /// Write the job list and say what would run, but run nothing.
    pub dry_run: bool,
    /// The area model to fit when merging.
    pub model: Option<model::Model>,
}

/// Write `sweep`'s job list into `layout`, run the jobs without a current result as
/// `run` says, with `exe` as the pmugen the jobs run, and merge; fails naming every
/// job that did not succeed.
pub fn run(layout: &Layout, sweep: &Sweep, run: &Run, exe: &str) -> Result<Vec<Record>> {
    crate::generate::output_dir(&layout.dir, "--out")?;
    write_atomically(&layout.jobs(), &(serde_json::to_string_pretty(sweep)? + "\n"))?;
    let pending: Vec<usize> = (0..sweep.jobs.len()).filter(|&i| !collect::done(layout, &sweep.jobs[i])).collect();
    let current = sweep.jobs.len() - pending.len();
    let runner = match &run.runner {
        Runner::Local(workers) => format!("on this machine, {workers} at a time"),
        Runner::Slurm(_) => "as a Slurm job array".to_string(),
    };
    println!(
        "sweep {}: {} jobs in jobs.json; {current} have a result of the same inputs and are not run again; \
         {} to run {runner}",
        layout.dir.display(),
        sweep.jobs.len(),
        pending.len()
    );
    if run.dry_run {
        for &i in &pending {
            println!("  {}", sweep.jobs[i].command.join(" "));
        }
        return Ok(Vec::new());
    }
    if pending.is_empty() {
        println!("sweep: nothing to run");
    } else {
        let jobs: Vec<_> = pending.iter().map(|&i| &sweep.jobs[i]).collect();
        match &run.runner {
            Runner::Local(workers) => drop(local::run(layout, &jobs, *workers, run.timeout)?),
            Runner::Slurm(sbatch_args) => {
                let ids = slurm::submit(layout, &pending, exe, run.timeout, sbatch_args)?;
                slurm::wait(layout, &ids, &jobs)?;
            }
        }
    }
    let records = collect::collect(layout, sweep, run.model.as_ref())?;
    collect::verdict(layout, &records)?;
    Ok(records)
}

/// Run job `index` of the sweep in `layout` (what each Slurm task does): true when
/// it succeeded.
pub fn run_one(layout: &Layout, index: usize, timeout: Option<Duration>) -> Result<bool> {
    let sweep = layout.read()?;
    let Some(job) = sweep.jobs.get(index) else {
        anyhow::bail!(
            "--index {index}: {} has {} jobs (0..={})",
            layout.jobs().display(),
            sweep.jobs.len(),
            sweep.jobs.len().saturating_sub(1)
        );
    };
    job::stop_jobs_on_signals();
    let record = job::run(layout, job, timeout)?;
    eprintln!("{}", local::progress_line(1, 1, &record));
    if let Some(message) = &record.message {
        eprintln!("{message}");
    }
    Ok(record.status == Status::Ok)
}
