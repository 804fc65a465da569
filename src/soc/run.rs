//! `pmugen soc run`: the reference SoC under Verilator (docs/soc.md §2.5). The model is
//! built once per set of generated sources and build flags, in `<out>/verilator/<hash>`
//! (by `cached_build`, as the designs' models: an interrupted build never looks
//! cached), then runs a firmware image to its exit.
use anyhow::{bail, Context, Result};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{compile::write_files, map, programmed, System};
use crate::design::Artifact;
use pmugen_hdl::pmu::event_table::EventTable;
use pmugen_sim::tools::{objcache_flags, require, run_tool, ToolError};
use pmugen_sim::verilator::{cached_build, MODEL_FLAGS};

/// The C++ main around the SoC.
const MAIN: &str = include_str!("sim_main.cpp");

/// The executable's name in its build directory.
pub const EXE: &str = "pmugen_soc_sim";

/// The SoC model's own Verilator flags, after [`MODEL_FLAGS`] (both part of the cache key):
/// PicoRV32 with its RVFI port, whose lint warnings are not ours to fix.
const FLAGS: [&str; 8] = ["-DRISCV_FORMAL", "-Wno-fatal", "--top-module", "pmugen_soc", "--Mdir", "obj", "-o", EXE];

/// The Verilator model of `system`, built into `out/verilator/<hash>` unless there.
pub fn model(system: &System, out: &Path) -> Result<PathBuf> {
    let model = Model { top: map::TOP, main: MAIN, flags: &FLAGS, extra: &[] };
    build_model(&model, system, out)
}

/// What a Verilator model of an SoC is built from besides the system's files.
pub struct Model<'a> {
    /// The top module.
    pub top: &'a str,
    /// The C++ main.
    pub main: &'a str,
    /// Verilator flags after [`MODEL_FLAGS`], naming the top and the executable [`EXE`].
    pub flags: &'a [&'a str],
    /// More Verilog files, read after the system's.
    pub extra: &'a [Artifact],
}

/// The Verilator model of `model` around `system`, built into
/// `out/verilator/<top>-<hash>` unless there (the hash over every input).
pub fn build_model(model: &Model, system: &System, out: &Path) -> Result<PathBuf> {
    let mut hasher = DefaultHasher::new();
    for file in system.files.iter().chain(model.extra) {
        (&file.name, &file.text).hash(&mut hasher);
    }
    (model.main, MODEL_FLAGS, model.flags).hash(&mut hasher);
    let cache = out.join("verilator");
    let dir = cache.join(format!("{}-{:016x}", model.top, hasher.finish()));
    let product = format!("obj/{EXE}");
    cached_build(&dir, &product, |work| {
        require(&["verilator", "make", "g++"])?;
        let mut files = system.files.clone();
        files.extend(model.extra.iter().cloned());
        files.push(Artifact { name: "sim_main.cpp".into(), text: model.main.into() });
        write_files(&files, work)?;
        eprintln!(
            "soc: building the Verilator model of {} (once, under a minute; cached in {})",
            model.top,
            cache.display()
        );
        let mut args: Vec<&str> = MODEL_FLAGS.to_vec();
        args.extend(model.flags);
        args.extend(system.flags.iter().map(String::as_str));
        args.extend(objcache_flags());
        args.push("pmugen_soc.vlt");
        args.extend(system.verilog.iter().map(String::as_str));
        args.extend(model.extra.iter().map(|f| f.name.as_str()));
        args.push("sim_main.cpp");
        let started = Instant::now();
        let (ok, log) = run_tool("verilator", &args, work)?;
        if !ok || !work.join(&product).is_file() {
            let what = format!("the Verilator build of {}", model.top);
            return Err(ToolError::Refused { what, output: log }.into());
        }
        eprintln!("soc: built in {:.0} s", started.elapsed().as_secs_f64());
        Ok::<(), anyhow::Error>(())
    })
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The firmware stored `code` into the exit register.
    Exit(u32),
    /// PicoRV32 stopped (its `trap` output) after the retirement at `pc`.
    Trap { pc: u32 },
    /// The cycle limit passed.
    Limit,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// How it ended.
    pub outcome: Outcome,
    /// Cycles from reset.
    pub cycles: u64,
    /// Retired instructions.
    pub retired: u64,
    /// Trace words the sink took.
    pub trace_words: u64,
    /// Wall-clock seconds of the simulation (without the build).
    pub seconds: f64,
}

