//! The cycle-by-cycle story of a counterexample: the values of the wrapper's ports
//! (the design's ports) and of the failing block's signals at every step of the
//! trace SymbiYosys wrote, each step listing only what changed.
use std::collections::BTreeMap;

use crate::vcd::{changes, header, tokens, Change};

/// The story of the VCD `text` for the signals in scope `wrapper` and in
/// `wrapper.<block>` (the failing property's instance, if any).
pub fn story(text: &str, wrapper: &str, block: Option<&str>) -> Result<String, String> {
    let toks = tokens(text);
    let (vars, body) = header(&toks, "the counterexample")?;
    let block_scope = block.map(|b| format!("{wrapper}.{b}."));
    let mut names: BTreeMap<&str, String> = BTreeMap::new(); // id -> shown name
    for var in &vars {
        let (scope, leaf) = var.name.rsplit_once('.').unwrap_or(("", var.name.as_str()));
        // The properties' own signals (f_*, assert_*_EN) and the clock tell nothing.
        let shown =
            !(leaf.starts_with("f_") || leaf.starts_with("assert_") || leaf.starts_with("cover_") || leaf == "clock");
        if shown && scope == wrapper {
            names.insert(var.id, leaf.to_string());
        } else if let (true, Some(prefix)) = (shown, block_scope.as_deref()) {
            if format!("{scope}.") == prefix {
                let block = block.unwrap_or("");
                names.insert(var.id, format!("{}.{leaf}", block.strip_prefix("uut.").unwrap_or(block)));
            }
        }
    }
    let mut current: BTreeMap<&str, String> = BTreeMap::new();
    let mut steps: Vec<BTreeMap<&str, String>> = Vec::new();
    let mut time: Option<u64> = None;
    for change in changes(&toks, body, "the counterexample")?.into_iter().chain([Change::Time(u64::MAX)]) {
        match change {
            // smtbmc writes step k at time 10k (the clock's rise) and the clock's fall at 10k + 5.
            Change::Time(t) => {
                if time.is_some_and(|t| t % 10 == 0) {
                    steps.push(current.clone());
                }
                time = Some(t);
            }
            Change::Value { id, bits } => {
                if let Some(name) = names.get(id) {
                    current.insert(name, hex(bits));
                }
            }
        }
    }
    if steps.is_empty() {
        return Err("the trace has no steps".into());
    }
    let mut out = String::new();
    let mut before: BTreeMap<&str, String> = BTreeMap::new();
    for (step, values) in steps.iter().enumerate() {
        let changed: Vec<String> = values
            .iter()
            .filter(|(name, value)| before.get(*name) != Some(value) && (step > 0 || value.as_str() != "0"))
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        let shown = if changed.is_empty() { "(no change)".to_string() } else { changed.join(" ") };
        out.push_str(&format!("  step {step:>3}: {shown}\n"));
        before = values.clone();
    }
    Ok(out)
}

/// A VCD binary value as hexadecimal (`x`/`z` kept as `x`).
fn hex(bits: &str) -> String {
    if bits.chars().any(|c| !matches!(c, '0' | '1')) {
        return "x".into();
    }
    let padded = format!("{}{bits}", "0".repeat((4 - bits.len() % 4) % 4));
    let digits: String = padded
        .as_bytes()
        .chunks(4)
        .map(|c| format!("{:x}", c.iter().fold(0, |v, b| v << 1 | (b - b'0') as u32)))
        .collect();
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".into()
    } else if bits.len() == 1 {
        trimmed.into()
    } else {
        format!("0x{trimmed}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_story_lists_what_changed_at_each_step() {
        let vcd = "$scope module w $end $var wire 1 a clock $end $var wire 4 b count $end \
                   $scope module uut $end $scope module c $end $var wire 1 d flag $end $upscope $end $upscope $end $upscope $end \
                   $enddefinitions $end #0 1a b0011 b 0d #5 0a #10 1a 1d #15 0a #20 1a b1111 b";
        let text = story(vcd, "w", Some("uut.c")).unwrap();
        assert_eq!(text, "  step   0: count=0x3\n  step   1: c.flag=1\n  step   2: count=0xf\n");
    }
}
