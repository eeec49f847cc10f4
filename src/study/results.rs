//! A study's analysis: every number its section of `reports/STUDIES.md` and its figure show,
//! computed from the run ([`StudyResult`]; all studies together committed as
//! `reports/studies.json`). [`crate::report::studies`] renders it and computes nothing.
//!
//! The answer is data: the primary contrasts the config declares (Holm over every study's, by
//! [`family`], each with its verdict), then the exploratory ones: the best setting on the
//! answering measure against the runner-up, what the best trades on the other measures against
//! the reference (the first setting), and the config's other contrasts. Each contrast is paired
//! or Welch as the design allows ([`contrasts`]).

use super::config::{Figure, Measure, State, Vary};
use super::contrasts::{self, ContrastResult};
use super::replicate::SettingResult;
use super::run::StudyRun;
use crate::stats::Interval;
use crate::stats::contrast::{ContrastVerdict, adjust_family};
use serde::{Deserialize, Serialize};

/// Every study's results, in the order STUDIES.md lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudiesResults {
    /// The primary contrasts of every study: one family for Holm's adjustment.
    pub family: usize,
    /// The primaries grouped by verdict, for the summary.
    pub summary: Vec<Finding>,
    pub studies: Vec<StudyResult>,
}

/// The primary contrasts that share a verdict, each with its study's title.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub verdict: ContrastVerdict,
    pub contrasts: Vec<(String, ContrastResult)>,
}

/// The studies' results as one report: the primaries of all `studies` (in the order given)
/// adjusted by Holm as one family, and grouped by verdict for the summary (supported, then
/// contradicted, not replicated on random sets, not shown).
pub fn family(mut studies: Vec<StudyResult>) -> StudiesResults {
    let mut primaries: Vec<&mut ContrastResult> =
        studies.iter_mut().flat_map(|s| s.answer.primaries.iter_mut()).collect();
    adjust_family(&mut primaries);
    let family = primaries.len();
    let order = [
        ContrastVerdict::Supported,
        ContrastVerdict::Contradicted,
        ContrastVerdict::NotReplicatedOnRandomSets,
        ContrastVerdict::NotShown,
    ];
    let summary = order
        .into_iter()
        .map(|verdict| Finding {
            verdict,
            contrasts: studies
                .iter()
                .flat_map(|s| s.answer.primaries.iter().map(move |c| (s.title.clone(), c.clone())))
                .filter(|(_, c)| c.verdict == verdict)
                .collect(),
        })
        .filter(|f| !f.contrasts.is_empty())
        .collect();
    StudiesResults { family, summary, studies }
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

/// A setting's label and its interval on a measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    pub label: String,
    pub value: Interval,
}

/// The best two settings on the answering measure, and the first minus the second
/// (exploratory: the pair is chosen after the run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    pub best: Ranked,
    pub second: Option<Ranked>,
    pub difference: Option<ContrastResult>,
}

/// What the best setting gains or costs on the other measures against the reference
/// (exploratory).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TradeOff {
    pub reference: String,
    pub best: String,
    pub gaps: Vec<ContrastResult>,
}

/// The study's answer: the primary contrasts its config declared (their verdicts set by
/// [`family`]), then everything exploratory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub measure: Measure,
    pub primaries: Vec<ContrastResult>,
    /// `None` when no setting has a value of the measure.
    pub ranking: Option<Ranking>,
    pub trade_off: Option<TradeOff>,
    /// The config's contrasts that are not primary.
    pub exploratory: Vec<ContrastResult>,
}

impl StudyResult {
    /// Every contrast the section shows, in `contrasts.csv`'s order: the primaries, the config's
    /// other contrasts, the best against the runner-up, the trade-offs.
    pub fn contrasts(&self) -> impl Iterator<Item = &ContrastResult> {
        let a = &self.answer;
        a.primaries
            .iter()
            .chain(&a.exploratory)
            .chain(a.ranking.iter().filter_map(|r| r.difference.as_ref()))
            .chain(a.trade_off.iter().flat_map(|t| &t.gaps))
    }
}

fn ranking(run: &StudyRun, m: Measure) -> Option<Ranking> {
    let mut ranked: Vec<(usize, Interval)> =
        run.settings.iter().enumerate().filter_map(|(i, s)| s.interval(m).map(|v| (i, v))).collect();
    ranked.sort_by(|a, b| contrasts::preferred(m, a.1.mean, b.1.mean));
    let &(best, bi) = ranked.first()?;
    let second = ranked.get(1);
    let label = |i: usize| run.settings[i].label.clone();
    Some(Ranking {
        best: Ranked { label: label(best), value: bi },
        second: second.map(|&(s, v)| Ranked { label: label(s), value: v }),
        difference: second.and_then(|&(s, _)| {
            contrasts::contrast(&run.study, &run.settings, "best_vs_runner_up", (best, s), m)
        }),
    })
}

/// What the best setting on `m` costs or gains on the other measures against the first setting
/// (the reference: the paper's where the study has one). `None` when the best is the reference
/// or there is nothing else to compare.
fn trade_off(run: &StudyRun, m: Measure) -> Option<TradeOff> {
    let mut ranked: Vec<(usize, f64)> =
        run.settings.iter().enumerate().filter_map(|(i, s)| s.interval(m).map(|v| (i, v.mean))).collect();
    // The last of equals, as `max_by` would pick.
    ranked.reverse();
    ranked.sort_by(|a, b| contrasts::preferred(m, a.1, b.1));
    let &(best, _) = ranked.first()?;
    if best == 0 {
        return None;
    }
    // The epoch of a reported state is not a cost: it is where the state lies.
    let gaps: Vec<ContrastResult> = run.study.config.measures[1..]
        .iter()
        .filter(|&&o| o != Measure::Epoch)
        .filter_map(|&o| {
            let name = format!("trade_off_{}", o.column());
            contrasts::contrast(&run.study, &run.settings, &name, (best, 0), o)
        })
        .collect();
    (!gaps.is_empty()).then(|| TradeOff {
        reference: run.settings[0].label.clone(),
        best: run.settings[best].label.clone(),
        gaps,
    })
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
        answer: {
            let (primaries, exploratory) =
                contrasts::declared(&run.study, &run.settings).into_iter().partition(|c| c.primary);
            Answer {
                measure: m,
                primaries,
                ranking: ranking(run, m),
                trade_off: trade_off(run, m),
                exploratory,
            }
        },
        curves: curves(run),
    }
}
