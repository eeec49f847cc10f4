//! The one record of a declared or exploratory contrast a − b ([`Contrast`]), typed by its arm
//! `A` and its measure `M`: its t-based estimate, its interval at a level (95%, or Holm's step
//! for a primary), its direction and its verdict, and the one line of a `contrasts.csv` that
//! writes it ([`Contrast::csv_line`], columns [`CONTRAST_COLUMNS`]).

use super::compare::{ClaimVerdict, Method};
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

/// A contrast's verdict. Only a primary contrast has one of the first four: supported or
/// contradicted where its Holm-adjusted interval lies wholly on one side of 0 (and Holm's step
/// reaches it), otherwise not shown; a claim about the paper's own hand-prepared sets that our
/// random draws do not support is "not replicated on random sets".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContrastVerdict {
    Supported,
    Contradicted,
    NotShown,
    NotReplicatedOnRandomSets,
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
            ContrastVerdict::Exploratory => "exploratory",
        }
    }
}

/// A contrast a − b with its interval, p-value and (for a primary one) its adjusted reading.
/// `A` names an arm (a study's setting number), `M` the measure.
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
    pub method: Method,
    /// Replicate pairs (paired) or runs on both sides (Welch).
    pub units: usize,
    pub estimate: f64,
    /// Standard error of the estimate and the t distribution's degrees of freedom.
    pub se: f64,
    pub df: f64,
    /// Two-sided p-value of "no difference", unadjusted.
    pub p: f64,
    /// Confidence level of `lo`, `hi`: 95% unless Holm's step for a primary asks for more.
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
    /// Holm's adjusted p-value over the family of primaries; `None` for exploratory contrasts.
    pub p_adjusted: Option<f64>,
    pub direction: Direction,
    pub verdict: ContrastVerdict,
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
        let TContrast { method, units, estimate, se, df, p } = t;
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
            method,
            units,
            estimate,
            se,
            df,
            p,
            level: LEVEL,
            lo: estimate,
            hi: estimate,
            p_adjusted: None,
            direction: Direction::Same,
            verdict: ContrastVerdict::Exploratory,
        };
        c.set_level(LEVEL);
        c
    }

    /// The t-contrast behind the interval.
    pub fn t(&self) -> TContrast {
        TContrast {
            method: self.method,
            units: self.units,
            estimate: self.estimate,
            se: self.se,
            df: self.df,
            p: self.p,
        }
    }

    /// The interval at `level`, and the direction it gives.
    pub fn set_level(&mut self, level: f64) {
        self.level = level;
        (self.lo, self.hi) = self.t().interval(level);
        let (lo, hi) = family::oriented((self.lo, self.hi), self.measure.higher_is_better());
        self.direction = Direction::of(lo, hi);
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
            self.estimate,
            self.lo,
            self.hi,
            self.method.name(),
            self.verdict.words()
        )
    }
}

/// Holm over a family of primary contrasts: contrast i, whose unadjusted p-value ranks k-th
/// smallest of m, gets its interval at level 1 − 0.05/(m − k) (the level at which Holm's step
/// tests it), its adjusted p-value, and its verdict.
pub fn adjust_family<A, M: Measure>(family: &mut [&mut Contrast<A, M>]) {
    let members: Vec<(TContrast, bool)> =
        family.iter().map(|c| (c.t(), c.measure.higher_is_better())).collect();
    for (c, h) in family.iter_mut().zip(family::holm(&members)) {
        c.set_level(h.level);
        c.p_adjusted = Some(h.p_adjusted);
        c.verdict = ClaimVerdict::of(h.verdict, c.own_sets).into();
    }
}
