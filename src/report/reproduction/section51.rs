//! Section 5.1's comments on the results, each checked against our replicates: the claim as the
//! paper states it, the two groups of runs it compares, their means with 95% intervals, and
//! whether our runs confirm it.

use crate::experiment::Trial;
use crate::experiment::readings::trial_number;
use crate::experiment::replicate::ReplicateRun;
use crate::stats::{self, Interval};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One of section 5.1's claims against our runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The paper's words.
    pub paper: String,
    /// What is compared, e.g. "training accuracy %, wtm: E1 trials 1-13 vs E2 trials 21-28".
    pub measure: String,
    pub a_label: String,
    pub a_mean: f64,
    pub a_lo: f64,
    pub a_hi: f64,
    pub a_runs: usize,
    pub b_label: String,
    pub b_mean: f64,
    pub b_lo: f64,
    pub b_hi: f64,
    pub b_runs: usize,
    /// Difference a − b with its 95% interval (Welch's t with the Welch–Satterthwaite degrees of freedom).
    pub diff_mean: f64,
    pub diff_lo: f64,
    pub diff_hi: f64,
    /// "confirmed", "contradicted" or "not shown" (the interval of the difference holds 0, or for
    /// a claim of no conspicuous gain, the threshold).
    pub verdict: String,
    /// For a claim that A is "not conspicuously" better than B: the smallest gain, in points, that
    /// counts as conspicuous ([`CONSPICUOUS_POINTS`]).
    #[serde(default)]
    pub conspicuous: Option<f64>,
}

/// The smallest gain in accuracy that is conspicuous, in points: Table 5 prints the small-set
/// trials' accuracies as whole percentages, so a smaller gain does not show in it (section 5.1
/// judges "conspicuously more effective" from that table).
pub const CONSPICUOUS_POINTS: f64 = 1.0;

/// The per-run values of `value` for the runs of the listed trials.
fn values(
    trials: &[Trial],
    runs: &[ReplicateRun],
    numbers: &[u8],
    value: &dyn Fn(&ReplicateRun) -> Option<f64>,
) -> Vec<f64> {
    runs.iter()
        .filter(|r| trial_number(trials[r.trial].name()).is_some_and(|t| numbers.contains(&t)))
        .filter_map(value)
        .collect()
}

/// What the paper claims of group A against group B.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// A is better.
    Greater,
    /// A is not conspicuously better: any gain is below this many points.
    NotConspicuouslyGreater(f64),
}

/// The verdict on a claim from the 95% interval [lo, hi] of A − B.
fn verdict(expect: Expect, lo: f64, hi: f64) -> &'static str {
    match expect {
        Expect::Greater if lo > 0.0 => "confirmed",
        Expect::Greater if hi < 0.0 => "contradicted",
        Expect::Greater => "not shown",
        // Confirmed when the interval excludes a conspicuous gain; contradicted only when it
        // shows one; an interval across the threshold settles neither.
        Expect::NotConspicuouslyGreater(t) if hi < t => "confirmed",
        Expect::NotConspicuouslyGreater(t) if lo >= t => "contradicted",
        Expect::NotConspicuouslyGreater(_) => "not shown",
    }
}

/// Compare two groups of accuracies (%) against the paper's claim.
fn compare(
    paper: &str,
    measure: &str,
    a: (&str, &[f64]),
    b: (&str, &[f64]),
    expect: Expect,
) -> Option<Claim> {
    let ia = Interval::of_mean_pct(a.1)?;
    let ib = Interval::of_mean_pct(b.1)?;
    // The difference of the means with Welch's interval (unequal variances).
    let d = stats::difference(a.1, b.1)?;
    let (lo, hi) = (d.lo, d.hi);
    Some(Claim {
        paper: paper.into(),
        measure: measure.into(),
        a_label: a.0.into(),
        a_mean: ia.mean,
        a_lo: ia.lo,
        a_hi: ia.hi,
        a_runs: a.1.len(),
        b_label: b.0.into(),
        b_mean: ib.mean,
        b_lo: ib.lo,
        b_hi: ib.hi,
        b_runs: b.1.len(),
        diff_mean: d.mean,
        diff_lo: lo,
        diff_hi: hi,
        verdict: verdict(expect, lo, hi).into(),
        conspicuous: match expect {
            Expect::NotConspicuouslyGreater(t) => Some(t),
            _ => None,
        },
    })
}

