//! The declared design run: every learner, with each characterisation, fitted on every draw of
//! every training size and tested on every row of the UCI set not drawn (paired by draw).

use super::bayes::NaiveBayes;
use super::design::Design;
use super::knn::Knn;
use super::softmax::SoftmaxNet;
use super::tree::Cart;
use super::{Inputs, KrkLearner, KrkRow, MLP, N_CLASSES, depth, features};
use crate::chess::dtm::Tables;
use crate::dataset::krk::uci_rows;
use crate::error::Result;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The UCI set as the learners see it: each row's columns and its class (0 `draw`, then 1 + moves).
pub struct KrkSet {
    pub rows: Vec<KrkRow>,
    pub classes: Vec<u8>,
}

impl KrkSet {
    /// The 28,056 rows of `kpk dataset --endgame krk --set uci`, in the published order.
    pub fn uci(tables: &Tables) -> Result<KrkSet> {
        let uci = uci_rows(tables)?;
        let rows = uci.iter().map(|r| features::row(r.position.wk, r.position.wr, r.position.bk)).collect();
        let classes = uci.iter().map(|r| r.class as u8).collect();
        Ok(KrkSet { rows, classes })
    }

    /// Rows per class, in the set's class order.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; N_CLASSES];
        self.classes.iter().for_each(|&c| counts[usize::from(c)] += 1);
        counts
    }

    /// The rows in `train` (ascending indices), and every other row.
    fn split(&self, train: &[usize]) -> [(Vec<KrkRow>, Vec<u8>); 2] {
        let mut in_train = vec![false; self.rows.len()];
        train.iter().for_each(|&i| in_train[i] = true);
        let pick = |keep: bool| {
            (0..self.rows.len())
                .filter(|&i| in_train[i] == keep)
                .map(|i| (self.rows[i], self.classes[i]))
                .unzip()
        };
        [pick(true), pick(false)]
    }
}

/// The declared learners in the report's order ([`super::NAMES`]).
pub fn learners(design: &Design) -> Vec<Box<dyn KrkLearner>> {
    let net = |name, hidden| SoftmaxNet { name, hidden, training: design.mlp.clone() };
    vec![
        Box::new(Cart { min_split: design.tree.min_split }),
        Box::new(NaiveBayes),
        Box::new(net("logistic", Vec::new())),
        Box::new(Knn { k: design.knn.k }),
        Box::new(net(MLP, design.mlp.hidden.clone())),
    ]
}

/// One fit's measures on its test rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawFit {
    pub learner: String,
    pub inputs: Inputs,
    pub n: usize,
    pub draw: usize,
    pub test_rows: usize,
    /// % of test rows answered with their class.
    pub accuracy: f64,
    /// Mean absolute depth error, moves, `draw` at the declared depth.
    pub mae: f64,
}

/// Every fit of the design, by size, draw, learner and inputs.
pub fn run(design: &Design, set: &KrkSet, progress: &(dyn Fn(&str) + Sync)) -> Vec<DrawFit> {
    let learners = learners(design);
    let cells: Vec<(usize, usize)> = design
        .sizes
        .iter()
        .zip(&design.draws)
        .flat_map(|(&n, &d)| (0..d).map(move |draw| (n, draw)))
        .collect();
    let jobs: Vec<(usize, usize, usize, Inputs)> = cells
        .iter()
        .flat_map(|&(n, draw)| (0..learners.len()).flat_map(move |l| Inputs::ALL.map(|i| (n, draw, l, i))))
        .collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    jobs.par_iter()
        .map(|&(n, draw, l, inputs)| {
            let [(train, train_classes), (test, test_classes)] =
                set.split(&design.training_draw(set.rows.len(), n, draw));
            let model = learners[l].fit(&train, &train_classes, inputs, design.learner_seed(n, draw));
            let answers = model.predict_all(&test);
            let right = answers.iter().zip(&test_classes).filter(|(a, c)| a == c).count();
            let dd = design.class_draw_depth;
            let error: u64 = answers
                .iter()
                .zip(&test_classes)
                .map(|(&a, &c)| u64::from(depth(a, dd).abs_diff(depth(c, dd))))
                .sum();
            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if k % 50 == 0 || k == jobs.len() {
                progress(&format!("{k} of {} fits", jobs.len()));
            }
            DrawFit {
                learner: learners[l].name().to_string(),
                inputs,
                n,
                draw,
                test_rows: test.len(),
                accuracy: 100.0 * right as f64 / test.len() as f64,
                mae: error as f64 / test.len() as f64,
            }
        })
        .collect()
}
