//! One attempt of a board build (docs/soc.md §5.2): a system of one configuration with
//! its firmware, synthesized by yosys, placed (and routed and packed) by nextpnr-ice40
//! and icepack (the current tools unless `--toolchain debian`); a design that nextpnr cannot place is a result, "does not fit", with
//! the resource it found short.
use anyhow::{bail, Result};
use serde_json::Value;
use std::path::Path;

use super::super::config::SocConfig;
use super::super::{compile, ram, system_for, System};
use super::{top, Fit, FIRMWARE, TOP};
use crate::build::Board;
use crate::build::{nextpnr_args, used_available};
use crate::design::Artifact;
use crate::report::fpga::{utilisation, utilisation_line, PLACE_LIMIT_MINUTES, UNTIMED};
use crate::toolchain::{Tool, Toolchain};

/// The board's pin constraints for the SoC (`constraints/<board>_soc.pcf`).
fn pcf(board: &Board) -> &'static str {
    match board.name {
        "icebreaker" => include_str!("../../../constraints/icebreaker_soc.pcf"),
        _ => include_str!("../../../constraints/hx8k_soc.pcf"),
    }
}

/// The files of `config`'s system on `board` with its firmware, in `dir`: the system,
/// and the board top (written there too).
pub fn prepare(board: &Board, config: &SocConfig, dir: &Path) -> Result<(System, Artifact)> {
    let system = system_for(config)?;
    compile::write_files(&system.files, dir)?;
    let top = Artifact { name: format!("{TOP}.v"), text: top::verilog(board) };
    compile::write_files(std::slice::from_ref(&top), dir)?;
    firmware(config, dir)?;
    Ok((system, top))
}

/// board.c built for `config` in `dir/firmware`, its image as `dir/pmugen_soc_firmware.hex`
/// (the drivers and runtime must be in `dir`).
fn firmware(config: &SocConfig, dir: &Path) -> Result<()> {
    let source = Artifact { name: "firmware/board.c".into(), text: FIRMWARE.into() };
    compile::write_files(&[source], dir)?;
    let built = compile::build(&[dir.join("firmware/board.c")], dir, &dir.join("firmware"), "board", config.cpu)?;
    if built.bytes > config.image_bytes() {
        bail!("the board firmware is {} bytes; this system's RAM image holds {}", built.bytes, config.image_bytes());
    }
    std::fs::copy(&built.hex, dir.join(ram::FIRMWARE_HEX))?;
    Ok(())
}

/// Why nextpnr could not place a design, from its log: the device utilisation it printed
/// after packing when a resource is over its count (and whether the block RAMs are),
/// else its error about placement.
fn does_not_fit(log: &str) -> Option<(String, bool)> {
    let over: Vec<(&str, u64, u64)> =
        log.lines().filter_map(utilisation_line).filter(|(_, used, available)| used > available).collect();
    if !over.is_empty() {
        let text: Vec<String> =
            over.iter().map(|(cell, used, available)| format!("{used} / {available} {cell}")).collect();
        let block_rams = over.iter().any(|(cell, _, _)| *cell == "ICESTORM_RAM");
        return Some((format!("needs {}", text.join(", ")), block_rams));
    }
    let line = log.lines().find(|line| {
        let line = line.to_ascii_lowercase();
        line.contains("unable to place") || line.contains("failed to place") || line.contains("failed to expand region")
    })?;
    Some((line.trim().trim_start_matches("ERROR: ").to_string(), false))
}

/// Synthesize, place (and with `route`, route and pack) `config` on `board` in `dir`
/// with `toolchain`.
pub fn attempt(board: &Board, config: &SocConfig, dir: &Path, route: bool, toolchain: Toolchain) -> Result<Fit> {
    let (system, top) = prepare(board, config, dir)?;
    let verilog: Vec<&str> = system.verilog.iter().map(String::as_str).chain([top.name.as_str()]).collect();
    let files = verilog.join(" ");
    let script = format!("read_verilog -DRISCV_FORMAL {files}; synth_ice40 -top {TOP} -json {TOP}.json");
    let what = dir.display().to_string();
    toolchain.run_ok(Tool::Yosys, &["-q", "-l", "yosys.log", "-p", &script], dir, &what)?;
    let asc = format!("{TOP}.asc");
    let mut args = nextpnr_args(board, pcf(board), &format!("{TOP}.json"), dir)?;
    let unrouted = UNTIMED.map(String::from).to_vec();
    args.extend(if route { vec!["--asc".to_string(), asc.clone()] } else { unrouted });
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let limit = std::time::Duration::from_secs(PLACE_LIMIT_MINUTES * 60);
    let run = toolchain.run_within(Tool::NextpnrIce40, &args, dir, limit)?;
    if run.timed_out {
        let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
        return Ok(Fit::NotRouted { logic_cells: utilisation(&log, "ICESTORM_LC") });
    }
    let (ok, output) = (run.success, run.output);
    if !ok {
        let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default() + &output;
        return match does_not_fit(&log) {
            Some((why, block_rams)) => Ok(Fit::DoesNotFit { why, block_rams }),
            None => bail!("nextpnr-ice40 failed on {}:\n{log}", dir.display()),
        };
    }
    let report: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("nextpnr.json"))?)?;
    let fmax_mhz = if route {
        toolchain.run_ok(Tool::Icepack, &[&asc, &format!("{TOP}.bin")], dir, &what)?;
        crate::report::fpga::fmax_mhz(&report)
    } else {
        None
    };
    Ok(Fit::Fits {
        logic_cells: used_available(&report, "ICESTORM_LC"),
        block_rams: used_available(&report, "ICESTORM_RAM"),
        fmax_mhz,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_design_too_large_is_named_by_the_resource_it_lacks() {
        assert_eq!(
            does_not_fit("Info: x\nERROR: Unable to place cell 'a'\n"),
            Some(("Unable to place cell 'a'".to_string(), false))
        );
        let log =
            "Info: \t         ICESTORM_LC:  5836/ 5280   110%\nInfo: \t        ICESTORM_RAM:    22/   30    73%\n\
                   ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5836 ICESTORM_LCs\n";
        assert_eq!(does_not_fit(log), Some(("needs 5836 / 5280 ICESTORM_LC".to_string(), false)));
        let log =
            "Info: \t         ICESTORM_LC:  6200/ 5280   117%\nInfo: \t        ICESTORM_RAM:    32/   30   106%\n";
        assert_eq!(does_not_fit(log), Some(("needs 6200 / 5280 ICESTORM_LC, 32 / 30 ICESTORM_RAM".to_string(), true)));
        assert_eq!(does_not_fit("Info: all good\n"), None);
    }
}
