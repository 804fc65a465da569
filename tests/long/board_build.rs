//! The iCE40 and ECP5 bitstreams build with the open-source flow (the current tools)
//! and meet timing at the board clock; the board top's Verilog is lint clean. The check of board names is
//! in tests/outputs/board_build.rs.
use pmugen::build;
use pmugen::report::family::Family;
use pmugen::toolchain::Toolchain;
use std::path::PathBuf;

fn check(name: &str) {
    let board = build::board(name).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("board-{name}"));
    let summary = build::build(&board, Toolchain::Current, &out).unwrap_or_else(|e| panic!("{e:#}"));
    let bitstream = std::fs::metadata(&summary.bitstream).unwrap();
    assert!(bitstream.len() > 30_000, "{} is only {} bytes", summary.bitstream.display(), bitstream.len());
    assert!(summary.fmax_mhz >= board.clock_hz as f64 / 1e6, "timing met at the board clock");
    assert!(summary.logic_cells.0 > 700 && summary.logic_cells.0 < summary.logic_cells.1);
    let ice40 = board.family == Family::Ice40;
    assert_eq!(
        summary.markdown.contains("It reserves none"),
        ice40,
        "an iCE40 summary says why the global buffers are all used"
    );
    assert_eq!(summary.io.0, 22, "clock, reset, 8 events, 4 start, 4 stop, 2 UART, 2 LEDs");
    let verilog = build::board_verilog(&board).unwrap();
    let top = build::top_name(&board);
    pmugen_sim::tools::verilator_lint(&verilog, &top).unwrap_or_else(|e| panic!("{e}"));
    for module in pmugen_hdl::emit::module_names(&verilog) {
        assert!(module.starts_with(&top), "{module}");
    }
}

#[test]
fn icebreaker_bitstream() {
    check("icebreaker");
}

#[test]
fn hx8k_bitstream() {
    check("hx8k");
}

#[test]
fn ulx3s_bitstream() {
    check("ulx3s");
}
