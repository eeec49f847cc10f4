//! `kpk learners --tuned` as a [`Report`]: section 7 under equal tuning budgets
//! ([`TunedLearners`]) rendered from its JSON alone: `reports/LEARNERS_TUNED.md` (the template
//! `learners_tuned.md.j2`) and `reports/learners_tuned/primaries.csv` and `summaries.csv`.

use super::driver::{Output, Report};
use crate::analysis::learners_tuned::{TunedLearners, TunedReport};
use crate::error::Result;
use crate::stats::Interval;
use crate::template::{Engine, Typed};
use std::path::{Path, PathBuf};

const TEMPLATE: &str = include_str!("templates/learners_tuned.md.j2");

/// The columns of primaries.csv.
const PRIMARY_COLUMNS: &str = "name,a,b,side,draws,estimate,lo,hi,sd,draw_lo,draw_hi,p_a_beats_b,p_beyond,p_beyond_adjusted,p_tost,p_tost_adjusted,p_zero,p_zero_adjusted,size,direction";

/// The columns of summaries.csv.
const SUMMARY_COLUMNS: &str = "learner,side,test_mean,test_lo,test_hi,draw_lo,draw_hi,draw_sd,untuned_mean,gain_mean,gain_lo,gain_hi,cv_pct,brier,log_loss";

impl TunedLearners<'_> {
    fn tables(&self) -> [PathBuf; 2] {
        [self.folder.join("primaries.csv"), self.folder.join("summaries.csv")]
    }
}

impl Report for TunedLearners<'_> {
    fn destinations(&self, _: Option<&TunedReport>) -> Result<Vec<PathBuf>> {
        Ok(std::iter::once(self.markdown.clone()).chain(self.tables()).collect())
    }

    fn figures_folder(&self) -> Option<PathBuf> {
        Some(self.folder.clone())
    }

    /// The report's folder holds its tables and the run's data.
    fn folder_holds(&self, folder: &Path, path: &Path) -> bool {
        path.parent() == Some(folder)
    }

    fn render<'a>(&self, report: &'a TunedReport) -> Result<Vec<Output<'a>>> {
        let [primaries, summaries] = self.tables();
        Ok(vec![
            Output::bytes(&self.markdown, markdown(report)?),
            Output::bytes(primaries, primaries_csv(report)),
            Output::bytes(summaries, summaries_csv(report)),
        ])
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{v:.6}"))
}

fn primaries_csv(report: &TunedReport) -> String {
    let mut out = format!("{PRIMARY_COLUMNS}\n");
    for p in &report.reading.primaries {
        let size = serde_json::to_value(p.size)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let dir = serde_json::to_value(p.direction)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        out.push_str(&format!(
            "{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.4},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e},{size},{dir}\n",
            p.name, p.a, p.b, p.side, p.draws, p.estimate, p.lo, p.hi, p.sd, p.draw_lo, p.draw_hi, p.p_a_beats_b,
            p.p_beyond, p.p_beyond_adjusted, p.p_tost, p.p_tost_adjusted, p.p_zero, p.p_zero_adjusted
        ));
    }
    out
}

fn summaries_csv(report: &TunedReport) -> String {
    let mut out = format!("{SUMMARY_COLUMNS}\n");
    for s in &report.reading.summaries {
        out.push_str(&format!(
            "{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{},{}\n",
            s.learner,
            s.side,
            s.test.mean,
            s.test.lo,
            s.test.hi,
            s.draw_lo,
            s.draw_hi,
            s.draw_sd,
            s.untuned.mean,
            s.gain.mean,
            s.gain.lo,
            s.gain.hi,
            s.cv_pct,
            opt(s.brier),
            opt(s.log_loss)
        ));
    }
    out
}

/// `+1.23 [−0.40, +2.86]`: a paired difference and its interval.
fn interval(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:+.digits$} [{:+.digits$}, {:+.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// `93.6 [91.2, 96.0]`: a mean and its interval.
fn mean_in(iv: Typed<Interval>, digits: usize) -> String {
    format!("{:.digits$} [{:.digits$}, {:.digits$}]", iv.mean, iv.lo, iv.hi)
}

/// `0.0012` or `< 0.0001`.
fn pvalue(v: f64) -> String {
    if v < 1e-4 { "< 0.0001".to_string() } else { format!("{v:.4}") }
}

/// The Markdown report.
pub fn markdown(report: &TunedReport) -> Result<String> {
    let engine = Engine::new()
        .filter("interval", interval)
        .filter("mean_in", mean_in)
        .filter("pvalue", pvalue)
        .template("learners_tuned.md", TEMPLATE)?;
    Ok(engine.render("learners_tuned.md", report)?)
}
