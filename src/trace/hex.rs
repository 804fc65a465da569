//! Reads a trace stream from a hex dump: one 64-bit word per line, as `pmugen soc run`
//! writes it and as a logic analyser or a firmware's console gives it. A dump has no
//! `trace_last`, so a damaged one cannot frame its records: what can be seen (an empty
//! dump, a cut last line) is refused here, naming the line.
use super::Word;

/// Reads a hex dump: one word per line, optional `0x` prefix, any case; blank
/// lines and lines starting with `#` are skipped. A dump has no `trace_last`.
///
/// Refused, naming the line: a word that is not hex or wider than 64 bits, a dump
/// without words, and a last line that looks cut (no newline after it, and a
/// different number of digits than the word line before it, or an odd number when it
/// is the only one). With `partial`, a cut last line is left out instead and said in
/// the returned note.
pub fn words_from_hex(text: &str, path: &str, partial: bool) -> Result<(Vec<Word>, Option<String>), String> {
    let words = hex_lines(text, path)?;
    let Some(&(line, digits, _)) = words.last() else {
        return Err(format!(
            "{path}: no words: the dump is empty (a hex dump has one 64-bit word per line); a capture is empty when \
             the PMU sent nothing: was tracing turned on (TRACE_CTRL.TRACE_EN) while blocks ended?"
        ));
    };
    let previous = words.len().checked_sub(2).map(|i| words[i].1);
    let unterminated = !text.ends_with('\n');
    let cut = unterminated && previous.map_or(digits % 2 == 1, |previous| previous != digits);
    let mut note = None;
    if cut {
        let before = previous.map_or(String::new(), |p| format!(" where the line before has {p}"));
        let why =
            format!("{path}:{line}: the last line has no newline and {digits} hex digits{before}: the dump looks cut");
        if !partial {
            return Err(format!("{why} (--partial leaves the line out)"));
        }
        note = Some(format!("{why}; left out (--partial)"));
    }
    let kept = words.len() - usize::from(cut);
    Ok((words[..kept].iter().map(|&(_, _, data)| Word { data, last: None }).collect(), note))
}

/// The word lines of a hex dump: (line number, digit count, value).
fn hex_lines(text: &str, path: &str) -> Result<Vec<(usize, usize, u64)>, String> {
    let mut words = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
        let bad = |why: &str| format!("{path}:{}: \"{t}\": {why}", n + 1);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad("not a hex number"));
        }
        if digits.len() > 16 {
            return Err(bad("more than 16 hex digits (a word is 64 bits)"));
        }
        let data = u64::from_str_radix(digits, 16).map_err(|e| bad(&e.to_string()))?;
        words.push((n + 1, digits.len(), data));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_dump() {
        let (w, note) =
            words_from_hex("# trace\n0x8000000000001234\n\n  0X2a\nFFFFffffFFFFffff\n", "t.hex", false).unwrap();
        let data: Vec<u64> = w.iter().map(|w| w.data).collect();
        assert_eq!(data, [0x8000_0000_0000_1234, 42, u64::MAX]);
        assert!(w.iter().all(|w| w.last.is_none()) && note.is_none());
        let e = words_from_hex("1\n0x12g4\n", "t.hex", false).unwrap_err();
        assert_eq!(e, "t.hex:2: \"0x12g4\": not a hex number");
        let e = words_from_hex("\n0x\n", "t.hex", false).unwrap_err();
        assert!(e.starts_with("t.hex:2: \"0x\": not a hex"), "{e}");
        let e = words_from_hex("00000000000000001\n", "t.hex", false).unwrap_err();
        assert!(e.starts_with("t.hex:1: \"00000000000000001\": more than 16 hex digits"), "{e}");
    }

    #[test]
    fn empty_and_cut_hex_dumps_are_refused_naming_the_line() {
        for empty in ["", "\n\n", "# only a comment\n"] {
            let e = words_from_hex(empty, "t.hex", true).unwrap_err();
            assert!(e.starts_with("t.hex: no words: the dump is empty") && e.contains("TRACE_EN"), "{e}");
        }
        // Cut: no newline after the last line, fewer digits than the line before.
        let text = "0000000000000001\n0000000000000002\n00000000003";
        let e = words_from_hex(text, "t.hex", false).unwrap_err();
        assert!(
            e.starts_with("t.hex:3: the last line has no newline and 11 hex digits where the line before has 16"),
            "{e}"
        );
        let (w, note) = words_from_hex(text, "t.hex", true).unwrap();
        assert_eq!(w.len(), 2);
        assert!(note.unwrap().ends_with("left out (--partial)"));
        // An odd digit count on the only line, without a newline.
        assert!(words_from_hex("0x123", "t.hex", false).unwrap_err().starts_with("t.hex:1: the last line"));
        // Not cut: the same width as the line before, or a newline at the end.
        assert_eq!(words_from_hex("0000000000000001\n0000000000000002", "t.hex", false).unwrap().0.len(), 2);
        assert_eq!(words_from_hex("0000000000000001\n2a\n", "t.hex", false).unwrap().0.len(), 2);
        assert_eq!(words_from_hex("2a", "t.hex", false).unwrap().0.len(), 1);
    }
}
