//! `random_forest`: Breiman's random forest (2001) of CART trees on the characteristics.
//!
//! Each of `trees` trees is grown on a bootstrap sample of the training positions (n drawn with
//! replacement; a position drawn k times counts k times) until its leaves are pure, by Gini's
//! impurity as [`super::tree`] grows it (a split sends a position left when `x[col] ≤ lo + t`).
//! At each node the columns of the input set are tried in a random order, and the search stops
//! after `max_features` of them once one has given a split that gains (as scikit-learn's: it
//! goes on past `max_features` only while no split has been found). A leaf stores its share of
//! wins in 1/255 units (8 bits); the forest answers a win when the mean stored share is above
//! one half, from exactly the stored integers. Seeded: ChaCha8 from the learner's seed draws each
//! tree's sample and column orders.
//!
//! # Encoding
//!
//! The trees one after another, each in [`super::tree`]'s preorder layout with 8-bit leaves.

use super::tree::{Node, Tree};
use super::{InputSet, Learner, Model, Row, Samples, value_range};
use crate::error::Result;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A leaf's share of wins is stored in units of 1/255.
const SHARE: f64 = 255.0;

/// The random forest's settings (scikit-learn's defaults: 100 trees, ⌊√32⌋ = 5 columns a split).
#[derive(Clone, Copy, Debug)]
pub struct Forest {
    pub trees: usize,
    pub max_features: usize,
}

impl Default for Forest {
    fn default() -> Forest {
        Forest { trees: 100, max_features: 5 }
    }
}

/// A fitted forest.
pub struct ForestModel {
    trees: Vec<Tree>,
}

impl ForestModel {
    /// The mean stored share of wins over the trees, in [0, 1].
    pub fn share(&self, x: &Row) -> f64 {
        let sum: i64 = self.trees.iter().map(|t| i64::from(t.value(x))).sum();
        sum as f64 / (SHARE * self.trees.len().max(1) as f64)
    }
}

impl Model for ForestModel {
    fn predict(&self, x: &Row) -> bool {
        // Above one half: 2 · Σ shares > 255 · trees, in integers.
        let sum: i64 = self.trees.iter().map(|t| i64::from(t.value(x))).sum();
        2 * sum > 255 * self.trees.len() as i64
    }
    fn model_bits(&self) -> u64 {
        self.trees.iter().map(Tree::bits).sum()
    }
    fn passes(&self) -> u64 {
        self.trees.len() as u64
    }
    fn win_probability(&self, x: &Row) -> Option<f64> {
        Some(self.share(x))
    }
}

/// One node's positions: (index, times drawn).
type Weighted = Vec<(usize, u32)>;

struct Grower<'a> {
    data: &'a Samples,
    cols: Vec<usize>,
    max_features: usize,
}

impl Grower<'_> {
    fn grow(&self, idx: Weighted, rng: &mut ChaCha8Rng, level: usize, depth: &mut usize) -> Node {
        *depth = (*depth).max(level);
        let (w, n) =
            idx.iter().fold((0u32, 0u32), |(w, n), &(i, k)| (w + k * u32::from(self.data.wins[i]), n + k));
        let leaf = Node::Leaf((SHARE * f64::from(w) / f64::from(n.max(1))).round() as i32);
        if w == 0 || w == n {
            return leaf;
        }
        let Some((col, t)) = self.best_split(&idx, rng, (f64::from(w), f64::from(n))) else {
            return leaf;
        };
        let lo = value_range(col).0;
        let (l, r): (Weighted, Weighted) = idx
            .into_iter()
            .partition(|&(i, _)| (i16::from(self.data.rows[i][col]) - i16::from(lo)) as usize <= t);
        let left = self.grow(l, rng, level + 1, depth);
        let right = self.grow(r, rng, level + 1, depth);
        Node::Split { col: col as u8, t: t as u8, left: Box::new(left), right: Box::new(right) }
    }

    /// The best Gini split over a random order of the columns, looking at `max_features` of them
    /// and on past them only until one split gains.
    fn best_split(&self, idx: &Weighted, rng: &mut ChaCha8Rng, (w, n): (f64, f64)) -> Option<(usize, usize)> {
        let gini = |w: f64, n: f64| if n <= 0.0 { 0.0 } else { (w * w + (n - w) * (n - w)) / n };
        let parent = gini(w, n);
        let mut order = self.cols.clone();
        order.shuffle(rng);
        let mut best: Option<(usize, usize, f64)> = None;
        for (tried, &col) in order.iter().enumerate() {
            if tried >= self.max_features && best.is_some() {
                break;
            }
            let (lo, size) = value_range(col);
            let mut hist = [(0.0f64, 0.0f64); 16];
            for &(i, k) in idx {
                let h = &mut hist[(self.data.rows[i][col] - lo) as usize];
                h.0 += f64::from(k * u32::from(self.data.wins[i]));
                h.1 += f64::from(k);
            }
            let (mut lw, mut ln) = (0.0, 0.0);
            for (t, h) in hist.iter().enumerate().take(size.saturating_sub(1)) {
                lw += h.0;
                ln += h.1;
                if ln <= 0.0 || ln >= n {
                    continue;
                }
                let gain = gini(lw, ln) + gini(w - lw, n - ln) - parent;
                if gain > 1e-9 && best.is_none_or(|(_, _, g)| gain > g + 1e-12) {
                    best = Some((col, t, gain));
                }
            }
        }
        best.map(|(c, t, _)| (c, t))
    }
}

impl Learner for Forest {
    fn name(&self) -> &'static str {
        "random_forest"
    }
    fn variant(&self) -> String {
        format!("{} trees, {} columns a split", self.trees, self.max_features)
    }
    fn fit(&self, data: &Samples, inputs: InputSet, seed: u64) -> Result<Box<dyn Model>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let grower = Grower {
            data,
            cols: inputs.cols().filter(|&c| value_range(c).1 > 1).collect(),
            max_features: self.max_features.max(1),
        };
        let n = data.len();
        let trees = (0..self.trees)
            .map(|_| {
                let mut times = vec![0u32; n];
                for _ in 0..n {
                    times[rng.random_range(0..n)] += 1;
                }
                let idx: Weighted = times.into_iter().enumerate().filter(|&(_, k)| k > 0).collect();
                let mut depth = 0;
                let root = grower.grow(idx, &mut rng, 0, &mut depth);
                Tree { root, leaf_bits: 8, inputs, depth }
            })
            .collect();
        Ok(Box::new(ForestModel { trees }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forest_learns_a_two_column_rule_and_is_fixed_by_its_seed() {
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] >= 5 && r[1] <= 3).collect();
        let data = Samples { rows: rows.clone(), wins, dtc: vec![None; 64] };
        let forest = Forest { trees: 25, max_features: 2 };
        let m = forest.fit(&data, InputSet::Coordinates, 3).unwrap();
        assert_eq!(data.accuracy_pct(m.as_ref()), 100.0);
        let again = forest.fit(&data, InputSet::Coordinates, 3).unwrap();
        assert_eq!(m.model_bits(), again.model_bits());
        assert!(rows.iter().all(|r| m.win_probability(r) == again.win_probability(r)));
    }
}
