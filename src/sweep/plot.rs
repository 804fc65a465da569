//! The plot of any sweep, `results.svg` (docs/report.md §8.3): one panel per swept
//! numeric parameter with the synthesized LUTs of every job that succeeded against
//! that parameter (a dot per job, a line through each family's mean at each value),
//! and the same for Fmax where jobs were placed. A parameter whose values span more
//! than a factor of 16 (the trace depth D) gets a log2 axis.
use std::fmt::Write;

use super::model::FamilyFit;
use super::record::{Record, Status};
use super::svg::{legend, ticks, Panel, FAMILY_COLORS};
use super::Sweep;
use crate::report::family::Family;

const PANEL_WIDTH: f64 = 300.0;
const PANEL_HEIGHT: f64 = 190.0;
const COLUMNS: usize = 2;

/// A figure of a record the plot draws, by name.
type Figure<'a> = (&'a str, &'a dyn Fn(&Record) -> Option<f64>);

/// How a parameter's values map onto a panel's x axis.
struct Axis {
    name: String,
    log2: bool,
    max: f64,
    ticks: Vec<(f64, String)>,
}

impl Axis {
    fn of(name: &str, values: &[f64]) -> Self {
        let (low, high) = values.iter().fold((f64::MAX, 0.0_f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let log2 = low > 0.0 && high / low > 16.0;
        let mut distinct: Vec<f64> = values.to_vec();
        distinct.sort_by(f64::total_cmp);
        distinct.dedup();
        let position = |v: f64| if log2 { v.log2() } else { v };
        let ticks = distinct.iter().map(|&v| (position(v), v.to_string())).collect();
        Axis { name: name.to_string(), log2, max: position(high) * 1.08, ticks }
    }
    fn position(&self, value: f64) -> f64 {
        if self.log2 {
            value.log2()
        } else {
            value
        }
    }
}

/// The families of `records`, in their first order.
fn families(records: &[&Record]) -> Vec<Family> {
    let mut families: Vec<Family> = Vec::new();
    for r in records {
        if !families.contains(&r.family) {
            families.push(r.family);
        }
    }
    families
}

/// One panel of `figure` against `axis`: dots, and each family's mean line.
fn panel(
    s: &mut String,
    panel: &Panel,
    axis: &Axis,
    records: &[&Record],
    label: &str,
    figure: &dyn Fn(&Record) -> Option<f64>,
) {
    let x_label = if axis.log2 { format!("{} (log2 axis)", axis.name) } else { axis.name.clone() };
    s.push_str(&panel.axes(label, &x_label, &axis.ticks, &ticks(panel.y_max)));
    for (family, (color, _)) in families(records).into_iter().zip(FAMILY_COLORS) {
        let mut means: Vec<(f64, f64, usize)> = Vec::new();
        for r in records.iter().filter(|r| r.family == family) {
            let (Some(x), Some(y)) = (r.parameters.get(&axis.name).and_then(|v| v.parse::<f64>().ok()), figure(r))
            else {
                continue;
            };
            let x = axis.position(x);
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{color}\" fill-opacity=\"0.5\"/>",
                panel.x(x),
                panel.y(y)
            );
            match means.iter_mut().find(|(mx, _, _)| *mx == x) {
                Some(mean) => (mean.1, mean.2) = (mean.1 + y, mean.2 + 1),
                None => means.push((x, y, 1)),
            }
        }
        means.sort_by(|a, b| a.0.total_cmp(&b.0));
        let line: Vec<(f64, f64)> = means.iter().map(|&(x, sum, n)| (x, sum / n as f64)).collect();
        s.push_str(&panel.polyline(&line, color, false));
    }
}

/// `results.svg` of `sweep`'s `records`.
pub fn svg(sweep: &Sweep, records: &[Record]) -> String {
    let ok: Vec<&Record> = records.iter().filter(|r| r.status == Status::Ok).collect();
    let axes: Vec<Axis> = sweep
        .swept
        .iter()
        .filter_map(|name| {
            let values: Option<Vec<f64>> = ok.iter().map(|r| r.parameters.get(name)?.parse::<f64>().ok()).collect();
            values.filter(|v| !v.is_empty()).map(|v| Axis::of(name, &v))
        })
        .collect();
    let luts = |r: &Record| r.luts.map(|l| l as f64);
    let fmax = |r: &Record| r.fmax_mhz;
    let placed = ok.iter().any(|r| r.fmax_mhz.is_some());
    let figures: Vec<Figure> = if placed {
        vec![("LUTs (synthesis)", &luts), ("Fmax (MHz)", &fmax)]
    } else {
        vec![("LUTs (synthesis)", &luts)]
    };
    let panels = axes.len() * figures.len();
    let rows = panels.div_ceil(COLUMNS).max(1);
    let legend_top = 70.0 + rows as f64 * (PANEL_HEIGHT + 80.0);
    let (width, height) = (COLUMNS as f64 * (PANEL_WIDTH + 90.0) + 20.0, legend_top + 16.0 * 4.0 + 10.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{:.0}\" y=\"20\" font-size=\"14\" text-anchor=\"middle\">Sweep of the {}: {} jobs, {} succeeded \
         (a dot per job, a line through each family's mean)</text>\n",
        width / 2.0,
        sweep.design,
        records.len(),
        ok.len()
    );
    if axes.is_empty() {
        s.push_str("<text x=\"20\" y=\"60\" font-size=\"12\">No numeric parameter takes more than one value.</text>\n");
    }
    let mut index = 0;
    for (label, figure) in &figures {
        for axis in &axes {
            let y_max = ok.iter().filter_map(|r| figure(r)).fold(1.0, f64::max) * 1.1;
            let (column, row) = (index % COLUMNS, index / COLUMNS);
            let left = 70.0 + column as f64 * (PANEL_WIDTH + 90.0);
            let top = 70.0 + row as f64 * (PANEL_HEIGHT + 80.0);
            let frame = Panel { left, top, width: PANEL_WIDTH, height: PANEL_HEIGHT, x_max: axis.max, y_max };
            panel(&mut s, &frame, axis, &ok, label, *figure);
            index += 1;
        }
    }
    let entries: Vec<(String, &str, bool)> =
        families(&ok).iter().zip(FAMILY_COLORS).map(|(f, (color, _))| (f.title().to_string(), color, false)).collect();
    let entries: Vec<(&str, &str, bool)> = entries.iter().map(|(l, c, d)| (l.as_str(), *c, *d)).collect();
    s.push_str(&legend(70.0, legend_top, &entries));
    s.push_str("</svg>\n");
    s
}

/// `model.svg`: each family's measured LUTs against the model's, a dot per
/// configuration, with the line where they are equal and the lines 10 % above and
/// below it.
pub fn model_svg(fits: &[FamilyFit]) -> String {
    let most = fits.iter().flat_map(|f| &f.fitted).map(|&(_, y, m)| y.max(m)).fold(1.0, f64::max) * 1.05;
    let frame = Panel { left: 70.0, top: 50.0, width: 400.0, height: 400.0, x_max: most, y_max: most };
    let mut s = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"520\" height=\"560\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"260\" y=\"20\" font-size=\"14\" text-anchor=\"middle\">Measured LUTs against the area \
         model's, a dot per configuration</text>\n",
    );
    let ticks_here = ticks(most);
    let x_ticks: Vec<(f64, String)> = ticks_here.iter().map(|&t| (t, t.to_string())).collect();
    s.push_str(&frame.axes("measured LUTs", "model LUTs", &x_ticks, &ticks_here));
    s.push_str(&frame.polyline(&[(0.0, 0.0), (most, most)], "#333", false));
    s.push_str(&frame.polyline(&[(0.0, 0.0), (most / 1.1, most)], "#999", true));
    s.push_str(&frame.polyline(&[(0.0, 0.0), (most, most * 0.9)], "#999", true));
    let mut entries: Vec<(String, &str, bool)> = Vec::new();
    for (fit, (color, _)) in fits.iter().zip(FAMILY_COLORS) {
        for &(_, measured, modelled) in &fit.fitted {
            let _ = writeln!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{color}\" fill-opacity=\"0.6\"/>",
                frame.x(modelled),
                frame.y(measured)
            );
        }
        let label = format!(
            "{}: max {:.1} %, mean {:.1} %",
            fit.family.title(),
            fit.max_relative_error * 100.0,
            fit.mean_relative_error * 100.0
        );
        entries.push((label, color, false));
    }
    entries.push(("equal; dashed: ±10 %".to_string(), "#333", false));
    let entries: Vec<(&str, &str, bool)> = entries.iter().map(|(l, c, d)| (l.as_str(), *c, *d)).collect();
    s.push_str(&legend(70.0, 500.0, &entries));
    s.push_str("</svg>\n");
    s
}
