//! Section 7 under equal tuning budgets (`experiments/learners_tuned.toml`): every learner, the
//! MLPs included, chooses one setting from a declared grid of the same size by k-fold
//! cross-validation inside its training draw, is refitted on the whole draw with the chosen
//! value and tested on every other position of the side. The draws are the untuned design's
//! ([`super::draws::training_draw`]), so tuned and untuned fits pair by draw; every fit of a
//! learner on draw d uses the seed the untuned run gives it (its side's trial seed + d).

use super::design::{CONVERGED, MlpBudgets, paper_size};
use super::draws::{SidePositions, chacha_key, shuffled, training_draw};
use super::mlp::{ConvergedMlp, PaperMlp};
use super::{InputSet, Learner, MLP, Model, Samples};
use crate::dataset::Side;
use crate::error::{Error, Result};
use crate::experiment::config::{Trial, TrialConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Every learner the tuned design may name, in the report's order (the comparators last).
pub const TUNABLE: [&str; 10] = [
    "rule_list",
    "tree",
    "naive_bayes",
    "logistic",
    "boosted_trees",
    "random_forest",
    "knn",
    "svm",
    MLP,
    CONVERGED,
];

/// One learner's grid: the setting tuned and its values, in the order ties are broken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    pub learner: String,
    pub setting: String,
    pub values: Vec<f64>,
}

/// The declared tuned design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TunedDesign {
    pub name: String,
    pub seed: u64,
    pub alpha: f64,
    pub power: f64,
    pub margin: f64,
    pub assumed_sd: f64,
    pub draws: usize,
    pub folds: usize,
    pub fold_seed_offset: u64,
    pub sides: Vec<Side>,
    pub learners: Vec<String>,
    pub comparators: Vec<String>,
    pub mlp: MlpBudgets,
    pub grid: Vec<Grid>,
}

impl TunedDesign {
    /// Read and check a declaration.
    pub fn load(path: &Path) -> Result<TunedDesign> {
        let text = crate::io::read_config(path)?;
        let design: TunedDesign = toml::from_str(&text).map_err(|e| Error::Format {
            path: path.display().to_string(),
            message: e.message().trim().to_string(),
        })?;
        design.check().map_err(|e| e.in_file(path))?;
        Ok(design)
    }

    pub fn check(&self) -> Result<()> {
        for (key, v) in [("alpha", self.alpha), ("power", self.power)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(Error::config(key, format!("{v} is not in (0, 1)")));
            }
        }
        for (key, v) in [("margin", self.margin), ("assumed_sd", self.assumed_sd)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(Error::config(key, format!("{v} is not positive")));
            }
        }
        if !(2..=super::design::MAX_DRAWS).contains(&self.draws) {
            return Err(Error::config("draws", format!("{} is outside 2..=1000", self.draws)));
        }
        if !(2..=10).contains(&self.folds) {
            return Err(Error::config("folds", format!("{} is outside 2..=10", self.folds)));
        }
        if self.sides.is_empty() || self.sides.contains(&Side::Both) {
            return Err(Error::config("sides", "each wtm or btm"));
        }
        let all = self.learners.iter().chain(&self.comparators);
        if let Some(l) = all.clone().find(|l| !TUNABLE.contains(&l.as_str())) {
            return Err(Error::UnknownName {
                what: "learner",
                given: l.clone(),
                allowed: TUNABLE.join(", "),
            });
        }
        let width = self.grid.first().map_or(0, |g| g.values.len());
        for l in all {
            let g = self.grid.iter().filter(|g| &g.learner == l).collect::<Vec<_>>();
            if g.len() != 1 || g[0].values.len() != width || width == 0 {
                // One grid per learner, all of one size.
                return Err(Error::config("grid", format!("'{l}' needs {width} values")));
            }
        }
        Ok(())
    }

    /// The grid of `learner`.
    pub fn grid_of(&self, learner: &str) -> &Grid {
        self.grid.iter().find(|g| g.learner == learner).expect("checked grid")
    }

    /// Every learner fitted on a draw: the non-MLP learners, then the comparators.
    pub fn all_learners(&self) -> impl Iterator<Item = &String> {
        self.learners.iter().chain(&self.comparators)
    }
}

/// The fold (0..folds) of each of a draw's n positions in ascending index order: ChaCha8 from
/// the 32 bytes of (seed + fold_seed_offset, side, n, draw), each a little-endian u64 (wtm 0,
/// btm 1), shuffles 0..n by Fisher–Yates (for i from 0: j uniform in i..n, swap); the value r at
/// place p puts position r in fold p mod folds.
pub fn folds(design: &TunedDesign, side: Side, n: usize, draw: usize) -> Vec<usize> {
    let words = [design.seed + design.fold_seed_offset, u64::from(side == Side::Btm), n as u64, draw as u64];
    let order = shuffled(&mut ChaCha8Rng::from_seed(chacha_key(words)), n, n);
    let mut fold = vec![0; n];
    for (p, &r) in order.iter().enumerate() {
        fold[r] = p % design.folds;
    }
    fold
}

