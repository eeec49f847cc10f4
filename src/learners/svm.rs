//! `svm`: a support vector machine (Cortes and Vapnik 1995) with the Gaussian kernel
//! `K(x, z) = exp(−γ‖x − z‖²)` on the characteristics scaled by their legal ranges to [0, 1]
//! ([`super::knn::unit_scaled`]).
//!
//! The dual, `min ½ αᵀQα − Σα` with `Q_ij = y_i y_j K(x_i, x_j)`, `0 ≤ α ≤ C`, `Σ y_i α_i = 0`
//! (y = +1 for a win, −1 for a draw), is solved by sequential minimal optimisation with LIBSVM's
//! second-order choice of the working pair (Fan, Chen and Lin 2005) to its stopping tolerance
//! 10⁻³, and the bias from the free multipliers as LIBSVM takes it; so the fit is what
//! scikit-learn's `SVC` computes. γ is scikit-learn's "scale": 1 / (columns · the variance of
//! every scaled training value). A position is a win when `Σ y_i α_i K(x_i, x) − ρ > 0`, from
//! the coefficients rounded to IEEE singles as stored. Deterministic: no seed.
//!
//! # Encoding
//!
//! γ and ρ as singles, then each support vector (α > 0): its columns as [`super::knn`] stores a
//! position and its coefficient `y α` as a single.

use super::knn::{scaled_rows, unit_scaled};
use super::{InputSet, Learner, Model, Row, Samples, bits_for, value_range};
use crate::error::Result;

/// LIBSVM's stopping tolerance on the maximal violating pair, and its τ for a flat pair.
const EPS: f64 = 1e-3;
const TAU: f64 = 1e-12;

/// The SVM's settings (scikit-learn's default C: 1).
#[derive(Clone, Copy, Debug)]
pub struct Svm {
    pub c: f64,
}

impl Default for Svm {
    fn default() -> Svm {
        Svm { c: 1.0 }
    }
}

/// The support vectors, their coefficients `y α` and the bias.
pub struct SvmModel {
    inputs: InputSet,
    gamma: f64,
    rho: f64,
    vectors: Vec<(Vec<f64>, f64)>,
    steps: u64,
}

impl SvmModel {
    /// `Σ y_i α_i K(x_i, x) − ρ`.
    pub fn decision(&self, x: &Row) -> f64 {
        let q: Vec<f64> = self.inputs.cols().map(|c| unit_scaled(x, c)).collect();
        self.vectors.iter().map(|(v, a)| a * kernel(self.gamma, v, &q)).sum::<f64>() - self.rho
    }
}

fn kernel(gamma: f64, a: &[f64], b: &[f64]) -> f64 {
    (-gamma * a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>()).exp()
}

impl Model for SvmModel {
    fn predict(&self, x: &Row) -> bool {
        self.decision(x) > 0.0
    }
    fn model_bits(&self) -> u64 {
        let row: u64 = self.inputs.cols().map(|c| bits_for(value_range(c).1)).sum();
        64 + self.vectors.len() as u64 * (row + 32)
    }
    fn passes(&self) -> u64 {
        self.steps
    }
}

/// The solved dual: multipliers, ρ and the steps taken.
struct Dual {
    alpha: Vec<f64>,
    rho: f64,
    steps: u64,
}

/// LIBSVM's SMO on the kernel matrix `k` with labels `y` (±1) and cost `c`.
fn solve(k: &[Vec<f64>], y: &[f64], c: f64) -> Dual {
    let n = y.len();
    let mut alpha = vec![0.0; n];
    let mut g = vec![-1.0; n];
    let q = |i: usize, j: usize| y[i] * y[j] * k[i][j];
    let up = |a: &[f64], t: usize| (y[t] > 0.0 && a[t] < c) || (y[t] < 0.0 && a[t] > 0.0);
    let low = |a: &[f64], t: usize| (y[t] > 0.0 && a[t] > 0.0) || (y[t] < 0.0 && a[t] < c);
    let mut steps = 0u64;
    let max_steps = (100 * n).max(10_000_000) as u64;
    while steps < max_steps {
        // i: the most violating index of I_up; j: the second-order choice in I_low.
        let Some(i) =
            (0..n).filter(|&t| up(&alpha, t)).max_by(|&a, &b| (-y[a] * g[a]).total_cmp(&(-y[b] * g[b])))
        else {
            break;
        };
        let gmax = -y[i] * g[i];
        let (mut gmax2, mut best, mut j) = (f64::NEG_INFINITY, f64::INFINITY, None);
        for t in (0..n).filter(|&t| low(&alpha, t)) {
            gmax2 = gmax2.max(y[t] * g[t]);
            let b = gmax + y[t] * g[t];
            if b > 0.0 {
                let a = k[i][i] + k[t][t] - 2.0 * k[i][t];
                let obj = -b * b / if a > 0.0 { a } else { TAU };
                if obj <= best {
                    (best, j) = (obj, Some(t));
                }
            }
        }
        let Some(j) = j.filter(|_| gmax + gmax2 >= EPS) else { break };
        let (old_i, old_j) = (alpha[i], alpha[j]);
        update_pair(&mut alpha, (i, j), y, &g, k, c);
        let (di, dj) = (alpha[i] - old_i, alpha[j] - old_j);
        for (t, gt) in g.iter_mut().enumerate() {
            *gt += q(i, t) * di + q(j, t) * dj;
        }
        steps += 1;
    }
    Dual { rho: rho(&alpha, y, &g, c), alpha, steps }
}

