//! `kpk learners` as an [`Analysis`]: section 7's comparison fitted
//! ([`crate::learners::analyse::analyse`]), or its derived numbers computed again from the
//! committed draws, into `reports/learners.json`, which [`crate::report::learners`] renders.
//! `draws.csv`, the run's data, is written by a run that fits the curves and read by the others.

use crate::analysis::{Analysis, Mode};
use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::learners::analyse::{self, LearnersReport, Row, Settings};
use crate::learners::curves;
use crate::learners::design::Design;
use crate::learners::power::Pilot;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Where the report's files go.
#[derive(Clone, Debug)]
pub struct Destinations {
    pub json: PathBuf,
    pub markdown: PathBuf,
    /// results.csv, variants.csv, frontier.png, frontier.svg, contrasts.csv, curves.csv,
    /// curves.png, curves.svg, and the run's draws.csv.
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

    /// The run's data: one row per learner, inputs, side, n and draw.
    pub fn draws(&self) -> PathBuf {
        self.folder.join("draws.csv")
    }
}

/// `kpk learners` as an [`Analysis`]: where it writes, what it reads, and how a run fits.
pub struct Learners<'a> {
    pub to: Destinations,
    /// The declared design of the comparison and the pilot its power is computed from.
    pub design: PathBuf,
    pub pilot: PathBuf,
    /// What [`Mode::Run`] fits (the other modes fit nothing).
    pub settings: Option<Settings>,
    /// A run reads the learning curves' draws from draws.csv instead of fitting them.
    pub from_draws: bool,
    pub progress: &'a (dyn Fn(&str) + Sync),
    /// The rows and variants a run fitted, with their wall time (never written to the report).
    pub fitted: RefCell<Vec<Row>>,
}

impl Analysis for Learners<'_> {
    type Results = LearnersReport;

    fn command(&self) -> &'static str {
        "learners"
    }

    /// The draws are kept (draws.csv): `--analyse-only` derives the curves, contrasts and
    /// verdicts from them again.
    fn reanalyses(&self) -> bool {
        true
    }

    fn results_path(&self) -> PathBuf {
        self.to.json.clone()
    }

    /// draws.csv is an input where it is read: by `--analyse-only` and by a run from the draws.
    fn inputs(&self, mode: Mode) -> Vec<PathBuf> {
        let declared = [self.design.clone(), self.pilot.clone()];
        match (mode, &self.settings) {
            (Mode::RenderOnly, _) => Vec::new(),
            (Mode::AnalyseOnly, _) => declared.into_iter().chain([self.to.draws()]).collect(),
            (Mode::Run, s) => {
                let read = s.iter().flat_map(|s| [s.shipped_model.clone(), s.compress.clone()]);
                let draws = self.from_draws.then(|| self.to.draws());
                read.chain(declared).chain(draws).collect()
            }
        }
    }

    /// draws.csv is written by a run that fits the learning curves.
    fn run_outputs(&self, mode: Mode) -> Vec<PathBuf> {
        if mode == Mode::Run && !self.from_draws { vec![self.to.draws()] } else { Vec::new() }
    }

    fn analyse(&self, mode: Mode) -> Result<LearnersReport> {
        if mode == Mode::AnalyseOnly {
            let (design, pilot) = (Design::load(&self.design)?, Pilot::load(&self.pilot)?);
            return analyse::analyse_committed(&self.to.json, &self.to.draws(), &design, &pilot);
        }
        let s = self.settings.as_ref().ok_or_else(|| Error::Internal(format!("kpk learners: {mode:?}")))?;
        s.check()?;
        let bb = Bitbase::generate();
        let draws = if self.from_draws {
            curves::read_draws(&self.to.draws())?
        } else {
            (self.progress)("the learning curves");
            let draws = curves::run(&s.design, &s.table5, &bb, self.progress)?;
            // The draws are the run's data: written first, so that nothing measured is lost.
            curves::write_draws(&draws, &self.to.draws())?;
            draws
        };
        let report = analyse::analyse(s, &draws, &bb, self.progress)?;
        *self.fitted.borrow_mut() = report.rows.iter().chain(&report.variants).cloned().collect();
        Ok(report)
    }
}
