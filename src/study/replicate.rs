//! What a study keeps of each trial ([`Replicate`]) and of each setting's replicates
//! ([`SettingResult`]): the values its intervals summarise.

use super::config::{Measure, SettingKeys, State};
use crate::experiment::run::TrialRun;
use crate::stats::Interval;
use crate::train::StopReason;

/// What a study keeps of one trial.
#[derive(Clone, Debug, PartialEq)]
pub struct Replicate {
    pub train_accuracy_pct: f64,
    pub test_accuracy_pct: Option<f64>,
    pub epochs: usize,
    pub kept_epoch: usize,
    /// The epoch of the state reported (the kept one unless the setting's `state` says else).
    pub state_epoch: usize,
    /// The stopping rule's reason, as `summary.json` spells it.
    pub stop_reason: StopReason,
    /// Per epoch: (training accuracy at m = 0, testing accuracy), %.
    pub curve: Vec<(f64, Option<f64>)>,
}

impl Replicate {
    /// What the study keeps of `run`, reporting the state `keys.state` names.
    pub fn new(run: &TrialRun, keys: &SettingKeys) -> Replicate {
        let s = &run.summary;
        let curve: Vec<(f64, Option<f64>)> =
            run.metrics.iter().map(|m| (m.accuracy_m0_pct(), m.test_accuracy_pct)).collect();
        let mut r = Replicate {
            train_accuracy_pct: s.train_accuracy_pct,
            test_accuracy_pct: s.test_accuracy_pct,
            epochs: s.epochs,
            kept_epoch: s.best_epoch,
            state_epoch: s.best_epoch,
            stop_reason: s.stop_reason,
            curve,
        };
        let epoch = match keys.state {
            // The validation run chooses the epoch (`super::custom`).
            State::Kept | State::PeakValidation => None,
            State::Last => Some(r.curve.len()),
            State::Epoch(e) => Some(e.min(r.curve.len())),
            // The first epoch of the highest testing accuracy.
            State::PeakTest => first_peak(r.curve.iter().map(|c| c.1)),
        };
        if let Some(e) = epoch {
            r.read_at(e);
        }
        r
    }

    /// Report the state at the end of epoch `e` (from 1; ignored outside the curve).
    pub fn read_at(&mut self, e: usize) {
        if let Some(&(train, test)) = e.checked_sub(1).and_then(|i| self.curve.get(i)) {
            (self.train_accuracy_pct, self.test_accuracy_pct) = (train, test);
            self.state_epoch = e;
        }
    }

    /// The replicate's value of `measure`; `None` for test accuracy without a testing set.
    pub fn value(&self, measure: Measure) -> Option<f64> {
        match measure {
            Measure::Test => self.test_accuracy_pct,
            Measure::Train => Some(self.train_accuracy_pct),
            Measure::Epochs => Some(self.epochs as f64),
            Measure::Epoch => Some(self.state_epoch as f64),
        }
    }
}

/// The first epoch (from 1) of the highest value, epochs without a value skipped.
pub fn first_peak(values: impl IntoIterator<Item = Option<f64>>) -> Option<usize> {
    values
        .into_iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i + 1, v)))
        .fold(None, |best: Option<(usize, f64)>, (e, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((e, v)),
        })
        .map(|(e, _)| e)
}

/// A setting's replicates and their summary.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingResult {
    pub label: String,
    pub replicates: Vec<Replicate>,
}

impl SettingResult {
    /// The values of `measure` over the replicates that have it, in replicate order.
    pub fn values(&self, measure: Measure) -> Vec<f64> {
        self.replicates.iter().filter_map(|r| r.value(measure)).collect()
    }

    /// The mean of `measure` with its 95% t-interval over replicates, cut to the values the
    /// measure can take (accuracies in [0, 100] %, epochs at least 0).
    pub fn interval(&self, measure: Measure) -> Option<Interval> {
        let (min, max) = match measure {
            Measure::Test | Measure::Train => (0.0, 100.0),
            Measure::Epochs | Measure::Epoch => (0.0, f64::INFINITY),
        };
        Interval::of_mean_within(&self.values(measure), min, max)
    }

    /// Replicates whose training ended on the error target (section 4.5's first stopping rule).
    pub fn reached_target(&self) -> usize {
        self.replicates.iter().filter(|r| r.stop_reason == StopReason::ErrorTarget).count()
    }
}
