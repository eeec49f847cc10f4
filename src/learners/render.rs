//! Render the comparison from its JSON alone: `reports/LEARNERS.md` (the template
//! `learners.md.j2`), `reports/learners/results.csv`, `variants.csv` and `contrasts.csv`, and the
//! accuracy-vs-bytes frontier (`frontier.png`, `frontier.svg`). Nothing here trains or measures.

use super::analyse::{Contrast, LearnersReport, Row};
use super::contrasts::{self, Arm};
use crate::dataset::SetName;
use crate::error::{Error, Result};
use crate::figures::colours::{Measure, category};
use crate::figures::plot::{ImageFormat, Legend, LineChart, Series};
use crate::output::FileOut;
use crate::stats::Interval;
use crate::stats::compare::{ClaimVerdict, Method};
use crate::stats::family::{CONTRAST_COLUMNS, ContrastLine};
use crate::template::{Engine, Typed};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The frontier figure's title, axis labels and keys (`figure.toml` beside this file).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FigureLabels {
    title: String,
    x: String,
    y: String,
    shipped: String,
    /// A readable key for each learner of [`super::NAMES`].
    names: BTreeMap<String, String>,
}

static LABELS: LazyLock<FigureLabels> =
    LazyLock::new(|| toml::from_str(include_str!("figure.toml")).expect("figure.toml parses"));

const TEMPLATE: &str = include_str!("learners.md.j2");

/// The columns of results.csv (the list, in its order).
pub const RESULT_COLUMNS: &str = "learner,inputs,train_set,replicates,train_mean,train_lo,train_hi,test_mean,test_lo,test_hi,train_seconds,model_bits,exact_bytes";

/// Where the report's files go.
#[derive(Clone, Debug)]
pub struct Destinations {
    pub json: PathBuf,
    pub markdown: PathBuf,
    /// results.csv, variants.csv, frontier.png, frontier.svg, contrasts.csv.
    pub folder: PathBuf,
}

impl Destinations {
    /// The committed layout under `reports`.
    pub fn under(reports: &Path) -> Destinations {
        Destinations {
            json: reports.join("learners.json"),
            markdown: reports.join("LEARNERS.md"),
            folder: reports.join("learners"),
        }
    }

    fn outputs(&self) -> Result<Vec<FileOut>> {
        let f = &self.folder;
        [
            self.markdown.clone(),
            f.join("results.csv"),
            f.join("variants.csv"),
            f.join("frontier.png"),
            f.join("frontier.svg"),
            f.join("contrasts.csv"),
        ]
        .iter()
        .map(|p| FileOut::check(p))
        .collect()
    }
}

impl Destinations {
    /// Check every destination before any fitting: each writable, all distinct, none of them one
    /// of `inputs`, nor inside the report's own folder unless it belongs there. `json` says
    /// whether the JSON is written (a run) or only read (--render-only).
    pub fn check(&self, json: bool, inputs: &[&Path]) -> Result<()> {
        let outs = self.outputs()?;
        let head = if json { vec![FileOut::check(&self.json)?] } else { Vec::new() };
        let all: Vec<&FileOut> = head.iter().chain(&outs).collect();
        crate::output::check_all(&all, inputs)?;
        let beside: Vec<&FileOut> = head.iter().chain(&outs[..1]).collect();
        crate::output::outside_folder(&beside, &self.folder)
    }
}

/// Write the JSON, then render everything from it.
pub fn write(report: &LearnersReport, to: &Destinations) -> Result<()> {
    let json = FileOut::check(&to.json)?;
    std::fs::create_dir_all(&to.folder)
        .map_err(|cause| Error::Io { path: to.folder.display().to_string(), cause })?;
    let outs = to.outputs()?;
    json.write(crate::template::results_json(report)?.as_bytes())?;
    render_to(report, &outs)
}

/// Read the committed JSON and render from it alone.
pub fn render_only(to: &Destinations) -> Result<LearnersReport> {
    let report: LearnersReport = crate::template::read_results(&to.json)?;
    std::fs::create_dir_all(&to.folder)
        .map_err(|cause| Error::Io { path: to.folder.display().to_string(), cause })?;
    render_to(&report, &to.outputs()?)?;
    Ok(report)
}

fn render_to(report: &LearnersReport, outs: &[FileOut]) -> Result<()> {
    outs[0].write(markdown(report)?.as_bytes())?;
    outs[1].write(results_csv(report).as_bytes())?;
    outs[2].write(variants_csv(report).as_bytes())?;
    let chart = frontier(report)?;
    chart.save_to(&outs[3], ImageFormat::Png, (900, 560))?;
    chart.save_to(&outs[4], ImageFormat::Svg, (900, 560))?;
    outs[5].write(contrasts_csv(report).as_bytes())
}

