//! Replicates: a trial run again under other weight seeds and other draws of the small sets, so
//! that Table 5 can show means and 95% intervals instead of one run.
//!
//! Replicate (r, d) of a trial keeps every key of its config except two: the weight seed becomes
//! `seed + r · SEED_STRIDE` (which also moves the presentation order, derived from it), and for the
//! small sets (T1/S1, T2/S2, seeded draws standing in for the paper's hand-picked split, section
//! 4.5) the data seed becomes `data_seed + d`. Replicate (0, 0) is the config itself. Whole sets
//! (T3–T5) have one draw: they are every position of their kind.
//!
//! Draw d is the same for every trial, as the paper's one split was shared by all its small-set
//! trials; so are the weight seeds' offsets.

use crate::chess::bitbase::Bitbase;
use crate::dataset::Dataset;
use crate::error::Result;
use crate::experiment::{
    config::Trial,
    run::{TrialRun, run_trial},
};
use crate::paper::tables::Scope;
use crate::train::EpochMetrics;

/// Offset between the weight seeds of successive replicates: larger than any trial's own seed
/// (1-41), so no two replicates of Table 5 share a seed.
pub const SEED_STRIDE: u64 = 1000;

/// How many replicates each trial gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replicates {
    /// Weight seeds per draw (R).
    pub seeds: usize,
    /// Draws of the small sets (D); trials on whole sets have one.
    pub draws: usize,
    /// Weight seeds for the whole-set trials, which cost thousands of times more per run.
    pub whole_set_seeds: usize,
}

impl Replicates {
    /// One run per trial: the configs as written.
    pub const ONE: Replicates = Replicates { seeds: 1, draws: 1, whole_set_seeds: 1 };
}

/// A replicate's place: weight seed index r and draw index d.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReplicateId {
    pub seed_index: usize,
    pub draw_index: usize,
}

/// Every replicate of `trial`, (0, 0) first, then by draw and seed.
pub fn variants(trial: &Trial, reps: Replicates) -> Result<Vec<(ReplicateId, Trial)>> {
    let drawn = trial.scope() == Scope::Small;
    let (seeds, draws) = if drawn { (reps.seeds, reps.draws) } else { (reps.whole_set_seeds, 1) };
    let mut out = Vec::with_capacity(seeds * draws);
    for d in 0..draws.max(1) {
        for r in 0..seeds.max(1) {
            let t = trial.with(|c| {
                c.seed = trial.config.seed.wrapping_add(r as u64 * SEED_STRIDE);
                if drawn {
                    c.data_seed = trial.config.data_seed.wrapping_add(d as u64);
                }
            })?;
            out.push((ReplicateId { seed_index: r, draw_index: d }, t));
        }
    }
    Ok(out)
}

/// One finished replicate.
#[derive(Clone, Debug)]
pub struct ReplicateRun {
    /// Index of the trial in the slice given to [`run_replicates`].
    pub trial: usize,
    pub id: ReplicateId,
    pub run: TrialRun,
}

impl ReplicateRun {
    /// The run's epoch-by-epoch record (for [`crate::train::stopping::replay`]).
    pub fn history(&self) -> &[EpochMetrics] {
        &self.run.metrics
    }
}

/// Run every replicate of every trial on `jobs` threads, the longest first; nothing is written.
/// `progress(done, total)` is called after each run. Every run is deterministic on its own, so the
/// thread count changes only the wall time. Stops at the first failure and returns it.
pub fn run_replicates(
    trials: &[Trial],
    reps: Replicates,
    bb: &Bitbase,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<ReplicateRun>> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let mut work: Vec<(usize, ReplicateId, Trial)> = Vec::new();
    for (i, t) in trials.iter().enumerate() {
        work.extend(variants(t, reps)?.into_iter().map(|(id, v)| (i, id, v)));
    }
    // Longest first (a stable sort keeps trial order among equals), so the long runs start at
    // once and the short ones fill in around them.
    work.sort_by_key(|(_, _, t)| std::cmp::Reverse(t.budget()));
    let total = work.len();
    let (next, done, failed) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicBool::new(false));
    let results: Mutex<Vec<Option<Result<ReplicateRun>>>> = Mutex::new((0..total).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, total.max(1)) {
            scope.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((i, id, trial)) = work.get(k) else { break };
                    let run = run_trial(trial, bb, &mut |_| {}).map_err(|e| {
                        failed.store(true, Ordering::Relaxed);
                        e.context(format!("{} (seed {})", trial.name(), trial.config.seed))
                    });
                    let run = run.map(|run| ReplicateRun { trial: *i, id: *id, run });
                    // The lock guards one assignment, which leaves no slot half written: poisoned, it is still sound.
                    results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[k] = Some(run);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
            });
        }
    });
    let mut runs = Vec::with_capacity(total);
    for r in results.into_inner().expect("workers have finished").into_iter().flatten() {
        runs.push(r?);
    }
    runs.sort_by_key(|r| (r.trial, r.id.draw_index, r.id.seed_index));
    Ok(runs)
}

