//! When training ends (section 4.5) and, after the fact, what a finished run would have looked
//! like under another reading of the stopping rule or of the kept state.
//!
//! The paper's sentence joins two conditions with "or": "Training was terminated if, for the last
//! 20 epochs of training, the error target had been exceeded or the NN had failed to improve the
//! number of positions classified correctly". It does not say whether either condition alone ends
//! training or whether the 20 epochs also bound the wait for an improvement, so [`StopRule`] names
//! each reading the text allows and `patience` sets the second condition's look-back apart from
//! the first's.
//!
//! Training is deterministic and does not depend on the stopping rule until it stops, so one run
//! long enough for every reading holds the history of all of them: [`replay`] reads a reading's
//! stop and kept epoch off that history, exactly as the trainer would have chosen them.

use super::{EpochMetrics, StopReason};
use crate::train::{
    config::{StopRule, TrainConfig},
    keep::BestState,
};

/// The stopping rule of section 4.5, fed one epoch at a time. At the end of epoch t (from 1), with
/// W = `window` and P = `patience`, training stops on
///
/// 1. [`StopReason::ErrorTarget`] (unless the rule is [`StopRule::NoImprovement`]): the error
///    measure was ≤ the target at the end of each of epochs t−W+1 … t ("consistently below";
///    "within" includes equality);
/// 2. [`StopReason::NoImprovement`] (unless the rule is [`StopRule::ErrorTarget`]): none of the
///    last P epochs classified more training positions correctly than the best epoch before them,
///    i.e. the best count was first reached at epoch ≤ t − P ("apparently peaked"; equalling the
///    best is not improving);
/// 3. [`StopReason::MaxEpochs`]: t = `max_epochs`.
///
/// [`StopRule::Both`] stops when conditions 1 and 2 hold together (reported as 1). If several hold
/// at once the first in that list is reported.
#[derive(Clone, Debug)]
pub struct StoppingRule {
    rule: StopRule,
    target: f64,
    window: usize,
    patience: usize,
    max_epochs: usize,
    epoch: usize,
    within_target_run: usize,
    best_correct: usize,
    best_correct_epoch: usize,
}

impl StoppingRule {
    pub fn new(cfg: &TrainConfig) -> StoppingRule {
        StoppingRule {
            rule: cfg.stop,
            target: cfg.error_target,
            window: cfg.window,
            patience: cfg.patience.unwrap_or(cfg.window),
            max_epochs: cfg.max_epochs,
            epoch: 0,
            within_target_run: 0,
            best_correct: 0,
            best_correct_epoch: 0,
        }
    }

    /// Record the next epoch's error measure and correct count; says whether to stop after it.
    pub fn observe(&mut self, measure: f64, correct: usize) -> Option<StopReason> {
        self.epoch += 1;
        if self.epoch == 1 || correct > self.best_correct {
            self.best_correct = correct;
            self.best_correct_epoch = self.epoch;
        }
        self.within_target_run = if measure <= self.target { self.within_target_run + 1 } else { 0 };
        let target_held = self.within_target_run >= self.window;
        let peaked = self.epoch - self.best_correct_epoch >= self.patience;
        let (on_target, peaked) = match self.rule {
            StopRule::Either => (target_held, peaked),
            StopRule::ErrorTarget => (target_held, false),
            StopRule::NoImprovement => (false, peaked),
            StopRule::Both => (target_held && peaked, false),
        };
        if on_target {
            Some(StopReason::ErrorTarget)
        } else if peaked {
            Some(StopReason::NoImprovement)
        } else if self.epoch >= self.max_epochs {
            Some(StopReason::MaxEpochs)
        } else {
            None
        }
    }
}

/// A run as it would have ended under some configuration: see [`replay`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Replay {
    /// Epochs run.
    pub epochs: usize,
    /// `None` when the history ends before this configuration would have stopped.
    pub stop_reason: Option<StopReason>,
    /// The kept end-of-epoch state, from 1.
    pub kept_epoch: usize,
}

/// Where a run whose per-epoch record is `history` would have stopped under `cfg`'s stopping rule
/// and which epoch `cfg.best` would have kept: the trainer's own decisions, epoch by epoch. The
/// history must come from a run with the same net, data, optimiser and seeds that went on at least
/// as long as `cfg` would have; if it is shorter, the result covers the epochs it has and says
/// `stop_reason: None`.
pub fn replay(cfg: &TrainConfig, history: &[EpochMetrics]) -> Replay {
    let mut rule = StoppingRule::new(cfg);
    let mut kept: Option<((usize, f64), usize)> = None;
    let mut epochs = 0;
    let mut stop_reason = None;
    for m in history {
        epochs = m.epoch;
        let measure = cfg.measure(m.e1, m.e2);
        let key = cfg.best.rank(m.wrong_m0(), measure);
        if kept.is_none_or(|(k, _)| key < k) {
            kept = Some((key, m.epoch));
        }
        stop_reason = rule.observe(measure, m.correct);
        if stop_reason.is_some() {
            break;
        }
    }
    Replay { epochs, stop_reason, kept_epoch: kept.map_or(0, |(_, e)| e) }
}

