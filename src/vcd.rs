//! A minimal VCD reader, shared by `trace decode` (src/trace/vcd.rs) and `prove`'s
//! counterexample stories (src/prove/story.rs): `$var` declarations (inside any
//! `$scope`s), then `#time` steps with scalar (`0!`, `1!`) and vector (`b1010 !`)
//! changes. Real values are skipped; a malformed token is an error naming its line.
//! (The `vcd` crate, which pmugen-hdl writes waveforms with, reads VCD too, but its
//! errors do not say where in the file: a cut or hand-edited waveform must be refused
//! naming the line.)

/// One `$var` declaration.
pub struct Var<'a> {
    /// The identifier code its changes use.
    pub id: &'a str,
    /// Dotted name with the enclosing scopes, bit range removed.
    pub name: String,
    /// Bits.
    pub width: usize,
    /// 1-based line of the declaration.
    pub line: usize,
}

/// Whitespace-separated tokens with their 1-based line numbers.
pub fn tokens(text: &str) -> Vec<(usize, &str)> {
    let lines = text.lines().enumerate();
    lines.flat_map(|(n, l)| l.split_whitespace().map(move |t| (n + 1, t))).collect()
}

/// Parses the header up to `$enddefinitions $end`; returns the variables and the
/// index of the first body token.
pub fn header<'a>(toks: &[(usize, &'a str)], path: &str) -> Result<(Vec<Var<'a>>, usize), String> {
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
pub fn find<'a>(vars: &[Var<'a>], signal: &str, path: &str) -> Result<&'a str, String> {
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

/// One event of the body: a time step, or a signal's new value as binary digits
/// (`x`/`z` kept; a scalar change gives one digit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    /// `#time`.
    Time(u64),
    /// A value change of the variable `id`.
    Value { id: &'a str, bits: &'a str },
}

/// The body's events from token `start` on (the index [`header`] returns).
pub fn changes<'a>(toks: &[(usize, &'a str)], start: usize, path: &str) -> Result<Vec<Change<'a>>, String> {
    let mut out = Vec::new();
    let mut i = start;
    while i < toks.len() {
        let (line, t) = toks[i];
        let bad = |why: &str| format!("{path}:{line}: `{t}`: {why}");
        match t.as_bytes()[0] {
            b'#' => out.push(Change::Time(t[1..].parse::<u64>().map_err(|_| bad("bad time"))?)),
            b'$' if t == "$comment" => {
                i = (i..toks.len()).find(|&j| toks[j].1 == "$end").unwrap_or(toks.len());
            }
            b'$' => {}
            b'b' | b'B' | b'r' | b'R' => {
                let id = toks.get(i + 1).ok_or_else(|| bad("value without an identifier"))?.1;
                i += 1;
                if matches!(t.as_bytes()[0], b'b' | b'B') {
                    let digits = &t[1..];
                    if digits.is_empty() || !digits.chars().all(|c| "01xXzZ".contains(c)) {
                        return Err(bad("bad binary value"));
                    }
                    out.push(Change::Value { id, bits: digits });
                }
            }
            b'0' | b'1' | b'x' | b'X' | b'z' | b'Z' if t.len() > 1 => {
                out.push(Change::Value { id: &t[1..], bits: &t[..1] })
            }
            _ => return Err(bad("not a VCD value change")),
        }
        i += 1;
    }
    Ok(out)
}
