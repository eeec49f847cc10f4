//! The declared primaries read from the draws: for each, a − b paired by draw (or, for the bytes
//! primary, the exact tree's one size against the hybrid's seeds), superiority by Student's t
//! (two-sided, Holm over the family of primaries) and equivalence by TOST at the declared margin
//! (Holm over the accuracy primaries), each family at the declared α. The verdict is "shown
//! better" or "shown worse" where superiority is shown, else "shown equivalent within ±m" where
//! equivalence is, else "inconclusive". Every other comparison is exploratory: a 95% interval,
//! unadjusted, without a verdict.

use super::InputSet;
use super::curves::{DrawFit, cell_rows};
use super::design::{Arm, Design, LearnerContrast, Measure, Primary, paper_size};
use super::power::{self, Power};
use crate::error::{Error, Result};
use crate::stats::contrast::{self, Contrast, Equivalence, Measure as _, Sizing};
use crate::stats::family::TContrast;

/// A primary's differences a − b: per draw at the paper's size (accuracy) or per hybrid seed.
fn differences(p: &Primary, rows: &[DrawFit], tree_bytes: u64, hybrid_bytes: &[u64]) -> Result<Vec<f64>> {
    match p.measure {
        Measure::TestPct => {
            let n = paper_size(p.side);
            let a = cell_rows(rows, &p.a, InputSet::All, p.side, n);
            let b = cell_rows(rows, &p.b, InputSet::All, p.side, n);
            if a.len() != b.len() || a.iter().zip(&b).any(|(x, y)| x.draw != y.draw) {
                return Err(Error::Data(format!("{}: the draws of {} and {} do not pair", p.name, p.a, p.b)));
            }
            Ok(a.iter().zip(&b).map(|(x, y)| x.test_pct - y.test_pct).collect())
        }
        Measure::ExactBytes => Ok(hybrid_bytes.iter().map(|&h| tree_bytes as f64 - h as f64).collect()),
        Measure::TrainPct => Err(Error::Data(format!("{}: train_pct is exploratory", p.name))),
    }
}

/// A primary's contrast before the family's reading: its paired t over the differences, its
/// TOST at the declared margin (accuracy primaries), and its sizing.
fn unread(design: &Design, power: &Power, p: &Primary, d: &[f64]) -> Result<LearnerContrast> {
    let t = TContrast::of_differences(d)
        .ok_or_else(|| Error::Data(format!("{}: fewer than two units", p.name)))?;
    let higher_is_better = p.measure.higher_is_better();
    // The bytes primary's arms are files: the tree on x1..x32, the hybrid on the pawn's side.
    let arm = |learner: &str| Arm {
        learner: learner.to_string(),
        inputs: (learner != super::design::HYBRID).then_some(InputSet::All),
        side: p.side,
        n: higher_is_better.then(|| paper_size(p.side)),
    };
    let mut c =
        Contrast::exploratory(&p.name, (arm(&p.a), p.a.clone()), (arm(&p.b), p.b.clone()), p.measure, t);
    c.primary = true;
    c.claim = Some(p.claim.clone());
    c.equivalence = higher_is_better.then(|| Equivalence {
        margin: design.margin,
        p_tost: t.p_tost(design.margin),
        p_tost_adjusted: None,
    });
    let sd = crate::stats::std_dev(d);
    c.sizing = Some(Sizing {
        sd,
        mdd_declared: power.primaries.iter().find(|q| q.name == p.name).map_or(f64::NAN, |q| q.mdd),
        mdd_observed: power::mdd(sd, t.units, power.level, design.power),
    });
    Ok(c)
}

/// Every declared primary read from `rows` (and the bytes), in the declaration's order.
pub fn primaries(
    design: &Design,
    power: &Power,
    rows: &[DrawFit],
    tree_bytes: u64,
    hybrid_bytes: &[u64],
) -> Result<Vec<LearnerContrast>> {
    let mut family = design
        .primaries
        .iter()
        .map(|p| unread(design, power, p, &differences(p, rows, tree_bytes, hybrid_bytes)?))
        .collect::<Result<Vec<_>>>()?;
    contrast::read_with_equivalence(&mut family, design.alpha);
    Ok(family)
}

/// An accuracy primary's size against the declared margin, read after the run (the untuned
/// declaration names TOST, not the minimal-effect test): "beyond" where the minimal-effect test
/// of |a − b| ≤ margin rejects (Holm over the accuracy primaries at α), else "within" where the
/// declared TOST does, else "undetermined".
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgainstMargin {
    pub name: String,
    pub p_beyond: f64,
    pub p_beyond_adjusted: f64,
    pub size: super::tuned_read::Size,
}

/// [`AgainstMargin`] of every accuracy primary, in the declaration's order.
pub fn against_margin(design: &Design, primaries: &[LearnerContrast]) -> Vec<AgainstMargin> {
    use super::tuned_read::{Size, p_beyond};
    let acc: Vec<&LearnerContrast> = primaries.iter().filter(|c| c.measure == Measure::TestPct).collect();
    let p: Vec<f64> = acc.iter().map(|c| p_beyond(&c.t, design.margin)).collect();
    let adjusted = crate::stats::compare::holm(&p);
    acc.iter()
        .zip(p)
        .zip(adjusted)
        .map(|((c, p), a)| {
            let tost = c.equivalence.as_ref().and_then(|e| e.p_tost_adjusted);
            let size = if a <= design.alpha {
                Size::Beyond
            } else if tost.is_some_and(|q| q <= design.alpha) {
                Size::Within
            } else {
                Size::Undetermined
            };
            AgainstMargin { name: c.name.clone(), p_beyond: p, p_beyond_adjusted: a, size }
        })
        .collect()
}
