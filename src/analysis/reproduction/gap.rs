//! What explains the gap between our Table 5 and the paper's: the studies
//! `gap_*` (experiments/studies/) trained Table 5's small-set trials under the configs' value and
//! an alternative reading of the paper from the same seeds and draws; here their committed
//! replicates become paired effects beside the paper's figures. Trial 38's full budget is five
//! replicates (experiments/gap/trial38_full*.toml) beside Table 5's 400-epoch replicates of the
//! same weight seeds, paired by seed ([`full_budget`]).
//!
//! The small-set studies give one setting per distinct configuration of trials 1-37 and
//! alternative, its `x` the configuration's first trial and its `series` the alternative. A
//! Table 5 trial takes the runs of its configuration, so a group of trials is weighted as Table 5
//! weights it. Replicate r shares its seed and data draw across every setting: the paired unit is
//! the replicate, `d_r` = (mean over the group's trials of the alternative's runs r) − (the same of
//! the configs' runs r), with its Student-t 95% interval over the replicates
//! ([`compare::paired`]).

use crate::error::{Error, Result};
use crate::experiment::readings::{Reading, ReplicateOutcome};
use crate::experiment::replicate::SEED_STRIDE;
use crate::experiment::{config::Trial, rows::Summary};
use crate::paper::tables::{Scope, Table5Row};
use crate::stats::compare::Method;
use crate::stats::{self, Interval, compare};
use crate::train::StopReason;
use kpk_probe::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The studies, in the order the report takes them; the first setting series of each is the
/// configs' value.
pub const GAP_STUDIES: [&str; 3] = ["gap_eta", "gap_patience", "gap_borderline"];

/// Where `kpk run --out reports/studies/gap_trial38 experiments/gap/trial38_full*.toml` writes
/// one folder per replicate.
pub const TRIAL38_FULL: &str = "studies/gap_trial38";

/// Everything the section shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub studies: Vec<GapStudy>,
    /// Trial 38's replicates at the paper's 1,000 epochs beside Table 5's at 400.
    pub trial38: Option<FullBudget>,
}

/// One run of trial 38 at the full budget, with Table 5's run of the same weight seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FullRun {
    pub seed: u64,
    pub epochs: usize,
    pub best_epoch: usize,
    pub stop_reason: StopReason,
    /// The kept net's training accuracy at m = 0, %.
    pub train_pct: f64,
    /// The same of Table 5's replicate with this seed (400 epochs), where there is one.
    pub capped_train_pct: Option<f64>,
}

/// Trial 38 at the paper's budget over replicates against Table 5's budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FullBudget {
    /// Table 5's `max_epochs` for trial 38, and the full runs'.
    pub capped_epochs: usize,
    pub full_epochs: usize,
    pub runs: Vec<FullRun>,
    /// Training accuracy (m = 0, %) of the full runs, and of Table 5's runs of the same seeds
    /// (all of Table 5's replicates where the seeds do not match): means with 95% t-intervals.
    pub full: Interval,
    pub capped: Option<Interval>,
    /// Full − capped: paired by seed where every full run has Table 5's run of its seed
    /// (`method` paired), else the two groups unpaired (`welch`).
    pub diff: Option<Interval>,
    pub method: Option<Method>,
}

/// Full − capped over `runs`, paired by seed where every run has its capped run, else Welch over
/// the runs and `capped_all` (Table 5's runs, every seed).
pub fn full_budget(
    runs: Vec<FullRun>,
    capped_all: &[f64],
    capped_epochs: usize,
    full_epochs: usize,
) -> Option<FullBudget> {
    let full: Vec<f64> = runs.iter().map(|r| r.train_pct).collect();
    let pairs: Option<Vec<f64>> = runs.iter().map(|r| r.capped_train_pct).collect();
    let (capped, diff, method) = match pairs {
        Some(capped) if capped.len() >= 2 => {
            let c = compare::paired(&full, &capped, 0.95)?;
            let d = Interval { mean: c.estimate, lo: c.lo, hi: c.hi, n: c.units };
            (Interval::of_mean_pct(&capped), Some(d), Some(Method::Paired))
        }
        _ => (Interval::of_mean_pct(capped_all), stats::difference(&full, capped_all), Some(Method::Welch)),
    };
    Some(FullBudget {
        capped_epochs,
        full_epochs,
        full: Interval::of_mean_pct(&full)?,
        capped,
        diff,
        method,
        runs,
    })
}