/// The side's Table 5 trial (T1's for wtm, T2's for btm).
pub fn side_trial(design: &TunedDesign, side: Side, table5: &Path) -> Result<Trial> {
    let name = if side == Side::Btm { &design.mlp.btm_trial } else { &design.mlp.wtm_trial };
    TrialConfig::load(&table5.join(format!("{name}.toml")))
}

/// `learner` with its tuned setting at `value` (`None`: its untuned setting, `kpk learners`'s
/// for the six, scikit-learn's default for random_forest, knn and svm). The MLPs run `trial`.
pub fn learner_with(
    name: &str,
    value: Option<f64>,
    trial: &Trial,
    budgets: &MlpBudgets,
) -> Result<Box<dyn Learner>> {
    use super::{bayes, boosted, forest, knn, logistic, rules, svm, tree};
    let count = |v: f64| v.round().max(1.0) as usize;
    Ok(match name {
        "rule_list" => {
            let d = rules::RuleList::default();
            Box::new(rules::RuleList { max_literals: value.map_or(d.max_literals, count), ..d })
        }
        "tree" => {
            let mut t = tree::Cart::default();
            t.limits.min_leaf = value.map_or(t.limits.min_leaf, count);
            Box::new(t)
        }
        "naive_bayes" => Box::new(bayes::NaiveBayes { alpha: value.unwrap_or(1.0) }),
        "logistic" => {
            let d = logistic::Logistic::default();
            Box::new(logistic::Logistic { lambda: value.unwrap_or(d.lambda), ..d })
        }
        "boosted_trees" => {
            let d = boosted::Boosted::default();
            Box::new(boosted::Boosted { depth: value.map_or(d.depth, count), ..d })
        }
        "random_forest" => {
            let d = forest::Forest::default();
            Box::new(forest::Forest { max_features: value.map_or(d.max_features, count), ..d })
        }
        "knn" => Box::new(knn::Knn { k: value.map_or(knn::Knn::default().k, count) }),
        "svm" => Box::new(svm::Svm { c: value.unwrap_or(svm::Svm::default().c) }),
        MLP | CONVERGED => {
            let trial = match value {
                Some(rate) => trial.with(|c| c.learning_rate = rate)?,
                None => trial.with(|_| {})?,
            };
            let paper = PaperMlp::new(trial, None);
            if name == MLP {
                Box::new(paper)
            } else {
                Box::new(ConvergedMlp { mlp: paper, budgets: budgets.clone() })
            }
        }
        other => {
            return Err(Error::UnknownName {
                what: "learner",
                given: other.to_string(),
                allowed: TUNABLE.join(", "),
            });
        }
    })
}

/// One learner tuned on one draw: a row of the tuned run's draws.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedFit {
    pub learner: String,
    pub side: Side,
    pub n: usize,
    pub draw: usize,
    /// The grid value chosen, and the held-out accuracy (%) that chose it over the folds.
    pub chosen: f64,
    pub cv_pct: f64,
    /// The refit on the whole draw: accuracy on the draw and on every other position of the side.
    pub train_pct: f64,
    pub test_pct: f64,
    pub test_n: usize,
    /// The same learner at its untuned setting, on the same draw and seed.
    pub untuned_test_pct: f64,
    /// The tuned model's Brier score and log-loss on the test positions, where it gives a
    /// probability (log-loss with probabilities clipped to [10⁻¹⁵, 1 − 10⁻¹⁵]).
    pub brier: Option<f64>,
    pub log_loss: Option<f64>,
    /// The share of the test positions in their majority class (a constant answer's accuracy).
    pub majority_pct: f64,
}

/// The columns of the tuned run's draws.csv.
pub const TUNED_COLUMNS: &str = "learner,side,n,draw,chosen,cv_pct,train_pct,test_pct,test_n,untuned_test_pct,brier,log_loss,majority_pct";

/// Positions of `data` at `idx`.
fn subset(data: &Samples, idx: impl Iterator<Item = usize>) -> Samples {
    let mut s = Samples::default();
    for i in idx {
        s.rows.push(data.rows[i]);
        s.wins.push(data.wins[i]);
        s.dtc.push(data.dtc[i]);
    }
    s
}

/// Right answers of `model` on `data`.
fn correct(model: &dyn Model, data: &Samples) -> usize {
    model.predict_all(&data.rows).iter().zip(&data.wins).filter(|(p, w)| p == w).count()
}

/// Brier's score and the log-loss of `model` on `data`, if it gives probabilities.
fn scores(model: &dyn Model, data: &Samples) -> (Option<f64>, Option<f64>) {
    let n = data.len().max(1) as f64;
    let (mut brier, mut log_loss) = (0.0, 0.0);
    for (x, &w) in data.rows.iter().zip(&data.wins) {
        let Some(p) = model.win_probability(x) else { return (None, None) };
        let y = f64::from(u8::from(w));
        brier += (p - y) * (p - y);
        let q = p.clamp(1e-15, 1.0 - 1e-15);
        log_loss -= if w { q.ln() } else { (1.0 - q).ln() };
    }
    (Some(brier / n), Some(log_loss / n))
}

