//! Comparisons of settings with the right unit (Demšar 2006; Bouthillier et al. 2021): paired
//! differences where replicate r of both settings shares its seed and data draw, a cluster
//! bootstrap or a mixed model over the draws where many runs share a few data draws, Holm's adjustment over a family of primary
//! contrasts, and the one rule that turns an interval into a verdict.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How a contrast's interval was computed; the unit of analysis goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Per-replicate differences a_r − b_r, Student's t over replicates (unit: the replicate).
    Paired,
    /// Data draws resampled with replacement, all runs of a drawn draw kept (unit: the draw).
    ClusterBootstrap,
    /// The one-way random-effects model over data draws: Student's t with (draws − 1) degrees of
    /// freedom over the per-draw means or differences (unit: the draw).
    MixedModel,
    /// Two independent groups, unequal variances (unit: the run).
    Welch,
}

impl Method {
    /// The method's name as contrasts.csv and the JSON files write it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Paired => "paired",
            Method::ClusterBootstrap => "cluster_bootstrap",
            Method::MixedModel => "mixed_model",
            Method::Welch => "welch",
        }
    }
}

/// The bare interval estimate of a difference a − b: its estimate, two-sided interval and
/// p-value by one method, with no family, direction or verdict. The one record of a contrast,
/// [`super::contrast::Contrast`], is built from a t-based estimate; this is what a report prints
/// beside it (a secondary method's interval) or where it reads no claim (a group's mean, a gap).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    /// Two-sided p-value of "no difference".
    pub p: f64,
    /// Units behind the interval: replicates (paired), draws (cluster bootstrap) or runs (Welch).
    pub units: usize,
    /// Confidence level of [`Difference::lo`], [`Difference::hi`], e.g. 0.95.
    pub level: f64,
    pub method: Method,
}

/// The verdict on a claim that a − b is positive, from the interval alone: supported where the
/// whole interval lies above zero, contradicted where it lies below, otherwise not shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Supported,
    Contradicted,
    NotShown,
}

impl Verdict {
    /// The rule, for a claim that the difference is positive (negate the contrast for a claim
    /// that it is negative).
    pub fn of(lo: f64, hi: f64) -> Verdict {
        if lo > 0.0 {
            Verdict::Supported
        } else if hi < 0.0 {
            Verdict::Contradicted
        } else {
            Verdict::NotShown
        }
    }
}

/// The verdict a report gives a claim (one rule for every report): [`Verdict::of`]'s, except that a
/// claim about the paper's own hand-picked sets (lost, section 4.5) that our random draws do not
/// support is "not replicated on random sets": draws cannot contradict a statement about sets
/// they are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimVerdict {
    Supported,
    Contradicted,
    NotShown,
    NotReplicatedOnRandomSets,
}

impl ClaimVerdict {
    /// The rule applied to `v`, for a claim about the paper's own sets where `own_sets`.
    pub fn of(v: Verdict, own_sets: bool) -> ClaimVerdict {
        match (v, own_sets) {
            (Verdict::Supported, _) => ClaimVerdict::Supported,
            (_, true) => ClaimVerdict::NotReplicatedOnRandomSets,
            (Verdict::Contradicted, false) => ClaimVerdict::Contradicted,
            (Verdict::NotShown, false) => ClaimVerdict::NotShown,
        }
    }

    /// The verdict in the reports' words.
    pub fn words(self) -> &'static str {
        match self {
            ClaimVerdict::Supported => "supported",
            ClaimVerdict::Contradicted => "contradicted",
            ClaimVerdict::NotShown => "not shown",
            ClaimVerdict::NotReplicatedOnRandomSets => "not replicated on random sets",
        }
    }
}

