//! A study's contrasts: setting a against setting b on one measure, with the unit of analysis
//! the design gives (Demšar 2006; Bouthillier et al. 2021).
//!
//! - **Paired** where replicate r of both settings shares its seed and its data draw (the same
//!   side, and the same training positions or nested draws of one shuffle): the mean of the
//!   per-replicate differences a_r − b_r with Student's t over replicates.
//! - **Welch** where the settings draw their positions differently (another side, another pawn
//!   file, a named set against a drawn one): replicate r of one is independent of replicate r of
//!   the other, so the two groups are compared as independent samples.
//!
//! A study declares its contrasts before the run (`[[contrast]]` in its config). The primary ones
//! answer the paper's question; every study's primaries form one family, adjusted by Holm
//! ([`adjust_family`]), and only they carry a verdict. Every other comparison a report shows is
//! exploratory: its unadjusted 95% interval and no verdict.

use super::config::{Measure, Study};
use super::replicate::SettingResult;
use crate::stats::compare;
use crate::stats::family::{self, TContrast};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

pub use compare::Method;

pub use crate::stats::family::{Direction, LEVEL};

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

impl From<compare::ClaimVerdict> for ContrastVerdict {
    fn from(v: compare::ClaimVerdict) -> ContrastVerdict {
        match v {
            compare::ClaimVerdict::Supported => ContrastVerdict::Supported,
            compare::ClaimVerdict::Contradicted => ContrastVerdict::Contradicted,
            compare::ClaimVerdict::NotShown => ContrastVerdict::NotShown,
            compare::ClaimVerdict::NotReplicatedOnRandomSets => ContrastVerdict::NotReplicatedOnRandomSets,
        }
    }
}

impl ContrastVerdict {
    /// The words `contrasts.csv` writes: a primary's verdict in the reports' words.
    pub fn words(self) -> &'static str {
        match self {
            ContrastVerdict::Supported => compare::ClaimVerdict::Supported.words(),
            ContrastVerdict::Contradicted => compare::ClaimVerdict::Contradicted.words(),
            ContrastVerdict::NotShown => compare::ClaimVerdict::NotShown.words(),
            ContrastVerdict::NotReplicatedOnRandomSets => {
                compare::ClaimVerdict::NotReplicatedOnRandomSets.words()
            }
            ContrastVerdict::Exploratory => "exploratory",
        }
    }
}

/// A contrast a − b with its interval, p-value and (for a primary one) its adjusted reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContrastResult {
    pub name: String,
    pub measure: Measure,
    /// Setting numbers from 1, and their labels.
    pub a: usize,
    pub b: usize,
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

impl ContrastResult {
    /// The t-contrast behind the interval.
    fn t(&self) -> TContrast {
        TContrast {
            method: self.method,
            units: self.units,
            estimate: self.estimate,
            se: self.se,
            df: self.df,
            p: self.p,
        }
    }

    fn set_level(&mut self, level: f64) {
        self.level = level;
        (self.lo, self.hi) = self.t().interval(level);
        let (lo, hi) = family::oriented((self.lo, self.hi), self.measure.higher_is_better());
        self.direction = Direction::of(lo, hi);
    }
}

/// Whether replicate r of settings `a` and `b` (from 0) trains on the same positions, or on
/// nested draws of one shuffle: the same side and the same named training set, or the same
/// pool, pawn file and held-out set for positions the study draws. Seeds are shared always (a
/// setting may not set them).
pub fn shares_draw(study: &Study, a: usize, b: usize) -> bool {
    let r = study.replicates();
    let (ta, tb) = (&study.trials[a * r].config, &study.trials[b * r].config);
    let (ka, kb) = (&study.keys[a], &study.keys[b]);
    if ta.side != tb.side || ta.data_seed != tb.data_seed || ka.draws_data() != kb.draws_data() {
        return false;
    }
    if ka.draws_data() {
        ka.pool_file == kb.pool_file && ka.held_out == kb.held_out
    } else {
        ta.training_set == tb.training_set
    }
}

/// a − b over the replicates, paired or Welch.
fn raw(a: &[f64], b: &[f64], paired: bool) -> Option<TContrast> {
    if paired { TContrast::paired(a, b) } else { TContrast::welch(a, b) }
}

