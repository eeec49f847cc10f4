//! `logistic`: logistic regression, the 1-level net (section 3's net with no hidden layer).
//!
//! Fitted by Newton's method (iteratively reweighted least squares) with an L2 penalty λ on the
//! weights (not the bias): no step size, no initial weights, no presentation order, so the fit is
//! deterministic and reaches the penalised optimum. Each characteristic is scaled by its legal
//! range to [0, 1] first (x13, constant, to 0) so that the Newton system is well conditioned.
//!
//! # Encoding
//!
//! The bias and one weight per column of the input set, each an IEEE single (32 bits); a
//! position is a win when `bias + Σ w·x_scaled > 0`, evaluated from the single-rounded weights.

use super::{InputSet, Learner, Model, Row, Samples, value_range};
use crate::error::{Error, Result};

/// Logistic regression's settings (ours).
#[derive(Clone, Copy, Debug)]
pub struct Logistic {
    /// L2 penalty on the weights, in units of the summed log loss.
    pub lambda: f64,
    /// Newton steps at most.
    pub max_steps: usize,
}

impl Default for Logistic {
    fn default() -> Logistic {
        Logistic { lambda: 1.0, max_steps: 50 }
    }
}

/// Column `c`'s value scaled by its legal range to [0, 1].
fn scaled(x: &Row, c: usize) -> f64 {
    let (lo, size) = value_range(c);
    if size < 2 { 0.0 } else { f64::from(x[c] - lo) / (size - 1) as f64 }
}

/// A fitted 1-level net: bias first, then one weight per column of its input set.
#[derive(Clone, Debug)]
pub struct LogisticModel {
    pub inputs: InputSet,
    pub weights: Vec<f64>,
    pub steps: usize,
}

impl LogisticModel {
    /// `bias + Σ w·x_scaled`.
    pub fn logit(&self, x: &Row) -> f64 {
        self.weights[0]
            + self.inputs.cols().zip(&self.weights[1..]).map(|(c, w)| w * scaled(x, c)).sum::<f64>()
    }

    /// The same linear function on natural (unscaled) inputs: (bias, one weight per column).
    pub fn natural_weights(&self) -> (f64, Vec<f64>) {
        let mut bias = self.weights[0];
        let w = self
            .inputs
            .cols()
            .zip(&self.weights[1..])
            .map(|(c, w)| {
                let (lo, size) = value_range(c);
                if size < 2 {
                    return 0.0;
                }
                let k = w / (size - 1) as f64;
                bias -= k * f64::from(lo);
                k
            })
            .collect();
        (bias, w)
    }
}

impl Model for LogisticModel {
    fn predict(&self, x: &Row) -> bool {
        self.logit(x) > 0.0
    }
    fn win_probability(&self, x: &Row) -> Option<f64> {
        Some(1.0 / (1.0 + (-self.logit(x)).exp()))
    }
    fn model_bits(&self) -> u64 {
        32 * self.weights.len() as u64
    }
    fn passes(&self) -> u64 {
        self.steps as u64
    }
}

/// Solve `a · x = b` for a symmetric positive definite `a` (n × n, row-major) by Cholesky.
fn solve_spd(mut a: Vec<f64>, mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let d = a[j * n + j] - (0..j).map(|k| a[j * n + k] * a[j * n + k]).sum::<f64>();
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let s = a[i * n + j] - (0..j).map(|k| a[i * n + k] * a[j * n + k]).sum::<f64>();
            a[i * n + j] = s / d;
        }
    }
    for i in 0..n {
        b[i] = (b[i] - (0..i).map(|k| a[i * n + k] * b[k]).sum::<f64>()) / a[i * n + i];
    }
    for i in (0..n).rev() {
        b[i] = (b[i] - (i + 1..n).map(|k| a[k * n + i] * b[k]).sum::<f64>()) / a[i * n + i];
    }
    Some(b)
}

impl Logistic {
    /// Fit by Newton's method; the weights as fitted (not yet single-rounded).
    pub fn fit_weights(&self, data: &Samples, inputs: InputSet) -> Result<(Vec<f64>, usize)> {
        let k = inputs.cols().len() + 1;
        let feats: Vec<Vec<f64>> = data
            .rows
            .iter()
            .map(|x| std::iter::once(1.0).chain(inputs.cols().map(|c| scaled(x, c))).collect())
            .collect();
        let mut w = vec![0.0; k];
        let mut steps = 0;
        while steps < self.max_steps {
            steps += 1;
            let mut h = vec![0.0; k * k];
            let mut g = vec![0.0; k];
            for (f, &win) in feats.iter().zip(&data.wins) {
                let z: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
                let p = 1.0 / (1.0 + (-z).exp());
                let r = p - f64::from(u8::from(win));
                let s = (p * (1.0 - p)).max(1e-12);
                for i in 0..k {
                    g[i] += r * f[i];
                    for j in 0..=i {
                        h[i * k + j] += s * f[i] * f[j];
                    }
                }
            }
            for i in 0..k {
                for j in 0..i {
                    h[j * k + i] = h[i * k + j];
                }
                if i > 0 {
                    h[i * k + i] += self.lambda;
                    g[i] += self.lambda * w[i];
                }
            }
            h[0] += 1e-9;
            let step = solve_spd(h, g, k).ok_or_else(|| {
                Error::Internal("logistic regression: the Newton system is singular".into())
            })?;
            let biggest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            for (wi, s) in w.iter_mut().zip(&step) {
                *wi -= s;
            }
            if biggest < 1e-9 {
                break;
            }
        }
        Ok((w, steps))
    }
}

impl Learner for Logistic {
    fn name(&self) -> &'static str {
        "logistic"
    }
    fn fit(&self, data: &Samples, inputs: InputSet, _seed: u64) -> Result<Box<dyn Model>> {
        let (w, steps) = self.fit_weights(data, inputs)?;
        let weights = w.iter().map(|&v| f64::from(v as f32)).collect();
        Ok(Box::new(LogisticModel { inputs, weights, steps }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cholesky_solve_solves() {
        let a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve_spd(a, vec![2.0, 1.0], 2).unwrap();
        assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-12);
        assert!((2.0 * x[0] + 3.0 * x[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_linear_boundary_is_learned_and_read_back_on_natural_inputs() {
        let rows = crate::learners::grid_rows();
        let wins: Vec<bool> = rows.iter().map(|r| r[0] + 2 * r[1] > 12).collect();
        let data = Samples { rows: rows.clone(), wins, dtc: vec![None; 64] };
        let l = Logistic { lambda: 0.01, ..Logistic::default() };
        let (w, _) = l.fit_weights(&data, InputSet::Coordinates).unwrap();
        let m = LogisticModel { inputs: InputSet::Coordinates, weights: w, steps: 0 };
        assert!(data.accuracy_pct(&m) > 98.0);
        let (b, nat) = m.natural_weights();
        for r in &rows {
            let z = b + (0..6).map(|c| nat[c] * f64::from(r[c])).sum::<f64>();
            assert!((z - m.logit(r)).abs() < 1e-9);
        }
    }
}
