//! A family of declared contrasts, shared by every report that declares them (the studies, the
//! learners): the contrast a config declares before the run ([`ContrastSpec`]), a t-based
//! contrast readable at any level ([`TContrast`]), Holm's reading of the primaries with the one
//! verdict rule ([`holm`]); the record they fill is [`super::contrast::Contrast`].

use super::compare::{self, Method, Verdict};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The family-wise level of the primary contrasts, and the level of an exploratory interval.
pub const LEVEL: f64 = 0.95;

/// A contrast a − b as a config declares it, before the run. `A` names an arm (a study's setting
/// number, a learner's row), `M` the measure.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContrastSpec<A, M> {
    /// Its name in `contrasts.csv` (letters, digits and '_').
    pub name: String,
    /// The two arms: the contrast is a − b.
    pub a: A,
    pub b: A,
    pub measure: M,
    /// Whether the contrast answers the report's question (Holm-adjusted, with a verdict).
    #[serde(default)]
    pub primary: bool,
    /// What a primary contrast tests, in words: that a beats b (higher accuracy, fewer epochs,
    /// fewer bytes).
    pub claim: Option<String>,
    /// Where the paper says so, or which of its questions a hypothesis reads.
    pub source: Option<String>,
    /// The claim is our reading of one of the paper's questions, not the paper's own claim.
    #[serde(default)]
    pub hypothesis: bool,
    /// The paper's claim concerned its own hand-prepared sets T1/S1 and T2/S2 (section 4.5),
    /// which are lost: failing on random draws does not contradict it.
    #[serde(default)]
    pub own_sets: bool,
}

impl<A: PartialEq, M> ContrastSpec<A, M> {
    /// The checks every declared contrast passes; `arm` checks each arm (named by its key).
    pub fn check(&self, arm: impl Fn(&str, &A) -> Result<()>) -> Result<()> {
        if self.name.is_empty() || !self.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(Error::config("name", format!("'{}' must be letters, digits and '_'", self.name)));
        }
        arm("a", &self.a)?;
        arm("b", &self.b)?;
        if self.a == self.b {
            return Err(Error::config("b", "a contrast compares two different settings"));
        }
        if self.primary && (self.claim.is_none() || self.source.is_none()) {
            return Err(Error::config("claim", "a primary contrast states its claim and its source"));
        }
        Ok(())
    }
}

/// Where an interval of a − b falls, on the side the measure prefers (more accuracy, fewer
/// epochs): `Better` wholly on the good side of 0, `Worse` wholly on the bad side, `Same` across.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Better,
    Same,
    Worse,
}

impl Direction {
    /// The direction of an interval already turned so that positive means "a better than b".
    pub fn of(lo: f64, hi: f64) -> Direction {
        match Verdict::of(lo, hi) {
            Verdict::Supported => Direction::Better,
            Verdict::NotShown => Direction::Same,
            Verdict::Contradicted => Direction::Worse,
        }
    }
}

/// A t-based estimate of a − b: its estimate, standard error, degrees of freedom and two-sided
/// p-value, from which an interval at any level is read. It is the part of the one record
/// ([`super::contrast::Contrast`], which flattens it) that Holm's reading needs: a level is
/// chosen only after every member's p is known, so a member's interval is read from it then.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TContrast {
    pub method: Method,
    /// Replicate pairs (paired), runs on both sides (Welch) or data draws (mixed model).
    pub units: usize,
    pub estimate: f64,
    pub se: f64,
    pub df: f64,
    pub p: f64,
}

impl TContrast {
    /// Paired over replicates (`a[r]` and `b[r]` share seed and draw r): the mean difference,
    /// Student's t over replicates. Needs two pairs.
    pub fn paired(a: &[f64], b: &[f64]) -> Option<TContrast> {
        if a.len() != b.len() {
            return None;
        }
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        TContrast::of_differences(&d)
    }

    /// [`TContrast::paired`] from the paired differences a_r − b_r themselves. Needs two.
    pub fn of_differences(d: &[f64]) -> Option<TContrast> {
        let c = compare::paired_differences(d, LEVEL)?;
        let se = super::std_dev(d) / (d.len() as f64).sqrt();
        Some(TContrast {
            method: Method::Paired,
            units: c.units,
            estimate: c.estimate,
            se,
            df: (d.len() - 1) as f64,
            p: c.p,
        })
    }

    /// Mean(a) − mean(b) by the mixed model over data draws, where each value carries its draw
    /// ([`compare::mixed_model`]): Student's t with draws − 1 degrees of freedom over the
    /// per-draw differences of the means, its standard error theirs. Needs two draws present on
    /// both sides.
    pub fn mixed_model(a: &[(u64, f64)], b: &[(u64, f64)]) -> Option<TContrast> {
        let (ma, mb): (Vec<f64>, Vec<f64>) = compare::draw_means(a, b).iter().map(|m| (m.1, m.2)).unzip();
        TContrast::paired(&ma, &mb).map(|t| TContrast { method: Method::MixedModel, ..t })
    }

    /// Welch's two independent groups with unequal variances. Needs two runs a side.
    pub fn welch(a: &[f64], b: &[f64]) -> Option<TContrast> {
        if a.len() < 2 || b.len() < 2 {
            return None;
        }
        let q = |x: &[f64]| super::std_dev(x).powi(2) / x.len() as f64;
        let (qa, qb) = (q(a), q(b));
        let se = (qa + qb).sqrt();
        let estimate = super::mean(a) - super::mean(b);
        let df = if se == 0.0 {
            (a.len() + b.len() - 2) as f64
        } else {
            (qa + qb).powi(2) / (qa * qa / (a.len() - 1) as f64 + qb * qb / (b.len() - 1) as f64)
        };
        let p = if se == 0.0 {
            if estimate == 0.0 { 1.0 } else { 0.0 }
        } else {
            2.0 * (1.0 - compare::student_t_cdf((estimate / se).abs(), df))
        };
        Some(TContrast { method: Method::Welch, units: a.len() + b.len(), estimate, se, df, p })
    }