/// Where a run writes its files.
#[derive(Clone, Debug)]
pub struct RunFiles {
    /// The captured trace words; the record of the events programmed goes beside it
    /// ([`programmed::record_path`]).
    pub trace: PathBuf,
    /// The retirement log, if asked for.
    pub rvfi_log: Option<PathBuf>,
}

/// What the record of programmed events needs to know of the SoC's PMU.
#[derive(Clone, Debug)]
pub struct PmuInfo {
    /// Its bare top's name.
    pub top: String,
    /// K.
    pub counters: usize,
    /// Its event table.
    pub table: EventTable,
}

/// Run `image` on `exe` for at most `max_cycles` in a scratch directory under `out`;
/// the trace, its record of programmed events and the log reach `files` when the
/// simulation ends, however it ended (exit, trap or the cycle limit).
pub fn run(
    exe: &Path,
    image: &[u32],
    out: &Path,
    files: &RunFiles,
    pmu: &PmuInfo,
    max_cycles: u64,
    firmware_name: &str,
) -> Result<RunSummary> {
    let firmware = programmed::Firmware { name: firmware_name.to_string(), hash: programmed::image_hash(image) };
    let scratch = out.join(format!(".run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).with_context(|| format!("creating {}", scratch.display()))?;
    let result = run_in(exe, image, &scratch, files, pmu, max_cycles, &firmware);
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn run_in(
    exe: &Path,
    image: &[u32],
    scratch: &Path,
    files: &RunFiles,
    pmu: &PmuInfo,
    max_cycles: u64,
    firmware: &programmed::Firmware,
) -> Result<RunSummary> {
    let absolute =
        |name: &str| -> Result<String> { Ok(std::fs::canonicalize(scratch)?.join(name).display().to_string()) };
    std::fs::write(scratch.join("firmware.hex"), super::firmware::hex(image))?;
    let mut command = std::process::Command::new(exe);
    command.arg(format!("+firmware={}", absolute("firmware.hex")?));
    command.args(["--max-cycles", &max_cycles.to_string()]);
    command.args(["--result", &absolute("result")?, "--trace", &absolute("trace.hex")?]);
    command.args(["--pmu-writes", &absolute("pmu_writes")?]);
    if files.rvfi_log.is_some() {
        command.args(["--rvfi-log", &absolute("rvfi.log")?]);
    }
    let started = Instant::now();
    let status = command.status().with_context(|| format!("running {}", exe.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    if !status.success() {
        bail!("the simulation {} failed ({status})", exe.display());
    }
    let result = std::fs::read_to_string(scratch.join("result")).context("the simulation wrote no result")?;
    let fields: Vec<&str> = result.split_whitespace().collect();
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    let outcome = match fields.first() {
        Some(&"exit") => Outcome::Exit(number(1) as u32),
        Some(&"trap") => Outcome::Trap { pc: fields.get(5).and_then(|f| u32::from_str_radix(f, 16).ok()).unwrap_or(0) },
        _ => Outcome::Limit,
    };
    let summary = RunSummary { outcome, cycles: number(2), retired: number(3), trace_words: number(4), seconds };
    // Whatever ended the run, the trace and the log hold everything up to its end.
    let writes = std::fs::read_to_string(scratch.join("pmu_writes")).context("the simulation wrote no PMU writes")?;
    let record = programmed::record(&writes, pmu.counters, &pmu.table, &pmu.top, summary.trace_words, firmware)?;
    publish(&scratch.join("trace.hex"), &files.trace)?;
    // No record is better than one of an earlier run beside this trace.
    let record_path = programmed::record_path(&files.trace);
    let _ = std::fs::remove_file(&record_path);
    if let Some(text) = record {
        std::fs::write(scratch.join("events.json"), text)?;
        publish(&scratch.join("events.json"), &record_path)?;
    }
    if let Some(log) = &files.rvfi_log {
        publish(&scratch.join("rvfi.log"), log)?;
    }
    Ok(summary)
}

/// Move `from` to `to` (a copy when they are on different file systems).
fn publish(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    if std::fs::rename(from, to).is_err() {
        std::fs::copy(from, to).with_context(|| format!("writing {}", to.display()))?;
    }
    Ok(())
}
