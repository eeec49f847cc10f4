//! The contrasts `experiments/learners.toml` declares for section 7's question, read from the
//! per-replicate fits of `reports/learners.json`, the primaries adjusted by Holm as one family
//! (the declared contrast, its t-interval and Holm's rule are [`crate::stats::family`]'s, as the
//! studies' are). Every other comparison LEARNERS.md shows is exploratory: its unadjusted 95%
//! interval and no verdict.
//!
//! An arm is a learner's main row, `learner/inputs/set` (`tree/x1..x32/T3`), or one start of
//! section 7's seeding comparison, `seeding/random` or `seeding/seeded` (32-10-1 nets on T1/S1).
//! Every learner of replicate r sees draw r of its training set (and the seeding's starts share
//! seed and draw r), so two arms on one training set are compared by the per-replicate
//! differences (paired t over the replicates).

use super::{InputSet, NAMES};
use crate::dataset::SetName;
use crate::error::{Error, Result};
use crate::stats::compare::{ClaimVerdict, Method};
use crate::stats::family::{self, ContrastSpec, Direction, LEVEL, TContrast};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One side of a contrast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Arm {
    /// A learner's main setting on a training set (variants are not arms).
    Row { learner: String, inputs: InputSet, train_set: SetName },
    /// A start of section 7's seeding comparison: `false` random, `true` from the logistic net.
    Seeding { seeded: bool },
}

impl std::str::FromStr for Arm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Arm> {
        let bad = || {
            Error::config(
                "arm",
                format!(
                    "'{s}' is not learner/inputs/set (e.g. tree/x1..x32/T3), seeding/random or seeding/seeded"
                ),
            )
        };
        let parts: Vec<&str> = s.split('/').collect();
        match parts[..] {
            ["seeding", "random"] => Ok(Arm::Seeding { seeded: false }),
            ["seeding", "seeded"] => Ok(Arm::Seeding { seeded: true }),
            [learner, inputs, set] => {
                let inputs = InputSet::ALL.into_iter().find(|i| i.name() == inputs).ok_or_else(bad)?;
                let train_set: SetName = set.parse().map_err(|_| bad())?;
                if !NAMES.contains(&learner) || ![SetName::T1, SetName::T2, SetName::T3].contains(&train_set)
                {
                    return Err(bad());
                }
                Ok(Arm::Row { learner: learner.to_string(), inputs, train_set })
            }
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Arm {
    type Error = Error;
    fn try_from(s: String) -> Result<Arm> {
        s.parse()
    }
}

impl std::fmt::Display for Arm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arm::Row { learner, inputs, train_set } => write!(f, "{learner}/{}/{train_set}", inputs.name()),
            Arm::Seeding { seeded } => write!(f, "seeding/{}", if *seeded { "seeded" } else { "random" }),
        }
    }
}

impl From<Arm> for String {
    fn from(a: Arm) -> String {
        a.to_string()
    }
}

impl Arm {
    /// The training set whose draw r replicate r of this arm trains on.
    fn draws(&self) -> Option<SetName> {
        match self {
            Arm::Row { train_set, .. } => Some(*train_set),
            Arm::Seeding { .. } => None,
        }
    }
}

/// What a contrast compares, per replicate: a field of a fit in `learners.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Testing accuracy, % (S1 for T1, S2 for T2).
    TestPct,
    /// Training accuracy, % (on T3: every wtm position).
    TrainPct,
    /// Bytes of the exact model (learners trained on the pawn side to move: T1, T3).
    ExactBytes,
    /// Epochs run until the stopping rule (the seeding comparison only).
    Epochs,
}

