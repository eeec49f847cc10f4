//! The learning-rate sweep behind the small-set trials' step size (the paper gives none, section
//! 4.5): every trial's replicates trained at each rate under the configs' stopping rule and kept
//! state, scored by the readings comparison's distance to the paper's Table 5
//! ([`super::readings::ReadingDistance`]).
//!
//! Two rates are compared on the same replicates (the same weight seeds and draws), so the
//! difference of their distances gets a paired bootstrap interval: resample the replicates with
//! replacement, the same resample for every trial and every rate, and recompute each rate's
//! distance. A rate is measurably closer to the paper than the configs' only when that interval
//! lies wholly below zero.

use super::readings::{self, Reading};
use super::replicate::{ReplicateId, ReplicateRun};
use crate::experiment::config::Trial;
use crate::paper::tables::Table5Row;
use crate::stats::{self, Interval};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Resamples of the paired bootstrap.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;
/// The bootstrap's seed (our choice; fixed so that a rerun writes the same intervals).
pub const BOOTSTRAP_SEED: u64 = 1998;

/// One learning rate of a sweep: every trial's replicates at that rate, under the configs' reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    pub learning_rate: f64,
    pub runs: usize,
    /// As in [`super::readings::ReadingDistance`].
    pub epochs_log2: f64,
    pub train_points: f64,
    pub distance: f64,
    /// 95% bootstrap intervals (2.5% and 97.5% quantiles over the resamples) of the three above.
    pub epochs_log2_lo: f64,
    pub epochs_log2_hi: f64,
    pub train_points_lo: f64,
    pub train_points_hi: f64,
    pub distance_lo: f64,
    pub distance_hi: f64,
    /// Training accuracy over all runs, mean and 95% interval, %.
    pub train_mean: f64,
    pub train_lo: f64,
    pub train_hi: f64,
    /// This rate's distance minus the configs' rate's, with the paired bootstrap's 95% interval
    /// (2.5% and 97.5% quantiles of the resampled differences); 0 for the configs' rate itself.
    pub vs_configs: f64,
    pub vs_configs_lo: f64,
    pub vs_configs_hi: f64,
    /// The rate the configs use (the reference of `vs_configs`).
    pub configs_rate: f64,
}

/// One replicate's outcome under the configs' reading: (epochs run, training accuracy %).
pub(super) type Outcomes = BTreeMap<ReplicateId, (f64, f64)>;

/// Per trial (in `trials` order, only those in Table 5), each replicate's outcome.
fn outcomes(trials: &[Trial], runs: &[ReplicateRun]) -> Vec<Outcomes> {
    trials
        .iter()
        .enumerate()
        .map(|(i, trial)| {
            let reading = Reading::of(&trial.config);
            runs.iter()
                .filter(|r| r.trial == i)
                .map(|r| {
                    let o = readings::outcome(trial, &reading, r);
                    (r.id, (o.epochs as f64, o.train_pct))
                })
                .collect()
        })
        .collect()
}

/// The distance to the paper (epochs + train / 2, as the readings comparison) of the replicates
/// `ids` (repeats allowed) of every trial; trials with none of them are skipped.
pub(super) fn distance(per_trial: &[Outcomes], paper: &[(f64, f64)], ids: &[ReplicateId]) -> (f64, f64, f64) {
    let (mut d_epochs, mut d_train, mut n) = (0.0, 0.0, 0usize);
    for (outs, &(paper_epochs, paper_train)) in per_trial.iter().zip(paper) {
        let picked: Vec<(f64, f64)> = ids.iter().filter_map(|id| outs.get(id).copied()).collect();
        if picked.is_empty() {
            continue;
        }
        let epochs: Vec<f64> = picked.iter().map(|p| p.0).collect();
        let train: Vec<f64> = picked.iter().map(|p| p.1).collect();
        d_epochs += readings::epochs_gap(stats::median(&epochs), paper_epochs);
        d_train += (stats::mean(&train) - paper_train).abs();
        n += 1;
    }
    let n = n.max(1) as f64;
    let (e, t) = (d_epochs / n, d_train / n);
    (e, t, readings::distance(e, t))
}

