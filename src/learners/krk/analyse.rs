//! From the design's fits ([`super::run::DrawFit`]) to what reports/KRK.md shows: the learning
//! curves (the mean with its 95% t interval, and the spread of single draws, per learner, inputs
//! and size), the declared primaries read by Holm (superiority) and TOST (equivalence, a separate
//! Holm family), and the exploratory contrasts (95%, unadjusted, no verdict).

use super::design::Design;
use super::run::DrawFit;
use super::{Inputs, MLP, NAMES};
use crate::error::{Error, Result};
use crate::learners::power::mdd;
use crate::stats::compare::holm;
use crate::stats::family::{self, TContrast};
use crate::stats::{Interval, spread95, std_dev};
use serde::{Deserialize, Serialize};

/// A measure over the draws of one cell: the mean, its 95% t interval, and the 2.5% and 97.5%
/// quantiles of single draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    pub draw_lo: f64,
    pub draw_hi: f64,
}

impl Spread {
    /// The spread of `values`, which cannot leave [`min`, `max`] (the interval is cut to it).
    fn of(values: &[f64], (min, max): (f64, f64)) -> Spread {
        let i = Interval::of_mean_within(values, min, max).unwrap_or(Interval {
            mean: 0.0,
            lo: 0.0,
            hi: 0.0,
            n: 0,
        });
        let (draw_lo, draw_hi) = spread95(values);
        Spread { mean: i.mean, lo: i.lo, hi: i.hi, draw_lo, draw_hi }
    }
}

/// One point of a learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub learner: String,
    pub inputs: Inputs,
    pub n: usize,
    pub draws: usize,
    /// Test rows of each draw (every row not drawn).
    pub test_rows: usize,
    pub accuracy: Spread,
    pub mae: Spread,
}

/// A paired contrast's estimate and 95% interval (unadjusted).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
}

/// An arm: a learner fed an input set, at a training size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arm {
    pub learner: String,
    pub inputs: Inputs,
}

/// An exploratory contrast a − b at one size, in accuracy (points) and MAE (moves).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploratory {
    pub a: Arm,
    pub b: Arm,
    pub n: usize,
    pub units: usize,
    pub accuracy: Estimate,
    pub mae: Estimate,
}

/// A declared primary as read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrimaryResult {
    pub name: String,
    pub a: Arm,
    pub b: Arm,
    pub claim: String,
    pub n: usize,
    pub units: usize,
    /// a − b in points of testing accuracy, with its 95% interval (unadjusted) ...
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    /// ... and its interval at the level Holm's step tests it.
    pub holm_level: f64,
    pub holm_lo: f64,
    pub holm_hi: f64,
    pub p: f64,
    pub p_adjusted: f64,
    pub p_tost: f64,
    pub p_tost_adjusted: f64,
    /// `shown_better`, `shown_worse`, `shown_equivalent` or `inconclusive`.
    pub verdict: String,
    /// The observed paired SD, the declared MDD (at the assumed SD) and the MDD at the observed SD.
    pub sd: f64,
    pub mdd_declared: f64,
    pub mdd_observed: f64,
}

/// The analysed design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysed {
    pub curves: Vec<CurvePoint>,
    pub primaries: Vec<PrimaryResult>,
    pub exploratory: Vec<Exploratory>,
}

