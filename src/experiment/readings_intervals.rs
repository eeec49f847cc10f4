//! The readings' distances to the paper with intervals: the learning-rate sweep's paired bootstrap
//! ([`super::sweep`]) applied unchanged to the readings comparison, the readings in place of the
//! rates. Every reading is read off the same replicated runs, so resample k (the same weight seeds
//! and draws for every trial and every reading) gives each reading a distance, and the difference
//! of two readings' distances on the same resamples a paired 95% interval.
//!
//! The per-run outcomes are `reports/readings/replicates.csv` ([`ReplicateOutcome`]). A trial with
//! no stored runs enters every resample at its values in `trials.csv` (median epochs, mean training
//! accuracy): its own replicate variation is then left out of the intervals.

use super::readings::{ReadingDistance, ReplicateOutcome, TrialUnderReading};
use super::replicate::ReplicateId;
use super::sweep::{self, Outcomes};
use crate::stats;
use std::collections::BTreeSet;

/// One reading's distance over a set of trials, with its bootstrap interval and its difference
/// from the closest reading over the same trials.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReadingInterval {
    pub reading: String,
    /// As [`ReadingDistance::distance`], over the trials ranked.
    pub distance: f64,
    /// 95% bootstrap interval (2.5% and 97.5% quantiles over the resamples).
    pub lo: f64,
    pub hi: f64,
    /// This reading's distance minus the closest reading's, with the paired 95% interval; 0 for
    /// the closest itself.
    pub vs_closest: f64,
    pub vs_closest_lo: f64,
    pub vs_closest_hi: f64,
}

/// The readings ranked over a set of trials, closest first.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ranking {
    /// The trials ranked over, in order.
    pub trials: Vec<u8>,
    /// Those of them entering every resample at their observed values (no runs stored).
    pub fixed: Vec<u8>,
    pub order: Vec<ReadingInterval>,
}

impl Ranking {
    /// The readings' labels, closest first.
    pub fn labels(&self) -> Vec<&str> {
        self.order.iter().map(|r| r.reading.as_str()).collect()
    }
}

/// The key joining a reading's rows of `replicates.csv` to its row of `distances.csv`.
fn key_of(d: &ReadingDistance) -> (&str, usize, usize, &str) {
    (d.stop.as_str(), d.window, d.patience, d.keep.as_str())
}

/// Rank `distances`' readings over the trials that `include` admits, from the trials under each
/// reading and the runs stored; `None` when no runs are stored (nothing to resample).
pub fn rank(
    distances: &[ReadingDistance],
    trials: &[TrialUnderReading],
    replicates: &[ReplicateOutcome],
    include: &dyn Fn(u8) -> bool,
) -> Option<Ranking> {
    // Every run's place, over all trials: the same resamples whichever trials are ranked.
    let ids: Vec<ReplicateId> = replicates
        .iter()
        .map(|r| ReplicateId { seed_index: r.seed_index, draw_index: r.draw_index })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if ids.is_empty() || distances.is_empty() {
        return None;
    }
    let numbers: Vec<u8> =
        trials.iter().map(|t| t.trial).filter(|&t| include(t)).collect::<BTreeSet<_>>().into_iter().collect();
    let stored: BTreeSet<u8> = replicates.iter().map(|r| r.trial).collect();
    let fixed: Vec<u8> = numbers.iter().copied().filter(|t| !stored.contains(t)).collect();
    let paper: Vec<(f64, f64)> = numbers
        .iter()
        .map(|&n| {
            trials
                .iter()
                .find(|t| t.trial == n)
                .map_or((f64::NAN, f64::NAN), |t| (t.paper_epochs as f64, t.paper_train))
        })
        .collect();
    let per_reading: Vec<Vec<Outcomes>> =
        distances.iter().map(|d| outcomes(d, &numbers, trials, replicates, &ids)).collect();
    let point: Vec<f64> = per_reading.iter().map(|p| sweep::distance(p, &paper, &ids).2).collect();
    let boot = sweep::bootstrap(&per_reading, &paper, &ids);
    let closest = (0..point.len()).min_by(|&a, &b| point[a].total_cmp(&point[b])).unwrap_or(0);
    let mut order: Vec<ReadingInterval> = distances
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let (lo, hi) = stats::spread95(&boot[k].iter().map(|b| b.2).collect::<Vec<_>>());
            let diff: Vec<f64> = boot[k].iter().zip(&boot[closest]).map(|(a, b)| a.2 - b.2).collect();
            let (vs_closest_lo, vs_closest_hi) = stats::spread95(&diff);
            ReadingInterval {
                reading: d.reading.clone(),
                distance: point[k],
                lo,
                hi,
                vs_closest: point[k] - point[closest],
                vs_closest_lo,
                vs_closest_hi,
            }
        })
        .collect();
    order.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    Some(Ranking { trials: numbers, fixed, order })
}

