//! Backpropagation on one position (section 3; Rich and Knight's procedure): the gradient of the
//! squared error L = ½·Σ_k (y_k − d_k)², and the online update the paper trains with (section 4.5),
//! fused into one backward pass. Allocates nothing.

use super::kernels::axpy;
use super::mlp::{Mlp, Workspace};
use super::simd::vectorised;
use ndarray::Array2;

impl Mlp {
    /// Gradient of the squared error L = ½·Σ_k (y_k − d_k)² for one position with respect to every
    /// weight, added into `grads` (one array per layer, shaped like [`Mlp::layers`]). Returns L.
    /// Runs the same backward pass as online training; the tests check it against finite
    /// differences.
    pub fn accumulate_gradient(
        &mut self,
        ws: &mut Workspace,
        input: &[f64],
        target: &[f64],
        grads: &mut [Array2<f64>],
    ) -> f64 {
        let loss = self.forward_and_loss(ws, input, target);
        let mut apply = Accumulate { grads };
        self.backward(ws, &mut apply);
        loss
    }

    /// One step of online backpropagation (section 4.5: "adjust the NN's weights w such that the
    /// output y_i would have been closer to d_i") on the squared error of one position: every
    /// weight moves by −η·∂L/∂w, or with momentum μ, v ← μ·v − η·∂L/∂w and w ← w + v, the velocity
    /// `v` living in `velocity` (shaped like the layers). Allocates nothing.
    pub fn sgd_step(
        &mut self,
        ws: &mut Workspace,
        input: &[f64],
        target: &[f64],
        learning_rate: f64,
        momentum: Option<(f64, &mut [Array2<f64>])>,
    ) {
        vectorised(
            #[inline(always)]
            || self.sgd_step_in(ws, input, target, learning_rate, momentum),
        )
    }

    /// [`Mlp::sgd_step`] itself, for callers already inside [`vectorised`].
    #[inline(always)]
    pub(super) fn sgd_step_in(
        &mut self,
        ws: &mut Workspace,
        input: &[f64],
        target: &[f64],
        learning_rate: f64,
        momentum: Option<(f64, &mut [Array2<f64>])>,
    ) {
        self.forward_and_loss(ws, input, target);
        match momentum {
            None => self.backward(ws, &mut Sgd { learning_rate }),
            Some((momentum, velocity)) => {
                self.backward(ws, &mut Momentum { learning_rate, momentum, velocity })
            }
        }
    }

    /// Forward pass, then the output deltas ∂L/∂z = (y − d)·b·y·(1 − y) into the workspace.
    #[inline(always)]
    fn forward_and_loss(&self, ws: &mut Workspace, input: &[f64], target: &[f64]) -> f64 {
        assert_eq!(input.len(), self.n_inputs(), "input width");
        assert_eq!(target.len(), self.n_outputs(), "target width");
        assert_eq!(ws.acts.len(), self.topology.len(), "workspace topology");
        self.forward_in(ws, input);
        let top = self.layers.len() - 1;
        let y = &ws.acts[top + 1][1..];
        let mut loss = 0.0;
        for ((delta, &y), &d) in ws.deltas[top].iter_mut().zip(y).zip(target) {
            let e = y - d;
            loss += 0.5 * e * e;
            *delta = e * self.slope * y * (1.0 - y);
        }
        loss
    }

    /// The backward pass, fused with the weight update: for each layer from the top, each row's
    /// delta is first propagated down through the row's *old* weights, and only then is the row
    /// handed to `apply` (gradient of row j = δ_j times the layer's input with its leading 1).
    #[inline(always)]
    fn backward<A: ApplyRow>(&mut self, ws: &mut Workspace, apply: &mut A) {
        let b = self.slope;
        for l in (0..self.layers.len()).rev() {
            let a_in = &ws.acts[l];
            let width = a_in.len();
            let rows = super::values_mut(&mut self.layers[l]);
            let (below, at) = ws.deltas.split_at_mut(l);
            let delta = &at[0];
            if l == 0 {
                // No layer below the inputs: nothing to propagate.
                for (j, (row, &d)) in rows.chunks_exact_mut(width).zip(delta).enumerate() {
                    apply.row(l, j, row, d, a_in);
                }
            } else {
                let down = &mut below[l - 1];
                down.fill(0.0);
                for (j, (row, &d)) in rows.chunks_exact_mut(width).zip(delta).enumerate() {
                    axpy(down, d, &row[1..]);
                    apply.row(l, j, row, d, a_in);
                }
                for (dd, &a) in down.iter_mut().zip(&a_in[1..]) {
                    *dd *= b * a * (1.0 - a);
                }
            }
        }
    }
}

/// What the backward pass does with each weight row's gradient δ_j·a.
trait ApplyRow {
    fn row(&mut self, layer: usize, j: usize, row: &mut [f64], delta: f64, a: &[f64]);
}

struct Accumulate<'g> {
    grads: &'g mut [Array2<f64>],
}

impl ApplyRow for Accumulate<'_> {
    #[inline(always)]
    fn row(&mut self, layer: usize, j: usize, _row: &mut [f64], delta: f64, a: &[f64]) {
        let g = super::values_mut(&mut self.grads[layer]);
        axpy(&mut g[j * a.len()..(j + 1) * a.len()], delta, a);
    }
}

struct Sgd {
    learning_rate: f64,
}

impl ApplyRow for Sgd {
    #[inline(always)]
    fn row(&mut self, _layer: usize, _j: usize, row: &mut [f64], delta: f64, a: &[f64]) {
        axpy(row, -self.learning_rate * delta, a);
    }
}

struct Momentum<'v> {
    learning_rate: f64,
    momentum: f64,
    velocity: &'v mut [Array2<f64>],
}

impl ApplyRow for Momentum<'_> {
    #[inline(always)]
    fn row(&mut self, layer: usize, j: usize, row: &mut [f64], delta: f64, a: &[f64]) {
        let v = super::values_mut(&mut self.velocity[layer]);
        let v = &mut v[j * a.len()..(j + 1) * a.len()];
        let step = -self.learning_rate * delta;
        let mu = self.momentum;
        for ((w, v), &a) in row.iter_mut().zip(v.iter_mut()).zip(a) {
            *v = mu * *v + step * a;
            *w += *v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_avx2_build_equals_the_generic_build_bit_for_bit() {
        let net = Mlp::new(&[32, 64, 20, 2], 1.0, 5).unwrap();
        let x: Vec<f64> = (0..32).map(|i| (i % 9) as f64 - 3.0).collect();
        let (mut a, mut b) = (net.clone(), net.clone());
        let (mut wa, mut wb) = (Workspace::new(&net), Workspace::new(&net));
        for step in 0..50 {
            let d = [(step % 2) as f64, 1.0 - (step % 2) as f64];
            a.sgd_step(&mut wa, &x, &d, 0.3, None);
            b.sgd_step_in(&mut wb, &x, &d, 0.3, None);
        }
        assert_eq!(a, b);
        b.forward_in(&mut wb, &x);
        assert_eq!(a.forward_with(&mut wa, &x), &wb.acts[3][1..]);
    }
}
