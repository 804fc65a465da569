//! `pmugen generate`: write a design's files (Verilog with the "do not edit" header,
//! C header, tables) into a directory, all or nothing.
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

use pmugen_hdl::bus::Bus;

use crate::design::{Artifact, Design};

/// Write every artifact of `design` on the interface `bus` into `out`, with the LiteX
/// module when `litex` (docs/litex.md); returns the written files' paths, the
/// Verilog's first. Nothing is written when any of them cannot be made.
///
/// Each file is first written under a temporary name and renamed only when all of
/// them are written, so an interrupted run leaves the previous files (or none), never
/// a half-written file under a current name.
pub fn write<I, O>(design: &dyn Design<I, O>, bus: Bus, litex: bool, out: &Path) -> Result<Vec<PathBuf>> {
    let mut artifacts = crate::design::bus::artifacts(design, bus).map_err(anyhow::Error::msg)?;
    if litex {
        let module = crate::design::litex::artifacts(design, bus).map_err(anyhow::Error::msg)?;
        artifacts.extend(module);
    }
    write_artifacts(&artifacts, out)?;
    Ok(artifacts.iter().map(|artifact| out.join(&artifact.name)).collect())
}

/// "wrote DIR/<first>" and the names of the other files, for the terminal.
pub fn summary(paths: &[PathBuf]) -> String {
    let Some((first, rest)) = paths.split_first() else {
        return "wrote nothing".to_string();
    };
    let names: Vec<String> =
        rest.iter().filter_map(|p| p.file_name()).map(|name| name.to_string_lossy().into_owned()).collect();
    format!("wrote {} (and {})", first.display(), names.join(", "))
}

/// Make sure the output directory `out` exists; a path that is a file is refused,
/// saying so (`flag` names the option it came from).
pub fn output_dir(out: &Path, flag: &str) -> Result<()> {
    if out.exists() && !out.is_dir() {
        bail!("{flag} {}: is a file, not a directory", out.display());
    }
    std::fs::create_dir_all(out).with_context(|| format!("{flag} {}: cannot create the directory", out.display()))
}

/// Write `artifacts` into `out` (see [`write`]); returns the first file's path.
pub fn write_artifacts(artifacts: &[Artifact], out: &Path) -> Result<PathBuf> {
    output_dir(out, "--out")?;
    let mut staged = Vec::new();
    for artifact in artifacts {
        let path = out.join(&artifact.name);
        let temporary = out.join(format!(".{}.partial", artifact.name));
        std::fs::write(&temporary, &artifact.text).with_context(|| format!("writing {}", temporary.display()))?;
        staged.push((temporary, path));
    }
    for (temporary, path) in &staged {
        std::fs::rename(temporary, path).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(staged.first().map(|(_, path)| path.clone()).unwrap_or_else(|| out.to_path_buf()))
}
