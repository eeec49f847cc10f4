//! Categorical naive Bayes on KRK rows: each column's value is taken as independent of the others
//! given the class; the class priors and each value's count per class are smoothed by adding one
//! (Laplace). The answer is the class of largest log posterior, ties to the lower class.

use super::features::COLUMNS;
use super::{Inputs, KrkLearner, KrkModel, KrkRow, N_CLASSES};

/// The learner.
pub struct NaiveBayes;

/// A fitted model: log prior per class, and per column log P(value | class) as `[value][class]`.
pub struct Fitted {
    cols: std::ops::Range<usize>,
    prior: [f64; N_CLASSES],
    likelihood: Vec<Vec<[f64; N_CLASSES]>>,
}

impl KrkModel for Fitted {
    fn predict_all(&self, rows: &[KrkRow]) -> Vec<u8> {
        rows.iter()
            .map(|x| {
                let mut score = self.prior;
                for (k, col) in self.cols.clone().enumerate() {
                    let l = &self.likelihood[k][x[col] as usize];
                    score.iter_mut().zip(l).for_each(|(s, v)| *s += v);
                }
                let mut best = 0;
                for c in 1..N_CLASSES {
                    if score[c] > score[best] {
                        best = c;
                    }
                }
                best as u8
            })
            .collect()
    }
}

impl KrkLearner for NaiveBayes {
    fn name(&self) -> &'static str {
        "naive_bayes"
    }

    fn fit(&self, rows: &[KrkRow], classes: &[u8], inputs: Inputs, _seed: u64) -> Box<dyn KrkModel> {
        let mut n = [0u32; N_CLASSES];
        classes.iter().for_each(|&c| n[usize::from(c)] += 1);
        let total = rows.len() as f64;
        let prior = std::array::from_fn(|c| ((f64::from(n[c]) + 1.0) / (total + N_CLASSES as f64)).ln());
        let likelihood = inputs
            .cols()
            .map(|col| {
                let bins = COLUMNS[col].1 as usize + 1;
                let mut counts = vec![[0u32; N_CLASSES]; bins];
                for (x, &c) in rows.iter().zip(classes) {
                    counts[x[col] as usize][usize::from(c)] += 1;
                }
                counts
                    .iter()
                    .map(|v| {
                        std::array::from_fn(|c| {
                            ((f64::from(v[c]) + 1.0) / (f64::from(n[c]) + bins as f64)).ln()
                        })
                    })
                    .collect()
            })
            .collect();
        Box::new(Fitted { cols: inputs.cols(), prior, likelihood })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_that_names_the_class_is_read_back() {
        let rows: Vec<KrkRow> = (0..40)
            .map(|i| {
                let mut r = [0i8; super::super::N_COLS];
                r[0] = (i % 4) as i8;
                r
            })
            .collect();
        let classes: Vec<u8> = (0..40).map(|i| (i % 4) as u8 + 3).collect();
        let m = NaiveBayes.fit(&rows, &classes, Inputs::Squares, 0);
        assert_eq!(m.predict_all(&rows), classes);
    }
}
