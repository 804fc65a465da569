//! The `pmugen` binary: bad input gets a clear error, a non-zero exit, and writes nothing.
use std::path::PathBuf;
use std::process::Command;

fn pmugen(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pmugen")).args(args).output().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bad_parameters_name_flag_parameter_value_and_range_and_write_nothing() {
    let cases = [
        (["--events", "1", "--order-width", "3"], "--events (N) = 1 is out of range 2..=32"),
        (["--events", "33", "--order-width", "3"], "--events (N) = 33 is out of range 2..=32"),
        (["--events", "8", "--order-width", "1"], "--order-width (W) = 1 is out of range 2..=8"),
        (["--events", "8", "--order-width", "9"], "--order-width (W) = 9 is out of range 2..=8"),
        (["--events", "eight", "--order-width", "3"], "--events (N) = 'eight' is not a number; allowed range 2..=32"),
        (["--events", "8", "--order-width", "-3"], "--order-width (W) = '-3' is not a number; allowed range 2..=8"),
    ];
    for (index, (args, message)) in cases.iter().enumerate() {
        let out = scratch(&format!("bad-{index}"));
        let out_text = out.to_string_lossy().into_owned();
        let mut full = vec!["generate", "monitor"];
        full.extend_from_slice(args);
        full.extend_from_slice(&["--out", &out_text]);
        let (ok, text) = pmugen(&full);
        assert!(!ok, "{full:?} succeeded");
        assert!(text.contains(message), "{full:?}: expected `{message}` in:\n{text}");
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
    let (ok, text) = pmugen(&["simulate", "monitor", "--cycles", "0"]);
    assert!(!ok && text.contains("--cycles = '0'"), "{text}");
    let (ok, text) = pmugen(&["report", "monitor", "--events", "40"]);
    assert!(!ok && text.contains("--events (N) = 40 is out of range 2..=32"), "{text}");
}

#[test]
fn generate_writes_the_named_file() {
    let out = scratch("generate-n5-w2");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, text) = pmugen(&["generate", "monitor", "--events", "5", "--order-width", "2", "--out", &out_text]);
    assert!(ok, "{text}");
    let verilog = std::fs::read_to_string(out.join("event_order_monitor_n5_w2.v")).unwrap();
    assert!(verilog.starts_with("// event_order_monitor_n5_w2.v"));
    assert!(verilog.contains("Do not edit; regenerate with"));
    assert!(verilog.contains("module event_order_monitor_n5_w2(clock,reset,events,start,stop"));
}

#[test]
fn simulate_prints_matches_mismatches_and_speed() {
    let (ok, text) = pmugen(&["simulate", "monitor", "--events", "4", "--order-width", "2", "--cycles", "3000", "--seed", "5"]);
    assert!(ok, "{text}");
    assert!(text.contains("mismatches:      0"), "{text}");
    assert!(text.contains("matched cycles:"), "{text}");
    assert!(text.contains("cycles/s"), "{text}");
}

#[test]
fn help_shows_an_example() {
    let (ok, text) = pmugen(&["--help"]);
    assert!(ok);
    assert!(text.contains("Example:") && text.contains("pmugen generate monitor --events 8 --order-width 3"), "{text}");
}

#[test]
fn simulate_all_engines_agree_from_the_command_line() {
    let (ok, text) = pmugen(&["simulate", "monitor", "--events", "3", "--order-width", "2", "--cycles", "5000", "--engine", "all"]);
    assert!(ok, "{text}");
    assert!(text.contains("engines reference + native + verilator"), "{text}");
    assert!(text.contains("mismatches:      0"), "{text}");
    assert!(text.contains("verilator speed:"), "{text}");
}

#[test]
fn bench_reports_both_engines_for_four_sizes() {
    let (ok, text) = pmugen(&["bench", "monitor", "--cycles", "3000"]);
    assert!(ok, "{text}");
    assert!(text.contains("| N | W | native (rust-hdl) | Verilator | Verilator / native |"), "{text}");
    for row in ["| 4 | 3 |", "| 8 | 3 |", "| 16 | 4 |", "| 32 | 5 |"] {
        assert!(text.contains(row), "{row} missing:\n{text}");
    }
    assert!(text.contains("cores"), "{text}");
}

#[test]
fn missing_tools_are_named_with_how_to_install_and_nothing_is_written() {
    let out = scratch("no-tools");
    let out_text = out.to_string_lossy().into_owned();
    let empty_path = scratch("empty-path");
    std::fs::create_dir_all(&empty_path).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_pmugen"))
        .args(["report", "monitor", "--out", &out_text])
        .env("PATH", &empty_path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(text.contains("`yosys`, `nextpnr-ice40` not found on PATH; install with `apt-get update"), "{text}");
    assert!(!out.exists(), "report wrote {} without its tools", out.display());
}

#[test]
fn host_and_build_reject_bad_input_clearly() {
    let (ok, text) = pmugen(&["build", "--board", "arty"]);
    assert!(!ok && text.contains("invalid value 'arty' for '--board <BOARD>'") && text.contains("icebreaker, hx8k"), "{text}");
    let port = "/dev/pmugen-no-such-port";
    let (ok, text) = pmugen(&["host", "--port", port, "order", "E3=1,E9=2"]);
    assert!(!ok && text.contains("event E9 in `E9=2` is out of range E1..=E8"), "{text}");
    let (ok, text) = pmugen(&["host", "--port", port, "read", "COUNTER"]);
    assert!(!ok && text.contains("unknown register `COUNTER`; known: ID, CTRL"), "{text}");
    let (ok, text) = pmugen(&["host", "--port", port, "count"]);
    assert!(!ok && text.contains(&format!("cannot open serial port {port} at 115200 baud")), "{text}");
}
