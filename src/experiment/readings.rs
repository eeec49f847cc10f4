//! Section 4.5's stopping rule and kept state, examined: every reading the text allows, applied to
//! the same replicated runs of all 41 trials, and how close each comes to the paper's Table 5.
//!
//! A run does not depend on the stopping rule until it stops, so each replicate is trained once
//! under [`StopRule::Both`] with the longest patience examined (it stops no earlier than any
//! reading), and every reading's stop and kept epoch are read off that one history with
//! [`crate::train::stopping::replay`]. A reading that has not stopped when the run's budget ends (the
//! study's horizon on the small sets, the config's `max_epochs` on the whole sets) is cut there and
//! counted (`truncated`): its epochs and accuracy are those at the budget, a lower bound on the
//! reading's own.

use super::replicate::ReplicateRun;
use super::rows::Summary;
use crate::error::Result;
use crate::experiment::config::{Trial, TrialConfig};
use crate::paper::tables::{Scope, Table5Row};
use crate::stats::{self, Interval};
use crate::train::{
    StopReason,
    config::{StopRule, TrainConfig},
    keep::BestState,
    stopping::replay,
};
use serde::{Deserialize, Serialize};

/// One reading of section 4.5: which conditions stop training, their look-backs, which state is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub stop: StopRule,
    /// Epochs the error target must hold (the paper: 20).
    pub window: usize,
    /// Epochs without a gain in the correct count (the paper: the same 20).
    pub patience: usize,
    pub keep: BestState,
}

impl Reading {
    /// A short label: "either, 20/20, most correct".
    pub fn label(&self) -> String {
        let keep = match self.keep {
            BestState::MostCorrect => "most correct",
            BestState::LeastError => "least error",
        };
        let looks = match self.stop {
            StopRule::ErrorTarget => format!("target {}", self.window),
            StopRule::NoImprovement => format!("patience {}", self.patience),
            StopRule::Either | StopRule::Both => {
                format!("target {}, patience {}", self.window, self.patience)
            }
        };
        format!("{} ({looks}), keep {keep}", self.stop.name().replace('_', " "))
    }

    /// The reading a config states.
    pub fn of(config: &TrialConfig) -> Reading {
        Reading { stop: config.stop, window: config.window, patience: config.patience, keep: config.keep }
    }

    /// The trial's config under this reading.
    pub fn apply(&self, config: &TrialConfig) -> TrialConfig {
        let mut c = config.clone();
        c.stop = self.stop;
        c.window = self.window;
        c.patience = self.patience;
        c.keep = self.keep;
        c
    }
}

/// The examined reading whose [`Reading::label`] is `label` (a row of `trials.csv`), if any.
pub fn from_label(label: &str) -> Option<Reading> {
    examined().into_iter().find(|r| r.label() == label)
}

/// The readings examined: the stopping conditions alone, either, both, longer patience; each with
/// the paper's kept state (least E1/E2) and ours (most correct).
pub fn examined() -> Vec<Reading> {
    let mut out = Vec::new();
    for keep in [BestState::LeastError, BestState::MostCorrect] {
        for (stop, patience) in [
            (StopRule::Either, 20),
            (StopRule::ErrorTarget, 20),
            (StopRule::NoImprovement, 20),
            (StopRule::Both, 20),
            (StopRule::Either, 100),
            (StopRule::Either, 400),
        ] {
            out.push(Reading { stop, window: 20, patience, keep });
        }
    }
    out
}

/// The budget of a study run on the small sets: three times the paper's longest small-set run
/// (320 epochs, trial 7). A reading still running there is cut at it and counted as truncated.
pub const SMALL_SET_HORIZON: usize = 1000;

/// The trial as the study trains it: under [`StopRule::Both`] with the longest patience examined,
/// so that its history covers every reading; budget as configured, at most [`SMALL_SET_HORIZON`]
/// on the small sets.
pub fn horizon(trial: &Trial) -> Result<Trial> {
    let longest = examined().iter().map(|r| r.patience).max().unwrap_or(20);
    let small = trial.scope() == Scope::Small;
    trial.with(|c| {
        c.stop = StopRule::Both;
        c.window = 20;
        c.patience = longest;
        if small {
            c.max_epochs = c.max_epochs.min(SMALL_SET_HORIZON);
        }
    })
}

