//! Where SERV and Ibex come from (docs/soc.md §1.7): the unmodified sources of the
//! pinned PyPI packages `pythondata-cpu-serv` and `pythondata-cpu-ibex`
//! (scripts/python-requirements.txt), found through Python like PicoRV32's
//! (`picorv32.rs`), and the files a simulator or synthesis reads, in order.
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A core from a pinned `pythondata-cpu-*` package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackagedCore {
    /// SERV, `serv_rf_top` (Verilog-2005), RVFI under `RISCV_FORMAL`.
    Serv,
    /// Ibex, `ibex_top` (SystemVerilog), RVFI under `RVFI`.
    Ibex,
}

/// A core's sources.
#[derive(Clone, Debug)]
pub struct CoreSources {
    /// The source files, in reading order.
    pub files: Vec<PathBuf>,
    /// The include directories.
    pub include_dirs: Vec<PathBuf>,
    /// The define that turns its RVFI port on.
    pub rvfi_define: &'static str,
    /// The package and version, for headers.
    pub origin: String,
}

impl PackagedCore {
    /// The PyPI package.
    pub fn package(self) -> &'static str {
        match self {
            PackagedCore::Serv => "pythondata-cpu-serv",
            PackagedCore::Ibex => "pythondata-cpu-ibex",
        }
    }

    /// The version the project is built and documented with.
    pub fn pinned_version(self) -> &'static str {
        match self {
            PackagedCore::Serv => "1.2.0.post146",
            PackagedCore::Ibex => "0.0.post2937",
        }
    }

    /// Its sources, from the package in target/venv or whatever `python3` imports;
    /// another version is refused naming it.
    pub fn locate(self) -> Result<CoreSources> {
        let (package, pinned) = (self.package(), self.pinned_version());
        let module = package.replace('-', "_");
        let install = format!(
            "install it with `scripts/install-python.sh` (into target/venv) or `pip install {package}=={pinned}`"
        );
        let script = format!("import {module} as p; print(p.version_str); print(p.data_location)");
        let mut tried = Vec::new();
        for python in ["target/venv/bin/python", "python3"] {
            let Ok(output) = Command::new(python).args(["-c", &script]).output() else {
                tried.push(format!("{python}: not found"));
                continue;
            };
            if !output.status.success() {
                tried.push(format!("{python}: no module {module}"));
                continue;
            }
            let stdout = String::from_utf8_lossy(&output.stdout);
            let mut lines = stdout.lines();
            let (version, data) = (lines.next().unwrap_or("").trim(), lines.next().unwrap_or("").trim());
            if version != pinned {
                bail!("{python} has {package} {version}, the project is pinned to {pinned}; {install}");
            }
            let origin = format!("{package} {version}");
            return match self {
                PackagedCore::Serv => serv(Path::new(data), origin),
                PackagedCore::Ibex => ibex(Path::new(data), origin),
            };
        }
        bail!("{package} not found ({}); {install}", tried.join(", "))
    }
}

/// SERV's RTL: every file of `rtl/` (serv_rf_top and what it instantiates).
fn serv(data: &Path, origin: String) -> Result<CoreSources> {
    let rtl = data.join("rtl");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&rtl)
        .with_context(|| format!("reading {}", rtl.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "v"))
        .collect();
    files.sort();
    if !files.iter().any(|f| f.ends_with("serv_rf_top.v")) {
        bail!("{}: no serv_rf_top.v", rtl.display());
    }
    Ok(CoreSources { files, include_dirs: vec![], rvfi_define: "RISCV_FORMAL", origin })
}

/// Ibex's RTL: the design files of its own simulation file list
/// (`dv/uvm/core_ibex/ibex_dv.f`, up to its testbench part, without the tracer), and
/// the include folder of the coverage macros its controller includes.
fn ibex(data: &Path, origin: String) -> Result<CoreSources> {
    let list = data.join("dv/uvm/core_ibex/ibex_dv.f");
    let text = std::fs::read_to_string(&list).with_context(|| format!("reading {}", list.display()))?;
    let lowrisc = data.join("vendor/lowrisc_ip");
    let path = |line: &str| {
        PathBuf::from(
            line.replace("${LOWRISC_IP_DIR}", &lowrisc.to_string_lossy())
                .replace("${PRJ_DIR}", &data.to_string_lossy()),
        )
    };
    let (mut files, mut include_dirs) = (Vec::new(), vec![lowrisc.join("dv/sv/dv_utils")]);
    for line in text.lines().map(str::trim).take_while(|line| !line.starts_with("// Core DV files")) {
        if line.is_empty() || line.starts_with("//") || line.starts_with("+define") {
            continue;
        }
        if let Some(dir) = line.strip_prefix("+incdir+") {
            include_dirs.push(path(dir));
        } else if !line.contains("tracer") && !line.contains("ibex_top_tracing") {
            files.push(path(line));
        }
    }
    if !files.iter().any(|f| f.ends_with("ibex_top.sv")) {
        bail!("{}: no ibex_top.sv in its design files", list.display());
    }
    Ok(CoreSources { files, include_dirs, rvfi_define: "RVFI", origin })
}