/// A reading's outcomes per trial (in `numbers` order): its stored runs, or, for a trial with
/// none, every run's place mapped to the trial's observed values (so each resample holds them).
fn outcomes(
    d: &ReadingDistance,
    numbers: &[u8],
    trials: &[TrialUnderReading],
    replicates: &[ReplicateOutcome],
    ids: &[ReplicateId],
) -> Vec<Outcomes> {
    numbers
        .iter()
        .map(|&n| {
            let runs: Outcomes = replicates
                .iter()
                .filter(|r| {
                    r.trial == n && (r.stop.as_str(), r.window, r.patience, r.keep.as_str()) == key_of(d)
                })
                .map(|r| {
                    let id = ReplicateId { seed_index: r.seed_index, draw_index: r.draw_index };
                    (id, (r.epochs as f64, r.train_pct))
                })
                .collect();
            if !runs.is_empty() {
                return runs;
            }
            trials
                .iter()
                .find(|t| t.trial == n && t.reading == d.reading)
                .map(|t| ids.iter().map(|&id| (id, (t.epochs_median, t.train_mean))).collect())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance_row(reading: &str, patience: usize) -> ReadingDistance {
        ReadingDistance {
            reading: reading.into(),
            stop: "either".into(),
            window: 20,
            patience,
            keep: "most_correct".into(),
            epochs_log2: 0.0,
            kept_log2: 0.0,
            train_points: 0.0,
            distance: 0.0,
            truncated: 0,
            small_set_replicates: 10,
            whole_set_replicates: 0,
        }
    }

    fn trial_row(reading: &str, trial: u8, epochs_median: f64, train_mean: f64) -> TrialUnderReading {
        TrialUnderReading {
            reading: reading.into(),
            trial,
            replicates: 10,
            epochs_median,
            kept_epoch_median: epochs_median,
            train_mean,
            train_lo: train_mean,
            train_hi: train_mean,
            test_mean: None,
            truncated: 0,
            paper_epochs: 20,
            paper_train: 95.0,
        }
    }

    /// Ten runs of `trial` under the reading with `patience`: epochs `e + i`, accuracy `t`.
    fn runs(patience: usize, trial: u8, e: usize, t: f64) -> Vec<ReplicateOutcome> {
        (0..10)
            .map(|i| ReplicateOutcome {
                stop: "either".into(),
                window: 20,
                patience,
                keep: "most_correct".into(),
                trial,
                seed_index: i,
                draw_index: 0,
                epochs: e + i,
                kept_epoch: e + i,
                train_pct: t,
                test_pct: None,
                truncated: false,
            })
            .collect()
    }

    #[test]
    fn readings_are_ranked_with_paired_intervals_and_unstored_trials_held_fixed() {
        // Reading "near": median 24.5 epochs, 96 %; "far": median 40.5 epochs, 99 %. Trial 2 has
        // no stored runs and enters at its trials.csv values, the same for both readings.
        let distances = [distance_row("far", 20), distance_row("near", 100)];
        let trials = [
            trial_row("far", 1, 40.5, 99.0),
            trial_row("near", 1, 24.5, 96.0),
            trial_row("far", 2, 20.0, 95.0),
            trial_row("near", 2, 20.0, 95.0),
        ];
        let replicates = [runs(20, 1, 36, 99.0), runs(100, 1, 20, 96.0)].concat();
        let r = rank(&distances, &trials, &replicates, &|_| true).unwrap();
        assert_eq!(r.trials, [1, 2]);
        assert_eq!(r.fixed, [2]);
        assert_eq!(r.labels(), ["near", "far"]);
        // Trial 1 as readings::distance scores it, trial 2 adds nothing, over two trials.
        let far = super::super::readings::distance((40.5f64 / 20.0).log2(), 4.0) / 2.0;
        assert!((r.order[1].distance - far).abs() < 1e-12, "{:?}", r.order[1]);
        assert_eq!(r.order[0].vs_closest, 0.0);
        assert!(r.order[1].lo <= r.order[1].distance && r.order[1].distance <= r.order[1].hi);
        assert!(r.order[1].vs_closest_lo > 0.0, "far is measurably further: {:?}", r.order[1]);
        // Trial 1 alone: the held trial leaves the ranking, the distances double.
        let one = rank(&distances, &trials, &replicates, &|t| t == 1).unwrap();
        assert!(one.fixed.is_empty());
        assert!((one.order[1].distance - 2.0 * far).abs() < 1e-12);
        // Without stored runs there is nothing to resample.
        assert!(rank(&distances, &trials, &[], &|_| true).is_none());
    }
}
