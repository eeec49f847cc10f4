//! Section 7's learners on KRK: the UCI "Chess (King-Rook vs. King)" set's 18 classes (a draw,
//! then Black's moves to mate, zero to sixteen), learned from the raw squares or from the
//! literature's KRK characteristics ([`features`]), under the design declared in
//! `experiments/krk_learners.toml` ([`design`]).
//!
//! The KPK learners of [`crate::learners`] answer win or draw from Table 4's `[i8; 32]`; these
//! answer one of 18 ordered classes from a KRK row, so each is its own multi-class version:
//! a CART tree ([`tree`]), categorical naive Bayes ([`bayes`]), k nearest neighbours ([`knn`]),
//! and softmax nets ([`softmax`]: the 1-level net, multinomial logistic regression, and the
//! paper's MLP shape with 18 outputs). [`run`] fits them on the declared draws.

pub mod analyse;
pub mod bayes;
pub mod design;
pub mod features;
pub mod knn;
pub mod published;
pub mod run;
pub mod softmax;
pub mod tree;

use serde::{Deserialize, Serialize};

/// Columns of a KRK row: the six squares' coordinates, then the literature's characteristics.
pub const N_COLS: usize = 22;

/// A KRK position as the learners see it (each column a small non-negative integer).
pub type KrkRow = [i8; N_COLS];

/// The number of classes: `draw`, then `zero` .. `sixteen` (the UCI set's order).
pub const N_CLASSES: usize = 18;

/// Which columns a learner is fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Inputs {
    /// The literature's characteristics with the squares.
    Features,
    /// The squares alone (the baseline).
    Squares,
}

impl Inputs {
    pub const ALL: [Inputs; 2] = [Inputs::Features, Inputs::Squares];

    /// The columns read.
    pub fn cols(self) -> std::ops::Range<usize> {
        match self {
            Inputs::Features => 0..N_COLS,
            Inputs::Squares => 0..6,
        }
    }

    /// The name in files.
    pub fn name(self) -> &'static str {
        match self {
            Inputs::Features => "features",
            Inputs::Squares => "squares",
        }
    }
}

/// A class's place on the ordered depth scale of the mean absolute error: Black's moves to mate,
/// and `draw` (class 0) at `draw_depth` (the declaration's 17, one past sixteen).
pub fn depth(class: u8, draw_depth: u8) -> u8 {
    if class == 0 { draw_depth } else { class - 1 }
}

/// A multi-class learner: a deterministic fit for a given seed.
pub trait KrkLearner: Sync {
    /// Its name in the declaration and the files (`tree`, `naive_bayes`, …).
    fn name(&self) -> &'static str;
    fn fit(&self, rows: &[KrkRow], classes: &[u8], inputs: Inputs, seed: u64) -> Box<dyn KrkModel>;
}

/// A fitted model: the class it answers for each row.
pub trait KrkModel: Send + Sync {
    fn predict_all(&self, rows: &[KrkRow]) -> Vec<u8>;
}

/// The learners' names in the report's order, the paper's MLP last.
pub const NAMES: [&str; 5] = ["tree", "naive_bayes", "logistic", "knn", MLP];

/// The paper's MLP, the learner the others are compared against.
pub const MLP: &str = "mlp";

/// The most frequent class of `counts`, ties to the lower class.
pub fn majority(counts: &[u32]) -> u8 {
    let mut best = 0;
    for (c, &n) in counts.iter().enumerate() {
        if n > counts[best] {
            best = c;
        }
    }
    best as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_stands_past_sixteen_and_ties_go_to_the_lower_class() {
        assert_eq!([0, 1, 17].map(|c| depth(c, 17)), [17, 0, 16]);
        assert_eq!(majority(&[1, 3, 3, 2]), 1);
        assert_eq!(majority(&[0, 0]), 0);
    }
}
