//! Running the `pmugen` binary from tests.
use std::path::{Path, PathBuf};
use std::process::Command;

/// Run `pmugen args`: (exit status 0, stdout followed by stderr).
pub fn pmugen(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_pmugen")).args(args).output().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

/// A fresh (absent) directory under the test target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A tool of the project's virtual environment (`python`, `fusesoc`, ...), installed by
/// scripts/install-python.sh.
pub fn venv(tool: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin").join(tool);
    assert!(path.exists(), "{} is missing: run scripts/install-python.sh (scripts/test.sh does)", path.display());
    path
}
