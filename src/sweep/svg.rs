//! SVG drawing shared by the sweep's plots (docs/report.md §8.3): a linear panel with
//! its axes and ticks, a legend, and each family's colors.
use std::fmt::Write;

/// A linear chart area: maps data coordinates into an SVG panel.
pub struct Panel {
    /// Left edge of the plotting area, pixels.
    pub left: f64,
    /// Top edge, pixels.
    pub top: f64,
    /// Width, pixels.
    pub width: f64,
    /// Height, pixels.
    pub height: f64,
    /// The x value at the right edge (the left edge is 0).
    pub x_max: f64,
    /// The y value at the top edge (the bottom edge is 0).
    pub y_max: f64,
}

impl Panel {
    /// The pixel column of `value`.
    pub fn x(&self, value: f64) -> f64 {
        self.left + value / self.x_max * self.width
    }
    /// The pixel row of `value`.
    pub fn y(&self, value: f64) -> f64 {
        self.top + self.height - value / self.y_max * self.height
    }
    /// A line through `points` (data coordinates).
    pub fn polyline(&self, points: &[(f64, f64)], color: &str, dashed: bool) -> String {
        let coords: Vec<String> = points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.x(x), self.y(y))).collect();
        let dash = if dashed { " stroke-dasharray=\"6,4\"" } else { "" };
        format!(
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"{dash} points=\"{}\"/>\n",
            coords.join(" ")
        )
    }
    /// The axes with their ticks (each x tick at its position with its label),
    /// `y_label` above and `x_label` at the right end.
    pub fn axes(&self, y_label: &str, x_label: &str, x_ticks: &[(f64, String)], y_ticks: &[f64]) -> String {
        let mut s = String::new();
        let (x0, y0, x1, y1) = (self.left, self.top + self.height, self.left + self.width, self.top);
        let _ = writeln!(s, "<path d=\"M{x0},{y1} L{x0},{y0} L{x1},{y0}\" stroke=\"#333\" fill=\"none\"/>");
        for (t, label) in x_ticks {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{label}</text>",
                self.x(*t),
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
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\">{x_label}</text>",
            x1,
            y0 + 30.0
        );
        s
    }
}

/// Ticks labeled with their values.
pub fn labeled(ticks: &[f64]) -> Vec<(f64, String)> {
    ticks.iter().map(|&t| (t, t.to_string())).collect()
}

/// About five round tick values from 0 to `max`.
pub fn ticks(max: f64) -> Vec<f64> {
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(magnitude * 10.0);
    (1..).map(|i| i as f64 * step).take_while(|t| *t <= max).collect()
}

/// A legend at (`x`, `y`): per entry its label, color and whether the line is dashed.
pub fn legend(x: f64, y: f64, entries: &[(&str, &str, bool)]) -> String {
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
pub const FAMILY_COLORS: [(&str, &str); 4] =
    [("#ff7f0e", "#d62728"), ("#17becf", "#8c564b"), ("#e377c2", "#7f7f7f"), ("#bcbd22", "#393b79")];
