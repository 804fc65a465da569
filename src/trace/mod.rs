//! Counter-level trace of a PMU: the stream format, readers for captured streams
//! (hex dumps and VCD waveforms), the decoder, and the two outputs of a trace
//! (IBM US 6,253,338): the trace of executed blocks and the per-block totals.
//!
//! A stream is a sequence of 64-bit words moved AXI4-Stream style (`trace_valid`
//! and `trace_ready` both 1 at a rising clock edge; `trace_last` on a record's
//! final word). The format is fixed by the PMU's threads, counters, counter width
//! and address width, as in its `design.json`.
pub mod command;
pub mod decode;
pub mod hex;
pub mod input;
pub mod summary;
pub mod vcd;

pub use decode::{decode, decode_partial, record_words, totals, BlockTotal, DecodeError, DecodeErrorKind, Record};
pub use hex::words_from_hex;
pub use vcd::words_from_vcd;

use std::fmt::Write;

/// The parameters of a PMU that fix its trace stream's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceFormat {
    /// Number of hardware threads T (1..=4).
    pub threads: usize,
    /// Counters per thread K (1..=4): value words per record.
    pub counters: usize,
    /// Counter width CW in bits (16..=64).
    pub counter_width: usize,
    /// Block address width AW in bits (16..=48).
    pub address_width: usize,
}

impl TraceFormat {
    /// Reads the format from a design's JSON object (keys `threads`, `counters`,
    /// `counter_width`, `address_width`; other keys are ignored). `path` names the
    /// file in error messages.
    pub fn from_design_json(text: &str, path: &str) -> Result<TraceFormat, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("{path}: not valid JSON: {e}"))?;
        let obj = v.as_object().ok_or_else(|| format!("{path}: expected a JSON object"))?;
        let key = |name: &str, lo: u64, hi: u64| -> Result<usize, String> {
            let want = format!("an integer in {lo}..={hi}");
            match obj.get(name) {
                None => Err(format!("{path}: missing key \"{name}\" ({want})")),
                Some(x) => match x.as_u64() {
                    Some(n) if (lo..=hi).contains(&n) => Ok(n as usize),
                    _ => Err(format!("{path}: key \"{name}\" is {x}, expected {want}")),
                },
            }
        };
        Ok(TraceFormat {
            threads: key("threads", 1, 4)?,
            counters: key("counters", 1, 4)?,
            counter_width: key("counter_width", 16, 64)?,
            address_width: key("address_width", 16, 48)?,
        })
    }
}

/// One word that moved on the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// The 64-bit `trace_data`.
    pub data: u64,
    /// `trace_last` when it was captured (None for a hex dump).
    pub last: Option<bool>,
}

/// The name of each counter's column: the events counted (`trace decode --events`),
/// or `<prefix>0`, `<prefix>1`, ... without them.
pub(crate) fn column_names(names: &[String], format: &TraceFormat, prefix: &str) -> Vec<String> {
    (0..format.counters).map(|i| names.get(i).cloned().unwrap_or_else(|| format!("{prefix}{i}"))).collect()
}

/// `0x`-prefixed hex address, zero-padded to the address width.
fn hex_address(address: u64, format: &TraceFormat) -> String {
    format!("0x{:0w$x}", address, w = format.address_width.div_ceil(4))
}

fn pid_text(pid: Option<u32>) -> String {
    pid.map(|p| p.to_string()).unwrap_or_default()
}

/// The trace of blocks as CSV: `record,thread,address,new_process,pid,summary,executions,v0,...`
/// (pid is the process in effect, blank when unknown, or a summary record's own;
/// `summary` is 1 for a summary record of the profile table, whose `executions` and
/// values are its count and sums; `names` replace `v0`, ...).
pub fn trace_csv(records: &[Record], format: &TraceFormat, names: &[String]) -> String {
    let mut s = String::from("record,thread,address,new_process,pid,summary,executions");
    column_names(names, format, "v").iter().for_each(|name| write!(s, ",{name}").unwrap());
    s.push('\n');
    for r in records {
        let np = r.new_process.is_some() as u8;
        let address = hex_address(r.address, format);
        let summary = r.summary.is_some() as u8;
        write!(s, "{},{},{address},{np},{},{summary},{}", r.index, r.thread, pid_text(r.process), r.executions())
            .unwrap();
        r.values.iter().for_each(|v| write!(s, ",{v}").unwrap());
        s.push('\n');
    }
    s
}

/// A table line: right-aligned cells, or a note line spanning the table.
pub(crate) enum Line {
    Cells(Vec<String>),
    Note(String),
}

/// Renders `lines` under `header` with each column as wide as its widest cell.
pub(crate) fn render(header: Vec<String>, lines: Vec<Line>) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for l in &lines {
        if let Line::Cells(c) = l {
            width.iter_mut().zip(c).for_each(|(w, c)| *w = (*w).max(c.len()));
        }
    }
    let row = |cells: &[String]| {
        let cols: Vec<String> = cells.iter().zip(&width).map(|(c, w)| format!("{c:>w$}")).collect();
        cols.join("  ") + "\n"
    };
    let mut s = row(&header);
    for l in lines {
        match l {
            Line::Cells(c) => s += &row(&c),
            Line::Note(n) => s += &(n + "\n"),
        }
    }
    s
}

