//! The reproduction's analysis: every input the report rests on, read as typed values (each one
//! required), and every number the report shows computed from them into a [`Reproduction`].

use super::data::{Continued, Curve, Overlap, Readings, Reproduction};
use super::table5::{self, Table5Stat};
use super::{
    CONTINUED, NN6_TRIALS, READINGS_CSV, READINGS_REPLICATES_CSV, READINGS_TRIALS_CSV, SWEEP_CSV, TABLE5_CSV,
    TABLE6_JSON,
};
use super::{domain, readings_robustness, section51, table6_groups};
use crate::chess::bitbase::Bitbase;
use crate::dataset::SetName;
use crate::error::{Error, Result};
use crate::experiment::config::Trial;
use crate::experiment::readings::{self, ReadingDistance, ReplicateOutcome, TrialUnderReading};
use crate::experiment::readings_intervals;
use crate::experiment::rows::Summary;
use crate::experiment::sweep::SweepRow;
use crate::experiment::table6::Matched;
use crate::experiment::{self, rows::MisclassifiedRow};
use crate::paper::tables;
use crate::paper::tables::Table6Row;
use crate::stats;
use crate::train::{EpochMetrics, keep::BestState};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One trial's results as its folder holds them.
#[derive(Clone, Debug)]
pub struct TrialResult {
    pub summary: Summary,
    pub metrics: Vec<EpochMetrics>,
    pub misclassified: Vec<MisclassifiedRow>,
}

impl TrialResult {
    /// Read the trial folder `dir` (`summary.json`, `metrics.csv`, `misclassified.csv`).
    pub fn read(dir: &Path) -> Result<TrialResult> {
        Ok(TrialResult {
            summary: json(&required(&dir.join(experiment::folder::SUMMARY_JSON), "kpk run")?)?,
            metrics: experiment::rows::read_metrics(&dir.join(experiment::folder::METRICS_CSV))?,
            misclassified: experiment::rows::read_misclassified(
                &dir.join(experiment::folder::MISCLASSIFIED_CSV),
            )?,
        })
    }
}

/// What the report takes from commands other than `kpk reproduce`: `kpk readings` (the readings
/// of the stopping rule, the learning-rate sweep, Table 6 at matched accuracy) and `kpk run` of
/// trial 39 continued.
#[derive(Clone, Debug)]
pub struct OtherRuns {
    pub distances: Vec<ReadingDistance>,
    pub under_readings: Vec<TrialUnderReading>,
    pub replicates: Vec<ReplicateOutcome>,
    pub sweep: Vec<SweepRow>,
    pub matched: Matched,
    pub continued: TrialResult,
}

impl OtherRuns {
    /// Read them from `out`; a missing file is an error naming the command that writes it.
    pub fn read(out: &Path) -> Result<OtherRuns> {
        const READINGS: &str = "kpk readings";
        let continued = required(&out.join(CONTINUED), "kpk run experiments/trial40/trial39_continued.toml")?;
        Ok(OtherRuns {
            distances: csv_rows(&required(&out.join(READINGS_CSV), READINGS)?)?,
            under_readings: csv_rows(&required(&out.join(READINGS_TRIALS_CSV), READINGS)?)?,
            replicates: csv_rows(&required(&out.join(READINGS_REPLICATES_CSV), READINGS)?)?,
            sweep: csv_rows(&required(&out.join(SWEEP_CSV), "kpk readings --learning-rates")?)?,
            matched: json(&required(&out.join(TABLE6_JSON), "kpk readings --table6")?)?,
            continued: TrialResult::read(&continued)?,
        })
    }
}

/// Everything the reproduction is computed from.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Table 5's trials, in trial order.
    pub trials: Vec<TrialResult>,
    /// Table 5 over the replicates (`table5.csv`).
    pub replicated: Vec<Table5Stat>,
    /// Table 5's trial configs (section 5.1 rebuilds each replicate's untrained net from them).
    pub configs: Vec<Trial>,
    pub others: OtherRuns,
    /// What the gap studies and trial 38's full run measured ([`super::gap::analyse`]).
    pub gap: super::gap::Gap,
}

