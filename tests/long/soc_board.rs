//! `pmugen soc --board` (docs/soc.md §5): the reference SoC with the firmware board.c in
//! its bitstream, synthesized by yosys and placed by nextpnr-ice40 (`--no-fmax`: no
//! routing; the figures in docs/soc.md §5.2 come from full runs). The placements pin the counters, so
//! that each is one or two attempts (the search's order is checked by the unit tests of
//! src/soc/board/candidates.rs): the HX8K holds K = 1 with the monitor and a 256-entry
//! profile table; on the UP5K, PicoRV32 with K = 1 and the table does not fit, and the
//! search falls back to K = 1 without it, in its SPRAM. The board systems also run
//! their firmware in simulation: the HX8K's prints, over the UART, the counts and the
//! profile (the table's summary records) of the same program on the simulated reference
//! system; the UP5K's (no table) the counts; SERV's the reference's profile of the
//! program's functions.
use std::collections::BTreeMap;
use std::path::Path;

use crate::common::cli::{pmugen, scratch};

/// `soc --board BOARD --no-fmax extra...` into a fresh directory: its summary.json.
fn place(board: &str, extra: &[&str]) -> (serde_json::Value, std::path::PathBuf) {
    let out = scratch(&format!("soc-board-{board}"));
    let mut args = vec!["soc", "--board", board, "--no-fmax", "--out", out.to_str().unwrap()];
    args.extend(extra);
    let (ok, text) = pmugen(&args);
    assert!(ok, "{text}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    (summary, out)
}

/// The placed design's (used, available) of nextpnr's `cell` (ICESTORM_LC, ICESTORM_RAM).
fn used(out: &Path, cell: &str) -> (u64, u64) {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("nextpnr.json")).unwrap()).unwrap();
    let entry = &report["utilization"][cell];
    (entry["used"].as_u64().unwrap(), entry["available"].as_u64().unwrap())
}

/// The firmware in the bitstream is board.c as built beside it, and fits the RAM image.
fn firmware_is_built_in(out: &Path, image_bytes: usize) {
    let hex = std::fs::read_to_string(out.join("pmugen_soc_firmware.hex")).unwrap();
    assert_eq!(hex, std::fs::read_to_string(out.join("firmware/board.hex")).unwrap());
    let words = hex.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("//")).count();
    assert!(words > 100 && words * 4 <= image_bytes, "{words} words");
}

#[test]
fn the_hx8k_places_k1_with_the_monitor_and_a_256_entry_table() {
    let (summary, out) = place("hx8k", &["--counters", "1"]);
    assert_eq!(summary["attempts"].as_array().unwrap().len(), 1, "{summary}");
    let system = &summary["system"];
    assert_eq!((system["counters"].as_u64(), system["monitor"].as_bool()), (Some(1), Some(true)), "{summary}");
    assert_eq!((system["profile_entries"].as_u64(), system["sink_words"].as_u64()), (Some(256), Some(256)));
    let (lc, lc_available) = used(&out, "ICESTORM_LC");
    let (rams, rams_available) = used(&out, "ICESTORM_RAM");
    assert!(lc <= lc_available && lc_available == 7680 && rams <= rams_available, "{lc} LC, {rams} RAM");
    firmware_is_built_in(&out, 4096);
    let soc = std::fs::read_to_string(out.join("pmugen_soc.v")).unwrap();
    assert!(soc.contains("input  wire        console_ready,") && soc.contains("$readmemh(\"pmugen_soc_firmware.hex\""));
    assert!(out.join("pmu_riscv_t1_k1_c40_p256_rvfi_picorv32_design.json").is_file());
    let markdown = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(markdown.contains("Profile table: E = 256, the largest the search tries"), "{markdown}");
    assert!(!out.join("pmugen_soc_board.bin").exists(), "--no-fmax packs no bitstream");
}

