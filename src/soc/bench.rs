//! `pmugen bench soc`: the reference SoC's simulation speed under Verilator (docs/soc.md
//! §2.7): a firmware loop of loads, stores and taken branches that never exits, run to
//! a cycle limit, and the wall time of a warm-cache `soc run` of the example count.c;
//! and what profiling costs a program (docs/soc.md §4.7): the example profile.c
//! untraced, traced with the CPU draining every word, and traced into the profile table.
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::time::Instant;

use super::cflags::CompileArgs;
use super::compile;
use super::run::{self, Outcome, RunFiles};

/// `top: lw t1, 256(zero); addi t1, t1, 1; sw t1, 256(zero); bnez t1, top; j top`.
const LOOP: [u32; 5] = [0x1000_2303, 0x0013_0313, 0x1060_2023, 0xfe03_1ae3, 0xff1f_f06f];

/// The speed of `cycles` cycles of the loop on the SoC's model in `out`, in cycles/s.
pub fn speed(out: &Path, cycles: u64) -> Result<f64> {
    let system = super::system(super::cpu::Cpu::Picorv32)?;
    std::fs::create_dir_all(out)?;
    let exe = run::model(&system, out)?;
    let files = RunFiles { trace: out.join(".bench-trace.hex"), rvfi_log: None };
    let started = Instant::now();
    let summary = run::run(
        &exe,
        &LOOP,
        out,
        &files,
        &super::pmu_info(&super::config::SocConfig::REFERENCE)?,
        cycles,
        "bench loop",
    )?;
    if summary.outcome != Outcome::Limit || summary.cycles != cycles {
        bail!("the bench loop ended early: {:?} after {} cycles", summary.outcome, summary.cycles);
    }
    Ok(cycles as f64 / started.elapsed().as_secs_f64())
}

/// The wall time in seconds of `pmugen soc run` of the example count.c with the
/// model cached (`exe` is this pmugen), and its exit status.
pub fn warm_run(exe: &Path, out: &Path) -> Result<f64> {
    let elf = out.join("examples").join("count.elf");
    if !elf.is_file() {
        bail!("{}: run `pmugen soc --out {}` first", elf.display(), out.display());
    }
    let started = Instant::now();
    let output = std::process::Command::new(exe)
        .args(["soc", "run", &elf.display().to_string(), "--out", &out.display().to_string()])
        .output()?;
    if !output.status.success() {
        bail!("soc run of count.elf failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(started.elapsed().as_secs_f64())
}

/// The example profile.c's rounds in the profiling benchmark: enough executions per
/// block for the table's words to be a small part of the unsummarized trace's.
pub const PROFILE_ROUNDS: u32 = 20;

/// One of profile.c's three runs (docs/soc.md §4.7).
#[derive(Clone, Debug)]
pub struct ProfiledRun {
    /// What ran: untraced, drained by the CPU, or summed in the profile table.
    pub what: &'static str,
    /// The cycles of the section the program times (printed as `cycles=`).
    pub cycles: u64,
    /// The cycles of the whole run, reset to exit.
    pub run_cycles: u64,
    /// The trace words the sink took.
    pub words: u64,
}

/// profile.c built with `-DPROFILE_MODE=0, 1, 2` and [`PROFILE_ROUNDS`] rounds (the same
/// instructions at the same addresses), each run with `pmugen soc run` (`exe`) on the
/// system of `out`: untraced, traced and drained by the kernel's tick, traced and
/// summed in the PMU's profile table.
pub fn profiling_cost(exe: &Path, out: &Path) -> Result<Vec<ProfiledRun>> {
    let source = out.join("examples").join("src").join("profile.c");
    if !source.is_file() {
        bail!("{}: run `pmugen soc --out {}` first", source.display(), out.display());
    }
    let dir = out.join("bench-profiling");
    let modes = [(0, "untraced"), (1, "traced, drained by the CPU"), (2, "traced, summed in the profile table")];
    let mut runs = Vec::new();
    for (mode, what) in modes {
        let flags = CompileArgs {
            define: vec![format!("PROFILE_MODE={mode}"), format!("PROFILE_ROUNDS={PROFILE_ROUNDS}")],
            ..Default::default()
        };
        let name = format!("profile-{mode}");
        let built =
            compile::build_with(std::slice::from_ref(&source), out, &dir, &name, super::cpu::Cpu::Picorv32, &flags)?;
        let trace = dir.join(format!("{name}.hex.trace"));
        let output = std::process::Command::new(exe)
            .args(["soc", "run", &built.elf.display().to_string(), "--out", &out.display().to_string()])
            .args(["--trace", &trace.display().to_string()])
            .output()?;
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        if !output.status.success() {
            bail!("soc run of profile.c with PROFILE_MODE={mode} failed:\n{stdout}{stderr}");
        }
        let value = |text: &str, key: &str| -> Result<u64> {
            let found = text.split(['\n', ',']).find_map(|l| l.trim().strip_prefix(key));
            let number = found.and_then(|v| v.split_whitespace().next()?.parse().ok());
            number.with_context(|| format!("PROFILE_MODE={mode}: no `{key}` in\n{stdout}{stderr}"))
        };
        let words = std::fs::read_to_string(&trace)?.lines().count() as u64;
        let run_cycles = value(&stderr, "soc: exit code 0 after ")?;
        runs.push(ProfiledRun { what, cycles: value(&stdout, "cycles=")?, run_cycles, words });
    }
    Ok(runs)
}

/// The runs of [`profiling_cost`] as a Markdown table: each run's profiled section
/// against the untraced one's, its words against the drained run's, and the goals (the
/// table's run within 1 % of the untraced cycles, its words at most 1 %).
pub fn profiling_table(runs: &[ProfiledRun]) -> String {
    let (untraced, drained) = (runs[0].cycles.max(1) as f64, runs[1].words.max(1) as f64);
    let mut text = format!(
        "\nprofile.c, {PROFILE_ROUNDS} rounds (docs/soc.md §4.7):\n\n\
         | run | cycles of the profiled section | against untraced | trace words | against drained | whole run |\n\
         |---|---:|---:|---:|---:|---:|\n"
    );
    for run in runs {
        let ratio = run.cycles as f64 / untraced;
        text += &format!(
            "| {} | {} | {ratio:.2}× ({:+.2} %) | {} | {:.2} % | {} cycles |\n",
            run.what,
            run.cycles,
            (ratio - 1.0) * 100.0,
            run.words,
            run.words as f64 / drained * 100.0,
            run.run_cycles
        );
    }
    let table = &runs[2];
    let within = (table.cycles as f64 / untraced - 1.0).abs() <= 0.01;
    let few = table.words as f64 <= drained * 0.01;
    text += &format!(
        "\ngoals: the table's run within 1 % of untraced: {}; its words at most 1 % of the drained run's: {}\n",
        if within { "met" } else { "NOT met" },
        if few { "met" } else { "NOT met" }
    );
    text
}