impl Inputs {
    /// Read what `kpk reproduce` wrote in `out` (the folders of the trials `configs`, `table5.csv`)
    /// beside `others`.
    pub fn read(out: &Path, configs: &[Trial], others: OtherRuns) -> Result<Inputs> {
        Ok(Inputs {
            trials: configs.iter().map(|t| TrialResult::read(&out.join(t.name()))).collect::<Result<_>>()?,
            replicated: table5::read_csv(&required(&out.join(TABLE5_CSV), "kpk reproduce")?)?,
            configs: configs.to_vec(),
            others,
            gap: super::gap::Gap::default(),
        })
    }
}

/// `path`, or an error naming the command that writes it.
fn required(path: &Path, writer: &str) -> Result<PathBuf> {
    if path.exists() {
        Ok(path.to_path_buf())
    } else {
        Err(Error::Format {
            path: path.display().to_string(),
            message: format!("missing; `{writer}` writes it"),
        })
    }
}

use crate::template::read_results as json;

fn csv_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let bytes = crate::io::read(path)?;
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<std::result::Result<Vec<T>, _>>()
        .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })
}

/// Compute the reproduction from its inputs and the bitbase.
pub fn analyse(inputs: &Inputs, bb: &Bitbase) -> Result<Reproduction> {
    let paper = tables::table5();
    let paper6 = tables::table6();
    let trials: Vec<Summary> = inputs.trials.iter().map(|t| t.summary.clone()).collect();
    // The best net on the a-file set T4 (trials 39 and 40 in Table 5) stands beside Table 6.
    let best = inputs
        .trials
        .iter()
        .filter(|t| t.summary.trained_on() == Some(SetName::T4))
        .max_by(|a, b| a.summary.train_accuracy_pct.total_cmp(&b.summary.train_accuracy_pct))
        .ok_or_else(|| Error::Data("Table 6: no T4 trial".into()))?;
    let o = &inputs.others;
    let ranking = readings_intervals::rank(&o.distances, &o.under_readings, &o.replicates, &|_| true);
    let subsets = ranking.as_ref().map_or_else(Vec::new, |all| {
        readings_robustness::subsets(all, &o.distances, &o.under_readings, &o.replicates)
    });
    let t40 = inputs.trials.iter().find(|t| t.summary.trial_number() == Some(40));
    let mut r = Reproduction {
        domain: domain::analyse(bb),
        best: best.summary.trial_number().unwrap_or_default(),
        best_misclassified: best
            .misclassified
            .iter()
            .filter(|m| in_set(m, Some(SetName::T4)))
            .cloned()
            .collect(),
        curves: inputs
            .trials
            .iter()
            .filter(|t| t.summary.trial_number().is_some_and(|n| NN6_TRIALS.contains(&n)))
            .map(curve)
            .collect::<Result<_>>()?,
        trials,
        replicated: inputs.replicated.clone(),
        section51: section51::analyse(&inputs.configs, &o.replicates, bb)?,
        readings: Readings {
            distances: o.distances.clone(),
            at_the_papers_count: readings_robustness::at_the_papers_count(&o.under_readings),
            least_error_kept: least_error_kept(&o.under_readings),
            sweep: o.sweep.clone(),
            ranking,
            subsets,
        },
        continued: Some(continued(&o.continued, t40.map_or(&[], |t| &t.misclassified), &paper6)?),
        table6_groups: Some(table6_groups::analyse(&o.matched, &paper6, bb)),
        matched: Some(o.matched.clone()),
        gap: inputs.gap.clone(),
        paper,
        paper_table6: paper6,
        summary: Vec::new(),
    };
    r.summary = super::summary::findings(&r);
    Ok(r)
}

/// `rows`, checked to hold epochs 1, 2, ... in order (the curves store values by position).
fn by_epoch<'a>(rows: &'a [EpochMetrics], name: &str) -> Result<&'a [EpochMetrics]> {
    match rows.iter().enumerate().find(|(i, r)| r.epoch != i + 1) {
        None => Ok(rows),
        Some((i, r)) => Err(Error::Format {
            path: format!("{name}/{}", experiment::folder::METRICS_CSV),
            message: format!("row {} holds epoch {}, expected {}", i + 1, r.epoch, i + 1),
        }),
    }
}