/// One alternative's effect on one measure over a group of trials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// The trials the effect averages over, as the report names them.
    pub trials: String,
    /// `test`, `train` or `epochs`.
    pub measure: String,
    /// The paper's mean over the trials.
    pub paper: f64,
    /// Ours under the configs' value, then under the alternative: means over the replicates.
    pub configs: f64,
    pub alternative: f64,
    /// Alternative − configs, paired by replicate.
    pub difference: f64,
    pub lo: f64,
    pub hi: f64,
    /// Replicates (the paired units).
    pub units: usize,
    /// Where the alternative leaves ours against the paper: `closer`, `further`, or `not shown`
    /// (the interval holds 0).
    pub verdict: String,
    /// The share of the gap (ours − the paper's) the alternative closes, % (negative: widens).
    pub closed_pct: f64,
}

/// One study: the alternative against the configs' value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapStudy {
    pub name: String,
    /// The configs' series and the alternative's, as the study labels them.
    pub configs: String,
    pub alternative: String,
    pub replicates: usize,
    pub effects: Vec<Effect>,
}

/// What a study config gives the analysis: its settings' places and series.
#[derive(Deserialize)]
struct StudyJson {
    name: String,
    #[serde(rename = "setting")]
    settings: Vec<SettingJson>,
}

#[derive(Deserialize)]
struct SettingJson {
    label: String,
    x: Option<f64>,
    series: Option<String>,
}

#[derive(Deserialize)]
struct ReplicateRow {
    setting: usize,
    replicate: usize,
    train_pct: f64,
    test_pct: Option<f64>,
    epochs: f64,
}

/// The gap studies' effects, from their configs in `studies` and `out/studies/<name>/replicates.csv`,
/// and trial 38's full runs beside Table 5's replicates of it (`trial38`, its config, and
/// `replicates`, every run of `kpk readings`); a study or run not yet made is left out.
pub fn analyse(
    studies: &Path,
    out: &Path,
    paper: &[Table5Row],
    trial38: Option<&Trial>,
    replicates: &[ReplicateOutcome],
) -> Result<Gap> {
    let bad = |p: &Path, m: String| Error::Format { path: p.display().to_string(), message: m };
    let mut gap = Gap::default();
    for name in GAP_STUDIES {
        let config = studies.join(format!("{name}.toml"));
        let csv_path = out.join("studies").join(name).join("replicates.csv");
        if !config.exists() || !csv_path.exists() {
            continue;
        }
        let study: StudyJson = toml::from_str(&crate::io::read_config(&config)?)
            .map_err(|e| bad(&config, e.message().trim().to_string()))?;
        let rows: Vec<ReplicateRow> = csv::Reader::from_reader(crate::io::read(&csv_path)?.as_slice())
            .deserialize()
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| bad(&csv_path, e.to_string()))?;
        gap.studies.extend(study_effects(&study, &rows, paper));
    }
    if let Some(t) = trial38 {
        gap.trial38 = trial38_full(&out.join(TRIAL38_FULL), t, replicates)?;
    }
    Ok(gap)
}

/// The full runs in `dir` (each folder with a `summary.json`, by name) against Table 5's runs of
/// `t` under its config's reading: replicate r has weight seed `seed + r·SEED_STRIDE`
/// ([`crate::experiment::replicate`]).
fn trial38_full(dir: &Path, t: &Trial, replicates: &[ReplicateOutcome]) -> Result<Option<FullBudget>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(None) };
    let mut folders: Vec<std::path::PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(crate::experiment::folder::SUMMARY_JSON).exists())
        .collect();
    folders.sort();
    let reading = Reading::of(&t.config);
    let capped: Vec<(u64, f64)> = replicates
        .iter()
        .filter(|r| Some(r.trial) == crate::experiment::readings::trial_number(t.name()))
        .filter(|r| super::section51::is_reading(r, &reading))
        .map(|r| (t.config.seed.wrapping_add(r.seed_index as u64 * SEED_STRIDE), r.train_pct))
        .collect();
    let mut runs = Vec::with_capacity(folders.len());
    let mut full_epochs = 0;
    for folder in &folders {
        let path = folder.join(crate::experiment::folder::SUMMARY_JSON);
        let s: Summary = serde_json::from_slice(&crate::io::read(&path)?)
            .map_err(|e| Error::Format { path: path.display().to_string(), message: e.to_string() })?;
        full_epochs = full_epochs.max(s.max_epochs);
        runs.push(FullRun {
            seed: s.seed,
            epochs: s.epochs,
            best_epoch: s.best_epoch,
            stop_reason: s.stop_reason,
            train_pct: s.train_accuracy_pct,
            capped_train_pct: capped.iter().find(|c| c.0 == s.seed).map(|c| c.1),
        });
    }
    let all: Vec<f64> = capped.iter().map(|c| c.1).collect();
    Ok(full_budget(runs, &all, t.config.max_epochs, full_epochs))
}

