//! The one record of a declared or exploratory contrast a − b ([`Contrast`]), typed by its arm
//! `A` and its measure `M`: its t-based estimate ([`TContrast`]), its interval at a level (95%,
//! or Holm's step for a primary), its direction and its verdict, with optional parts where a
//! report reads more (equivalence by TOST, the primary's sizing, the 95% interval beside Holm's,
//! a claim that a is not better by a margin); the two readings of a family
//! of primaries ([`adjust_family`], [`read_with_equivalence`]); and the one line of a
//! `contrasts.csv` that writes it ([`Contrast::csv_line`], columns [`CONTRAST_COLUMNS`]).

use super::compare::{self, ClaimVerdict, Difference, Verdict};
use super::family::{self, Direction, LEVEL, TContrast};
use serde::{Deserialize, Serialize};
use std::fmt::Display;

/// The columns of a `contrasts.csv` written by [`Contrast::csv_line`].
pub const CONTRAST_COLUMNS: &str = "contrast,measure,a,b,primary,estimate,lo,hi,method,p_adjusted,verdict";

/// What a contrast compares its arms by.
pub trait Measure: Copy {
    /// Whether more is better (accuracy) or less (epochs, bytes).
    fn higher_is_better(self) -> bool;
    /// Its name in a `contrasts.csv`.
    fn column(self) -> &'static str;
}

/// A contrast's verdict, by one of two readings of a family of primaries.
///
/// - Holm's interval reading (the studies, [`adjust_family`]): supported or contradicted where a
///   primary's Holm-adjusted interval lies wholly on one side of 0 (and Holm's step reaches it),
///   otherwise not shown; a claim about the paper's own hand-prepared sets that our random draws
///   do not support is "not replicated on random sets".
/// - Superiority with equivalence (section 7's learners, [`read_with_equivalence`]): shown
///   better or shown worse where Holm's p of "no difference" is below α, else shown equivalent
///   where Holm's p of TOST at the declared margin is, else inconclusive.
///
/// Every contrast outside a family is exploratory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContrastVerdict {
    Supported,
    Contradicted,
    NotShown,
    NotReplicatedOnRandomSets,
    ShownBetter,
    ShownWorse,
    ShownEquivalent,
    Inconclusive,
    Exploratory,
}

impl From<ClaimVerdict> for ContrastVerdict {
    fn from(v: ClaimVerdict) -> ContrastVerdict {
        match v {
            ClaimVerdict::Supported => ContrastVerdict::Supported,
            ClaimVerdict::Contradicted => ContrastVerdict::Contradicted,
            ClaimVerdict::NotShown => ContrastVerdict::NotShown,
            ClaimVerdict::NotReplicatedOnRandomSets => ContrastVerdict::NotReplicatedOnRandomSets,
        }
    }
}

impl ContrastVerdict {
    /// The words `contrasts.csv` writes: a primary's verdict in the reports' words.
    pub fn words(self) -> &'static str {
        match self {
            ContrastVerdict::Supported => ClaimVerdict::Supported.words(),
            ContrastVerdict::Contradicted => ClaimVerdict::Contradicted.words(),
            ContrastVerdict::NotShown => ClaimVerdict::NotShown.words(),
            ContrastVerdict::NotReplicatedOnRandomSets => ClaimVerdict::NotReplicatedOnRandomSets.words(),
            ContrastVerdict::ShownBetter => "shown better",
            ContrastVerdict::ShownWorse => "shown worse",
            ContrastVerdict::ShownEquivalent => "shown equivalent",
            ContrastVerdict::Inconclusive => "inconclusive",
            ContrastVerdict::Exploratory => "exploratory",
        }
    }
}

/// Equivalence of a contrast's arms within a declared margin: TOST's p of "|a − b| ≥ margin",
/// unadjusted and by Holm over the family read for equivalence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Equivalence {
    pub margin: f64,
    pub p_tost: f64,
    pub p_tost_adjusted: Option<f64>,
}

