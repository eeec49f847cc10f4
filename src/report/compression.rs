//! `reports/COMPRESSION.md` and its figures, rendered from `kpk compress`'s results
//! ([`CompressionResults`], committed as `reports/compression.json`): every number comes from the
//! run or from the cited sources, none is typed in by hand. The prose is the template
//! `templates/compression.md.j2`.

use crate::analysis::compression::{Compress, beside};
use crate::analysis::finding::Finding;
use crate::chess::index::KpkIndex;
use crate::error::{Error, Result};
use crate::figures::colours::{Measure, category};
use crate::figures::plot::{Legend, LineChart, Series};
use crate::hybrid::results::{CandidateRow, CompressionResults, RICE_PARAMETER_BITS};
use crate::paper::tables;
use crate::report::diagram::{self, Diagram};
use crate::report::driver::{Output, Report, chart};
use crate::report::frontier;
use crate::report::levers;
use crate::report::summary;
use crate::template::Engine;
use kpk_probe::MAX_INDEX;
use kpk_probe::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::Path;
use std::sync::LazyLock;

const TEMPLATE: &str = include_str!("templates/compression.md.j2");

/// The size plot, written beside the report as `.png` and `.svg`.
pub const PLOT_NAME: &str = "compression-size";

/// The name of the board diagrams of the exception table's positions, written beside the report.
pub const EXCEPTIONS_NAME: &str = "compression-exceptions.svg";

/// Diagrams per row in the exceptions figure.
const EXCEPTION_COLUMNS: usize = 8;

/// The cited sizes and the figures' labels (`compression.toml` beside this file).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Labels {
    /// Sizes of other representations, cited from their published files: (name, bytes, exact,
    /// random access).
    anchors: Vec<(String, usize, bool, bool)>,
    size_chart: SizeChartLabels,
    summary: SummaryTexts,
}

/// The template that words a finding (its path under `templates/`) and the heading of the section
/// that shows it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryText {
    template: String,
    section: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SummaryTexts {
    model: SummaryText,
    anchors: SummaryText,
    frontier: SummaryText,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizeChartLabels {
    title: String,
    x: String,
    y: String,
    total: String,
    exceptions: String,
    plain: String,
}

static LABELS: LazyLock<Labels> =
    LazyLock::new(|| toml::from_str(include_str!("compression.toml")).expect("compression.toml parses"));

/// (name, source) of the templates of the figures' labels that give numbers: the size chart's
/// keys and the exception diagrams' captions, each its path under `templates/`.
const LABEL_TEMPLATES: [(&str, &str); 3] = [
    ("compression/exception.txt.j2", include_str!("templates/compression/exception.txt.j2")),
    ("compression/size_chart/model.txt.j2", include_str!("templates/compression/size_chart/model.txt.j2")),
    ("compression/size_chart/target.txt.j2", include_str!("templates/compression/size_chart/target.txt.j2")),
];

/// Render the label template `name` of [`LABEL_TEMPLATES`] from `context`.
fn label(name: &str, context: &impl Serialize) -> Result<String> {
    crate::template::line(&LABEL_TEMPLATES, name, context)
}

/// The goal the model's size is held to, in bytes.
const GOAL_BYTES: usize = 2_000;

/// A stricter size than the goal, in bytes, that the report also checks the model against.
const MUST_BYTES: usize = 640;

/// The paper's nets NN1–NN6 (section 4.4, Table 5) in NN order, each as (topology, weights
/// with biases): 64-bit floating-point weights, not exact on KPK.
fn paper_nets() -> Vec<(String, usize)> {
    let mut rows = tables::table5();
    rows.sort_by_key(|r| r.nn);
    rows.dedup_by_key(|r| r.nn);
    rows.into_iter().map(|r| (r.topology, r.weights)).collect()
}

/// Every file the report renders: the report, its plot, the frontier's figures and the
/// exceptions' diagrams, each PNG with its SVG.
pub fn destinations(report: &Path) -> Vec<std::path::PathBuf> {
    let mut files = vec![report.to_path_buf()];
    files.extend(frontier::figure_paths(&beside(report, "")));
    files.extend(plot_paths(report));
    files.push(beside(report, EXCEPTIONS_NAME));
    files.push(beside(report, EXCEPTIONS_NAME).with_extension("png"));
    files
}

fn plot_paths(report: &Path) -> [std::path::PathBuf; 2] {
    ["png", "svg"].map(|ext| beside(report, &format!("{PLOT_NAME}.{ext}")))
}

/// Every position of the exception table as a board diagram (canonical orientation: the pawn
/// White's, on files a–d), captioned with the exact result and the net's wrong answer.
pub fn exception_diagrams(results: &CompressionResults) -> Result<Vec<Diagram>> {
    results
        .model
        .exceptions
        .iter()
        .filter_map(|&(i, net_win)| Some((KpkIndex::new(i)?.position()?, net_win)))
        .map(|(p, net_win)| {
            let (net, exact) =
                if net_win { (Outcome::Win, Outcome::Draw) } else { (Outcome::Draw, Outcome::Win) };
            let side = if p.side() == crate::Color::White { "wtm" } else { "btm" };
            let context = json!({ "side": side, "exact": exact.to_string(), "net": net.to_string() });
            Ok(Diagram::canonical(&p).with_caption(label("compression/exception.txt.j2", &context)?))
        })
        .collect()
}

/// The report at `path` and its figures beside it, from the results alone.
pub fn outputs<'a>(path: &Path, results: &'a CompressionResults) -> Result<Vec<Output<'a>>> {
    let [png, _] = plot_paths(path);
    let mut files: Vec<Output> =
        chart(png, size_chart(&results.candidates, results.model.sizes.total)?, (900, 560)).into();
    if let Some(rows) = &results.frontier {
        let model = (results.model.parameters, results.model.sizes.total);
        files.extend(frontier::figures(&beside(path, ""), rows, model)?);
    }
    let grid = diagram::grid_svg(&exception_diagrams(results)?, EXCEPTION_COLUMNS)?;
    files.extend(Output::svg_and_png(beside(path, EXCEPTIONS_NAME), grid)?);
    files.push(Output::bytes(path, render(results)?));
    Ok(files)
}

