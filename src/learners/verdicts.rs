//! The declared primaries read from the draws: for each, a − b paired by draw (or, for the bytes
//! primary, the exact tree's one size against the hybrid's seeds), superiority by Student's t
//! (two-sided, Holm over the family of primaries) and equivalence by TOST at the declared margin
//! (Holm over the accuracy primaries), each family at the declared α. The verdict is "shown
//! better" or "shown worse" where superiority is shown, else "shown equivalent within ±m" where
//! equivalence is, else "inconclusive". Every other comparison is exploratory: a 95% interval,
//! unadjusted, without a verdict.

use super::InputSet;
use super::curves::{DrawFit, cell_rows};
use super::design::{Design, Measure, Primary, paper_size};
use super::power::{self, Power};
use crate::error::{Error, Result};
use crate::stats::compare::{holm, student_t_cdf, t_quantile};
use crate::stats::contrast::Measure as _;
use serde::{Deserialize, Serialize};

/// A primary's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    ShownBetter,
    ShownWorse,
    ShownEquivalent,
    Inconclusive,
}

/// One primary read from the draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrimaryResult {
    pub name: String,
    pub a: String,
    pub b: String,
    pub side: crate::dataset::Side,
    pub measure: Measure,
    pub claim: String,
    /// Training size (accuracy primaries: the paper's size of the side).
    pub n: Option<usize>,
    /// Paired units: draws, or the hybrid's seeds.
    pub units: usize,
    pub estimate: f64,
    pub sd: f64,
    pub se: f64,
    pub df: f64,
    /// 95% interval, unadjusted.
    pub lo95: f64,
    pub hi95: f64,
    /// Two-sided p of "no difference", unadjusted and by Holm.
    pub p: f64,
    pub p_holm: f64,
    /// TOST's p of "|a − b| ≥ margin", unadjusted and by Holm (accuracy primaries).
    pub p_tost: Option<f64>,
    pub p_tost_holm: Option<f64>,
    pub verdict: Verdict,
    /// The minimal detectable difference the declaration gave it (from the pilot), and the one
    /// this run's own SD gives (both at Holm's most stringent level with the declared power).
    pub mdd_declared: f64,
    pub mdd_observed: f64,
}

/// A primary's paired values (a − b) before the family's adjustment.
struct Paired {
    units: usize,
    estimate: f64,
    sd: f64,
    se: f64,
    df: f64,
}

fn paired(d: &[f64]) -> Option<Paired> {
    if d.len() < 2 {
        return None;
    }
    let sd = crate::stats::std_dev(d);
    let k = d.len();
    Some(Paired {
        units: k,
        estimate: crate::stats::mean(d),
        sd,
        se: sd / (k as f64).sqrt(),
        df: (k - 1) as f64,
    })
}

/// Two-sided p of t = estimate / se (0 difference and 0 spread: p = 1).
fn p_two_sided(p: &Paired) -> f64 {
    if p.se == 0.0 {
        return if p.estimate == 0.0 { 1.0 } else { 0.0 };
    }
    2.0 * (1.0 - student_t_cdf((p.estimate / p.se).abs(), p.df))
}

/// TOST's p: the larger of the one-sided p's of Δ ≤ −margin and Δ ≥ +margin.
pub fn p_tost(estimate: f64, se: f64, df: f64, margin: f64) -> f64 {
    if se == 0.0 {
        return if estimate.abs() < margin { 0.0 } else { 1.0 };
    }
    let lower = 1.0 - student_t_cdf((estimate + margin) / se, df);
    let upper = student_t_cdf((estimate - margin) / se, df);
    lower.max(upper)
}

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
    }
}

/// Every declared primary read from `rows` (and the bytes), in the declaration's order.
pub fn primaries(
    design: &Design,
    power: &Power,
    rows: &[DrawFit],
    tree_bytes: u64,
    hybrid_bytes: &[u64],
) -> Result<Vec<PrimaryResult>> {
    let mut read = Vec::new();
    for p in &design.primaries {
        let d = differences(p, rows, tree_bytes, hybrid_bytes)?;
        let pr = paired(&d).ok_or_else(|| Error::Data(format!("{}: fewer than two units", p.name)))?;
        read.push(pr);
    }
    let sup = holm(&read.iter().map(p_two_sided).collect::<Vec<_>>());
    let acc: Vec<usize> =
        (0..read.len()).filter(|&i| design.primaries[i].measure == Measure::TestPct).collect();
    let tost: Vec<f64> =
        acc.iter().map(|&i| p_tost(read[i].estimate, read[i].se, read[i].df, design.margin)).collect();
    let tost_holm = holm(&tost);
    let level = power.level;
    design
        .primaries
        .iter()
        .zip(read)
        .enumerate()
        .map(|(i, (p, r))| {
            let k = acc.iter().position(|&j| j == i);
            let half = if r.se == 0.0 { 0.0 } else { t_quantile(0.975, r.df) * r.se };
            let higher_is_better = p.measure.higher_is_better();
            let shown = sup[i] < design.alpha;
            let better = (r.estimate > 0.0) == higher_is_better;
            let verdict = match (shown, better, k.map(|k| tost_holm[k] < design.alpha)) {
                (true, true, _) => Verdict::ShownBetter,
                (true, false, _) => Verdict::ShownWorse,
                (false, _, Some(true)) => Verdict::ShownEquivalent,
                _ => Verdict::Inconclusive,
            };
            let declared = power.primaries.iter().find(|q| q.name == p.name).map_or(f64::NAN, |q| q.mdd);
            Ok(PrimaryResult {
                name: p.name.clone(),
                a: p.a.clone(),
                b: p.b.clone(),
                side: p.side,
                measure: p.measure,
                claim: p.claim.clone(),
                n: higher_is_better.then(|| paper_size(p.side)),
                units: r.units,
                estimate: r.estimate,
                sd: r.sd,
                se: r.se,
                df: r.df,
                lo95: r.estimate - half,
                hi95: r.estimate + half,
                p: p_two_sided(&r),
                p_holm: sup[i],
                p_tost: k.map(|k| tost[k]),
                p_tost_holm: k.map(|k| tost_holm[k]),
                verdict,
                mdd_declared: declared,
                mdd_observed: power::mdd(r.sd, r.units, level, design.power),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tost_shows_a_small_tight_difference_equivalent_and_not_a_wide_one() {
        assert!(p_tost(0.1, 0.2, 199.0, 2.0) < 1e-6);
        assert!(p_tost(1.9, 0.2, 199.0, 2.0) > 0.3);
        assert!(p_tost(0.0, 3.0, 4.0, 2.0) > 0.2);
        // Symmetric in the sign of the difference.
        assert!((p_tost(0.7, 0.5, 30.0, 2.0) - p_tost(-0.7, 0.5, 30.0, 2.0)).abs() < 1e-12);
    }
}
