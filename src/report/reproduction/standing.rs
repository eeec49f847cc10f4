//! "Where our figures stand against the paper's": Table 5 over the replicates (`table5.csv`)
//! summarised, so that the section's every number is the replicated table's (means with their
//! 95% intervals, median epochs), not the single configured run's.

use super::templates;
use crate::analysis::reproduction::NN6_TRIALS;
use crate::analysis::reproduction::table5::Table5Stat;
use crate::error::Result;
use crate::experiment::rows::Summary;
use crate::paper::tables::{self, Scope};
use crate::template::Engine;
use serde::Serialize;
use serde_json::json;

/// Where the 95% interval of our mean lies against the paper's single figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(super) enum Place {
    /// The whole interval lies above the paper's figure.
    Above,
    /// The interval holds it.
    Holds,
    /// The whole interval lies below it.
    Below,
}

pub(super) fn place(lo: f64, hi: f64, paper: f64) -> Place {
    if lo > paper {
        Place::Above
    } else if hi < paper {
        Place::Below
    } else {
        Place::Holds
    }
}

/// How many intervals lie above, hold, and lie below the paper's figures.
fn tally(places: impl Iterator<Item = Place>) -> [usize; 3] {
    let mut n = [0; 3];
    for p in places {
        n[p as usize] += 1;
    }
    n
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The small-set trials 1-37 in one bullet: means over the trials of our replicates' means, and
/// the trials counted ([above, holds, below]) by where our 95% CI lies against the paper's figure.
#[derive(Serialize)]
struct SmallSets {
    /// The runs per trial, where every trial has the same number.
    runs: Option<usize>,
    n: usize,
    tested: usize,
    train_mean: f64,
    paper_train: f64,
    test_mean: f64,
    paper_test: f64,
    train: [usize; 3],
    test: [usize; 3],
    epochs_above: usize,
    epochs_below: usize,
}

fn small_sets(small: &[&Table5Stat]) -> SmallSets {
    let tested: Vec<&&Table5Stat> =
        small.iter().filter(|s| s.test_mean.is_some() && s.paper_test.is_some()).collect();
    SmallSets {
        runs: small.iter().all(|s| s.replicates == small[0].replicates).then(|| small[0].replicates),
        n: small.len(),
        tested: tested.len(),
        train_mean: mean(small.iter().map(|s| s.train_mean)),
        paper_train: mean(small.iter().map(|s| s.paper_train)),
        test_mean: mean(tested.iter().filter_map(|s| s.test_mean)),
        paper_test: mean(tested.iter().filter_map(|s| s.paper_test)),
        train: tally(small.iter().map(|s| place(s.train_lo, s.train_hi, s.paper_train))),
        test: tally(tested.iter().filter_map(|s| Some(place(s.test_lo?, s.test_hi?, s.paper_test?)))),
        epochs_above: small.iter().filter(|s| s.epochs_median > s.paper_epochs as f64).count(),
        epochs_below: small.iter().filter(|s| s.epochs_median < s.paper_epochs as f64).count(),
    }
}

/// One whole-set trial: our mean training accuracy with its 95% CI placed against the paper's,
/// the median epochs with the range of 95% of runs, and the runs the budget ended.
#[derive(Serialize)]
struct WholeSet<'a> {
    stat: &'a Table5Stat,
    set: &'a str,
    positions: Option<usize>,
    place: Place,
}

/// The section as Markdown (the template `standing.md.j2`), from Table 5 over the replicates;
/// `trials` give the whole sets' names and sizes. Empty where the trials were not replicated.
pub(super) fn markdown(e: &Engine, replicated: &[Table5Stat], trials: &[Summary]) -> Result<String> {
    if replicated.is_empty() {
        return Ok(String::new());
    }
    let small: Vec<&Table5Stat> =
        replicated.iter().filter(|s| tables::scope(s.trial) == Some(Scope::Small)).collect();
    let whole: Vec<WholeSet> = replicated
        .iter()
        .filter(|s| NN6_TRIALS.contains(&s.trial))
        .map(|s| {
            let ours = trials.iter().find(|t| t.trial_number() == Some(s.trial));
            WholeSet {
                stat: s,
                set: ours.map_or("whole set", |t| t.training_set.as_str()),
                positions: ours.map(|t| t.train_positions),
                place: place(s.train_lo, s.train_hi, s.paper_train),
            }
        })
        .collect();
    let small = (!small.is_empty()).then(|| small_sets(&small));
    templates::render(e, "standing", &json!({ "small": small, "whole": whole }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(
        trial: u8,
        train: (f64, f64, f64),
        paper_train: f64,
        test: Option<(f64, f64, f64)>,
    ) -> Table5Stat {
        Table5Stat {
            trial,
            replicates: 50,
            train_mean: train.0,
            train_lo: train.1,
            train_hi: train.2,
            test_mean: test.map(|t| t.0),
            test_lo: test.map(|t| t.1),
            test_hi: test.map(|t| t.2),
            epochs_median: 60.0,
            paper_epochs: 50,
            paper_train,
            paper_test: test.map(|_| 80.0),
            seeds: 10,
            draws: 5,
            train_spread_lo: 90.0,
            train_spread_hi: 100.0,
            test_spread_lo: None,
            test_spread_hi: None,
            epochs_spread_lo: 40.0,
            epochs_spread_hi: 90.0,
            kept_epoch_median: 55.0,
            paper_train_inside: true,
            paper_test_inside: None,
            paper_epochs_inside: true,
            capped: 3,
            majority_train: 75.0,
            majority_test: None,
        }
    }

    #[test]
    fn an_interval_is_placed_against_the_papers_figure() {
        assert_eq!(place(98.1, 99.0, 98.0), Place::Above);
        assert_eq!(place(97.6, 98.4, 98.0), Place::Holds);
        assert_eq!(place(100.0, 100.0, 100.0), Place::Holds);
        assert_eq!(place(96.0, 97.9, 98.0), Place::Below);
    }

    /// The section counts the replicated means, not a single run: two small-set trials (one
    /// above the paper, one below in testing) and trial 39, rendered in full.
    #[test]
    fn the_section_counts_the_replicated_means_not_a_single_run() {
        let rows = [
            stat(1, (99.0, 98.5, 99.5), 98.0, Some((90.0, 89.0, 91.0))),
            stat(2, (97.0, 96.0, 98.5), 98.0, Some((79.0, 78.0, 79.5))),
            stat(39, (99.99, 99.98, 99.996), 99.6, None),
        ];
        let e = templates::engine().unwrap();
        let md = markdown(&e, &rows, &[]).unwrap();
        assert_eq!(md, include_str!("fixtures/standing.md"));
        assert!(markdown(&e, &[], &[]).unwrap().is_empty());
    }
}
