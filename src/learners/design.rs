//! The declared design of section 7's comparison (`experiments/learners_powered.toml`): the draws
//! per training size, the MLP's two budgets, the primaries that answer section 7's question, the
//! equivalence margin, α and the power the draws were sized for. Read, checked, and copied into
//! `reports/learners.json` so that a test can hold the results to the committed declaration.
//!
//! The design (section 7 asks how effective each kind of agent is on one characterisation):
//! for each side and each training size n, seeded draws of n positions of that side
//! ([`super::draws::training_draw`]); every learner trains on the same draw (paired by draw) and is
//! tested on every position of that side not in it. The primaries are read at the paper's size
//! (wtm 125 as T1, btm 136 as T2: [`SMALL_SET_SIZE`]) with Table 4's x1..x32; every other size,
//! the raw squares x1..x6 and the converged MLP are exploratory.

use super::{InputSet, NAMES};
use crate::dataset::{SMALL_SET_SIZE, Side};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The converged MLP's name in the files (the paper's MLP is [`NAMES`]' `mlp`).
pub const CONVERGED: &str = "mlp_converged";

/// The quantised net hybrid of `kpk compress` (the bytes primary's comparator).
pub const HYBRID: &str = "hybrid";

/// The most draws a cell may ask for, and the largest training size (a side has 81,664 or
/// 84,012 positions; at least half stays for testing).
pub const MAX_DRAWS: usize = 1000;
pub const MAX_SIZE: usize = 40_000;

/// What a contrast of the learners compares (a primary: testing accuracy or bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Testing accuracy in % on every position of the side outside the draw.
    TestPct,
    /// Accuracy in % on the whole set trained on (T3: every wtm position); exploratory only.
    TrainPct,
    /// Bytes of the exact model on the whole side (fewer is better).
    ExactBytes,
}

impl crate::stats::contrast::Measure for Measure {
    fn higher_is_better(self) -> bool {
        self != Measure::ExactBytes
    }

    fn column(self) -> &'static str {
        match self {
            Measure::TestPct => "test_pct",
            Measure::TrainPct => "train_pct",
            Measure::ExactBytes => "exact_bytes",
        }
    }
}

/// An arm of a contrast: a learner (or the hybrid) fed an input set (none for the hybrid's
/// file, which reads the position itself), on one side, trained on `n` positions of it (none
/// for the bytes primary's files).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arm {
    pub learner: String,
    pub inputs: Option<InputSet>,
    pub side: Side,
    pub n: Option<usize>,
}

/// A contrast of section 7's learners: a declared primary (read by
/// [`crate::stats::contrast::read_with_equivalence`]) or an exploratory one.
pub type LearnerContrast = crate::stats::contrast::Contrast<Arm, Measure>;

/// A primary contrast: a − b.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Primary {
    pub name: String,
    pub a: String,
    pub b: String,
    pub side: Side,
    pub measure: Measure,
    /// The claim "a beats b" in words, and where section 7 asks it.
    pub claim: String,
}

/// The MLP's two budgets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MlpBudgets {
    /// The Table 5 trials whose config (topology, coding, stopping rule) the paper's MLP runs:
    /// wtm (T1's trial) and btm (T2's trial).
    pub wtm_trial: String,
    pub btm_trial: String,
    /// The converged MLP: the same trial's net and step, no error target; it stops after
    /// `converged_patience` epochs without a gain in the training set's correct count, or after
    /// `converged_presentations` presentations of a position (at most `converged_max_epochs`
    /// epochs), whichever comes first.
    pub converged_patience: usize,
    pub converged_presentations: usize,
    pub converged_max_epochs: usize,
}

impl MlpBudgets {
    /// The converged MLP's epoch cap on `n` training positions.
    pub fn converged_epochs(&self, n: usize) -> usize {
        (self.converged_presentations / n.max(1)).clamp(1, self.converged_max_epochs)
    }
}

/// The declared design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Design {
    /// Seeds every draw ([`super::draws::training_draw`]).
    pub seed: u64,
    /// Family-wise error rate of each family (superiority; equivalence), Holm over the primaries.
    pub alpha: f64,
    /// The power the draws at the paper's size were sized for, at Holm's most stringent level.
    pub power: f64,
    /// Equivalence margin in points of testing accuracy (TOST).
    pub margin: f64,
    /// The largest minimal detectable difference allowed to an accuracy primary, points.
    pub max_mdd: f64,
    /// The paired SD the draws were sized for, points (the argument is in the declaration).
    pub assumed_sd: f64,
    /// Draws at the paper's size (wtm 125, btm 136).
    pub paper_draws: usize,
    /// The other training sizes and their draws.
    pub sizes: Vec<usize>,
    pub draws: Vec<usize>,
    /// Seeds of the quantised net hybrid (the bytes primary's comparator).
    pub hybrid_seeds: usize,
    pub mlp: MlpBudgets,
    #[serde(rename = "primary")]
    pub primaries: Vec<Primary>,
}

