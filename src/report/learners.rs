//! `kpk learners` as a [`Report`]: section 7's comparison ([`Learners`]) rendered from its JSON alone:
//! `reports/LEARNERS.md` (the template `learners.md.j2`), `reports/learners/results.csv`,
//! `variants.csv`, `contrasts.csv` and `curves.csv`, the accuracy-vs-bytes frontier
//! (`frontier.png`, `frontier.svg`) and the learning curves (`curves.png`, `curves.svg`).
//! Rendering neither trains nor measures; `draws.csv`, the run's data, is the analysis'.

use super::driver::{Output, Report, chart};
use super::learners_curves::{self, CurveLabels};
use crate::analysis::learners::{Destinations, Learners};
use crate::dataset::SetName;
use crate::error::Result;
use crate::figures::colours::{Measure, category};
use crate::figures::plot::{ImageFormat, Legend, LineChart, Series};
use crate::learners::analyse::{LearnersReport, Row};
use crate::learners::curves::CURVE_COLUMNS;
use crate::learners::design::{Arm, LearnerContrast};
use crate::stats::Interval;
use crate::template::{Engine, Typed};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The frontier figure's title, axis labels and keys (`learners_figures.toml` beside this file).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FigureLabels {
    title: String,
    x: String,
    y: String,
    /// A readable key for each learner of [`crate::learners::NAMES`] and the converged MLP.
    names: BTreeMap<String, String>,
    curves: CurveLabels,
}

static LABELS: LazyLock<FigureLabels> = LazyLock::new(|| {
    toml::from_str(include_str!("learners_figures.toml")).expect("learners_figures.toml parses")
});

const TEMPLATE: &str = include_str!("templates/learners.md.j2");

/// The template of the shipped model's key in the frontier figure, filled with its bytes.
const SHIPPED_KEY: [(&str, &str); 1] =
    [("learners/shipped.txt.j2", include_str!("templates/learners/shipped.txt.j2"))];

/// The frontier figure's size in pixels.
const FRONTIER_SIZE: (u32, u32) = (900, 560);

/// The columns of results.csv: a row's identity, its accuracy on the training and testing sets
/// with their intervals, then its cost and sizes.
pub const RESULT_COLUMNS: &str = "learner,inputs,train_set,replicates,train_mean,train_lo,train_hi,test_mean,test_lo,test_hi,train_seconds,model_bits,exact_bytes";

/// The rendered files in the folder, in [`Report::render`]'s order.
fn tables_and_figures(to: &Destinations) -> [PathBuf; 8] {
    [
        "results.csv",
        "variants.csv",
        "frontier.png",
        "frontier.svg",
        "contrasts.csv",
        "curves.csv",
        "curves.png",
        "curves.svg",
    ]
    .map(|name| to.folder.join(name))
}

impl Report for Learners<'_> {
    fn destinations(&self, _: Option<&LearnersReport>) -> Result<Vec<PathBuf>> {
        Ok(std::iter::once(self.to.markdown.clone()).chain(tables_and_figures(&self.to)).collect())
    }

    fn figures_folder(&self) -> Option<PathBuf> {
        Some(self.to.folder.clone())
    }

    /// The report's folder holds its tables and the run's draws as well as its figures.
    fn folder_holds(&self, folder: &Path, path: &Path) -> bool {
        path.parent() == Some(folder)
    }

    fn render<'a>(&self, report: &'a LearnersReport) -> Result<Vec<Output<'a>>> {
        let [results, variants, frontier_png, _, contrasts, curves, curves_png, curves_svg] =
            tables_and_figures(&self.to);
        let mut files = vec![
            Output::bytes(&self.to.markdown, markdown(report)?),
            Output::bytes(results, results_csv(report)),
            Output::bytes(variants, variants_csv(report)),
        ];
        files.extend(chart(frontier_png, frontier(report)?, FRONTIER_SIZE));
        files.push(Output::bytes(contrasts, contrasts_csv(report)));
        files.push(Output::bytes(curves, curves_csv(report)));
        let names = learners_curves::names(&report.curves, &LABELS.names);
        let (points, again) = (&report.curves, names.clone());
        files.push(Output::drawn(curves_png, move |out| {
            learners_curves::save(points, &names, &LABELS.curves, out, ImageFormat::Png)
        }));
        files.push(Output::drawn(curves_svg, move |out| {
            learners_curves::save(points, &again, &LABELS.curves, out, ImageFormat::Svg)
        }));
        Ok(files)
    }
}