/// The measure's values of an arm at size `n`, by draw.
fn values(fits: &[DrawFit], arm: &Arm, n: usize, mae: bool) -> Vec<f64> {
    let mut v: Vec<(usize, f64)> = fits
        .iter()
        .filter(|f| f.learner == arm.learner && f.inputs == arm.inputs && f.n == n)
        .map(|f| (f.draw, if mae { f.mae } else { f.accuracy }))
        .collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// The paired contrast of two arms' values by draw, or why there is none.
fn paired(a: &[f64], b: &[f64], what: &str) -> Result<TContrast> {
    TContrast::paired(a, b)
        .filter(|_| a.len() >= 2)
        .ok_or_else(|| Error::Data(format!("{what}: unpaired draws ({} and {})", a.len(), b.len())))
}

fn estimate(a: &[f64], b: &[f64], what: &str) -> Result<Estimate> {
    let t = paired(a, b, what)?;
    let (lo, hi) = t.interval(family::LEVEL);
    Ok(Estimate { estimate: t.estimate, lo, hi })
}

/// The learning curves: every learner, inputs and size, in the declared orders.
fn curves(design: &Design, fits: &[DrawFit]) -> Vec<CurvePoint> {
    let mut out = Vec::new();
    for inputs in Inputs::ALL {
        for learner in NAMES {
            for &n in &design.sizes {
                let arm = Arm { learner: learner.to_string(), inputs };
                let (acc, mae) = (values(fits, &arm, n, false), values(fits, &arm, n, true));
                let test_rows = fits.iter().find(|f| f.n == n).map_or(0, |f| f.test_rows);
                if acc.is_empty() {
                    continue;
                }
                out.push(CurvePoint {
                    learner: arm.learner,
                    inputs,
                    n,
                    draws: acc.len(),
                    test_rows,
                    accuracy: Spread::of(&acc, (0.0, 100.0)),
                    mae: Spread::of(&mae, (0.0, f64::from(design.class_draw_depth))),
                });
            }
        }
    }
    out
}

/// The exploratory contrasts at every size: each learner minus the MLP on each input set, and
/// each learner's features minus its squares.
fn exploratory(design: &Design, fits: &[DrawFit]) -> Result<Vec<Exploratory>> {
    let arm = |learner: &str, inputs| Arm { learner: learner.to_string(), inputs };
    let mut pairs: Vec<(Arm, Arm)> = Vec::new();
    for inputs in Inputs::ALL {
        pairs.extend(NAMES.iter().filter(|&&l| l != MLP).map(|l| (arm(l, inputs), arm(MLP, inputs))));
    }
    pairs.extend(NAMES.iter().map(|l| (arm(l, Inputs::Features), arm(l, Inputs::Squares))));
    let mut out = Vec::new();
    for &n in &design.sizes {
        for (a, b) in &pairs {
            let (aa, ba) = (values(fits, a, n, false), values(fits, b, n, false));
            let (am, bm) = (values(fits, a, n, true), values(fits, b, n, true));
            let what =
                format!("{} {} - {} {} at n = {n}", a.learner, a.inputs.name(), b.learner, b.inputs.name());
            out.push(Exploratory {
                a: a.clone(),
                b: b.clone(),
                n,
                units: aa.len(),
                accuracy: estimate(&aa, &ba, &what)?,
                mae: estimate(&am, &bm, &what)?,
            });
        }
    }
    Ok(out)
}

/// The declared primaries at the primary size: Holm over the family, then TOST (Holm again).
fn primaries(design: &Design, fits: &[DrawFit]) -> Result<Vec<PrimaryResult>> {
    let n = design.primary_size;
    let m = design.primaries.len();
    let arms: Vec<(Arm, Arm)> = design
        .primaries
        .iter()
        .map(|p| {
            (
                Arm { learner: p.a.clone(), inputs: p.inputs },
                Arm { learner: p.b.clone(), inputs: p.b_inputs() },
            )
        })
        .collect();
    let diffs: Vec<Vec<f64>> = arms
        .iter()
        .map(|(a, b)| {
            let (va, vb) = (values(fits, a, n, false), values(fits, b, n, false));
            va.iter().zip(&vb).map(|(x, y)| x - y).collect()
        })
        .collect();
    let tests = diffs
        .iter()
        .zip(&design.primaries)
        .map(|(d, p)| paired(d, &vec![0.0; d.len()], &p.name))
        .collect::<Result<Vec<TContrast>>>()?;
    let readings = family::holm(&tests.iter().map(|t| (*t, true)).collect::<Vec<_>>());
    let p_tost: Vec<f64> = tests.iter().map(|t| t.p_tost(design.margin)).collect();
    let tost_adjusted = holm(&p_tost);
    let level = design.alpha / m as f64;
    let read = design
        .primaries
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (t, h) = (&tests[i], &readings[i]);
            let (lo, hi) = t.interval(family::LEVEL);
            let verdict = match h.verdict {
                crate::stats::compare::Verdict::Supported => "shown_better",
                crate::stats::compare::Verdict::Contradicted => "shown_worse",
                _ if tost_adjusted[i] < design.alpha => "shown_equivalent",
                _ => "inconclusive",
            };
            let sd = std_dev(&diffs[i]);
            PrimaryResult {
                name: p.name.clone(),
                a: arms[i].0.clone(),
                b: arms[i].1.clone(),
                claim: p.claim.clone(),
                n,
                units: t.units,
                estimate: t.estimate,
                lo,
                hi,
                holm_level: h.level,
                holm_lo: h.lo,
                holm_hi: h.hi,
                p: t.p,
                p_adjusted: h.p_adjusted,
                p_tost: p_tost[i],
                p_tost_adjusted: tost_adjusted[i],
                verdict: verdict.to_string(),
                sd,
                mdd_declared: mdd(design.assumed_sd, t.units.max(2), level, design.power),
                mdd_observed: mdd(sd, t.units.max(2), level, design.power),
            }
        })
        .collect();
    Ok(read)
}

/// Everything the report derives from the fits.
pub fn analyse(design: &Design, fits: &[DrawFit]) -> Result<Analysed> {
    Ok(Analysed {
        curves: curves(design, fits),
        primaries: primaries(design, fits)?,
        exploratory: exploratory(design, fits)?,
    })
}
