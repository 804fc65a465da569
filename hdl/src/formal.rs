//! Formal properties inside the generated modules (docs/formal.md).
//!
//! Each design states, per block, the rules of its contract that hold at that block:
//! invariants between its registers and the precedence of the things that can happen
//! at one edge. They are emitted into the block's own module under `` `ifdef FORMAL ``,
//! so every generated file still lints, simulates and synthesizes without them, and
//! `pmugen prove` hands the same file to SymbiYosys. Every property carries a name
//! (its label in the Verilog, the name `prove` prints) and the rule of the docs that
//! it checks.
use std::fmt::Write;

/// What the solver does with a property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Must hold in every reachable cycle.
    Assert,
    /// Must be reachable (a witness that the corner the rules speak of exists).
    Cover,
}

/// When a property is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// In every cycle, on the values of the cycle.
    Always,
    /// In the cycle after an edge that was not a reset edge; `$past(x)` is x before
    /// that edge.
    AfterEdge,
}

/// One property of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Its name, unique in its module; its label in the Verilog is `assert_<name>` or
    /// `cover_<name>` (signals keep their own names).
    pub name: String,
    /// The rule it checks, in the docs' words and with their section.
    pub rule: String,
    /// Assert or cover.
    pub kind: Kind,
    /// Every cycle, or after an edge.
    pub timing: Timing,
    /// The Verilog expression that must hold (or be reached).
    pub expr: String,
}

impl Property {
    /// An assertion checked in every cycle.
    pub fn always(name: &str, rule: &str, expr: impl Into<String>) -> Self {
        Self { name: name.into(), rule: rule.into(), kind: Kind::Assert, timing: Timing::Always, expr: expr.into() }
    }

    /// An assertion checked after every edge that was not a reset edge.
    pub fn after_edge(name: &str, rule: &str, expr: impl Into<String>) -> Self {
        Self { name: name.into(), rule: rule.into(), kind: Kind::Assert, timing: Timing::AfterEdge, expr: expr.into() }
    }

    /// A cover of a corner, after an edge that was not a reset edge.
    pub fn cover(name: &str, rule: &str, expr: impl Into<String>) -> Self {
        Self { name: name.into(), rule: rule.into(), kind: Kind::Cover, timing: Timing::AfterEdge, expr: expr.into() }
    }
}

/// The properties of one module, with the formal-only signals they use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleProperties {
    /// Verilog declarations and logic that only the properties read (`f_` names).
    pub declarations: Vec<String>,
    /// The properties.
    pub properties: Vec<Property>,
}

impl ModuleProperties {
    /// The `` `ifdef FORMAL `` block for a module with `clock` and `reset` ports.
    pub fn verilog(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "`ifdef FORMAL");
        let _ =
            writeln!(text, "    // Formal properties: docs/formal.md (`pmugen prove`). Each names the rule it checks.");
        let _ = writeln!(text, "    reg f_past_valid;");
        let _ = writeln!(text, "    initial f_past_valid = 1'b0;");
        let _ = writeln!(text, "    always @(posedge clock) f_past_valid <= 1'b1;");
        for line in &self.declarations {
            let _ = writeln!(text, "    {line}");
        }
        for (timing, opening, closing) in [
            (Timing::Always, "    always @(*) begin", "    end"),
            (
                Timing::AfterEdge,
                "    always @(posedge clock) begin\n        if (f_past_valid && !$past(reset)) begin",
                "        end\n    end",
            ),
        ] {
            let chosen: Vec<&Property> = self.properties.iter().filter(|p| p.timing == timing).collect();
            if chosen.is_empty() {
                continue;
            }
            let indent = if timing == Timing::Always { "        " } else { "            " };
            let _ = writeln!(text, "{opening}");
            for property in chosen {
                let verb = match property.kind {
                    Kind::Assert => "assert",
                    Kind::Cover => "cover",
                };
                let _ = writeln!(text, "{indent}// {}", property.rule);
                // One conjunct per line: Verilator's preprocessor refuses lines of more
                // than 40,000 tokens even inside an `ifdef` it skips (the N = 32 monitor).
                let expr = property.expr.replace(" && ", &format!(" &&\n{indent}    "));
                let _ = writeln!(text, "{indent}{verb}_{}: {verb} ({expr});", property.name);
            }
            let _ = writeln!(text, "{closing}");
        }
        let _ = writeln!(text, "`endif");
        text
    }
}

