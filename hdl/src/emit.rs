//! Verilog emission under a design's own top name.
//!
//! rust-hdl names the top `top` and children `top$...`; two generated designs in one
//! project would collide. Emitting with the design name as the root scope makes every
//! module name start with it, and every `$` becomes `__` so that no name needs escaping
//! (`event_order_monitor_n8_w3__record__rows__0`).
use rust_hdl::prelude::*;

/// Why a block could not be emitted as Verilog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmitError {
    /// rust-hdl's connection checks refused the block (e.g. a signal without a driver).
    Rejected {
        /// The top module's name.
        top: String,
        /// rust-hdl's finding.
        detail: String,
    },
    /// Renaming `$` to `__` would merge two names.
    MergedNames,
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmitError::Rejected { top, detail } => write!(f, "rust-hdl rejected the design {top}: {detail}"),
            EmitError::MergedNames => {
                write!(f, "renaming `$` to `__` would merge two names; rename a block or signal")
            }
        }
    }
}

impl std::error::Error for EmitError {}

/// For the callers whose own errors are still messages.
impl From<EmitError> for String {
    fn from(error: EmitError) -> String {
        error.to_string()
    }
}

/// The Verilog of `uut` with top module `top_name`, after rust-hdl's connection
/// checks. `header` is prepended as `//` comment lines.
pub fn verilog<B: Block>(uut: &mut B, top_name: &str, header: &[String]) -> Result<String, EmitError> {
    uut.connect_all();
    check_all(uut).map_err(|err| EmitError::Rejected { top: top_name.to_string(), detail: format!("{err:?}") })?;
    let mut defines = ModuleDefines::default();
    uut.accept(top_name, &mut defines);
    let mut text = String::new();
    for line in header {
        text.push_str("// ");
        text.push_str(line);
        text.push('\n');
    }
    // Simulators that need a time unit (Icarus warns once per module without one) get
    // it from here; the design itself has no delays.
    text.push_str("`timescale 1ns / 1ps\n");
    text.push_str(&defines.defines());
    without_dollars(&text)
}

/// rust-hdl joins hierarchy levels with `$` (`top$counter$value`), which users must
/// escape in cocotb, Tcl and constraint files; every `$` inside a name becomes `__`.
/// System functions (`$signed`) start a name and keep their `$`. Refused if two names
/// would become one.
pub fn without_dollars(verilog: &str) -> Result<String, EmitError> {
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 16);
    let mut previous = ' ';
    for c in verilog.chars() {
        if c == '$' && (previous.is_ascii_alphanumeric() || previous == '_') {
            out.push_str("__");
        } else {
            out.push(c);
        }
        previous = c;
    }
    fn names(text: &str) -> std::collections::HashSet<&str> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).collect()
    }
    if names(verilog).len() != names(&out).len() {
        return Err(EmitError::MergedNames);
    }
    Ok(out)
}

/// The names of all modules declared in a Verilog text.
pub fn module_names(verilog: &str) -> Vec<String> {
    verilog.lines().filter_map(|line| line.strip_prefix("module ")).map(|rest| module_name(rest).to_string()).collect()
}

/// The module name at the start of what follows `module ` in a declaration.
pub fn module_name(declaration: &str) -> &str {
    declaration.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("")
}

/// The ports of module `top` in `verilog` as (name, input?, width), in declaration
/// order (the declaration style of rust-hdl and of the bus slaves).
pub fn module_ports(verilog: &str, top: &str) -> Result<Vec<(String, bool, usize)>, String> {
    let Some(start) = verilog.find(&format!("module {top}(")) else {
        return Err(format!("module {top} is not in the Verilog"));
    };
    let body = &verilog[start..verilog[start..].find("endmodule").map_or(verilog.len(), |end| start + end)];
    let mut ports = Vec::new();
    for line in body.lines().map(str::trim) {
        let input = line.starts_with("input wire");
        if !input && !line.starts_with("output reg") && !line.starts_with("output wire") {
            continue;
        }
        let words: Vec<&str> = line.trim_end_matches(';').split_whitespace().collect();
        let width = words
            .iter()
            .find(|w| w.starts_with('['))
            .and_then(|w| w.trim_matches(|c| c == '[' || c == ']').split(':').next()?.parse::<usize>().ok())
            .map_or(1, |msb| msb + 1);
        ports.push((words.last().unwrap_or(&"").to_string(), input, width));
    }
    Ok(ports)
}