impl Report for Compress<'_> {
    fn destinations(&self, _: Option<&CompressionResults>) -> Result<Vec<std::path::PathBuf>> {
        Ok(destinations(&self.report))
    }

    fn render<'a>(&self, results: &'a CompressionResults) -> Result<Vec<Output<'a>>> {
        outputs(&self.report, results)
    }
}

/// A row of the comparison table: this model, the raw bitbase, a cited file, or one of the
/// paper's nets, with both compression factors (section 5, Table 5's `comp`).
#[derive(Serialize)]
struct Representation {
    kind: &'static str,
    name: String,
    number: usize,
    weights: usize,
    bytes: usize,
    exact: bool,
    random: bool,
    comp: f64,
    raw: f64,
}

fn comparison(total: usize) -> Vec<Representation> {
    let raw_bitbase = MAX_INDEX / 8;
    let row = |kind, name: &str, number, weights, bytes: usize, exact, random| Representation {
        kind,
        name: name.to_string(),
        number,
        weights,
        bytes,
        exact,
        random,
        comp: tables::DATABASE_BITS / (8.0 * bytes as f64),
        raw: raw_bitbase as f64 / bytes as f64,
    };
    let mut t =
        vec![row("model", "", 0, 0, total, true, true), row("raw", "", 0, 0, raw_bitbase, true, true)];
    for (name, bytes, exact, random) in &LABELS.anchors {
        t.push(row("anchor", name, 0, 0, *bytes, *exact, *random));
    }
    for (i, (topology, w)) in paper_nets().into_iter().enumerate() {
        t.push(row("paper", &topology, i + 1, w, w * tables::BITS_PER_WEIGHT / 8, false, true));
    }
    t
}

/// What the templates read: the results, and the constants and cited sizes they are set against.
#[derive(Serialize)]
struct Context<'a> {
    r: &'a CompressionResults,
    comparison: Vec<Representation>,
    raw_bitbase: usize,
    smallest_anchor: usize,
    goal_bytes: usize,
    must_bytes: usize,
    plot: &'static str,
    exceptions_figure: &'static str,
    frontier_data: &'static str,
    frontier: Option<frontier::View>,
    rice_parameter_bits: u64,
    rice_total: i64,
    arithmetic: &'static str,
    exception_coding: &'static str,
    file_format: &'static str,
    summary: String,
}

/// The report as Markdown.
pub fn render(results: &CompressionResults) -> Result<String> {
    let total = results.model.sizes.total;
    let context = Context {
        r: results,
        comparison: comparison(total),
        raw_bitbase: MAX_INDEX / 8,
        smallest_anchor: LABELS.anchors.iter().map(|a| a.1).min().unwrap_or(0),
        goal_bytes: GOAL_BYTES,
        must_bytes: MUST_BYTES,
        plot: PLOT_NAME,
        exceptions_figure: EXCEPTIONS_NAME,
        frontier_data: crate::analysis::compression::FRONTIER_DATA,
        frontier: results.frontier.as_deref().map(frontier::view),
        rice_parameter_bits: RICE_PARAMETER_BITS,
        rice_total: levers::rice_total(results),
        arithmetic: crate::hybrid::quant::ARITHMETIC_DOC.trim(),
        exception_coding: crate::hybrid::exceptions::CODING_DOC.trim(),
        file_format: crate::hybrid::format::format_doc().trim(),
        summary: summary::markdown(&findings(results))?,
    };
    Engine::new()
        .filter("list", |v: Vec<i64>| format!("{v:?}"))
        .filter("plain", |v: f64| v.to_string())
        .template("compression.md", TEMPLATE)
        .and_then(|e| e.template("levers.md", levers::TEMPLATE))
        .and_then(|e| e.template("frontier.md", frontier::TEMPLATE))
        .and_then(|e| e.render("compression.md", &context))
        .map_err(Error::from)
        .and_then(|md| summary::check_sections(&findings(results), &md).map(|()| md))
}

