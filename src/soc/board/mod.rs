//! `pmugen soc --board icebreaker|hx8k` (docs/soc.md §5): the reference SoC on an iCE40
//! board, with the firmware board.c in its bitstream. The configurations are tried from
//! the largest down (K, then the monitor), each synthesized by yosys and placed by
//! nextpnr-ice40 ([`place`]); the first that fits (and, when routed, meets the 12 MHz
//! board clock) becomes the bitstream. The report lists every attempt and, for the one
//! built, each part's share ([`parts`]). [`simulate`] runs a system before it is built.
//!
//! ```text
//! candidates --> place (yosys, nextpnr) --> fits? --> bitstream, parts, summary
//!                          | does not fit: the next, smaller system
//! ```
pub mod parts;
pub mod place;
pub mod simulate;
pub mod top;

use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::Path;

use super::compile;
use super::config::{RamKind, SocConfig};
use super::cpu::Cpu;
use crate::build::Board;
use crate::toolchain::{Tool, Toolchain};
use pmugen_sim::tools::require;

/// The firmware every board bitstream holds (examples/soc/board.c).
pub const FIRMWARE: &str = include_str!("../../../examples/soc/board.c");

/// The board top's module name.
pub const TOP: &str = "pmugen_soc_board";

/// The configurations tried on `board`, largest first: K = 4, 2, 1 with the monitor,
/// then K = 2, 1 without. The UP5K keeps 64 KiB of RAM in its SPRAM (a 4 KiB boot ROM),
/// the HX8K 4 KiB of block RAM; both a 256-word trace sink and D = 256.
pub fn candidates(board: &Board, cpu: Cpu) -> Vec<SocConfig> {
    let (ram_words, ram) = match board.name {
        "icebreaker" => (16384, RamKind::Spram { boot_words: 1024 }),
        _ => (1024, RamKind::Plain),
    };
    let base = SocConfig {
        counters: 4,
        trace_depth: 256,
        profile_entries: 0,
        monitor: true,
        ram_words,
        ram,
        sink_words: 256,
        board: true,
        cpu,
    };
    [(4, true), (2, true), (1, true), (2, false), (1, false)]
        .into_iter()
        .map(|(counters, monitor)| SocConfig { counters, monitor, ..base })
        .collect()
}

/// What one configuration gave.
#[derive(Clone, Debug)]
pub enum Fit {
    /// Placed (and routed unless `--no-fmax`).
    Fits {
        /// Logic cells used and available.
        logic_cells: (u64, u64),
        /// Block RAMs used and available.
        block_rams: (u64, u64),
        /// Fmax of `clock` when routed.
        fmax_mhz: Option<f64>,
    },
    /// nextpnr could not place it; its words.
    DoesNotFit(String),
    /// nextpnr placed it (with these logic cells, used and available, after packing) but
    /// did not finish routing it within the time limit: congestion on a nearly full device.
    NotRouted {
        /// Logic cells used and available.
        logic_cells: Option<(u64, u64)>,
    },
}

/// `board`'s configurations, or the one `only` names (K, monitor).
fn configurations(board: &Board, only: Option<(usize, bool)>, cpu: Cpu) -> Result<Vec<SocConfig>> {
    let mut configs = candidates(board, cpu);
    if let Some((counters, monitor)) = only {
        configs.retain(|c| (c.counters, c.monitor) == (counters, monitor));
        if configs.is_empty() {
            let monitor = if monitor { "with" } else { "without" };
            bail!(
                "--counters {counters} {monitor} the monitor: not one of the board systems (K = 4, 2 or 1 with the \
                 monitor, K = 2 or 1 without)"
            );
        }
    }
    Ok(configs)
}

/// What `soc --board` did.
pub struct BoardSummary {
    /// The report as Markdown.
    pub markdown: String,
}