/// Each setting's runs by replicate: `runs[setting][replicate]`.
fn by_setting(rows: &[ReplicateRow], measure: &str) -> BTreeMap<usize, BTreeMap<usize, f64>> {
    let mut m: BTreeMap<usize, BTreeMap<usize, f64>> = BTreeMap::new();
    for r in rows {
        let v = match measure {
            "test" => r.test_pct,
            "train" => Some(r.train_pct),
            _ => Some(r.epochs),
        };
        if let Some(v) = v {
            m.entry(r.setting).or_default().insert(r.replicate, v);
        }
    }
    m
}

/// The paper's trial numbers in each group of the report, from Table 5's rows.
fn groups(paper: &[Table5Row]) -> Vec<(String, Vec<u8>)> {
    let small_sets = || paper.iter().filter(|p| p.scope() == Scope::Small);
    let small = |side: Color| small_sets().filter(|p| p.side == side).map(|p| p.trial).collect();
    vec![
        ("1-37".into(), small_sets().map(|p| p.trial).collect()),
        ("wtm: 1-13, 21-28".into(), small(Color::White)),
        ("btm: 14-20, 29-37".into(), small(Color::Black)),
    ]
}

/// The setting (1-based) of `series` whose configuration is the paper's trial `t`'s: the setting
/// placed at the first trial of the same side, net, error function and target.
fn setting_of(study: &StudyJson, paper: &[Table5Row], t: u8, series: &str) -> Option<usize> {
    let row = paper.iter().find(|p| p.trial == t)?;
    let same = |p: &&Table5Row| {
        p.side == row.side
            && p.topology == row.topology
            && p.error_fn == row.error_fn
            && p.target == row.target
    };
    let first = f64::from(paper.iter().filter(|p| p.scope() == Scope::Small).find(same)?.trial);
    study
        .settings
        .iter()
        .position(|s| s.series.as_deref() == Some(series) && s.x == Some(first))
        .map(|i| i + 1)
}

/// One study's alternatives against its configs' series, on every measure and group of trials.
fn study_effects(study: &StudyJson, rows: &[ReplicateRow], paper: &[Table5Row]) -> Vec<GapStudy> {
    let mut series: Vec<String> = Vec::new();
    for s in &study.settings {
        let name = s.series.clone().unwrap_or_else(|| s.label.clone());
        if !series.contains(&name) {
            series.push(name);
        }
    }
    let study = StudyJson {
        name: study.name.clone(),
        settings: study
            .settings
            .iter()
            .map(|s| SettingJson {
                label: s.label.clone(),
                x: s.x,
                series: Some(s.series.clone().unwrap_or_else(|| s.label.clone())),
            })
            .collect(),
    };
    let Some((configs, alternatives)) = series.split_first() else { return Vec::new() };
    let replicates = rows.iter().map(|r| r.replicate).max().unwrap_or(0);
    alternatives
        .iter()
        .map(|alt| GapStudy {
            name: study.name.clone(),
            configs: configs.clone(),
            alternative: alt.clone(),
            replicates,
            effects: effects(&study, rows, paper, configs, alt),
        })
        .collect()
}