/// `+1.23 [−0.40, +2.86]`: a paired difference and its interval.
fn interval(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:+.digits$} [{:+.digits$}, {:+.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// `93.6 [91.2, 96.0]`: a mean and its interval.
fn mean_in(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:.digits$} [{:.digits$}, {:.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// A contrast's arm, read back from its label in `learners.json`.
fn parse_arm(label: &str) -> std::result::Result<Arm, minijinja::Error> {
    label
        .parse()
        .map_err(|e: Error| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string()))
}

/// The sets an arm is trained and tested on, as the report names them: `T1/S1`, `T3`; empty for
/// section 7's seeding starts.
fn sets(label: String) -> std::result::Result<String, minijinja::Error> {
    Ok(match parse_arm(&label)? {
        Arm::Row { train_set, .. } => match train_set.testing() {
            Some(test) => format!("{train_set}/{test}"),
            None => train_set.to_string(),
        },
        Arm::Seeding { .. } => String::new(),
    })
}

/// The Markdown report.
pub fn markdown(report: &LearnersReport) -> Result<String> {
    let engine = Engine::new()
        .filter("interval", interval)
        .filter("mean_in", mean_in)
        .filter("cell", |s: String| s.replace('|', "\\|"))
        .filter("sets", sets)
        .test("seeding", |a: String| parse_arm(&a).map(|a| matches!(a, Arm::Seeding { .. })))
        .template("learners.md", TEMPLATE)
        .map_err(|e| Error::Internal(e.to_string()))?;
    engine.render("learners.md", report).map_err(|e| Error::Internal(e.to_string()))
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

/// An exploratory contrast's arms: the learner's row and the MLP's on the same cell.
fn exploratory_arms(c: &Contrast) -> Option<(Arm, Arm)> {
    let train_set: SetName = c.train_set.parse().ok()?;
    let arm = |learner: &str| Arm::Row { learner: learner.to_string(), inputs: c.inputs, train_set };
    Some((arm(&c.learner), arm("mlp")))
}

/// `contrasts.csv`: the declared contrasts (primaries with Holm's level, adjusted p-value and
/// verdict), then every exploratory learner-minus-MLP contrast LEARNERS.md shows (accuracy,
/// then exact bytes where both have an exact model) that no declared one repeats.
pub fn contrasts_csv(report: &LearnersReport) -> String {
    let mut s = format!("{CONTRAST_COLUMNS}\n");
    for c in &report.declared {
        let verdict = c.verdict.map_or("exploratory", ClaimVerdict::words);
        s.push_str(
            &ContrastLine {
                name: &c.name,
                measure: c.measure.column(),
                a: c.a.to_string(),
                b: c.b.to_string(),
                primary: c.primary,
                estimate: c.estimate,
                lo: c.lo,
                hi: c.hi,
                method: c.method,
                p_adjusted: c.p_adjusted,
                verdict,
            }
            .to_string(),
        );
    }
    let declared = |a: &Arm, b: &Arm, m: contrasts::Measure| {
        report.declared.iter().any(|d| &d.a == a && &d.b == b && d.measure == m)
    };
    for c in &report.contrasts {
        let Some((a, b)) = exploratory_arms(c) else { continue };
        let accuracy =
            if c.measure == "test" { contrasts::Measure::TestPct } else { contrasts::Measure::TrainPct };
        let cell = format!("{}_vs_mlp_{}_x{}", c.learner, c.train_set, c.inputs.cols().len());
        let bytes = c.bytes_diff.map(|d| (contrasts::Measure::ExactBytes, d, format!("{cell}_bytes")));
        for (m, d, name) in std::iter::once((accuracy, c.accuracy_diff, cell.clone())).chain(bytes) {
            if declared(&a, &b, m) {
                continue;
            }
            let line = ContrastLine {
                name: &name,
                measure: m.column(),
                a: a.to_string(),
                b: b.to_string(),
                primary: false,
                estimate: d.mean,
                lo: d.lo,
                hi: d.hi,
                method: Method::Paired,
                p_adjusted: None,
                verdict: "exploratory",
            };
            s.push_str(&line.to_string());
        }
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
    for (i, name) in super::NAMES.iter().enumerate() {
        let mut points: Vec<(f64, f64)> = report
            .rows
            .iter()
            .chain(&report.variants)
            .filter(|r| {
                r.learner == *name
                    && r.train_set.parse::<SetName>().ok() == Some(SetName::T3)
                    && r.inputs == super::InputSet::All
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
            crate::template::label(&l.shipped, &json!({ "bytes": report.shipped_bytes }))?,
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
