//! Trials scheduled on a rayon pool of their own: each trains ([`run_trial_on`]) and its folder is
//! written ([`write_trial`]) as it finishes.

use super::config::Trial;
use super::folder::write_trial;
use super::run::{TrialRun, run_trial_on};
use crate::chess::bitbase::Bitbase;
use crate::error::Result;
use crate::output::RunFolder;
use crate::train::EpochMetrics;

/// What [`run_trials`] reports as it goes, with the trial's index in the slice it was given.
pub enum Progress<'a> {
    Started(usize),
    Epoch(usize, &'a EpochMetrics),
    /// The trial's folder has been written.
    Finished(usize, &'a TrialRun),
}

/// Run `trials` on `jobs` threads (a rayon pool of its own), longest budget first (so the long
/// NN6 trials start at once and the short ones fill in around them), writing each one's folder as
/// it finishes. With more threads than trials, each trial trains on its share of them
/// ([`run_trial_on`]). Every trial is deterministic on its own and the runs come back in the order
/// of `trials`, so the thread count changes only the wall time. Stops starting new trials after the
/// first failure, and returns the first error in the order of `trials`.
pub fn run_trials(
    trials: &[Trial],
    folders: &[RunFolder],
    bb: &Bitbase,
    jobs: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<TrialRun>> {
    use rayon::iter::{ParallelBridge, ParallelIterator};
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut order: Vec<usize> = (0..trials.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(trials[i].budget()));
    let pool = crate::train::thread_pool(jobs.clamp(1, trials.len().max(1)))?;
    let threads_each = (jobs / trials.len().max(1)).max(1);
    let failed = AtomicBool::new(false);
    // `par_bridge` hands the trials out one at a time in `order` as threads fall free.
    let mut results: Vec<(usize, Result<TrialRun>)> = pool.install(|| {
        order
            .into_iter()
            .par_bridge()
            .filter(|_| !failed.load(Ordering::Relaxed))
            .map(|i| {
                progress(Progress::Started(i));
                let run =
                    run_trial_on(&trials[i], bb, threads_each, &mut |m| progress(Progress::Epoch(i, m)))
                        .and_then(|run| write_trial(&folders[i], &run).map(|()| run));
                match &run {
                    Ok(run) => progress(Progress::Finished(i, run)),
                    Err(_) => failed.store(true, Ordering::Relaxed),
                }
                (i, run)
            })
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(i, run)| run.map_err(|e| e.context(trials[i].name()))).collect()
}