const WTM_E1: [u8; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const WTM_E2: [u8; 8] = [21, 22, 23, 24, 25, 26, 27, 28];
const BTM_E1: [u8; 7] = [14, 15, 16, 17, 18, 19, 20];
const BTM_E2: [u8; 9] = [29, 30, 31, 32, 33, 34, 35, 36, 37];

/// Section 5.1's claims about the small-set trials 1-37, checked on the replicates.
pub fn claims(trials: &[Trial], runs: &[ReplicateRun]) -> Vec<Claim> {
    let train = |r: &ReplicateRun| Some(r.run.summary.train_accuracy_pct);
    let test = |r: &ReplicateRun| r.run.summary.test_accuracy_pct;
    let v = |n: &[u8], f: &dyn Fn(&ReplicateRun) -> Option<f64>| values(trials, runs, n, f);
    let wtm: Vec<u8> = WTM_E1.iter().chain(&WTM_E2).copied().collect();
    let btm: Vec<u8> = BTM_E1.iter().chain(&BTM_E2).copied().collect();
    let e2_paper = "The use of the more rigorous error function E2 significantly improved the NNs' accuracy in \
                    classifying the positions of the training set";
    let mut out = Vec::new();
    out.extend(compare(
        e2_paper,
        "training accuracy %, wtm (T1)",
        ("E2: trials 21-28", &v(&WTM_E2, &train)),
        ("E1: trials 1-13", &v(&WTM_E1, &train)),
        Expect::Greater,
    ));
    out.extend(compare(
        e2_paper,
        "training accuracy %, btm (T2)",
        ("E2: trials 29-37", &v(&BTM_E2, &train)),
        ("E1: trials 14-20", &v(&BTM_E1, &train)),
        Expect::Greater,
    ));
    out.extend(compare(
        "The slightly better performance on btm-positions is interesting and unexplained",
        "testing accuracy %",
        ("btm: trials 14-20, 29-37 (S2)", &v(&btm, &test)),
        ("wtm: trials 1-13, 21-28 (S1)", &v(&wtm, &test)),
        Expect::Greater,
    ));
    out.extend(compare(
        "The success rate on the 'new' testing-set positions was predictably lower than on the training-set positions",
        "accuracy %, trials 1-37",
        ("training", &v(&[wtm.clone(), btm.clone()].concat(), &train)),
        ("testing", &v(&[wtm.clone(), btm.clone()].concat(), &test)),
        Expect::Greater,
    ));
    // Within side to move: wtm and btm test differently (the claim above), and the comp < 1 group
    // holds 5 wtm and 5 btm trials against the comp > 1 group's 3 and 4, so pooling them would
    // credit compression with part of the side's difference.
    let comp =
        "The NNs with a compression factor of less than one did not prove conspicuously more effective";
    let not_conspicuous = Expect::NotConspicuouslyGreater(CONSPICUOUS_POINTS);
    out.extend(compare(
        comp,
        "testing accuracy %, wtm E2 trials (S1)",
        ("comp < 1 (NN4, NN5): trials 24-28", &v(&[24, 25, 26, 27, 28], &test)),
        ("comp > 1 (NN3): trials 21-23", &v(&[21, 22, 23], &test)),
        not_conspicuous,
    ));
    out.extend(compare(
        comp,
        "testing accuracy %, btm E2 trials (S2)",
        ("comp < 1 (NN4, NN5): trials 33-37", &v(&[33, 34, 35, 36, 37], &test)),
        ("comp > 1 (NN3): trials 29-32", &v(&[29, 30, 31, 32], &test)),
        not_conspicuous,
    ));
    out
}

/// A claim's verdict with what it rests on.
fn verdict_cell(c: &Claim) -> String {
    match (c.conspicuous, c.verdict.as_str()) {
        (Some(t), "confirmed") => format!("confirmed (any gain is under {t} point)"),
        (Some(t), "contradicted") => format!("contradicted (a gain of at least {t} point)"),
        (Some(t), _) => format!("not shown (the interval spans {t} point)"),
        (None, v) if c.diff_mean.abs() < 1.0 && v != "not shown" => format!("{v} (by under a point)"),
        (None, v) => v.to_string(),
    }
}

/// The claims as a Markdown table.
pub fn markdown(claims: &[Claim]) -> String {
    let mut w = String::new();
    let _ = writeln!(
        w,
        "| the paper (section 5.1) | measure | group A: mean [95% CI] (runs) | group B: mean [95% CI] (runs) | A − B [95% CI] | our runs |"
    );
    let _ = writeln!(w, "|---|---|---|---|---|---|");
    for c in claims {
        let _ = writeln!(
            w,
            "| {} | {} | {}: {:.1} [{:.1}, {:.1}] ({}) | {}: {:.1} [{:.1}, {:.1}] ({}) | {:+.1} [{:+.1}, {:+.1}] | {} |",
            c.paper,
            c.measure,
            c.a_label,
            c.a_mean,
            c.a_lo,
            c.a_hi,
            c.a_runs,
            c.b_label,
            c.b_mean,
            c.b_lo,
            c.b_hi,
            c.b_runs,
            c.diff_mean,
            c.diff_lo,
            c.diff_hi,
            verdict_cell(c)
        );
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_whose_interval_holds_zero_is_not_shown() {
        let (near, far) = ([1.5, 2.5, 2.0], [10.0, 11.0, 12.0]);
        let low = [1.0, 2.0, 3.0];
        assert_eq!(
            compare("p", "m", ("a", &low), ("b", &near), Expect::Greater).unwrap().verdict,
            "not shown"
        );
        let c = compare("p", "m", ("a", &far), ("b", &low), Expect::Greater).unwrap();
        assert_eq!(c.verdict, "confirmed");
        assert!(c.diff_lo > 0.0 && (c.diff_mean - 9.0).abs() < 1e-12);
        assert_eq!(
            compare("p", "m", ("a", &low), ("b", &far), Expect::Greater).unwrap().verdict,
            "contradicted"
        );
    }

    /// "Not conspicuously more effective" is contradicted only by a gain of at least the
    /// threshold, not by a small one whose interval lies above 0.
    #[test]
    fn a_small_gain_does_not_contradict_not_conspicuously_better() {
        let e = Expect::NotConspicuouslyGreater(1.0);
        assert_eq!(verdict(e, 0.0, 0.7), "confirmed");
        assert_eq!(verdict(e, 0.1, 0.7), "confirmed");
        assert_eq!(verdict(e, -2.0, -0.5), "confirmed");
        assert_eq!(verdict(e, 0.4, 1.6), "not shown");
        assert_eq!(verdict(e, 1.0, 2.0), "contradicted");
        let (a, b) = ([90.0, 91.0, 92.0, 91.0], [90.5, 90.0, 91.5, 90.0]);
        let c = compare("p", "m", ("a", &a), ("b", &b), e).unwrap();
        assert_eq!(c.conspicuous, Some(1.0));
        assert_eq!(c.verdict, "not shown", "{c:?}");
        assert!(markdown(std::slice::from_ref(&c)).contains("| not shown (the interval spans 1 point) |"));
    }
}
