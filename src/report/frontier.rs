//! The frontier section of `reports/COMPRESSION.md` and its two figures: for each net size, the
//! exact hybrid's bytes and the net's errors, with and without a one-ply search over the net
//! (means over the seeds with their range), against the other exact representations.

use crate::error::Result;
use crate::figures::plot::{Legend, LineChart, Series};
use crate::hybrid::frontier::FrontierRow;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The frontier's data and figures, written beside the report.
pub const DATA_NAME: &str = "compression-frontier.csv";
pub const BYTES_FIGURE: &str = "compression-frontier";
pub const ERRORS_FIGURE: &str = "compression-frontier-errors";

/// Exact representations other than the hybrids, in bytes (cited, as in the comparison table).
pub const EXACT: [(&str, f64); 3] = [
    ("raw bitbase, 1 bit per index", 24_576.0),
    ("Syzygy KPvK WDL", 7_824.0),
    ("xz -9e of the raw bitbase", 3_528.0),
];

pub const TEMPLATE: &str = include_str!("frontier.md");

/// One net size over its seeds.
struct Size<'a> {
    topology: &'a str,
    weights: usize,
    rows: Vec<&'a FrontierRow>,
}

impl Size<'_> {
    /// Mean, least and greatest of `f` over the seeds.
    fn stat(&self, f: impl Fn(&FrontierRow) -> usize) -> (f64, f64, f64) {
        let v: Vec<f64> = self.rows.iter().map(|r| f(r) as f64).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        (mean, v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(0.0, f64::max))
    }
}

fn sizes(rows: &[FrontierRow]) -> Vec<Size<'_>> {
    let mut out: Vec<Size> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|s| s.topology == r.topology) {
            Some(s) => s.rows.push(r),
            None => out.push(Size { topology: &r.topology, weights: r.weights, rows: vec![r] }),
        }
    }
    out.sort_by_key(|s| s.weights);
    out
}

/// The frontier section's table and findings, for the template `frontier.md`.
#[derive(Serialize)]
pub struct View {
    seeds: usize,
    sizes: Vec<SizeRow>,
    best: Option<Best>,
    /// Nets every seed of which makes an exact hybrid smaller than xz's 3,528 B.
    beaten: Vec<String>,
    exact: Vec<(&'static str, f64)>,
    bytes_figure: &'static str,
    errors_figure: &'static str,
}

/// A net size: (mean, least, greatest) over its seeds of each column.
#[derive(Serialize)]
struct SizeRow {
    topology: String,
    weights: usize,
    net: (f64, f64, f64),
    errors: (f64, f64, f64),
    plain: (f64, f64, f64),
    search_errors: (f64, f64, f64),
    search: (f64, f64, f64),
}

/// The smallest exact file on the frontier.
#[derive(Serialize)]
struct Best {
    bytes: usize,
    topology: String,
    seed: u64,
    with_search: bool,
}

/// The frontier section's numbers from its rows.
pub fn view(rows: &[FrontierRow]) -> View {
    let sizes = sizes(rows);
    let best = rows
        .iter()
        .map(|r| (r.total_bytes.min(r.search_total_bytes), r))
        .min_by_key(|(b, r)| (*b, r.weights))
        .map(|(bytes, r)| Best {
            bytes,
            topology: r.topology.clone(),
            seed: r.seed,
            with_search: r.search_total_bytes < r.total_bytes,
        });
    View {
        seeds: sizes.first().map_or(0, |s| s.rows.len()),
        sizes: sizes
            .iter()
            .map(|s| SizeRow {
                topology: s.topology.to_string(),
                weights: s.weights,
                net: s.stat(|r| r.net_bytes),
                errors: s.stat(|r| r.errors),
                plain: s.stat(|r| r.total_bytes),
                search_errors: s.stat(|r| r.search_errors),
                search: s.stat(|r| r.search_total_bytes),
            })
            .collect(),
        best,
        beaten: sizes
            .iter()
            .filter(|s| s.stat(|r| r.total_bytes).2 < 3_528.0)
            .map(|s| s.topology.to_string())
            .collect(),
        exact: EXACT.to_vec(),
        bytes_figure: BYTES_FIGURE,
        errors_figure: ERRORS_FIGURE,
    }
}

/// Draw both figures beside the report, PNG and SVG.
pub fn figures(dir: &Path, rows: &[FrontierRow], model: (usize, usize)) -> Result<()> {
    let sizes = sizes(rows);
    let x = |s: &Size| s.weights as f64;
    let span = (sizes.first().map_or(50.0, |s| x(s) * 0.8), sizes.last().map_or(5_000.0, |s| x(s) * 1.25));
    let series = |label: &str, f: fn(&FrontierRow) -> usize, colour: usize| {
        let pts = sizes.iter().map(|s| (x(s), s.stat(f).0)).collect();
        let bars = sizes.iter().map(|s| {
            let (_, lo, hi) = s.stat(f);
            (x(s), lo.max(1.0), hi.max(1.0))
        });
        Series::new(label, pts, colour).with_markers().with_error_bars(bars.collect())
    };
    let mut bytes = vec![
        series("exact hybrid: net + exceptions", |r| r.total_bytes, 0),
        series("exact hybrid, one-ply search over the net", |r| r.search_total_bytes, 1),
        series("the net alone (not exact)", |r| r.net_bytes, 2),
        Series::new("committed model", vec![(model.0 as f64, model.1 as f64)], 3).points_only(),
    ];
    for (i, (name, b)) in EXACT.iter().enumerate() {
        bytes.push(Series::reference(format!("{name} ({b:.0} B)"), *b, span, 4 + i));
    }
    let chart = |title: &str, y_label: &str, y_range, series| LineChart {
        title: title.into(),
        x_label: "net size, weights and biases (log scale)".into(),
        y_label: y_label.into(),
        y_range,
        y2: None,
        x_range: Some(span),
        log_x: true,
        log_y: true,
        legend: Legend::UpperRight,
        integer_x: false,
        series,
    };
    let top = rows.iter().map(|r| r.total_bytes.max(r.search_total_bytes)).max().unwrap_or(1) as f64;
    let c = chart(
        "Exact KPK classifiers: file size against net size",
        "bytes (log scale; bars: least to greatest over the seeds)",
        (50.0, top.max(24_576.0) * 2.0),
        bytes,
    );
    save(&c, dir, BYTES_FIGURE)?;
    let errors = vec![
        series("integer net", |r| r.errors, 0),
        series("integer net, one-ply search", |r| r.search_errors, 1),
        series("float net", |r| r.float_errors, 2).dashed(),
    ];
    let most =
        rows.iter().map(|r| r.errors.max(r.search_errors).max(r.float_errors)).max().unwrap_or(1) as f64;
    let c = chart(
        "Errors on the 165,676 legal positions against net size",
        "positions wrong (log scale; bars: least to greatest over the seeds)",
        (1.0, most * 2.0),
        errors,
    );
    save(&c, dir, ERRORS_FIGURE)
}

fn save(chart: &LineChart, dir: &Path, name: &str) -> Result<()> {
    for ext in ["png", "svg"] {
        chart.save(&dir.join(format!("{name}.{ext}")), (900, 560))?;
    }
    Ok(())
}

/// Every file the frontier writes beside a report in `dir`.
pub fn destinations(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.join(DATA_NAME)];
    for name in [BYTES_FIGURE, ERRORS_FIGURE] {
        out.extend(["png", "svg"].map(|ext| dir.join(format!("{name}.{ext}"))));
    }
    out
}