/// How a primary was sized: the paired SD of its differences, the minimal detectable difference
/// its declaration gave it (from the pilot), and the one this run's own SD gives.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sizing {
    pub sd: f64,
    pub mdd_declared: f64,
    pub mdd_observed: f64,
}

/// A primary's interval at 95% (each contrast read alone), kept beside the interval at Holm's
/// level that its verdict reads where a report prints both: the bare interval estimate of its
/// method ([`Difference`]), from which the record takes only the interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unadjusted {
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
}

impl From<Difference> for Unadjusted {
    fn from(d: Difference) -> Unadjusted {
        Unadjusted { level: d.level, lo: d.lo, hi: d.hi }
    }
}

/// A claim that a is not better than b by `margin` or more, on the side the measure prefers
/// (section 5.1's "not conspicuously more effective"), instead of a claim that a is better: its
/// test's two-sided p is that of "a − b = margin" ([`TContrast::p_at`]), held as the contrast's
/// own `p` (the one Holm adjusts), and its verdict is supported where the interval lies wholly
/// short of the margin, contradicted where it lies wholly past it. `p_no_difference` keeps the
/// p of "a − b = 0", which no verdict reads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NotBetterBy {
    pub margin: f64,
    pub p_no_difference: f64,
}

/// A contrast a − b with its interval, p-value and (for a primary one) its adjusted reading.
/// `A` names an arm (a study's setting number, a learner on a side), `M` the measure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contrast<A, M> {
    pub name: String,
    pub measure: M,
    /// The two arms, and their labels.
    pub a: A,
    pub b: A,
    pub a_label: String,
    pub b_label: String,
    pub primary: bool,
    pub claim: Option<String>,
    pub source: Option<String>,
    pub hypothesis: bool,
    pub own_sets: bool,
    /// The t-based estimate: method, units, estimate, standard error, degrees of freedom and
    /// the unadjusted two-sided p of the tested null: "no difference", or "a − b = margin" for a
    /// claim that a is not better by a margin ([`NotBetterBy`]).
    #[serde(flatten)]
    pub t: TContrast,
    /// Confidence level of `lo`, `hi`: 95% unless Holm's step for a primary asks for more.
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
    /// Holm's adjusted p-value over the family of primaries; `None` for exploratory contrasts.
    pub p_adjusted: Option<f64>,
    pub direction: Direction,
    pub verdict: ContrastVerdict,
    /// TOST at a declared margin, where the family is read for equivalence too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equivalence: Option<Equivalence>,
    /// The primary's sizing, where its declaration was sized by power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizing: Option<Sizing>,
    /// The 95% interval of a primary read at Holm's level, where a report prints both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unadjusted: Option<Unadjusted>,
    /// The claim's margin, where it claims that a is not better by that much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_better_by: Option<NotBetterBy>,
}

impl<A, M: Measure> Contrast<A, M> {
    /// An exploratory contrast `name` of arms (a, a's label) and (b, b's label) on `measure`,
    /// from its t-contrast, read at 95%.
    pub fn exploratory(
        name: &str,
        (a, a_label): (A, String),
        (b, b_label): (A, String),
        measure: M,
        t: TContrast,
    ) -> Self {
        let mut c = Contrast {
            name: name.to_string(),
            measure,
            a,
            b,
            a_label,
            b_label,
            primary: false,
            claim: None,
            source: None,
            hypothesis: false,
            own_sets: false,
            t,
            level: LEVEL,
            lo: t.estimate,
            hi: t.estimate,
            p_adjusted: None,
            direction: Direction::Same,
            verdict: ContrastVerdict::Exploratory,
            equivalence: None,
            sizing: None,
            unadjusted: None,
            not_better_by: None,
        };
        c.set_level(LEVEL);
        c
    }

    /// The interval at `level`, and the direction it gives.
    pub fn set_level(&mut self, level: f64) {
        self.level = level;
        (self.lo, self.hi) = self.t.interval(level);
        let (lo, hi) = family::oriented((self.lo, self.hi), self.measure.higher_is_better());
        self.direction = Direction::of(lo, hi);
    }

