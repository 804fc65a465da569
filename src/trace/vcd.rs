//! Reads a trace stream from a VCD waveform: samples `trace_data`, `trace_valid`,
//! `trace_ready` and `trace_last` at each rising edge of `clock` and keeps the
//! words that moved (valid and ready both 1).
//!
//! The VCD is read by [`crate::vcd`]; `x` and `z` read as 0. A signal is found by
//! its name with or without a scope prefix. The values sampled at an edge are those
//! current before the edge's time step, so changes written in the same step as the
//! clock's rise are after the edge.
use std::collections::HashMap;

use super::Word;
use crate::vcd::{changes, find, header, tokens, Change};

/// The signals sampled, in slot order; `clock` is slot 0.
const SIGNALS: [&str; 5] = ["clock", "trace_data", "trace_valid", "trace_ready", "trace_last"];

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
    for change in changes(&toks, body, path)? {
        match change {
            Change::Time(_) => step(&mut now, &next),
            Change::Value { id, bits: digits } => {
                if let Some(s) = slots.get(id) {
                    s.iter().for_each(|&s| next[s] = bits(digits));
                }
            }
        }
    }
    step(&mut now, &next);
    Ok(words)
}

/// Value of binary digits, `x`/`z` as 0.
fn bits(s: &str) -> u64 {
    s.chars().fold(0u64, |v, c| v << 1 | (c == '1') as u64)
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
