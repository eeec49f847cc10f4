//! The forward pass over a whole set of positions, as the end-of-epoch measurement needs it (section
//! 4.5: E1, E2 and the correct count "at the end of an epoch", section 4.3): blocks of positions go
//! through each layer as one matrix product (`kernels::block_product`). Every output is the
//! same sum, in the same order, as in the single-position pass ([`Mlp::forward_with`]), so the two
//! agree bit for bit on every machine; blocking only lets one load of a weight serve several
//! positions and one vector of sigmoids serve several neurons.

use super::kernels::{block_product, transpose_by_four};
use super::mlp::{Mlp, sigmoid};
use super::simd::vectorised;

/// Positions per block: the activations of a block of 32-64-20-1 stay in the first-level cache.
const BLOCK: usize = 32;

/// Buffers for [`Mlp::forward_each`]: the weights transposed for `block_product`, and one block
/// of activations per layer.
#[derive(Clone, Debug, Default)]
pub struct Sweep {
    /// `wt[l]`: weight layer l transposed, in groups of four neurons.
    wt: Vec<Vec<[f64; 4]>>,
    /// `acts[l]`: [`BLOCK`] rows of `topology[l] + 1` values, the constant 1 first (section 3, x0 = 1).
    acts: Vec<Vec<f64>>,
}

impl Sweep {
    /// Empty buffers; [`Mlp::forward_each`] sizes them for its net.
    pub fn new() -> Sweep {
        Sweep::default()
    }

    /// Size the buffers for `net` and copy in its current weights.
    fn load(&mut self, net: &Mlp) {
        let layers = net.layers();
        self.wt.resize_with(layers.len(), Vec::new);
        for (wt, w) in self.wt.iter_mut().zip(layers) {
            transpose_by_four(super::values(w), w.ncols(), wt);
        }
        self.acts.resize_with(net.topology().len(), Vec::new);
        for (l, a) in self.acts.iter_mut().enumerate() {
            let width = net.act_width(l);
            a.clear();
            a.resize(BLOCK * width, 0.0);
            for row in a.chunks_exact_mut(width) {
                row[0] = 1.0;
            }
        }
    }
}

impl Mlp {
    /// The outputs for every position of `inputs` (rows of [`Mlp::n_inputs`] values, one position
    /// after another), handed to `each` in order with the position's index. Each output is
    /// bit-identical to [`Mlp::forward_with`] on that row. `sweep` may come from another net.
    ///
    /// Panics if `inputs.len()` is not a multiple of [`Mlp::n_inputs`].
    pub fn forward_each(&self, sweep: &mut Sweep, inputs: &[f64], mut each: impl FnMut(usize, &[f64])) {
        let width = self.n_inputs();
        assert_eq!(inputs.len() % width, 0, "inputs are whole rows");
        sweep.load(self);
        vectorised(
            #[inline(always)]
            || {
                let o = self.n_outputs();
                for (b, block) in inputs.chunks(BLOCK * width).enumerate() {
                    let rows = block.len() / width;
                    self.block_in(sweep, block);
                    let top = &sweep.acts[self.topology.len() - 1];
                    for (r, y) in top.chunks_exact(o + 1).take(rows).enumerate() {
                        each(b * BLOCK + r, &y[1..]);
                    }
                }
            },
        )
    }

    /// One block (at most [`BLOCK`] positions) through every layer, into `sweep.acts`.
    #[inline(always)]
    fn block_in(&self, sweep: &mut Sweep, block: &[f64]) {
        let width = self.n_inputs();
        let rows = block.len() / width;
        for (a, x) in sweep.acts[0].chunks_exact_mut(width + 1).zip(block.chunks_exact(width)) {
            a[1..].copy_from_slice(x);
        }
        if self.skip {
            let below_top = self.topology.len() - 2;
            let w = self.act_width(below_top);
            for (a, x) in sweep.acts[below_top].chunks_exact_mut(w).zip(block.chunks_exact(width)) {
                a[w - width..].copy_from_slice(x);
            }
        }
        for l in 0..self.layers.len() {
            let (n_in, n_out, stride) = (self.act_width(l), self.topology[l + 1], self.act_width(l + 1));
            let (below, above) = sweep.acts.split_at_mut(l + 1);
            let out = &mut above[0][..rows * stride];
            block_product(&below[l][..rows * n_in], n_in, &sweep.wt[l], n_out, &mut out[1..], stride);
            for row in out.chunks_exact_mut(stride) {
                for y in &mut row[1..=n_out] {
                    *y = sigmoid(*y, self.slope);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::mlp::Workspace;

    #[test]
    fn the_sweep_equals_the_single_position_pass_bit_for_bit() {
        let plain = [&[32, 64, 20, 1][..], &[5, 3, 2], &[7, 1], &[3, 9, 4, 6, 2]].map(|t| (t, false));
        for (topology, skip) in plain.into_iter().chain([(&[6, 42, 1][..], true), (&[3, 9, 4, 6, 2], true)]) {
            let net = if skip { Mlp::with_skip(topology, 1.3, 11) } else { Mlp::new(topology, 1.3, 11) };
            let net = net.unwrap();
            // Larger weights than the initial ±0.1, so every layer matters.
            let mut net = net;
            for w in net.layers_mut() {
                w.mapv_inplace(|v| v * 30.0);
            }
            let width = topology[0];
            for n in [0, 1, 2, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 5] {
                let inputs: Vec<f64> = (0..n * width).map(|i| ((i * 37 % 23) as f64 - 11.0) / 4.0).collect();
                let mut ws = Workspace::new(&net);
                let mut sweep = Sweep::new();
                let mut seen = 0;
                net.forward_each(&mut sweep, &inputs, |i, y| {
                    assert_eq!(i, seen);
                    let expected = net.forward_with(&mut ws, &inputs[i * width..(i + 1) * width]);
                    let bits = |v: &[f64]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                    assert_eq!(
                        bits(y),
                        bits(expected),
                        "{topology:?} skip {skip}, {n} positions, position {i}"
                    );
                    seen += 1;
                });
                assert_eq!(seen, n);
            }
        }
    }
}
