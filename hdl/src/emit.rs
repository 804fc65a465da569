//! Verilog emission under a design's own top name.
//!
//! rust-hdl names the top `top` and children `top$...`; two generated designs in one
//! project would collide. Emitting with the design name as the root scope makes every
//! module name start with it (`event_order_monitor_n8_w3$record$rows$0`).
use rust_hdl::prelude::*;

/// The Verilog of `uut` with top module `top_name`, after rust-hdl's connection
/// checks. `header` is prepended as `//` comment lines.
pub fn verilog<B: Block>(uut: &mut B, top_name: &str, header: &[String]) -> Result<String, String> {
    uut.connect_all();
    check_all(uut).map_err(|err| format!("rust-hdl rejected the design {top_name}: {err:?}"))?;
    let mut defines = ModuleDefines::default();
    uut.accept(top_name, &mut defines);
    let mut text = String::new();
    for line in header {
        text.push_str("// ");
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&defines.defines());
    Ok(text)
}

/// The names of all modules declared in a Verilog text.
pub fn module_names(verilog: &str) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|line| line.strip_prefix("module "))
        .map(|rest| rest.split(|c: char| c == '(' || c.is_whitespace()).next().unwrap_or("").to_string())
        .collect()
}
