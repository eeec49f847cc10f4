//! Section 7's comparison: six learners on one characterisation (Table 4's x1..x32, or x1..x6
//! only), each fitted to the same seeded draws, measured by accuracy, model size and the size of
//! the exact model it yields (learner + exceptions + the one-ply rule, [`exact`]).
//!
//! Section 7 of the paper proposes comparing four kinds of agent on one characterisation:
//! programs using the rules it contains ([`rules`]: an ordered rule list), rule induction
//! ([`tree`]: a CART decision tree), Bayesian classification in Buro's spirit ([`bayes`]), and
//! nets ([`logistic`], the 1-level net, and [`mlp`], the paper's MLP). [`boosted`] adds
//! gradient-boosted trees, the strongest tabular learner of today. The tuned comparison
//! ([`tune`], `experiments/learners_tuned.toml`) adds the learners people would pick besides:
//! [`forest`] (a random forest), [`knn`] (k nearest neighbours) and [`svm`] (a Gaussian-kernel
//! support vector machine), each checked against scikit-learn's on the same draws
//! (`python/benches/sklearn_learners.py`, `reports/learners_tuned/sklearn.csv`).
//!
//! # Why these learners are written here, not taken from a crate
//!
//! The linfa family (0.7/0.8) pins an older ndarray than kpk's 0.17 and smartcore brings its own
//! matrices; both would add a second numeric stack to a build shared by two cores. More to the
//! point, the exact-size measure needs each model's inner structure (a tree's splits and leaves, a
//! rule's literals, a table's integers) and predictions from exactly the stored, quantised values,
//! so that "learner + exceptions" is exact on every position. Each learner here is small
//! (one file, histogram-based over the characteristics' small integer ranges), deterministic, and
//! seeded where it draws at random (the MLP's initial weights and presentation order, the boosted
//! trees' row subsamples). The MLP is kpk's own net and trainer ([`crate::net`], [`crate::train`])
//! under a Table 5 trial's config.
//!
//! Every learner sees a position as its characteristics `[i8; 32]` (Table 4's natural values) and
//! reads only the columns of its [`InputSet`].

pub mod analyse;
pub mod bayes;
pub mod boosted;
pub mod curves;
pub mod design;
pub mod draws;
pub mod exact;
pub mod explore;
pub mod forest;
pub mod knn;
pub mod krk;
pub mod logistic;
pub mod mlp;
pub mod power;
pub mod rules;
pub mod section7;
pub mod ship;
pub mod size;
pub mod svm;
pub mod tree;
pub mod tune;
pub mod tuned_read;
pub mod verdicts;

use crate::dataset::Dataset;
use crate::error::Result;
use crate::paper::features::FEATURES;
use kpk_probe::table4::N_FEATURES;
use serde::{Deserialize, Serialize};

/// A position's characteristics x1..x32 (index `x − 1`).
pub type Row = [i8; N_FEATURES];

/// Which characteristics a learner is fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InputSet {
    /// All of Table 4's x1..x32.
    #[serde(rename = "x1..x32")]
    All,
    /// The pieces' files and ranks only (Table 4's level 0): every other characteristic is a
    /// function of them.
    #[serde(rename = "x1..x6")]
    Coordinates,
}

impl InputSet {
    pub const ALL: [InputSet; 2] = [InputSet::All, InputSet::Coordinates];

    /// The name in files: `x1..x32`, `x1..x6`.
    pub fn name(self) -> &'static str {
        match self {
            InputSet::All => "x1..x32",
            InputSet::Coordinates => "x1..x6",
        }
    }

    /// The columns read (0-based: column `i` is x(i+1)).
    pub fn cols(self) -> std::ops::Range<usize> {
        match self {
            InputSet::All => 0..N_FEATURES,
            InputSet::Coordinates => 0..6,
        }
    }

    /// Bits that name one column of the set (a split's or a literal's characteristic).
    pub fn col_bits(self) -> u64 {
        bits_for(self.cols().len())
    }
}

/// ⌈log2 n⌉: bits to write one of `n` values (0 for n ≤ 1).
pub fn bits_for(n: usize) -> u64 {
    if n <= 1 { 0 } else { u64::from(usize::BITS - (n - 1).leading_zeros()) }
}

/// The legal values of characteristic column `c`, as `value − lo` in `0..size`: (lo, size).
pub fn value_range(c: usize) -> (i8, usize) {
    (FEATURES[c].range.0, FEATURES[c].range_size())
}