/// The findings that open the report, computed from the results as committed (compression.json
/// keeps no summary of its own: adding one would need a rerun of `kpk compress`).
pub fn findings(r: &CompressionResults) -> Vec<Finding> {
    let t = &LABELS.summary;
    let s = &r.model.sizes;
    let raw = (MAX_INDEX / 8) as f64;
    let xz = LABELS.anchors.iter().filter(|a| a.2).map(|a| a.1).min().unwrap_or(1) as f64;
    let paper = paper_nets().iter().map(|(_, w)| w * tables::BITS_PER_WEIGHT / 8).max().unwrap_or(0);
    let mut out = vec![
        Finding::new(&t.model.template, &t.model.section)
            .value("total", s.total as f64)
            .value("net", s.net as f64)
            .value("exceptions", r.model.exceptions.len() as f64)
            .value("exception_bytes", s.exceptions as f64)
            .value("overhead", s.overhead as f64)
            .value("legal", r.legal as f64),
        Finding::new(&t.anchors.template, &t.anchors.section)
            .value("raw", raw)
            .value("raw_factor", raw / s.total as f64)
            .value("xz", xz)
            .value("xz_factor", xz / s.total as f64)
            .value("paper", paper as f64),
    ];
    if let Some(v) = r.frontier.as_deref().map(frontier::view) {
        let (seeds, sizes, beaten, best) = v.counts();
        if let Some((mean, lo, hi)) = v.smallest_mean() {
            out.push(
                Finding::new(&t.frontier.template, &t.frontier.section)
                    .value("seeds", seeds as f64)
                    .value("sizes", sizes as f64)
                    .value("beaten", beaten as f64)
                    .value("best", best as f64)
                    .value("mean", mean)
                    .interval(lo, hi, format!("least to greatest over its {seeds} seeds")),
            );
        }
    }
    out
}

/// File size against net bytes for every candidate: the total, its exception table, and the
/// total plain rounding would have given; the chosen model marked; axes spanning the data.
fn size_chart(candidates: &[CandidateRow], chosen: usize) -> Result<LineChart> {
    let l = &LABELS.size_chart;
    let mut by_net: Vec<&CandidateRow> = candidates.iter().collect();
    by_net.sort_by_key(|c| c.sizes.net);
    let pts = |f: &dyn Fn(&CandidateRow) -> usize| -> Vec<(f64, f64)> {
        by_net.iter().map(|c| (c.sizes.net as f64, f(c) as f64)).collect()
    };
    let best = &candidates[0];
    let mut series = vec![
        Series::new(l.total.as_str(), pts(&|c| c.sizes.total), category(0)).points_only(),
        Series::new(l.exceptions.as_str(), pts(&|c| c.sizes.exceptions), category(1)).points_only(),
    ];
    let plain: Vec<(f64, f64)> = by_net
        .iter()
        .filter_map(|c| c.qat.as_ref())
        .map(|q| (q.plain.net as f64, q.plain.total as f64))
        .collect();
    if !plain.is_empty() {
        series.push(Series::new(l.plain.as_str(), plain, category(2)).points_only());
    }
    series.push(
        Series::new(
            label(
                "compression/size_chart/model.txt.j2",
                &json!({ "topology": best.topology, "bytes": chosen }),
            )?,
            vec![(best.sizes.net as f64, chosen as f64)],
            Measure::Model.colour(),
        )
        // A ring, so that the candidate's own total shows inside it.
        .rings(),
    );
    let xs: Vec<f64> = series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).collect();
    let (x_lo, x_hi) =
        (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(0.0, f64::max));
    let y_hi = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max);
    let pad = ((x_hi - x_lo) * 0.1).max(20.0);
    series.push(Series::reference(
        label("compression/size_chart/target.txt.j2", &json!({ "bytes": MUST_BYTES }))?,
        MUST_BYTES as f64,
        (x_lo - pad, x_hi + pad),
        Measure::Target.colour(),
    ));
    Ok(LineChart {
        title: l.title.clone(),
        x_label: l.x.clone(),
        y_label: l.y.clone(),
        y_range: (0.0, y_hi.max(MUST_BYTES as f64) * 1.15),
        y2: None,
        x_range: Some((x_lo - pad, x_hi + pad)),
        log_x: false,
        log_y: false,
        legend: Legend::Right,
        integer_x: false,
        series,
    })
}
