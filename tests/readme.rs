//! The README's register table is the one the register table generates.
#[test]
fn readme_register_table_is_generated_from_regmap() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table = pmugen_hdl::monitor::regmap_export::markdown_table();
    assert!(
        readme.contains(&table),
        "README.md's register table is out of date; replace it with the output of \
         `cargo run --release -p pmugen-hdl --example print_regmap`"
    );
}
