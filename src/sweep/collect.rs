//! Merge a sweep's results (docs/report.md §8.3): each job's result file, when it is of
//! the job's inputs, else a record saying why it is missing; then `results.json`,
//! `results.csv`, `results.md`, the plot `results.svg` and, where they apply, the
//! monitor's N view and the area model. Every job that did not succeed is named with
//! its log, never dropped.
use anyhow::{bail, Result};
use std::fmt::Write;

use super::job::tail;
use super::record::{Record, Status};
use super::{model, monitor_view, plot, slurm, table, write_atomically, Job, Layout, Sweep};

/// The result of `job` in `layout` when there is one of the job's very inputs.
pub fn current(layout: &Layout, job: &Job) -> Option<Record> {
    let text = std::fs::read_to_string(layout.result(&job.name)).ok()?;
    serde_json::from_str::<Record>(&text).ok().filter(|record| record.inputs == job.inputs)
}

/// Is `job` done: a result of its inputs that succeeded? (A failed job runs again.)
pub fn done(layout: &Layout, job: &Job) -> bool {
    current(layout, job).is_some_and(|record| record.status == Status::Ok)
}

/// `job`'s record: its current result, or a missing one saying why.
fn record(layout: &Layout, index: usize, job: &Job) -> Record {
    if let Some(record) = current(layout, job) {
        // The job list names the job: a parameter the design gained since (at its
        // default, so with the same Verilog and arguments) joins the record.
        let mut record = record;
        record.id.parameters = job.parameters.clone();
        return record;
    }
    let log = layout.log(&job.name);
    let log_name = log.strip_prefix(&layout.dir).unwrap_or(&log).display().to_string();
    let mut record = Record::empty(job, Status::Missing, log_name);
    let stale = layout.result(&job.name).exists();
    let mut why = if stale {
        "its result file is of other inputs (the Verilog, the tools or the flags changed): run the sweep again"
            .to_string()
    } else {
        "no result file: the job has not run, is still running, or was stopped before it finished".to_string()
    };
    if let Some(output) = slurm::task_output(layout, index) {
        let text = std::fs::read_to_string(&output).unwrap_or_default();
        let _ = write!(why, "; its Slurm task's output {} ends:\n{}", output.display(), tail(&text, 8));
    }
    record.message = Some(why);
    record
}

/// Merge the results of `sweep` in `layout` into the merged files, fitting `model`
/// when one is given; the records, in job order. Prints what it wrote and each job
/// that did not succeed.
pub fn collect(layout: &Layout, sweep: &Sweep, model: Option<&model::Model>) -> Result<Vec<Record>> {
    let records: Vec<Record> = sweep.jobs.iter().enumerate().map(|(i, job)| record(layout, i, job)).collect();
    let dir = &layout.dir;
    write_atomically(&dir.join("results.json"), &(serde_json::to_string_pretty(&records)? + "\n"))?;
    write_atomically(&dir.join("results.csv"), &table::csv(sweep, &records))?;
    write_atomically(&dir.join("results.md"), &table::markdown(sweep, &records))?;
    write_atomically(&dir.join("results.svg"), &plot::svg(sweep, &records))?;
    let mut written = vec!["results.json", "results.csv", "results.md", "results.svg"];
    if let Some(view) = monitor_view::view(sweep, &records) {
        write_atomically(&dir.join("sweep.md"), &view.markdown)?;
        write_atomically(&dir.join("sweep.svg"), &view.svg)?;
        written.extend(["sweep.md", "sweep.svg"]);
    }
    if let Some(model) = model {
        let fit = model::fit_families(model, &records)?;
        write_atomically(&dir.join("model.md"), &model::markdown(model, &fit))?;
        write_atomically(&dir.join("model.json"), &(serde_json::to_string_pretty(&fit)? + "\n"))?;
        write_atomically(&dir.join("model.svg"), &plot::model_svg(&fit))?;
        written.extend(["model.md", "model.json", "model.svg"]);
        for family in &fit {
            eprintln!(
                "sweep: {} model of {}: max relative error {:.1} %, mean {:.1} % over {} configurations",
                family.family.title(),
                family.figure,
                family.max_relative_error * 100.0,
                family.mean_relative_error * 100.0,
                family.points
            );
        }
    }
    let count = |status: Status| records.iter().filter(|r| r.status == status).count();
    println!(
        "sweep {}: {} jobs: {} ok, {} failed, {} timed out, {} missing; wrote {}",
        dir.display(),
        records.len(),
        count(Status::Ok),
        count(Status::Failed),
        count(Status::TimedOut),
        count(Status::Missing),
        written.join(", ")
    );
    for record in records.iter().filter(|r| r.status != Status::Ok) {
        let message = record.message.as_deref().unwrap_or_default().replace('\n', "\n    ");
        println!("  {} {} (log: {}): {message}", record.status.text(), record.name, record.log);
    }
    Ok(records)
}

/// Fail, naming how many, when a job did not succeed (after the merge wrote them all).
pub fn verdict(layout: &Layout, records: &[Record]) -> Result<()> {
    let bad: Vec<String> = records
        .iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| format!("{} ({})", r.name, r.status.text()))
        .collect();
    if !bad.is_empty() {
        bail!(
            "{} of {} jobs did not succeed: {}; each is listed above with its log, and {}/results.md marks them",
            bad.len(),
            records.len(),
            bad.join(", "),
            layout.dir.display()
        );
    }
    Ok(())
}
