//! The monitor's N plot (docs/report.md §7), `sweep.svg`: flip-flops, LUTs and packed
//! logic against N with the formula curves N*(N-1) and W*N above, Fmax of the first
//! seed and the best of the seeds below, a series per family, and the hand-written
//! RTL's figures as squares.
use std::fmt::Write;

use super::monitor_view::{families, SweepPoint};
use super::svg::{labeled, legend, ticks, Panel, FAMILY_COLORS};
use crate::report::compare::HAND_RTL;
use crate::report::family::Family;

/// The sweep as an SVG: resources against N (with the formula curves) above,
/// Fmax against N below, a series per family.
pub fn svg(points: &[SweepPoint], order_width: usize, (first_seed, best_seeds): &(String, String)) -> String {
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
    let x_ticks = labeled(&x_ticks);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"680\" height=\"590\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let mut devices: Vec<&str> = Vec::new();
    for point in points {
        let device = if point.device.is_empty() { point.family.title() } else { point.device.as_str() };
        if !devices.contains(&device) {
            devices.push(device);
        }
    }
    let _ = writeln!(
        s,
        "<text x=\"340\" y=\"18\" font-size=\"14\" text-anchor=\"middle\">event-order monitor, W = {order_width}: \
         cost against N ({})</text>",
        devices.join(", ")
    );
    s.push_str(&area.axes("cells / flip-flops", "N (events)", &x_ticks, &ticks(area.y_max)));
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
        &format!(
            "Fmax (MHz): {first_seed} (solid), {best_seeds} (dashed), hand RTL (squares); none where it is not placed and routed"
        ),
        "N (events)",
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
