//! The net's passes over a batch of positions as matrix products (ndarray's matrixmultiply
//! kernels), for minibatch training: Z = A·Wᵀ forward, G = Δᵀ·A and Δ' = (Δ·W) ∘ f′ backward.
//! The kernels are chosen by the CPU, so batch results are bit-identical on one machine but may
//! differ in the last bits across CPUs; the online passes (`net/backprop.rs`) have no such
//! dependency.

use super::mlp::{Mlp, sigmoid};
use super::simd::{prefetch, vectorised};
use ndarray::{Array2, s};

/// Preallocated activations and deltas for batches of up to `rows` positions.
#[derive(Clone, Debug)]
pub struct BatchWorkspace {
    /// `acts[l]`: (rows, width_l + 1), column 0 the constant 1 (section 3, x0 = 1).
    acts: Vec<Array2<f64>>,
    /// `deltas[l]`: (rows, topology[l + 1]), ∂L/∂z of the neurons weight layer l feeds.
    deltas: Vec<Array2<f64>>,
}

impl BatchWorkspace {
    /// Buffers for batches of up to `rows` positions through nets of `net`'s topology.
    pub fn new(net: &Mlp, rows: usize) -> BatchWorkspace {
        let acts = (0..net.topology().len())
            .map(|l| {
                let mut a = Array2::zeros((rows, net.act_width(l)));
                a.column_mut(0).fill(1.0);
                a
            })
            .collect();
        let deltas = net.topology()[1..].iter().map(|&n| Array2::zeros((rows, n))).collect();
        BatchWorkspace { acts, deltas }
    }
}

impl Mlp {
    /// The gradient of the batch-mean squared error (1/b)·Σ ½(y − d)² over the positions `batch`
    /// (indices into `rows`, `n_inputs()` values each, and `targets`, `n_outputs()` each) into
    /// `grads` (shaped like [`Mlp::layers`]). `ws` must hold at least `batch.len()` rows.
    pub fn batch_gradient(
        &self,
        ws: &mut BatchWorkspace,
        rows: &[f64],
        targets: &[f64],
        batch: &[u32],
        grads: &mut [Array2<f64>],
    ) {
        let b = batch.len();
        let width = self.n_inputs();
        let o = self.n_outputs();
        let slope = self.slope;
        let n_layers = self.layers.len();
        for (r, &i) in batch.iter().enumerate() {
            if let Some(&ahead) = batch.get(r + 8) {
                prefetch(&rows[ahead as usize * width..(ahead as usize + 1) * width]);
            }
            let i = i as usize;
            let x = &rows[i * width..(i + 1) * width];
            ws.acts[0].row_mut(r).as_slice_mut().expect("standard layout")[1..].copy_from_slice(x);
            if self.skip {
                // Skip-layer connections: the inputs also end the row the output layer reads.
                let mut below_top = ws.acts[n_layers - 1].row_mut(r);
                let row = below_top.as_slice_mut().expect("standard layout");
                let n = row.len();
                row[n - width..].copy_from_slice(x);
            }
        }
        // Forward: Z = A_ext · Wᵀ, A' = f(Z).
        for l in 0..n_layers {
            let (below, above) = ws.acts.split_at_mut(l + 1);
            let a_in = below[l].slice(s![..b, ..]);
            let mut z = above[0].slice_mut(s![..b, 1..=self.topology[l + 1]]);
            ndarray::linalg::general_mat_mul(1.0, &a_in, &self.layers[l].t(), 0.0, &mut z);
            // Row by row over contiguous slices, so the sigmoids vectorise.
            vectorised(
                #[inline(always)]
                || {
                    for mut row in z.rows_mut() {
                        for y in row.as_slice_mut().expect("rows of a standard-layout array are contiguous") {
                            *y = sigmoid(*y, slope);
                        }
                    }
                },
            );
        }
        // Output deltas of the batch-mean loss (1/b)·Σ ½(y − d)².
        let inv_b = 1.0 / b as f64;
        let top = n_layers - 1;
        {
            let y = ws.acts[top + 1].slice(s![..b, 1..]);
            let mut delta = ws.deltas[top].slice_mut(s![..b, ..]);
            for (r, &i) in batch.iter().enumerate() {
                let d = &targets[i as usize * o..(i as usize + 1) * o];
                for k in 0..o {
                    let y = y[(r, k)];
                    delta[(r, k)] = (y - d[k]) * slope * y * (1.0 - y) * inv_b;
                }
            }
        }
        // Backward: G_l = Δ_lᵀ · A_l,ext; Δ_{l−1} = (Δ_l · W_l[:, 1..]) ∘ f′.
        for l in (0..n_layers).rev() {
            let (lower, at) = ws.deltas.split_at_mut(l);
            let delta = at[0].slice(s![..b, ..]);
            ndarray::linalg::general_mat_mul(
                1.0,
                &delta.t(),
                &ws.acts[l].slice(s![..b, ..]),
                0.0,
                &mut grads[l],
            );
            if l > 0 {
                let mut down = lower[l - 1].slice_mut(s![..b, ..]);
                ndarray::linalg::general_mat_mul(
                    1.0,
                    &delta,
                    &self.layers[l].slice(s![.., 1..=self.topology[l]]),
                    0.0,
                    &mut down,
                );
                let a = ws.acts[l].slice(s![..b, 1..=self.topology[l]]);
                ndarray::Zip::from(&mut down).and(&a).for_each(|d, &a| *d *= slope * a * (1.0 - a));
            }
        }
    }
}
