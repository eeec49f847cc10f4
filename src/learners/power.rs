//! The power of the declared design, from a pilot: each primary's paired standard deviation in
//! the pilot run (`experiments/learners_pilot.csv`, the 5-replicate run of the earlier design,
//! tested on 125 or 136 positions), and the minimal detectable difference (MDD) the declared
//! draws give it.
//!
//! For a paired t-test over `k` draws with paired SD `s`, two-sided at level `a` and power `1 − β`,
//! MDD = (t(1 − a/2, k − 1) + t(1 − β, k − 1)) · s / √k. Holm's most stringent level is α/m over a
//! family of m primaries: the first primary Holm tests is tested there, the others at least as
//! leniently, so the MDD at α/m bounds every primary's. For equivalence (TOST, each one-sided test
//! at α/m), the smallest margin shown with the same power when the true difference is 0 is
//! (t(1 − α/m, k − 1) + t(1 − β/2, k − 1)) · s / √k.

use super::design::{Design, Measure, Primary, paper_size};
use crate::error::{Error, Result};
use crate::stats::compare::{ln_gamma, t_quantile};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One row of the pilot's CSV.
#[derive(Clone, Debug, Deserialize)]
struct PilotRow {
    measure: Measure,
    learner: String,
    inputs: String,
    side: crate::dataset::Side,
    replicate: usize,
    value: f64,
}

/// The pilot's values per arm and replicate.
pub struct Pilot {
    rows: Vec<PilotRow>,
}

impl Pilot {
    pub fn load(path: &Path) -> Result<Pilot> {
        let text = crate::io::read_config(path)?;
        let bad = |e: csv::Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
        let rows = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<std::result::Result<Vec<PilotRow>, _>>()
            .map_err(bad)?;
        Ok(Pilot { rows })
    }

    /// An arm's values in replicate order.
    fn values(&self, p: &Primary, learner: &str) -> Vec<(usize, f64)> {
        let mut v: Vec<(usize, f64)> = self
            .rows
            .iter()
            .filter(|r| r.measure == p.measure && r.learner == learner && r.side == p.side)
            .filter(|r| p.measure == Measure::ExactBytes || r.inputs == "x1..x32")
            .map(|r| (r.replicate, r.value))
            .collect();
        v.sort_by_key(|x| x.0);
        v
    }

    /// The primary's paired differences a − b in the pilot, by replicate.
    pub fn differences(&self, p: &Primary) -> Result<Vec<f64>> {
        let (a, b) = (self.values(p, &p.a), self.values(p, &p.b));
        if a.len() < 2 || a.iter().map(|x| x.0).ne(b.iter().map(|x| x.0)) {
            return Err(Error::Data(format!(
                "the pilot has no paired replicates of {} and {} on {}",
                p.a, p.b, p.side
            )));
        }
        Ok(a.iter().zip(&b).map(|(x, y)| x.1 - y.1).collect())
    }
}

/// The minimal detectable difference of a paired t over `k` units with paired SD `sd`, two-sided
/// at `level` (the test's α), with power `power`.
pub fn mdd(sd: f64, k: usize, level: f64, power: f64) -> f64 {
    let df = (k - 1) as f64;
    (t_quantile(1.0 - level / 2.0, df) + t_quantile(power, df)) * sd / (k as f64).sqrt()
}

/// The smallest equivalence margin TOST (each side at `level`) shows with `power` when the true
/// difference is 0.
pub fn smallest_margin(sd: f64, k: usize, level: f64, power: f64) -> f64 {
    let df = (k - 1) as f64;
    (t_quantile(1.0 - level, df) + t_quantile(1.0 - (1.0 - power) / 2.0, df)) * sd / (k as f64).sqrt()
}

/// Φ(x), the standard normal distribution function, from erfc (Numerical Recipes' Chebyshev
/// fit, relative error below 1.2 · 10⁻⁷).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - 0.5 * erfc } else { 0.5 * erfc }
}

