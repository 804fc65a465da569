//! Runs that write many files (`report`, `build`) write them into a hidden staging
//! directory inside the output directory and move them into place only when the run
//! is complete. An interrupted or failed run therefore never leaves new, partial files
//! next to an earlier run's complete ones: the output directory holds one complete
//! run, and at most a `.partial-<pid>` directory that says what it is.
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// A staging directory for one run into `out`.
pub struct Staging {
    out: PathBuf,
    work: PathBuf,
}

impl Staging {
    /// Create `out` (refusing a file) and a fresh staging directory inside it.
    pub fn new(out: &Path) -> Result<Self> {
        crate::generate::output_dir(out, "--out")?;
        let work = out.join(format!(".partial-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).with_context(|| format!("creating {}", work.display()))?;
        Ok(Self { out: out.to_path_buf(), work })
    }

    /// Where the run writes.
    pub fn path(&self) -> &Path {
        &self.work
    }

    /// Move every file of the run into the output directory, replacing files of the
    /// same name, and remove the staging directory.
    pub fn publish(self) -> Result<()> {
        for entry in std::fs::read_dir(&self.work).with_context(|| format!("reading {}", self.work.display()))? {
            let from = entry?.path();
            let to = self.out.join(from.file_name().expect("a directory entry has a name"));
            if to.is_dir() {
                std::fs::remove_dir_all(&to).with_context(|| format!("replacing {}", to.display()))?;
            }
            std::fs::rename(&from, &to).with_context(|| format!("moving {} to {}", from.display(), to.display()))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    /// Published or failed, the staging directory goes; only an interrupted run
    /// (killed before this runs) leaves it behind.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_appear_only_when_published_and_a_failed_run_leaves_the_old_ones() {
        let out = std::env::temp_dir().join(format!("pmugen-staging-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("report.md"), "old").unwrap();
        {
            let failed = Staging::new(&out).unwrap();
            std::fs::write(failed.path().join("report.md"), "half").unwrap();
        }
        assert_eq!(std::fs::read_to_string(out.join("report.md")).unwrap(), "old");
        let run = Staging::new(&out).unwrap();
        std::fs::write(run.path().join("report.md"), "new").unwrap();
        std::fs::write(run.path().join("netlist.json"), "{}").unwrap();
        assert_eq!(std::fs::read_to_string(out.join("report.md")).unwrap(), "old", "not before publish");
        run.publish().unwrap();
        assert_eq!(std::fs::read_to_string(out.join("report.md")).unwrap(), "new");
        assert!(out.join("netlist.json").exists());
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "no staging directory left: {left:?}");
        std::fs::remove_dir_all(&out).unwrap();
    }
}
