//! The register tables in the docs are the ones the register tables generate (one
//! source of truth per register map: `hdl/src/*/regmap.rs`), the figure tables are the
//! ones the reports wrote, the examples the docs quote are the tested files, and every
//! relative link of the README and docs/ reaches its file and section.

/// The text between `<!-- register-table:<design> -->` and its closing marker in `doc`.
fn embedded(doc: &str, design: &str) -> String {
    embedded_between(doc, &format!("register-table:{design}"))
}

/// The text between `<!-- <marker> -->` and `<!-- /<marker> -->` in `doc`.
fn embedded_between(doc: &str, marker: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (open, close) = (format!("<!-- {marker} -->\n"), format!("<!-- /{marker} -->"));
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
fn the_riscv_event_table_in_the_docs_is_generated_from_riscv_json() {
    assert_eq!(
        embedded_between("docs/soc.md", "event-table:riscv"),
        pmugen_hdl::rvfi::events::markdown_table(),
        "docs/soc.md's RISC-V event table is out of date; replace it with the output of \
         `cargo run --release -p pmugen-hdl --example print_regmap -- riscv`"
    );
}

#[test]
fn the_monitor_instantiation_template_in_the_docs_compiles_against_the_generated_verilog() {
    let doc =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/monitor.md")).unwrap();
    let start =
        doc.find("```verilog\n").expect("docs/monitor.md has a Verilog instantiation template") + "```verilog\n".len();
    let template = &doc[start..start + doc[start..].find("```").unwrap()];
    let params = pmugen_hdl::params::MonitorParams { events: 8, order_width: 3, options: Default::default() };
    let verilog = pmugen::design::Design::verilog(pmugen::design::monitor(params).as_ref()).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("instantiation-template");
    std::fs::create_dir_all(&dir).unwrap();
    let user = format!(
        "`timescale 1ns / 1ps\nmodule user_top(input clk, input rst, input [7:0] my_events, input go, input halt,\n\
         input [7:0] mon_addr, input [31:0] mon_wdata, input mon_we, output [31:0] mon_rdata,\n\
         output mon_matched, output mon_window, output mon_ser_data, output mon_ser_valid, output mon_ser_last);\n{template}endmodule\n"
    );
    assert_compiles_cleanly(&dir, &user, &verilog);
}

/// The first block of `language` in `text`.
fn code_block<'a>(text: &'a str, language: &str) -> &'a str {
    let fence = format!("```{language}\n");
    let start = text.find(&fence).unwrap_or_else(|| panic!("no {language} block")) + fence.len();
    &text[start..start + text[start..].find("```").unwrap()]
}

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

#[test]
fn the_cocotb_example_in_docs_integration_is_the_tested_example_file() {
    // tests/outputs/cocotb.rs runs sim/cocotb/example_monitor_axil.py; docs/integration.md §3 shows its test.
    let doc = read("docs/integration.md");
    let example = read("sim/cocotb/example_monitor_axil.py");
    let shown = code_block(&doc, "python");
    assert!(
        example.ends_with(shown),
        "docs/integration.md's cocotb example differs from sim/cocotb/example_monitor_axil.py"
    );
}

#[test]
fn the_axi4lite_instantiation_template_in_docs_bus_compiles_against_the_generated_verilog() {
    let template = code_block(&read("docs/bus.md"), "verilog").to_string();
    let params = pmugen_hdl::params::MonitorParams { events: 8, order_width: 3, options: Default::default() };
    let design = pmugen::design::monitor(params);
    let verilog = pmugen::design::bus::verilog(design.as_ref(), pmugen_hdl::bus::Bus::Axi4Lite).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("axi4lite-template");
    std::fs::create_dir_all(&dir).unwrap();
    // A user's top with an AXI4-Lite master port (32-bit address from the interconnect).
    let user = format!(
        "`timescale 1ns / 1ps\nmodule user_top(input clk, input rst, input [7:0] cpu_events, input [3:0] trigger_start,\n\
         input [3:0] trigger_stop, input [31:0] m_axil_awaddr, input [2:0] m_axil_awprot, input m_axil_awvalid,\n\
         output m_axil_awready, input [31:0] m_axil_wdata, input [3:0] m_axil_wstrb, input m_axil_wvalid,\n\
         output m_axil_wready, output [1:0] m_axil_bresp, output m_axil_bvalid, input m_axil_bready,\n\
         input [31:0] m_axil_araddr, input [2:0] m_axil_arprot, input m_axil_arvalid, output m_axil_arready,\n\
         output [31:0] m_axil_rdata, output [1:0] m_axil_rresp, output m_axil_rvalid, input m_axil_rready);\n\
         {template}endmodule\n"
    );
    assert_compiles_cleanly(&dir, &user, &verilog);
}

