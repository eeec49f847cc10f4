//! A study's analysis: every number its section of `reports/STUDIES.md` and its figure show,
//! computed from the run ([`StudyResult`]; all studies together committed as
//! `reports/studies.json`). [`crate::report::studies`] renders it and computes nothing.
//!
//! The answer is data: the best setting on the answering measure against the runner-up (Welch's
//! 95% interval of the difference), what the best trades on the other measures against the
//! reference (the first setting), the differences the config asks for, and the paper's claim if
//! the study tests one, each with its verdict as a [`Verdict`].

use super::config::{Figure, Measure, State, Vary};
use super::replicate::SettingResult;
use super::run::StudyRun;
use crate::stats::{self, Interval};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// Every study's results, in the order STUDIES.md lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudiesResults {
    pub studies: Vec<StudyResult>,
}

/// One study's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyResult {
    pub name: String,
    pub title: String,
    /// The base config's path as the study file names it, `..` folded.
    pub base: String,
    /// Replicates per setting.
    pub replicates: usize,
    pub vary: Vary,
    /// The measures shown, the first one answering the question.
    pub measures: Vec<Measure>,
    pub figure: Figure,
    /// Whether some setting reports a state other than the kept one (the table then has a column
    /// for the state's epoch).
    pub state_column: bool,
    pub settings: Vec<SettingSummary>,
    pub answer: Answer,
    /// For an epochs figure: training and testing accuracy per epoch of each setting reporting
    /// the kept state.
    pub curves: Vec<EpochCurves>,
}

/// One setting: its keys and each measure's mean and 95% t-interval over replicates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingSummary {
    pub label: String,
    /// The trial keys it replaces, `key = value` as TOML writes the value.
    pub overrides: Vec<(String, String)>,
    pub replicates: usize,
    pub train: Option<Interval>,
    pub test: Option<Interval>,
    pub epochs: Option<Interval>,
    pub epoch: Option<Interval>,
    /// Replicates whose training ended on the error target.
    pub reached_target: usize,
    /// The figure's x and series of a line figure.
    pub x: Option<f64>,
    pub series: Option<String>,
    pub state: State,
}

impl SettingSummary {
    pub fn interval(&self, m: Measure) -> Option<Interval> {
        match m {
            Measure::Train => self.train,
            Measure::Test => self.test,
            Measure::Epochs => self.epochs,
            Measure::Epoch => self.epoch,
        }
    }
}

/// Per epoch (1, 2, ...), the mean and interval of the replicates that ran that long.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochCurves {
    pub label: String,
    pub training: Vec<(f64, Interval)>,
    pub testing: Vec<(f64, Interval)>,
}

/// Where a difference between settings falls, on the side the measure prefers: `Better` when
/// its 95% interval lies wholly on the good side of 0, `Worse` wholly on the bad side, `Same`
/// when it includes 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Better,
    Same,
    Worse,
}

/// A setting's label and its interval on a measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    pub label: String,
    pub value: Interval,
}

/// The best two settings on the answering measure, and the first minus the second.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    pub best: Ranked,
    pub second: Option<Ranked>,
    pub difference: Option<Interval>,
    pub verdict: Option<Verdict>,
}

/// A difference on one measure and its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub measure: Measure,
    pub difference: Interval,
    pub verdict: Verdict,
}

/// What the best setting gains or costs on the other measures against the reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TradeOff {
    pub reference: String,
    pub best: String,
    pub gaps: Vec<Gap>,
}

/// A difference the config asks for: `a − b` on the answering measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub difference: Interval,
    pub verdict: Verdict,
}

/// The paper's claim (or a hypothesis) that `better` beats `than`, and the difference found;
/// `gap` is `None` with fewer than 2 replicates a setting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimTest {
    pub hypothesis: bool,
    pub source: String,
    pub better: String,
    pub than: String,
    pub measure: Measure,
    pub gap: Option<Gap>,
}

/// The study's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub measure: Measure,
    /// `None` when no setting has a value of the measure.
    pub ranking: Option<Ranking>,
    pub trade_off: Option<TradeOff>,
    pub comparisons: Vec<Comparison>,
    pub claim: Option<ClaimTest>,
}

/// `a − b` on `m` (Welch's interval) and its verdict for `a`.
fn gap(m: Measure, a: &SettingResult, b: &SettingResult) -> Option<Gap> {
    let d = stats::difference(&a.values(m), &b.values(m))?;
    let sign = if m.higher_is_better() { d.sign() } else { d.sign().reverse() };
    let verdict = match sign {
        Ordering::Greater => Verdict::Better,
        Ordering::Equal => Verdict::Same,
        Ordering::Less => Verdict::Worse,
    };
    Some(Gap { measure: m, difference: d, verdict })
}

