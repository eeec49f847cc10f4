//! Section 5.1's comments on the results, checked against our replicated runs of the small-set
//! trials 1-37 by the data draw.
//!
//! The runs are `reports/readings/replicates.csv` under each trial's own reading of the stopping
//! rule (the configs': the same runs as Table 5 over replicates). Each small-set trial has 10
//! weight seeds × 5 draws; draw d is one data seed (`data_seed + d`) that draws T1/S1 and T2/S2
//! alike, and every trial shares it. So a comparison pooling hundreds of runs rests on 5 draws,
//! and every interval's unit is the draw. The primary interval, which the verdict reads, is the
//! mixed model over the draws ([`compare::mixed_model`]: Student's t with draws − 1 degrees of
//! freedom over the per-draw means or differences); with 5 draws the percentile cluster bootstrap
//! ([`compare::cluster_bootstrap`], seeded) is too narrow, having no small-sample correction, and
//! is kept beside it as a secondary interval. The section's rows are one family of claims: each
//! verdict reads the row's interval at the level Holm's step-down procedure tests it (family-wise
//! α = 5 % over every row), with its Holm-adjusted p-value. The claim rows' prose lives in the
//! template; this module computes the numbers and the verdicts.

use super::readings_robustness::ranges;
use super::section51_remarks::{self, Remarks, TrainRun};
use crate::chess::bitbase::Bitbase;
use crate::error::Result;
use crate::experiment::config::Trial;
use crate::experiment::readings::{Reading, ReplicateOutcome, trial_number};
use crate::experiment::replicate;
use crate::paper::tables::Scope as TrialScope;
use crate::stats::compare::{self, Difference, Method};
use crate::stats::contrast::{self, Contrast, adjust_family};
use crate::stats::family::TContrast;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Confidence level of every unadjusted interval of the section.
pub const LEVEL: f64 = 0.95;
/// The family-wise α of the verdicts (Holm's, over every claim row).
pub const ALPHA: f64 = 0.05;
/// Bootstrap resamples of the draws.
pub const RESAMPLES: usize = 10_000;
/// The bootstrap's seed (our choice: the section's number).
pub const SEED: u64 = 51;
/// The smallest gain in accuracy that is conspicuous, in points: Table 5 prints the small-set
/// trials' accuracies as whole percentages, so a smaller gain does not show in it (section 5.1
/// judges "conspicuously more effective" from that table).
pub const CONSPICUOUS_POINTS: f64 = 1.0;

/// What `section51.json` says each method computes (`section51.toml`); `{draws}` and `{df}` are
/// filled with the number of draws and draws − 1.
#[derive(Deserialize)]
struct Descriptions {
    mixed_model: String,
    cluster_bootstrap: String,
    holm: String,
}

fn descriptions() -> Descriptions {
    toml::from_str(include_str!("section51.toml")).expect("section51.toml is valid")
}

fn describe(method: Method, draws: usize) -> String {
    let d = descriptions();
    let text = if method == Method::MixedModel { d.mixed_model } else { d.cluster_bootstrap };
    text.replace("{draws}", &draws.to_string()).replace("{df}", &draws.saturating_sub(1).to_string())
}

/// Section 5.1 against our runs (`reports/section51.json`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Section51 {
    /// How every primary interval, which the verdicts read, was computed (`mixed_model`).
    pub method: Option<Method>,
    /// What the primary method computes, and on what unit.
    pub method_description: String,
    /// The unit of every interval (`data draw`).
    pub unit: String,
    /// Whether every trial has the same number of runs in each draw (then the mixed model's
    /// interval is exact for the model with a random draw intercept).
    pub balanced: bool,
    pub level: f64,
    /// The secondary interval of each A − B (`cluster_bootstrap`), with what it computes, its
    /// resamples and seed.
    pub secondary_method: Option<Method>,
    pub secondary_description: String,
    pub resamples: usize,
    pub seed: u64,
    /// Draws of the small sets behind the intervals.
    pub draws: usize,
    /// The family of the verdicts: every claim row (`family` of them), Holm's adjustment at
    /// family-wise `alpha`, and what that computes.
    #[serde(default)]
    pub family: usize,
    #[serde(default)]
    pub alpha: f64,
    #[serde(default)]
    pub adjustment_description: String,
    pub claims: Vec<Claim>,
    pub remarks: Remarks,
    /// Table 5's small-set trials: our testing accuracy minus the paper's, by the draw (each
    /// draw's mean over the trials' runs, Student's t over the draws), for the reproduction's
    /// summary.
    #[serde(default)]
    pub gap_to_paper: Option<Difference>,
}

