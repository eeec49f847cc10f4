//! The tuned design's primaries and summaries, read from its draws alone
//! ([`super::tune::TunedFit`] rows), as `experiments/learners_tuned.toml` declares them.
//!
//! Each primary is a − b in testing accuracy, paired by draw (Student's t over the draws). Three
//! tests, each Holm-adjusted over the family of primaries at the declared α:
//! - the minimal-effect test of |a − b| ≤ margin: one-sided t of a − b ≤ +margin and of
//!   a − b ≥ −margin, p twice the smaller, at most 1;
//! - TOST of |a − b| ≥ margin (Schuirmann 1987);
//! - the two-sided t of a − b = 0.
//!
//! The size word comes first: "beyond" the margin where the minimal-effect test rejects, else
//! "within" where TOST rejects, else "undetermined"; the direction second: "better" or "worse"
//! where the test of 0 rejects, else none shown.

use super::tune::{TunedDesign, TunedFit};
use crate::dataset::Side;
use crate::error::{Error, Result};
use crate::stats::compare::{holm, student_t_cdf};
use crate::stats::family::TContrast;
use crate::stats::{Interval, quantile, std_dev};
use serde::{Deserialize, Serialize};

/// The size of a difference against the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Beyond,
    Within,
    Undetermined,
}

/// The direction of a difference, where shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Better,
    Worse,
    NotShown,
}

/// One primary, read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedPrimary {
    pub name: String,
    pub a: String,
    pub b: String,
    pub side: Side,
    pub draws: usize,
    /// Mean a − b (points) and its 95% interval, unadjusted.
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    /// The SD of the per-draw differences, and the 2.5% and 97.5% quantiles of them.
    pub sd: f64,
    pub draw_lo: f64,
    pub draw_hi: f64,
    /// The share of draws where a tested more accurately than b (ties count one half).
    pub p_a_beats_b: f64,
    pub p_beyond: f64,
    pub p_beyond_adjusted: f64,
    pub p_tost: f64,
    pub p_tost_adjusted: f64,
    pub p_zero: f64,
    pub p_zero_adjusted: f64,
    pub size: Size,
    pub direction: Direction,
}

/// One learner on one side over the draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedSummary {
    pub learner: String,
    pub side: Side,
    /// Testing accuracy (%): the interval of the mean, and the 2.5% and 97.5% quantiles of the
    /// single draws (where one draw falls), and the SD of single draws.
    pub test: Interval,
    pub draw_lo: f64,
    pub draw_hi: f64,
    pub draw_sd: f64,
    /// The same learner untuned on the same draws, and tuned − untuned (paired, 95%).
    pub untuned: Interval,
    pub gain: Interval,
    pub cv_pct: f64,
    pub brier: Option<f64>,
    pub log_loss: Option<f64>,
    /// How often each grid value was chosen, in the grid's order: (value, draws).
    pub chosen: Vec<(f64, usize)>,
}

/// Everything derived from the tuned draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedReading {
    pub primaries: Vec<TunedPrimary>,
    pub summaries: Vec<TunedSummary>,
    /// The majority class's share of the test positions, mean over the draws, per side.
    pub majority: Vec<(Side, f64)>,
}

/// `learner`'s rows on `side` in draw order.
fn rows_of<'a>(rows: &'a [TunedFit], learner: &str, side: Side) -> Vec<&'a TunedFit> {
    let mut v: Vec<&TunedFit> = rows.iter().filter(|r| r.learner == learner && r.side == side).collect();
    v.sort_by_key(|r| r.draw);
    v
}

/// The paired differences a − b of testing accuracy by draw.
fn differences(rows: &[TunedFit], a: &str, b: &str, side: Side) -> Result<Vec<(f64, f64)>> {
    let (ra, rb) = (rows_of(rows, a, side), rows_of(rows, b, side));
    if ra.len() < 2 || ra.len() != rb.len() || ra.iter().zip(&rb).any(|(x, y)| x.draw != y.draw) {
        return Err(Error::Data(format!("{a}−{b} {side}: unpaired draws")));
    }
    Ok(ra.iter().zip(&rb).map(|(x, y)| (x.test_pct, y.test_pct)).collect())
}

/// The minimal-effect test's p of |d| ≤ margin.
pub fn p_beyond(t: &TContrast, margin: f64) -> f64 {
    if t.se == 0.0 {
        return if t.estimate.abs() > margin { 0.0 } else { 1.0 };
    }
    let upper = 1.0 - student_t_cdf((t.estimate - margin) / t.se, t.df);
    let lower = student_t_cdf((t.estimate + margin) / t.se, t.df);
    (2.0 * upper.min(lower)).min(1.0)
}