/// A run's misclassified positions (m = 0) at epochs 1, 2, ...
fn wrong_by_epoch(rows: &[EpochMetrics]) -> Vec<u32> {
    rows.iter().map(|r| u32::try_from(r.wrong_m0()).unwrap_or(u32::MAX)).collect()
}

/// An NN6 trial's curves; the misclassified count only on the a-file set of Figure 3.
pub fn curve(t: &TrialResult) -> Result<Curve> {
    let rows = by_epoch(&t.metrics, &t.summary.name)?;
    let least = rows.iter().min_by(|a, b| a.e2.total_cmp(&b.e2));
    Ok(Curve {
        trial: t.summary.trial_number().unwrap_or_default(),
        accuracy_m0: rows.iter().map(EpochMetrics::accuracy_m0_pct).collect(),
        wrong_m0: if t.summary.trained_on() == Some(SetName::T4) { wrong_by_epoch(rows) } else { Vec::new() },
        least_e2: least.map(|m| (m.epoch, m.train_accuracy_m0_pct.unwrap_or(m.train_accuracy_pct))),
    })
}

/// Misclassified a-file training positions (m = 0) of a run, as square triples.
fn keys(rows: &[MisclassifiedRow], set: Option<SetName>) -> HashSet<(String, String, String)> {
    rows.iter().filter(|m| in_set(m, set)).map(|m| (m.wk.clone(), m.bk.clone(), m.wp.clone())).collect()
}

/// Whether a misclassified row came from the named set (none matches `None`).
fn in_set(m: &MisclassifiedRow, set: Option<SetName>) -> bool {
    set.is_some_and(|set| m.set.parse::<SetName>().is_ok_and(|s| s == set))
}

/// Trial 39 continued, and the independent trial 40's misclassified positions `t40_wrong`, against
/// the paper's Table 6.
fn continued(c: &TrialResult, t40_wrong: &[MisclassifiedRow], paper6: &[Table6Row]) -> Result<Continued> {
    let m = by_epoch(&c.metrics, &c.summary.name)?;
    let errors = |row: &EpochMetrics| row.total as f64 * (100.0 - row.accuracy_m0_pct()) / 100.0;
    let at = |epoch: usize| m.iter().find(|r| r.epoch == epoch).map(errors);
    let paper_keys: HashSet<_> = paper6.iter().map(|p| (p.wk.clone(), p.bk.clone(), p.wp.clone())).collect();
    let population = c.summary.train_positions;
    let overlap = |k: &HashSet<(String, String, String)>| {
        let common = k.intersection(&paper_keys).count();
        let (expected, p) = stats::chance_overlap(population, paper_keys.len(), k.len(), common);
        Overlap { common, wrong: k.len(), expected, p }
    };
    Ok(Continued {
        summary: c.summary.clone(),
        wrong_m0: wrong_by_epoch(m),
        errors_at_1610: at(1610),
        errors_at_6285: at(6285),
        first_51: m.iter().find(|r| errors(r) <= 51.5).map(|r| r.epoch),
        overlap: overlap(&keys(&c.misclassified, c.summary.trained_on())),
        t40_overlap: overlap(&keys(t40_wrong, Some(SetName::T4))),
    })
}

/// The least and greatest median kept epoch of the whole-set trials 38-41 under the readings
/// that keep the least error, or `None` where no such row was run.
fn least_error_kept(trials: &[TrialUnderReading]) -> Option<(f64, f64)> {
    let kept: Vec<f64> = trials
        .iter()
        .filter(|t| {
            NN6_TRIALS.contains(&t.trial)
                && readings::from_label(&t.reading).is_some_and(|r| r.keep == BestState::LeastError)
        })
        .map(|t| t.kept_epoch_median)
        .collect();
    (!kept.is_empty()).then(|| kept.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &k| (a.min(k), b.max(k))))
}