/// LIBSVM's analytic step on the pair (i, j), clipped to the box [0, c].
fn update_pair(alpha: &mut [f64], (i, j): (usize, usize), y: &[f64], g: &[f64], k: &[Vec<f64>], c: f64) {
    let quad = |s: f64| {
        let v = k[i][i] + k[j][j] + s * 2.0 * k[i][j];
        if v > 0.0 { v } else { TAU }
    };
    if y[i] != y[j] {
        let delta = (-g[i] - g[j]) / quad(1.0);
        let diff = alpha[i] - alpha[j];
        alpha[i] += delta;
        alpha[j] += delta;
        if diff > 0.0 && alpha[j] < 0.0 {
            (alpha[j], alpha[i]) = (0.0, diff);
        } else if diff <= 0.0 && alpha[i] < 0.0 {
            (alpha[i], alpha[j]) = (0.0, -diff);
        }
        if diff > 0.0 && alpha[i] > c {
            (alpha[i], alpha[j]) = (c, c - diff);
        } else if diff <= 0.0 && alpha[j] > c {
            (alpha[j], alpha[i]) = (c, c + diff);
        }
    } else {
        let delta = (g[i] - g[j]) / quad(-1.0);
        let sum = alpha[i] + alpha[j];
        alpha[i] -= delta;
        alpha[j] += delta;
        if sum > c && alpha[i] > c {
            (alpha[i], alpha[j]) = (c, sum - c);
        } else if sum <= c && alpha[j] < 0.0 {
            (alpha[j], alpha[i]) = (0.0, sum);
        }
        if sum > c && alpha[j] > c {
            (alpha[j], alpha[i]) = (c, sum - c);
        } else if sum <= c && alpha[i] < 0.0 {
            (alpha[i], alpha[j]) = (0.0, sum);
        }
    }
}

/// LIBSVM's ρ: the mean of `y G` over the free multipliers, else the middle of its bounds.
fn rho(alpha: &[f64], y: &[f64], g: &[f64], c: f64) -> f64 {
    let (mut ub, mut lb, mut free, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0usize, 0.0);
    for t in 0..y.len() {
        let yg = y[t] * g[t];
        if alpha[t] >= c {
            if y[t] < 0.0 { ub = ub.min(yg) } else { lb = lb.max(yg) }
        } else if alpha[t] <= 0.0 {
            if y[t] > 0.0 { ub = ub.min(yg) } else { lb = lb.max(yg) }
        } else {
            free += 1;
            sum += yg;
        }
    }
    if free > 0 { sum / free as f64 } else { (ub + lb) / 2.0 }
}

impl Learner for Svm {
    fn name(&self) -> &'static str {
        "svm"
    }
    fn variant(&self) -> String {
        format!("C {}", self.c)
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        let x = scaled_rows(&data.rows, inputs);
        let all: Vec<f64> = x.iter().flatten().copied().collect();
        let var = crate::stats::std_dev(&all).powi(2) * (all.len() as f64 - 1.0) / all.len().max(1) as f64;
        let gamma = if var > 0.0 { 1.0 / (inputs.cols().len() as f64 * var) } else { 1.0 };
        let k: Vec<Vec<f64>> = x.iter().map(|a| x.iter().map(|b| kernel(gamma, a, b)).collect()).collect();
        let y: Vec<f64> = data.wins.iter().map(|&w| if w { 1.0 } else { -1.0 }).collect();
        let dual = solve(&k, &y, self.c);
        let single = |v: f64| f64::from(v as f32);
        let vectors = (0..y.len())
            .filter(|&t| dual.alpha[t] > 0.0)
            .map(|t| (x[t].clone(), single(y[t] * dual.alpha[t])))
            .collect();
        Ok(Box::new(SvmModel {
            inputs,
            gamma: single(gamma),
            rho: single(dual.rho),
            vectors,
            steps: dual.steps,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_margin_separates_two_files_and_the_dual_stays_in_its_box() {
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] >= 5).collect();
        let data = Samples { rows, wins, dtc: vec![None; 64] };
        let m = Svm { c: 10.0 }.fit(&data, InputSet::Coordinates, 0).unwrap();
        assert_eq!(data.accuracy_pct(m.as_ref()), 100.0);
        // The dual's equality constraint: Σ y α = 0 over the support vectors (to the singles' rounding).
        let x = scaled_rows(&data.rows, InputSet::Coordinates);
        let k: Vec<Vec<f64>> = x.iter().map(|a| x.iter().map(|b| kernel(1.0, a, b)).collect()).collect();
        let y: Vec<f64> = data.wins.iter().map(|&w| if w { 1.0 } else { -1.0 }).collect();
        let dual = solve(&k, &y, 10.0);
        assert!(dual.alpha.iter().all(|&a| (0.0..=10.0).contains(&a)));
        assert!(dual.alpha.iter().zip(&y).map(|(a, y)| a * y).sum::<f64>().abs() < 1e-9);
    }
}