#[test]
fn the_picorv32_instantiation_template_in_docs_soc_compiles_against_the_generated_verilog() {
    use pmugen_hdl::rvfi::params::{Core, RvfiOptions, Xlen};
    let template = code_block(&read("docs/soc.md"), "verilog").to_string();
    let table = pmugen_hdl::pmu::event_table::EventTable::riscv_table();
    let params = pmugen_hdl::pmu::params::PmuParams::new(1, 2, 40, table).unwrap();
    let options = RvfiOptions::for_core(Core::Picorv32, Xlen::Rv32);
    let design = pmugen::design::rvfi::RvfiPmuDesign::new(params, options, "riscv.json").unwrap();
    let verilog = pmugen::design::Design::verilog(&design).unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("picorv32-template");
    std::fs::create_dir_all(&dir).unwrap();
    // A user's top with PicoRV32's RVFI outputs (RV32) and a register port of its own.
    let user = format!(
        "`timescale 1ns / 1ps\nmodule user_top(input clk, input rst, input cpu_rvfi_valid, input [31:0] cpu_rvfi_insn,\n\
         input cpu_rvfi_trap, input cpu_rvfi_intr, input [1:0] cpu_rvfi_mode, input [31:0] cpu_rvfi_pc_rdata,\n\
         input [31:0] cpu_rvfi_pc_wdata, input [3:0] cpu_rvfi_mem_rmask, input [3:0] cpu_rvfi_mem_wmask,\n\
         output pmu_irq, input pmu_priv, input [7:0] pmu_addr, input [63:0] pmu_wdata, input pmu_write,\n\
         input pmu_read, output [63:0] pmu_rdata, output pmu_fault, output [63:0] trace_data, output trace_valid,\n\
         input trace_ready, output trace_last);\n{template}endmodule\n"
    );
    assert_compiles_cleanly(&dir, &user, &verilog);
}

/// Icarus compiles the user's top `user` with the generated `verilog` in `dir`,
/// without a warning.
fn assert_compiles_cleanly(dir: &std::path::Path, user: &str, verilog: &str) {
    std::fs::write(dir.join("user_top.v"), user).unwrap();
    std::fs::write(dir.join("monitor.v"), verilog).unwrap();
    let output = std::process::Command::new("iverilog")
        .args(["-g2005", "-Wall", "-o", "top.vvp", "user_top.v", "monitor.v"])
        .current_dir(dir)
        .output()
        .expect("iverilog (scripts/install-tools.sh installs it)");
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && text.trim().is_empty(), "the template does not compile cleanly:\n{text}");
}