/// The power of a paired t over `k` units, two-sided at `level`, when the true difference is
/// `delta` and the paired SD `sd`: from the noncentral t, as the mean over the sample SD's
/// distribution (s/σ = u/√df with u² ~ χ²(df)) of Φ(δ√k/σ − t_c·u/√df) + Φ(−δ√k/σ − t_c·u/√df),
/// integrated over u by Simpson's rule.
pub fn t_power(delta: f64, sd: f64, k: usize, level: f64) -> f64 {
    let df = (k - 1) as f64;
    let tc = t_quantile(1.0 - level / 2.0, df);
    let nc = delta / sd * (k as f64).sqrt();
    // The density of u = √V, V ~ χ²(df): 2u · f_χ²(u²).
    let ln_norm = std::f64::consts::LN_2 - (df / 2.0) * std::f64::consts::LN_2 - ln_gamma(df / 2.0);
    let density = |u: f64| if u <= 0.0 { 0.0 } else { (ln_norm + (df - 1.0) * u.ln() - u * u / 2.0).exp() };
    let f = |u: f64| {
        let r = tc * u / df.sqrt();
        density(u) * (normal_cdf(nc - r) + normal_cdf(-nc - r))
    };
    let (top, steps) = (df.sqrt() + 12.0, 8000);
    let h = top / steps as f64;
    let inner: f64 = (1..steps).map(|i| f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
    (f(0.0) + inner + f(top)) * h / 3.0
}

/// The exact minimal detectable difference of a paired t over `k` units with paired SD `sd`,
/// two-sided at `level`, with `power`: the δ at which [`t_power`] reaches it (bisection).
pub fn exact_mdd(sd: f64, k: usize, level: f64, power: f64) -> f64 {
    let mut hi = sd;
    while t_power(hi, sd, k, level) < power && hi < 1e9 * sd {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..80 {
        let mid = (lo + hi) / 2.0;
        if t_power(mid, sd, k, level) < power { lo = mid } else { hi = mid }
    }
    (lo + hi) / 2.0
}

/// A primary's power under the declared design.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrimaryPower {
    pub name: String,
    pub measure: Measure,
    /// Replicates of the pilot and the paired SD there (points or bytes).
    pub pilot_units: usize,
    pub pilot_sd: f64,
    /// Units of the declared design (draws at the paper's size, or hybrid seeds).
    pub units: usize,
    /// The MDD at Holm's most stringent level with the SD the design assumes (accuracy: the
    /// declared `assumed_sd`; bytes: the pilot's) ...
    pub mdd: f64,
    /// ... and with this primary's own pilot SD.
    pub mdd_own: f64,
    /// The smallest equivalence margin shown with the declared power at a true difference of 0
    /// (accuracy primaries).
    pub margin_shown: Option<f64>,
}

/// The design's power, primary by primary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Power {
    /// Primaries in the family (Holm's m) and its most stringent level α/m.
    pub family: usize,
    pub level: f64,
    pub primaries: Vec<PrimaryPower>,
}

