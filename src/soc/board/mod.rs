//! `pmugen soc --board icebreaker|hx8k` (docs/soc.md §5): the reference SoC on an iCE40
//! board, with the firmware board.c in its bitstream. The systems are tried from the
//! largest down (the profile table, then K, then the monitor: [`candidates`]), each
//! synthesized by yosys and placed by nextpnr-ice40 ([`place`]); the first that fits
//! (and, when routed, meets the 12 MHz board clock) becomes the bitstream. The report
//! lists every attempt and, for the one built, why it has its table and each part's
//! share ([`parts`]). [`simulate`] runs a system before it is built.
//!
//! ```text
//! candidates --> place (yosys, nextpnr) --> fits? --> bitstream, parts, summary
//!                          | does not fit: the next, smaller system
//! ```
pub mod candidates;
pub mod parts;
pub mod place;
pub mod simulate;
pub mod top;

use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::Path;

use super::compile;
use super::config::SocConfig;
use super::cpu::Cpu;
use crate::build::Board;
use crate::toolchain::{Tool, Toolchain};
use candidates::{configurations, Selection};
use pmugen_sim::tools::require;

/// The firmware every board bitstream holds (examples/soc/board.c).
pub const FIRMWARE: &str = include_str!("../../../examples/soc/board.c");

/// The board top's module name.
pub const TOP: &str = "pmugen_soc_board";

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
    /// nextpnr could not place it: its words, and whether it lacks block RAMs.
    DoesNotFit {
        /// The resource short, with both counts, or nextpnr's error.
        why: String,
        /// Whether the block RAMs are short (a system with the same memories is skipped).
        block_rams: bool,
    },
    /// nextpnr placed it (with these logic cells, used and available, after packing) but
    /// did not finish routing it within the time limit: congestion on a nearly full device.
    NotRouted {
        /// Logic cells used and available.
        logic_cells: Option<(u64, u64)>,
    },
}

/// What `soc --board` did.
pub struct BoardSummary {
    /// The report as Markdown.
    pub markdown: String,
}

/// One attempt's line in the report, and whether its system is the one to build (it fits
/// and, when routed, meets the board's clock of `clock_mhz`).
fn verdict(fit: &Fit, clock_mhz: f64) -> (String, bool) {
    match fit {
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
        Fit::DoesNotFit { why, .. } => (format!("does not fit: {why}"), false),
        Fit::NotRouted { logic_cells } => {
            let cells =
                logic_cells.map_or(String::new(), |(used, available)| format!("{used} / {available} logic cells, "));
            let minutes = crate::report::fpga::PLACE_LIMIT_MINUTES;
            let text = format!(
                "{cells}placed, but nextpnr did not finish routing within {minutes} minutes (congestion on a nearly \
                 full device)"
            );
            (text, false)
        }
    }
}

/// Why the built system has the table it has (docs/soc.md §5.2).
fn table_reason(config: &SocConfig, selection: Selection) -> String {
    match (config.profile_entries, selection.profile_entries) {
        (_, Some(entries)) => format!("Profile table: E = {entries}, as --profile-entries asks."),
        (0, None) => "No profile table: no system with one fits (above), so the firmware prints no profile.".into(),
        (entries, None) => format!(
            "Profile table: E = {entries}, the largest the search tries (on the iCE40 a table of 16 to 256 entries \
             takes the same block RAMs, 512 twice as many; docs/soc.md §5.2)."
        ),
    }
}

/// Try `board`'s systems that `selection` leaves, in order, in `out` (routed and packed
/// into a bitstream with `route`, else placed only), and keep the first that fits, with
/// `toolchain`; a system with the memories of one short of block RAMs is skipped
/// ([`candidates::short_of_block_rams`]). The report goes to `out/summary.md` and
/// `out/summary.json`.
pub fn build(
    board: &Board,
    out: &Path,
    route: bool,
    selection: Selection,
    toolchain: Toolchain,
    cpu: Cpu,
) -> Result<BoardSummary> {
    let configs = configurations(board, selection, cpu)?;
    toolchain.require(&[Tool::Yosys, Tool::NextpnrIce40, Tool::Icepack])?;
    require(&[compile::GCC]).map_err(anyhow::Error::msg)?;
    let staging = crate::staging::Staging::new(out)?;
    let clock_mhz = board.clock_hz as f64 / 1e6;
    let mut markdown =
        format!("# The reference SoC ({cpu}) on the {}\n\n| system | result |\n|---|---|\n", board.title);
    let mut attempts = Vec::new();
    let mut short = Vec::new();
    let mut chosen = None;
    for (index, config) in configs.iter().enumerate() {
        let (text, good, fit) = if let Some(failed) = candidates::short_of_block_rams(config, &short) {
            let text =
                format!("skipped: the block RAMs of {} (above), which the monitor does not change", failed.describe());
            (text, false, None)
        } else {
            let dir = staging.path().join(format!("attempt-{index}"));
            std::fs::create_dir_all(&dir)?;
            eprintln!("soc --board {}: {} ...", board.name, config.describe());
            let fit = place::attempt(board, config, &dir, route, toolchain)?;
            if let Fit::DoesNotFit { block_rams: true, .. } = fit {
                short.push(*config);
            }
            let (text, good) = verdict(&fit, clock_mhz);
            (text, good, Some((fit, dir)))
        };
        eprintln!("soc --board {}: {text}", board.name);
        let _ = writeln!(markdown, "| {} | {text} |", config.describe());
        attempts.push(serde_json::json!({ "system": config.describe(), "result": text, "fits": good }));
        if good {
            chosen = Some((index, *config, fit.expect("an attempt that fits was made")));
            break;
        }
    }
    let Some((index, config, (fit, dir))) = chosen else {
        bail!("no configuration of the SoC fits the {}:\n{markdown}", board.title);
    };
    let parts = if route { parts::hierarchy(&dir, toolchain)? } else { Vec::new() };
    let _ = writeln!(markdown, "\nBuilt: {} (attempt {index}).\n", config.describe());
    let _ = writeln!(markdown, "{}\n", table_reason(&config, selection));
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
        "system": {
            "cpu": config.cpu.to_string(), "counters": config.counters, "monitor": config.monitor,
            "profile_entries": config.profile_entries, "sink_words": config.sink_words,
            "trace_depth": config.trace_depth, "ram_bytes": config.ram_bytes(),
        },
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
