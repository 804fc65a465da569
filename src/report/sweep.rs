//! `pmugen report monitor --sweep`: the report flow over a range of N at one W, a
//! table and an SVG plot of flip-flops, LUTs and Fmax against N, with the formula
//! curves N*(N-1) (record) and W*N (order register) for comparison.
use anyhow::Result;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

use pmugen_hdl::params::{MonitorOptions, MonitorParams};

use super::compare::HAND_RTL;

use super::family::Family;
use super::{Options, Report};

/// The default sweep: dense where the design is small, then every 4 events.
pub const DEFAULT_EVENTS: [usize; 11] = [2, 4, 6, 8, 10, 12, 16, 20, 24, 28, 32];

/// One configuration of the sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The family.
    pub family: Family,
    /// The device placed on.
    pub device: String,
    /// N.
    pub events: usize,
    /// All flip-flops.
    pub flip_flops: usize,
    /// Context-record flip-flops (N*(N-1)).
    pub record: usize,
    /// Order-register flip-flops (W*N).
    pub order: usize,
    /// LUTs of the family's synthesis.
    pub luts: u64,
    /// Packed logic (the family's logic unit).
    pub logic_cells: Option<u64>,
    /// Placed and routed on the device.
    pub fits: bool,
    /// Packed, but nextpnr did not finish routing within its time limit.
    pub not_routed: bool,
    /// Fmax with placement seed 1, if the design fits the device.
    pub fmax_mhz: Option<f64>,
    /// The best Fmax of placement seeds 1..3.
    pub best_fmax_mhz: Option<f64>,
}

impl SweepPoint {
    fn from_report(report: &Report, family: Family) -> Self {
        let figures = report.family(family).expect("the sweep's report has its family");
        let placement = &figures.placements[0];
        Self {
            family,
            device: placement.device.clone(),
            events: report.parameters["N"].parse().expect("N is a number"),
            flip_flops: report.total_flip_flops,
            record: report.flip_flops["context record"],
            order: report.flip_flops["order register"],
            luts: figures.synthesis.luts,
            logic_cells: placement.logic_cells,
            fits: placement.fits,
            not_routed: placement.not_routed,
            fmax_mhz: placement.fmax_mhz,
            best_fmax_mhz: placement.best_fmax().map(|(_, f)| f),
        }
    }
}

/// Run the report for every N in `events` at order width `order_width` with `options`,
/// on the first device of each family of `report` (the iCE40-HX8K, the LFE5U-25F,
/// ...), writing each report under `out/<family>/n{N}/` and `sweep.md`, `sweep.json`,
/// `sweep.svg` in `out`.
pub fn run(
    events: &[usize],
    order_width: usize,
    options: MonitorOptions,
    report: &Options,
    out: &Path,
) -> Result<Vec<SweepPoint>> {
    let mut points = Vec::new();
    // Every family's tools: the sweep's header names them all.
    let mut tools = std::collections::BTreeMap::new();
    for &family in &report.families {
        let device = family.devices()[0];
        let options_here = Options { families: vec![family], devices: Some(vec![device.short]), ..report.clone() };
        for &n in events {
            let params = MonitorParams::new(n as u64, order_width as u64)?.with(options);
            let dir = out.join(family.key()).join(format!("n{n}"));
            let report = super::run_or_reuse(&params, &dir, &options_here)?;
            tools.extend(report.tools.clone());
            points.push(SweepPoint::from_report(&report, family));
        }
    }
    std::fs::write(out.join("sweep.md"), markdown(&points, order_width, &super::render::tools_text(&tools)))?;
    std::fs::write(out.join("sweep.json"), serde_json::to_string_pretty(&points)? + "\n")?;
    std::fs::write(out.join("sweep.svg"), svg(&points, order_width))?;
    println!("sweep: {}", out.join("sweep.md").display());
    Ok(points)
}

/// The families of `points`, in their order.
fn families(points: &[SweepPoint]) -> Vec<Family> {
    let mut families: Vec<Family> = points.iter().map(|p| p.family).collect();
    families.dedup();
    families
}

/// The sweep as a Markdown table.
pub fn markdown(points: &[SweepPoint], order_width: usize, tools: &str) -> String {
    let mut md = String::new();
    let families = families(points);
    for family in families {
        let here: Vec<&SweepPoint> = points.iter().filter(|p| p.family == family).collect();
        let (luts, unit) = (family.figure_heads()[0], family.logic_unit().1);
        let _ = write!(
            md,
            "Area sweep at W = {order_width} on the {} ({tools})\n\n\
             | N | flip-flops | record FFs = N(N-1) | order FFs = W*N | {luts} | {unit} | Fmax, seed 1 | best of seeds 1..3 |\n\
             |---:|---:|---:|---:|---:|---:|---:|---:|\n",
            here[0].device
        );
        for p in here {
            let lc = super::fpga::cells_text(p.logic_cells, p.fits, p.not_routed);
            let fmax = p.fmax_mhz.map_or("–".to_string(), |f| format!("{f:.1} MHz"));
            let best = p.best_fmax_mhz.map_or("–".to_string(), |f| format!("{f:.1} MHz"));
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {lc} | {fmax} | {best} |",
                p.events, p.flip_flops, p.record, p.order, p.luts
            );
        }
        md.push('\n');
    }
    md.push_str(
        "Hand-written Verilog of the same contract on the iCE40-HX8K (yosys 0.23, nextpnr-ice40 0.4, seeds 1..3), \
         the squares of the plot:\n\n",
    );
    md.push_str("| N | W | logic cells | Fmax |\n|---:|---:|---:|---:|\n");
    for hand in HAND_RTL {
        let _ =
            writeln!(md, "| {} | {} | {} | {} |", hand.events, hand.order_width, hand.cells_text(), hand.fmax_text());
    }
    md
}