/// Setting `a` against setting `b` (from 0) on `m`, exploratory until [`adjust_family`] reads
/// the primaries; `None` with fewer than two replicates a side.
pub fn contrast(
    study: &Study,
    settings: &[SettingResult],
    name: &str,
    (a, b): (usize, usize),
    m: Measure,
) -> Option<ContrastResult> {
    let (va, vb) = (settings[a].values(m), settings[b].values(m));
    let paired = shares_draw(study, a, b) && va.len() == vb.len();
    let TContrast { method, units, estimate, se, df, p } = raw(&va, &vb, paired)?;
    let mut c = ContrastResult {
        name: name.to_string(),
        measure: m,
        a: a + 1,
        b: b + 1,
        a_label: settings[a].label.clone(),
        b_label: settings[b].label.clone(),
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
    Some(c)
}

/// The contrasts a study's config declares, in its order.
pub fn declared(study: &Study, settings: &[SettingResult]) -> Vec<ContrastResult> {
    study
        .config
        .contrasts
        .iter()
        .filter_map(|s| {
            let mut c = contrast(study, settings, &s.name, (s.a - 1, s.b - 1), s.measure)?;
            c.primary = s.primary;
            (c.claim, c.source, c.hypothesis, c.own_sets) =
                (s.claim.clone(), s.source.clone(), s.hypothesis, s.own_sets);
            Some(c)
        })
        .collect()
}

/// Holm over the family of primary contrasts (every study's): contrast i, whose unadjusted
/// p-value ranks k-th smallest of m, gets its interval at level 1 − 0.05/(m − k) (the level at
/// which Holm's step tests it), its adjusted p-value, and its verdict.
pub fn adjust_family(family: &mut [&mut ContrastResult]) {
    let members: Vec<(TContrast, bool)> =
        family.iter().map(|c| (c.t(), c.measure.higher_is_better())).collect();
    for (c, h) in family.iter_mut().zip(family::holm(&members)) {
        c.set_level(h.level);
        c.p_adjusted = Some(h.p_adjusted);
        c.verdict = compare::ClaimVerdict::of(h.verdict, c.own_sets).into();
    }
}

/// Ordering of settings on `m`, the preferred first.
pub fn preferred(m: Measure, x: f64, y: f64) -> Ordering {
    let o = x.total_cmp(&y);
    if m.higher_is_better() { o.reverse() } else { o }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats;

    fn result(values: &[(f64, f64)], paired: bool) -> ContrastResult {
        let (a, b): (Vec<f64>, Vec<f64>) = values.iter().copied().unzip();
        let TContrast { method, units, estimate, se, df, p } = raw(&a, &b, paired).unwrap();
        let mut c = ContrastResult {
            name: "c".into(),
            measure: Measure::Test,
            a: 1,
            b: 2,
            a_label: "a".into(),
            b_label: "b".into(),
            primary: true,
            claim: Some("a beats b".into()),
            source: Some("section 5.1".into()),
            hypothesis: false,
            own_sets: false,
            method,
            units,
            estimate,
            se,
            df,
            p,
            level: LEVEL,
            lo: 0.0,
            hi: 0.0,
            p_adjusted: None,
            direction: Direction::Same,
            verdict: ContrastVerdict::Exploratory,
        };
        c.set_level(LEVEL);
        c
    }

    #[test]
    fn a_paired_interval_at_any_level_is_the_paired_contrast_of_compare() {
        let pairs = [(80.0, 78.0), (82.0, 81.0), (79.0, 76.0), (85.0, 83.0), (81.0, 80.0)];
        let (a, b): (Vec<f64>, Vec<f64>) = pairs.iter().copied().unzip();
        let mut c = result(&pairs, true);
        for level in [0.95, 0.99, 1.0 - 0.05 / 7.0] {
            c.set_level(level);
            let direct = compare::paired(&a, &b, level).unwrap();
            assert!((c.lo - direct.lo).abs() < 1e-9 && (c.hi - direct.hi).abs() < 1e-9, "{level}");
        }
        let w = stats::difference(&a, &b).unwrap();
        let welch = result(&pairs, false);
        // The same standard error and degrees of freedom as stats::difference, which reads t at
        // the degrees of freedom rounded down; here t is read at Welch's own.
        assert!((w.mean - welch.estimate).abs() < 1e-12);
        assert!((w.half_width() - stats::t975(welch.df) * welch.se).abs() < 1e-9, "{welch:?} {w:?}");
        let half = compare::t_quantile(0.975, welch.df) * welch.se;
        assert!((welch.hi - welch.lo - 2.0 * half).abs() < 1e-9);
    }

    #[test]
    fn holm_reads_each_primary_at_its_step_and_words_the_verdict_by_the_rule() {
        let strong = [(90.0, 80.0), (91.0, 80.5), (89.0, 79.0), (92.0, 81.0), (90.5, 80.0)];
        let weak = [(80.0, 79.0), (81.0, 81.5), (79.0, 78.0), (80.0, 80.5), (82.0, 80.0)];
        let worse = [(70.0, 80.0), (71.0, 80.5), (69.0, 79.0), (72.0, 81.0), (70.5, 80.0)];
        let (mut s, mut w, mut x) = (result(&strong, true), result(&weak, true), result(&worse, true));
        let mut own = result(&worse, true);
        own.own_sets = true;
        adjust_family(&mut [&mut s, &mut w, &mut x, &mut own]);
        assert_eq!(s.verdict, ContrastVerdict::Supported);
        assert_eq!(w.verdict, ContrastVerdict::NotShown);
        assert_eq!(x.verdict, ContrastVerdict::Contradicted);
        assert_eq!(own.verdict, ContrastVerdict::NotReplicatedOnRandomSets);
        assert!(s.level > 0.95 && w.level == 0.95, "{} {}", s.level, w.level);
        assert!(w.lo < 0.0 && w.hi > 0.0 && w.p_adjusted.unwrap() > 0.05);
        // Fewer epochs is better: a negative difference supports "a beats b".
        let mut e = result(&worse, true);
        e.measure = Measure::Epochs;
        adjust_family(&mut [&mut e]);
        assert_eq!(e.verdict, ContrastVerdict::Supported);
    }
}
