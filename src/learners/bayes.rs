//! `naive_bayes`: Bayesian classification in Buro's spirit (Buro 1995: an evaluation function as
//! a sum of per-feature log-likelihood ratios, each feature a categorical value).
//!
//! Each characteristic of the input set is read as a category (its natural value). With additive
//! smoothing (add α to every count; α = 1, Laplace's, in `kpk learners`), value `v` of column `c`
//! contributes
//! `ln P(v | win) − ln P(v | draw)`, and the prior `ln((wins + 1) / (draws + 1))` starts the sum.
//! The stored model is these numbers in units of 1/8, rounded: the prior to 16 bits, each ratio
//! to 8 bits (−127..=127); a position is a win when their sum is above 0. Predictions come from
//! the rounded integers, so the stored model is the model measured.
//!
//! # Encoding
//!
//! 16 bits of prior, then for each column of the input set in order, one 8-bit ratio per value of
//! its legal range.

use super::{InputSet, Learner, Model, Row, Samples, value_range};
use crate::error::Result;

/// Units of the stored log ratios: 1/8.
const SCALE: f64 = 8.0;

/// Categorical naive Bayes; deterministic.
#[derive(Clone, Copy, Debug)]
pub struct NaiveBayes {
    /// The count added to every (value, class) count of a column.
    pub alpha: f64,
}

impl Default for NaiveBayes {
    fn default() -> NaiveBayes {
        NaiveBayes { alpha: 1.0 }
    }
}

/// The rounded log-ratio tables.
pub struct BayesModel {
    prior: i32,
    /// Per column of the input set: one ratio per legal value.
    tables: Vec<(usize, Vec<i32>)>,
}

impl Model for BayesModel {
    fn predict(&self, x: &Row) -> bool {
        let sum: i32 = self
            .tables
            .iter()
            .map(|(c, t)| t[(i16::from(x[*c]) - i16::from(value_range(*c).0)) as usize])
            .sum();
        self.prior + sum > 0
    }
    /// The logistic of the summed stored log ratios.
    fn win_probability(&self, x: &Row) -> Option<f64> {
        let sum: i32 = self
            .tables
            .iter()
            .map(|(c, t)| t[(i16::from(x[*c]) - i16::from(value_range(*c).0)) as usize])
            .sum();
        Some(1.0 / (1.0 + (-f64::from(self.prior + sum) / SCALE).exp()))
    }
    fn model_bits(&self) -> u64 {
        16 + self.tables.iter().map(|(_, t)| 8 * t.len() as u64).sum::<u64>()
    }
    fn passes(&self) -> u64 {
        1
    }
}

impl Learner for NaiveBayes {
    fn name(&self) -> &'static str {
        "naive_bayes"
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        let wins = data.wins.iter().filter(|&&w| w).count() as f64;
        let draws = data.len() as f64 - wins;
        let prior = ((wins + 1.0) / (draws + 1.0)).ln();
        let tables = inputs
            .cols()
            .map(|c| {
                let (lo, size) = value_range(c);
                let mut counts = vec![(0.0f64, 0.0f64); size];
                for (x, &w) in data.rows.iter().zip(&data.wins) {
                    let k = &mut counts[(x[c] - lo) as usize];
                    if w {
                        k.0 += 1.0;
                    } else {
                        k.1 += 1.0;
                    }
                }
                let s = size as f64;
                let table = counts
                    .iter()
                    .map(|&(w, d)| {
                        let a = self.alpha;
                        let llr = ((w + a) / (wins + a * s)).ln() - ((d + a) / (draws + a * s)).ln();
                        (llr * SCALE).round().clamp(-127.0, 127.0) as i32
                    })
                    .collect();
                (c, table)
            })
            .collect();
        Ok(Box::new(BayesModel { prior: (prior * SCALE).round().clamp(-32767.0, 32767.0) as i32, tables }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_telling_value_decides_and_the_tables_are_sized_by_range() {
        // x1 = 8 always wins, other files draw: the ratio of x1 = 8 outweighs the rest.
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] == 8).collect();
        let data = Samples { rows: rows.clone(), wins: wins.clone(), dtc: vec![None; 64] };
        let m = NaiveBayes::default().fit(&data, InputSet::Coordinates, 0).unwrap();
        assert_eq!(data.accuracy_pct(m.as_ref()), 100.0);
        // x1..x6 have 8 + 8 + 8 + 8 + 4 + 6 = 42 legal values.
        assert_eq!(m.model_bits(), 16 + 8 * 42);
    }
}
