//! What a first user ran into, each fixed and kept fixed: clear errors that name the
//! flag and the path, generated Verilog that drops into cocotb, Icarus, Tcl and
//! constraint files without escaping, and a `flow` that co-simulates by default and
//! checks its tools before writing anything. The first Verilator build is in
//! tests/long/frictions.rs.

use crate::common::cli::{pmugen, scratch};

#[test]
fn a_vcd_path_that_cannot_be_written_fails_naming_it_for_every_engine() {
    let directory = scratch("vcd-dir");
    std::fs::create_dir_all(&directory).unwrap();
    let dir_text = directory.to_string_lossy().into_owned();
    for engine in ["native", "verilator", "all"] {
        let (ok, text) = pmugen(&["simulate", "monitor", "--cycles", "50", "--engine", engine, "--vcd", &dir_text]);
        assert!(!ok, "--engine {engine} --vcd to a directory succeeded:\n{text}");
        assert!(text.contains(&format!("--vcd {dir_text}: is a directory")), "{engine}: {text}");
        let blocked = format!("{}/x.vcd", std::env!("CARGO_MANIFEST_DIR").to_string() + "/Cargo.toml");
        let (ok, text) = pmugen(&["simulate", "monitor", "--cycles", "50", "--engine", engine, "--vcd", &blocked]);
        assert!(!ok && text.contains(&format!("--vcd {blocked}: cannot")), "{engine}: {text}");
    }
    let file = scratch("vcd-ok").join("run.vcd");
    let (ok, text) =
        pmugen(&["simulate", "monitor", "--cycles", "50", "--engine", "verilator", "--vcd", &file.to_string_lossy()]);
    assert!(ok, "{text}");
    // The waveform is the design's: its ports in the top scope, both edges of each of
    // the 50 cycles.
    let vcd = std::fs::read_to_string(&file).unwrap();
    for port in ["clock", "events [7:0]", "matched", "reg_rdata [31:0]", "ser_valid"] {
        assert!(vcd.contains(&format!(" {port} $end")), "{port} is not in the waveform:\n{vcd:.2000}");
    }
    let steps = vcd.lines().filter(|line| line.starts_with('#')).count();
    assert_eq!(steps, 2 * 50, "time steps in the waveform");
}

#[test]
fn numbers_and_output_directories_are_refused_in_words_that_fit() {
    let file = scratch("out-is-a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let file_text = file.to_string_lossy().into_owned();
    let (ok, text) = pmugen(&["generate", "monitor", "--out", &file_text]);
    assert!(!ok && text.contains(&format!("--out {file_text}: is a file, not a directory")), "{text}");
    let cases: [(&[&str], &str); 5] = [
        (&["simulate", "monitor", "--cycles", "0"], "--cycles = 0 is out of range 1..=10000000000"),
        (&["simulate", "monitor", "--cycles", "many"], "--cycles = 'many' is not a whole number"),
        (
            &["simulate", "monitor", "--seed", "abc"],
            "--seed = 'abc' is not a whole number; allowed range 0..=18446744073709551615",
        ),
        (&["bench", "pmu", "--seed", "-1"], "--seed = -1 is out of range"),
        (&["report", "monitor", "--sweep", "--sweep-events", "2,40"], "--sweep-events (N) = 40 is out of range 2..=32"),
    ];
    for (args, message) in cases {
        let (ok, text) = pmugen(args);
        assert!(!ok && text.contains(message), "{args:?}: expected `{message}` in:\n{text}");
    }
}

#[test]
fn generated_verilog_has_a_timescale_plain_names_and_a_usable_regenerate_line() {
    let out = scratch("plain-names");
    let out_text = out.to_string_lossy().into_owned();
    for design in [&["monitor", "--events", "8", "--order-width", "3"][..], &["pmu", "--threads", "2"][..]] {
        let (ok, text) = pmugen(&[&["generate"][..], design, &["--out", &out_text]].concat());
        assert!(ok, "{text}");
    }
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "v") {
            continue;
        }
        let verilog = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        assert!(verilog.contains("\n`timescale 1ns / 1ps\n"), "{name}: no timescale");
        // `$` may only start a system task (`$display` in the smoke test bench), never sit inside a name.
        let in_name =
            verilog.as_bytes().windows(2).any(|w| w[1] == b'$' && (w[0].is_ascii_alphanumeric() || w[0] == b'_'));
        assert!(!in_name, "{name}: a name with `$` needs escaping in cocotb, Tcl and XDC");
        assert!(!verilog.contains(" value("), "{name}: an instance named `value` shadows cocotb's .value");
        assert!(verilog.contains("--out <the directory of this file>`"), "{name}: regenerate line");
    }
}

#[test]
fn flow_checks_its_tools_first_and_cosimulates_by_default() {
    let out = scratch("flow-no-tools");
    let empty_path = scratch("flow-empty-path");
    std::fs::create_dir_all(&empty_path).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pmugen"))
        .args(["flow", "monitor", "--events", "2", "--order-width", "2", "--out", &out.to_string_lossy()])
        .env("PATH", &empty_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && text.contains("`verilator` not found on PATH"), "{text}");
    assert!(!out.exists(), "flow wrote {} before finding its tools missing", out.display());
    let out = scratch("flow-default");
    let (ok, text) = pmugen(&[
        "flow",
        "monitor",
        "--events",
        "2",
        "--order-width",
        "2",
        "--cycles",
        "3000",
        "--out",
        &out.to_string_lossy(),
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("engines reference + native + verilator"), "{text}");
}

#[test]
fn an_interrupted_report_leaves_the_previous_complete_one_alone() {
    let out = scratch("interrupted-report");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, text) =
        pmugen(&["report", "monitor", "--events", "6", "--order-width", "3", "--budget-only", "--out", &out_text]);
    assert!(ok, "{text}");
    let listing = |dir: &std::path::Path| {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    };
    let before = listing(&out);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pmugen"))
        .args(["report", "monitor", "--events", "6", "--order-width", "3", "--out", &out_text])
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(std::fs::read_to_string(out.join("report.md")).unwrap(), report, "the old report is untouched");
    let after: Vec<String> = listing(&out).into_iter().filter(|name| !name.starts_with(".partial-")).collect();
    assert_eq!(after, before, "no new file next to the old run's files");
}