/// What one learner is tuned with: its name, its side's trial and budgets, and its seed.
pub struct Tuning<'a> {
    pub design: &'a TunedDesign,
    pub trial: &'a Trial,
    pub seed: u64,
}

impl Tuning<'_> {
    /// The grid value with the most held-out positions right over the folds (ties: the earlier),
    /// and that count as a percentage of the draw.
    fn choose(&self, name: &str, train: &Samples, fold: &[usize]) -> Result<(f64, f64)> {
        let mut best: Option<(f64, usize)> = None;
        for &v in &self.design.grid_of(name).values {
            let learner = learner_with(name, Some(v), self.trial, &self.design.mlp)?;
            let mut right = 0;
            for f in 0..self.design.folds {
                let fit = subset(train, (0..train.len()).filter(|&i| fold[i] != f));
                let held = subset(train, (0..train.len()).filter(|&i| fold[i] == f));
                right += correct(learner.fit(&fit, InputSet::All, self.seed)?.as_ref(), &held);
            }
            if best.is_none_or(|(_, r)| right > r) {
                best = Some((v, right));
            }
        }
        let (v, right) = best.expect("checked grid");
        Ok((v, 100.0 * right as f64 / train.len().max(1) as f64))
    }

    /// Tune `name` on a draw's split and measure the refit and the untuned fit.
    pub fn fit(
        &self,
        name: &str,
        train: &Samples,
        test: &Samples,
        fold: &[usize],
    ) -> Result<(f64, f64, TunedFit)> {
        let (chosen, cv_pct) = self.choose(name, train, fold)?;
        let tuned = learner_with(name, Some(chosen), self.trial, &self.design.mlp)?.fit(
            train,
            InputSet::All,
            self.seed,
        )?;
        let untuned =
            learner_with(name, None, self.trial, &self.design.mlp)?.fit(train, InputSet::All, self.seed)?;
        let (brier, log_loss) = scores(tuned.as_ref(), test);
        let wins = test.wins.iter().filter(|&&w| w).count();
        let pct = |k: usize, of: &Samples| 100.0 * k as f64 / of.len().max(1) as f64;
        let row = TunedFit {
            learner: name.to_string(),
            side: Side::Both,
            n: train.len(),
            draw: 0,
            chosen,
            cv_pct,
            train_pct: pct(correct(tuned.as_ref(), train), train),
            test_pct: pct(correct(tuned.as_ref(), test), test),
            test_n: test.len(),
            untuned_test_pct: pct(correct(untuned.as_ref(), test), test),
            brier,
            log_loss,
            majority_pct: pct(wins.max(test.len() - wins), test),
        };
        Ok((chosen, cv_pct, row))
    }
}

/// Every learner of the design tuned on every draw of every side, in the order side, draw,
/// learner. Draws run in parallel; `progress` hears every tenth finished draw.
pub fn run(
    design: &TunedDesign,
    table5: &Path,
    bb: &crate::chess::bitbase::Bitbase,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<TunedFit>> {
    use rayon::prelude::*;
    let sides: Vec<(Side, SidePositions, Trial)> = design
        .sides
        .iter()
        .map(|&side| Ok((side, SidePositions::new(side, bb), side_trial(design, side, table5)?)))
        .collect::<Result<_>>()?;
    let units: Vec<(usize, usize)> =
        (0..sides.len()).flat_map(|s| (0..design.draws).map(move |d| (s, d))).collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let rows: Vec<Vec<TunedFit>> = units
        .par_iter()
        .map(|&(s, draw)| {
            let (side, positions, trial) = &sides[s];
            let n = paper_size(*side);
            let split = positions.split(&training_draw(design.seed, *side, n, draw));
            let fold = folds(design, *side, n, draw);
            let tuning = Tuning { design, trial, seed: trial.config.seed + draw as u64 };
            let out = design
                .all_learners()
                .map(|name| {
                    let (_, _, row) = tuning.fit(name, &split.train, &split.test, &fold)?;
                    Ok(TunedFit { side: *side, draw, ..row })
                })
                .collect::<Result<Vec<_>>>()?;
            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if k % 10 == 0 || k == units.len() {
                progress(&format!("{k} of {} draws tuned", units.len()));
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(rows.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_folds_split_a_draw_evenly_and_are_fixed_by_their_arguments() {
        let design = TunedDesign::load(Path::new("experiments/learners_tuned.toml")).unwrap();
        let f = folds(&design, Side::Wtm, 125, 3);
        assert_eq!(f, folds(&design, Side::Wtm, 125, 3));
        assert_ne!(f, folds(&design, Side::Wtm, 125, 4));
        for k in 0..5 {
            assert_eq!(f.iter().filter(|&&x| x == k).count(), 25);
        }
    }
}
