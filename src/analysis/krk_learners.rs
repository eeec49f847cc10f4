//! `kpk krk-learners` as an [`Analysis`]: section 7's learners on the UCI KRK set under the design
//! declared in `experiments/krk_learners.toml` ([`crate::learners::krk`]), into
//! `reports/krk_learners.json`, which [`crate::report::krk`] renders as reports/KRK.md.

use crate::analysis::{Analysis, Mode};
use crate::chess::dtm::Tables;
use crate::error::{Error, Result};
use crate::learners::krk::analyse::{self, Analysed};
use crate::learners::krk::design::Design;
use crate::learners::krk::published::{self, Published};
use crate::learners::krk::run::{self, DrawFit, KrkSet};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Everything reports/KRK.md shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KrkLearnersReport {
    /// The declared design as run (the reduced one for a test), and the commit that declared it.
    pub design: Design,
    pub reduced: bool,
    pub declared_in: String,
    /// The set: its rows and the rows of each class (`draw`, `zero` .. `sixteen`).
    pub rows: usize,
    pub class_counts: Vec<usize>,
    #[serde(flatten)]
    pub analysed: Analysed,
    pub published: Vec<Published>,
    /// Every fit: learner, inputs, size, draw and its measures.
    pub fits: Vec<DrawFit>,
}

/// Where the report's files go.
#[derive(Clone, Debug)]
pub struct Destinations {
    pub json: PathBuf,
    pub markdown: PathBuf,
    /// curves.csv, curves.png, curves.svg.
    pub folder: PathBuf,
}

impl Destinations {
    /// The committed layout under `reports`.
    pub fn under(reports: &Path) -> Destinations {
        Destinations {
            json: reports.join("krk_learners.json"),
            markdown: reports.join("KRK.md"),
            folder: reports.join("krk"),
        }
    }
}

/// What a run reads.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub design: PathBuf,
    pub published: PathBuf,
    /// The commit that last changed the declaration.
    pub declared_in: String,
    /// Run the declaration's reduced design instead (a test's).
    pub reduced: bool,
}

/// `kpk krk-learners` as an [`Analysis`].
pub struct KrkLearners<'a> {
    pub to: Destinations,
    /// What [`Mode::Run`] reads (the other mode reads the JSON alone).
    pub inputs: Option<Inputs>,
    /// The exact KRK model's size figures (`reports/krk_model.json`), read in every mode.
    pub model_results: PathBuf,
    pub progress: &'a (dyn Fn(&str) + Sync),
}

impl Analysis for KrkLearners<'_> {
    type Results = KrkLearnersReport;

    fn command(&self) -> &'static str {
        "krk-learners"
    }

    fn results_path(&self) -> PathBuf {
        self.to.json.clone()
    }

    fn reanalyses(&self) -> bool {
        true
    }

    fn inputs(&self, mode: Mode) -> Vec<PathBuf> {
        let read: Vec<PathBuf> = match (mode, &self.inputs) {
            (Mode::Run, Some(i)) => vec![i.design.clone(), i.published.clone()],
            // The fits come from the results' own JSON, which the analysis rewrites.
            (Mode::AnalyseOnly, Some(i)) => vec![i.published.clone()],
            _ => Vec::new(),
        };
        read.into_iter().chain(std::iter::once(self.model_results.clone())).collect()
    }

    fn analyse(&self, mode: Mode) -> Result<KrkLearnersReport> {
        let i = self.inputs.as_ref().ok_or_else(|| Error::Internal(format!("kpk krk-learners: {mode:?}")))?;
        let published = published::load(&i.published)?;
        if mode == Mode::AnalyseOnly {
            // The fits as the run kept them, analysed again (the published figures read anew).
            let kept: KrkLearnersReport = crate::template::read_results(&self.to.json)?;
            let analysed = analyse::analyse(&kept.design, &kept.fits)?;
            return Ok(KrkLearnersReport { analysed, published, ..kept });
        }
        (self.progress)("the UCI KRK set");
        let set = KrkSet::uci(&Tables::generate())?;
        let declared = Design::load(&i.design, set.rows.len())?;
        let design = if i.reduced { declared.reduced() } else { declared };
        (self.progress)("the learning curves");
        let fits = run::run(&design, &set, self.progress);
        let analysed = analyse::analyse(&design, &fits)?;
        Ok(KrkLearnersReport {
            design,
            reduced: i.reduced,
            declared_in: i.declared_in.clone(),
            rows: set.rows.len(),
            class_counts: set.class_counts(),
            analysed,
            published,
            fits,
        })
    }
}
