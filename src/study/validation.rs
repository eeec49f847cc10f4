//! Section 6's over-training question read without the testing set's help: the epoch is chosen
//! on a validation set drawn from the training distribution (the side's positions, outside the
//! trial's training and testing sets), and the testing set is read only at that epoch.
//!
//! The trial trains twice from the same initial net, seed and order: once measured on its
//! testing set (exactly as `kpk run` trains it), once on the validation set. The set measured
//! never steers training (the stopping rule and the kept state read the training set), so both
//! runs pass through the same states; the second run's training curve is checked against the
//! first's.

use super::config::SettingKeys;
use super::custom::{initial_net, pool};
use super::replicate::{Replicate, first_peak};
use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::dataset::Dataset;
use crate::error::{Error, Result};
use crate::experiment::{config::Trial, run::run_trial};
use crate::train::{self, TrainData};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Mixed into the replicate's data seed for the validation draw, so that it is not the stream
/// that drew the training and testing sets ("VALIDATE" in ASCII).
const VALIDATION_SALT: u64 = 0x5641_4c49_4441_5445;

/// `n` positions of the trial's side outside its training and testing sets, drawn with the
/// replicate's data seed.
pub(super) fn validation_set(trial: &Trial, n: usize, bb: &Bitbase) -> Result<Dataset> {
    let c = &trial.config;
    let train = Dataset::of(c.training_set, c.data_seed, bb);
    let test = c.testing_set.map(|t| Dataset::of(t, c.data_seed, bb));
    let used: HashSet<KpkPosition> =
        train.positions.iter().chain(test.iter().flat_map(|t| &t.positions)).copied().collect();
    let mut rest: Vec<KpkPosition> = pool(trial, None)?.into_iter().filter(|p| !used.contains(p)).collect();
    rest.shuffle(&mut ChaCha8Rng::seed_from_u64(c.data_seed ^ VALIDATION_SALT));
    rest.truncate(n);
    Ok(Dataset::from_positions("validation", rest, bb))
}

/// Run the trial and report its state at the first epoch of the highest validation accuracy.
pub fn run_validated(trial: &Trial, keys: &SettingKeys, bb: &Bitbase) -> Result<Replicate> {
    let run = run_trial(trial, bb, &mut |_| {})?;
    let c = &trial.config;
    let validation = validation_set(trial, keys.validation.unwrap_or(0), bb)?;
    let train_set = Dataset::of(c.training_set, c.data_seed, bb);
    let (xt, xv) = (train_set.inputs(c.input_coding), validation.inputs(c.input_coding));
    let (wt, wv) = (train_set.wins(), validation.wins());
    let measured = train::train(
        initial_net(trial, keys)?,
        &TrainData { inputs: xt.view(), wins: &wt },
        Some(&TrainData { inputs: xv.view(), wins: &wv }),
        &trial.train_config(),
        &mut |_| {},
    )?;
    let training = |h: &[train::EpochMetrics]| h.iter().map(|m| m.accuracy_m0_pct()).collect::<Vec<f64>>();
    if training(&measured.history) != training(&run.metrics) {
        return Err(Error::Internal(format!("{}: the validation run trained differently", trial.name())));
    }
    let mut replicate = Replicate::new(&run, keys);
    if let Some(e) = first_peak(measured.history.iter().map(|m| m.test_accuracy_pct)) {
        replicate.read_at(e);
    }
    Ok(replicate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::config::TrialConfig;

    #[test]
    fn the_validation_set_is_of_the_side_outside_the_trials_sets_and_moves_with_the_draw() {
        let bb = Bitbase::generate();
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/table5/trial29.toml"))
                .unwrap();
        let mut config = TrialConfig::parse(&text).unwrap();
        let trial = config.clone().check().unwrap();
        let v = validation_set(&trial, 136, &bb).unwrap();
        assert_eq!(v.len(), 136);
        let c = &trial.config;
        let train = Dataset::of(c.training_set, c.data_seed, &bb);
        let test = Dataset::of(c.testing_set.unwrap(), c.data_seed, &bb);
        for p in &v.positions {
            assert_eq!(p.side(), train.positions[0].side());
            assert!(!train.positions.contains(p) && !test.positions.contains(p));
        }
        config.data_seed += 1;
        let other = validation_set(&config.check().unwrap(), 136, &bb).unwrap();
        assert_ne!(v.positions, other.positions);
    }
}
