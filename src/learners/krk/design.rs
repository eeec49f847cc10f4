//! The declared design of section 7's learners on KRK (`experiments/krk_learners.toml`): the
//! training sizes and their draws, the learners' settings, the primaries, α, the margin and the
//! power the draws at the primary size were sized for. Read, checked, and copied into
//! `reports/krk_learners.json` so that the report shows exactly what was declared.

use super::{Inputs, NAMES};
use crate::error::{Error, Result};
use crate::learners::draws::{chacha_key, shuffled};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The tree's setting: the fewest rows a node must hold to be split.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeSettings {
    pub min_split: usize,
}

/// k of k nearest neighbours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnnSettings {
    pub k: usize,
}

/// The softmax nets' training (the MLP's hidden layers; the 1-level net has none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MlpSettings {
    pub hidden: Vec<usize>,
    pub rate: f64,
    pub momentum: f64,
    pub batch: usize,
    pub max_epochs: usize,
    /// The presentations of a row a fit may use: min(max_epochs, presentations / n) epochs.
    pub presentations: usize,
}

impl MlpSettings {
    /// Epochs on `n` training rows (at least one).
    pub fn epochs(&self, n: usize) -> usize {
        (self.presentations / n.max(1)).clamp(1, self.max_epochs)
    }
}

/// The design cut for a test: fewer sizes and draws, a smaller budget for the nets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reduced {
    pub sizes: Vec<usize>,
    pub draws: Vec<usize>,
    pub presentations: usize,
}

/// A primary contrast: `a` with `inputs` minus `b` with `b_inputs` (the same inputs when absent),
/// in testing accuracy at the primary size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Primary {
    pub name: String,
    pub a: String,
    pub b: String,
    pub inputs: Inputs,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_inputs: Option<Inputs>,
    pub claim: String,
}

impl Primary {
    /// The inputs of arm b.
    pub fn b_inputs(&self) -> Inputs {
        self.b_inputs.unwrap_or(self.inputs)
    }
}

/// The declared design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Design {
    pub seed: u64,
    pub alpha: f64,
    pub power: f64,
    /// Equivalence margin, points of testing accuracy.
    pub margin: f64,
    /// The paired SD the draws at the primary size were sized for, points.
    pub assumed_sd: f64,
    /// The largest minimal detectable difference the declaration allows a primary, points.
    pub max_mdd: f64,
    pub primary_size: usize,
    pub sizes: Vec<usize>,
    pub draws: Vec<usize>,
    /// Where `draw` stands on the MAE's ordered depth scale.
    pub class_draw_depth: u8,
    pub tree: TreeSettings,
    pub knn: KnnSettings,
    pub mlp: MlpSettings,
    pub reduced: Reduced,
    #[serde(rename = "primary")]
    pub primaries: Vec<Primary>,
}

/// The UCI set's rows: at least this many stay untrained at every size.
pub const MIN_TEST: usize = 1000;

impl Design {
    /// Read and check a declaration.
    pub fn load(path: &Path, rows: usize) -> Result<Design> {
        let text = crate::io::read_config(path)?;
        let design: Design = toml::from_str(&text).map_err(|e| Error::Format {
            path: path.display().to_string(),
            message: e.message().trim().to_string(),
        })?;
        design.check(rows).map_err(|e| e.in_file(path))?;
        Ok(design)
    }

    /// The same design on the reduced sizes, draws and budget.
    pub fn reduced(&self) -> Design {
        let mut d = self.clone();
        d.sizes = self.reduced.sizes.clone();
        d.draws = self.reduced.draws.clone();
        d.mlp.presentations = self.reduced.presentations;
        d
    }

    /// The draws at the primary size.
    pub fn primary_draws(&self) -> usize {
        self.sizes.iter().zip(&self.draws).find(|(n, _)| **n == self.primary_size).map_or(0, |(_, d)| *d)
    }

    /// The rows of draw `draw` of size `n` (indices into the set of `rows` rows, ascending): the
    /// first n of a partial Fisher-Yates shuffle by ChaCha8 seeded from (seed, n, draw), each a
    /// little-endian u64.
    pub fn training_draw(&self, rows: usize, n: usize, draw: usize) -> Vec<usize> {
        let mut pool = shuffled(&mut ChaCha8Rng::from_seed(self.key(n, draw, 0)), rows, n);
        pool.sort_unstable();
        pool
    }

    /// The learners' seed for draw `draw` of size `n`.
    pub fn learner_seed(&self, n: usize, draw: usize) -> u64 {
        ChaCha8Rng::from_seed(self.key(n, draw, 1)).random()
    }

    fn key(&self, n: usize, draw: usize, purpose: u64) -> [u8; 32] {
        chacha_key([self.seed, n as u64, draw as u64, purpose])
    }

    fn check(&self, rows: usize) -> Result<()> {
        let unit = |key: &str, v: f64| {
            if v > 0.0 && v < 1.0 { Ok(()) } else { Err(Error::config(key, format!("{v} is not in (0, 1)"))) }
        };
        unit("alpha", self.alpha)?;
        unit("power", self.power)?;
        for (key, v) in [("margin", self.margin), ("assumed_sd", self.assumed_sd), ("max_mdd", self.max_mdd)]
        {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::config(key, format!("{v} is not positive")));
            }
        }
        for (key, sizes, draws) in
            [("draws", &self.sizes, &self.draws), ("reduced", &self.reduced.sizes, &self.reduced.draws)]
        {
            if sizes.len() != draws.len() || sizes.is_empty() {
                return Err(Error::config(key, "needs draws per size"));
            }
            if let Some(n) = sizes.iter().find(|&&n| n < 10 || n + MIN_TEST > rows) {
                return Err(Error::config(key, format!("size {n} is outside 10..={}", rows - MIN_TEST)));
            }
            if let Some(d) = draws.iter().find(|&&d| !(2..=1000).contains(&d)) {
                return Err(Error::config(key, format!("{d} draws is outside 2..=1000")));
            }
        }
        if self.primary_draws() == 0 {
            return Err(Error::config("primary_size", "is not a size"));
        }
        let m = &self.mlp;
        if m.batch == 0 || m.max_epochs == 0 || m.presentations == 0 || self.reduced.presentations == 0 {
            return Err(Error::config("mlp", "budgets must be positive"));
        }
        if self.knn.k == 0 || self.tree.min_split < 2 {
            return Err(Error::config("knn", "k < 1 or min_split < 2"));
        }
        self.check_primaries()
    }

    fn check_primaries(&self) -> Result<()> {
        for (i, p) in self.primaries.iter().enumerate() {
            let known = NAMES.contains(&p.a.as_str()) && NAMES.contains(&p.b.as_str());
            if !known || (p.a == p.b && p.inputs == p.b_inputs()) {
                return Err(Error::config("primary", format!("'{}' compares nothing declared", p.name))
                    .context(format!("primary {}", i + 1)));
            }
            if self.primaries[..i].iter().any(|q| q.name == p.name) {
                return Err(Error::config("primary", format!("'{}' appears twice", p.name)));
            }
        }
        if self.primaries.is_empty() {
            return Err(Error::config("primary", "no primary declared"));
        }
        Ok(())
    }
}
