//! `pmugen soc build`: C firmware for the reference SoC (docs/soc.md §2.4), compiled
//! with Debian's `riscv64-unknown-elf-gcc` for rv32i/ilp32, freestanding, against the
//! runtime (start.S, link.ld, soc.h) and the PMU's and the monitor's C drivers; the ELF
//! becomes the `$readmemh` image with pmugen's own converter ([`super::firmware`]).
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

use super::cflags::CompileArgs;
use super::firmware;
use crate::design::Artifact;

/// The compiler.
pub const GCC: &str = "riscv64-unknown-elf-gcc";

/// The flags every firmware is compiled with, besides the include directories and the
/// linker script.
pub const FLAGS: [&str; 9] =
    ["-march=rv32i", "-mabi=ilp32", "-Os", "-ffreestanding", "-nostdlib", "-Wall", "-Wextra", "-Werror", "-g"];

/// Write `files` (names may hold one directory level) into `dir`, each under a
/// temporary name first, renamed when all are written.
pub fn write_files(files: &[Artifact], dir: &Path) -> Result<()> {
    let mut staged = Vec::new();
    for file in files {
        let path = dir.join(&file.name);
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        let name = path.file_name().expect("a file name").to_string_lossy();
        let temporary = parent.join(format!(".{name}.partial"));
        std::fs::write(&temporary, &file.text).with_context(|| format!("writing {}", temporary.display()))?;
        staged.push((temporary, path));
    }
    for (temporary, path) in staged {
        std::fs::rename(&temporary, &path).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Every source exists and is C or assembly (checked before anything is written).
pub fn check_sources(sources: &[PathBuf]) -> Result<()> {
    if sources.is_empty() {
        bail!("no C source given (pmugen soc build SOURCE.c... --out DIR)");
    }
    for source in sources {
        if !source.is_file() {
            bail!("{}: no such C source file", source.display());
        }
        let extension = source.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
        if !["c", "S", "s"].contains(&extension.as_str()) {
            bail!("{}: not a C (.c) or assembly (.S, .s) source; headers are found through -I DIR", source.display());
        }
    }
    Ok(())
}

/// What a build wrote.
#[derive(Clone, Debug)]
pub struct Built {
    /// The ELF.
    pub elf: PathBuf,
    /// The `$readmemh` image.
    pub hex: PathBuf,
    /// The image's size in bytes.
    pub bytes: usize,
}

/// Compile `sources` into `out/<name>.elf` and `out/<name>.hex`, with the runtime and
/// the drivers in `include` (written by [`super::firmware_files`]). A source that does
/// not compile is refused with the compiler's messages; nothing is written then.
pub fn build(sources: &[PathBuf], include: &Path, out: &Path, name: &str, cpu: super::cpu::Cpu) -> Result<Built> {
    build_with(sources, include, out, name, cpu, &CompileArgs::default())
}

/// [`build`] with a project's own compiler flags (`-I`, `-D`, `-O`, `--cflags`).
pub fn build_with(
    sources: &[PathBuf],
    include: &Path,
    out: &Path,
    name: &str,
    cpu: super::cpu::Cpu,
    flags: &CompileArgs,
) -> Result<Built> {
    check_sources(sources)?;
    flags.check()?;
    pmugen_sim::tools::require(&[GCC]).map_err(anyhow::Error::msg)?;
    std::fs::create_dir_all(out).with_context(|| format!("--out {}: cannot create the directory", out.display()))?;
    let elf = out.join(format!("{name}.elf"));
    let hex = out.join(format!("{name}.hex"));
    let partial = out.join(format!(".{name}.elf.partial"));
    let runtime = include.join("runtime");
    let mut args = flags.gcc_flags();
    if cpu != super::cpu::Cpu::Picorv32 {
        // Its runtime uses the CSR instructions, which ISA spec 2.2 has in the base ISA.
        args.retain(|flag| !flag.starts_with("-march="));
        args.extend([format!("-march={}", cpu.march()), "-misa-spec=2.2".into()]);
    }
    args.extend([
        format!("-I{}", include.display()),
        format!("-I{}", runtime.display()),
        format!("-T{}", runtime.join("link.ld").display()),
        "-Wl,--no-warn-rwx-segments".into(),
        "-o".into(),
        partial.display().to_string(),
        runtime.join("start.S").display().to_string(),
    ]);
    args.extend(sources.iter().map(|s| s.display().to_string()));
    // libgcc after the sources: the compiler may call its helpers (shifts, multiplies).
    args.push("-lgcc".into());
    let output = std::process::Command::new(GCC).args(&args).output().with_context(|| format!("running {GCC}"))?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&partial);
        let names: Vec<String> = sources.iter().map(|s| s.display().to_string()).collect();
        bail!(
            "compiling {} failed:\n{}{}",
            names.join(" "),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let words = firmware::load(&partial);
    let words = match words {
        Ok(words) => words,
        Err(err) => {
            let _ = std::fs::remove_file(&partial);
            return Err(err);
        }
    };
    std::fs::write(out.join(format!(".{name}.hex.partial")), firmware::hex(&words))?;
    std::fs::rename(out.join(format!(".{name}.hex.partial")), &hex)?;
    std::fs::rename(&partial, &elf)?;
    Ok(Built { elf, hex, bytes: words.len() * 4 })
}
