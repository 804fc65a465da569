//! `pmugen plan` from the command line: plan, merge, simulate; bad input gets a clear
//! error naming the value and the flag or file, and writes nothing.

use crate::common::cli::{pmugen, scratch};
use std::path::Path;

const EVENTS: &str = "CPU_CLK_UNHALTED,BRANCHES,DATA_READ";

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn plan_writes_the_json_and_the_table() {
    let out = scratch("plan-default");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, printed) = pmugen(&["plan", "--events", EVENTS, "--cores", "12", "--out", &out_text]);
    assert!(ok, "{printed}");
    assert!(printed.contains("## Run 0: C >= 3E: the first 3E cores, every event on three cores"), "{printed}");
    assert!(printed.contains("| 8 | 0 | DATA_READ | 0x00430000 | 0x1 |"), "{printed}");
    let plan: serde_json::Value = serde_json::from_str(&text(&out.join("plan.json"))).unwrap();
    assert_eq!(plan["format"], "pmugen-plan/1");
    assert_eq!(plan["runs"][0]["cores"].as_array().unwrap().len(), 9, "the first 3E cores");
    assert_eq!(plan["runs"][0]["cores"][1]["writes"][1]["register"], "PERF_EVTSEL[0]");
    assert_eq!(text(&out.join("plan.md")), printed.split("wrote").next().unwrap().trim_end().to_string() + "\n");
}

