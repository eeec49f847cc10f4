//! Whether the ranking of the readings rests on runs cut at their budget (trial 41's budget is the
//! paper's own epoch count) or on the whole-set trials: the trials scored at the paper's count by
//! their budget, and the readings ranked again without them and over the small sets.

use super::NN6_TRIALS;
use crate::experiment::readings::{ReadingDistance, ReplicateOutcome, TrialUnderReading};
use crate::experiment::readings_intervals::{self, Ranking};
use serde::{Deserialize, Serialize};

/// Trial numbers as ranges: "1-37", "38, 40-41".
pub fn ranges(trials: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < trials.len() {
        let mut j = i;
        while j + 1 < trials.len() && trials[j + 1] == trials[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { trials[i].to_string() } else { format!("{}-{}", trials[i], trials[j]) });
        i = j + 1;
    }
    parts.join(", ")
}

/// A trial whose median run, under some reading, ends at a budget equal to the paper's epoch count
/// (at least half its runs cut there), so that it scores no epoch gap by running to the cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtThePapersCount {
    pub trial: u8,
    pub paper_epochs: usize,
    /// The stopping conditions that do so (the readings without their kept state).
    pub stops: Vec<String>,
    /// The fewest and most of its runs cut at the budget under them, and its runs.
    pub cut: (usize, usize),
    pub runs: usize,
}

/// The trials of [`AtThePapersCount`], from each trial under each reading.
pub fn at_the_papers_count(trials: &[TrialUnderReading]) -> Vec<AtThePapersCount> {
    let mut out: Vec<AtThePapersCount> = Vec::new();
    for t in trials {
        if t.truncated * 2 < t.replicates || t.epochs_median != t.paper_epochs as f64 {
            continue;
        }
        let stop = t.reading.split(", keep").next().unwrap_or(&t.reading).to_string();
        match out.iter_mut().find(|o| o.trial == t.trial) {
            Some(o) => {
                if !o.stops.contains(&stop) {
                    o.stops.push(stop);
                }
                o.cut = (o.cut.0.min(t.truncated), o.cut.1.max(t.truncated));
            }
            None => out.push(AtThePapersCount {
                trial: t.trial,
                paper_epochs: t.paper_epochs,
                stops: vec![stop],
                cut: (t.truncated, t.truncated),
                runs: t.replicates,
            }),
        }
    }
    out.sort_by_key(|o| o.trial);
    out
}

/// The readings ranked over subsets of the trials (the same resamples as over all): without each
/// trial scored at the paper's count by its budget, without all of them, and over the small sets.
/// (name, ranking), for the subsets that rank at least two readings over other trials than `all`.
pub fn subsets(
    all: &Ranking,
    distances: &[ReadingDistance],
    trials: &[TrialUnderReading],
    replicates: &[ReplicateOutcome],
) -> Vec<(String, Ranking)> {
    let capped: Vec<u8> = at_the_papers_count(trials).iter().map(|c| c.trial).collect();
    let mut excluded: Vec<Vec<u8>> = capped.iter().map(|&t| vec![t]).collect();
    if capped.len() > 1 {
        excluded.push(capped.clone());
    }
    // (name, the trials left out)
    let mut named: Vec<(String, Vec<u8>)> =
        excluded.into_iter().map(|out| (format!("without {}", ranges(&out)), out)).collect();
    named.push(("small sets".to_string(), NN6_TRIALS.to_vec()));
    named
        .into_iter()
        .filter_map(|(name, out)| {
            let include = |t: u8| !out.contains(&t);
            let ranked = readings_intervals::rank(distances, trials, replicates, &include);
            ranked.filter(|r| r.order.len() >= 2 && r.trials != all.trials).map(|r| (name, r))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::readings::TrialUnderReading;

    #[test]
    fn trial_lists_are_written_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        assert_eq!(ranges(&[41]), "41");
        assert_eq!(ranges(&[]), "");
    }

    fn row(reading: &str, trial: u8, epochs_median: f64, truncated: usize) -> TrialUnderReading {
        TrialUnderReading {
            reading: reading.into(),
            trial,
            replicates: 10,
            epochs_median,
            kept_epoch_median: epochs_median,
            train_mean: 99.0,
            train_lo: 99.0,
            train_hi: 99.0,
            test_mean: None,
            truncated,
            paper_epochs: 461,
            paper_train: 99.9,
        }
    }

    #[test]
    fn a_trial_is_scored_at_the_papers_count_when_most_runs_end_at_a_budget_equal_to_it() {
        use crate::experiment::readings::Reading;
        use crate::train::{config::StopRule, keep::BestState};
        let label = |stop, keep| Reading { stop, window: 20, patience: 20, keep }.label();
        let trials = vec![
            row(&label(StopRule::ErrorTarget, BestState::MostCorrect), 41, 461.0, 10),
            row(&label(StopRule::ErrorTarget, BestState::LeastError), 41, 461.0, 8),
            // At the paper's count but stopped by the rule: not cut.
            row(&label(StopRule::Either, BestState::MostCorrect), 41, 461.0, 4),
            // Cut, but at a budget below the paper's count.
            row(&label(StopRule::Both, BestState::MostCorrect), 38, 400.0, 10),
        ];
        let capped = at_the_papers_count(&trials);
        assert_eq!(capped.len(), 1);
        assert_eq!(capped[0].trial, 41);
        assert_eq!(capped[0].stops, ["error target (target 20)"]);
        assert_eq!(capped[0].cut, (8, 10));
    }
}