/// The share of wins in a set, in %: the accuracy of a net that calls every position a win (the
/// majority class in every set of Table 5; section 5.1 quotes 76.5% for wtm and 58.4% for btm).
pub fn wins_pct(set: &str, data_seed: u64, bb: &Bitbase) -> Result<f64> {
    let d = Dataset::named(set, data_seed, bb)?;
    let wins = d.wins();
    Ok(100.0 * wins.iter().filter(|&&w| w).count() as f64 / wins.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::config::TrialConfig;

    /// The unit tests' trial on `set` (tested on `test`), three epochs from data seed 1998.
    fn trial(set: &str, test: Option<&str>) -> Trial {
        let mut text = crate::experiment::FIXTURE.to_string();
        for (key, value) in [
            ("training_set", format!("{set:?}")),
            ("testing_set", test.map_or_else(String::new, |t| format!("{t:?}"))),
            ("data_seed", "1998".into()),
            ("learning_rate", "0.3".into()),
            ("max_epochs", "3".into()),
            ("window", "3".into()),
        ] {
            text = crate::experiment::set_key(&text, key, &value);
        }
        TrialConfig::parse(&text).unwrap().check().unwrap()
    }

    #[test]
    fn replicates_move_the_seeds_and_only_the_small_sets_draws() {
        let reps = Replicates { seeds: 3, draws: 2, whole_set_seeds: 2 };
        let small = variants(&trial("T1", Some("S1")), reps).unwrap();
        assert_eq!(small.len(), 6);
        assert_eq!((small[0].1.config.seed, small[0].1.config.data_seed), (7, 1998));
        assert_eq!((small[5].1.config.seed, small[5].1.config.data_seed), (2007, 1999));
        let seeds: std::collections::HashSet<_> =
            small.iter().map(|(_, t)| (t.config.seed, t.config.data_seed)).collect();
        assert_eq!(seeds.len(), 6);
        let whole = variants(&trial("T4", None), reps).unwrap();
        assert_eq!(whole.len(), 2);
        assert!(whole.iter().all(|(_, t)| t.config.data_seed == 1998));
        assert_eq!(variants(&trial("T4", None), Replicates::ONE).unwrap()[0].1, trial("T4", None));
    }

    #[test]
    fn replicate_zero_is_the_config_run_and_histories_convert_back_exactly() {
        let bb = Bitbase::generate();
        let t = trial("T1", Some("S1"));
        let reps = Replicates { seeds: 2, draws: 2, whole_set_seeds: 1 };
        let runs = run_replicates(std::slice::from_ref(&t), reps, &bb, 2, &|_, _| {}).unwrap();
        assert_eq!(runs.len(), 4);
        let direct = run_trial(&t, &bb, &mut |_| {}).unwrap();
        // Everything but the wall time, which is the machine's.
        let record = |m: &[EpochMetrics]| -> Vec<(usize, u64, u64, usize, Option<f64>)> {
            m.iter()
                .map(|m| (m.epoch, m.e1.to_bits(), m.e2.to_bits(), m.correct, m.test_accuracy_pct))
                .collect()
        };
        assert_eq!(record(&runs[0].run.metrics), record(&direct.metrics));
        // Each replicate is a different run.
        assert_ne!(record(&runs[0].run.metrics), record(&runs[1].run.metrics));
        assert_ne!(record(&runs[0].run.metrics), record(&runs[2].run.metrics));
        // The history the trainer saw is recovered exactly from metrics.csv's rows.
        let mut seen = Vec::new();
        let (x, w) = {
            let d = Dataset::named("T1", 1998, &bb).unwrap();
            (d.inputs(t.config.input_coding), d.wins())
        };
        let (xs, ws) = {
            let d = Dataset::named("S1", 1998, &bb).unwrap();
            (d.inputs(t.config.input_coding), d.wins())
        };
        let net = crate::net::mlp::Mlp::new(t.topology().widths(), 1.0, 7).unwrap();
        let test = crate::train::TrainData { inputs: xs.view(), wins: &ws };
        crate::train::train(
            net,
            &crate::train::TrainData { inputs: x.view(), wins: &w },
            Some(&test),
            &t.train_config(),
            &mut |m| seen.push(m.clone()),
        )
        .unwrap();
        let got = runs[0].history();
        assert_eq!(got.len(), seen.len());
        for (a, b) in got.iter().zip(&seen) {
            assert_eq!(
                (a.epoch, a.correct, a.wrong_m0(), a.total),
                (b.epoch, b.correct, b.wrong_m0(), b.total)
            );
        }
    }

    #[test]
    fn majority_baselines_are_the_win_shares() {
        let bb = Bitbase::generate();
        // Section 2 / 5.1: 76.5% of wtm positions are wins (62,480 of 81,664).
        assert!((wins_pct("T3", 0, &bb).unwrap() - 100.0 * 62_480.0 / 81_664.0).abs() < 1e-12);
        let s1 = wins_pct("S1", 1998, &bb).unwrap();
        assert!((0.0..=100.0).contains(&s1));
    }
}
