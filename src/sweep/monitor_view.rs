//! The monitor's N view of a sweep (docs/report.md §7): when only N varies, a table
//! and an SVG plot of flip-flops, LUTs, packed logic and Fmax against N, with the
//! formula curves N*(N-1) (record) and W*N (order register) and the hand-written RTL
//! for comparison, drawn from the sweep's records (`pmugen report monitor --sweep`
//! is this sweep).
use serde::Serialize;
use std::fmt::Write;

use super::monitor_plot::svg;
use super::record::{Record, Status};
use super::Sweep;
use crate::report::compare::HAND_RTL;
use crate::report::family::Family;

/// The default N of `pmugen report monitor --sweep`: dense where the design is small,
/// then every 4 events.
pub const DEFAULT_EVENTS: [usize; 11] = [2, 4, 6, 8, 10, 12, 16, 20, 24, 28, 32];

/// One N on one device: the figures of its first seed, and the best Fmax of all its
/// seeds.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The family.
    pub family: Family,
    /// The device placed on ("" for synthesis only).
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
    /// Fmax with the first placement seed, if the design fits the device.
    pub fmax_mhz: Option<f64>,
    /// The best Fmax of all the seeds.
    pub best_fmax_mhz: Option<f64>,
}

/// The view's files.
pub struct View {
    /// `sweep.md`.
    pub markdown: String,
    /// `sweep.svg`.
    pub svg: String,
}

/// The N view of `sweep`, when it is a monitor sweep in which only N varies, on one
/// device (or synthesis) per family.
pub fn view(sweep: &Sweep, records: &[Record]) -> Option<View> {
    if sweep.design != "monitor" || sweep.swept.iter().any(|name| name != "N") {
        return None;
    }
    let ok: Vec<&Record> = records.iter().filter(|r| r.status == Status::Ok).collect();
    let first = ok.first()?;
    let order_width: usize = first.parameters.get("W")?.parse().ok()?;
    let mut points: Vec<SweepPoint> = Vec::new();
    for r in &ok {
        let events: usize = r.parameters.get("N")?.parse().ok()?;
        let device = r.device.as_deref().and_then(|d| crate::report::family::device(d).ok()).map_or("", |d| d.name);
        if points.iter().any(|p| p.family == r.family && p.device != device) {
            return None;
        }
        if let Some(point) = points.iter_mut().find(|p| p.family == r.family && p.events == events) {
            point.best_fmax_mhz = [point.best_fmax_mhz, r.fmax_mhz].into_iter().flatten().reduce(f64::max);
            continue;
        }
        points.push(SweepPoint {
            family: r.family,
            device: device.to_string(),
            events,
            flip_flops: r.flip_flops?,
            record: *r.flip_flop_groups.get("context record")?,
            order: *r.flip_flop_groups.get("order register")?,
            luts: r.luts?,
            logic_cells: r.logic_cells,
            fits: r.fits.unwrap_or(false),
            not_routed: r.not_routed,
            fmax_mhz: r.fmax_mhz,
            best_fmax_mhz: r.fmax_mhz,
        });
    }
    let mut tools = std::collections::BTreeMap::new();
    for r in &ok {
        tools.extend(r.inputs.tools.clone());
    }
    let tools = crate::report::render::tools_text(&tools);
    let mut seeds: Vec<u64> = ok.iter().filter_map(|r| r.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let seeds = seeds_text(&seeds);
    Some(View { markdown: markdown(&points, order_width, &tools, &seeds), svg: svg(&points, order_width, &seeds) })
}

/// The Fmax columns' heads for `seeds` (sorted): the first seed's, and the best of all
/// (`seed 1`, `best of seeds 1..3`).
pub fn seeds_text(seeds: &[u64]) -> (String, String) {
    let first = seeds.first().map_or("seed –".to_string(), |s| format!("seed {s}"));
    let consecutive = seeds.windows(2).all(|w| w[1] == w[0] + 1);
    let all = match seeds {
        [] => "no seed".to_string(),
        [one] => format!("seed {one}"),
        [low, .., high] if consecutive => format!("seeds {low}..{high}"),
        _ => format!("seeds {}", seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
    };
    (first, format!("best of {all}"))
}

/// The families of `points`, in their order.
pub(super) fn families(points: &[SweepPoint]) -> Vec<Family> {
    let mut families: Vec<Family> = Vec::new();
    for point in points {
        if !families.contains(&point.family) {
            families.push(point.family);
        }
    }
    families
}

/// The sweep as a Markdown table.
pub fn markdown(points: &[SweepPoint], order_width: usize, tools: &str, (first, best): &(String, String)) -> String {
    let mut md = String::new();
    let families = families(points);
    for family in families {
        let here: Vec<&SweepPoint> = points.iter().filter(|p| p.family == family).collect();
        let (luts, unit) = (family.figure_heads()[0], family.logic_unit().1);
        let _ = write!(
            md,
            "Area sweep at W = {order_width} {} ({tools})\n\n\
             | N | flip-flops | record FFs = N(N-1) | order FFs = W*N | {luts} | {unit} | Fmax, {first} | {best} |\n\
             |---:|---:|---:|---:|---:|---:|---:|---:|\n",
            match here[0].device.as_str() {
                "" => format!("in the {} synthesis, not placed", family.title()),
                device => format!("on the {device}"),
            }
        );
        for p in here {
            let lc = crate::report::fpga::cells_text(p.logic_cells, p.fits, p.not_routed);
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
    fn the_fmax_heads_name_the_seeds() {
        assert_eq!(seeds_text(&[1]), ("seed 1".to_string(), "best of seed 1".to_string()));
        assert_eq!(seeds_text(&[2, 5]).1, "best of seeds 2, 5");
        assert_eq!(seeds_text(&[]).1, "best of no seed");
    }

    #[test]
    fn a_build_that_packs_but_is_not_routed_is_not_called_too_big() {
        let points = [point(24, true, false), point(28, false, true), point(32, false, false)];
        let md = markdown(&points, 3, "Yosys 0.70", &seeds_text(&[1, 2, 3]));
        assert!(md.contains("| Fmax, seed 1 | best of seeds 1..3 |"), "{md}");
        let row = |n: usize| md.lines().find(|l| l.starts_with(&format!("| {n} |"))).unwrap().to_string();
        assert!(row(24).contains("| 7000 | 80.0 MHz |"), "{md}");
        assert!(row(28).contains("packs; not routed in 30 min") && !row(28).contains("does not fit"), "{md}");
        assert!(row(32).contains("7000, does not fit"), "{md}");
    }
}
