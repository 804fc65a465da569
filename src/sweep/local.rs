//! The local runner (`--jobs N`, docs/report.md §8.2): N jobs at a time on this
//! machine, each in its own process group, a line per finished job and a line every
//! 30 s while jobs run, so a long sweep never looks hung.
use anyhow::Result;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::job;
use super::record::{Record, Status};
use super::{Job, Layout};

/// The default `--jobs`: this machine's cores.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// A finished job's line: `[3/12] ok  pmu_knc_t1_k1_c16-ice40  14 s`, and for a job
/// that did not succeed, where its log is.
pub fn progress_line(done: usize, total: usize, record: &Record) -> String {
    let mut line =
        format!("sweep: [{done}/{total}] {:<9} {}  {:.0} s", record.status.text(), record.name, record.seconds);
    if record.status != Status::Ok {
        line.push_str(&format!(" (log: {})", record.log));
    }
    line
}

/// Run `jobs` of the sweep in `layout`, `workers` at a time, each stopped after
/// `timeout`; their records in the order they finished.
pub fn run(layout: &Layout, jobs: &[&Job], workers: usize, timeout: Option<Duration>) -> Result<Vec<Record>> {
    job::stop_jobs_on_signals();
    let next = AtomicUsize::new(0);
    let records = Mutex::new(Vec::new());
    let started = Instant::now();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| -> Result<()> {
        let (next, records) = (&next, &records);
        let ticker = scope.spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(Duration::from_secs(30)) {
                let finished = records.lock().expect("records").len();
                let running = next.load(Ordering::SeqCst).min(jobs.len()) - finished;
                eprintln!(
                    "sweep: {finished} of {} jobs done, {running} running ({:.0} s)",
                    jobs.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        });
        let runners: Vec<_> = (0..workers.min(jobs.len()))
            .map(|_| {
                scope.spawn(move || -> Result<()> {
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(job) = jobs.get(index) else { return Ok(()) };
                        let record = job::run(layout, job, timeout)?;
                        let mut records = records.lock().expect("records");
                        records.push(record);
                        eprintln!("{}", progress_line(records.len(), jobs.len(), records.last().expect("pushed")));
                    }
                })
            })
            .collect();
        let results: Vec<Result<()>> = runners.into_iter().map(|r| r.join().expect("job runner")).collect();
        let _ = done_tx.send(());
        let _ = ticker.join();
        results.into_iter().collect()
    })?;
    Ok(records.into_inner().expect("records"))
}
