//! `knn`: k nearest neighbours (Fix and Hodges 1951; Cover and Hart 1967), the lazy learner.
//!
//! Each characteristic of the input set is scaled by its legal range to [0, 1] (a constant one,
//! x13, to 0), so that no characteristic weighs more for its units; a position's neighbours are
//! the k training positions nearest by Euclidean distance on the scaled values, ties of distance
//! to the earlier training position, and the position is a win when more than half of them are.
//! Deterministic: no seed.
//!
//! # Encoding
//!
//! The training positions themselves: for each, every column of the input set in ⌈log2(size)⌉
//! bits of its legal range, and one bit of its class; and k in 8 bits.

use super::{InputSet, Learner, Model, Row, Samples, bits_for, value_range};
use crate::error::Result;

/// Column `c` of `x` scaled by its legal range to [0, 1] (0 for a constant column).
pub fn unit_scaled(x: &Row, c: usize) -> f64 {
    let (lo, size) = value_range(c);
    if size < 2 { 0.0 } else { f64::from(x[c] - lo) / (size - 1) as f64 }
}

/// The scaled columns of `inputs` of every row.
pub fn scaled_rows(rows: &[Row], inputs: InputSet) -> Vec<Vec<f64>> {
    rows.iter().map(|x| inputs.cols().map(|c| unit_scaled(x, c)).collect()).collect()
}

/// k nearest neighbours' settings (scikit-learn's default k: 5).
#[derive(Clone, Copy, Debug)]
pub struct Knn {
    pub k: usize,
}

impl Default for Knn {
    fn default() -> Knn {
        Knn { k: 5 }
    }
}

/// The training positions, scaled, and their classes.
pub struct KnnModel {
    k: usize,
    inputs: InputSet,
    points: Vec<Vec<f64>>,
    wins: Vec<bool>,
}

impl KnnModel {
    /// Wins among the k nearest training positions of `x`, and k (fewer if the set is smaller).
    fn votes(&self, x: &Row) -> (usize, usize) {
        let q: Vec<f64> = self.inputs.cols().map(|c| unit_scaled(x, c)).collect();
        let mut d: Vec<(f64, usize)> = self
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| (p.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum::<f64>(), i))
            .collect();
        let k = self.k.min(d.len());
        if k == 0 {
            return (0, 0);
        }
        d.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        (d[..k].iter().filter(|&&(_, i)| self.wins[i]).count(), k)
    }
}

impl Model for KnnModel {
    fn predict(&self, x: &Row) -> bool {
        let (w, k) = self.votes(x);
        2 * w > k
    }
    fn model_bits(&self) -> u64 {
        let row: u64 = self.inputs.cols().map(|c| bits_for(value_range(c).1)).sum();
        8 + self.points.len() as u64 * (row + 1)
    }
    fn passes(&self) -> u64 {
        1
    }
    fn win_probability(&self, x: &Row) -> Option<f64> {
        let (w, k) = self.votes(x);
        Some(w as f64 / k.max(1) as f64)
    }
}

impl Learner for Knn {
    fn name(&self) -> &'static str {
        "knn"
    }
    fn variant(&self) -> String {
        format!("k {}", self.k)
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        Ok(Box::new(KnnModel {
            k: self.k.max(1),
            inputs,
            points: scaled_rows(&data.rows, inputs),
            wins: data.wins.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_neighbour_recalls_its_training_set_and_three_outvote_one_stray() {
        let rows = crate::learners::grid_rows();
        let mut wins: Vec<bool> = rows.iter().map(|r| r[0] >= 5).collect();
        wins[63] = false; // x1 = 8, x2 = 8: a stray draw among wins
        let data = Samples { rows: rows.clone(), wins: wins.clone(), dtc: vec![None; 64] };
        let one = Knn { k: 1 }.fit(&data, InputSet::Coordinates, 0).unwrap();
        assert_eq!(data.accuracy_pct(one.as_ref()), 100.0);
        let three = Knn { k: 3 }.fit(&data, InputSet::Coordinates, 0).unwrap();
        assert!(three.predict(&rows[63]));
        assert_eq!(three.win_probability(&rows[63]), Some(2.0 / 3.0));
    }
}
