//! `pmugen soc --board ... --simulate` (docs/soc.md §5.3): the system that a board build
//! makes, from the board top down, with its firmware under Verilator; the UART line is
//! decoded by the simulation (sim_main.cpp) until the exit LED lights.
use anyhow::{bail, Context, Result};
use std::path::Path;

use super::super::config::RamKind;
use super::super::run;
use super::candidates::{configurations, Selection};
use super::{place::prepare, TOP};
use crate::build::Board;
use crate::design::Artifact;

/// The C++ main of the board simulation.
const SIM_MAIN: &str = include_str!("sim_main.cpp");

/// The UP5K's SPRAM as yosys models it for simulation (its `ice40/cells_sim.v`).
fn spram_model() -> Result<Artifact> {
    let shares = ["/usr/share/yosys", "/usr/local/share/yosys"];
    let Some(path) = shares.iter().map(|d| Path::new(d).join("ice40/cells_sim.v")).find(|p| p.is_file()) else {
        bail!(
            "yosys's ice40/cells_sim.v is not in {}: install Debian's yosys (scripts/install-tools.sh)",
            shares.join(" or ")
        );
    };
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let start = text.find("module SB_SPRAM256KA").with_context(|| format!("{}: no SB_SPRAM256KA", path.display()))?;
    let end = start + text[start..].find("endmodule").context("SB_SPRAM256KA has no endmodule")? + "endmodule".len();
    let module =
        format!("// SB_SPRAM256KA from {} (yosys's simulation model).\n{}\n", path.display(), &text[start..end]);
    Ok(Artifact { name: "sb_spram256ka.v".into(), text: module })
}

/// Simulate the first system of `board` that `selection` leaves (the largest, without a
/// selection: docs/soc.md §5.3) with its firmware under Verilator in `out`, decoding the
/// UART; returns what the firmware printed.
pub fn simulate(
    board: &Board,
    out: &Path,
    selection: Selection,
    max_cycles: u64,
    cpu: super::super::cpu::Cpu,
) -> Result<String> {
    let config = configurations(board, selection, cpu)?[0];
    crate::generate::output_dir(out, "--out")?;
    let (system, top) = prepare(board, &config, out)?;
    let mut extra = vec![top];
    if let RamKind::Spram { .. } = config.ram {
        extra.push(spram_model()?);
    }
    let flags = ["-DRISCV_FORMAL", "-DSYNTHESIS", "-Wno-fatal", "--top-module", TOP, "--Mdir", "obj", "-o", run::EXE];
    let model = run::Model { top: TOP, main: SIM_MAIN, flags: &flags, extra: &extra };
    let exe = run::build_model(&model, &system, out)?;
    eprintln!("soc --board {} --simulate: {}", board.name, config.describe());
    let divider = (board.clock_hz + crate::build::BAUD / 2) / crate::build::BAUD;
    let low = |polarity| matches!(polarity, pmugen_hdl::board::board_top::Polarity::ActiveLow) as u8;
    let output = std::process::Command::new(&exe)
        .args(["--max-cycles", &max_cycles.to_string(), "--divider", &divider.to_string()])
        .args(["--led-active-low", &low(board.leds).to_string(), "--reset-active-low", &low(board.reset).to_string()])
        .current_dir(out)
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    let console = String::from_utf8_lossy(&output.stdout).into_owned();
    let note = String::from_utf8_lossy(&output.stderr).trim().to_string();
    if !output.status.success() {
        bail!("{note} (the console so far:\n{console})");
    }
    eprintln!("soc --board {} --simulate: {note}", board.name);
    Ok(console)
}
