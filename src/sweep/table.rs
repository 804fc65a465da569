//! A sweep's merged results as tables (docs/report.md §8.3): `results.md`, one row per
//! job with the swept parameters, and `results.csv`, every parameter and figure of
//! every job, for a spreadsheet or a plotting script.
use std::fmt::Write;

use super::record::Record;
use super::Sweep;
use crate::report::render::tools_text;

/// An optional figure as a table cell ("" when absent).
fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

/// The figures both tables give, in their order: the budget's flip-flops, the
/// synthesis's LUTs, flip-flop cells, carries, block RAMs and DSPs, and the packed logic.
fn figures(r: &Record) -> [String; 7] {
    [
        cell(r.flip_flops),
        cell(r.luts),
        cell(r.synthesis_flip_flops),
        cell(r.carries),
        cell(r.ram_blocks),
        cell(r.dsps),
        cell(r.logic_cells),
    ]
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// `results.csv`: a header, then one line per job.
pub fn csv(sweep: &Sweep, records: &[Record]) -> String {
    let names = &sweep.parameters;
    let mut head: Vec<String> = vec!["job".into(), "design".into()];
    head.extend(names.iter().cloned());
    head.extend(
        [
            "family",
            "device",
            "seed",
            "status",
            "flip_flops",
            "luts",
            "synthesis_flip_flops",
            "carries",
            "ram_blocks",
            "dsps",
            "logic_cells",
            "logic_cells_available",
            "fits",
            "not_routed",
            "fmax_mhz",
            "timed_in_harness",
            "seconds",
            "log",
        ]
        .map(String::from),
    );
    let mut text = head.join(",") + "\n";
    for r in records {
        let mut row: Vec<String> = vec![r.name.clone(), r.design.clone()];
        row.extend(names.iter().map(|n| r.parameters.get(n).cloned().unwrap_or_default()));
        row.extend([
            r.family.key().to_string(),
            r.device.clone().unwrap_or_default(),
            cell(r.seed),
            r.status.text().to_string(),
        ]);
        row.extend(figures(r));
        row.extend([
            cell(r.logic_cells_available),
            cell(r.fits),
            r.not_routed.to_string(),
            cell(r.fmax_mhz.map(|f| format!("{f:.2}"))),
            r.timed_in_harness.to_string(),
            format!("{:.1}", r.seconds),
            r.log.clone(),
        ]);
        text.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
        text.push('\n');
    }
    text
}

/// `results.md`: what was swept and what was fixed, then a row per job.
pub fn markdown(sweep: &Sweep, records: &[Record]) -> String {
    let mut md = format!("# Sweep of the {} ({} jobs)\n\n", sweep.design, records.len());
    let first = records.first();
    let fixed: Vec<String> = sweep
        .parameters
        .iter()
        .filter(|n| !sweep.swept.contains(n))
        .filter_map(|n| first.and_then(|r| r.parameters.get(n)).map(|v| format!("{n} = {v}")))
        .collect();
    if !fixed.is_empty() {
        let _ = writeln!(md, "Fixed: {}.\n", fixed.join(", "));
    }
    if let Some(r) = first {
        let _ = writeln!(md, "Tools: {}.\n", tools_text(&r.inputs.tools));
    }
    let swept = &sweep.swept;
    let mut head: Vec<&str> = swept.iter().map(String::as_str).collect();
    head.extend(["family", "device", "seed", "status", "FFs (budget)", "LUTs", "FF cells", "carries", "RAM", "DSP"]);
    head.extend(["packed logic", "fits", "Fmax (MHz)"]);
    let _ = writeln!(md, "| {} |", head.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(head.len()));
    for r in records {
        let mut row: Vec<String> = swept.iter().map(|n| r.parameters.get(n).cloned().unwrap_or_default()).collect();
        let fits = r.fits.map(|fits| match (fits, r.not_routed) {
            (true, _) => "yes",
            (false, true) => "not routed",
            (false, false) => "no",
        });
        let fmax = r.fmax_mhz.map(|f| format!("{f:.1}{}", if r.timed_in_harness { " (harness)" } else { "" }));
        row.extend([
            r.family.title().to_string(),
            r.device.clone().unwrap_or_else(|| "–".into()),
            r.seed.map_or("–".into(), |s| s.to_string()),
            r.status.text().to_string(),
        ]);
        row.extend(figures(r));
        row.extend([cell(fits), cell(fmax)]);
        let _ = writeln!(md, "| {} |", row.join(" | "));
    }
    md
}
