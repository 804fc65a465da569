//! Lists the example firmware examples/soc/*.c for `pmugen soc`, which embeds and builds
//! every one of them (docs/soc.md §2.4): adding an example needs no Rust change.
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let dir = root.join("examples").join("soc");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "c") && p.is_file())
                .map(|p| (p.file_stem().expect("a name").to_string_lossy().into_owned(), p))
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
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("soc_examples.rs");
    std::fs::write(out, list).expect("writing the example list");
}
