//! k nearest neighbours on KRK rows: Euclidean distance over the columns read, each scaled to
//! [0, 1] by its declared range ([`super::features::COLUMNS`]); the k nearest training rows vote,
//! ties in distance to the earlier training row, ties in the vote to the class of the nearest
//! tied neighbour.

use super::features::COLUMNS;
use super::{Inputs, KrkLearner, KrkModel, KrkRow, N_CLASSES};

/// The learner.
pub struct Knn {
    pub k: usize,
}

/// A fitted model: the training rows, scaled, and their classes.
pub struct Fitted {
    k: usize,
    cols: std::ops::Range<usize>,
    train: Vec<f32>,
    classes: Vec<u8>,
}

/// A row's columns `cols`, each divided by its declared largest value.
pub fn scaled(x: &KrkRow, cols: std::ops::Range<usize>) -> impl Iterator<Item = f32> + '_ {
    cols.map(|c| f32::from(x[c]) / f32::from(COLUMNS[c].1))
}

impl Fitted {
    fn class(&self, x: &KrkRow) -> u8 {
        let q: Vec<f32> = scaled(x, self.cols.clone()).collect();
        let width = q.len();
        // The k nearest so far, nearest first: (distance², training row).
        let mut near: Vec<(f32, usize)> = Vec::with_capacity(self.k + 1);
        for (i, t) in self.train.chunks_exact(width).enumerate() {
            let d: f32 = t.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum();
            if near.len() == self.k && d >= near[self.k - 1].0 {
                continue;
            }
            let at = near.partition_point(|&(e, _)| e <= d);
            near.insert(at, (d, i));
            near.truncate(self.k);
        }
        let mut votes = [0u32; N_CLASSES];
        near.iter().for_each(|&(_, i)| votes[usize::from(self.classes[i])] += 1);
        let most = votes.iter().max().copied().unwrap_or(0);
        near.iter().map(|&(_, i)| self.classes[i]).find(|&c| votes[usize::from(c)] == most).unwrap_or(0)
    }
}

impl KrkModel for Fitted {
    fn predict_all(&self, rows: &[KrkRow]) -> Vec<u8> {
        rows.iter().map(|x| self.class(x)).collect()
    }
}

impl KrkLearner for Knn {
    fn name(&self) -> &'static str {
        "knn"
    }

    fn fit(&self, rows: &[KrkRow], classes: &[u8], inputs: Inputs, _seed: u64) -> Box<dyn KrkModel> {
        let train = rows.iter().flat_map(|x| scaled(x, inputs.cols())).collect();
        Box::new(Fitted {
            k: self.k.min(rows.len()).max(1),
            cols: inputs.cols(),
            train,
            classes: classes.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_neighbour_reads_each_training_row_back_and_ties_go_to_the_nearest() {
        let rows: Vec<KrkRow> = (0..20)
            .map(|i| {
                let mut r = [0i8; super::super::N_COLS];
                r[0] = (i % 8) as i8;
                r[1] = (i / 8) as i8;
                r
            })
            .collect();
        let classes: Vec<u8> = (0..20).map(|i| (i % 18) as u8).collect();
        assert_eq!(Knn { k: 1 }.fit(&rows, &classes, Inputs::Squares, 0).predict_all(&rows), classes);
        // Two neighbours of different classes: the nearer one's class.
        let m = Knn { k: 2 }.fit(&rows[..2], &[5, 9], Inputs::Squares, 0);
        assert_eq!(m.predict_all(&rows[1..2]), vec![9]);
    }
}