/// `+1.23 [−0.40, +2.86]`: a paired difference and its interval.
fn interval(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:+.digits$} [{:+.digits$}, {:+.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// A contrast's estimate and interval, as [`difference`] reads them from its record.
#[derive(Deserialize)]
struct Estimate {
    estimate: f64,
    lo: f64,
    hi: f64,
}

/// `+1.23 [−0.40, +2.86]`: a contrast's estimate and its interval.
fn difference(c: Typed<Estimate>, digits: usize) -> String {
    format!("{:+.digits$} [{:+.digits$}, {:+.digits$}]", c.estimate, c.lo, c.hi)
}

/// `93.6 [91.2, 96.0]`: a mean and its interval.
fn mean_in(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:.digits$} [{:.digits$}, {:.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// The Markdown report.
pub fn markdown(report: &LearnersReport) -> Result<String> {
    let engine = Engine::new()
        .filter("interval", interval)
        .filter("difference", difference)
        .filter("mean_in", mean_in)
        .filter("cell", |s: String| s.replace('|', "\\|"))
        .template("learners.md", TEMPLATE)?;
    Ok(engine.render("learners.md", report)?)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map(|v| format!("{v:.digits$}")).unwrap_or_default()
}

fn csv_line(r: &Row, learner: &str) -> String {
    let test = r.test.as_ref();
    format!(
        "{learner},{},{},{},{:.2},{:.2},{:.2},{},{},{},,{:.1},{}\n",
        r.inputs.name(),
        r.train_set,
        r.fits.len(),
        r.train.mean,
        r.train.lo,
        r.train.hi,
        opt(test.map(|t| t.mean), 2),
        opt(test.map(|t| t.lo), 2),
        opt(test.map(|t| t.hi), 2),
        r.model_bits,
        opt(r.exact_bytes, 1),
    )
}

/// results.csv: the six learners' main settings. `train_seconds` is left empty: wall time is
/// machine-dependent (printed by `kpk learners`); the report gives passes over the data instead.
pub fn results_csv(report: &LearnersReport) -> String {
    let mut out = format!("{RESULT_COLUMNS}\n");
    for r in &report.rows {
        out.push_str(&csv_line(r, &r.learner));
    }
    out
}

/// variants.csv: results.csv's columns plus `variant` and `passes`.
pub fn variants_csv(report: &LearnersReport) -> String {
    let mut out = format!("{RESULT_COLUMNS},variant,passes\n");
    for r in &report.variants {
        let line = csv_line(r, &r.learner);
        out.push_str(line.trim_end());
        // The variant is quoted: it may hold a comma ("10 rounds, depth 3").
        out.push_str(&format!(",\"{}\",{:.0}\n", r.variant.replace('"', "\"\""), r.passes));
    }
    out
}

/// The columns of contrasts.csv.
pub const CONTRAST_COLUMNS: &str = "contrast,measure,a,a_inputs,b,b_inputs,side,n,primary,units,estimate,lo95,hi95,p_holm,p_tost_holm,verdict";

fn opt_p(p: Option<f64>) -> String {
    p.map(|v| format!("{v:.6}")).unwrap_or_default()
}

/// A line of contrasts.csv: a primary (Holm's p of superiority and of TOST, the verdict) or an
/// exploratory contrast of the draws (neither, and "exploratory").
fn contrast_line(c: &LearnerContrast) -> String {
    // The hybrid's file reads the position itself: its inputs are the pawn's side.
    let inputs = |arm: &Arm| arm.inputs.map_or("pawn_side", |i| i.name());
    format!(
        "{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{},{},{}\n",
        c.name,
        crate::stats::contrast::Measure::column(c.measure),
        c.a.learner,
        inputs(&c.a),
        c.b.learner,
        inputs(&c.b),
        c.a.side,
        c.a.n.map(|n| n.to_string()).unwrap_or_default(),
        c.primary,
        c.t.units,
        c.t.estimate,
        c.lo,
        c.hi,
        opt_p(c.p_adjusted),
        opt_p(c.equivalence.and_then(|e| e.p_tost_adjusted)),
        serde_json::to_value(c.verdict).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
    )
}

/// `contrasts.csv`: the declared primaries, then every exploratory contrast LEARNERS.md draws
/// on: each learner against the paper's MLP and x1..x32 against x1..x6 on each cell, paired by
/// draw, and each learner against the MLP on T3 (accuracy on every wtm position), paired by
/// replicate.
pub fn contrasts_csv(report: &LearnersReport) -> String {
    let mut s = format!("{CONTRAST_COLUMNS}\n");
    let whole_side =
        report.contrasts.iter().filter(|c| c.measure != crate::learners::design::Measure::ExactBytes);
    for c in
        report.primaries.iter().chain(&report.against_mlp).chain(&report.characterisation).chain(whole_side)
    {
        s.push_str(&contrast_line(c));
    }
    s
}

/// `curves.csv`: each cell's summary per learner and input set.
pub fn curves_csv(report: &LearnersReport) -> String {
    let mut s = format!("{CURVE_COLUMNS}\n");
    for p in &report.curves {
        s.push_str(&format!(
            "{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.1}\n",
            p.learner,
            p.inputs.name(),
            p.side,
            p.n,
            p.draws,
            p.train.mean,
            p.train.lo,
            p.train.hi,
            p.test.mean,
            p.test.lo,
            p.test.hi,
            p.test_sd,
            p.passes
        ));
    }
    s
}

/// Accuracy on every wtm position against exact-model bytes, one series per learner (T3 rows
/// and variants), with the MLP hybrid's size as a dashed line.
pub fn frontier(report: &LearnersReport) -> Result<LineChart> {
    let l = &*LABELS;
    let mut series = Vec::new();
    let mut lowest: f64 = 100.0;
    let (mut x0, mut x1) = (report.shipped_bytes as f64, report.shipped_bytes as f64);
    for (i, name) in crate::learners::NAMES.iter().enumerate() {
        let mut points: Vec<(f64, f64)> = report
            .rows
            .iter()
            .chain(&report.variants)
            .filter(|r| {
                r.learner == *name
                    && r.train_set.parse::<SetName>().ok() == Some(SetName::T3)
                    && r.inputs == crate::learners::InputSet::All
            })
            .filter_map(|r| Some((r.exact_bytes?, r.train.mean)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(x, y) in &points {
            lowest = lowest.min(y);
            x0 = x0.min(x);
            x1 = x1.max(x);
        }
        if !points.is_empty() {
            let key = l.names.get(*name).map_or(*name, String::as_str);
            series.push(Series::new(key, points, category(i)).with_markers());
        }
    }
    let y0 = (lowest / 5.0).floor() * 5.0;
    let shipped = report.shipped_bytes as f64;
    series.push(
        Series::new(
            crate::template::line(&SHIPPED_KEY, SHIPPED_KEY[0].0, &json!({ "bytes": report.shipped_bytes }))?,
            vec![(shipped, y0), (shipped, 100.0)],
            Measure::Model.colour(),
        )
        .dashed(),
    );
    Ok(LineChart {
        title: l.title.clone(),
        x_label: l.x.clone(),
        y_label: l.y.clone(),
        y_range: (y0, 100.5),
        y2: None,
        x_range: Some((x0 / 1.3, x1 * 1.3)),
        log_x: true,
        log_y: false,
        legend: Legend::Right,
        integer_x: false,
        series,
    })
}
