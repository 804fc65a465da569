//! `pmugen sweep`'s bad input (docs/report.md §8): each refused naming the flag and the
//! value, before anything is written. The sweeps themselves run in tests/long/sweep.rs.
use crate::common::cli::{pmugen, scratch};

/// `pmugen sweep args --out DIR` with `SLURM_CONF=conf` (when given) fails saying
/// `message`, and DIR is not created.
fn refused(args: &[&str], conf: Option<&str>, message: &str) {
    let out = scratch("sweep-refused");
    let out_text = out.to_string_lossy().into_owned();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pmugen"));
    command.args(args).args(["--out", &out_text]);
    if let Some(conf) = conf {
        command.env("SLURM_CONF", conf);
    }
    let output = command.output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} succeeded:\n{text}");
    assert!(text.contains(message), "{args:?}: expected `{message}` in:\n{text}");
    assert!(!out.exists(), "{args:?}: refused, yet {} was written", out.display());
}

#[test]
fn empty_ranges_bad_values_and_unknown_families_are_refused_naming_them() {
    refused(&["sweep", "pmu", "--threads", "4..=1"], None, "--threads 4..=1: the range is empty (4 is above 1)");
    refused(
        &["sweep", "pmu", "--threads", "1,2..=5"],
        None,
        "--threads 1,2..=5: invalid value '5' for '--threads <T>': --threads (T) = 5 is out of range 1..=4",
    );
    refused(&["sweep", "pmu", "--trace-depth", "2,3"], None, "invalid value '3' for '--trace-depth <D>'");
    refused(&["sweep", "monitor", "--family", "ice40,ice41"], None, "invalid value 'ice41' for '--family <FAMILY>'");
    refused(&["sweep", "monitor", "--seeds", "3..=1"], None, "--seeds 3..=1: the range is empty");
    refused(&["sweep", "monitor", "--synth-only", "--seeds", "1,2"], None, "--seeds 1,2: a synthesis-only sweep");
    refused(&["sweep", "monitor", "--jobs", "0"], None, "--jobs 0: give 1..=256 jobs at a time");
    refused(
        &["sweep", "pmu", "--family", "ice40", "--device", "lfe5u-25f"],
        None,
        "--device lfe5u-25f belongs to the ECP5 family",
    );
    refused(&["sweep", "pmu", "--model", "T*X + 1"], None, "--model: X is not a parameter of this sweep");
    refused(
        &["sweep", "pmu", "--no-fmax", "--synth-only"],
        None,
        "the argument '--no-fmax' cannot be used with '--synth-only'",
    );
}

#[test]
fn a_slurm_that_is_not_running_is_refused_before_anything_is_written() {
    let dir = scratch("sweep-slurm-down");
    std::fs::create_dir_all(&dir).unwrap();
    // A cluster whose controller is not there: port 9 (discard) answers nothing.
    let conf = dir.join("slurm.conf");
    std::fs::write(&conf, "ClusterName=down\nSlurmctldHost=localhost\nSlurmctldPort=9\nAuthType=auth/munge\n").unwrap();
    let conf = conf.to_string_lossy().into_owned();
    refused(
        &["sweep", "monitor", "--slurm"],
        Some(&conf),
        "--slurm: Slurm is not running or this machine cannot reach its controller",
    );
    refused(&["sweep", "monitor", "--slurm"], Some(&conf), &format!("SLURM_CONF={conf}"));
    let missing = dir.join("none.conf").to_string_lossy().into_owned();
    refused(&["sweep", "monitor", "--slurm"], Some(&missing), &format!("SLURM_CONF={missing}: no such file"));
    refused(&["sweep", "monitor", "--jobs", "2", "--slurm"], None, "'--jobs <N>' cannot be used with '--slurm'");
}

#[test]
fn collect_refuses_a_directory_without_a_job_list() {
    let dir = scratch("sweep-no-list");
    std::fs::create_dir_all(&dir).unwrap();
    let (ok, text) = pmugen(&["sweep", "--collect", &dir.to_string_lossy()]);
    assert!(!ok && text.contains("jobs.json: no job list here"), "{text}");
}