/// A replicate as it would have ended under a reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub epochs: usize,
    pub kept_epoch: usize,
    /// Training accuracy of the kept state, m = 0, %.
    pub train_pct: f64,
    pub test_pct: Option<f64>,
    /// The run's budget ended before the reading's own condition stopped it.
    pub truncated: bool,
}

/// `run` (trained under [`horizon`] of `trial`) as it would have ended under `reading`.
pub fn outcome(trial: &Trial, reading: &Reading, run: &ReplicateRun) -> Outcome {
    // The run's own trainer settings (its seeds, the horizon's budget) under the reading's
    // stopping rule and kept state, with the trial's budget.
    let cfg = TrainConfig {
        stop: reading.stop,
        window: reading.window,
        patience: Some(reading.patience),
        best: reading.keep,
        max_epochs: trial.config.max_epochs,
        ..run.run.trial.train_config()
    };
    let r = replay(&cfg, run.history());
    let kept = &run.run.metrics[r.kept_epoch - 1];
    Outcome {
        epochs: r.epochs,
        kept_epoch: r.kept_epoch,
        train_pct: kept.accuracy_m0_pct(),
        test_pct: kept.test_accuracy_pct,
        truncated: matches!(r.stop_reason, None | Some(StopReason::MaxEpochs)),
    }
}

/// One trial under one reading, over its replicates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialUnderReading {
    pub reading: String,
    pub trial: u8,
    pub replicates: usize,
    pub epochs_median: f64,
    pub kept_epoch_median: f64,
    pub train_mean: f64,
    pub train_lo: f64,
    pub train_hi: f64,
    pub test_mean: Option<f64>,
    pub truncated: usize,
    pub paper_epochs: usize,
    pub paper_train: f64,
}

/// One replicate under one reading (`reports/readings/replicates.csv`): what the bootstrap of the
/// readings' distances resamples ([`super::readings_intervals`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplicateOutcome {
    /// The reading, as in [`ReadingDistance`].
    pub stop: String,
    pub window: usize,
    pub patience: usize,
    pub keep: String,
    pub trial: u8,
    pub seed_index: usize,
    pub draw_index: usize,
    pub epochs: usize,
    pub kept_epoch: usize,
    /// Training accuracy of the kept state, m = 0, %.
    pub train_pct: f64,
    /// Testing accuracy of the kept state, m = 0, %, on the small-set trials' testing set (S1 or
    /// S2); empty for the whole-set trials 38-41, which train on every position of their kind and
    /// have no positions left to test on (section 4.5).
    #[serde(default)]
    pub test_pct: Option<f64>,
    pub truncated: bool,
}

/// How close a reading comes to the paper over the 41 trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadingDistance {
    pub reading: String,
    pub stop: String,
    pub window: usize,
    pub patience: usize,
    pub keep: String,
    /// Mean over the trials of |log2(our median epochs run / the paper's epochs)|: 1 means a
    /// factor of two on average.
    pub epochs_log2: f64,
    /// The same with our median kept epoch in place of the epochs run (Table 5 lists runs of 17
    /// epochs, fewer than the 20-epoch window, so its "epochs taken" may be the kept epoch).
    pub kept_log2: f64,
    /// Mean over the trials of |our mean training accuracy − the paper's|, points.
    pub train_points: f64,
    /// The distance the default is chosen by: `epochs_log2 + train_points / 2` (a factor of two
    /// in epochs weighs as much as two points of training accuracy).
    pub distance: f64,
    /// Replicates (over all trials) whose budget ended before this reading's condition stopped them.
    pub truncated: usize,
    /// Replicates per small-set trial (T1/S1, T2/S2) and per whole-set trial (T3-T5), the fewest
    /// over the trials; 0 when no such trial was run.
    #[serde(default)]
    pub small_set_replicates: usize,
    #[serde(default)]
    pub whole_set_replicates: usize,
}

/// Every reading evaluated on the runs: its distance, each trial under it, each replicate under it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compared {
    pub distances: Vec<ReadingDistance>,
    pub trials: Vec<TrialUnderReading>,
    pub replicates: Vec<ReplicateOutcome>,
}