impl BestState {
    /// The name a config uses.
    pub fn name(self) -> &'static str {
        match self {
            BestState::LeastError => "least_error",
            BestState::MostCorrect => "most_correct",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(stop: StopRule, window: usize, patience: Option<usize>) -> TrainConfig {
        TrainConfig { error_target: 0.1, window, patience, stop, max_epochs: 100, ..TrainConfig::default() }
    }

    fn stops(cfg: &TrainConfig, epochs: &[(f64, usize)]) -> Option<(usize, StopReason)> {
        let mut rule = StoppingRule::new(cfg);
        epochs.iter().enumerate().find_map(|(i, &(e, c))| rule.observe(e, c).map(|r| (i + 1, r)))
    }

    #[test]
    fn each_reading_stops_on_its_own_conditions_only() {
        // Within target from epoch 2 on, and no gain in the count after epoch 1.
        let seq = [(0.5, 9), (0.1, 9), (0.1, 9), (0.1, 9), (0.1, 9), (0.1, 9)];
        assert_eq!(stops(&cfg(StopRule::Either, 3, None), &seq), Some((4, StopReason::ErrorTarget)));
        assert_eq!(stops(&cfg(StopRule::ErrorTarget, 3, None), &seq), Some((4, StopReason::ErrorTarget)));
        // No improvement after epoch 1: with patience 2 it fires at epoch 3, before the target.
        assert_eq!(stops(&cfg(StopRule::Either, 3, Some(2)), &seq), Some((3, StopReason::NoImprovement)));
        assert_eq!(
            stops(&cfg(StopRule::NoImprovement, 3, Some(2)), &seq),
            Some((3, StopReason::NoImprovement))
        );
        // Without its own condition a reading runs on: to the budget here.
        let never_on_target = [(0.5, 9); 100];
        assert_eq!(
            stops(&cfg(StopRule::ErrorTarget, 3, None), &never_on_target),
            Some((100, StopReason::MaxEpochs))
        );
        let improving: Vec<(f64, usize)> = (0..100).map(|i| (0.05, i)).collect();
        assert_eq!(
            stops(&cfg(StopRule::NoImprovement, 3, None), &improving),
            Some((100, StopReason::MaxEpochs))
        );
        // Both: the target is held from epoch 4 (window 3), the count peaked at epoch 1, patience 5.
        assert_eq!(stops(&cfg(StopRule::Both, 3, Some(5)), &seq[..5]), None);
        let long = [(0.5, 9), (0.1, 9), (0.1, 9), (0.1, 9), (0.1, 9), (0.1, 9), (0.1, 9)];
        assert_eq!(stops(&cfg(StopRule::Both, 3, Some(5)), &long), Some((6, StopReason::ErrorTarget)));
        // Patience defaults to the window.
        assert_eq!(
            stops(&cfg(StopRule::NoImprovement, 4, None), &never_on_target),
            Some((5, StopReason::NoImprovement))
        );
    }

    fn metrics(epoch: usize, e2: f64, correct: usize) -> EpochMetrics {
        EpochMetrics {
            epoch,
            e1: e2 / 4.0,
            e2,
            correct,
            total: 10,
            misclassified: 10 - correct,
            undecided: 0,
            train_accuracy_pct: 10.0 * correct as f64,
            train_accuracy_m0_pct: Some(10.0 * correct as f64),
            test_accuracy_pct: None,
            wall_seconds: 0.0,
        }
    }

    #[test]
    fn replay_stops_and_keeps_as_the_rule_and_the_kept_state_say() {
        // E2 least at epoch 1, most correct at epoch 3 (first reached), then no gain.
        let history: Vec<EpochMetrics> =
            [(0.6, 5), (0.9, 8), (0.95, 9), (0.99, 9), (0.99, 9), (0.99, 9), (0.99, 9)]
                .iter()
                .enumerate()
                .map(|(i, &(e2, c))| metrics(i + 1, e2, c))
                .collect();
        let mut c = cfg(StopRule::Either, 3, None);
        c.best = BestState::LeastError;
        assert_eq!(
            replay(&c, &history),
            Replay { epochs: 6, stop_reason: Some(StopReason::NoImprovement), kept_epoch: 1 }
        );
        c.best = BestState::MostCorrect;
        assert_eq!(replay(&c, &history).kept_epoch, 3);
        // Longer patience than the history: the replay says it has not stopped.
        c.patience = Some(10);
        assert_eq!(replay(&c, &history), Replay { epochs: 7, stop_reason: None, kept_epoch: 3 });
    }
}