/// One run of a small-set trial under its config's reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub trial: u8,
    pub draw: usize,
    /// Training and testing accuracy of the kept state, m = 0, %.
    pub train: f64,
    pub test: Option<f64>,
    /// The share of wins in the run's training and testing sets (its draw), %.
    pub train_wins: f64,
    pub test_wins: f64,
}

/// What a group's value is, per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    Train,
    Test,
    /// Training accuracy minus the training set's share of wins (section 5.1's "% of wins").
    TrainOverWins,
    TestOverWins,
}

impl Measure {
    fn of(self, r: &Run) -> Option<f64> {
        match self {
            Measure::Train => Some(r.train),
            Measure::Test => r.test,
            Measure::TrainOverWins => Some(r.train - r.train_wins),
            Measure::TestOverWins => r.test.map(|t| t - r.test_wins),
        }
    }
}

/// A group of runs: their mean with its interval by the draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// The trials, as ranges: "1-13, 21-28".
    pub trials: String,
    pub measure: Measure,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    pub runs: usize,
    pub draws: usize,
}

/// What every claim's A − B is in: points of accuracy (a group's accuracy, or its accuracy
/// over its sets' share of wins, in %), more being better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Points {
    Accuracy,
}

impl contrast::Measure for Points {
    fn higher_is_better(self) -> bool {
        true
    }

    fn column(self) -> &'static str {
        "accuracy_points"
    }
}

/// A claim's contrast: group A against group B, in points.
pub type ClaimContrast = Contrast<Group, Points>;

/// One of section 5.1's claims against our runs: A − B by the draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The comment of section 5.1 (the template quotes it).
    pub claim: String,
    /// The row (the template names what it compares).
    pub row: String,
    /// A − B by the primary method, the mixed model over the draws: its estimate and 95%
    /// interval (`unadjusted`), and Holm's reading in the section's family, which the verdict
    /// reads: the p of the claim's null (A − B = 0, or A − B = [`CONSPICUOUS_POINTS`] for a
    /// claim that A is "not conspicuously" better, `not_better_by`), its adjustment, and the
    /// interval at the level at which Holm's step tests it.
    pub contrast: ClaimContrast,
    /// A − B by the secondary method, the cluster bootstrap over the same draws.
    pub bootstrap: Option<Difference>,
}

/// What the paper claims of group A against group B.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// A is greater.
    Greater,
    /// A is not conspicuously greater: any gain is below this many points.
    NotConspicuouslyGreater(f64),
}

/// Whose sets a claim is about.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scope {
    /// A property of the method (error function, size of net, training vs testing).
    Method,
    /// A property of the paper's own hand-picked sets.
    PapersSets,
}

