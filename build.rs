//! Lists the example firmware examples/soc/*.c for `pmugen soc`, which embeds and builds
//! every one of them (docs/soc.md §2.4): adding an example needs no Rust change. What
//! the examples include (soc.h, the tiny kernel's kernel.h) is the runtime,
//! examples/soc/runtime/, embedded by src/soc/mod.rs.
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = root.join("examples").join("soc");
    println!("cargo:rerun-if-changed={}", dir.display());
    write_list(&dir, "c", "soc_examples.rs", |path| path.file_stem());
}

/// Writes OUT_DIR/`list_file`: the files of `dir` ending in `.extension`, as (name, text)
/// pairs sorted by name, the name being what `name` takes from the path.
fn write_list(dir: &Path, extension: &str, list_file: &str, name: fn(&Path) -> Option<&OsStr>) {
    let mut names: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == extension) && p.is_file())
                .map(|p| (name(&p).expect("a name").to_string_lossy().into_owned(), p))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut list = String::from("&[\n");
    for (name, path) in names {
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(list, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    list.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join(list_file);
    std::fs::write(out, list).expect("writing the example list");
}
