//! The cycle-by-cycle story of a counterexample: the values of the wrapper's ports
//! (the design's ports) and of the failing block's ports at every step of the
//! trace SymbiYosys wrote, each step listing only what changed.
use std::collections::BTreeMap;

/// The story of the VCD `text` for the signals in scope `wrapper` and in
/// `wrapper.<block>` (the failing property's instance, if any).
pub fn story(text: &str, wrapper: &str, block: Option<&str>) -> Result<String, String> {
    let mut scopes: Vec<String> = Vec::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new(); // id -> shown name
    let mut tokens = text.split_whitespace().peekable();
    let block_scope = block.map(|b| format!("{wrapper}.{b}"));
    while let Some(token) = tokens.next() {
        match token {
            "$scope" => {
                let _kind = tokens.next();
                scopes.push(tokens.next().unwrap_or("").to_string());
            }
            "$upscope" => {
                scopes.pop();
            }
            "$var" => {
                let fields: Vec<&str> = tokens.by_ref().take_while(|t| *t != "$end").collect();
                let (Some(id), Some(name)) = (fields.get(2), fields.get(3)) else { continue };
                let scope = scopes.join(".");
                // The properties' own signals (f_*, assert_*_EN) and the clock tell nothing.
                let shown = !(name.starts_with("f_")
                    || name.starts_with("assert_")
                    || name.starts_with("cover_")
                    || *name == "clock");
                if shown && scope == wrapper {
                    names.insert(id.to_string(), name.to_string());
                } else if shown && block_scope.as_deref() == Some(scope.as_str()) {
                    let block = block.unwrap_or("");
                    names.insert(id.to_string(), format!("{}.{name}", block.strip_prefix("uut.").unwrap_or(block)));
                }
            }
            "$enddefinitions" => break,
            _ => {}
        }
    }
    let mut current: BTreeMap<&str, String> = BTreeMap::new();
    let mut steps: Vec<BTreeMap<&str, String>> = Vec::new();
    let mut time: Option<u64> = None;
    let mut rest: Vec<&str> = tokens.collect();
    rest.push("#end");
    let mut i = 0;
    while i < rest.len() {
        let token = rest[i];
        if let Some(t) = token.strip_prefix('#') {
            // smtbmc writes step k at time 10k (the clock's rise) and the clock's fall at 10k + 5.
            if time.is_some_and(|t| t % 10 == 0) {
                steps.push(current.clone());
            }
            time = t.parse().ok();
        } else if let Some(bits) = token.strip_prefix('b') {
            let id = rest.get(i + 1).copied().unwrap_or("");
            i += 1;
            if let Some(name) = names.get(id) {
                current.insert(name, hex(bits));
            }
        } else if let Some(id) = token.get(1..) {
            if let Some(name) = names.get(id) {
                current.insert(name, hex(&token[..1]));
            }
        }
        i += 1;
    }
    if steps.is_empty() {
        return Err("the trace has no steps".into());
    }
    let mut out = String::new();
    let mut before: BTreeMap<&str, String> = BTreeMap::new();
    for (step, values) in steps.iter().enumerate() {
        let changed: Vec<String> = values
            .iter()
            .filter(|(name, value)| {
                *name != &"clock" && before.get(*name) != Some(value) && (step > 0 || value.as_str() != "0")
            })
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
