//! Print the register map as Markdown (the README's table comes from here).
fn main() {
    print!("{}", pmugen_hdl::monitor::regmap_export::markdown_table());
}
