//! `pmugen bench soc`: the reference SoC's simulation speed under Verilator (docs/soc.md
//! §2.7): a firmware loop of loads, stores and taken branches that never exits, run to
//! a cycle limit, and the wall time of a warm-cache `soc run` of the example count.c.
use anyhow::{bail, Result};
use std::path::Path;
use std::time::Instant;

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
    let summary =
        run::run(&exe, &LOOP, out, &files, &super::pmu_info(super::cpu::Cpu::Picorv32)?, cycles, "bench loop")?;
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