/// Every declared primary, read, in the declaration's order (side, comparator, learner).
pub fn primaries(design: &TunedDesign, rows: &[TunedFit]) -> Result<Vec<TunedPrimary>> {
    let mut out = Vec::new();
    for &side in &design.sides {
        for b in &design.comparators {
            for a in &design.learners {
                let pairs = differences(rows, a, b, side)?;
                let d: Vec<f64> = pairs.iter().map(|(x, y)| x - y).collect();
                let t = TContrast::of_differences(&d)
                    .ok_or_else(|| Error::Data(format!("{a}−{b}: under two draws")))?;
                let (lo, hi) = t.interval(0.95);
                let wins: f64 = pairs
                    .iter()
                    .map(|(x, y)| {
                        if x > y {
                            1.0
                        } else if x == y {
                            0.5
                        } else {
                            0.0
                        }
                    })
                    .sum();
                out.push(TunedPrimary {
                    name: format!("{a}_vs_{b}_{side}"),
                    a: a.clone(),
                    b: b.clone(),
                    side,
                    draws: d.len(),
                    estimate: t.estimate,
                    lo,
                    hi,
                    sd: std_dev(&d),
                    draw_lo: quantile(&d, 0.025),
                    draw_hi: quantile(&d, 0.975),
                    p_a_beats_b: wins / d.len() as f64,
                    p_beyond: p_beyond(&t, design.margin),
                    p_beyond_adjusted: 0.0,
                    p_tost: t.p_tost(design.margin),
                    p_tost_adjusted: 0.0,
                    p_zero: t.p,
                    p_zero_adjusted: 0.0,
                    size: Size::Undetermined,
                    direction: Direction::NotShown,
                });
            }
        }
    }
    read(&mut out, design.alpha);
    Ok(out)
}

/// Holm over the family for each test, then the words.
fn read(family: &mut [TunedPrimary], alpha: f64) {
    let adjust = |get: fn(&TunedPrimary) -> f64, family: &[TunedPrimary]| {
        holm(&family.iter().map(get).collect::<Vec<_>>())
    };
    let beyond = adjust(|p| p.p_beyond, family);
    let tost = adjust(|p| p.p_tost, family);
    let zero = adjust(|p| p.p_zero, family);
    for (i, p) in family.iter_mut().enumerate() {
        (p.p_beyond_adjusted, p.p_tost_adjusted, p.p_zero_adjusted) = (beyond[i], tost[i], zero[i]);
        p.size = if beyond[i] <= alpha {
            Size::Beyond
        } else if tost[i] <= alpha {
            Size::Within
        } else {
            Size::Undetermined
        };
        p.direction = match (zero[i] <= alpha, p.estimate > 0.0) {
            (false, _) => Direction::NotShown,
            (true, true) => Direction::Better,
            (true, false) => Direction::Worse,
        };
    }
}

/// Each learner's summary on each side.
pub fn summaries(design: &TunedDesign, rows: &[TunedFit]) -> Result<Vec<TunedSummary>> {
    let mut out = Vec::new();
    for &side in &design.sides {
        for learner in design.all_learners() {
            let r = rows_of(rows, learner, side);
            let test: Vec<f64> = r.iter().map(|x| x.test_pct).collect();
            let untuned: Vec<f64> = r.iter().map(|x| x.untuned_test_pct).collect();
            let gain: Vec<f64> = test.iter().zip(&untuned).map(|(a, b)| a - b).collect();
            let none = || Error::Data(format!("{learner} {side}: no draws"));
            let mean_of = |v: Vec<Option<f64>>| -> Option<f64> {
                let v: Option<Vec<f64>> = v.into_iter().collect();
                v.filter(|v| !v.is_empty()).map(|v| crate::stats::mean(&v))
            };
            out.push(TunedSummary {
                learner: learner.clone(),
                side,
                test: Interval::of_mean(&test).ok_or_else(none)?,
                draw_lo: quantile(&test, 0.025),
                draw_hi: quantile(&test, 0.975),
                draw_sd: std_dev(&test),
                untuned: Interval::of_mean(&untuned).ok_or_else(none)?,
                gain: Interval::of_mean(&gain).ok_or_else(none)?,
                cv_pct: crate::stats::mean(&r.iter().map(|x| x.cv_pct).collect::<Vec<_>>()),
                brier: mean_of(r.iter().map(|x| x.brier).collect()),
                log_loss: mean_of(r.iter().map(|x| x.log_loss).collect()),
                chosen: design
                    .grid_of(learner)
                    .values
                    .iter()
                    .map(|&v| (v, r.iter().filter(|x| x.chosen == v).count()))
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// The whole reading of the tuned draws.
pub fn reading(design: &TunedDesign, rows: &[TunedFit]) -> Result<TunedReading> {
    let majority = design
        .sides
        .iter()
        .map(|&side| {
            let v: Vec<f64> = rows
                .iter()
                .filter(|r| r.side == side && r.learner == design.learners[0])
                .map(|r| r.majority_pct)
                .collect();
            (side, crate::stats::mean(&v))
        })
        .collect();
    Ok(TunedReading { primaries: primaries(design, rows)?, summaries: summaries(design, rows)?, majority })
}