/// Score each rate's runs (`by_rate[k]` = (rate, runs of `trials` trained at it)) against the
/// paper, with each rate's distance compared to the configs' rate by the paired bootstrap.
/// `trials` are the configured trials; their shared learning rate is the reference (when they do
/// not share one, the rate with the least distance is).
pub fn score(trials: &[Trial], by_rate: &[(f64, Vec<ReplicateRun>)], paper: &[Table5Row]) -> Vec<SweepRow> {
    let paper_cells: Vec<(f64, f64)> = trials
        .iter()
        .map(|t| {
            readings::trial_number(t.name())
                .and_then(|n| paper.iter().find(|p| p.trial == n))
                .map_or((f64::NAN, f64::NAN), |p| (p.epochs as f64, p.train_acc_pct))
        })
        .collect();
    let per_rate: Vec<Vec<Outcomes>> = by_rate.iter().map(|(_, runs)| outcomes(trials, runs)).collect();
    let ids: Vec<ReplicateId> = {
        let mut all: Vec<ReplicateId> = per_rate.iter().flatten().flat_map(|o| o.keys().copied()).collect();
        all.sort();
        all.dedup();
        all
    };
    let point: Vec<(f64, f64, f64)> = per_rate.iter().map(|p| distance(p, &paper_cells, &ids)).collect();
    let shared = trials.first().map(|t| t.config.learning_rate).filter(|&r| {
        trials.iter().all(|t| t.config.learning_rate == r) && by_rate.iter().any(|(x, _)| *x == r)
    });
    let reference = match shared {
        Some(r) => by_rate.iter().position(|(x, _)| *x == r).unwrap_or(0),
        None => (0..point.len()).min_by(|&a, &b| point[a].2.total_cmp(&point[b].2)).unwrap_or(0),
    };
    let resampled = bootstrap(&per_rate, &paper_cells, &ids);
    by_rate
        .iter()
        .zip(&point)
        .zip(&resampled)
        .map(|(((rate, runs), &(epochs_log2, train_points, dist)), boot)| {
            let train: Vec<f64> = runs.iter().map(|r| r.run.summary.train_accuracy_pct).collect();
            let ci =
                Interval::of_mean_pct(&train).unwrap_or(Interval { mean: f64::NAN, lo: 0.0, hi: 0.0, n: 0 });
            let component = |f: &dyn Fn(&(f64, f64, f64)) -> f64| {
                stats::spread95(&boot.iter().map(f).collect::<Vec<_>>())
            };
            let diff: Vec<f64> = boot.iter().zip(&resampled[reference]).map(|(a, b)| a.2 - b.2).collect();
            let (lo, hi) = stats::spread95(&diff);
            let ((e_lo, e_hi), (t_lo, t_hi), (d_lo, d_hi)) =
                (component(&|b| b.0), component(&|b| b.1), component(&|b| b.2));
            SweepRow {
                learning_rate: *rate,
                runs: runs.len(),
                epochs_log2,
                train_points,
                distance: dist,
                epochs_log2_lo: e_lo,
                epochs_log2_hi: e_hi,
                train_points_lo: t_lo,
                train_points_hi: t_hi,
                distance_lo: d_lo,
                distance_hi: d_hi,
                train_mean: ci.mean,
                train_lo: ci.lo,
                train_hi: ci.hi,
                vs_configs: dist - point[reference].2,
                vs_configs_lo: lo,
                vs_configs_hi: hi,
                configs_rate: by_rate[reference].0,
            }
        })
        .collect()
}

/// For each rate, its (epochs, train, distance) on each of [`BOOTSTRAP_RESAMPLES`] resamples of
/// the replicates; resample k is the same for every trial and every rate (paired).
pub(super) fn bootstrap(
    per_rate: &[Vec<Outcomes>],
    paper: &[(f64, f64)],
    ids: &[ReplicateId],
) -> Vec<Vec<(f64, f64, f64)>> {
    let mut rng = ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
    let mut out = vec![Vec::with_capacity(BOOTSTRAP_RESAMPLES); per_rate.len()];
    if ids.is_empty() {
        return out;
    }
    for _ in 0..BOOTSTRAP_RESAMPLES {
        let sample: Vec<ReplicateId> = (0..ids.len()).map(|_| ids[rng.random_range(0..ids.len())]).collect();
        for (o, p) in out.iter_mut().zip(per_rate) {
            o.push(distance(p, paper, &sample));
        }
    }
    out
}

