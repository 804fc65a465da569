//! Reading a module's text: the signals it declares (for the properties that name
//! them) and the properties a Verilog file carries (for `prove`'s report, also of an
//! edited copy given with `--verilog`). The instances come from the design's model.

use super::Kind;
use crate::emit::module_name;

/// The names of the signals declared in a module's text (ports, wires, regs) that
/// `keep` accepts, in declaration order.
pub fn declared(module: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut names = Vec::new();
    for line in module.lines().map(str::trim) {
        let declaration =
            ["input wire", "output reg", "output wire", "wire", "reg"].iter().any(|w| line.starts_with(w));
        if !declaration || line.contains('=') || line.contains('(') {
            continue;
        }
        if let Some(name) = line.trim_end_matches(';').split_whitespace().last() {
            if keep(name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// One property found in a Verilog text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The module it is in.
    pub module: String,
    /// Its name (the label without `assert_`/`cover_`).
    pub name: String,
    /// The rule it cites.
    pub rule: String,
    /// Assert or cover.
    pub kind: Kind,
}

/// The properties in a Verilog text: what `prove` reports on.
pub fn listed(verilog: &str) -> Vec<Listed> {
    let mut found = Vec::new();
    let (mut module, mut rule, mut inside) = (String::new(), String::new(), false);
    for line in verilog.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("module ") {
            module = module_name(rest).to_string();
        } else if line == "`ifdef FORMAL" {
            inside = true;
        } else if line == "`endif" {
            inside = false;
        } else if let (true, Some(comment)) = (inside, line.strip_prefix("// ")) {
            rule = comment.to_string();
        } else if inside {
            for (verb, kind) in [(": assert (", Kind::Assert), (": cover (", Kind::Cover)] {
                if let Some(at) = line.find(verb) {
                    let label = &line[..at];
                    let name = label.split_once('_').map_or(label, |(_, name)| name);
                    found.push(Listed { module: module.clone(), name: name.to_string(), rule: rule.clone(), kind });
                }
            }
        }
    }
    found
}