fn ranking(run: &StudyRun, m: Measure) -> Option<Ranking> {
    let mut ranked: Vec<(&SettingResult, Interval)> =
        run.settings.iter().filter_map(|s| s.interval(m).map(|i| (s, i))).collect();
    ranked.sort_by(|a, b| {
        let o = a.1.mean.total_cmp(&b.1.mean);
        if m.higher_is_better() { o.reverse() } else { o }
    });
    let &(best, bi) = ranked.first()?;
    let second = ranked.get(1);
    let g = second.and_then(|&(s, _)| gap(m, best, s));
    Some(Ranking {
        best: Ranked { label: best.label.clone(), value: bi },
        second: second.map(|&(s, i)| Ranked { label: s.label.clone(), value: i }),
        difference: g.as_ref().map(|g| g.difference),
        verdict: g.map(|g| g.verdict),
    })
}

fn claim(run: &StudyRun) -> Option<ClaimTest> {
    let c = run.study.config.claim.as_ref()?;
    let find = |label: &str| run.settings.iter().find(|s| s.label == label);
    let (better, than) = (find(&c.better)?, find(&c.than)?);
    Some(ClaimTest {
        hypothesis: c.hypothesis,
        source: c.source.clone(),
        better: c.better.clone(),
        than: c.than.clone(),
        measure: c.measure,
        gap: gap(c.measure, better, than),
    })
}

/// What the best setting on `m` costs or gains on the other measures against the first setting
/// (the reference: the paper's where the study has one). `None` when the best is the reference
/// or there is nothing else to compare.
fn trade_off(run: &StudyRun, m: Measure) -> Option<TradeOff> {
    let reference = run.settings.first()?;
    let best = run.settings.iter().filter(|s| s.interval(m).is_some()).max_by(|a, b| {
        let (x, y) = (a.interval(m).map_or(0.0, |i| i.mean), b.interval(m).map_or(0.0, |i| i.mean));
        if m.higher_is_better() { x.total_cmp(&y) } else { y.total_cmp(&x) }
    })?;
    if std::ptr::eq(best, reference) {
        return None;
    }
    // The epoch of a reported state is not a cost: it is where the state lies.
    let gaps: Vec<Gap> = run.study.config.measures[1..]
        .iter()
        .filter(|&&o| o != Measure::Epoch)
        .filter_map(|&o| gap(o, best, reference))
        .collect();
    (!gaps.is_empty()).then(|| TradeOff {
        reference: reference.label.clone(),
        best: best.label.clone(),
        gaps,
    })
}

/// The differences the config asks for, on the first measure.
fn comparisons(run: &StudyRun, m: Measure) -> Vec<Comparison> {
    let find = |label: &str| run.settings.iter().find(|s| s.label == label);
    run.study
        .config
        .compare
        .iter()
        .filter_map(|[a, b]| {
            let g = gap(m, find(a)?, find(b)?)?;
            Some(Comparison { a: a.clone(), b: b.clone(), difference: g.difference, verdict: g.verdict })
        })
        .collect()
}

/// Per epoch, the mean and interval of the replicates that ran that long.
fn per_epoch(s: &SettingResult, test: bool) -> Vec<(f64, Interval)> {
    let longest = s.replicates.iter().map(|r| r.curve.len()).max().unwrap_or(0);
    (0..longest)
        .filter_map(|e| {
            let vals: Vec<f64> = s
                .replicates
                .iter()
                .filter_map(|r| r.curve.get(e))
                .filter_map(|&(train, t)| if test { t } else { Some(train) })
                .collect();
            Some(((e + 1) as f64, Interval::of_mean_pct(&vals)?))
        })
        .collect()
}

fn curves(run: &StudyRun) -> Vec<EpochCurves> {
    if run.study.config.figure != Figure::Epochs {
        return Vec::new();
    }
    run.settings
        .iter()
        .zip(&run.study.keys)
        .filter(|(_, k)| k.state == State::Kept)
        .map(|(s, _)| EpochCurves {
            // "wtm (T1/S1): kept state" is drawn as "wtm (T1/S1)": every state shares the curves.
            label: s.label.split(": ").next().unwrap_or(&s.label).to_string(),
            training: per_epoch(s, false),
            testing: per_epoch(s, true),
        })
        .collect()
}

/// Every number of a study's section and figure, from its run.
pub fn analyse(run: &StudyRun) -> StudyResult {
    let c = &run.study.config;
    let m = c.measures[0];
    let settings = run
        .settings
        .iter()
        .zip(&c.settings)
        .zip(&run.study.keys)
        .map(|((r, s), k)| SettingSummary {
            label: r.label.clone(),
            overrides: s.overrides.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(),
            replicates: r.replicates.len(),
            train: r.interval(Measure::Train),
            test: r.interval(Measure::Test),
            epochs: r.interval(Measure::Epochs),
            epoch: r.interval(Measure::Epoch),
            reached_target: r.reached_target(),
            x: k.x,
            series: k.series.clone(),
            state: k.state,
        })
        .collect();
    StudyResult {
        name: c.name.clone(),
        title: c.title.clone(),
        base: run.study.base_shown.clone(),
        replicates: run.study.replicates(),
        vary: c.vary,
        measures: c.measures.clone(),
        figure: c.figure.clone(),
        state_column: run.study.keys.iter().any(|k| k.state != State::Kept),
        settings,
        answer: Answer {
            measure: m,
            ranking: ranking(run, m),
            trade_off: trade_off(run, m),
            comparisons: comparisons(run, m),
            claim: claim(run),
        },
        curves: curves(run),
    }
}
