//! `pmugen soc --board` (docs/soc.md §5): the reference SoC with the firmware board.c in
//! its bitstream, synthesized by yosys and placed by nextpnr-ice40 (`--no-fmax`: no
//! routing; the figures in docs/soc.md §5.2 come from full runs). The HX8K holds the largest system
//! (K = 4 and the monitor) at the first attempt; the UP5K's system, K = 1 without the
//! monitor, keeps its RAM in the SPRAM with a boot ROM (the search's earlier attempts do
//! not fit or do not route: the full run's report shows them). Both systems also run
//! their firmware in simulation, printing on the UART what the reference system prints,
//! and so does SERV's iCEBreaker system, the full one (`--cpu serv`).
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

/// The placed design's logic cells (used, available) from nextpnr's report.
fn logic_cells(out: &Path) -> (u64, u64) {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("nextpnr.json")).unwrap()).unwrap();
    let lc = &report["utilization"]["ICESTORM_LC"];
    (lc["used"].as_u64().unwrap(), lc["available"].as_u64().unwrap())
}

/// The firmware in the bitstream is board.c as built beside it, and fits the RAM image.
fn firmware_is_built_in(out: &Path, image_bytes: usize) {
    let hex = std::fs::read_to_string(out.join("pmugen_soc_firmware.hex")).unwrap();
    assert_eq!(hex, std::fs::read_to_string(out.join("firmware/board.hex")).unwrap());
    let words = hex.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("//")).count();
    assert!(words > 100 && words * 4 <= image_bytes, "{words} words");
}

#[test]
fn the_hx8k_places_the_largest_system_at_the_first_attempt() {
    let (summary, out) = place("hx8k", &[]);
    let attempts = summary["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 1, "{summary}");
    assert_eq!(attempts[0]["fits"], true);
    let built = summary["built"].as_str().unwrap();
    assert!(built.contains("K=4") && built.contains("monitor N=8") && built.contains("RAM 4 KiB"), "{built}");
    let (used, available) = logic_cells(&out);
    assert!(used > 3000 && used <= available && available == 7680, "{used} / {available}");
    firmware_is_built_in(&out, 4096);
    let soc = std::fs::read_to_string(out.join("pmugen_soc.v")).unwrap();
    assert!(soc.contains("input  wire        console_ready,") && soc.contains("$readmemh(\"pmugen_soc_firmware.hex\""));
    assert!(!out.join("pmugen_soc_board.bin").exists(), "--no-fmax packs no bitstream");
}

#[test]
fn the_up5k_places_k1_without_the_monitor_in_its_spram() {
    let (summary, out) = place("icebreaker", &["--counters", "1", "--no-monitor"]);
    assert_eq!(summary["attempts"].as_array().unwrap().len(), 1);
    let built = summary["built"].as_str().unwrap();
    assert!(built.contains("K=1") && built.contains("no monitor") && built.contains("SPRAM"), "{built}");
    let (used, available) = logic_cells(&out);
    assert!(used <= available && available == 5280, "{used} / {available}");
    firmware_is_built_in(&out, 4096);
    let soc = std::fs::read_to_string(out.join("pmugen_soc.v")).unwrap();
    assert_eq!(soc.matches("SB_SPRAM256KA").count(), 2, "two SPRAMs side by side");
    assert!(soc.contains("No monitor in this system"));
}

/// `name=value` lines of a console.
fn printed(console: &str, key: &str) -> u64 {
    let line = console.lines().find_map(|l| l.strip_prefix(&format!("{key}=")));
    line.unwrap_or_else(|| panic!("no {key}= in\n{console}")).trim().parse().unwrap()
}

#[test]
fn both_board_systems_run_their_firmware_in_simulation_and_print_on_the_uart() {
    // The same program on the simulated reference SoC: the loop's user-mode counts do
    // not depend on the system's sizes.
    let reference = crate::soc_examples::run("board");
    for (board, extra, identity) in
        [("hx8k", &[][..], "K 4, monitor"), ("icebreaker", &["--counters", "1", "--no-monitor"][..], "K 1, no monitor")]
    {
        let out = scratch(&format!("soc-board-sim-{board}"));
        let mut args = vec!["soc", "--board", board, "--simulate", "--out", out.to_str().unwrap()];
        args.extend(extra);
        let (ok, console) = pmugen(&args);
        assert!(ok && console.contains("exit LED lit"), "{board}: {console}");
        assert!(console.contains("pmugen soc: PMU_ID 0x") && console.contains(identity), "{console}");
        for key in ["board.INSTRET", "board.sum"] {
            assert_eq!(printed(&console, key), reference.value(key), "{board}: {key}");
        }
        // K = 1 counts INSTRET only; K = 4 also BRANCH_TAKEN and LOAD.
        let branches = console.lines().any(|l| l.starts_with("board.BRANCH_TAKEN="));
        assert_eq!(branches, board == "hx8k", "{console}");
        if branches {
            assert_eq!(printed(&console, "board.BRANCH_TAKEN"), reference.value("board.BRANCH_TAKEN"));
        }
        assert!(printed(&console, "board.rdinstret") > printed(&console, "board.INSTRET"));
    }
}

/// SERV's iCEBreaker system is the largest (K = 4 and the monitor, docs/soc.md §2.9): in
/// simulation it prints the reference system's counts of the same loop.
#[test]
fn the_serv_icebreaker_system_is_the_full_one_and_runs_its_firmware() {
    let reference = crate::soc_examples::run("board");
    let out = scratch("soc-board-sim-serv");
    let (ok, console) =
        pmugen(&["soc", "--board", "icebreaker", "--cpu", "serv", "--simulate", "--out", out.to_str().unwrap()]);
    assert!(ok && console.contains("exit LED lit"), "{console}");
    assert!(console.contains("serv, PMU K=4") && console.contains("K 4, monitor"), "{console}");
    for key in ["board.INSTRET", "board.BRANCH_TAKEN", "board.LOAD", "board.sum"] {
        assert_eq!(printed(&console, key), reference.value(key), "SERV: {key}");
    }
}
