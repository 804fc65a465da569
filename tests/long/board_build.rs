//! The iCE40 and ECP5 bitstreams build with the open-source flow (the current tools)
//! and meet timing at the board clock, and each bitstream reads back (iceunpack,
//! ecpunpack) as the configuration nextpnr placed; the board top's Verilog is lint
//! clean. The check of board names is in tests/outputs/board_build.rs.
use pmugen::build;
use pmugen::report::family::Family;
use pmugen::toolchain::{Tool, Toolchain};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// An iCE40 configuration (`.asc`) without what the bitstream does not carry: comments,
/// nextpnr's net names (`.sym`), blank lines and the contents of RAMs left all zero
/// (nextpnr omits them, iceunpack lists every RAM).
fn ice40_configuration(text: &str) -> Vec<String> {
    let mut kept = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let flush = |block: &mut Vec<String>, kept: &mut Vec<String>| {
        let Some(head) = block.first() else { return };
        let blank_ram = head.starts_with(".ram_data") && block[1..].iter().all(|row| row.chars().all(|c| c == '0'));
        let dropped = head.starts_with(".comment") || head.starts_with(".sym") || blank_ram;
        if !dropped {
            kept.append(block);
        }
        block.clear();
    };
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if line.starts_with('.') {
            flush(&mut block, &mut kept);
        }
        block.push(line.to_string());
    }
    flush(&mut block, &mut kept);
    kept
}

/// The configuration words of an ECP5 textual configuration (`.config`), by tile: the
/// LUT functions, flip-flop and block RAM settings.
fn ecp5_words(text: &str) -> BTreeSet<(String, String)> {
    let mut tile = String::new();
    let mut words = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with(".tile") {
            tile = line.to_string();
        } else if line.starts_with("word:") {
            words.insert((tile.clone(), line.to_string()));
        }
    }
    words
}

/// The bitstream, unpacked, against the configuration nextpnr wrote beside it.
fn check_read_back(family: Family, bitstream: &Path) {
    let dir = bitstream.parent().unwrap();
    let (unpacker, placed) = match family {
        Family::Ecp5 => (Tool::Ecpunpack, bitstream.with_extension("config")),
        _ => (Tool::Iceunpack, bitstream.with_extension("asc")),
    };
    let read = dir.join("read-back.txt");
    // Names relative to the run directory: the YoWASP tools see only their working
    // directory, not every absolute path.
    let args = [bitstream.file_name().unwrap().to_str().unwrap(), "read-back.txt"];
    Toolchain::Current.run_ok(unpacker, &args, dir, "the bitstream").unwrap();
    let (read, placed) = (std::fs::read_to_string(read).unwrap(), std::fs::read_to_string(placed).unwrap());
    if family == Family::Ecp5 {
        // ecpunpack lists a word only where it differs from the blank device, whose LUTs
        // read as all ones: every word it lists is nextpnr's, and every word it leaves
        // out is such a LUT.
        let (read, placed) = (ecp5_words(&read), ecp5_words(&placed));
        assert!(read.is_subset(&placed), "words the placement lacks: {:?}", read.difference(&placed).next());
        let missing: Vec<_> = placed
            .difference(&read)
            .filter(|(_, word)| word.rsplit(' ').next().is_some_and(|bits| bits.contains('0')))
            .collect();
        assert!(missing.is_empty(), "placed words not in the bitstream: {missing:?}");
    } else {
        assert!(ice40_configuration(&read) == ice40_configuration(&placed), "the bitstream is not the placed design");
    }
}

fn check(name: &str) {
    let board = build::board(name).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("board-{name}"));
    let summary = build::build(&board, Toolchain::Current, &out).unwrap_or_else(|e| panic!("{e:#}"));
    check_read_back(board.family, &summary.bitstream);
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
