//! The register tables in the docs are the ones the register tables generate (one
//! source of truth per register map: `hdl/src/*/regmap.rs`).

/// The text between `<!-- register-table:<design> -->` and its closing marker in `doc`.
fn embedded(doc: &str, design: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (open, close) = (format!("<!-- register-table:{design} -->\n"), format!("<!-- /register-table:{design} -->"));
    let start = text.find(&open).unwrap_or_else(|| panic!("{doc} has no `{}` marker", open.trim())) + open.len();
    let end = start + text[start..].find(&close).unwrap_or_else(|| panic!("{doc} has no `{close}` marker"));
    text[start..end].to_string()
}

#[test]
fn the_monitor_register_table_in_the_docs_is_generated_from_its_regmap() {
    assert_eq!(
        embedded("docs/monitor.md", "monitor"),
        pmugen_hdl::monitor::regmap_export::markdown_table(),
        "docs/monitor.md's register table is out of date; replace it with the output of \
         `cargo run --release -p pmugen-hdl --example print_regmap -- monitor`"
    );
}

#[test]
fn the_pmu_register_table_in_the_docs_is_generated_from_its_regmap() {
    assert_eq!(
        embedded("docs/pmu.md", "pmu"),
        pmugen_hdl::pmu::regmap_export::markdown_table(),
        "docs/pmu.md's register table is out of date; replace it with the output of \
         `cargo run --release -p pmugen-hdl --example print_regmap -- pmu`"
    );
}
