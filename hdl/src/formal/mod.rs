//! Formal properties inside the generated modules (docs/formal.md).
//!
//! Each design states, per block, the rules of its contract that hold at that block:
//! invariants between its registers and the precedence of the things that can happen
//! at one edge. They are emitted into the block's own module under `` `ifdef FORMAL ``,
//! so every generated file still lints, simulates and synthesizes without them, and
//! `pmugen prove` hands the same file to SymbiYosys. Every property carries a name
//! (its label in the Verilog, the name `prove` prints) and the rule of the docs that
//! it checks.
mod read;

pub use read::{declared, listed, Listed};
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
        let first =
            Listed { module: "t__c".into(), name: "p_one".into(), rule: "docs: rule one".into(), kind: Kind::Assert };
        assert_eq!(listed[0], first);
        assert_eq!(listed[1].name, "p_two");
    }
}
