//! The net's passes over a batch of positions as matrix products (ndarray's matrixmultiply
//! kernels), for minibatch training: Z = A·Wᵀ forward, G = Δᵀ·A and Δ' = (Δ·W) ∘ f′ backward.
//! The kernels are chosen by the CPU, so batch results are bit-identical on one machine but may
//! differ in the last bits across CPUs; the online passes (`net/backprop.rs`) have no such
//! dependency.

use super::mlp::{Mlp, sigmoid};
use super::simd::{prefetch, vectorised};
use ndarray::{Array2, ArrayView2, ArrayViewMut2, Axis, s};

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
        self.batch_gradient_in(ws, rows, targets, batch, grads, false);
    }

    /// [`Mlp::batch_gradient`], with `split` its work in two halves run by `rayon::join` (so on two
    /// threads of the current pool when one is free): the positions' passes by halves of the
    /// batch, each gradient G_l by halves of its rows (or of its columns, for a one-neuron layer).
    /// Every element of every product is still one sum over the same operands in the same order
    /// (matrixmultiply computes each element of C alone, whatever rows and columns it is asked
    /// for), so the result is the same bits either way.
    pub(crate) fn batch_gradient_in(
        &self,
        ws: &mut BatchWorkspace,
        rows: &[f64],
        targets: &[f64],
        batch: &[u32],
        grads: &mut [Array2<f64>],
        split: bool,
    ) {
        let b = batch.len();
        let acts = ws.acts.iter_mut().map(|a| a.slice_mut(s![..b, ..])).collect();
        let deltas = ws.deltas.iter_mut().map(|d| d.slice_mut(s![..b, ..])).collect();
        let pass = Positions { rows, targets, inv_b: 1.0 / b as f64 };
        if split && b >= 2 * MIN_HALF {
            let h = b / 2;
            let (acts, acts_low): (Vec<_>, Vec<_>) = split_rows(acts, h);
            let (deltas, deltas_low): (Vec<_>, Vec<_>) = split_rows(deltas, h);
            rayon::join(
                || self.positions(&pass, acts, deltas, &batch[..h]),
                || self.positions(&pass, acts_low, deltas_low, &batch[h..]),
            );
        } else {
            self.positions(&pass, acts, deltas, batch);
        }
        // G_l = Δ_lᵀ · A_l,ext for every layer, in halves when split.
        let products = (0..self.layers.len()).zip(grads.iter_mut()).map(|(l, g)| Gradient {
            delta: ws.deltas[l].slice(s![..b, ..]),
            acts: ws.acts[l].slice(s![..b, ..]),
            grad: g.view_mut(),
        });
        if split {
            let (first, second): (Vec<_>, Vec<_>) = products.map(Gradient::halves).unzip();
            rayon::join(
                || first.into_iter().for_each(Gradient::compute),
                || second.into_iter().for_each(Gradient::compute),
            );
        } else {
            products.for_each(Gradient::compute);
        }
    }

    /// The forward pass and the deltas of the positions `batch` (rows of `acts` and `deltas` in
    /// the same order): A' = f(A_ext · Wᵀ) layer by layer, the output deltas of the batch-mean
    /// loss, then Δ_{l−1} = (Δ_l · W_l[:, 1..]) ∘ f′ down to the first hidden layer. Each position's
    /// rows depend on that position alone.
    fn positions(
        &self,
        pass: &Positions,
        mut acts: Vec<ArrayViewMut2<f64>>,
        mut deltas: Vec<ArrayViewMut2<f64>>,
        batch: &[u32],
    ) {
        let width = self.n_inputs();
        let o = self.n_outputs();
        let slope = self.slope;
        let n_layers = self.layers.len();
        for (r, &i) in batch.iter().enumerate() {
            if let Some(&ahead) = batch.get(r + 8) {
                prefetch(&pass.rows[ahead as usize * width..(ahead as usize + 1) * width]);
            }
            let i = i as usize;
            let x = &pass.rows[i * width..(i + 1) * width];
            super::values_mut(&mut acts[0].row_mut(r))[1..].copy_from_slice(x);
            if self.skip {
                // Skip-layer connections: the inputs also end the row the output layer reads.
                let mut below_top = acts[n_layers - 1].row_mut(r);
                let row = super::values_mut(&mut below_top);
                let n = row.len();
                row[n - width..].copy_from_slice(x);
            }
        }
        // Forward: Z = A_ext · Wᵀ, A' = f(Z).
        for l in 0..n_layers {
            let (below, above) = acts.split_at_mut(l + 1);
            let mut z = above[0].slice_mut(s![.., 1..=self.topology[l + 1]]);
            ndarray::linalg::general_mat_mul(1.0, &below[l], &self.layers[l].t(), 0.0, &mut z);
            // Row by row over contiguous slices, so the sigmoids vectorise.
            vectorised(
                #[inline(always)]
                || {
                    for mut row in z.rows_mut() {
                        for y in super::values_mut(&mut row) {
                            *y = sigmoid(*y, slope);
                        }
                    }
                },
            );
        }
        // Output deltas of the batch-mean loss (1/b)·Σ ½(y − d)².
        let top = n_layers - 1;
        {
            let y = acts[top + 1].slice(s![.., 1..]);
            let delta = &mut deltas[top];
            for (r, &i) in batch.iter().enumerate() {
                let d = &pass.targets[i as usize * o..(i as usize + 1) * o];
                for k in 0..o {
                    let y = y[(r, k)];
                    delta[(r, k)] = (y - d[k]) * slope * y * (1.0 - y) * pass.inv_b;
                }
            }
        }
        // Backward: Δ_{l−1} = (Δ_l · W_l[:, 1..]) ∘ f′.
        for l in (1..n_layers).rev() {
            let (lower, at) = deltas.split_at_mut(l);
            let down = &mut lower[l - 1];
            let w = self.layers[l].slice(s![.., 1..=self.topology[l]]);
            ndarray::linalg::general_mat_mul(1.0, &at[0], &w, 0.0, down);
            let a = acts[l].slice(s![.., 1..=self.topology[l]]);
            ndarray::Zip::from(down).and(&a).for_each(|d, &a| *d *= slope * a * (1.0 - a));
        }
    }
}