#[test]
fn the_up5k_has_no_room_for_picorv32_with_a_table_and_places_k1_without() {
    let (summary, out) = place("icebreaker", &["--counters", "1", "--no-monitor"]);
    let attempts = summary["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 2, "{summary}");
    let first = attempts[0]["result"].as_str().unwrap();
    assert!(attempts[0]["system"].as_str().unwrap().contains("E=256") && attempts[0]["fits"] == false, "{summary}");
    assert!(first.starts_with("does not fit: needs ") && first.contains(" / 5280 ICESTORM_LC"), "{first}");
    assert_eq!(attempts[1]["fits"], true);
    let system = &summary["system"];
    assert_eq!((system["counters"].as_u64(), system["profile_entries"].as_u64()), (Some(1), Some(0)));
    assert_eq!(system["monitor"], false);
    let (lc, available) = used(&out, "ICESTORM_LC");
    assert!(lc <= available && available == 5280, "{lc} / {available}");
    firmware_is_built_in(&out, 4096);
    let soc = std::fs::read_to_string(out.join("pmugen_soc.v")).unwrap();
    assert_eq!(soc.matches("SB_SPRAM256KA").count(), 2, "two SPRAMs side by side");
    assert!(soc.contains("No monitor in this system"));
    let markdown = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(markdown.contains("No profile table: no system with one fits"), "{markdown}");
}

/// `name=value` lines of a console.
fn printed(console: &str, key: &str) -> u64 {
    let line = console.lines().find_map(|l| l.strip_prefix(&format!("{key}=")));
    line.unwrap_or_else(|| panic!("no {key}= in\n{console}")).trim().parse().unwrap()
}

/// `soc --board BOARD --simulate extra...`: what the UART sent, and the directory.
fn simulate(board: &str, extra: &[&str]) -> (String, std::path::PathBuf) {
    let out = scratch(&format!("soc-board-sim-{board}-{}", extra.join("").replace('-', "")));
    let mut args = vec!["soc", "--board", board, "--simulate", "--out", out.to_str().unwrap()];
    args.extend(extra);
    let (ok, console) = pmugen(&args);
    assert!(ok && console.contains("exit LED lit"), "{board}: {console}");
    (console, out.join("simulation"))
}

/// The lines a console printed between `trace-begin` and `trace-end` (the board's
/// capture, docs/soc.md §4.2).
fn dump(console: &str) -> &str {
    let dump = console.split("trace-begin\n").nth(1).and_then(|rest| rest.split("trace-end\n").next());
    dump.unwrap_or_else(|| panic!("no trace-begin ... trace-end in\n{console}"))
}

/// Per (function, offset) of a profile's blocks: executions and each event's total.
type Blocks = BTreeMap<(String, String), Vec<u64>>;

/// `pmugen profile` of the console's [`dump`], with the firmware `elf`, the PMU description
/// `design` and the counters' `events`; the driver's functions are named without the
/// PMU's name (`pmu_address`), which differs between systems.
fn uart_profile(console: &str, elf: &Path, design: &Path, events: &str, name: &str) -> Blocks {
    let out = scratch(&format!("soc-board-profile-{name}"));
    std::fs::create_dir_all(&out).unwrap();
    let capture = out.join("capture.hex");
    std::fs::write(&capture, dump(console)).unwrap();
    let args = [
        "profile",
        capture.to_str().unwrap(),
        "--elf",
        elf.to_str().unwrap(),
        "--design",
        design.to_str().unwrap(),
        "--events",
        events,
        "--out",
        out.to_str().unwrap(),
    ];
    let (ok, text) = pmugen(&args);
    assert!(ok, "{name}: {text}");
    assert!(text.contains(" 0 block records and "), "{name}: only summary records: {text}");
    let csv = std::fs::read_to_string(out.join("blocks.csv")).unwrap();
    let top = design.file_name().unwrap().to_str().unwrap().trim_end_matches("_design.json").to_string();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("pid,address,function,offset,executions,"));
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let function = cells[2].replace(&format!("{top}_wb32_"), "pmu_");
            ((function, cells[3].to_string()), cells[4..].iter().map(|c| c.parse().unwrap()).collect())
        })
        .collect()
}

/// The reference SoC's run of board.c, and its profile printed over the console.
fn reference() -> (crate::soc_examples::Run, Blocks) {
    let run = crate::soc_examples::run("board");
    let design = crate::soc_examples::soc_dir().join("pmu_riscv_t1_k4_c40_p1024_rvfi_picorv32_design.json");
    let profile = uart_profile(&run.console, &run.elf, &design, "INSTRET,LOAD,STORE,BRANCH_TAKEN", "reference");
    (run, profile)
}

