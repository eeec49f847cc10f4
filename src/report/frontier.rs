//! The frontier section of `reports/COMPRESSION.md` and its two figures: for each net size, the
//! exact hybrid's bytes and the net's errors, with and without a one-ply search over the net
//! (means over the seeds with their range), against the other exact representations.

use crate::error::Result;
use crate::figures::colours::{Measure, category};
use crate::figures::plot::{ImageFormat, Legend, LineChart, Series};
use crate::hybrid::frontier::FrontierRow;
use crate::net::topology::Topology;
use crate::report::driver::Output;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The frontier's figures, written beside the report.
pub const BYTES_FIGURE: &str = "compression-frontier";
pub const ERRORS_FIGURE: &str = "compression-frontier-errors";

/// The template of a cited size's key in the bytes figure, filled with its name and bytes.
const EXACT_KEY: [(&str, &str); 1] =
    [("frontier/bytes/exact.txt.j2", include_str!("templates/frontier/bytes/exact.txt.j2"))];

/// The cited sizes and the figures' labels (`frontier.toml` beside this file).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Labels {
    /// Exact representations other than the hybrids: (name, bytes), cited.
    exact: Vec<(String, f64)>,
    x: String,
    bytes: BytesLabels,
    errors: ErrorsLabels,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BytesLabels {
    title: String,
    y: String,
    hybrid: String,
    search: String,
    net: String,
    model: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorsLabels {
    title: String,
    y: String,
    integer: String,
    search: String,
    float: String,
}

static LABELS: LazyLock<Labels> =
    LazyLock::new(|| toml::from_str(include_str!("frontier.toml")).expect("frontier.toml parses"));

pub const TEMPLATE: &str = include_str!("templates/frontier.md.j2");

/// One net size over its seeds.
struct Size<'a> {
    topology: &'a Topology,
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
        match out.iter_mut().find(|s| *s.topology == r.topology) {
            Some(s) => s.rows.push(r),
            None => out.push(Size { topology: &r.topology, weights: r.weights, rows: vec![r] }),
        }
    }
    out.sort_by_key(|s| s.weights);
    out
}

/// The frontier section's table and findings, for the template `templates/frontier.md.j2`.
#[derive(Serialize)]
pub struct View {
    seeds: usize,
    sizes: Vec<SizeRow>,
    best: Option<Best>,
    /// Nets every seed of which makes an exact hybrid smaller than xz's 3,528 B.
    beaten: Vec<Topology>,
    exact: &'static [(String, f64)],
    bytes_figure: &'static str,
    errors_figure: &'static str,
}

/// A net size: (mean, least, greatest) over its seeds of each column.
#[derive(Serialize)]
struct SizeRow {
    topology: Topology,
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
    topology: Topology,
    seed: u64,
    with_search: bool,
}

impl View {
    /// (seeds per size, net sizes, sizes that beat xz with every seed, smallest file's bytes).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        (self.seeds, self.sizes.len(), self.beaten.len(), self.best.as_ref().map_or(0, |b| b.bytes))
    }

    /// The exact hybrid (without search) smallest on average over the seeds: (mean, least,
    /// greatest) of its bytes.
    pub fn smallest_mean(&self) -> Option<(f64, f64, f64)> {
        self.sizes.iter().map(|s| s.plain).min_by(|a, b| a.0.total_cmp(&b.0))
    }
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
                topology: s.topology.clone(),
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
            .map(|s| s.topology.clone())
            .collect(),
        exact: &LABELS.exact,
        bytes_figure: BYTES_FIGURE,
        errors_figure: ERRORS_FIGURE,
    }
}

/// Both figures beside the report, PNG and SVG.
pub fn figures(dir: &Path, rows: &[FrontierRow], model: (usize, usize)) -> Result<Vec<Output<'static>>> {
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
    let (l, b) = (&*LABELS, &LABELS.bytes);
    let mut bytes = vec![
        series(&b.hybrid, |r| r.total_bytes, category(0)),
        series(&b.search, |r| r.search_total_bytes, category(1)),
        series(&b.net, |r| r.net_bytes, category(2)),
        Series::new(b.model.as_str(), vec![(model.0 as f64, model.1 as f64)], Measure::Model.colour())
            .rings(),
    ];
    // The cited sizes share a colour; each line's key gives its size, in the lines' order.
    for (name, size) in &l.exact {
        let key = crate::template::line(&EXACT_KEY, EXACT_KEY[0].0, &json!({ "name": name, "bytes": size }))?;
        bytes.push(Series::reference(key, *size, span, Measure::Cited.colour()));
    }
    let chart = |title: &str, y_label: &str, y_range, series| LineChart {
        title: title.into(),
        x_label: l.x.clone(),
        y_label: y_label.into(),
        y_range,
        y2: None,
        x_range: Some(span),
        log_x: true,
        log_y: true,
        // Beside the frame: the cited sizes' lines run across its whole width.
        legend: Legend::Right,
        integer_x: false,
        series,
    };
    let top = rows.iter().map(|r| r.total_bytes.max(r.search_total_bytes)).max().unwrap_or(1) as f64;
    let c = chart(&b.title, &b.y, (50.0, top.max(24_576.0) * 2.0), bytes);
    let mut files: Vec<Output> = save(c, dir, BYTES_FIGURE).into();
    let e = &LABELS.errors;
    let errors = vec![
        series(&e.integer, |r| r.errors, category(0)),
        series(&e.search, |r| r.search_errors, category(1)),
        series(&e.float, |r| r.float_errors, category(2)).dashed(),
    ];
    let most =
        rows.iter().map(|r| r.errors.max(r.search_errors).max(r.float_errors)).max().unwrap_or(1) as f64;
    let c = chart(&e.title, &e.y, (1.0, most * 2.0), errors);
    files.extend(save(c, dir, ERRORS_FIGURE));
    Ok(files)
}

/// Each figure as PNG and SVG, its log x axis labelled at 1, 2 and 5 times a power of ten only:
/// the axis's own ticks (1 to 9 times) run into each other beside a legend.
fn save(chart: LineChart, dir: &Path, name: &str) -> [Output<'static>; 2] {
    let chart = std::rc::Rc::new(chart);
    [(ImageFormat::Png, "png"), (ImageFormat::Svg, "svg")].map(|(format, ext)| {
        let chart = chart.clone();
        Output::drawn(dir.join(format!("{name}.{ext}")), move |out| {
            let ticks: Vec<f64> = (1..5).flat_map(|p| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(p))).collect();
            chart.save_to_with_x_ticks(out, format, (900, 560), &ticks)
        })
    })
}

/// The figures the frontier draws beside a report in `dir`.
pub fn figure_paths(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in [BYTES_FIGURE, ERRORS_FIGURE] {
        out.extend(["png", "svg"].map(|ext| dir.join(format!("{name}.{ext}"))));
    }
    out
}