/// A linear chart area: maps data coordinates into an SVG panel.
struct Panel {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    x_max: f64,
    y_max: f64,
}

impl Panel {
    fn x(&self, value: f64) -> f64 {
        self.left + value / self.x_max * self.width
    }
    fn y(&self, value: f64) -> f64 {
        self.top + self.height - value / self.y_max * self.height
    }
    fn polyline(&self, points: &[(f64, f64)], color: &str, dashed: bool) -> String {
        let coords: Vec<String> = points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.x(x), self.y(y))).collect();
        let dash = if dashed { " stroke-dasharray=\"6,4\"" } else { "" };
        format!(
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"{dash} points=\"{}\"/>\n",
            coords.join(" ")
        )
    }
    fn axes(&self, y_label: &str, x_ticks: &[f64], y_ticks: &[f64]) -> String {
        let mut s = String::new();
        let (x0, y0, x1, y1) = (self.left, self.top + self.height, self.left + self.width, self.top);
        let _ = writeln!(s, "<path d=\"M{x0},{y1} L{x0},{y0} L{x1},{y0}\" stroke=\"#333\" fill=\"none\"/>");
        for &t in x_ticks {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{t}</text>",
                self.x(t),
                y0 + 15.0
            );
        }
        for &t in y_ticks {
            let _ = writeln!(
                s,
                "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{t}</text>",
                x0 - 5.0,
                self.y(t) + 4.0,
                y = self.y(t)
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" font-weight=\"bold\">{y_label}</text>",
            x0,
            y1 - 8.0
        );
        let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">N (events)</text>", x1 - 60.0, y0 + 30.0);
        s
    }
}

fn ticks(max: f64) -> Vec<f64> {
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(magnitude * 10.0);
    (1..).map(|i| i as f64 * step).take_while(|t| *t <= max).collect()
}

fn legend(x: f64, y: f64, entries: &[(&str, &str, bool)]) -> String {
    let mut s = String::new();
    for (i, (label, color, dashed)) in entries.iter().enumerate() {
        let yy = y + i as f64 * 16.0;
        let dash = if *dashed { " stroke-dasharray=\"6,4\"" } else { "" };
        let _ = writeln!(
            s,
            "<line x1=\"{x}\" x2=\"{:.1}\" y1=\"{yy}\" y2=\"{yy}\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{label}</text>",
            x + 24.0,
            x + 30.0,
            yy + 4.0
        );
    }
    s
}

/// Each family's series colors: (packed logic and Fmax, LUTs).
const FAMILY_COLORS: [(&str, &str); 4] =
    [("#ff7f0e", "#d62728"), ("#17becf", "#8c564b"), ("#e377c2", "#7f7f7f"), ("#bcbd22", "#393b79")];

