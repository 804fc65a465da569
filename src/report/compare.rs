//! `pmugen report monitor --compare`: the monitor's build options side by side at the
//! sizes users ask about, next to hand-written Verilog of the same contract measured
//! with the same tools (the figures docs/figures.md §1 shows).
use anyhow::Result;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

use pmugen_hdl::params::{MonitorOptions, MonitorParams, SerialOutput};

use super::family::{Family, HX8K};
use super::Options;

/// Hand-written Verilog of docs/monitor.md, yosys 0.23 synth_ice40 and nextpnr-ice40 0.4
/// on an HX8K ct256, seeds 1..3: the figures a generator should beat.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct HandRtl {
    /// N.
    pub events: usize,
    /// W.
    pub order_width: usize,
    /// Logic cells, lowest and highest over the seeds.
    pub cells: (u64, u64),
    /// Fmax, lowest and highest over the seeds, MHz.
    pub fmax: (f64, f64),
    /// What sets this design apart from the other one of the same size, if any.
    pub variant: &'static str,
}

impl HandRtl {
    /// `717–722` or `2050`.
    pub fn cells_text(&self) -> String {
        range(self.cells.0 as f64, self.cells.1 as f64, 0, "")
    }
    /// `112–129 MHz`.
    pub fn fmax_text(&self) -> String {
        range(self.fmax.0, self.fmax.1, 0, " MHz")
    }
}

fn range(low: f64, high: f64, digits: usize, unit: &str) -> String {
    if low == high {
        format!("{low:.digits$}{unit}")
    } else {
        format!("{low:.digits$}–{high:.digits$}{unit}")
    }
}

/// The hand-written designs: at N=8 one with the comparators registered and a smaller
/// one without.
pub const HAND_RTL: &[HandRtl] = &[
    HandRtl { events: 8, order_width: 3, cells: (717, 722), fmax: (112.0, 129.0), variant: ", comparators registered" },
    HandRtl { events: 8, order_width: 3, cells: (679, 679), fmax: (84.0, 95.0), variant: "" },
    HandRtl { events: 16, order_width: 4, cells: (2050, 2050), fmax: (64.0, 64.0), variant: "" },
    HandRtl { events: 32, order_width: 5, cells: (7085, 7085), fmax: (68.0, 68.0), variant: "" },
];

/// The sizes of the comparison.
pub const SIZES: [(usize, usize); 3] = [(8, 3), (16, 4), (32, 5)];

/// One configuration's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// N.
    pub events: usize,
    /// W.
    pub order_width: usize,
    /// The options' flags (empty for the default).
    pub flags: String,
    /// What the options build, e.g. `patent matcher, serial frame`.
    pub structure: String,
    /// Packed logic cells on the HX8K.
    pub logic_cells: Option<u64>,
    /// It fits the HX8K.
    pub fits: bool,
    /// It packs into the HX8K, but nextpnr did not finish routing it in time.
    pub not_routed: bool,
    /// Fmax with seed 1.
    pub fmax_mhz: Option<f64>,
    /// Best Fmax of seeds 1..3.
    pub best_fmax_mhz: Option<f64>,
}

/// Report every option set at every size of [`SIZES`] under `out/<top>/`, and write
/// `compare.md` and `compare.json` in `out`. A configuration whose directory already
/// holds a current report ([`super::current_report`]) is not placed again.
pub fn run(report: &Options, out: &Path) -> Result<Vec<Row>> {
    let report = Options { families: vec![Family::Ice40], devices: Some(vec![HX8K.short]), ..report.clone() };
    let mut rows = Vec::new();
    for (events, order_width) in SIZES {
        for options in MonitorOptions::all() {
            let params = MonitorParams::new(events as u64, order_width as u64)?.with(options);
            let report = super::run_or_reuse(&params, &out.join(params.top_name()), &report)?;
            let placement = report.placement(&HX8K);
            rows.push(Row {
                events,
                order_width,
                flags: options.flags().trim().to_string(),
                structure: describe(options),
                logic_cells: placement.logic_cells,
                fits: placement.fits,
                not_routed: placement.not_routed,
                fmax_mhz: placement.fmax_mhz,
                best_fmax_mhz: placement.best_fmax().map(|(_, f)| f),
            });
        }
    }
    std::fs::write(out.join("compare.md"), markdown(&rows))?;
    std::fs::write(out.join("compare.json"), serde_json::to_string_pretty(&rows)? + "\n")?;
    println!("compare: {}", out.join("compare.md").display());
    Ok(rows)
}

fn describe(options: MonitorOptions) -> String {
    let serial = match options.serial {
        SerialOutput::Frame => "serial frame",
        SerialOutput::Absent => "no serial frame",
    };
    format!("{} matcher, {serial}", options.matcher.flag_value())
}

/// The comparison as a Markdown table, hand-written RTL first at each size.
pub fn markdown(rows: &[Row]) -> String {
    let mut md = String::from(
        "| N | W | design | flags | logic cells (HX8K, 7680) | Fmax seed 1 | best of seeds 1..3 |\n\
         |---:|---:|---|---|---:|---:|---:|\n",
    );
    for (events, order_width) in SIZES {
        for hand in HAND_RTL.iter().filter(|h| (h.events, h.order_width) == (events, order_width)) {
            let _ = writeln!(
                md,
                "| {events} | {order_width} | hand-written RTL{} | | {} | | {} |",
                hand.variant,
                hand.cells_text(),
                hand.fmax_text()
            );
        }
        for row in rows.iter().filter(|r| (r.events, r.order_width) == (events, order_width)) {
            let cells = super::fpga::cells_text(row.logic_cells, row.fits, row.not_routed);
            let fmax = |f: Option<f64>| f.map_or("–".to_string(), |f| format!("{f:.1} MHz"));
            let flags = if row.flags.is_empty() { "(default)".to_string() } else { format!("`{}`", row.flags) };
            let _ = writeln!(
                md,
                "| {events} | {order_width} | pmugen, {} | {flags} | {cells} | {} | {} |",
                row.structure,
                fmax(row.fmax_mhz),
                fmax(row.best_fmax_mhz)
            );
        }
    }
    md
}