/// The MDD of every declared primary from the pilot.
pub fn of(design: &Design, pilot: &Pilot) -> Result<Power> {
    let m = design.primaries.len();
    let level = design.alpha / m as f64;
    let primaries = design
        .primaries
        .iter()
        .map(|p| {
            let d = pilot.differences(p)?;
            let sd = crate::stats::std_dev(&d);
            let (units, assumed) = match p.measure {
                Measure::TestPct | Measure::TrainPct => (design.paper_draws, design.assumed_sd),
                Measure::ExactBytes => (design.hybrid_seeds, sd),
            };
            Ok(PrimaryPower {
                name: p.name.clone(),
                measure: p.measure,
                pilot_units: d.len(),
                pilot_sd: sd,
                units,
                mdd: mdd(assumed, units, level, design.power),
                mdd_own: mdd(sd, units, level, design.power),
                margin_shown: (p.measure == Measure::TestPct)
                    .then(|| smallest_margin(assumed, units, level, design.power)),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Power { family: m, level, primaries })
}

impl Power {
    /// The design's check: every accuracy primary's MDD within `max_mdd`, and the assumed SD at
    /// least every accuracy primary's pilot SD.
    pub fn check(&self, design: &Design) -> Result<()> {
        for p in self.primaries.iter().filter(|p| p.measure == Measure::TestPct) {
            if p.mdd > design.max_mdd || p.pilot_sd > design.assumed_sd {
                return Err(Error::config(
                    "paper_draws",
                    format!(
                        "{}: pilot SD {:.2}, MDD {:.2} points with {} draws; the design asks SD ≤ assumed_sd {:.2} and MDD ≤ {:.2}",
                        p.name, p.pilot_sd, p.mdd, p.units, design.assumed_sd, design.max_mdd
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The power table as `kpk learners --power` prints it.
pub fn table(design: &Design, power: &Power) -> String {
    let mut out = format!(
        "family of {} primaries, Holm's most stringent level {:.5} (two-sided), power {:.0}%; accuracy primaries at the paper's size (wtm {}, btm {}), {} draws, assumed SD {:.2} points\n",
        power.family,
        power.level,
        100.0 * design.power,
        paper_size(crate::dataset::Side::Wtm),
        paper_size(crate::dataset::Side::Btm),
        design.paper_draws,
        design.assumed_sd
    );
    out.push_str(&format!(
        "{:<34}{:>8}{:>10}{:>8}{:>10}{:>10}{:>12}\n",
        "primary", "pilot", "pilot SD", "units", "MDD", "MDD own", "TOST margin"
    ));
    for p in &power.primaries {
        let margin = p.margin_shown.map_or_else(|| "–".to_string(), |m| format!("{m:.2}"));
        out.push_str(&format!(
            "{:<34}{:>8}{:>10.2}{:>8}{:>10.2}{:>10.2}{:>12}\n",
            p.name, p.pilot_units, p.pilot_sd, p.units, p.mdd, p.mdd_own, margin
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mdd_follows_the_normal_formula_for_many_units() {
        // z(1 − 0.05/2) + z(0.8) = 1.960 + 0.842 = 2.802; t differs by under 0.2% at 10⁵ units.
        let k = 100_000;
        let want = 2.8016 * 3.0 / (k as f64).sqrt();
        assert!((mdd(3.0, k, 0.05, 0.8) - want).abs() < 0.002 * want);
        assert!(mdd(3.0, 10, 0.05, 0.8) > mdd(3.0, 40, 0.05, 0.8));
        assert!(smallest_margin(3.0, 200, 0.05, 0.8) > 0.0);
    }

    #[test]
    fn the_exact_mdd_gives_its_power_and_exceeds_the_two_quantile_one_at_few_units() {
        // Five units at 0.05/11: the two-quantile formula gives 173.7 B for an SD of 58.09 B; the
        // noncentral t needs 187.9 B for 80% power (a simulation of 400,000 samples agrees).
        let exact = exact_mdd(58.086_142_925_830_42, 5, 0.05 / 11.0, 0.8);
        assert!((exact - 187.89).abs() < 0.05, "{exact}");
        assert!((mdd(58.086_142_925_830_42, 5, 0.05 / 11.0, 0.8) - 173.72).abs() < 0.01);
        assert!((t_power(exact, 58.086_142_925_830_42, 5, 0.05 / 11.0) - 0.8).abs() < 1e-6);
        // With many units the two agree; with no difference the power is the level.
        assert!((exact_mdd(3.0, 200, 0.05, 0.8) - mdd(3.0, 200, 0.05, 0.8)).abs() < 0.002);
        assert!((t_power(0.0, 1.0, 30, 0.05) - 0.05).abs() < 1e-4);
    }
}
