//! The reproduction as data: everything `REPRODUCTION.md` and its figures show, computed by
//! [`analyse`](super::analyse::analyse) and committed as `reports/reproduction.json`. Rendering reads
//! nothing else (the paper's own tables are the crate's, [`crate::paper::tables`], and are not
//! repeated here).

use super::domain::Domain;
use super::readings_robustness::AtThePapersCount;
use super::section51::Section51;
use super::table5::Table5Stat;
use super::table6_groups::Table6Groups;
use crate::analysis::finding::Finding;
use crate::experiment::readings::ReadingDistance;
use crate::experiment::readings_intervals::Ranking;
use crate::experiment::rows::{MisclassifiedRow, Summary};
use crate::experiment::sweep::SweepRow;
use crate::experiment::table6::Matched;
use crate::paper::tables::{self, Table5Row, Table6Row};
use serde::{Deserialize, Serialize};

/// Everything the report shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reproduction {
    /// The paper's Table 5 (compiled into the crate, not stored).
    #[serde(skip, default = "tables::table5")]
    pub paper: Vec<Table5Row>,
    /// The paper's Table 6 (compiled into the crate, not stored).
    #[serde(skip, default = "tables::table6")]
    pub paper_table6: Vec<Table6Row>,
    /// The domain in numbers: kpk's side of Tables 2 and 3.
    pub domain: Domain,
    /// Our trials, one per row of Table 5, in trial order.
    pub trials: Vec<Summary>,
    /// The trial number of the best net on the a-file set T4, which stands beside Table 6.
    pub best: u8,
    /// Its misclassified positions of its training set (m = 0).
    pub best_misclassified: Vec<MisclassifiedRow>,
    /// The NN6 trials' curves, in trial order.
    pub curves: Vec<Curve>,
    /// Table 5 over the replicates (`table5.csv`).
    pub replicated: Vec<Table5Stat>,
    /// Section 5.1's claims checked on the replicates by the data draw (`section51.json`).
    pub section51: Section51,
    /// The readings of the stopping rule compared, and the learning-rate sweep.
    pub readings: Readings,
    /// Trial 39 continued to 6,285 epochs.
    pub continued: Option<Continued>,
    /// Table 6 at matched accuracy over the replicates (`readings/table6.json`).
    pub matched: Option<Matched>,
    /// The paper's groups of its 51 and the a2 classes against the runs at matched accuracy.
    pub table6_groups: Option<Table6Groups>,
    /// The main findings that open the report, most important first.
    #[serde(default)]
    pub summary: Vec<Finding>,
    /// What explains the gap to the paper's Table 5: the gap studies' paired effects.
    #[serde(default)]
    pub gap: super::gap::Gap,
}

impl Reproduction {
    /// The summary of trial `t`.
    pub fn trial(&self, t: u8) -> Option<&Summary> {
        self.trials.iter().find(|s| s.trial_number() == Some(t))
    }

    /// The best net on T4 (see [`Reproduction::best`]).
    pub fn best(&self) -> Option<&Summary> {
        self.trial(self.best)
    }

    /// The curve of trial `t`.
    pub fn curve(&self, t: u8) -> Option<&Curve> {
        self.curves.iter().find(|c| c.trial == t)
    }
}

/// Points (epoch, value) of values at epochs 1, 2, ...
pub fn by_epoch<T: Copy + Into<f64>>(values: &[T]) -> Vec<(f64, f64)> {
    values.iter().enumerate().map(|(i, &v)| ((i + 1) as f64, v.into())).collect()
}

/// One NN6 trial's run by epoch, as the figures draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub trial: u8,
    /// Training accuracy at m = 0, %, at epochs 1, 2, ...
    pub accuracy_m0: Vec<f64>,
    /// Positions misclassified at m = 0 at epochs 1, 2, ...: for the a-file trials of Figure 3
    /// only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrong_m0: Vec<u32>,
    /// The epoch with the least E2 (the literal reading of the paper's kept state), and its
    /// training accuracy at m = 0.
    pub least_e2: Option<(usize, f64)>,
}

/// What `kpk readings` wrote, with the readings' bootstrap rankings computed from its runs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Readings {
    /// Each reading's distance to the paper (`distances.csv`).
    pub distances: Vec<ReadingDistance>,
    /// The trials whose median run, under some reading, ends at a budget equal to the paper's
    /// epoch count.
    pub at_the_papers_count: Vec<AtThePapersCount>,
    /// The least and greatest median kept epoch of the whole-set trials 38-41 under the readings
    /// that keep the least error.
    pub least_error_kept: Option<(f64, f64)>,
    /// The learning-rate sweep (`sweep.csv`).
    pub sweep: Vec<SweepRow>,
    /// The readings ranked over every trial, with bootstrap intervals.
    pub ranking: Option<Ranking>,
    /// The same over subsets of the trials: (name, ranking), in the order of the robustness table.
    pub subsets: Vec<(String, Ranking)>,
}

/// Trial 39's config trained on to 6,285 epochs (`reports/trial39_continued/`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Continued {
    pub summary: Summary,
    /// Positions misclassified at m = 0 at epochs 1, 2, ...
    pub wrong_m0: Vec<u32>,
    /// Positions misclassified (m = 0) at epochs 1,610 and 6,285.
    pub errors_at_1610: Option<f64>,
    pub errors_at_6285: Option<f64>,
    /// The first epoch with at most 51 errors.
    pub first_51: Option<usize>,
    /// Its misclassified positions against the paper's 51.
    pub overlap: Overlap,
    /// The independent trial 40's against the paper's 51.
    pub t40_overlap: Overlap,
}

/// A run's misclassified a-file positions against the paper's Table 6.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overlap {
    /// Of the run's misclassified positions, on the paper's list.
    pub common: usize,
    /// The run's misclassified positions.
    pub wrong: usize,
    /// Expected on the list by chance, and P(at least `common`) (hypergeometric).
    pub expected: f64,
    pub p: f64,
}
