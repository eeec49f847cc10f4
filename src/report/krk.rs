//! `kpk krk-learners` as a [`Report`]: section 7's learners on the UCI KRK set
//! ([`KrkLearners`]) rendered from its JSON alone: `reports/KRK.md` (the template `krk.md.j2`),
//! `reports/krk/curves.csv` and the learning curves (`curves.png`, `curves.svg`).

use super::driver::{Output, Report};
use super::krk_curves::{Figure, Labels};
use crate::analysis::krk_learners::{Destinations, KrkLearners, KrkLearnersReport};
use crate::error::Result;
use crate::figures::plot::ImageFormat;
use crate::hybrid::krk_sizes::KrkModelResults;
use crate::learners::krk::analyse::Spread;
use crate::template::{Engine, Typed, read_results};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

static LABELS: LazyLock<Labels> =
    LazyLock::new(|| toml::from_str(include_str!("krk_figures.toml")).expect("krk_figures.toml parses"));

const TEMPLATE: &str = include_str!("templates/krk.md.j2");

/// The columns of curves.csv.
pub const CURVE_COLUMNS: &str = "learner,inputs,n,draws,test_rows,accuracy_mean,accuracy_lo,accuracy_hi,accuracy_draw_lo,accuracy_draw_hi,mae_mean,mae_lo,mae_hi,mae_draw_lo,mae_draw_hi";

/// The rendered files in the folder, in [`Report::render`]'s order.
fn folder_files(to: &Destinations) -> [PathBuf; 3] {
    ["curves.csv", "curves.png", "curves.svg"].map(|name| to.folder.join(name))
}

impl Report for KrkLearners<'_> {
    fn destinations(&self, _: Option<&KrkLearnersReport>) -> Result<Vec<PathBuf>> {
        Ok(std::iter::once(self.to.markdown.clone()).chain(folder_files(&self.to)).collect())
    }

    fn figures_folder(&self) -> Option<PathBuf> {
        Some(self.to.folder.clone())
    }

    /// The folder holds its table as well as its figures.
    fn folder_holds(&self, folder: &Path, path: &Path) -> bool {
        path.parent() == Some(folder)
    }

    fn render<'a>(&self, report: &'a KrkLearnersReport) -> Result<Vec<Output<'a>>> {
        let [csv, png, svg] = folder_files(&self.to);
        let figure =
            Figure { points: &report.analysed.curves, published: &report.published, labels: &LABELS };
        let again = Figure { ..figure };
        Ok(vec![
            Output::bytes(&self.to.markdown, markdown(report, &read_results(&self.model_results)?)?),
            Output::bytes(csv, curves_csv(report)),
            Output::drawn(png, move |out| figure.save(out, ImageFormat::Png)),
            Output::drawn(svg, move |out| again.save(out, ImageFormat::Svg)),
        ])
    }
}

/// `93.62 [93.10, 94.14]`: a cell's mean and its interval.
fn mean_in(s: Typed<Spread>, digits: usize) -> String {
    format!("{:.digits$} [{:.digits$}, {:.digits$}]", s.mean, s.lo, s.hi)
}

/// `91.0–95.2`: the spread of a cell's single draws.
fn spread(s: Typed<Spread>, digits: usize) -> String {
    format!("{:.digits$}–{:.digits$}", s.draw_lo, s.draw_hi)
}

/// What the Markdown report shows: the learners' results and the exact model's size figures.
#[derive(Serialize)]
struct Context<'a> {
    #[serde(flatten)]
    report: &'a KrkLearnersReport,
    model: &'a KrkModelResults,
}

/// The Markdown report.
pub fn markdown(report: &KrkLearnersReport, model: &KrkModelResults) -> Result<String> {
    let engine = Engine::new()
        .filter("mean_in", mean_in)
        .filter("spread", spread)
        .filter("pct", |k: usize, n: usize| format!("{:.2}", 100.0 * k as f64 / n.max(1) as f64))
        .template("krk.md", TEMPLATE)?;
    Ok(engine.render("krk.md", &Context { report, model })?)
}

/// curves.csv: one row per learner, inputs and size.
pub fn curves_csv(report: &KrkLearnersReport) -> String {
    let mut out = format!("{CURVE_COLUMNS}\n");
    for p in &report.analysed.curves {
        let s =
            |s: &Spread| format!("{:.4},{:.4},{:.4},{:.4},{:.4}", s.mean, s.lo, s.hi, s.draw_lo, s.draw_hi);
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            p.learner,
            p.inputs.name(),
            p.n,
            p.draws,
            p.test_rows,
            s(&p.accuracy),
            s(&p.mae)
        ));
    }
    out
}
