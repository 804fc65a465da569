//! Reads a trace stream from a VCD waveform: samples `trace_data`, `trace_valid`,
//! `trace_ready` and `trace_last` at each rising edge of `clock` and keeps the
//! words that moved (valid and ready both 1).
//!
//! A minimal VCD reader: `$var` declarations (inside any `$scope`s), then `#time`
//! steps with scalar (`0!`, `1!`) and vector (`b1010 !`) changes; `x` and `z`
//! read as 0. A signal is found by its name with or without a scope prefix.
//! The values sampled at an edge are those current before the edge's time step,
//! so changes written in the same step as the clock's rise are after the edge.
use std::collections::HashMap;

use super::Word;

/// The signals sampled, in slot order; `clock` is slot 0.
const SIGNALS: [&str; 5] = ["clock", "trace_data", "trace_valid", "trace_ready", "trace_last"];

/// One `$var` declaration.
struct Var<'a> {
    id: &'a str,
    /// Dotted name with the enclosing scopes, bit range removed.
    name: String,
    width: usize,
    line: usize,
}

/// Whitespace-separated tokens with their 1-based line numbers.
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let lines = text.lines().enumerate();
    lines.flat_map(|(n, l)| l.split_whitespace().map(move |t| (n + 1, t))).collect()
}

/// Parses the header up to `$enddefinitions $end`; returns the variables and the
/// index of the first body token.
fn header<'a>(toks: &[(usize, &'a str)], path: &str) -> Result<(Vec<Var<'a>>, usize), String> {
    let mut vars = Vec::new();
    let mut scopes: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let (line, t) = toks[i];
        let end = (i..toks.len()).find(|&j| toks[j].1 == "$end");
        let end = end.ok_or_else(|| format!("{path}:{line}: `{t}` without `$end`"))?;
        let body: Vec<&str> = toks[i + 1..end].iter().map(|x| x.1).collect();
        match t {
            "$scope" => scopes.push(body.get(1).copied().unwrap_or("")),
            "$upscope" => {
                scopes.pop();
            }
            "$var" => {
                if body.len() < 4 {
                    return Err(format!("{path}:{line}: malformed $var declaration"));
                }
                let width = body[1].parse().map_err(|_| format!("{path}:{line}: bad $var width `{}`", body[1]))?;
                let leaf = body[3].split('[').next().unwrap_or(body[3]);
                let name = scopes.iter().chain([&leaf]).filter(|s| !s.is_empty()).copied();
                vars.push(Var { id: body[2], name: name.collect::<Vec<_>>().join("."), width, line });
            }
            "$enddefinitions" => return Ok((vars, end + 1)),
            _ if t.starts_with('$') => {}
            _ => return Err(format!("{path}:{line}: unexpected `{t}` in the VCD header")),
        }
        i = end + 1;
    }
    Err(format!("{path}: no `$enddefinitions $end` (not a VCD file?)"))
}

/// Finds the id of `signal`: a variable whose name is `signal` or ends in
/// `.signal`, the least deep one when there are several.
fn find<'a>(vars: &[Var<'a>], signal: &str, path: &str) -> Result<&'a str, String> {
    let depth = |v: &Var| v.name.matches('.').count();
    let hits: Vec<&Var> = vars.iter().filter(|v| v.name == signal || v.name.ends_with(&format!(".{signal}"))).collect();
    let Some(top) = hits.iter().map(|v| depth(v)).min() else {
        return Err(format!("{path}: no signal `{signal}` (in any scope) in the VCD"));
    };
    let best: Vec<&&Var> = hits.iter().filter(|v| depth(v) == top).collect();
    if best.iter().any(|v| v.id != best[0].id) {
        let names: Vec<&str> = best.iter().map(|v| v.name.as_str()).collect();
        return Err(format!("{path}: signal `{signal}` is ambiguous: {}", names.join(", ")));
    }
    let v = best[0];
    if v.width > 64 {
        return Err(format!("{path}:{}: `{}` is {} bits wide, at most 64 expected", v.line, v.name, v.width));
    }
    Ok(v.id)
}