/// The paired effects of `alt` against `configs`.
fn effects(
    study: &StudyJson,
    rows: &[ReplicateRow],
    paper: &[Table5Row],
    configs: &str,
    alt: &str,
) -> Vec<Effect> {
    let mut out = Vec::new();
    for measure in ["test", "train", "epochs"] {
        let runs = by_setting(rows, measure);
        for (label, trials) in groups(paper) {
            let mean_over = |series: &str| -> Option<Vec<f64>> {
                let settings: Vec<&BTreeMap<usize, f64>> = trials
                    .iter()
                    .map(|&t| setting_of(study, paper, t, series).and_then(|s| runs.get(&s)))
                    .collect::<Option<_>>()?;
                let reps: Vec<usize> = settings.first()?.keys().copied().collect();
                reps.iter()
                    .map(|r| settings.iter().map(|s| s.get(r).copied()).sum::<Option<f64>>())
                    .map(|sum| sum.map(|s| s / settings.len() as f64))
                    .collect()
            };
            let (Some(a), Some(b)) = (mean_over(alt), mean_over(configs)) else { continue };
            let Some(c) = compare::paired(&a, &b, 0.95) else { continue };
            let value = |p: &Table5Row| match measure {
                "test" => p.test_acc_pct,
                "train" => Some(p.train_acc_pct),
                _ => Some(p.epochs as f64),
            };
            let papers: Vec<f64> =
                trials.iter().filter_map(|&t| paper.iter().find(|p| p.trial == t).and_then(value)).collect();
            let (gap_before, gap_after) =
                (stats::mean(&b) - stats::mean(&papers), stats::mean(&a) - stats::mean(&papers));
            let verdict = if c.lo <= 0.0 && c.hi >= 0.0 {
                "not shown"
            } else if gap_after.abs() < gap_before.abs() {
                "closer"
            } else {
                "further"
            };
            out.push(Effect {
                verdict: verdict.into(),
                closed_pct: if gap_before == 0.0 {
                    0.0
                } else {
                    100.0 * (1.0 - gap_after.abs() / gap_before.abs())
                },
                trials: label,
                measure: measure.into(),
                paper: stats::mean(&papers),
                configs: stats::mean(&b),
                alternative: stats::mean(&a),
                difference: c.estimate,
                lo: c.lo,
                hi: c.hi,
                units: c.units,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_run(seed: u64, train_pct: f64, capped: Option<f64>) -> FullRun {
        FullRun {
            seed,
            epochs: 1000,
            best_epoch: 900,
            stop_reason: StopReason::MaxEpochs,
            train_pct,
            capped_train_pct: capped,
        }
    }

    /// Runs that all have Table 5's run of their seed are compared seed by seed; one without
    /// makes the comparison unpaired, against every capped run.
    #[test]
    fn the_full_budget_pairs_by_seed_or_says_it_does_not() {
        let runs = vec![
            full_run(38, 99.9, Some(99.8)),
            full_run(1038, 99.7, Some(99.7)),
            full_run(2038, 99.8, Some(99.6)),
        ];
        let b = full_budget(runs.clone(), &[99.8, 99.7, 99.6, 99.0], 400, 1000).unwrap();
        assert_eq!(b.method, Some(Method::Paired));
        let d = b.diff.unwrap();
        assert_eq!(d.n, 3);
        assert!((d.mean - 0.1).abs() < 1e-9 && d.lo < d.mean && d.mean < d.hi, "{d:?}");
        assert!((b.capped.unwrap().mean - 99.7).abs() < 1e-9, "the same seeds' capped runs only");
        let mut unpaired = runs;
        unpaired[2].capped_train_pct = None;
        let u = full_budget(unpaired, &[99.8, 99.7, 99.6, 99.0], 400, 1000).unwrap();
        assert_eq!(u.method, Some(Method::Welch));
        assert!((u.capped.unwrap().mean - 99.525).abs() < 1e-9, "every capped run");
        assert!((u.diff.unwrap().mean - (99.8 - 99.525)).abs() < 1e-9);
    }

    /// Trials 3 and 4 share a configuration, trial 5 has its own: the paired effect over trials
    /// 3-5 weighs the first configuration twice, replicate by replicate.
    #[test]
    fn effects_pair_replicates_and_weigh_trials_as_table_5() {
        let paper: Vec<Table5Row> =
            crate::paper::tables::table5().into_iter().filter(|p| (3..=5).contains(&p.trial)).collect();
        let setting = |x: f64, series: &str| SettingJson {
            label: String::new(),
            x: Some(x),
            series: Some(series.into()),
        };
        let study = StudyJson {
            name: "gap_test".into(),
            settings: vec![setting(3.0, "a"), setting(3.0, "b"), setting(5.0, "a"), setting(5.0, "b")],
        };
        // test % by setting (1-4) and replicate (1-2).
        let values = [[90.0, 80.0], [88.0, 79.0], [70.0, 60.0], [65.0, 60.0]];
        let rows: Vec<ReplicateRow> = (0..4)
            .flat_map(|s| {
                (0..2).map(move |r| ReplicateRow {
                    setting: s + 1,
                    replicate: r + 1,
                    train_pct: 100.0,
                    test_pct: Some(values[s][r]),
                    epochs: 10.0,
                })
            })
            .collect();
        let e = effects(&study, &rows, &paper, "a", "b");
        let test = e.iter().find(|f| f.measure == "test" && f.trials == "1-37").unwrap();
        // Replicate 1: (2·88 + 65)/3 − (2·90 + 70)/3 = −3; replicate 2: (2·79 + 60)/3 − (2·80 + 60)/3 = −2/3.
        assert!((test.difference - (-3.0 - 2.0 / 3.0) / 2.0).abs() < 1e-12, "{test:?}");
        assert!(test.lo < test.difference && test.difference < test.hi);
        assert_eq!(test.units, 2);
        assert!((test.paper - (82.0 + 79.0 + 76.0) / 3.0).abs() < 1e-12, "the paper's trials 3, 4, 5");
        let train = e.iter().find(|f| f.measure == "train" && f.trials == "1-37").unwrap();
        assert_eq!((train.difference, train.verdict.as_str()), (0.0, "not shown"));
    }
}
