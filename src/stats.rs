//! Replicates summarised: the mean with its 95% confidence interval (Student's t), the difference
//! of two means (Welch), a proportion's interval (Wilson), quantiles and the spread of runs, and the
//! chance overlap of two lists of positions. Every comparison of settings that depend on random
//! seeds goes through here, so a figure or table shows an interval, not one run.

pub mod compare;
pub mod contrast;
pub mod family;

use serde::{Deserialize, Serialize};

/// A mean over replicates and its two-sided 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    /// Replicates behind the interval.
    pub n: usize,
}

impl Interval {
    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }

    /// Whether the interval lies wholly above zero, wholly below, or covers it.
    pub fn sign(&self) -> std::cmp::Ordering {
        if self.lo > 0.0 {
            std::cmp::Ordering::Greater
        } else if self.hi < 0.0 {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        }
    }

    /// The mean of `xs` with its 95% t-interval, mean ± t(0.975, n − 1)·s/√n. One replicate gives
    /// a zero-width interval at its value (there is no spread to estimate); none gives `None`.
    pub fn of_mean(xs: &[f64]) -> Option<Interval> {
        if xs.is_empty() {
            return None;
        }
        let (mean, var) = mean_and_variance(xs);
        let half =
            if xs.len() > 1 { t975((xs.len() - 1) as f64) * (var / xs.len() as f64).sqrt() } else { 0.0 };
        Some(Interval { mean, lo: mean - half, hi: mean + half, n: xs.len() })
    }

    /// [`Interval::of_mean`] of percentages, its bounds cut to [0, 100]: the mean of values in that
    /// range lies in it, while the t-interval's symmetric half-width can reach past 100 % when
    /// most runs score 100 %.
    pub fn of_mean_pct(xs: &[f64]) -> Option<Interval> {
        Interval::of_mean_within(xs, 0.0, 100.0)
    }

    /// [`Interval::of_mean`] of values that cannot leave [`min`, `max`] (percentages, counts of
    /// epochs), its bounds cut to that range: the mean of such values lies in it too.
    pub fn of_mean_within(xs: &[f64], min: f64, max: f64) -> Option<Interval> {
        Interval::of_mean(xs).map(|i| Interval { lo: i.lo.max(min), hi: i.hi.min(max), ..i })
    }

    /// Whether `v` lies in [lo, hi].
    pub fn contains(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// `80.1 (78.0–82.2)` with `digits` decimals.
    pub fn show(&self, digits: usize) -> String {
        format!("{:.d$} ({:.d$}–{:.d$})", self.mean, self.lo, self.hi, d = digits)
    }
}

/// Two-sided 97.5% quantiles of Student's t for 1..=30 degrees of freedom.
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom (a fractional `df`, as Welch's
/// gives, is rounded down: the wider, conservative interval). Exact to 3 decimals up to 30 from
/// the table; beyond, the Cornish–Fisher expansion about the normal's 1.95996, within 0.001.
pub fn t975(df: f64) -> f64 {
    let d = df.floor().max(1.0);
    if d <= 30.0 {
        return T975[d as usize - 1];
    }
    let z: f64 = 1.959_964;
    let (z3, z5) = (z.powi(3), z.powi(5));
    z + (z3 + z) / (4.0 * d) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * d * d)
}

/// The arithmetic mean (NaN for no values).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The sample standard deviation (n − 1 in the denominator; 0 for fewer than two values).
pub fn std_dev(xs: &[f64]) -> f64 {
    mean_and_variance(xs).1.sqrt()
}

fn mean_and_variance(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var)
}

/// The difference of means `a − b` with Welch's 95% interval (unequal variances; the
/// Welch–Satterthwaite degrees of freedom). Needs at least two replicates on each side.
pub fn difference(a: &[f64], b: &[f64]) -> Option<Interval> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (ma, va) = mean_and_variance(a);
    let (mb, vb) = mean_and_variance(b);
    let (qa, qb) = (va / a.len() as f64, vb / b.len() as f64);
    let se2 = qa + qb;
    let mean = ma - mb;
    if se2 == 0.0 {
        return Some(Interval { mean, lo: mean, hi: mean, n: a.len() + b.len() });
    }
    let df = se2 * se2 / (qa * qa / (a.len() - 1) as f64 + qb * qb / (b.len() - 1) as f64);
    let half = t975(df) * se2.sqrt();
    Some(Interval { mean, lo: mean - half, hi: mean + half, n: a.len() + b.len() })
}

/// A proportion `k / n` as a percentage with its 95% Wilson score interval (good at 0 and n,
/// where the normal approximation collapses). `None` for n = 0.
pub fn wilson_pct(k: usize, n: usize) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let z: f64 = 1.959_964;
    let (nf, p) = (n as f64, k as f64 / n as f64);
    let centre = (p + z * z / (2.0 * nf)) / (1.0 + z * z / nf);
    let half = z / (1.0 + z * z / nf) * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Some(Interval {
        mean: 100.0 * p,
        lo: 100.0 * (centre - half).max(0.0),
        hi: 100.0 * (centre + half).min(1.0),
        n,
    })
}

