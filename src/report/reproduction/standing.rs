//! "Where our figures stand against the paper's": Table 5 over the replicates (`table5.csv`)
//! summarised, so that the section's every number is the replicated table's (means with their
//! 95% intervals, median epochs), not the single configured run's.

use super::{NN6_TRIALS, Summary, paper_pct, pct, pct2, trial_number};
use crate::paper::tables::{self, Scope};
use crate::report::reproduction::table5::Table5Stat;
use std::fmt::Write;

/// Where the 95% interval of our mean lies against the paper's single figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The bullet for the small-set trials 1-37: means over the trials of our replicates' means, and
/// the trials counted by where our 95% CI lies against the paper's figure.
fn small_sets(small: &[&Table5Stat]) -> String {
    let n = small.len();
    let tested: Vec<&&Table5Stat> =
        small.iter().filter(|s| s.test_mean.is_some() && s.paper_test.is_some()).collect();
    let train = tally(small.iter().map(|s| place(s.train_lo, s.train_hi, s.paper_train)));
    let test = tally(tested.iter().filter_map(|s| Some(place(s.test_lo?, s.test_hi?, s.paper_test?))));
    let epochs_above = small.iter().filter(|s| s.epochs_median > s.paper_epochs as f64).count();
    let epochs_below = small.iter().filter(|s| s.epochs_median < s.paper_epochs as f64).count();
    let runs = if small.iter().all(|s| s.replicates == small[0].replicates) {
        format!("; {} runs each", small[0].replicates)
    } else {
        String::new()
    };
    format!(
        "- **Trials 1–37 (small sets T1/S1, T2/S2{runs}):** averaged over the trials, our mean \
         training accuracy is {} % (paper {} %) and our mean testing accuracy {} % (paper {} %). \
         The 95% CI of our mean training accuracy lies wholly above the paper's figure in {} of {n} \
         trials, holds it in {} and lies wholly below it in {}; of our mean testing accuracy, above in \
         {} of {}, holds it in {}, below in {}. Our median epoch count is above the paper's in \
         {epochs_above} of {n} trials and below it in {epochs_below}.",
        pct(mean(small.iter().map(|s| s.train_mean))),
        pct(mean(small.iter().map(|s| s.paper_train))),
        pct(mean(tested.iter().filter_map(|s| s.test_mean))),
        pct(mean(tested.iter().filter_map(|s| s.paper_test))),
        train[0],
        train[1],
        train[2],
        test[0],
        tested.len(),
        test[1],
        test[2],
    )
}

/// The bullet for one whole-set trial: our mean training accuracy with its 95% CI against the
/// paper's, the median epochs with the range of 95% of runs, and the runs the budget ended.
fn whole_set(s: &Table5Stat, set: &str, positions: Option<usize>) -> String {
    let verdict = match place(s.train_lo, s.train_hi, s.paper_train) {
        Place::Above => "**above the paper's** (the 95% CI lies wholly above it)",
        Place::Holds => "**consistent with the paper's** (the 95% CI holds it)",
        Place::Below => "**below the paper's** (the 95% CI lies wholly below it)",
    };
    format!(
        "- **Trial {} ({set}{}; {} runs):** mean training accuracy {} % [{}, {}] against the \
         paper's {} % — {verdict}; median {:.0} epochs run (95% of runs {:.0}–{:.0}; paper {}), {} of \
         {} runs ended by the budget `max_epochs`.",
        s.trial,
        positions.map_or_else(String::new, |p| format!(", all {p} positions")),
        s.replicates,
        pct2(s.train_mean),
        pct2(s.train_lo),
        pct2(s.train_hi),
        paper_pct(s.paper_train),
        s.epochs_median,
        s.epochs_spread_lo,
        s.epochs_spread_hi,
        s.paper_epochs,
        s.capped,
        s.replicates,
    )
}

/// The section as Markdown, from Table 5 over the replicates; `trials` give the whole sets' names
/// and sizes. Empty where the trials were not replicated.
pub(super) fn markdown(replicated: &[Table5Stat], trials: &[Summary]) -> String {
    if replicated.is_empty() {
        return String::new();
    }
    let mut w = String::from("### Where our figures stand against the paper's\n\n");
    let _ = writeln!(
        w,
        "From Table 5 over replicates above (`table5.csv`): our means with their 95% CI, and median \
         epochs with the range of 95% of runs, against the paper's single run.\n"
    );
    let small: Vec<&Table5Stat> =
        replicated.iter().filter(|s| tables::scope(s.trial) == Some(Scope::Small)).collect();
    if !small.is_empty() {
        let _ = writeln!(w, "{}", small_sets(&small));
    }
    for s in replicated.iter().filter(|s| NN6_TRIALS.contains(&s.trial)) {
        let ours = trials.iter().find(|t| trial_number(t) == Some(s.trial));
        let set = ours.map_or("whole set", |t| t.training_set.as_str());
        let _ = writeln!(w, "{}", whole_set(s, set, ours.map(|t| t.train_positions)));
    }
    let _ = writeln!(w);
    w
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

    #[test]
    fn the_section_counts_the_replicated_means_not_a_single_run() {
        let rows = [
            stat(1, (99.0, 98.5, 99.5), 98.0, Some((90.0, 89.0, 91.0))),
            stat(2, (97.0, 96.0, 98.5), 98.0, Some((79.0, 78.0, 79.5))),
            stat(39, (99.99, 99.98, 99.996), 99.6, None),
        ];
        let md = markdown(&rows, &[]);
        assert!(md.contains("our mean training accuracy is 98.0 % (paper 98.0 %)"), "{md}");
        assert!(md.contains("our mean testing accuracy 84.5 % (paper 80.0 %)"), "{md}");
        assert!(md.contains(
            "wholly above the paper's figure in 1 of 2 trials, holds it in 1 and lies wholly below it in 0"
        ));
        assert!(md.contains("above in 1 of 2, holds it in 0, below in 1"), "{md}");
        assert!(md.contains("above the paper's in 2 of 2 trials and below it in 0"), "{md}");
        assert!(
            md.contains("**Trial 39 (whole set; 50 runs):** mean training accuracy 99.99 % [99.98, 100.00]"),
            "{md}"
        );
        assert!(
            md.contains("**above the paper's**")
                && md.contains("median 60 epochs run (95% of runs 40–90; paper 50), 3 of 50")
        );
        assert!(markdown(&[], &[]).is_empty());
    }
}
