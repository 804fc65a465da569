//! Run one job of a sweep (docs/report.md §8.2): its `pmugen report` command in a
//! session and process group of its own, everything it prints into `DIR/logs/<job>.log`, stopped
//! with its tools at the sweep's `--timeout`; then its result file, written atomically.
//! The local runner and each Slurm array task both come here.
use anyhow::{Context, Result};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use super::record::{Record, Status};
use super::{write_atomically, Job, Layout};
use crate::report::Report;

/// Most jobs that run at once in one pmugen (`--jobs` is checked against it).
pub const MOST_AT_ONCE: usize = 256;

/// The process groups of the jobs running now (0: a free slot), for the signal
/// handler: a job's report runs yosys and nextpnr in its group, and stopping the sweep
/// stops them too.
static RUNNING: [AtomicI32; MOST_AT_ONCE] = [const { AtomicI32::new(0) }; MOST_AT_ONCE];

extern "C" fn stop_jobs(signal: libc::c_int) {
    for slot in &RUNNING {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            // SAFETY: kill(2) is async-signal-safe; a negative pid names the group.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
    }
    // SAFETY: _exit(2) is async-signal-safe; the shell's convention is 128 + signal.
    unsafe { libc::_exit(128 + signal) };
}

/// Stop every running job's process group when pmugen is interrupted (Ctrl-C) or
/// terminated (e.g. by Slurm at a task's time limit), then exit.
pub fn stop_jobs_on_signals() {
    // SAFETY: the handler only calls async-signal-safe functions and reads atomics.
    unsafe {
        libc::signal(libc::SIGINT, stop_jobs as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, stop_jobs as *const () as libc::sighandler_t);
    }
}

/// The last `count` lines of `text`, leaving out a Rust backtrace at its end: with
/// `RUST_BACKTRACE` set, pmugen's error is followed by one, and the error is what says
/// why the job failed.
pub fn tail(text: &str, count: usize) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if let Some(start) = lines.iter().rposition(|l| l.trim().eq_ignore_ascii_case("stack backtrace:")) {
        lines.truncate(start);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// Run `job` of the sweep in `layout`, stopped after `timeout`, and write its result
/// file. Its report failing is a result (status failed or timed out, with the log's
/// last lines); only a result that cannot be written is an error.
pub fn run(layout: &Layout, job: &Job, timeout: Option<Duration>) -> Result<Record> {
    let log_path = layout.log(&job.name);
    let log_name = log_path.strip_prefix(&layout.dir).unwrap_or(&log_path).display().to_string();
    std::fs::create_dir_all(log_path.parent().expect("logs/ has a parent"))?;
    let mut log = std::fs::File::create(&log_path).with_context(|| format!("creating {}", log_path.display()))?;
    use std::io::Write;
    writeln!(log, "$ {}", job.command.join(" "))?;
    let started = Instant::now();
    let ended = execute(job, &log, timeout);
    let seconds = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
    let failed = |status: Status, why: String| {
        let mut record = Record::empty(job, status, log_name.clone());
        record.message = Some(format!("{why}; the log ends:\n{}", tail(&text, 12)));
        record
    };
    let mut record = match ended {
        Err(error) => failed(Status::Failed, format!("could not run {}: {error}", job.command[0])),
        Ok(Ended::TimedOut) => failed(Status::TimedOut, format!("stopped after the --timeout of {seconds:.0} s")),
        Ok(Ended::Exited(code)) if code != 0 => failed(Status::Failed, format!("the report exited with status {code}")),
        Ok(Ended::Exited(_)) => {
            let path = layout.run_dir(&job.name).join("report.json");
            match std::fs::read_to_string(&path).map_err(anyhow::Error::from).and_then(|text| {
                serde_json::from_str::<Report>(&text).with_context(|| format!("{}: not a report", path.display()))
            }) {
                Ok(report) => Record::from_report(job, &report, log_name.clone()),
                Err(error) => failed(Status::Failed, format!("{error:#}")),
            }
        }
    };
    record.seconds = seconds;
    write_atomically(&layout.result(&job.name), &(serde_json::to_string_pretty(&record)? + "\n"))?;
    Ok(record)
}

/// How a job's command ended.
enum Ended {
    /// It exited with this status (a signal counts as 128 + its number).
    Exited(i32),
    /// It was stopped at the timeout.
    TimedOut,
}

/// Run `job`'s command, its output into `log`, in a process group of its own.
fn execute(job: &Job, log: &std::fs::File, timeout: Option<Duration>) -> Result<Ended> {
    let mut command = Command::new(&job.command[0]);
    command.args(&job.command[1..]).stdin(Stdio::null()).stdout(log.try_clone()?).stderr(log.try_clone()?);
    // A session of its own, as a Slurm task has: its process group is the one the
    // timeout and the signal handler stop, and where the kernel groups processes by
    // session (autogroup), the CPU is shared among the jobs, not among sessions, so N
    // jobs on a machine others use get N shares, not one.
    // SAFETY: setsid(2) is async-signal-safe, as code between fork and exec must be.
    unsafe {
        command.pre_exec(|| if libc::setsid() < 0 { Err(std::io::Error::last_os_error()) } else { Ok(()) });
    }
    let mut child = command.spawn()?;
    let group = child.id() as i32;
    let slot = RUNNING.iter().find(|slot| slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst).is_ok());
    let started = Instant::now();
    let ended = loop {
        if let Some(status) = child.try_wait()? {
            use std::os::unix::process::ExitStatusExt;
            break Ended::Exited(status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0)));
        }
        if timeout.is_some_and(|limit| started.elapsed() > limit) {
            // SAFETY: kill(2) on the job's own process group: the report and its tools.
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let _ = child.wait();
            break Ended::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    if let Some(slot) = slot {
        slot.store(0, Ordering::SeqCst);
    }
    Ok(ended)
}

#[cfg(test)]
mod tests {
    use super::tail;

    #[test]
    fn the_tail_of_a_log_is_the_error_not_its_backtrace() {
        let log = "$ pmugen report\nreport: synthesis ...\nError: --out x: is a file, not a directory\n\n\
                   Stack backtrace:\n   0: anyhow::error\n   1: pmugen::main\n";
        assert_eq!(tail(log, 2), "report: synthesis ...\nError: --out x: is a file, not a directory");
        assert_eq!(tail("a\nb\nc\n", 2), "b\nc", "without a backtrace, the last lines");
    }
}