/// The p-quantile of `values` (0 ≤ p ≤ 1), by linear interpolation between order statistics
/// (Hyndman and Fan's type 7, R's default); NaN for no values.
pub fn quantile(values: &[f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let (i, frac) = (h.floor() as usize, h.fract());
    if i + 1 < v.len() { v[i] + frac * (v[i + 1] - v[i]) } else { v[i] }
}

/// The median (the 0.5-quantile).
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// The range holding the middle 95% of `values` (2.5% and 97.5% quantiles): where one more run
/// would be expected to fall, as opposed to [`Interval`], where the mean is.
pub fn spread95(values: &[f64]) -> (f64, f64) {
    (quantile(values, 0.025), quantile(values, 0.975))
}

/// Two lists drawn from a set of `population` items, of sizes `a` and `b`: the expected size of
/// their overlap if `b` were drawn at random (a·b / population), and the probability of an
/// overlap of at least `k` (the hypergeometric upper tail).
pub fn chance_overlap(population: usize, a: usize, b: usize, k: usize) -> (f64, f64) {
    let expected = a as f64 * b as f64 / population as f64;
    // ln C(n, r) by summing logarithms: exact enough for sets of tens of thousands.
    let ln_choose = |n: usize, r: usize| -> f64 {
        if r > n {
            return f64::NEG_INFINITY;
        }
        let r = r.min(n - r);
        (0..r).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum()
    };
    let total = ln_choose(population, b);
    let tail: f64 =
        (k..=a.min(b)).map(|j| (ln_choose(a, j) + ln_choose(population - a, b - j) - total).exp()).sum();
    (expected, tail.min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_t_interval_matches_the_textbook() {
        // 1..=5: mean 3, s = √2.5, t(4) = 2.776, half width 2.776·√(2.5/5) = 1.963.
        let i = Interval::of_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(i.mean, 3.0);
        assert!((i.half_width() - 1.962_93).abs() < 1e-4, "{i:?}");
        assert_eq!(Interval::of_mean(&[7.0]).unwrap().half_width(), 0.0);
        assert!(Interval::of_mean(&[]).is_none());
    }

    #[test]
    fn a_percentage_interval_stays_within_0_and_100() {
        // Four runs at 100 % and one at 96 %: the t-interval reaches 102.2 %, the mean cannot.
        let xs = [100.0, 100.0, 96.0, 100.0, 100.0];
        assert!(Interval::of_mean(&xs).unwrap().hi > 100.0);
        let i = Interval::of_mean_pct(&xs).unwrap();
        assert_eq!((i.mean, i.hi), (99.2, 100.0));
        assert!(i.lo < 99.2 && i.lo > 90.0, "{i:?}");
        assert_eq!(Interval::of_mean_pct(&[0.0, 0.0, 4.0]).unwrap().lo, 0.0);
    }

    #[test]
    fn t_quantiles_join_the_table_smoothly() {
        assert_eq!(t975(4.7), 2.776);
        assert!((t975(40.0) - 2.021).abs() < 1e-3);
        assert!((t975(120.0) - 1.980).abs() < 1e-3);
        assert!(t975(31.0) < t975(30.0));
    }

    #[test]
    fn welch_separates_distinct_means_and_not_equal_ones() {
        let a = [10.0, 11.0, 9.0, 10.5, 9.5];
        let b = [5.0, 6.0, 4.0, 5.5, 4.5];
        let d = difference(&a, &b).unwrap();
        assert_eq!(d.mean, 5.0);
        assert_eq!(d.sign(), std::cmp::Ordering::Greater);
        assert_eq!(difference(&a, &a).unwrap().sign(), std::cmp::Ordering::Equal);
        assert!(difference(&a, &[1.0]).is_none());
    }

    #[test]
    fn wilson_stays_inside_zero_and_a_hundred() {
        let all = wilson_pct(10, 10).unwrap();
        assert_eq!(all.mean, 100.0);
        assert!(all.hi <= 100.0 && all.lo > 69.0 && all.lo < 73.0, "{all:?}");
        let none = wilson_pct(0, 10).unwrap();
        assert_eq!(none.lo, 0.0);
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median(&v), 2.5);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 4.0);
        assert_eq!(quantile(&v, 1.0 / 3.0), 2.0);
        assert_eq!(spread95(&[5.0]), (5.0, 5.0));
    }

    #[test]
    fn chance_overlap_is_the_hypergeometric_tail() {
        // 10 items, lists of 3 and 4: P(overlap >= 0) = 1, expected 1.2;
        // P(overlap = 3) = C(3,3) C(7,1) / C(10,4) = 7 / 210.
        let (e, p) = chance_overlap(10, 3, 4, 0);
        assert!((e - 1.2).abs() < 1e-12 && (p - 1.0).abs() < 1e-12);
        let (_, p3) = chance_overlap(10, 3, 4, 3);
        assert!((p3 - 7.0 / 210.0).abs() < 1e-12, "{p3}");
        // An overlap larger than either list is impossible.
        assert_eq!(chance_overlap(10, 3, 4, 4).1, 0.0);
    }
}