/// Try `board`'s configurations in `out` (routed and packed into a bitstream with
/// `route`, else placed only), or only the one with `only`'s (K, monitor), and keep the
/// first that fits, with `toolchain`; the report goes to `out/summary.md` and
/// `out/summary.json`.
pub fn build(
    board: &Board,
    out: &Path,
    route: bool,
    only: Option<(usize, bool)>,
    toolchain: Toolchain,
    cpu: Cpu,
) -> Result<BoardSummary> {
    let configs = configurations(board, only, cpu)?;
    toolchain.require(&[Tool::Yosys, Tool::NextpnrIce40, Tool::Icepack])?;
    require(&[compile::GCC]).map_err(anyhow::Error::msg)?;
    let staging = crate::staging::Staging::new(out)?;
    let clock_mhz = board.clock_hz as f64 / 1e6;
    let mut markdown =
        format!("# The reference SoC ({cpu}) on the {}\n\n| system | result |\n|---|---|\n", board.title);
    let mut attempts = Vec::new();
    let mut chosen = None;
    for (index, config) in configs.iter().enumerate() {
        let dir = staging.path().join(format!("attempt-{index}"));
        std::fs::create_dir_all(&dir)?;
        eprintln!("soc --board {}: {} ...", board.name, config.describe());
        let fit = place::attempt(board, config, &dir, route, toolchain)?;
        let (text, good) = match &fit {
            Fit::Fits { logic_cells, block_rams, fmax_mhz } => {
                let fmax = fmax_mhz.map_or("not routed (--no-fmax)".to_string(), |f| format!("Fmax {f:.1} MHz"));
                let meets = fmax_mhz.is_none_or(|f| f >= clock_mhz);
                let verdict = if meets { "fits" } else { "fits, but misses the board clock" };
                (
                    format!(
                        "{verdict}: {} / {} logic cells, {} / {} block RAMs, {fmax}",
                        logic_cells.0, logic_cells.1, block_rams.0, block_rams.1
                    ),
                    meets,
                )
            }
            Fit::DoesNotFit(why) => (format!("does not fit: {why}"), false),
            Fit::NotRouted { logic_cells } => {
                let cells = logic_cells
                    .map_or(String::new(), |(used, available)| format!("{used} / {available} logic cells, "));
                (
                    format!(
                        "{cells}placed, but nextpnr did not finish routing within {} minutes (congestion \
                         on a nearly full device)",
                        crate::report::fpga::PLACE_LIMIT_MINUTES
                    ),
                    false,
                )
            }
        };
        eprintln!("soc --board {}: {text}", board.name);
        let _ = writeln!(markdown, "| {} | {text} |", config.describe());
        attempts.push(serde_json::json!({ "system": config.describe(), "result": text, "fits": good }));
        if good {
            chosen = Some((index, *config, fit, dir));
            break;
        }
    }
    let Some((index, config, fit, dir)) = chosen else {
        bail!("no configuration of the SoC fits the {}:\n{markdown}", board.title);
    };
    let parts = if route { parts::hierarchy(&dir, toolchain)? } else { Vec::new() };
    let _ = writeln!(markdown, "\nBuilt: {} (attempt {index}).\n", config.describe());
    if !parts.is_empty() {
        let _ = writeln!(
            markdown,
            "Parts, from a synthesis that keeps the hierarchy (no optimisation across parts, so they add up to \
             somewhat more than the whole):\n\n| part | LUT4 | flip-flops | carries | block RAMs | SPRAMs |\n|---|---:|---:|---:|---:|---:|"
        );
        for p in &parts {
            let _ = writeln!(
                markdown,
                "| {} | {} | {} | {} | {} | {} |",
                p.name, p.luts, p.flip_flops, p.carries, p.block_rams, p.sprams
            );
        }
    }
    // The chosen attempt's files become the output; the others are left out.
    for entry in std::fs::read_dir(&dir)? {
        let from = entry?.path();
        std::fs::rename(&from, staging.path().join(from.file_name().expect("a name")))?;
    }
    for attempt in 0..=index {
        let _ = std::fs::remove_dir_all(staging.path().join(format!("attempt-{attempt}")));
    }
    let json = serde_json::json!({
        "board": board.name,
        "attempts": attempts,
        "built": config.describe(),
        "fit": format!("{fit:?}"),
        "parts": parts.iter().map(|p| serde_json::json!({
            "part": p.name, "luts": p.luts, "flip_flops": p.flip_flops, "carries": p.carries,
            "block_rams": p.block_rams, "sprams": p.sprams,
        })).collect::<Vec<_>>(),
        "bitstream": if route { Some(format!("{TOP}.bin")) } else { None },
    });
    std::fs::write(staging.path().join("summary.md"), &markdown)?;
    std::fs::write(staging.path().join("summary.json"), serde_json::to_string_pretty(&json)? + "\n")?;
    staging.publish()?;
    Ok(BoardSummary { markdown })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_configuration_comes_first_and_each_is_valid() {
        for board in crate::build::BOARDS {
            let list = candidates(&board, Cpu::Picorv32);
            assert_eq!((list[0].counters, list[0].monitor), (4, true));
            assert!(list.iter().all(|c| c.checked().is_ok()), "{}", board.name);
            assert!(list.windows(2).all(|w| w[0] != w[1]));
        }
    }
}