/// Positions as learners see them: characteristics and whether each is a win.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub rows: Vec<Row>,
    pub wins: Vec<bool>,
    /// Depth to conversion of each win in plies, `None` for draws (for reading hidden units).
    pub dtc: Vec<Option<u8>>,
}

impl Samples {
    pub fn of(set: &Dataset) -> Samples {
        Samples { rows: set.features(), wins: set.wins(), dtc: set.dtc.clone() }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Percentage of positions `model` answers right.
    pub fn accuracy_pct(&self, model: &dyn Model) -> f64 {
        let right = model.predict_all(&self.rows).iter().zip(&self.wins).filter(|(p, w)| p == w).count();
        100.0 * right as f64 / self.len().max(1) as f64
    }
}

/// A learner: a fit from samples to a [`Model`], deterministic for a given seed.
pub trait Learner: Sync {
    /// One of the six names of the comparison (`rule_list`, `tree`, …).
    fn name(&self) -> &'static str;
    /// A variant's label, e.g. `depth 8`; empty for the learner's main setting.
    fn variant(&self) -> String {
        String::new()
    }
    fn fit(&self, data: &Samples, inputs: InputSet, seed: u64) -> Result<Box<dyn Model>>;
}

/// A fitted model: its answer for a position, its encoded size, and what training cost.
pub trait Model: Send + Sync {
    /// `true` for a win, from exactly the values the encoding stores.
    fn predict(&self, x: &Row) -> bool;
    /// [`Model::predict`] of every row (a model may answer many at once faster).
    fn predict_all(&self, rows: &[Row]) -> Vec<bool> {
        rows.iter().map(|x| self.predict(x)).collect()
    }
    /// Bits of the model as encoded (its module documents the layout).
    fn model_bits(&self) -> u64;
    /// Passes over the training set (epochs, boosting rounds, Newton steps, rules grown): a
    /// machine-independent proxy for training time.
    fn passes(&self) -> u64;
    /// The model as readable rules, where it is one (rule lists).
    fn rules(&self) -> Vec<rules::RuleText> {
        Vec::new()
    }
    /// For rule lists: the number of the rule that answers `x` (the default's is the rule count).
    fn first_rule(&self, _x: &Row) -> Option<usize> {
        None
    }
    /// The model's probability that `x` is a win, where it gives one (for log-loss and Brier's
    /// score); `None` for a model that answers a class only.
    fn win_probability(&self, _x: &Row) -> Option<f64> {
        None
    }
}

/// The six learners of the comparison in their main settings (section 7's list, plus boosting),
/// the MLP under a Table 5 trial's config.
pub fn six(mlp: mlp::PaperMlp) -> Vec<Box<dyn Learner>> {
    vec![
        Box::new(rules::RuleList::default()),
        Box::new(tree::Cart::default()),
        Box::new(bayes::NaiveBayes::default()),
        Box::new(logistic::Logistic::default()),
        Box::new(boosted::Boosted::default()),
        Box::new(mlp),
    ]
}

/// The learner names in the report's order.
pub const NAMES: [&str; 6] = ["rule_list", "tree", "naive_bayes", "logistic", "boosted_trees", MLP];

/// The paper's MLP, the learner every other is compared against.
pub const MLP: &str = "mlp";

/// The test grid of the learners' unit tests: x1 and x2 over 1..=8 each (64 rows), every other
/// characteristic at the low end of its range.
#[cfg(test)]
pub(crate) fn grid_rows() -> Vec<Row> {
    (1..=8)
        .flat_map(|a| {
            (1..=8).map(move |b| {
                let mut r = [0i8; N_FEATURES];
                for (c, v) in r.iter_mut().enumerate() {
                    *v = value_range(c).0;
                }
                r[0] = a;
                r[1] = b;
                r
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_for_counts_the_bits_of_n_values() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9, 32].map(bits_for), [0, 1, 2, 2, 3, 3, 4, 5]);
    }

    #[test]
    fn the_six_learners_are_named_in_order() {
        let trial = crate::experiment::config::TrialConfig::load(std::path::Path::new(
            "experiments/table5/trial01.toml",
        ))
        .unwrap();
        let names: Vec<&str> = six(mlp::PaperMlp::new(trial, None)).iter().map(|l| l.name()).collect();
        assert_eq!(names, NAMES);
    }
}