/// Evaluate every reading on the runs. `trials[i]` is the configured trial (its own budget) whose
/// replicates are the runs with `trial == i`; `paper` is Table 5.
pub fn compare(
    trials: &[Trial],
    runs: &[ReplicateRun],
    paper: &[Table5Row],
    readings: &[Reading],
) -> Compared {
    let mut distances = Vec::new();
    let mut rows = Vec::new();
    let mut replicates = Vec::new();
    for reading in readings {
        let label = reading.label();
        let (mut d_epochs, mut d_kept, mut d_train, mut n, mut truncated) = (0.0, 0.0, 0.0, 0usize, 0);
        let (mut small, mut whole) = (usize::MAX, usize::MAX);
        for (i, trial) in trials.iter().enumerate() {
            let Some(p) = trial_number(trial.name()).and_then(|t| paper.iter().find(|p| p.trial == t)) else {
                continue;
            };
            let mine: Vec<&ReplicateRun> = runs.iter().filter(|r| r.trial == i).collect();
            let outs: Vec<Outcome> = mine.iter().map(|r| outcome(trial, reading, r)).collect();
            if outs.is_empty() {
                continue;
            }
            replicates.extend(mine.iter().zip(&outs).map(|(r, o)| ReplicateOutcome {
                stop: reading.stop.name().into(),
                window: reading.window,
                patience: reading.patience,
                keep: reading.keep.name().into(),
                trial: p.trial,
                seed_index: r.id.seed_index,
                draw_index: r.id.draw_index,
                epochs: o.epochs,
                kept_epoch: o.kept_epoch,
                train_pct: o.train_pct,
                test_pct: o.test_pct,
                truncated: o.truncated,
            }));
            let epochs: Vec<f64> = outs.iter().map(|o| o.epochs as f64).collect();
            let kept: Vec<f64> = outs.iter().map(|o| o.kept_epoch as f64).collect();
            let train: Vec<f64> = outs.iter().map(|o| o.train_pct).collect();
            let test: Vec<f64> = outs.iter().filter_map(|o| o.test_pct).collect();
            let ti = Interval::of_mean_pct(&train).expect("at least one run");
            let t = TrialUnderReading {
                reading: label.clone(),
                trial: p.trial,
                replicates: outs.len(),
                epochs_median: stats::median(&epochs),
                kept_epoch_median: stats::median(&kept),
                train_mean: ti.mean,
                train_lo: ti.lo,
                train_hi: ti.hi,
                test_mean: (!test.is_empty()).then(|| stats::mean(&test)),
                truncated: outs.iter().filter(|o| o.truncated).count(),
                paper_epochs: p.epochs,
                paper_train: p.train_acc_pct,
            };
            d_epochs += epochs_gap(t.epochs_median, p.epochs as f64);
            d_kept += epochs_gap(t.kept_epoch_median, p.epochs as f64);
            d_train += (t.train_mean - p.train_acc_pct).abs();
            truncated += t.truncated;
            if trial.scope() == Scope::Small {
                small = small.min(outs.len());
            } else {
                whole = whole.min(outs.len());
            }
            n += 1;
            rows.push(t);
        }
        let n = n.max(1) as f64;
        let (epochs_log2, kept_log2, train_points) = (d_epochs / n, d_kept / n, d_train / n);
        distances.push(ReadingDistance {
            reading: label,
            stop: reading.stop.name().into(),
            window: reading.window,
            patience: reading.patience,
            keep: reading.keep.name().into(),
            epochs_log2,
            kept_log2,
            train_points,
            distance: distance(epochs_log2, train_points),
            truncated,
            small_set_replicates: if small == usize::MAX { 0 } else { small },
            whole_set_replicates: if whole == usize::MAX { 0 } else { whole },
        });
    }
    Compared { distances, trials: rows, replicates }
}

/// One trial's epoch term of the distance: |log2(ours / the paper's)|, 1 for a factor of two.
pub(super) fn epochs_gap(ours: f64, paper: f64) -> f64 {
    (ours / paper).log2().abs()
}

/// The distance to the paper the default reading is chosen by: a factor of two in epochs weighs
/// as much as two points of training accuracy.
pub(super) fn distance(epochs_log2: f64, train_points: f64) -> f64 {
    epochs_log2 + train_points / 2.0
}

/// The trial number of a config named "trialNN" (Table 5's row).
pub fn trial_number(name: &str) -> Option<u8> {
    name.strip_prefix("trial").and_then(|n| n.parse().ok())
}

impl Summary {
    /// The trial's number, for a summary named `trialNN` (Table 5's rows).
    pub fn trial_number(&self) -> Option<u8> {
        trial_number(&self.name)
    }
}
