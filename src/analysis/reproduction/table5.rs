//! Table 5 with error bars: each trial's replicates summarised as means with 95% intervals, beside
//! the paper's single run and the majority-class baseline, as `reports/table5.csv` and Markdown.
//!
//! Two intervals answer two questions. The confidence interval of the mean (Student's t over the
//! replicates) says where our setting's average lies; the spread (the 2.5% and 97.5% quantiles of
//! the replicates) says where one run of it falls. The paper's figure is one run, so whether it
//! is "inside" is judged against the spread; the confidence interval is what section 5.1's
//! comparisons between settings use. [`crate::report::reproduction::replicated`] writes the table
//! in `REPRODUCTION.md`.

use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::experiment::config::Trial;
use crate::experiment::readings::trial_number;
use crate::experiment::replicate::{ReplicateRun, wins_pct};
use crate::paper::tables::Table5Row;
use crate::stats::{self, Interval};
use crate::train::StopReason;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One row of `reports/table5.csv`: accuracies in %, empty where not tested.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table5Stat {
    pub trial: u8,
    pub replicates: usize,
    pub train_mean: f64,
    pub train_lo: f64,
    pub train_hi: f64,
    pub test_mean: Option<f64>,
    pub test_lo: Option<f64>,
    pub test_hi: Option<f64>,
    pub epochs_median: f64,
    pub paper_epochs: usize,
    pub paper_train: f64,
    pub paper_test: Option<f64>,
    /// Weight seeds and draws of the small sets behind `replicates`.
    pub seeds: usize,
    pub draws: usize,
    /// The 2.5% and 97.5% quantiles of single runs.
    pub train_spread_lo: f64,
    pub train_spread_hi: f64,
    pub test_spread_lo: Option<f64>,
    pub test_spread_hi: Option<f64>,
    pub epochs_spread_lo: f64,
    pub epochs_spread_hi: f64,
    /// The median epoch of the kept state.
    pub kept_epoch_median: f64,
    /// Whether the paper's figure lies within the spread of our single runs (rounded as the
    /// paper prints: whole % for trials 1-37, one decimal for 38-41).
    pub paper_train_inside: bool,
    pub paper_test_inside: Option<bool>,
    /// False where the paper's epoch count reaches our budget (`max_epochs`): a range cut at the
    /// budget cannot say whether the paper's count lies in it.
    pub paper_epochs_inside: bool,
    /// Replicates that ran to the budget (`max_epochs`) without the stopping rule ending them.
    #[serde(default)]
    pub capped: usize,
    /// Accuracy of calling every position a win, mean over the draws: the training set's and
    /// the testing set's.
    pub majority_train: f64,
    pub majority_test: Option<f64>,
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Whether `paper` (printed with `decimals` decimals) is within [lo, hi] once our bounds are
/// rounded the same way.
fn inside(paper: f64, lo: f64, hi: f64, decimals: i32) -> bool {
    let s = 10f64.powi(decimals);
    (lo * s).round() / s <= paper && paper <= (hi * s).round() / s
}

/// Summarise the replicates of each trial. `trials[i]` owns the runs with `trial == i`.
pub fn summarise(
    trials: &[Trial],
    runs: &[ReplicateRun],
    paper: &[Table5Row],
    bb: &Bitbase,
) -> Result<Vec<Table5Stat>> {
    let mut out = Vec::new();
    for (i, trial) in trials.iter().enumerate() {
        let Some(p) = trial_number(trial.name()).and_then(|t| paper.iter().find(|p| p.trial == t)) else {
            continue;
        };
        let mine: Vec<&ReplicateRun> = runs.iter().filter(|r| r.trial == i).collect();
        if mine.is_empty() {
            continue;
        }
        let train: Vec<f64> = mine.iter().map(|r| r.run.summary.train_accuracy_pct).collect();
        let test: Vec<f64> = mine.iter().filter_map(|r| r.run.summary.test_accuracy_pct).collect();
        let epochs: Vec<f64> = mine.iter().map(|r| r.run.summary.epochs as f64).collect();
        let kept: Vec<f64> = mine.iter().map(|r| r.run.summary.best_epoch as f64).collect();
        let seeds = mine.iter().map(|r| r.id.seed_index).max().unwrap_or(0) + 1;
        let draws = mine.iter().map(|r| r.id.draw_index).max().unwrap_or(0) + 1;
        let data_seeds: Vec<u64> = {
            let mut v: Vec<u64> = mine.iter().map(|r| r.run.trial.config.data_seed).collect();
            v.dedup();
            v.sort_unstable();
            v.dedup();
            v
        };
        let c = &trial.config;
        let majority = |set: &str| -> Result<f64> {
            let shares = data_seeds.iter().map(|&d| wins_pct(set, d, bb)).collect::<Result<Vec<f64>>>()?;
            Ok(stats::mean(&shares))
        };
        // An accuracy is a percentage: the t-interval is cut at 0 and 100.
        let ti = Interval::of_mean_pct(&train).expect("at least one run");
        let tsi = Interval::of_mean_pct(&test);
        let (tr_lo, tr_hi) = stats::spread95(&train);
        let (ep_lo, ep_hi) = stats::spread95(&epochs);
        let test_spread = (!test.is_empty()).then(|| stats::spread95(&test));
        let decimals = if p.train_acc_pct.fract() == 0.0 { 0 } else { 1 };
        out.push(Table5Stat {
            trial: p.trial,
            replicates: mine.len(),
            train_mean: round3(ti.mean),
            train_lo: round3(ti.lo),
            train_hi: round3(ti.hi),
            test_mean: tsi.map(|t| round3(t.mean)),
            test_lo: tsi.map(|t| round3(t.lo)),
            test_hi: tsi.map(|t| round3(t.hi)),
            epochs_median: stats::median(&epochs),
            paper_epochs: p.epochs,
            paper_train: p.train_acc_pct,
            paper_test: p.test_acc_pct,
            seeds,
            draws,
            train_spread_lo: round3(tr_lo),
            train_spread_hi: round3(tr_hi),
            test_spread_lo: test_spread.map(|s| round3(s.0)),
            test_spread_hi: test_spread.map(|s| round3(s.1)),
            epochs_spread_lo: ep_lo,
            epochs_spread_hi: ep_hi,
            kept_epoch_median: stats::median(&kept),
            paper_train_inside: inside(p.train_acc_pct, tr_lo, tr_hi, decimals),
            paper_test_inside: p.test_acc_pct.zip(test_spread).map(|(v, (lo, hi))| inside(v, lo, hi, 0)),
            paper_epochs_inside: p.epochs < c.max_epochs
                && ep_lo <= p.epochs as f64
                && p.epochs as f64 <= ep_hi,
            capped: mine.iter().filter(|r| r.run.summary.stop_reason == StopReason::MaxEpochs).count(),
            majority_train: round3(majority(c.training_set.name())?),
            majority_test: c.testing_set.map(|s| majority(s.name())).transpose()?.map(round3),
        });
    }
    Ok(out)
}

/// Write `table5.csv`.
pub fn write_csv(path: &Path, rows: &[Table5Stat]) -> Result<()> {
    crate::output::write_file_with(path, |w| {
        let mut csv = csv::Writer::from_writer(w);
        for row in rows {
            csv.serialize(row).map_err(std::io::Error::other)?;
        }
        csv.flush()
    })
}

/// Read a `table5.csv` written by [`write_csv`].
pub fn read_csv(path: &Path) -> Result<Vec<Table5Stat>> {
    let bytes = crate::io::read(path)?;
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<Vec<Table5Stat>, _>>()
        .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::config::TrialConfig;
    use crate::experiment::replicate::{Replicates, run_replicates};

    /// Table 5's trial 1 cut to 5 epochs: cheap enough to replicate in a unit test.
    fn short_trial1() -> Trial {
        let text = include_str!("../../../experiments/table5/trial01.toml")
            .replace("max_epochs = 2000", "max_epochs = 5")
            .replace("window = 20", "window = 5");
        TrialConfig::parse(&text).unwrap().check().unwrap()
    }

    #[test]
    fn the_csv_has_the_columns_asked_for_and_intervals_hold_the_means() {
        let bb = Bitbase::generate();
        let trials = [short_trial1()];
        let reps = Replicates { seeds: 3, draws: 2, whole_set_seeds: 1 };
        let runs = run_replicates(&trials, reps, &bb, 1, &|_, _| {}).unwrap();
        let rows = summarise(&trials, &runs, &crate::paper::tables::table5(), &bb).unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!((r.trial, r.replicates, r.seeds, r.draws), (1, 6, 3, 2));
        assert!(r.train_lo <= r.train_mean && r.train_mean <= r.train_hi, "{r:?}");
        let (lo, m, hi) = (r.test_lo.unwrap(), r.test_mean.unwrap(), r.test_hi.unwrap());
        assert!(lo <= m && m <= hi, "{r:?}");
        assert!(r.train_spread_lo <= r.train_spread_hi && (0.0..=100.0).contains(&r.train_hi));
        assert_eq!((r.paper_epochs, r.paper_train, r.paper_test), (20, 94.0, Some(77.0)));
        // The majority baselines are the mean win shares of the two draws of T1 and of S1.
        let share = |set: &str| (wins_pct(set, 1998, &bb).unwrap() + wins_pct(set, 1999, &bb).unwrap()) / 2.0;
        assert!(
            (r.majority_train - share("T1")).abs() < 1e-3
                && (r.majority_test.unwrap() - share("S1")).abs() < 1e-3
        );
        let scratch = crate::scratch::Scratch::new("table5");
        let path = scratch.join("table5.csv");
        write_csv(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap();
        assert!(
            header.starts_with(
                "trial,replicates,train_mean,train_lo,train_hi,test_mean,test_lo,test_hi,epochs_median,\
                 paper_epochs,paper_train,paper_test,"
            ),
            "{header}"
        );
        assert_eq!(read_csv(&path).unwrap(), rows);
    }

    #[test]
    fn the_paper_is_inside_when_it_rounds_into_our_spread() {
        assert!(inside(98.0, 97.6, 99.0, 0));
        assert!(!inside(98.0, 98.6, 100.0, 0));
        assert!(inside(99.6, 99.55, 99.9, 1));
        assert!(!inside(99.6, 99.7, 99.9, 1));
    }
}
