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

#[test]
fn the_monitor_instantiation_template_in_the_docs_compiles_against_the_generated_verilog() {
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/monitor.md")).unwrap();
    let start = doc.find("```verilog\n").expect("docs/monitor.md has a Verilog instantiation template") + "```verilog\n".len();
    let template = &doc[start..start + doc[start..].find("```").unwrap()];
    let params = pmugen_hdl::params::MonitorParams { events: 8, order_width: 3 };
    let verilog = pmugen::design::Design::verilog(pmugen::design::monitor(params).as_ref()).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("instantiation-template");
    std::fs::create_dir_all(&dir).unwrap();
    let user = format!(
        "`timescale 1ns / 1ps\nmodule user_top(input clk, input rst, input [7:0] my_events, input go, input halt,\n\
         input [7:0] mon_addr, input [31:0] mon_wdata, input mon_we, output [31:0] mon_rdata,\n\
         output mon_matched, output mon_window, output mon_ser_data, output mon_ser_valid, output mon_ser_last);\n{template}endmodule\n"
    );
    std::fs::write(dir.join("user_top.v"), user).unwrap();
    std::fs::write(dir.join("monitor.v"), verilog).unwrap();
    let output = std::process::Command::new("iverilog")
        .args(["-g2005", "-Wall", "-o", "top.vvp", "user_top.v", "monitor.v"])
        .current_dir(&dir)
        .output()
        .expect("iverilog (scripts/install-tools.sh installs it)");
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && text.trim().is_empty(), "the template does not compile cleanly:\n{text}");
}
