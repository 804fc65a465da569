//! Where the reference SoC's PicoRV32 comes from (docs/soc.md §2.3): the unmodified
//! `picorv32.v` of the pinned PyPI package `pythondata-cpu-picorv32`
//! (scripts/python-requirements.txt), found through Python, or the file that
//! `$PMUGEN_PICORV32` names.
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::Command;

/// The package version the SoC is built and documented with.
pub const PINNED_VERSION: &str = "1.0.post218";

/// How to install the pinned package.
const INSTALL: &str = "install it with `scripts/install-python.sh` (into target/venv) or \
     `pip install pythondata-cpu-picorv32==1.0.post218`, or set PMUGEN_PICORV32 to a picorv32.v";

/// PicoRV32's Verilog, unmodified, and where it came from.
#[derive(Clone, Debug)]
pub struct Picorv32 {
    /// The file's text.
    pub text: String,
    /// Where it was found, for the generated header.
    pub origin: String,
}

/// Find `picorv32.v`: `$PMUGEN_PICORV32`, else the package in the project's
/// target/venv, else in whatever `python3` imports.
pub fn locate() -> Result<Picorv32> {
    if let Some(path) = std::env::var_os("PMUGEN_PICORV32").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("PMUGEN_PICORV32={}: cannot read it", path.display()))?;
        check(&text, &path.display().to_string())?;
        return Ok(Picorv32 { text, origin: format!("{} (PMUGEN_PICORV32)", path.display()) });
    }
    let script = "import os, pythondata_cpu_picorv32 as p; \
                  print(p.version_str); print(os.path.join(p.data_location, 'picorv32.v'))";
    let mut tried = Vec::new();
    for python in ["target/venv/bin/python", "python3"] {
        let Ok(output) = Command::new(python).args(["-c", script]).output() else {
            tried.push(format!("{python}: not found"));
            continue;
        };
        if !output.status.success() {
            tried.push(format!("{python}: no module pythondata_cpu_picorv32"));
            continue;
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let mut lines = stdout.lines();
        let (version, path) = (lines.next().unwrap_or("").trim(), lines.next().unwrap_or("").trim());
        if version != PINNED_VERSION {
            bail!("{python} has pythondata-cpu-picorv32 {version}, the SoC is pinned to {PINNED_VERSION}; {INSTALL}");
        }
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path} (from {python})"))?;
        check(&text, path)?;
        return Ok(Picorv32 { text, origin: format!("pythondata-cpu-picorv32 {version}") });
    }
    bail!("PicoRV32 not found ({}); {INSTALL}", tried.join(", "))
}

/// The file is PicoRV32 with its RVFI port.
fn check(text: &str, path: &str) -> Result<()> {
    if !text.contains("module picorv32 #(") || !text.contains("`ifdef RISCV_FORMAL") {
        bail!("{path}: not PicoRV32's picorv32.v with an RVFI port (no `module picorv32` or RISCV_FORMAL)");
    }
    Ok(())
}
