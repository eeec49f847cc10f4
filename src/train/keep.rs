//! Which end-of-epoch state a training run keeps (section 4.5's choice and kpk's default).

use serde::{Deserialize, Serialize};

/// Which end-of-epoch state [`train`](super::train) returns; a trial config's `keep` (written `most_correct`,
/// `least_error`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BestState {
    /// Section 4.5 read literally: the least error measure (the earliest epoch on a tie).
    LeastError,
    /// The most training positions classified correctly at m = 0 (section 4.3's plain reading,
    /// as Tables 5 and 6 count; the margin only enters the stopping rule), then the least error
    /// measure, then the earliest epoch. The default, and every Table 5 config's choice: with E2
    /// the least-error state is degenerate (see the module docs).
    #[default]
    MostCorrect,
}

impl BestState {
    /// The rank of an end-of-epoch state, given the training positions it gets wrong at m = 0
    /// and its error measure: the kept state has the least rank, the earliest on a tie.
    pub fn rank(self, wrong_m0: usize, measure: f64) -> (usize, f64) {
        match self {
            BestState::LeastError => (0, measure),
            BestState::MostCorrect => (wrong_m0, measure),
        }
    }
}
