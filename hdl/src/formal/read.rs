//! Reading a generated Verilog text back: the signals a module declares (for the
//! properties that name them), the properties it carries and the instance path of
//! each module (for `prove`'s report).
use std::collections::{BTreeMap, BTreeSet};

use super::Kind;
use crate::emit::{module_name, module_names};

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

/// The instance path below `top` of every module instantiated under it
/// (`controls__0`, `pmu.counters__0`; `""` for the top), from the instantiations in
/// the text: rust-hdl writes one module per instance.
pub fn instance_paths(verilog: &str, top: &str) -> BTreeMap<String, String> {
    let names: BTreeSet<String> = module_names(verilog).into_iter().collect();
    let mut parent: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut current = String::new();
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            current = module_name(rest).to_string();
            continue;
        }
        let mut words = line.trim_start().split(|c: char| c.is_whitespace() || c == '(');
        if let (Some(module), Some(instance)) = (words.next(), words.next()) {
            if names.contains(module) && !instance.is_empty() && module != current {
                parent.insert(module.to_string(), (current.clone(), instance.to_string()));
            }
        }
    }
    let mut paths = BTreeMap::new();
    paths.insert(top.to_string(), String::new());
    for module in parent.keys() {
        let mut chain = Vec::new();
        let mut at = module.as_str();
        while at != top {
            let Some((up, instance)) = parent.get(at) else { break };
            chain.push(instance.as_str());
            at = up;
        }
        if at == top {
            chain.reverse();
            paths.insert(module.clone(), chain.join("."));
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_paths_follow_the_instantiations() {
        let verilog = "module t_tb;\n    t dut(\n    );\nendmodule // t_tb\nmodule t(clock);\n    t__p p(\n    );\nendmodule // t\nmodule t__p(clock);\n    t__p__c__0 c__0(\n    );\nendmodule // t__p\nmodule t__p__c__0(clock);\nendmodule // t__p__c__0\n";
        let paths = instance_paths(verilog, "t");
        assert_eq!(paths.get("t").map(String::as_str), Some(""));
        assert_eq!(paths.get("t__p").map(String::as_str), Some("p"));
        assert_eq!(paths.get("t__p__c__0").map(String::as_str), Some("p.c__0"));
    }
}