/// Fewer positions than this in a half, and the batch's passes are not split: the join would cost
/// more than it saves.
const MIN_HALF: usize = 32;

/// What every position of a batch's passes reads: the inputs and targets of the whole set, and
/// the 1/b of the batch-mean loss.
struct Positions<'a> {
    rows: &'a [f64],
    targets: &'a [f64],
    inv_b: f64,
}

/// Each view split into its first `h` rows and the rest.
fn split_rows(
    views: Vec<ArrayViewMut2<'_, f64>>,
    h: usize,
) -> (Vec<ArrayViewMut2<'_, f64>>, Vec<ArrayViewMut2<'_, f64>>) {
    views.into_iter().map(|v| v.split_at(Axis(0), h)).unzip()
}

/// One layer's gradient product G = Δᵀ · A_ext, or a block of its rows or columns.
struct Gradient<'a> {
    delta: ArrayView2<'a, f64>,
    acts: ArrayView2<'a, f64>,
    grad: ArrayViewMut2<'a, f64>,
}

impl<'a> Gradient<'a> {
    fn compute(mut self) {
        ndarray::linalg::general_mat_mul(1.0, &self.delta.t(), &self.acts, 0.0, &mut self.grad);
    }

    /// The product in two, where [`halving`] cuts G: by halves of its rows (Δ's columns), or of
    /// its columns (A's columns) when it has one row.
    fn halves(self) -> (Gradient<'a>, Gradient<'a>) {
        let (axis, at) = halving(self.grad.dim());
        let (g0, g1) = self.grad.split_at(axis, at);
        if axis == Axis(0) {
            let (d0, d1) = self.delta.split_at(Axis(1), at);
            (
                Gradient { delta: d0, acts: self.acts, grad: g0 },
                Gradient { delta: d1, acts: self.acts, grad: g1 },
            )
        } else {
            let (a0, a1) = self.acts.split_at(Axis(1), at);
            (
                Gradient { delta: self.delta, acts: a0, grad: g0 },
                Gradient { delta: self.delta, acts: a1, grad: g1 },
            )
        }
    }
}

/// Where a layer-shaped block (`rows` neurons × `cols` weights) is cut in two for `rayon::join`:
/// after half its rows, or after half its columns when it has one row.
pub(crate) fn halving((rows, cols): (usize, usize)) -> (Axis, usize) {
    if rows >= 2 { (Axis(0), rows / 2) } else { (Axis(1), cols / 2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split gradient (halves on two threads) equals the whole one bit for bit: odd batches,
    /// one-neuron layers (split by columns), two outputs, skip-layer connections.
    #[test]
    fn the_split_batch_gradient_is_the_whole_one_bit_for_bit() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let cases =
            [(&[5, 7, 3, 2][..], false), (&[32, 64, 20, 1], false), (&[6, 9, 1], true), (&[4, 1], false)];
        for (topology, skip) in cases {
            let net = if skip { Mlp::with_skip(topology, 1.3, 4) } else { Mlp::new(topology, 1.3, 4) };
            let mut net = net.unwrap();
            for w in net.layers_mut() {
                w.mapv_inplace(|v| v * 20.0);
            }
            let (width, o, n) = (topology[0], *topology.last().unwrap(), 300);
            let rows: Vec<f64> = (0..n * width).map(|i| ((i * 37 % 17) as f64 - 8.0) / 3.0).collect();
            let targets: Vec<f64> = (0..n * o).map(|i| (i * 7 % 3 == 0) as u8 as f64).collect();
            for b in [64, 67, 200] {
                let batch: Vec<u32> = (0..b as u32).map(|i| (i * 13) % n as u32).collect();
                let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
                let (mut whole, mut halves) = (zeros(), zeros());
                let mut ws = BatchWorkspace::new(&net, b);
                net.batch_gradient(&mut ws, &rows, &targets, &batch, &mut whole);
                pool.install(|| net.batch_gradient_in(&mut ws, &rows, &targets, &batch, &mut halves, true));
                let bits = |g: &[Array2<f64>]| g.iter().flatten().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&halves), bits(&whole), "{topology:?} skip {skip} batch {b}");
                assert!(whole.iter().flatten().any(|&v| v != 0.0), "a gradient to compare");
            }
        }
    }
}
