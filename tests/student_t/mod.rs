//! Student's t for the tests that recompute kpk's contrasts, with none of kpk's statistics: the
//! distribution is integrated by Simpson's rule (kpk uses a continued fraction), so the two cannot
//! share a mistake. Checked against tabulated values in tests/study_contrasts.rs.
#![allow(dead_code)]

/// P(T > x) for Student's t with `df` degrees of freedom. With t = √df·tan θ the density is
/// proportional to cos^(df−1) θ on (−π/2, π/2): smooth and bounded for df ≥ 1. The tail is
/// integrated as such, so that a small p keeps its relative precision.
pub fn t_upper(x: f64, df: f64) -> f64 {
    let integral = |from: f64, to: f64| {
        let n = 20_000;
        let h = (to - from) / n as f64;
        let f = |th: f64| th.cos().max(0.0).powf(df - 1.0);
        let inner: f64 = (1..n).map(|i| f(from + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
        (f(from) + inner + f(to)) * h / 3.0
    };
    let half = std::f64::consts::FRAC_PI_2;
    integral((x / df.sqrt()).atan(), half) / integral(-half, half)
}

/// P(T ≤ x).
pub fn t_cdf(x: f64, df: f64) -> f64 {
    1.0 - t_upper(x, df)
}

/// The p-quantile (p ≥ 1/2), by bisection on the integrated distribution.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e4);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if t_cdf(mid, df) < p { lo = mid } else { hi = mid }
    }
    (lo + hi) / 2.0
}
