//! `pmugen sweep`: the report over many configurations as a list of jobs
//! (docs/report.md §8). One job is one configuration × family × device × placement
//! seed with its command line (`pmugen report ...`). The list is written to
//! `DIR/jobs.json` and run on this machine's cores ([`local`]) or as one Slurm job
//! array ([`slurm`]); each job writes its result file `DIR/results/<job>.json`
//! atomically, and [`collect`] merges whatever results are there into
//! `DIR/results.json`, `results.csv`, `results.md` and the plots, saying what is
//! missing or failed. A job whose result exists for the same inputs ([`Inputs`]) is not
//! run again, so a sweep resumes where it stopped.
pub mod collect;
pub mod job;
mod least_squares;
pub mod local;
pub mod model;
mod monitor_plot;
pub mod monitor_view;
pub mod plan;
pub mod plot;
pub mod record;
pub mod runner;
pub mod slurm;
mod svg;
pub mod table;
pub mod values;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::report::family::Family;

/// What decides a job's result: when all of it is the same, an earlier result stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inputs {
    /// The generated Verilog's hash (FNV-1a, 64 bits) and length.
    pub verilog: String,
    /// pmugen's version.
    pub generator: String,
    /// The versions of the tools the job runs, with the toolchain's name.
    pub tools: BTreeMap<String, String>,
    /// The report's arguments but its output directory: the design's flags, the
    /// family or device, the placement seed and the mode (`--synth-only`, `--no-fmax`).
    pub arguments: Vec<String>,
}

/// What names a job and its result: the job, the design and its parameters, and where
/// it runs. A job and its record both hold it (flattened into their JSON), and both read
/// as it (`Deref`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JobId {
    /// The job's name: the top module, the device (or family) and the seed; it names
    /// its run directory, log and result file.
    pub name: String,
    /// The top module.
    pub design: String,
    /// The design's parameters (T, K, CW, ... or N, W, ...) with every default.
    pub parameters: BTreeMap<String, String>,
    /// The FPGA family.
    pub family: Family,
    /// The device placed on (its `--device` name); none for a synthesis-only job.
    pub device: Option<String>,
    /// The placement seed; none for a synthesis-only job.
    pub seed: Option<u64>,
}

/// One job of a sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// Its name, design, parameters and place.
    #[serde(flatten)]
    pub id: JobId,
    /// The command that runs it: pmugen's absolute path and the report's arguments.
    pub command: Vec<String>,
    /// What decides its result.
    pub inputs: Inputs,
}

impl std::ops::Deref for Job {
    type Target = JobId;
    fn deref(&self) -> &JobId {
        &self.id
    }
}

/// The job list, `DIR/jobs.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sweep {
    /// `monitor` or `pmu`.
    pub design: String,
    /// The design's parameter names, in its own order (T, K, CW, ... or N, W, ...).
    pub parameters: Vec<String>,
    /// Those of them that take more than one value.
    pub swept: Vec<String>,
    /// The jobs, configurations outermost, then families and devices, then seeds.
    pub jobs: Vec<Job>,
}

/// The files of a sweep directory.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The sweep directory (absolute).
    pub dir: PathBuf,
}

impl Layout {
    /// The sweep in `dir`, made absolute so that the job commands run from anywhere.
    pub fn new(dir: &Path) -> Result<Self> {
        let dir = std::path::absolute(dir).with_context(|| format!("--out {}", dir.display()))?;
        Ok(Self { dir })
    }
    /// `jobs.json`.
    pub fn jobs(&self) -> PathBuf {
        self.dir.join("jobs.json")
    }
    /// Where the job's report is written.
    pub fn run_dir(&self, name: &str) -> PathBuf {
        self.dir.join("runs").join(name)
    }
    /// The job's log: its command and everything the report printed.
    pub fn log(&self, name: &str) -> PathBuf {
        self.dir.join("logs").join(format!("{name}.log"))
    }
    /// The job's result file.
    pub fn result(&self, name: &str) -> PathBuf {
        self.dir.join("results").join(format!("{name}.json"))
    }
    /// The job list of the directory.
    pub fn read(&self) -> Result<Sweep> {
        let path = self.jobs();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: no job list here (is it a sweep's --out directory?)", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{}: not a pmugen job list", path.display()))
    }
}

/// Write `text` to `path` so that a reader sees the old file or the whole new one,
/// never a part: into a temporary file beside it, then renamed over it.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temporary = parent.join(format!(".{name}.{}.partial", std::process::id()));
    std::fs::write(&temporary, text).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("writing {}", path.display()))
}

/// The hash of `text` that [`Inputs::verilog`] holds: FNV-1a over its bytes (64 bits)
/// and its length, stable across pmugen builds and machines.
pub fn text_hash(text: &str) -> String {
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("fnv1a64:{hash:016x}, {} bytes", text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verilog_hash_is_fnv1a_and_tells_texts_apart() {
        // FNV-1a's published test vector: "a" hashes to 0xaf63dc4c8601ec8c.
        assert_eq!(text_hash("a"), "fnv1a64:af63dc4c8601ec8c, 1 bytes");
        assert_ne!(text_hash("module m; endmodule"), text_hash("module n; endmodule"));
    }

    #[test]
    fn a_result_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("pmugen-atomic-{}", std::process::id()));
        let path = dir.join("results").join("job.json");
        write_atomically(&path, "{\"a\": 1}").unwrap();
        write_atomically(&path, "{\"a\": 2}").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\": 2}");
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