    /// A claim that a is not better than b by `margin` or more ([`NotBetterBy`]), tested by the
    /// p of "a − b = margin" on the measure's side, which becomes the contrast's `p`.
    pub fn claim_not_better_by(&mut self, margin: f64) {
        let null = if self.measure.higher_is_better() { margin } else { -margin };
        self.not_better_by = Some(NotBetterBy { margin, p_no_difference: self.t.p });
        self.t.p = self.t.p_at(null);
    }

    /// Whether the estimate lies on the side the measure prefers (a better than b).
    fn a_better(&self) -> bool {
        (self.t.estimate > 0.0) == self.measure.higher_is_better()
    }
}

impl<A: Display, M: Measure> Contrast<A, M> {
    /// Its line of a `contrasts.csv` ([`CONTRAST_COLUMNS`]), newline included.
    pub fn csv_line(&self) -> String {
        let p = self.p_adjusted.map_or_else(String::new, |p| format!("{p:.6}"));
        format!(
            "{},{},{},{},{},{:.4},{:.4},{:.4},{},{p},{}\n",
            self.name,
            self.measure.column(),
            self.a,
            self.b,
            self.primary,
            self.t.estimate,
            self.lo,
            self.hi,
            self.t.method.name(),
            self.verdict.words()
        )
    }
}

/// Holm over a family of primary contrasts: contrast i, whose unadjusted p-value ranks k-th
/// smallest of m, gets its interval at level 1 − 0.05/(m − k) (the level at which Holm's step
/// tests it), its adjusted p-value, and its verdict. A claim that a is not better by a margin
/// ([`NotBetterBy`]) enters by its own test's p and is read against its margin.
pub fn adjust_family<A, M: Measure>(family: &mut [&mut Contrast<A, M>]) {
    let members: Vec<(TContrast, bool)> =
        family.iter().map(|c| (c.t, c.measure.higher_is_better())).collect();
    for (c, h) in family.iter_mut().zip(family::holm(&members)) {
        c.set_level(h.level);
        c.p_adjusted = Some(h.p_adjusted);
        let verdict = match c.not_better_by {
            Some(n) if h.p_adjusted < 1.0 - LEVEL => {
                let (lo, hi) = family::oriented((c.lo, c.hi), c.measure.higher_is_better());
                Verdict::of(n.margin - hi, n.margin - lo)
            }
            _ => h.verdict,
        };
        c.verdict = ClaimVerdict::of(verdict, c.own_sets).into();
    }
}