#[test]
fn the_monitor_figures_in_the_docs_are_the_committed_report_tables() {
    // generated/ holds the tables `pmugen report monitor --compare` and `--sweep` wrote
    // (scripts/regenerate.sh --sweep); docs/figures.md §4, §5 and docs/monitor.md §7.3
    // quote them whole, and docs/figures.md §3 the PMU's fit table (scripts/pmu-fit.sh).
    let (figures, monitor) = (read("docs/figures.md"), read("docs/monitor.md"));
    let compare = read("generated/monitor_compare.md");
    let sweep = read("generated/sweep_w3.md");
    assert!(figures.contains(compare.trim()), "docs/figures.md §4 differs from generated/monitor_compare.md");
    assert!(monitor.contains(compare.trim()), "docs/monitor.md §7.3 differs from generated/monitor_compare.md");
    assert!(figures.contains(sweep.trim()), "docs/figures.md §5 differs from generated/sweep_w3.md");
    let fit = read("generated/pmu_fit.md");
    assert!(figures.contains(fit.trim()), "docs/figures.md §3 differs from generated/pmu_fit.md");
    // docs/report.md §7 quotes the ECP5 sweep (`--sweep --family ecp5`) whole.
    let ecp5 = read("generated/sweep_w3_ecp5.md");
    let table = ecp5.split("Hand-written Verilog").next().unwrap_or_default();
    assert!(read("docs/report.md").contains(table.trim()), "docs/report.md §7 differs from generated/sweep_w3_ecp5.md");
}

#[test]
fn the_32_bit_c_example_in_docs_bus_compiles_against_the_generated_header() {
    // docs/bus.md §8 reads and writes a counter through the committed header of the
    // default PMU behind its 32-bit AXI4-Lite slave.
    let example = code_block(&read("docs/bus.md"), "c").to_string();
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bus32-c-example");
    std::fs::create_dir_all(&dir).unwrap();
    let header = "pmu_knc_t4_k2_c40_axil32_regs.h";
    std::fs::write(dir.join(header), read(&format!("generated/{header}"))).unwrap();
    let user = format!(
        "#define PMU_BASE 0x20000000u\n{example}\nuint64_t pmu_example(void);\n\
         uint64_t pmu_example(void) {{ pmu_set_counter(1, 1, 0xFFFFFFF0u); return pmu_counter(1, 1); }}\n"
    );
    std::fs::write(dir.join("example.c"), user).unwrap();
    let output = std::process::Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "example.c", "-o", "example.o"])
        .current_dir(&dir)
        .output()
        .expect("a C compiler");
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && text.trim().is_empty(), "the C example does not compile cleanly:\n{text}");
}

/// The anchors GitHub gives the headings of a Markdown `text`: lower case, letters,
/// digits, `-` and `_` kept, spaces made `-`, a repeated anchor numbered `-1`, `-2`, ...
fn heading_anchors(text: &str) -> std::collections::HashSet<String> {
    let mut anchors = std::collections::HashSet::new();
    for line in outside_code_blocks(text) {
        let Some(title) = line.strip_prefix('#').map(|rest| rest.trim_start_matches('#')) else { continue };
        if !title.starts_with(' ') {
            continue;
        }
        let base: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let anchor = (0..).map(|n| if n == 0 { base.clone() } else { format!("{base}-{n}") });
        let free = anchor.into_iter().find(|a| !anchors.contains(a)).unwrap();
        anchors.insert(free);
    }
    anchors
}

/// The lines of a Markdown `text` that are not inside a fenced code block.
fn outside_code_blocks(text: &str) -> Vec<&str> {
    let mut inside = false;
    text.lines()
        .filter(|line| {
            if line.starts_with("```") {
                inside = !inside;
                return false;
            }
            !inside
        })
        .collect()
}

#[test]
fn every_relative_link_in_the_readme_and_docs_reaches_its_file_and_section() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for line in outside_code_blocks(&text) {
            for link in line.split("](").skip(1).filter_map(|rest| rest.split(')').next()) {
                if link.contains("://") || link.contains(' ') {
                    continue;
                }
                let (file, anchor) = link.split_once('#').unwrap_or((link, ""));
                let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
                let name = page.strip_prefix(root).unwrap().display();
                if !target.exists() {
                    broken.push(format!("{name}: {link} (no such file)"));
                } else if !anchor.is_empty()
                    && target.extension().is_some_and(|e| e == "md")
                    && !heading_anchors(&std::fs::read_to_string(&target).unwrap()).contains(anchor)
                {
                    broken.push(format!("{name}: {link} (no such section)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