#[test]
fn the_hx8k_system_prints_the_reference_systems_counts_and_profile_over_the_uart() {
    let (reference, reference_profile) = reference();
    let (console, dir) = simulate("hx8k", &["--counters", "1"]);
    assert!(console.contains("pmugen soc: PMU_ID 0x") && console.contains("K 1, monitor, E 256"), "{console}");
    for key in ["board.INSTRET", "board.sum"] {
        assert_eq!(printed(&console, key), reference.value(key), "{key}");
    }
    // The table costs the program no cycle; its words are few against the drained trace's.
    let untraced = printed(&console, "board.untraced.cycles");
    assert_eq!(printed(&console, "board.summed.cycles"), untraced, "{console}");
    assert!(printed(&console, "board.drained.cycles") > untraced);
    assert_eq!(printed(&console, "board.drained.dropped") + printed(&console, "board.summed.dropped"), 0);
    let profile = uart_profile(
        &console,
        &dir.join("firmware/board.elf"),
        &dir.join("pmu_riscv_t1_k1_c40_p256_rvfi_picorv32_design.json"),
        "INSTRET",
        "hx8k",
    );
    let words = dump(&console).lines().count() as u64;
    assert!(words * 100 <= printed(&console, "board.drained.words"), "{words} summary words");
    // Block by block, executions and INSTRET as the reference's (K = 4) first columns;
    // main's code differs between the two builds (the registers its return restores), so
    // it is compared by its executions.
    let (main, rest): (Blocks, Blocks) = profile.into_iter().partition(|((f, _), _)| f == "main");
    let (reference_main, reference_rest): (Blocks, Blocks) =
        reference_profile.into_iter().partition(|((f, _), _)| f == "main");
    let first = |blocks: &Blocks, columns: usize| -> Blocks {
        blocks.iter().map(|(k, v)| (k.clone(), v[..columns].to_vec())).collect()
    };
    assert_eq!(first(&rest, 2), first(&reference_rest, 2));
    let executions = |blocks: &Blocks| blocks.values().map(|v| v[0]).sum::<u64>();
    assert_eq!(executions(&main), executions(&reference_main));
    assert!(rest.keys().any(|(function, _)| function == "sort"), "{rest:?}");
}

#[test]
fn the_up5k_system_without_a_table_prints_the_counts_and_no_profile() {
    let reference = crate::soc_examples::run("board");
    let (console, _) = simulate("icebreaker", &["--counters", "1", "--no-monitor", "--profile-entries", "0"]);
    assert!(console.contains("K 1, no monitor, E 0"), "{console}");
    for key in ["board.INSTRET", "board.sum"] {
        assert_eq!(printed(&console, key), reference.value(key), "{key}");
    }
    assert!(!console.contains("trace-begin") && !console.contains("board.summed."), "{console}");
}

/// SERV's largest iCEBreaker system (K = 4, the monitor, the table) prints the profile of
/// the program's functions that the reference system on PicoRV32 prints: the same rv32i
/// code (the rest of the firmware differs in what gcc inlines for each CPU).
#[test]
fn the_serv_icebreaker_system_prints_the_reference_profile_of_the_program() {
    let (reference, reference_profile) = reference();
    let (console, dir) = simulate("icebreaker", &["--cpu", "serv"]);
    assert!(console.contains("serv, PMU K=4") && console.contains("K 4, monitor, E 256"), "{console}");
    assert_eq!(printed(&console, "board.sum"), reference.value("board.sum"));
    assert_eq!(printed(&console, "board.summed.cycles"), printed(&console, "board.untraced.cycles"));
    let profile = uart_profile(
        &console,
        &dir.join("firmware/board.elf"),
        &dir.join("pmu_riscv_t1_k4_c40_p256_rvfi_serv_design.json"),
        "INSTRET,LOAD,STORE,BRANCH_TAKEN",
        "serv",
    );
    let program = |blocks: &Blocks| -> Blocks {
        blocks
            .iter()
            .filter(|((f, _), _)| ["fill", "sort", "sum_odd"].contains(&f.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    assert_eq!(program(&profile), program(&reference_profile));
    for function in ["fill", "sort", "sum_odd"] {
        assert!(profile.keys().any(|(f, _)| f == function), "{function}: {profile:?}");
    }
}