/// One row of the section's table: the claim, the row, groups A and B (trials and measure).
struct Spec {
    claim: &'static str,
    row: &'static str,
    a: (&'static [u8], Measure),
    b: (&'static [u8], Measure),
    expect: Expect,
    scope: Scope,
}

const WTM_E1: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const WTM_E2: &[u8] = &[21, 22, 23, 24, 25, 26, 27, 28];
const BTM_E1: &[u8] = &[14, 15, 16, 17, 18, 19, 20];
const BTM_E2: &[u8] = &[29, 30, 31, 32, 33, 34, 35, 36, 37];
const WTM: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 24, 25, 26, 27, 28];
const BTM: &[u8] = &[14, 15, 16, 17, 18, 19, 20, 29, 30, 31, 32, 33, 34, 35, 36, 37];
const SMALL: &[u8] = &[
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
    29, 30, 31, 32, 33, 34, 35, 36, 37,
];

/// Section 5.1's claims, in the order the table shows them. Within side to move where sides
/// differ: wtm and btm test differently, and groups holding unequal shares of each side would
/// credit the setting with part of the side's difference.
const SPECS: [Spec; 10] = {
    use Measure::*;
    let (more, method) = (Expect::Greater, Scope::Method);
    let flat = Expect::NotConspicuouslyGreater(CONSPICUOUS_POINTS);
    [
        Spec { claim: "e2", row: "wtm", a: (WTM_E2, Train), b: (WTM_E1, Train), expect: more, scope: method },
        Spec { claim: "e2", row: "btm", a: (BTM_E2, Train), b: (BTM_E1, Train), expect: more, scope: method },
        Spec {
            claim: "target",
            row: "wtm",
            a: (&[3, 4, 5, 6, 7, 9, 10, 12, 13], Train),
            b: (&[1, 2, 8, 11], Train),
            expect: more,
            scope: method,
        },
        Spec {
            claim: "target",
            row: "btm",
            a: (&[15, 16, 17, 19, 20], Train),
            b: (&[14, 18], Train),
            expect: more,
            scope: method,
        },
        Spec {
            claim: "over_wins",
            row: "train",
            a: (BTM, TrainOverWins),
            b: (WTM, TrainOverWins),
            expect: more,
            scope: method,
        },
        Spec {
            claim: "over_wins",
            row: "test",
            a: (BTM, TestOverWins),
            b: (WTM, TestOverWins),
            expect: more,
            scope: method,
        },
        Spec {
            claim: "test_lower",
            row: "all",
            a: (SMALL, Train),
            b: (SMALL, Test),
            expect: more,
            scope: method,
        },
        Spec {
            claim: "btm_better",
            row: "test",
            a: (BTM, Test),
            b: (WTM, Test),
            expect: more,
            scope: Scope::PapersSets,
        },
        Spec {
            claim: "compression",
            row: "wtm",
            a: (&[24, 25, 26, 27, 28], Test),
            b: (&[21, 22, 23], Test),
            expect: flat,
            scope: method,
        },
        Spec {
            claim: "compression",
            row: "btm",
            a: (&[33, 34, 35, 36, 37], Test),
            b: (&[29, 30, 31, 32], Test),
            expect: flat,
            scope: method,
        },
    ]
};

/// `(draw, value)` of every run of `trials` with a value of `measure`.
fn values(runs: &[Run], trials: &[u8], measure: Measure) -> Vec<(u64, f64)> {
    runs.iter()
        .filter(|r| trials.contains(&r.trial))
        .filter_map(|r| measure.of(r).map(|v| (r.draw as u64, v)))
        .collect()
}

/// The mean of one group with its interval by the draw: the mixed model of the group against
/// zero at each of its draws (t over the group's per-draw means).
fn group_mean(xs: &[(u64, f64)]) -> Option<Difference> {
    let zero: Vec<(u64, f64)> = xs.iter().map(|&(d, _)| (d, 0.0)).collect();
    compare::mixed_model(xs, &zero, LEVEL)
}

/// A − B by the draw, the primary interval: the mixed model over the draws.
fn by_draw(a: &[(u64, f64)], b: &[(u64, f64)]) -> Option<Difference> {
    compare::mixed_model(a, b, LEVEL)
}

fn group(runs: &[Run], (trials, measure): (&[u8], Measure)) -> Option<(Group, Vec<(u64, f64)>)> {
    let xs = values(runs, trials, measure);
    let m = group_mean(&xs)?;
    // An accuracy's mean lies in [0, 100] %, while the t-interval's symmetric half-width can reach
    // past 100 % when most runs score 100 %: its bounds are cut to that range.
    let (lo, hi) = match measure {
        Measure::Train | Measure::Test => (m.lo.max(0.0), m.hi.min(100.0)),
        Measure::TrainOverWins | Measure::TestOverWins => (m.lo, m.hi),
    };
    let g =
        Group { trials: ranges(trials), measure, mean: m.estimate, lo, hi, runs: xs.len(), draws: m.units };
    Some((g, xs))
}

/// The claim of `s` on the runs: A − B by the draw, the mixed model's t contrast with its 95%
/// interval and its test; its verdict waits for the family ([`claims`]).
fn claim(runs: &[Run], s: &Spec) -> Option<Claim> {
    let (a, xa) = group(runs, s.a)?;
    let (b, xb) = group(runs, s.b)?;
    let t = TContrast::mixed_model(&xa, &xb)?;
    let unadjusted = by_draw(&xa, &xb)?;
    let (a_label, b_label) = (a.trials.clone(), b.trials.clone());
    let name = format!("{}_{}", s.claim, s.row);
    let mut contrast = Contrast::exploratory(&name, (a, a_label), (b, b_label), Points::Accuracy, t);
    contrast.primary = true;
    contrast.source = Some("section 5.1".into());
    contrast.own_sets = s.scope == Scope::PapersSets;
    contrast.unadjusted = Some(unadjusted.into());
    if let Expect::NotConspicuouslyGreater(margin) = s.expect {
        contrast.claim_not_better_by(margin);
    }
    Some(Claim {
        claim: s.claim.into(),
        row: s.row.into(),
        contrast,
        bootstrap: compare::cluster_bootstrap(&xa, &xb, LEVEL, RESAMPLES, SEED),
    })
}

/// The claims of `specs` on the runs, each verdict read in their family by Holm
/// ([`adjust_family`]): the row whose p-value ranks k-th smallest of m is read by its interval
/// at 1 − α/(m − k), and has a verdict only where Holm's step reaches it (adjusted p below α);
/// otherwise it is not shown.
fn claims(runs: &[Run], specs: &[Spec]) -> Vec<Claim> {
    let mut claims: Vec<Claim> = specs.iter().filter_map(|s| claim(runs, s)).collect();
    adjust_family(&mut claims.iter_mut().map(|c| &mut c.contrast).collect::<Vec<_>>());
    claims
}

/// Our testing accuracy minus the paper's over the small-set trials, by the draw: per draw, the
/// mean over every run of (testing accuracy − its trial's figure in Table 5), then Student's t
/// over the draws. The trials share the draws, so the draw, not the trial, is the unit.
fn gap_to_paper(runs: &[Run]) -> Option<Difference> {
    let paper = crate::paper::tables::table5();
    let figure = |t: u8| paper.iter().find(|p| p.trial == t).and_then(|p| p.test_acc_pct);
    let xs: Vec<(u64, f64)> =
        runs.iter().filter_map(|r| Some((r.draw as u64, r.test? - figure(r.trial)?))).collect();
    group_mean(&xs)
}

/// The small-set runs of `replicates` under their trial's own reading, with the share of wins of
/// each draw's sets. `configs` are Table 5's trials.
pub fn runs(configs: &[Trial], replicates: &[ReplicateOutcome], bb: &Bitbase) -> Result<Vec<Run>> {
    let mut wins: HashMap<(String, u64), f64> = HashMap::new();
    let mut share = |set: String, seed: u64| -> Result<f64> {
        if let Some(&w) = wins.get(&(set.clone(), seed)) {
            return Ok(w);
        }
        let w = replicate::wins_pct(&set, seed, bb)?;
        wins.insert((set, seed), w);
        Ok(w)
    };
    let mut out = Vec::new();
    for t in configs.iter().filter(|t| t.scope() == TrialScope::Small) {
        let (Some(n), Some(test)) = (trial_number(t.name()), t.config.testing_set) else { continue };
        let reading = Reading::of(&t.config);
        for r in replicates.iter().filter(|r| r.trial == n && is_reading(r, &reading)) {
            let seed = t.config.data_seed.wrapping_add(r.draw_index as u64);
            out.push(Run {
                trial: n,
                draw: r.draw_index,
                train: r.train_pct,
                test: r.test_pct,
                train_wins: share(t.config.training_set.name().to_string(), seed)?,
                test_wins: share(test.name().to_string(), seed)?,
            });
        }
    }
    Ok(out)
}

/// Whether `r` ran under `reading`.
pub fn is_reading(r: &ReplicateOutcome, reading: &Reading) -> bool {
    r.stop == reading.stop.name()
        && r.window == reading.window
        && r.patience == reading.patience
        && r.keep == reading.keep.name()
}

/// Section 5.1 checked on the runs: `configs` are Table 5's trials, `replicates` every run under
/// every reading (`reports/readings/replicates.csv`).
pub fn analyse(configs: &[Trial], replicates: &[ReplicateOutcome], bb: &Bitbase) -> Result<Section51> {
    let runs = runs(configs, replicates, bb)?;
    let claims = claims(&runs, &SPECS);
    let train: Vec<TrainRun> =
        runs.iter().map(|r| TrainRun { trial: r.trial, draw: r.draw, train: r.train }).collect();
    let mut draws: Vec<usize> = runs.iter().map(|r| r.draw).collect();
    draws.sort_unstable();
    draws.dedup();
    Ok(Section51 {
        method: Some(Method::MixedModel),
        method_description: describe(Method::MixedModel, draws.len()),
        unit: "data draw".into(),
        balanced: balanced(&runs),
        level: LEVEL,
        secondary_method: Some(Method::ClusterBootstrap),
        secondary_description: describe(Method::ClusterBootstrap, draws.len()),
        resamples: RESAMPLES,
        seed: SEED,
        draws: draws.len(),
        family: claims.len(),
        alpha: ALPHA,
        adjustment_description: descriptions().holm.replace("{family}", &claims.len().to_string()),
        remarks: section51_remarks::analyse(configs, replicates, &train, &by_draw, bb)?,
        gap_to_paper: gap_to_paper(&runs),
        claims,
    })
}

/// Whether every trial has as many runs, and as many with a testing accuracy, in each of its
/// draws.
fn balanced(runs: &[Run]) -> bool {
    let mut counts: std::collections::BTreeMap<u8, std::collections::BTreeMap<usize, (usize, usize)>> =
        std::collections::BTreeMap::new();
    for r in runs {
        let c = counts.entry(r.trial).or_default().entry(r.draw).or_default();
        *c = (c.0 + 1, c.1 + usize::from(r.test.is_some()));
    }
    counts.values().all(|by_draw| {
        let mut per_draw = by_draw.values();
        let first = per_draw.next();
        per_draw.all(|c| Some(c) == first)
    })
}

#[cfg(test)]
#[path = "section51_tests.rs"]
mod tests;
