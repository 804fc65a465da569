//! Print a design's register table, or the RISC-V event table, as Markdown, as the docs
//! embed it: `cargo run --release -p pmugen-hdl --example print_regmap -- monitor|pmu|riscv`.
fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("pmu") => print!("{}", pmugen_hdl::pmu::regmap_export::markdown_table()),
        Some("riscv") => print!("{}", pmugen_hdl::rvfi::events::markdown_table()),
        Some("monitor") | None => print!("{}", pmugen_hdl::monitor::regmap_export::markdown_table()),
        Some(other) => {
            eprintln!("unknown design `{other}`; expected monitor, pmu or riscv");
            std::process::exit(2);
        }
    }
}