/// One training size of a side and its draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    pub side: Side,
    pub n: usize,
    pub draws: usize,
}

/// The paper's training size on `side` (T1's 125, T2's 136).
pub fn paper_size(side: Side) -> usize {
    SMALL_SET_SIZE[usize::from(side == Side::Btm)]
}

/// The two sides of the comparison, in the report's order.
pub const SIDES: [Side; 2] = [Side::Wtm, Side::Btm];

impl Design {
    /// Read and check a declaration.
    pub fn load(path: &Path) -> Result<Design> {
        let text = crate::io::read_config(path)?;
        let design: Design = toml::from_str(&text).map_err(|e| Error::Format {
            path: path.display().to_string(),
            message: e.message().trim().to_string(),
        })?;
        design.check().map_err(|e| e.in_file(path))?;
        Ok(design)
    }

    /// Every cell of a side, the paper's size first.
    pub fn cells(&self, side: Side) -> Vec<Cell> {
        std::iter::once(Cell { side, n: paper_size(side), draws: self.paper_draws })
            .chain(self.sizes.iter().zip(&self.draws).map(|(&n, &draws)| Cell { side, n, draws }))
            .collect()
    }

    /// The draw's training positions ([`super::draws::training_draw`] under this design's seed).
    pub fn training_draw(&self, side: Side, n: usize, draw: usize) -> Vec<usize> {
        super::draws::training_draw(self.seed, side, n, draw)
    }

    /// The accuracy primaries (those on testing accuracy).
    pub fn accuracy_primaries(&self) -> impl Iterator<Item = &Primary> {
        self.primaries.iter().filter(|p| p.measure == Measure::TestPct)
    }

    pub fn check(&self) -> Result<()> {
        let unit = |key: &str, v: f64| {
            if v > 0.0 && v < 1.0 { Ok(()) } else { Err(Error::config(key, format!("{v} is not in (0, 1)"))) }
        };
        unit("alpha", self.alpha)?;
        unit("power", self.power)?;
        for (key, v) in [("margin", self.margin), ("max_mdd", self.max_mdd), ("assumed_sd", self.assumed_sd)]
        {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::config(key, format!("{v} must be a positive number")));
            }
        }
        if self.sizes.len() != self.draws.len() {
            return Err(Error::config("draws", "gives one count per size in `sizes`"));
        }
        let counts = self.draws.iter().chain([&self.paper_draws, &self.hybrid_seeds]);
        if let Some(d) = counts.into_iter().find(|&&d| !(2..=MAX_DRAWS).contains(&d)) {
            return Err(Error::config("draws", format!("{d} is outside 2..={MAX_DRAWS}")));
        }
        if let Some(n) = self.sizes.iter().find(|&&n| !(2..=MAX_SIZE).contains(&n)) {
            return Err(Error::config("sizes", format!("{n} is outside 2..={MAX_SIZE}")));
        }
        let m = &self.mlp;
        if [m.converged_patience, m.converged_presentations, m.converged_max_epochs].contains(&0) {
            return Err(Error::config("mlp", "the converged MLP's budgets must be at least 1"));
        }
        self.check_primaries()
    }

    fn check_primaries(&self) -> Result<()> {
        let known = |l: &str| NAMES.contains(&l) || l == CONVERGED;
        for (i, p) in self.primaries.iter().enumerate() {
            let bad = |why: String| Err(Error::config("primary", why).context(format!("primary {}", i + 1)));
            if p.side == Side::Both {
                return bad("a primary is on one side, wtm or btm".into());
            }
            let ok = match p.measure {
                Measure::TestPct => known(&p.a) && known(&p.b) && p.a != p.b,
                Measure::ExactBytes => p.a == "tree" && p.b == HYBRID && p.side == Side::Wtm,
                Measure::TrainPct => false,
            };
            if !ok {
                return bad(format!(
                    "'{} − {}' on {} is not a comparison this design measures",
                    p.a, p.b, p.side
                ));
            }
            if self.primaries[..i].iter().any(|q| q.name == p.name) {
                return bad(format!("'{}' appears twice", p.name));
            }
        }
        if self.primaries.is_empty() {
            return Err(Error::config("primary", "no primary: declare the ones that answer section 7"));
        }
        Ok(())
    }
}
