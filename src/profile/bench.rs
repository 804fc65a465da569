//! The speed of `pmugen profile` (docs/soc.md §4.7), measured by `pmugen bench soc`: a
//! firmware of many small functions that fills most of the SoC's 64 KiB of RAM, and a
//! capture of one million words whose records visit each function's entry block in
//! turn; the wall time of one `profile` of them (decode, symbols, tables, CSVs and the
//! annotated disassembly).
use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use super::elf::Symbols;
use crate::soc::compile;

/// Functions of the generated firmware.
const FUNCTIONS: usize = 1800;
/// Words of the capture.
const WORDS: usize = 1_000_000;

/// What the benchmark measured.
pub struct ProfileSpeed {
    /// The firmware's RAM image in bytes (its code and data).
    pub image_bytes: usize,
    /// The capture's words.
    pub words: usize,
    /// Wall-clock seconds of the `profile` run.
    pub seconds: f64,
}

/// The generated firmware: FUNCTIONS functions of a small loop each, all called.
fn source() -> String {
    let mut text = String::from("#include <stdint.h>\n");
    for i in 0..FUNCTIONS {
        writeln!(
            text,
            "__attribute__((noinline)) uint32_t f{i}(uint32_t x) {{ for (uint32_t k = 0; k < {}; k++) x = (x ^ {i}u) + (x >> 3); return x; }}",
            i % 7 + 2
        )
        .unwrap();
    }
    text += "int main(void) { uint32_t x = 1;\n";
    (0..FUNCTIONS).for_each(|i| writeln!(text, "  x = f{i}(x);").unwrap());
    text + "  return (int)(x & 1);\n}\n"
}

/// Build the firmware and the capture in `dir`, then time `exe profile` of them.
pub fn measure(exe: &Path, dir: &Path) -> Result<ProfileSpeed> {
    std::fs::create_dir_all(dir)?;
    let c = dir.join("many.c");
    std::fs::write(&c, source())?;
    compile::write_files(&crate::soc::firmware_files(&crate::soc::config::SocConfig::REFERENCE)?, dir)?;
    let built = compile::build(&[c], dir, dir, "many", crate::soc::cpu::Cpu::Picorv32)?;
    let bytes = std::fs::read(&built.elf)?;
    let symbols = Symbols::from_elf(&bytes, &built.elf.display().to_string())?;
    let entries: Vec<u64> = (0..FUNCTIONS).filter_map(|i| symbols.address_of(&format!("f{i}"))).collect();
    if entries.len() != FUNCTIONS {
        bail!("{}: {} of the {FUNCTIONS} functions have symbols", built.elf.display(), entries.len());
    }
    // One NEW_PROCESS record, then records of K = 4 values, round robin over the entries.
    let mut capture = String::with_capacity(WORDS * 17 + 64);
    writeln!(capture, "{:016x}\n{:016x}", 1u64 << 63 | entries[0], 1).unwrap();
    (1..=4u64).for_each(|v| writeln!(capture, "{v:016x}").unwrap());
    let mut words = 6;
    while words < WORDS {
        writeln!(capture, "{:016x}", entries[words % entries.len()]).unwrap();
        (1..=4u64).for_each(|v| writeln!(capture, "{:016x}", v * 3 + (words as u64 & 7)).unwrap());
        words += 5;
    }
    let trace = dir.join("capture.hex");
    std::fs::write(&trace, capture)?;
    let started = Instant::now();
    let output = std::process::Command::new(exe)
        .arg("profile")
        .arg(&trace)
        .arg("--elf")
        .arg(&built.elf)
        .args(["--threads", "1", "--counters", "4", "--counter-width", "40"])
        .args(["--events", "INSTRET,LOAD,STORE,BRANCH_TAKEN", "--out"])
        .arg(dir.join("profile"))
        .output()?;
    let seconds = started.elapsed().as_secs_f64();
    if !output.status.success() {
        bail!("profile of the bench capture failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(ProfileSpeed { image_bytes: built.bytes, words, seconds })
}