#[test]
fn bad_events_and_cores_are_refused_and_nothing_is_written() {
    let out = scratch("plan-bad");
    let out_text = out.to_string_lossy().into_owned();
    let cases: [(&[&str], &str); 9] = [
        (&["--events", "CPU_CLK_UNHALTED,FOO", "--cores", "4"], "no event 'FOO' in the event table 'knc'; the names are in"),
        (&["--events", "BRANCHES,", "--cores", "4"], "--events: name 2 of the list is empty"),
        (&["--events", EVENTS, "--cores", "4", "--low", "5"], "--low 5: only --merge and --simulate flag low counts"),
        (&["--events", "CPU_CLK_UNHALTED,BRANCH", "--cores", "4"], "no event 'BRANCH' in the event table 'knc'; the closest is 'BRANCHES'"),
        (&["--events", EVENTS, "--cores", "0"], "--cores (C) = 0 is out of range 1..=4096"),
        (&["--events", EVENTS, "--cores", "many"], "--cores (C) = 'many' is not a whole number"),
        (&["--events", EVENTS], "--cores: give the number of cores"),
        (&["--cores", "3"], "--events: give the events to measure"),
        (&["--events", EVENTS, "--cores", "1", "--counters", "1"], "cannot plan 3 events on 1 core of 1 counter in one run: the 3 events need 3 (core, counter) slots but 1 core x 1 counter offer 1"),
    ];
    for (args, message) in cases {
        let mut full = vec!["plan"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--out", &out_text]);
        let (ok, printed) = pmugen(&full);
        assert!(!ok, "{full:?} succeeded");
        assert!(printed.contains(message), "{full:?}: expected `{message}` in:\n{printed}");
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
    let (ok, printed) =
        pmugen(&["plan", "--events", EVENTS, "--cores", "1", "--counters", "1", "--rounds", "--out", &out_text]);
    assert!(ok && printed.contains("3 runs"), "{printed}");
}

#[test]
fn merge_reads_results_against_the_plan_and_refuses_malformed_ones() {
    let out = scratch("plan-merge");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, printed) = pmugen(&["plan", "--events", "BRANCHES,DATA_READ", "--cores", "3", "--out", &out_text]);
    assert!(ok, "{printed}");
    let plan_path = out.join("plan.json").to_string_lossy().into_owned();
    let results = out.join("counts.json");
    let write = |body: &str| std::fs::write(&results, body).unwrap();
    let entry = |core: usize, counter: usize, count: u64| {
        format!(r#"{{"run": 0, "core": {core}, "counter": {counter}, "count": {count}}}"#)
    };
    let merged_dir = out.join("merged");
    let merged_text = merged_dir.to_string_lossy().into_owned();
    let results_text = results.to_string_lossy().into_owned();
    let bad: [(String, &str); 3] = [
        (
            format!(r#"{{"results": [{}, {}]}}"#, entry(0, 0, 5), entry(1, 0, 7)),
            "no result for run 0 core 2 counter 0 (BRANCHES)",
        ),
        (
            format!(r#"{{"results": [{}, {}, {}]}}"#, entry(0, 0, 5), entry(1, 1, 7), entry(2, 0, 9)),
            "counter 1 is not read on core 1 in run 0 (counters read there: 0)",
        ),
        ("run,core,counter,count\n0,0,0,5\n".to_string(), "not JSON"),
    ];
    for (body, message) in bad {
        write(&body);
        let (ok, printed) = pmugen(&["plan", "--merge", &results_text, "--plan", &plan_path, "--out", &merged_text]);
        assert!(!ok, "{body} was merged");
        assert!(
            printed.contains(message) && printed.contains(&results_text),
            "expected `{message}` naming the file in:\n{printed}"
        );
        assert!(!merged_dir.exists(), "a refused merge wrote {}", merged_dir.display());
    }
    write(&format!(r#"{{"results": [{}, {}, {}]}}"#, entry(0, 0, 5), entry(1, 0, 7), entry(2, 0, 9)));
    let (ok, printed) =
        pmugen(&["plan", "--merge", &results_text, "--plan", &plan_path, "--low", "6", "--out", &merged_text]);
    assert!(ok, "{printed}");
    assert!(printed.contains("| BRANCHES | 9 | 2 | 5 | 4 |"), "{printed}");
    let from_file = text(&merged_dir.join("merge.json"));
    let again = out.join("again").to_string_lossy().into_owned();
    let (ok, printed) = pmugen(&[
        "plan",
        "--events",
        "BRANCHES,DATA_READ",
        "--cores",
        "3",
        "--merge",
        &results_text,
        "--low",
        "6",
        "--out",
        &again,
    ]);
    assert!(ok, "{printed}");
    assert_eq!(
        text(&Path::new(&again).join("merge.json")),
        from_file,
        "planning again from the flags gives the same merge"
    );
    let (ok, printed) = pmugen(&["plan", "--merge", &results_text, "--plan", "/nonexistent/plan.json"]);
    assert!(!ok && printed.contains("--plan /nonexistent/plan.json: cannot read"), "{printed}");
    let (ok, printed) = pmugen(&["plan", "--merge", &results_text, "--plan", &plan_path, "--cores", "4"]);
    assert!(!ok && printed.contains("--plan: the plan file fixes the events, cores and modes"), "{printed}");
}

#[test]
fn simulate_runs_the_plan_and_checks_it_against_the_workload() {
    let out = scratch("plan-simulate");
    let out_text = out.to_string_lossy().into_owned();
    let args =
        ["plan", "--threads", "1", "--events", EVENTS, "--cores", "9", "--simulate", "--cycles", "500", "--seed", "3"];
    let (ok, printed) = pmugen(&[&args[..], &["--stuck-core", "9", "--out", &out_text]].concat());
    assert!(!ok && printed.contains("--stuck-core 9 is not a core of the plan (0..=8)"), "{printed}");
    assert!(!out.exists());
    let (ok, printed) = pmugen(&[&args[..], &["--stuck-core", "4", "--out", &out_text]].concat());
    assert!(ok, "{printed}");
    let check = text(&out.join("check.md"));
    assert_eq!(check.matches("| ok |").count(), 3, "{check}");
    for name in ["plan.json", "plan.md", "results.json", "merge.json", "merge.md"] {
        assert!(out.join(name).exists(), "{name} missing");
    }
    let (ok, printed) = pmugen(&[
        "plan",
        "--merge",
        &out.join("results.json").to_string_lossy(),
        "--plan",
        &out.join("plan.json").to_string_lossy(),
        "--out",
        &out.join("m").to_string_lossy(),
    ]);
    assert!(ok, "{printed}");
    assert_eq!(
        text(&out.join("m/merge.json")),
        text(&out.join("merge.json")),
        "the results file merges as the run did"
    );
}

#[test]
fn a_reader_that_stops_early_does_not_crash_the_command() {
    let script = format!(
        "{} plan --events {EVENTS} --cores 12 --out {} | head -1",
        env!("CARGO_BIN_EXE_pmugen"),
        scratch("plan-pipe").display()
    );
    let output = std::process::Command::new("bash")
        .args(["-c", &format!("{script}; echo ${{PIPESTATUS[0]}}")])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let status = text.lines().last().unwrap_or_default();
    assert!(
        status == "0" || status == "141",
        "exit status {status} (101 is a panic); stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}
