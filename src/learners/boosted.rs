//! `boosted_trees`: gradient-boosted trees under the logistic loss (Friedman 2001, with
//! XGBoost's second-order leaf values and split gain `G² / (H + λ)`).
//!
//! The score `F` is kept as an integer in units of 2⁻¹⁰ from the start, so that training sees
//! exactly the model that is stored: a base score and each leaf's value (the Newton step
//! `−G / (H + λ)` times the learning rate) are rounded to 16-bit integers, and a position is a
//! win when `F > 0`. Each round fits a tree on a seeded row subsample (`ChaCha8Rng`), the only
//! random choice.
//!
//! # Encoding
//!
//! 16 bits of base score, 16 bits of tree count, then each tree as [`super::tree`] encodes it with
//! 16-bit leaves.

use super::tree::{Criterion, Limits, Tree, grow};
use super::{InputSet, Learner, Model, Row, Samples};
use crate::error::Result;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One unit of the integer score: 2⁻¹⁰.
const SCALE: f64 = 1024.0;
/// Leaf and base values are 16-bit.
const VALUE_BITS: u64 = 16;

fn quantise(v: f64) -> i32 {
    (v * SCALE).round().clamp(-32767.0, 32767.0) as i32
}

/// Gradient boosting's settings (all ours: common defaults for small tabular data).
#[derive(Clone, Copy, Debug)]
pub struct Boosted {
    pub rounds: usize,
    pub depth: usize,
    pub rate: f64,
    /// Fraction of positions each round's tree sees.
    pub subsample: f64,
    /// L2 penalty on leaf values (λ).
    pub lambda: f64,
}

impl Default for Boosted {
    fn default() -> Boosted {
        Boosted { rounds: 100, depth: 4, rate: 0.3, subsample: 0.8, lambda: 1.0 }
    }
}

/// A fitted ensemble.
pub struct BoostedModel {
    base: i32,
    trees: Vec<Tree>,
}

impl BoostedModel {
    fn score(&self, x: &Row) -> i32 {
        self.base + self.trees.iter().map(|t| t.value(x)).sum::<i32>()
    }
}

impl Model for BoostedModel {
    fn predict(&self, x: &Row) -> bool {
        self.score(x) > 0
    }
    /// The logistic of the summed score (a log-odds in units of 2⁻¹⁰).
    fn win_probability(&self, x: &Row) -> Option<f64> {
        Some(1.0 / (1.0 + (-f64::from(self.score(x)) / SCALE).exp()))
    }
    fn model_bits(&self) -> u64 {
        2 * VALUE_BITS + self.trees.iter().map(Tree::bits).sum::<u64>()
    }
    fn passes(&self) -> u64 {
        self.trees.len() as u64
    }
}

impl Learner for Boosted {
    fn name(&self) -> &'static str {
        "boosted_trees"
    }
    fn variant(&self) -> String {
        let main = Boosted::default();
        if (self.rounds, self.depth) == (main.rounds, main.depth) {
            String::new()
        } else {
            format!("{} rounds, depth {}", self.rounds, self.depth)
        }
    }
    fn fit(&self, data: &Samples, inputs: InputSet, seed: u64) -> Result<Box<dyn Model>> {
        let n = data.len();
        let y: Vec<f64> = data.wins.iter().map(|&w| f64::from(u8::from(w))).collect();
        let mean = (y.iter().sum::<f64>() / n.max(1) as f64).clamp(1e-6, 1.0 - 1e-6);
        let base = quantise((mean / (1.0 - mean)).ln());
        let mut score = vec![base; n];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let lambda = self.lambda;
        let rate = self.rate;
        let crit = Criterion {
            score: &|g, h| g * g / (h + lambda),
            leaf: &|g, h| quantise(-g / (h + lambda) * rate),
            leaf_bits: VALUE_BITS,
        };
        let mut trees = Vec::with_capacity(self.rounds);
        for _ in 0..self.rounds {
            let stats: Vec<(f64, f64)> = score
                .iter()
                .zip(&y)
                .map(|(&f, &t)| {
                    let p = 1.0 / (1.0 + (-f64::from(f) / SCALE).exp());
                    (p - t, (p * (1.0 - p)).max(1e-12))
                })
                .collect();
            let idx: Vec<usize> = (0..n).filter(|_| rng.random::<f64>() < self.subsample).collect();
            let limits = Limits { max_depth: Some(self.depth), min_leaf: 1 };
            let tree = grow(&data.rows, idx, &stats, inputs, limits, &crit);
            for (s, x) in score.iter_mut().zip(&data.rows) {
                *s += tree.value(x);
            }
            trees.push(tree);
        }
        Ok(Box::new(BoostedModel { base, trees }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boosting_learns_a_threshold_and_is_seeded() {
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] + r[1] > 8).collect();
        let data = Samples { rows: rows.clone(), wins: wins.clone(), dtc: vec![None; 64] };
        let b = Boosted { rounds: 40, ..Boosted::default() };
        let m1 = b.fit(&data, InputSet::Coordinates, 3).unwrap();
        let m2 = b.fit(&data, InputSet::Coordinates, 3).unwrap();
        assert!(data.accuracy_pct(m1.as_ref()) > 95.0);
        assert!(rows.iter().all(|r| m1.predict(r) == m2.predict(r)));
        assert_eq!(m1.model_bits(), m2.model_bits());
    }
}