/// The trace of blocks as a fixed-width text table, with a `process <pid>` line
/// where each NEW_PROCESS record starts, and one before the first record (giving
/// its process in effect, or `process unknown`). A stream with summary records of the
/// profile table is listed with a `kind` (`block` or `summary`), `pid` and
/// `executions` column instead of the process lines ([`summary::listing`]).
pub fn trace_table(records: &[Record], format: &TraceFormat, names: &[String]) -> String {
    if records.iter().any(|r| r.summary.is_some()) {
        return summary::listing(records, format, names);
    }
    let mut header: Vec<String> = ["record", "thread", "address"].map(String::from).to_vec();
    header.extend(column_names(names, format, "v"));
    let mut lines = Vec::new();
    for r in records {
        if let Some(pid) = r.new_process {
            lines.push(Line::Note(format!("process {pid}")));
        } else if lines.is_empty() {
            let pid = r.process.map_or("unknown".to_string(), |p| p.to_string());
            lines.push(Line::Note(format!("process {pid}")));
        }
        let mut c = vec![r.index.to_string(), r.thread.to_string(), hex_address(r.address, format)];
        c.extend(r.values.iter().map(|v| v.to_string()));
        lines.push(Line::Cells(c));
    }
    render(header, lines)
}

/// The per-block totals as CSV: `pid,address,executions,total0,...` (pid blank
/// when unknown; `names` replace `total0`, ...).
pub fn totals_csv(totals: &[BlockTotal], format: &TraceFormat, names: &[String]) -> String {
    let mut s = String::from("pid,address,executions");
    column_names(names, format, "total").iter().for_each(|name| write!(s, ",{name}").unwrap());
    s.push('\n');
    for t in totals {
        write!(s, "{},{},{}", pid_text(t.process), hex_address(t.address, format), t.executions).unwrap();
        t.totals.iter().for_each(|v| write!(s, ",{v}").unwrap());
        s.push('\n');
    }
    s
}

/// The per-block totals as a fixed-width text table (pid `-` when unknown).
pub fn totals_table(totals: &[BlockTotal], format: &TraceFormat, names: &[String]) -> String {
    let mut header: Vec<String> = ["pid", "address", "executions"].map(String::from).to_vec();
    header.extend(column_names(names, format, "total"));
    let lines = totals
        .iter()
        .map(|t| {
            let pid = t.process.map_or("-".to_string(), |p| p.to_string());
            let mut c = vec![pid, hex_address(t.address, format), t.executions.to_string()];
            c.extend(t.totals.iter().map(|v| v.to_string()));
            Line::Cells(c)
        })
        .collect();
    render(header, lines)
}

#[cfg(test)]
mod tests {
    use super::decode::tests::{fmt, rec, stream};
    use super::*;

    #[test]
    fn format_from_design_json() {
        let j = r#"{"name": "x", "threads": 4, "counters": 1, "counter_width": 64, "address_width": 16}"#;
        assert_eq!(TraceFormat::from_design_json(j, "d.json"), Ok(fmt(4, 1, 64, 16)));
        let e = TraceFormat::from_design_json(r#"{"threads": 1, "counters": 1, "counter_width": 16}"#, "d.json");
        assert_eq!(e.unwrap_err(), "d.json: missing key \"address_width\" (an integer in 16..=48)");
        let j = r#"{"threads": 5, "counters": 1, "counter_width": 16, "address_width": 16}"#;
        let e = TraceFormat::from_design_json(j, "d.json").unwrap_err();
        assert!(e.contains("d.json") && e.contains("\"threads\" is 5") && e.contains("1..=4"), "{e}");
        assert!(TraceFormat::from_design_json("[1]", "d.json").unwrap_err().contains("object"));
    }

    #[test]
    fn trace_and_totals_outputs() {
        let f = fmt(2, 2, 16, 20);
        let recs = [
            rec(1, 0x10, None, &[1, 2]),
            rec(0, 0x10, Some(5), &[3, 40000]),
            rec(0, 0xabcde, None, &[0, 0]),
            rec(1, 0x10, None, &[1, 1]),
        ];
        let r = decode(&stream(&recs, true), &f).unwrap();
        let csv = "record,thread,address,new_process,pid,summary,executions,v0,v1\n\
                   0,1,0x00010,0,,0,1,1,2\n1,0,0x00010,1,5,0,1,3,40000\n2,0,0xabcde,0,5,0,1,0,0\n3,1,0x00010,0,5,0,1,1,1\n";
        assert_eq!(trace_csv(&r, &f, &[]), csv);
        let table = "record  thread  address  v0     v1\n\
                     process unknown\n     0       1  0x00010   1      2\n\
                     process 5\n     1       0  0x00010   3  40000\n\
                     \x20    2       0  0xabcde   0      0\n     3       1  0x00010   1      1\n";
        assert_eq!(trace_table(&r, &f, &[]), table);
        let t = totals(&r);
        let csv = "pid,address,executions,total0,total1\n,0x00010,1,1,2\n5,0x00010,2,4,40001\n5,0xabcde,1,0,0\n";
        assert_eq!(totals_csv(&t, &f, &[]), csv);
        let table = "pid  address  executions  total0  total1\n  -  0x00010           1       1       2\n\
                     \x20 5  0x00010           2       4   40001\n  5  0xabcde           1       0       0\n";
        assert_eq!(totals_table(&t, &f, &[]), table);
    }
}