/// Draw the sweep's chart at `out` in `format`, every swept rate a labelled tick of its log axis.
pub fn save_chart(
    rows: &[SweepRow],
    out: &crate::output::FileOut,
    format: crate::figures::plot::ImageFormat,
) -> crate::error::Result<()> {
    let rates: Vec<f64> = rows.iter().map(|r| r.learning_rate).collect();
    chart(rows).save_to_with_x_ticks(out, format, (900, 520), &rates)
}

/// The sweep's chart: each distance component against the learning rate (log scale).
pub fn chart(rows: &[SweepRow]) -> crate::figures::plot::LineChart {
    use crate::figures::colours::Measure;
    use crate::figures::plot::{Legend, LineChart, Series};
    type Of = dyn Fn(&SweepRow) -> (f64, f64, f64);
    let series = |label: &str, f: &Of, colour| {
        let points = rows.iter().map(|r| (r.learning_rate, f(r).0)).collect();
        let bars = rows.iter().map(|r| (r.learning_rate, f(r).1, f(r).2)).collect();
        Series::new(label, points, colour).with_markers().with_error_bars(bars)
    };
    let text = &super::chart::TEXT.sweep;
    let top = rows.iter().map(|r| r.distance_hi.max(r.train_points_hi)).fold(1.0f64, f64::max);
    let (lo, hi) = rows
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), r| (lo.min(r.learning_rate), hi.max(r.learning_rate)));
    LineChart {
        title: text.title.clone(),
        x_label: text.x_label.clone(),
        y_label: text.y_label.clone(),
        y_range: (0.0, (top * 1.15).ceil()),
        y2: None,
        x_range: Some((lo / 1.5, hi * 1.5)),
        log_x: true,
        log_y: false,
        legend: Legend::UpperRight,
        integer_x: false,
        series: vec![
            // Each component in its measure's colour; their sum is a distance to the paper.
            series(&text.distance, &|r| (r.distance, r.distance_lo, r.distance_hi), Measure::Paper.colour()),
            series(
                &text.epochs,
                &|r| (r.epochs_log2, r.epochs_log2_lo, r.epochs_log2_hi),
                Measure::Epochs.colour(),
            ),
            series(
                &text.train,
                &|r| (r.train_points, r.train_points_lo, r.train_points_hi),
                Measure::Training.colour(),
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(seed_index: usize) -> ReplicateId {
        ReplicateId { seed_index, draw_index: 0 }
    }

    /// Two trials, ten replicates: epochs `e + i` and training accuracy `t` for replicate i.
    fn outcomes_of(e: f64, t: f64) -> Vec<Outcomes> {
        (0..2).map(|_| (0..10).map(|i| (id(i), (e + i as f64, t))).collect()).collect()
    }

    #[test]
    fn the_distance_is_the_readings_comparisons() {
        // Paper: 20 epochs, 95 %. Ours: median 40.5 epochs, 99 %: log2(40.5/20) + 4/2.
        let per_trial = outcomes_of(36.0, 99.0);
        let ids: Vec<ReplicateId> = (0..10).map(id).collect();
        let (e, t, d) = distance(&per_trial, &[(20.0, 95.0), (20.0, 95.0)], &ids);
        assert!((e - (40.5f64 / 20.0).log2()).abs() < 1e-12);
        assert!((t - 4.0).abs() < 1e-12);
        assert!((d - (e + 2.0)).abs() < 1e-12);
    }

    #[test]
    fn the_paired_bootstrap_separates_a_better_rate_and_not_an_equal_one() {
        let paper = [(20.0, 95.0), (20.0, 95.0)];
        let ids: Vec<ReplicateId> = (0..10).map(id).collect();
        // Rate 0 the reference; rate 1 the same runs; rate 2 nearer the paper in both components.
        let per_rate = vec![outcomes_of(36.0, 99.0), outcomes_of(36.0, 99.0), outcomes_of(20.0, 97.0)];
        let boot = bootstrap(&per_rate, &paper, &ids);
        assert!(boot.iter().all(|b| b.len() == BOOTSTRAP_RESAMPLES));
        let diff = |k: usize| -> Vec<f64> { boot[k].iter().zip(&boot[0]).map(|(a, b)| a.2 - b.2).collect() };
        assert_eq!(stats::spread95(&diff(1)), (0.0, 0.0));
        let (lo, hi) = stats::spread95(&diff(2));
        assert!(lo < hi && hi < 0.0, "{lo} {hi}");
        // The same seed resamples the same replicates.
        assert_eq!(boot, bootstrap(&per_rate, &paper, &ids));
    }
}