impl Measure {
    /// Its name in `contrasts.csv`.
    pub fn column(self) -> &'static str {
        match self {
            Measure::TestPct => "test_pct",
            Measure::TrainPct => "train_pct",
            Measure::ExactBytes => "exact_bytes",
            Measure::Epochs => "epochs",
        }
    }

    /// Whether more is better (accuracy) or less (bytes, epochs).
    pub fn higher_is_better(self) -> bool {
        matches!(self, Measure::TestPct | Measure::TrainPct)
    }

    /// Whether `arm` has this measure.
    fn applies(self, arm: &Arm) -> bool {
        match (self, arm) {
            (Measure::TrainPct, _) => true,
            (Measure::TestPct, Arm::Seeding { .. }) | (Measure::Epochs, Arm::Seeding { .. }) => true,
            (Measure::TestPct, Arm::Row { train_set, .. }) => *train_set != SetName::T3,
            (Measure::ExactBytes, Arm::Row { train_set, .. }) => *train_set != SetName::T2,
            _ => false,
        }
    }
}

/// The learners' declared contrasts, as `experiments/learners.toml` states them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declared {
    #[serde(rename = "contrast")]
    pub contrasts: Vec<ContrastSpec<Arm, Measure>>,
}

impl Declared {
    /// Read and check a declaration file.
    pub fn load(path: &Path) -> Result<Declared> {
        let text = crate::io::read_config(path)?;
        let declared: Declared = toml::from_str(&text).map_err(|e| Error::Format {
            path: path.display().to_string(),
            message: e.message().trim().to_string(),
        })?;
        declared.check().map_err(|e| e.in_file(path))?;
        Ok(declared)
    }

    /// Each contrast compares two arms that share their draws, on a measure both have; names
    /// are unique; at least one contrast is primary (the report answers its question by them).
    pub fn check(&self) -> Result<()> {
        for (i, c) in self.contrasts.iter().enumerate() {
            let arm = |key: &str, arm: &Arm| {
                if c.measure.applies(arm) {
                    Ok(())
                } else {
                    Err(Error::config(key, format!("{arm} has no {}", c.measure.column())))
                }
            };
            c.check(arm).map_err(|e| e.context(format!("contrast {}", i + 1)))?;
            if c.a.draws() != c.b.draws() {
                let reason = format!("{} and {} train on different draws: they are not paired", c.a, c.b);
                return Err(Error::config("b", reason).context(format!("contrast {}", i + 1)));
            }
            if self.contrasts[..i].iter().any(|d| d.name == c.name) {
                return Err(Error::config("contrast", format!("'{}' appears twice", c.name)));
            }
        }
        if !self.contrasts.iter().any(|c| c.primary) {
            return Err(Error::config(
                "contrast",
                "no contrast is primary: declare the ones that answer section 7",
            ));
        }
        Ok(())
    }
}

/// A declared contrast read from the fits: its t-interval (at Holm's level for a primary, 95%
/// otherwise) and, for a primary, its adjusted p-value and verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeclaredContrast {
    pub name: String,
    pub measure: Measure,
    pub a: Arm,
    pub b: Arm,
    pub primary: bool,
    pub claim: Option<String>,
    pub source: Option<String>,
    pub hypothesis: bool,
    pub method: Method,
    /// Replicate pairs.
    pub units: usize,
    pub estimate: f64,
    pub se: f64,
    pub df: f64,
    /// Two-sided p-value of "no difference", unadjusted.
    pub p: f64,
    pub level: f64,
    pub lo: f64,
    pub hi: f64,
    /// Holm's adjusted p-value over the family of primaries; `None` for exploratory contrasts.
    pub p_adjusted: Option<f64>,
    /// Where the interval falls, on the side the measure prefers.
    pub direction: Direction,
    /// The one rule's verdict on the claim that a beats b; `None` for exploratory contrasts.
    pub verdict: Option<ClaimVerdict>,
}