/// The sweep as an SVG: resources against N (with the formula curves) above,
/// Fmax against N below, a series per family.
pub fn svg(points: &[SweepPoint], order_width: usize) -> String {
    let x_max = points.iter().map(|p| p.events).max().unwrap_or(2) as f64;
    let hand_in_range = || HAND_RTL.iter().filter(move |h| h.events as f64 <= x_max);
    let lut_max = points
        .iter()
        .map(|p| p.logic_cells.unwrap_or(p.luts).max(p.luts) as f64)
        .chain(hand_in_range().map(|h| h.cells.1 as f64))
        .fold(1.0, f64::max);
    let fmax_max =
        points.iter().filter_map(|p| p.best_fmax_mhz).chain(hand_in_range().map(|h| h.fmax.1)).fold(10.0, f64::max)
            * 1.15;
    let area = Panel { left: 70.0, top: 40.0, width: 560.0, height: 260.0, x_max, y_max: lut_max * 1.1 };
    let speed = Panel { left: 70.0, top: 380.0, width: 560.0, height: 160.0, x_max, y_max: fmax_max };
    let families = families(points);
    let first = families.first().copied().unwrap_or(Family::Ice40);
    let of = |family: Family| points.iter().filter(move |p| p.family == family);
    let series = |f: &dyn Fn(&SweepPoint) -> f64| of(first).map(|p| (p.events as f64, f(p))).collect::<Vec<_>>();
    let formula = |f: &dyn Fn(f64) -> f64| (2..=x_max as usize).map(|n| (n as f64, f(n as f64))).collect::<Vec<_>>();
    let w = order_width as f64;
    let x_ticks: Vec<f64> = (0..=x_max as usize).step_by(4).skip(1).map(|n| n as f64).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"680\" height=\"590\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let mut devices: Vec<&str> = points.iter().map(|p| p.device.as_str()).collect();
    devices.dedup();
    let _ = writeln!(
        s,
        "<text x=\"340\" y=\"18\" font-size=\"14\" text-anchor=\"middle\">event-order monitor, W = {order_width}: \
         cost against N ({})</text>",
        devices.join(", ")
    );
    s.push_str(&area.axes("cells / flip-flops", &x_ticks, &ticks(area.y_max)));
    let mut entries: Vec<(String, &str, bool)> = Vec::new();
    for (&family, (cells_color, luts_color)) in families.iter().zip(FAMILY_COLORS) {
        let logic: Vec<(f64, f64)> =
            of(family).filter_map(|p| p.logic_cells.map(|lc| (p.events as f64, lc as f64))).collect();
        let luts: Vec<(f64, f64)> = of(family).map(|p| (p.events as f64, p.luts as f64)).collect();
        s.push_str(&area.polyline(&logic, cells_color, false));
        s.push_str(&area.polyline(&luts, luts_color, false));
        entries.push((format!("{}: {} (packed)", family.title(), family.logic_unit().1), cells_color, false));
        entries.push((format!("{}: {}", family.title(), family.figure_heads()[0]), luts_color, false));
    }
    for hand in hand_in_range() {
        let (x, low, high) = (area.x(hand.events as f64), area.y(hand.cells.0 as f64), area.y(hand.cells.1 as f64));
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"{:.1}\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>",
            x - 4.0,
            high - 4.0,
            low - high + 8.0
        );
    }
    s.push_str(&area.polyline(&series(&|p| p.flip_flops as f64), "#1f77b4", false));
    s.push_str(&area.polyline(&series(&|p| p.record as f64), "#2ca02c", false));
    s.push_str(&area.polyline(&formula(&|n| n * (n - 1.0)), "#2ca02c", true));
    s.push_str(&area.polyline(&series(&|p| p.order as f64), "#9467bd", false));
    s.push_str(&area.polyline(&formula(&|n| w * n), "#9467bd", true));
    entries.extend([
        ("hand-written RTL, iCE40 logic cells (square)".to_string(), "#000", false),
        ("flip-flops, total".to_string(), "#1f77b4", false),
        ("record flip-flops".to_string(), "#2ca02c", false),
        ("N*(N-1)".to_string(), "#2ca02c", true),
        ("order flip-flops".to_string(), "#9467bd", false),
        ("W*N".to_string(), "#9467bd", true),
    ]);
    let entries: Vec<(&str, &str, bool)> = entries.iter().map(|(l, c, d)| (l.as_str(), *c, *d)).collect();
    s.push_str(&legend(90.0, 60.0, &entries));
    s.push_str(&speed.axes(
        "Fmax (MHz): seed 1 (solid), best of seeds 1..3 (dashed), hand RTL (squares); none where it is not placed and routed",
        &x_ticks,
        &ticks(fmax_max),
    ));
    for (&family, (color, _)) in families.iter().zip(FAMILY_COLORS) {
        let fitted: Vec<(f64, f64)> = of(family).filter_map(|p| p.fmax_mhz.map(|f| (p.events as f64, f))).collect();
        let best: Vec<(f64, f64)> = of(family).filter_map(|p| p.best_fmax_mhz.map(|f| (p.events as f64, f))).collect();
        s.push_str(&speed.polyline(&fitted, color, false));
        s.push_str(&speed.polyline(&best, color, true));
        for &(x, y) in &fitted {
            let _ = writeln!(s, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{color}\"/>", speed.x(x), speed.y(y));
        }
    }
    for hand in hand_in_range() {
        let (x, low, high) = (speed.x(hand.events as f64), speed.y(hand.fmax.0), speed.y(hand.fmax.1));
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"{:.1}\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>",
            x - 4.0,
            high - 4.0,
            low - high + 8.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(events: usize, fits: bool, not_routed: bool) -> SweepPoint {
        let fmax = fits.then_some(80.0);
        SweepPoint {
            family: Family::Ice40,
            device: "iCE40-HX8K ct256".to_string(),
            events,
            flip_flops: 0,
            record: events * (events - 1),
            order: 3 * events,
            luts: 0,
            logic_cells: Some(7000),
            fits,
            not_routed,
            fmax_mhz: fmax,
            best_fmax_mhz: fmax,
        }
    }

    #[test]
    fn a_build_that_packs_but_is_not_routed_is_not_called_too_big() {
        let md = markdown(&[point(24, true, false), point(28, false, true), point(32, false, false)], 3, "Yosys 0.70");
        let row = |n: usize| md.lines().find(|l| l.starts_with(&format!("| {n} |"))).unwrap().to_string();
        assert!(row(24).contains("| 7000 | 80.0 MHz |"), "{md}");
        assert!(row(28).contains("packs; not routed in 30 min") && !row(28).contains("does not fit"), "{md}");
        assert!(row(32).contains("7000, does not fit"), "{md}");
    }
}