/// Superiority with equivalence over a family of primaries, each family at `alpha` (section 7's
/// reading): Holm over every member's p of "no difference", and Holm over the TOST p's of those
/// read for equivalence (an [`Equivalence`] set, its `p_tost` from [`TContrast::p_tost`]). A
/// member is shown better or shown worse where its adjusted p is below `alpha`, else shown
/// equivalent where its adjusted TOST p is, else inconclusive. Intervals stay at 95%.
pub fn read_with_equivalence<A, M: Measure>(family: &mut [Contrast<A, M>], alpha: f64) {
    let superiority = compare::holm(&family.iter().map(|c| c.t.p).collect::<Vec<_>>());
    let tost: Vec<f64> = family.iter().filter_map(|c| c.equivalence.map(|e| e.p_tost)).collect();
    let mut tost_adjusted = compare::holm(&tost).into_iter();
    for (c, p_adjusted) in family.iter_mut().zip(superiority) {
        if let Some(e) = c.equivalence.as_mut() {
            e.p_tost_adjusted = tost_adjusted.next();
        }
        let equivalent = c.equivalence.and_then(|e| e.p_tost_adjusted).is_some_and(|p| p < alpha);
        c.p_adjusted = Some(p_adjusted);
        c.verdict = match (p_adjusted < alpha, c.a_better(), equivalent) {
            (true, true, _) => ContrastVerdict::ShownBetter,
            (true, false, _) => ContrastVerdict::ShownWorse,
            (false, _, true) => ContrastVerdict::ShownEquivalent,
            _ => ContrastVerdict::Inconclusive,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::compare::Method;

    #[derive(Clone, Copy)]
    struct Accuracy;

    impl Measure for Accuracy {
        fn higher_is_better(self) -> bool {
            true
        }

        fn column(self) -> &'static str {
            "accuracy"
        }
    }

    fn member(d: &[f64], margin: Option<f64>) -> Contrast<u8, Accuracy> {
        let t = TContrast::of_differences(d).unwrap();
        let mut c = Contrast::exploratory("c", (1, "a".into()), (2, "b".into()), Accuracy, t);
        c.primary = true;
        c.equivalence = margin.map(|m| Equivalence { margin: m, p_tost: t.p_tost(m), p_tost_adjusted: None });
        c
    }

    #[test]
    fn tost_shows_a_small_tight_difference_equivalent_and_not_a_wide_one() {
        let t = |estimate: f64, se: f64, df: f64| TContrast {
            method: Method::Paired,
            units: df as usize + 1,
            estimate,
            se,
            df,
            p: 1.0,
        };
        assert!(t(0.1, 0.2, 199.0).p_tost(2.0) < 1e-6);
        assert!(t(1.9, 0.2, 199.0).p_tost(2.0) > 0.3);
        assert!(t(0.0, 3.0, 4.0).p_tost(2.0) > 0.2);
        // Symmetric in the sign of the difference.
        assert!((t(0.7, 0.5, 30.0).p_tost(2.0) - t(-0.7, 0.5, 30.0).p_tost(2.0)).abs() < 1e-12);
    }

    /// A claim that a is not better by a margin: supported where the interval lies short of the
    /// margin, contradicted past it, not shown across it; its test is "a − b = margin".
    #[test]
    fn a_claim_not_better_by_a_margin_is_read_against_the_margin() {
        let read = |d: &[f64]| {
            let mut c = member(d, None);
            c.claim_not_better_by(1.0);
            adjust_family(&mut [&mut c]);
            c
        };
        let short = read(&[0.2, 0.1, 0.3, 0.2, 0.25]);
        assert!((short.t.p - short.t.p_at(1.0)).abs() < 1e-15);
        assert!((short.not_better_by.unwrap().p_no_difference - short.t.p_at(0.0)).abs() < 1e-12);
        assert_eq!(short.p_adjusted, Some(short.t.p), "a family of one");
        assert!(short.t.p < 0.05 && short.not_better_by.unwrap().p_no_difference < 0.05);
        assert_eq!(short.verdict, ContrastVerdict::Supported);
        assert_eq!(read(&[3.0, 3.2, 2.9, 3.1, 3.05]).verdict, ContrastVerdict::Contradicted);
        let across = read(&[0.2, 1.9, 0.5, 1.6, 1.0]);
        assert!(across.lo < 1.0 && across.hi > 1.0);
        assert_eq!(across.verdict, ContrastVerdict::NotShown);
    }

    #[test]
    fn superiority_comes_first_then_equivalence_then_inconclusive() {
        let better = member(&[3.0, 3.5, 2.5, 3.2, 2.8, 3.1], Some(1.0));
        let worse = member(&[-3.0, -3.5, -2.5, -3.2, -2.8, -3.1], None);
        let same = member(&[0.01, -0.02, 0.0, 0.02, -0.01, 0.0], Some(1.0));
        let wide = member(&[5.0, -6.0, 4.0, -3.0, 2.0, -1.0], Some(1.0));
        let mut family = [better, worse, same, wide];
        read_with_equivalence(&mut family, 0.05);
        let verdicts: Vec<ContrastVerdict> = family.iter().map(|c| c.verdict).collect();
        use ContrastVerdict::*;
        assert_eq!(verdicts, [ShownBetter, ShownWorse, ShownEquivalent, Inconclusive]);
        assert!(family[1].equivalence.is_none() && family[0].equivalence.unwrap().p_tost_adjusted.is_some());
        assert!(family.iter().all(|c| c.level == LEVEL && c.p_adjusted.unwrap() >= c.t.p));
    }
}
