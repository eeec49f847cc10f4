//! Summaries of replicated runs for the reproduction report: means with 95% intervals, quantiles, the
//! chance overlap of two lists of positions (the studies use `report::stats`; one owner is to come).

/// The arithmetic mean (NaN for no values).
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The sample standard deviation (n − 1 in the denominator; 0 for fewer than two values).
pub fn std_dev(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let m = mean(values);
    (values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (values.len() - 1) as f64).sqrt()
}

/// Student's t quantile t(0.975; df), two-sided 95%: exact to three decimals for df ≤ 30 (the
/// standard table), then the Cornish–Fisher expansion around the normal 1.959964, which is within
/// 0.001 of the exact value from df = 30 on.
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let (z, n) = (1.959_964_f64, df as f64);
            z + (z.powi(3) + z) / (4.0 * n) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// A mean with its two-sided 95% confidence interval (Student's t over the values, taken as
/// independent draws), and the values' count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    pub n: usize,
}

impl Interval {
    /// The interval of the mean of `values`; `None` for no values. One value gives a zero-width
    /// interval at it (there is no spread to estimate).
    pub fn of_mean(values: &[f64]) -> Option<Interval> {
        if values.is_empty() {
            return None;
        }
        let m = mean(values);
        let half = if values.len() < 2 {
            0.0
        } else {
            t975(values.len() - 1) * std_dev(values) / (values.len() as f64).sqrt()
        };
        Some(Interval { mean: m, lo: m - half, hi: m + half, n: values.len() })
    }

    /// Whether `v` lies in [lo, hi].
    pub fn contains(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }
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
    fn mean_interval_matches_a_hand_computation() {
        // 1..=5: mean 3, s = sqrt(2.5), t(0.975; 4) = 2.776, half-width 2.776 * 1.5811 / 2.2361.
        let i = Interval::of_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(i.mean, 3.0);
        assert!((i.hi - 3.0 - 1.963_0).abs() < 1e-3, "{i:?}");
        assert!((3.0 - i.lo - 1.963_0).abs() < 1e-3, "{i:?}");
        assert!(i.contains(1.1) && !i.contains(0.9));
        assert_eq!(Interval::of_mean(&[7.0]).unwrap(), Interval { mean: 7.0, lo: 7.0, hi: 7.0, n: 1 });
        assert!(Interval::of_mean(&[]).is_none());
    }

    #[test]
    fn t_quantiles_join_the_table_and_approach_the_normal() {
        // Exact values: t(0.975; 40) = 2.021, t(0.975; 49) = 2.010, t(0.975; 120) = 1.980.
        assert!((t975(40) - 2.021).abs() < 1e-3);
        assert!((t975(49) - 2.010).abs() < 1e-3);
        assert!((t975(120) - 1.980).abs() < 1e-3);
        assert!((t975(31) - 2.040).abs() < 1e-3);
        for df in 1..200 {
            assert!(t975(df) > t975(df + 1) && t975(df + 1) > 1.959_96, "df {df}");
        }
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