/// `verilog` with the properties that `properties` gives for each module inserted
/// before its `endmodule`. `properties` receives the module's name after `top`
/// (`""` for the top itself, `"__counters__0"` for a child) and the module's text.
pub fn insert(verilog: &str, top: &str, properties: impl Fn(&str, &str) -> Option<ModuleProperties>) -> String {
    let mut out = String::with_capacity(verilog.len() * 11 / 10);
    let mut module_start = 0;
    for line in verilog.split_inclusive('\n') {
        if line.starts_with("module ") {
            module_start = out.len();
        }
        if let Some(name) = line.trim_end().strip_prefix("endmodule // ") {
            let body = out[module_start..].to_string();
            if let Some(block) = name.strip_prefix(top).and_then(|suffix| properties(suffix, &body)) {
                out.push_str(&block.verilog());
            }
        }
        out.push_str(line);
    }
    out
}

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

/// The names of the properties in a Verilog text, with the module they are in, the
/// rule they cite and their kind: what `prove` reports on.
pub fn listed(verilog: &str) -> Vec<(String, String, String, Kind)> {
    let mut found = Vec::new();
    let (mut module, mut rule, mut inside) = (String::new(), String::new(), false);
    for line in verilog.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("module ") {
            module = rest.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("").to_string();
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
                    found.push((module.clone(), name.to_string(), rule.clone(), kind));
                }
            }
        }
    }
    found
}

/// The instance path below `top` of every module instantiated under it
/// (`controls__0`, `pmu.counters__0`; `""` for the top), from the instantiations in
/// the text: rust-hdl writes one module per instance.
pub fn instance_paths(verilog: &str, top: &str) -> std::collections::BTreeMap<String, String> {
    let names: std::collections::BTreeSet<String> = crate::emit::module_names(verilog).into_iter().collect();
    let mut parent: std::collections::BTreeMap<String, (String, String)> = Default::default();
    let mut current = String::new();
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            current = rest.split(|c: char| c == '(' || c == ';' || c.is_whitespace()).next().unwrap_or("").to_string();
            continue;
        }
        let mut words = line.trim_start().split(|c: char| c.is_whitespace() || c == '(');
        if let (Some(module), Some(instance)) = (words.next(), words.next()) {
            if names.contains(module) && !instance.is_empty() && module != current {
                parent.insert(module.to_string(), (current.clone(), instance.to_string()));
            }
        }
    }
    let mut paths = std::collections::BTreeMap::new();
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

/// The implication `premise -> conclusion` as a Verilog expression.
pub fn implies(premise: &str, conclusion: &str) -> String {
    format!("!({premise}) || ({conclusion})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_go_before_their_modules_endmodule_and_are_listed() {
        let verilog = "module t(clock,reset);\nendmodule // t\n\nmodule t__c(clock);\nendmodule // t__c\n";
        let text = insert(verilog, "t", |name, _| {
            (name == "__c").then(|| ModuleProperties {
                declarations: vec![],
                properties: vec![
                    Property::always("p_one", "docs: rule one", "1'b1"),
                    Property::after_edge("p_two", "docs: rule two", "$past(clock) == clock"),
                ],
            })
        });
        assert!(text.starts_with("module t(clock,reset);\nendmodule // t\n"), "{text}");
        let block = &text[text.find("module t__c").unwrap()..];
        assert!(block.contains("`ifdef FORMAL") && block.trim_end().ends_with("`endif\nendmodule // t__c"), "{block}");
        let listed = listed(&text);
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0], ("t__c".into(), "p_one".into(), "docs: rule one".into(), Kind::Assert));
        assert_eq!(listed[1].1, "p_two");
    }

    #[test]
    fn instance_paths_follow_the_instantiations() {
        let verilog = "module t_tb;\n    t dut(\n    );\nendmodule // t_tb\nmodule t(clock);\n    t__p p(\n    );\nendmodule // t\nmodule t__p(clock);\n    t__p__c__0 c__0(\n    );\nendmodule // t__p\nmodule t__p__c__0(clock);\nendmodule // t__p__c__0\n";
        let paths = instance_paths(verilog, "t");
        assert_eq!(paths.get("t").map(String::as_str), Some(""));
        assert_eq!(paths.get("t__p").map(String::as_str), Some("p"));
        assert_eq!(paths.get("t__p__c__0").map(String::as_str), Some("p.c__0"));
    }
}