/// Reads the words that moved on the stream from a VCD waveform, each with
/// `last: Some(trace_last)`. A missing signal is an error naming it.
pub fn words_from_vcd(text: &str, path: &str) -> Result<Vec<Word>, String> {
    let toks = tokens(text);
    let (vars, body) = header(&toks, path)?;
    let mut slots: HashMap<&str, Vec<usize>> = HashMap::new();
    for (slot, signal) in SIGNALS.iter().enumerate() {
        slots.entry(find(&vars, signal, path)?).or_default().push(slot);
    }
    let mut now = [0u64; 5];
    let mut next = now;
    let mut words = Vec::new();
    let mut step = |now: &mut [u64; 5], next: &[u64; 5]| {
        if now[0] & 1 == 0 && next[0] & 1 == 1 && now[2] & 1 == 1 && now[3] & 1 == 1 {
            words.push(Word { data: now[1], last: Some(now[4] & 1 == 1) });
        }
        *now = *next;
    };
    let mut i = body;
    while i < toks.len() {
        let (line, t) = toks[i];
        let bad = |why: &str| format!("{path}:{line}: `{t}`: {why}");
        let (value, id) = match t.as_bytes()[0] {
            b'#' => {
                t[1..].parse::<u64>().map_err(|_| bad("bad time"))?;
                step(&mut now, &next);
                (None, "")
            }
            b'$' if t == "$comment" => {
                i = (i..toks.len()).find(|&j| toks[j].1 == "$end").unwrap_or(toks.len());
                (None, "")
            }
            b'$' => (None, ""),
            b'b' | b'B' | b'r' | b'R' => {
                let id = toks.get(i + 1).ok_or_else(|| bad("value without an identifier"))?.1;
                i += 1;
                let real = matches!(t.as_bytes()[0], b'r' | b'R');
                (if real { None } else { Some(bits(&t[1..]).ok_or_else(|| bad("bad binary value"))?) }, id)
            }
            b'0' | b'1' | b'x' | b'X' | b'z' | b'Z' if t.len() > 1 => (Some((t.as_bytes()[0] == b'1') as u64), &t[1..]),
            _ => return Err(bad("not a VCD value change")),
        };
        if let (Some(v), Some(s)) = (value, slots.get(id)) {
            s.iter().for_each(|&s| next[s] = v);
        }
        i += 1;
    }
    step(&mut now, &next);
    Ok(words)
}

/// Value of a binary string, `x`/`z` as 0 (None if not binary).
fn bits(s: &str) -> Option<u64> {
    let ok = !s.is_empty() && s.chars().all(|c| "01xXzZ".contains(c));
    ok.then(|| s.chars().fold(0u64, |v, c| v << 1 | (c == '1') as u64))
}

#[cfg(test)]
mod tests {
    use super::super::decode;
    use super::super::decode::tests::fmt;
    use super::*;

    /// Two records (3 words with NEW_PROCESS, then 2) with a 3-cycle stall on the
    /// pid word; outputs change in the same time step as the clock's rise.
    const WAVE: &str = r#"$date today $end
$timescale 1ns $end
$scope module top $end
$var wire 1 ! clock $end
$var wire 64 " trace_data [63:0] $end
$var wire 1 # trace_valid $end
$var wire 1 & trace_ready $end
$var wire 1 % trace_last $end
$scope module dut $end
$var wire 64 ' trace_data [63:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
bx "
0#
1&
0%
b0 '
$end
#5
1!
bHEAD "
1#
#10
0!
#15
1!
b111 "
0&
b1 '
#20
0!
#25
1!
#30
0!
#35
1!
#40
0!
#45
1!
#50
0!
1&
#55
1!
b1010101 "
1%
#60
0!
#65
1!
0#
bxxxxzzzz "
#70
0!
#75
1!
1#
b100000 "
0%
#80
0!
#85
1!
b11 "
1%
#90
0!
#95
1!
0#
0%
b1101111010101101 "
#100
0!
#105
1!
"#;

    #[test]
    fn samples_before_each_rising_edge() {
        let text = WAVE.replace("HEAD", &format!("{:b}", 0x8000_0000_0000_1234u64));
        let w = words_from_vcd(&text, "w.vcd").unwrap();
        let got: Vec<(u64, Option<bool>)> = w.iter().map(|w| (w.data, w.last)).collect();
        let f = Some(false);
        assert_eq!(got, [(0x8000_0000_0000_1234, f), (7, f), (0x55, Some(true)), (0x20, f), (3, Some(true))]);
        let r = decode(&w, &fmt(1, 1, 16, 16)).unwrap();
        assert_eq!(
            (r[0].new_process, r[0].values.clone(), r[1].process, r[1].address),
            (Some(7), vec![0x55], Some(7), 0x20)
        );
    }

    #[test]
    fn unscoped_names_and_missing_signals() {
        let text = "$var wire 1 c clock $end $var wire 8 d trace_data $end $var wire 1 v trace_valid $end\n\
                    $var wire 1 r trace_ready $end $var wire 1 l trace_last $end $enddefinitions $end\n\
                    #0 0c 1v 1r 1l b1010 d #1 1c #2 0c b1 d 0l #3 1c #4 0c";
        let w = words_from_vcd(text, "u.vcd").unwrap();
        assert_eq!(w, [Word { data: 10, last: Some(true) }, Word { data: 1, last: Some(false) }]);
        let e = words_from_vcd(&text.replace("trace_ready", "ready"), "u.vcd").unwrap_err();
        assert_eq!(e, "u.vcd: no signal `trace_ready` (in any scope) in the VCD");
        let e = words_from_vcd(&WAVE.replace(" clock ", " clk "), "w.vcd").unwrap_err();
        assert!(e.contains("`clock`"), "{e}");
        let e = words_from_vcd(&text.replace("b1 d", "b12 d"), "u.vcd").unwrap_err();
        assert_eq!(e, "u.vcd:3: `b12`: bad binary value");
    }
}
