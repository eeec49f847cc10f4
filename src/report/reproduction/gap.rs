//! What explains the gap between our Table 5 and the paper's (issue 26, part 5): the studies
//! `gap_*` (experiments/studies/) trained Table 5's small-set trials under the configs' value and
//! an alternative reading of the paper from the same seeds and draws; here their committed
//! replicates become paired effects beside the paper's figures. Trial 38's full budget is one run
//! (experiments/gap/trial38_full.toml) beside Table 5's trial 38.
//!
//! The small-set studies give one setting per distinct configuration of trials 1-37 and
//! alternative, its `x` the configuration's first trial and its `series` the alternative. A
//! Table 5 trial takes the runs of its configuration, so a group of trials is weighted as Table 5
//! weights it. Replicate r shares its seed and data draw across every setting: the paired unit is
//! the replicate, `d_r` = (mean over the group's trials of the alternative's runs r) − (the same of
//! the configs' runs r), with its Student-t 95% interval over the replicates
//! ([`compare::paired`]).

use crate::chess::board::Color;
use crate::error::{Error, Result};
use crate::experiment::Summary;
use crate::paper::tables::{Scope, Table5Row};
use crate::stats::{self, compare};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The studies, in the order the report takes them; the first setting series of each is the
/// configs' value.
pub const GAP_STUDIES: [&str; 3] = ["gap_eta", "gap_patience", "gap_borderline"];

/// Where `kpk run experiments/gap/trial38_full.toml --out reports/studies/gap_trial38` writes.
pub const TRIAL38_FULL: &str = "studies/gap_trial38/trial38_full";

/// Everything the section shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub studies: Vec<GapStudy>,
    /// Table 5's trial 38 (`trial38/`) and the same seed run to the paper's 1,000 epochs.
    pub trial38: Option<(Summary, Summary)>,
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
/// and trial 38 beside its full run; a study or run not yet made is left out.
pub fn analyse(studies: &Path, out: &Path, paper: &[Table5Row]) -> Result<Gap> {
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
    let summary = |dir: &Path| -> Result<Summary> {
        let path = dir.join(crate::experiment::SUMMARY_JSON);
        serde_json::from_slice(&crate::io::read(&path)?).map_err(|e| bad(&path, e.to_string()))
    };
    let full = out.join(TRIAL38_FULL);
    if full.join(crate::experiment::SUMMARY_JSON).exists() {
        gap.trial38 = Some((summary(&out.join("trial38"))?, summary(&full)?));
    }
    Ok(gap)
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

/// The report's section "What explains the gap", or nothing where nothing was measured.
pub fn markdown(e: &crate::template::Engine, gap: &Gap, paper: &[Table5Row]) -> Result<String> {
    if gap.studies.is_empty() && gap.trial38.is_none() {
        return Ok(String::new());
    }
    let p38 = paper.iter().find(|p| p.trial == 38);
    let context = serde_json::json!({
        "studies": gap.studies,
        "trial38": gap.trial38.as_ref().map(|(a, b)| serde_json::json!({"configs": a, "full": b})),
        "paper38": p38.map(|p| serde_json::json!({"epochs": p.epochs, "train": p.train_acc_pct})),
    });
    Ok(super::templates::render(e, "gap", &context)?.trim_end().to_string() + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

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