/// Paired contrast of a − b over replicates (`a[r]` and `b[r]` share seed and draw r): the mean
/// difference with its t-interval at `level` and the paired t-test's p-value. Needs two pairs.
pub fn paired(a: &[f64], b: &[f64], level: f64) -> Option<Difference> {
    if a.len() != b.len() {
        return None;
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    paired_differences(&d, level)
}

/// [`paired`] from the differences a_r − b_r themselves. Needs two.
pub fn paired_differences(d: &[f64], level: f64) -> Option<Difference> {
    if d.len() < 2 {
        return None;
    }
    let n = d.len() as f64;
    let (mean, var) = super::mean_and_variance(d);
    let se = (var / n).sqrt();
    let df = n - 1.0;
    let (half, p) = if se == 0.0 {
        (0.0, if mean == 0.0 { 1.0 } else { 0.0 })
    } else {
        let t = mean / se;
        (t_quantile(0.5 + level / 2.0, df) * se, 2.0 * (1.0 - student_t_cdf(t.abs(), df)))
    };
    Some(Difference {
        estimate: mean,
        lo: mean - half,
        hi: mean + half,
        p,
        units: d.len(),
        level,
        method: Method::Paired,
    })
}

/// Cluster bootstrap of mean(a) − mean(b), where each value carries the data draw it was
/// trained on: draws are resampled with replacement (the same draws for both sides, as both
/// sides share them) and every run of a drawn draw is kept. Percentile interval at `level` over
/// `resamples` resamples from `seed`; the p-value is twice the smaller share of resampled
/// differences on either side of zero. Needs two draws present on both sides.
pub fn cluster_bootstrap(
    a: &[(u64, f64)],
    b: &[(u64, f64)],
    level: f64,
    resamples: usize,
    seed: u64,
) -> Option<Difference> {
    let mut draws: Vec<u64> = a.iter().map(|&(c, _)| c).filter(|c| b.iter().any(|&(d, _)| d == *c)).collect();
    draws.sort_unstable();
    draws.dedup();
    if draws.len() < 2 || resamples == 0 {
        return None;
    }
    // Per draw: sum and count of each side, so one resample costs one pass over the draws.
    let totals = |side: &[(u64, f64)], draw: u64| {
        side.iter().filter(|&&(c, _)| c == draw).fold((0.0, 0usize), |(s, k), &(_, v)| (s + v, k + 1))
    };
    let per_draw: Vec<((f64, usize), (f64, usize))> =
        draws.iter().map(|&d| (totals(a, d), totals(b, d))).collect();
    let diff = |pick: &mut dyn FnMut(usize) -> usize| {
        let (mut sa, mut ka, mut sb, mut kb) = (0.0, 0, 0.0, 0);
        for i in 0..per_draw.len() {
            let ((s1, k1), (s2, k2)) = per_draw[pick(i)];
            (sa, ka, sb, kb) = (sa + s1, ka + k1, sb + s2, kb + k2);
        }
        sa / ka as f64 - sb / kb as f64
    };
    let estimate = diff(&mut |i| i);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = per_draw.len();
    let mut stats: Vec<f64> = (0..resamples).map(|_| diff(&mut |_| rng.random_range(0..n))).collect();
    stats.sort_by(f64::total_cmp);
    let below = stats.iter().filter(|&&s| s <= 0.0).count() as f64 / resamples as f64;
    let above = stats.iter().filter(|&&s| s >= 0.0).count() as f64 / resamples as f64;
    let tail = (1.0 - level) / 2.0;
    Some(Difference {
        estimate,
        lo: super::quantile(&stats, tail),
        hi: super::quantile(&stats, 1.0 - tail),
        p: (2.0 * below.min(above)).min(1.0),
        units: n,
        level,
        method: Method::ClusterBootstrap,
    })
}

/// The values of `a` and of `b` averaged within each data draw present on both sides, in the
/// draws' order: `(draw, mean of a, mean of b)`.
pub fn draw_means(a: &[(u64, f64)], b: &[(u64, f64)]) -> Vec<(u64, f64, f64)> {
    let mut draws: Vec<u64> = a.iter().map(|&(c, _)| c).filter(|c| b.iter().any(|&(d, _)| d == *c)).collect();
    draws.sort_unstable();
    draws.dedup();
    let mean_at = |side: &[(u64, f64)], draw: u64| {
        let v: Vec<f64> = side.iter().filter(|&&(c, _)| c == draw).map(|&(_, v)| v).collect();
        super::mean(&v)
    };
    draws.iter().map(|&d| (d, mean_at(a, d), mean_at(b, d))).collect()
}

/// Mean(a) − mean(b) by the mixed model over data draws, where each value carries its draw: the
/// difference of the draw's means d_c = mean(a at c) − mean(b at c) for every draw c present on
/// both sides, their mean as the estimate, and Student's t with (draws − 1) degrees of freedom
/// over them as interval and p-value ([`paired`] on the per-draw means). With the same number of
/// runs in every draw on each side (balanced), this is the exact interval of the fixed effect in
/// the model y = μ + δ·[side a] + u_c + v_c·[side a] + ε, with a random intercept u_c per draw
/// and a random draw-by-side effect v_c; unbalanced, it is the standard cluster-level analysis
/// of the per-draw means, each draw weighted alike. For one group's mean, pass zeros as `b`.
/// Needs two draws present on both sides.
pub fn mixed_model(a: &[(u64, f64)], b: &[(u64, f64)], level: f64) -> Option<Difference> {
    let means = draw_means(a, b);
    let ma: Vec<f64> = means.iter().map(|m| m.1).collect();
    let mb: Vec<f64> = means.iter().map(|m| m.2).collect();
    paired(&ma, &mb, level).map(|c| Difference { method: Method::MixedModel, ..c })
}

/// Holm's step-down adjustment of a family's p-values (the family-wise error rate at any α):
/// sorted ascending, the i-th smallest (from 0) becomes max over j ≤ i of min(1, (m − j)·p_(j)).
/// Returned in the order given.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let order = ascending(p);
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// The confidence level of a primary contrast's interval under Holm's procedure at family level
/// 95 %: contrast i of a family of m whose p-value ranks k-th smallest (from 0) is read at
/// 1 − 0.05/(m − k), the level at which Holm's step tests it.
pub fn holm_levels(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let order = ascending(p);
    let mut levels = vec![0.0; m];
    for (rank, &i) in order.iter().enumerate() {
        levels[i] = 1.0 - 0.05 / (m - rank) as f64;
    }
    levels
}

/// The indices of `p` from its smallest value to its largest: Holm's order of testing.
fn ascending(p: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    order
}

/// P(T ≤ t) for Student's t with `df` degrees of freedom, through the regularised incomplete
/// beta function: P(|T| > |t|) = I_x(df/2, 1/2) with x = df/(df + t²).
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let tail = 0.5 * incomplete_beta(x, df / 2.0, 0.5);
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The `p` quantile of Student's t with `df` degrees of freedom (0 < p < 1), by bisection on
/// [`student_t_cdf`] to 1e-12.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (-1e6, 1e6);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if student_t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-12 {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// The regularised incomplete beta function I_x(a, b), by its continued fraction (modified
/// Lentz), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges slowly.
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        for num in [
            m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + num * d;
            d = 1.0 / if d.abs() < TINY { TINY } else { d };
            c = 1.0 + num / c;
            c = if c.abs() < TINY { TINY } else { c };
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients; relative error below 1e-13).
pub fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = G[1..].iter().enumerate().fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t_distribution_matches_the_table_of_quantiles() {
        for df in 1..=30 {
            let q = super::super::t975(df as f64);
            // The table holds 3 decimals.
            assert!((t_quantile(0.975, df as f64) - q).abs() < 6e-4, "df {df}");
            assert!((student_t_cdf(q, df as f64) - 0.975).abs() < 1e-4, "df {df}");
        }
        assert!((student_t_cdf(0.0, 7.0) - 0.5).abs() < 1e-15);
        assert!((student_t_cdf(-1.5, 4.0) + student_t_cdf(1.5, 4.0) - 1.0).abs() < 1e-14);
        // Cauchy (df = 1): P(T ≤ 1) = 3/4.
        assert!((student_t_cdf(1.0, 1.0) - 0.75).abs() < 1e-12);
    }

    /// Five draws of ten runs a side: the mixed model is the t-interval with 4 degrees of
    /// freedom over the five per-draw differences, wider than the percentile bootstrap of the
    /// same five draws (which has no small-sample correction).
    #[test]
    fn the_mixed_model_is_the_t_interval_over_the_draws_means() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let shift = [0.3, 1.9, 0.8, 1.2, -0.1];
        for (d, s) in shift.iter().enumerate() {
            for k in 0..10 {
                let noise = 0.05 * (k as f64 - 4.5);
                a.push((d as u64, 90.0 + s + noise));
                b.push((d as u64, 90.0 - 0.5 * noise));
            }
        }
        let m = mixed_model(&a, &b, 0.95).unwrap();
        let i = super::super::Interval::of_mean(&shift).unwrap();
        assert_eq!((m.units, m.method), (5, Method::MixedModel));
        assert!((m.estimate - i.mean).abs() < 1e-9);
        assert!((m.lo - i.lo).abs() < 2e-3 && (m.hi - i.hi).abs() < 2e-3, "{m:?} vs {i:?}");
        let boot = cluster_bootstrap(&a, &b, 0.95, 4000, 3).unwrap();
        assert!(m.hi - m.lo > boot.hi - boot.lo, "{m:?} vs {boot:?}");
        assert_eq!(draw_means(&a, &b[..10]).len(), 1, "only draw 0 on both sides");
        assert!(mixed_model(&a, &b[..10], 0.95).is_none(), "one draw");
    }

    #[test]
    fn a_paired_contrast_is_the_t_interval_of_the_differences() {
        let a = [80.0, 82.0, 79.0, 85.0, 81.0];
        let b = [78.0, 81.0, 76.0, 83.0, 80.0];
        let c = paired(&a, &b, 0.95).unwrap();
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let i = super::super::Interval::of_mean(&d).unwrap();
        assert!((c.estimate - i.mean).abs() < 1e-12);
        assert!((c.lo - i.lo).abs() < 2e-3 && (c.hi - i.hi).abs() < 2e-3, "{c:?} vs {i:?}");
        assert!(c.p < 0.05 && c.lo > 0.0);
        assert_eq!(Verdict::of(c.lo, c.hi), Verdict::Supported);
        // Pairing removes the between-replicate spread that Welch keeps.
        let w = super::super::difference(&a, &b).unwrap();
        assert!(c.hi - c.lo < w.hi - w.lo);
        assert!(paired(&a, &b[..4], 0.95).is_none());
    }

    #[test]
    fn the_cluster_bootstrap_counts_draws_not_runs() {
        // Five draws; within each draw, many runs that differ only slightly.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for draw in 0..5u64 {
            let shift = [1.0, -0.5, 2.0, 0.2, -1.2][draw as usize];
            for run in 0..100 {
                a.push((draw, 80.0 + shift + 0.5 + 0.001 * run as f64));
                b.push((draw, 80.0 + shift * 1.5 + 0.001 * run as f64));
            }
        }
        let c = cluster_bootstrap(&a, &b, 0.95, 2000, 7).unwrap();
        assert_eq!(c.units, 5);
        let welch = super::super::difference(
            &a.iter().map(|x| x.1).collect::<Vec<_>>(),
            &b.iter().map(|x| x.1).collect::<Vec<_>>(),
        )
        .unwrap();
        assert!((c.estimate - welch.mean).abs() < 1e-9);
        assert!(c.lo <= c.estimate && c.estimate <= c.hi);
        assert_eq!(c, cluster_bootstrap(&a, &b, 0.95, 2000, 7).unwrap(), "seeded: the same bits");
        assert!(cluster_bootstrap(&a[..100], &b[..100], 0.95, 100, 1).is_none(), "one draw");
    }

    #[test]
    fn holm_adjusts_step_down_and_keeps_the_order() {
        let adj = holm(&[0.01, 0.04, 0.03, 0.5]);
        assert_eq!(adj, vec![0.04, 0.09, 0.09, 0.5]);
        assert_eq!(
            holm_levels(&[0.01, 0.04, 0.03, 0.5]),
            vec![1.0 - 0.05 / 4.0, 1.0 - 0.05 / 2.0, 1.0 - 0.05 / 3.0, 0.95]
        );
        assert!(holm(&[]).is_empty());
    }
}