/// Every declared contrast read from the fits (`values` gives an arm's values on a measure,
/// replicate by replicate), in the file's order, the primaries adjusted by Holm as one family.
pub fn declare(
    values: impl Fn(&Arm, Measure) -> Result<Vec<f64>>,
    declared: &Declared,
) -> Result<Vec<DeclaredContrast>> {
    let mut out = Vec::new();
    for spec in &declared.contrasts {
        let (a, b) = (values(&spec.a, spec.measure)?, values(&spec.b, spec.measure)?);
        let t = TContrast::paired(&a, &b).ok_or_else(|| {
            Error::Internal(format!("contrast {}: a paired contrast needs two replicates", spec.name))
        })?;
        let (lo, hi) = t.interval(LEVEL);
        let oriented = family::oriented((lo, hi), spec.measure.higher_is_better());
        out.push(DeclaredContrast {
            name: spec.name.clone(),
            measure: spec.measure,
            a: spec.a.clone(),
            b: spec.b.clone(),
            primary: spec.primary,
            claim: spec.claim.clone(),
            source: spec.source.clone(),
            hypothesis: spec.hypothesis,
            method: t.method,
            units: t.units,
            estimate: t.estimate,
            se: t.se,
            df: t.df,
            p: t.p,
            level: LEVEL,
            lo,
            hi,
            p_adjusted: None,
            direction: Direction::of(oriented.0, oriented.1),
            verdict: None,
        });
    }
    let members: Vec<(TContrast, bool)> = out
        .iter()
        .filter(|c| c.primary)
        .map(|c| {
            let t = TContrast {
                method: c.method,
                units: c.units,
                estimate: c.estimate,
                se: c.se,
                df: c.df,
                p: c.p,
            };
            (t, c.measure.higher_is_better())
        })
        .collect();
    let own_sets: Vec<bool> = declared.contrasts.iter().filter(|s| s.primary).map(|s| s.own_sets).collect();
    for ((c, h), own) in out.iter_mut().filter(|c| c.primary).zip(family::holm(&members)).zip(own_sets) {
        (c.level, c.lo, c.hi, c.p_adjusted) = (h.level, h.lo, h.hi, Some(h.p_adjusted));
        let (lo, hi) = family::oriented((h.lo, h.hi), c.measure.higher_is_better());
        c.direction = Direction::of(lo, hi);
        c.verdict = Some(ClaimVerdict::of(h.verdict, own));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arm_is_read_back_from_its_label() {
        for label in ["tree/x1..x32/T3", "mlp/x1..x6/T2", "seeding/random", "seeding/seeded"] {
            assert_eq!(label.parse::<Arm>().unwrap().to_string(), label);
        }
        for bad in ["tree/x1..x32", "forest/x1..x32/T1", "tree/x1..x7/T1", "tree/x1..x32/T4", "seeding/x"] {
            assert!(bad.parse::<Arm>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_declaration_pairs_arms_on_one_draw_with_a_measure_both_have_and_a_primary() {
        let parse = |body: &str| {
            toml::from_str::<Declared>(body).map_err(|e| e.to_string())?.check().map_err(|e| e.to_string())
        };
        let one = |a: &str, b: &str, m: &str, primary: bool| {
            format!(
                "[[contrast]]\nname = \"c\"\na = \"{a}\"\nb = \"{b}\"\nmeasure = \"{m}\"\nprimary = {primary}\nclaim = \"a beats b\"\nsource = \"section 7\"\n"
            )
        };
        assert!(parse(&one("tree/x1..x32/T1", "mlp/x1..x32/T1", "test_pct", true)).is_ok());
        assert!(parse(&one("tree/x1..x32/T1", "mlp/x1..x32/T1", "test_pct", false)).is_err(), "no primary");
        assert!(
            parse(&one("tree/x1..x32/T3", "mlp/x1..x32/T3", "test_pct", true)).is_err(),
            "T3 has no test"
        );
        assert!(
            parse(&one("tree/x1..x32/T2", "mlp/x1..x32/T2", "exact_bytes", true)).is_err(),
            "btm: no bytes"
        );
        assert!(parse(&one("tree/x1..x32/T1", "mlp/x1..x32/T2", "train_pct", true)).is_err(), "not paired");
        assert!(parse(&one("seeding/seeded", "seeding/random", "epochs", true)).is_ok());
        assert!(parse(&one("seeding/seeded", "mlp/x1..x32/T1", "train_pct", true)).is_err());
        let twice = one("tree/x1..x32/T1", "mlp/x1..x32/T1", "test_pct", true);
        assert!(parse(&format!("{twice}{twice}")).is_err(), "a name twice");
    }
}