    /// TOST's p of "|a − b| ≥ margin" (two one-sided t-tests, Schuirmann 1987): the larger of
    /// the one-sided p's of Δ ≤ −margin and Δ ≥ +margin. With no spread, 0 inside the margin and
    /// 1 outside.
    pub fn p_tost(&self, margin: f64) -> f64 {
        if self.se == 0.0 {
            return if self.estimate.abs() < margin { 0.0 } else { 1.0 };
        }
        let lower = 1.0 - compare::student_t_cdf((self.estimate + margin) / self.se, self.df);
        let upper = compare::student_t_cdf((self.estimate - margin) / self.se, self.df);
        lower.max(upper)
    }

    /// The two-sided p of "a − b = `null`". With no spread, 1 at the null and 0 elsewhere.
    pub fn p_at(&self, null: f64) -> f64 {
        if self.se == 0.0 {
            return if self.estimate == null { 1.0 } else { 0.0 };
        }
        2.0 * (1.0 - compare::student_t_cdf(((null - self.estimate) / self.se).abs(), self.df))
    }

    /// The interval estimate ± t(1/2 + level/2, df)·se.
    pub fn interval(&self, level: f64) -> (f64, f64) {
        let half =
            if self.se == 0.0 { 0.0 } else { compare::t_quantile(0.5 + level / 2.0, self.df) * self.se };
        (self.estimate - half, self.estimate + half)
    }
}

/// (lo, hi) of a − b turned so that positive means "a better than b".
pub fn oriented((lo, hi): (f64, f64), higher_is_better: bool) -> (f64, f64) {
    if higher_is_better { (lo, hi) } else { (-hi, -lo) }
}

/// Holm's reading of one primary contrast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HolmReading {
    /// The level at which Holm's step tests it, and its interval there.
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
    pub p_adjusted: f64,
    /// The one rule on the claim that a beats b: supported or contradicted where the interval at
    /// Holm's level lies wholly on one side of 0 and Holm's step reaches the contrast, otherwise
    /// not shown.
    pub verdict: Verdict,
}

/// Holm over a family of primary contrasts, each with whether its measure prefers more: contrast
/// i, whose p-value ranks k-th smallest of m, is read at level 1 − 0.05/(m − k); Holm stops at the
/// first primary it cannot reject, and past it there is no verdict. In the order given.
pub fn holm(family: &[(TContrast, bool)]) -> Vec<HolmReading> {
    let p: Vec<f64> = family.iter().map(|(c, _)| c.p).collect();
    let (adjusted, levels) = (compare::holm(&p), compare::holm_levels(&p));
    family
        .iter()
        .zip(adjusted)
        .zip(levels)
        .map(|((&(c, higher_is_better), p_adjusted), level)| {
            let (lo, hi) = c.interval(level);
            let (ol, oh) = oriented((lo, hi), higher_is_better);
            let verdict = if p_adjusted >= 1.0 - LEVEL { Verdict::NotShown } else { Verdict::of(ol, oh) };
            HolmReading { level, lo, hi, p_adjusted, verdict }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_reads_each_primary_at_its_step_and_stops_at_the_first_it_cannot_reject() {
        let strong = TContrast::paired(&[90.0, 91.0, 89.0, 92.0, 90.5], &[80.0, 80.5, 79.0, 81.0, 80.0]);
        let weak = TContrast::paired(&[80.0, 81.0, 79.0, 80.0, 82.0], &[79.0, 81.5, 78.0, 80.5, 80.0]);
        let fewer = TContrast::paired(&[10.0, 12.0, 11.0, 9.0, 10.0], &[20.0, 21.0, 19.0, 22.0, 20.0]);
        let family = [(strong.unwrap(), true), (weak.unwrap(), true), (fewer.unwrap(), false)];
        let r = holm(&family);
        assert_eq!(
            r.iter().map(|h| h.verdict).collect::<Vec<_>>(),
            [Verdict::Supported, Verdict::NotShown, Verdict::Supported]
        );
        assert_eq!(r[1].level, LEVEL, "the largest p is read at 95%");
        assert!(r[1].lo < 0.0 && r[1].hi > 0.0 && r[1].p_adjusted > 0.05);
        let (lo, hi) = family[0].0.interval(r[0].level);
        assert_eq!((lo, hi), (r[0].lo, r[0].hi));
        assert!(
            r[0].level > LEVEL
                && hi - lo > {
                    let (l, h) = family[0].0.interval(LEVEL);
                    h - l
                }
        );
    }

    #[test]
    fn a_spec_names_two_different_arms_and_a_primary_states_its_claim() {
        let spec = |a: u8, b: u8, primary: bool| ContrastSpec {
            name: "x_1".to_string(),
            a,
            b,
            measure: (),
            primary,
            claim: None,
            source: Some("section 7".into()),
            hypothesis: true,
            own_sets: false,
        };
        let any = |_: &str, _: &u8| Ok(());
        assert!(spec(1, 2, false).check(any).is_ok());
        assert!(spec(1, 1, false).check(any).is_err());
        assert!(spec(1, 2, true).check(any).is_err(), "a primary without its claim");
        assert!(spec(1, 2, false).check(|k, _| Err(Error::config(k, "no such arm"))).is_err());
    }
}
