//! The optimisers' state across epochs: online backpropagation (section 3, with section 6's
//! momentum and annealing) and minibatch Adam.

use super::Prepared;
use crate::net::batch::{BatchWorkspace, halving};
use crate::net::mlp::{Mlp, Workspace};
use crate::net::simd::prefetch;
use crate::train::config::{Anneal, Optimiser};
use ndarray::{Array2, ArrayView2, ArrayViewMut2};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The optimiser's state across epochs.
pub(super) enum Stepper {
    Online { learning_rate: f64, momentum: f64, anneal: Anneal, reshuffle: bool, velocity: Vec<Array2<f64>> },
    Adam(Box<AdamState>),
}

impl Stepper {
    /// `positions`: the training set size (a batch never holds more, so no buffer is larger).
    /// `split`: Adam's batch passes and update in two halves run by `rayon::join` (the same bits).
    pub(super) fn new(net: &Mlp, optimiser: Optimiser, positions: usize, split: bool) -> Stepper {
        let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
        match optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, reshuffle } => {
                let velocity = if momentum > 0.0 { zeros() } else { Vec::new() };
                Stepper::Online { learning_rate, momentum, anneal, reshuffle, velocity }
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                let batch_size = batch_size.min(positions);
                let mut state = AdamState::new(net, learning_rate, batch_size, beta1, beta2, epsilon);
                state.split = split;
                Stepper::Adam(Box::new(state))
            }
        }
    }

    pub(super) fn epoch(
        &mut self,
        net: &mut Mlp,
        ws: &mut Workspace,
        data: &Prepared,
        order: &mut [u32],
        rng: &mut ChaCha8Rng,
        epoch: usize,
    ) {
        let width = net.n_inputs();
        let o = net.n_outputs();
        let rows = data.rows();
        match self {
            Stepper::Online { learning_rate, momentum, anneal, reshuffle, velocity } => {
                if *reshuffle && epoch > 1 {
                    order.shuffle(rng);
                }
                let eta = anneal.rate(*learning_rate, epoch);
                // The hot loop: one forward and one fused backward/update per position, no allocation.
                for (n, &i) in order.iter().enumerate() {
                    if let Some(&next) = order.get(n + 1) {
                        prefetch(&rows[next as usize * width..(next as usize + 1) * width]);
                    }
                    let i = i as usize;
                    let x = &rows[i * width..(i + 1) * width];
                    let d = &data.targets[i * o..(i + 1) * o];
                    let m = if *momentum > 0.0 { Some((*momentum, velocity.as_mut_slice())) } else { None };
                    net.sgd_step(ws, x, d, eta, m);
                }
            }
            Stepper::Adam(state) => {
                order.shuffle(rng);
                for batch in order.chunks(state.batch_size) {
                    state.step(net, rows, &data.targets, batch);
                }
            }
        }
    }
}

/// Minibatch Adam: the batch gradient ([`Mlp::batch_gradient`]), then the Adam update of every
/// weight.
pub(crate) struct AdamState {
    learning_rate: f64,
    batch_size: usize,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    t: i32,
    m: Vec<Array2<f64>>,
    v: Vec<Array2<f64>>,
    grads: Vec<Array2<f64>>,
    batch: BatchWorkspace,
    /// Split each step in two halves run by `rayon::join` ([`Mlp::batch_gradient`]'s halves, the
    /// update by halves of each layer): the same bits, on two threads when the pool has them.
    split: bool,
}

impl AdamState {
    fn new(
        net: &Mlp,
        learning_rate: f64,
        batch_size: usize,
        beta1: f64,
        beta2: f64,
        epsilon: f64,
    ) -> AdamState {
        let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
        AdamState {
            learning_rate,
            batch_size,
            beta1,
            beta2,
            epsilon,
            t: 0,
            m: zeros(),
            v: zeros(),
            grads: zeros(),
            batch: BatchWorkspace::new(net, batch_size),
            split: false,
        }
    }

    fn step(&mut self, net: &mut Mlp, rows: &[f64], targets: &[f64], batch: &[u32]) {
        self.gradients(net, rows, targets, batch);
        self.update(net);
    }

    /// One Adam step on `net` with the gradient taken at `at`, a net of the same shape (the
    /// straight-through estimator of quantisation-aware training: `at` is `net` rounded).
    pub(crate) fn step_at(&mut self, net: &mut Mlp, at: &Mlp, rows: &[f64], targets: &[f64], batch: &[u32]) {
        self.gradients(at, rows, targets, batch);
        self.update(net);
    }

    /// Adam with Kingma and Ba's β1, β2 and ε for `net`, batches of up to `batch_size` positions.
    pub(crate) fn for_net(net: &Mlp, learning_rate: f64, batch_size: usize) -> AdamState {
        match Optimiser::adam(learning_rate, batch_size) {
            Optimiser::Adam { beta1, beta2, epsilon, .. } => {
                AdamState::new(net, learning_rate, batch_size, beta1, beta2, epsilon)
            }
            Optimiser::Online { .. } => unreachable!("Optimiser::adam makes Adam"),
        }
    }

    /// The gradient of the batch-mean loss into `self.grads`.
    fn gradients(&mut self, net: &Mlp, rows: &[f64], targets: &[f64], batch: &[u32]) {
        net.batch_gradient_in(&mut self.batch, rows, targets, batch, &mut self.grads, self.split);
    }

    /// Adam update with bias correction, from `self.grads`: each weight on its own, so a split's
    /// halves run side by side.
    fn update(&mut self, net: &mut Mlp) {
        self.t += 1;
        let rule = AdamRule {
            b1: self.beta1,
            b2: self.beta2,
            eps: self.epsilon,
            lr: self.learning_rate,
            c1: 1.0 - self.beta1.powi(self.t),
            c2: 1.0 - self.beta2.powi(self.t),
        };
        let layers = net.layers_mut().iter_mut().zip(&mut self.m).zip(&mut self.v).zip(&self.grads);
        let blocks = layers.map(|(((w, m), v), g)| Block {
            w: w.view_mut(),
            m: m.view_mut(),
            v: v.view_mut(),
            g: g.view(),
        });
        if self.split {
            let (first, second): (Vec<_>, Vec<_>) = blocks.map(Block::halves).unzip();
            rayon::join(
                || first.into_iter().for_each(|b| rule.apply(b)),
                || second.into_iter().for_each(|b| rule.apply(b)),
            );
        } else {
            blocks.for_each(|b| rule.apply(b));
        }
    }
}

/// Kingma and Ba's update of a weight w from its gradient g, with the moments m and v and their
/// bias corrections c1 = 1 − β1^t and c2 = 1 − β2^t.
#[derive(Clone, Copy)]
struct AdamRule {
    b1: f64,
    b2: f64,
    eps: f64,
    lr: f64,
    c1: f64,
    c2: f64,
}

impl AdamRule {
    fn apply(self, b: Block) {
        let AdamRule { b1, b2, eps, lr, c1, c2 } = self;
        ndarray::Zip::from(b.w).and(b.m).and(b.v).and(b.g).for_each(|w, m, v, &g| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
        });
    }
}

/// A layer's weights with their moments and gradients, or a block of their rows or columns.
struct Block<'a> {
    w: ArrayViewMut2<'a, f64>,
    m: ArrayViewMut2<'a, f64>,
    v: ArrayViewMut2<'a, f64>,
    g: ArrayView2<'a, f64>,
}

impl<'a> Block<'a> {
    /// The block in two, where [`halving`] cuts a layer.
    fn halves(self) -> (Block<'a>, Block<'a>) {
        let (axis, at) = halving(self.w.dim());
        let (w0, w1) = self.w.split_at(axis, at);
        let (m0, m1) = self.m.split_at(axis, at);
        let (v0, v1) = self.v.split_at(axis, at);
        let (g0, g1) = self.g.split_at(axis, at);
        (Block { w: w0, m: m0, v: v0, g: g0 }, Block { w: w1, m: m1, v: v1, g: g1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adams_batch_gradient_is_the_mean_of_the_per_position_gradients() {
        for skip in [false, true] {
            batch_gradient_is_the_mean_of_the_per_position_gradients(skip);
        }
    }

    fn batch_gradient_is_the_mean_of_the_per_position_gradients(skip: bool) {
        let topology = [5, 7, 3, 2];
        let net = if skip { Mlp::with_skip(&topology, 1.3, 4) } else { Mlp::new(&topology, 1.3, 4) };
        let mut net = net.unwrap();
        // Weights larger than the initial ±0.1 so every layer matters.
        for w in net.layers_mut() {
            w.mapv_inplace(|v| v * 20.0);
        }
        let n = 11;
        let rows: Vec<f64> = (0..n * 5).map(|i| ((i * 37 % 17) as f64 - 8.0) / 3.0).collect();
        let targets: Vec<f64> =
            (0..n).flat_map(|i| if i % 3 == 0 { [1.0, 0.0] } else { [0.0, 1.0] }).collect();
        let batch: Vec<u32> = vec![3, 0, 7, 10, 5];
        let mut adam = AdamState::new(&net, 0.01, 8, 0.9, 0.999, 1e-8);
        let mut ws = Workspace::new(&net);
        // The whole batch, then one shorter than the buffers (the last batch of an epoch), which
        // must use only its own rows.
        for batch in [&batch[..], &batch[..2]] {
            adam.gradients(&net, &rows, &targets, batch);
            let mut expected: Vec<Array2<f64>> =
                net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
            for &i in batch {
                let i = i as usize;
                net.accumulate_gradient(
                    &mut ws,
                    &rows[i * 5..(i + 1) * 5],
                    &targets[i * 2..(i + 1) * 2],
                    &mut expected,
                );
            }
            for (g, e) in adam.grads.iter().zip(&expected) {
                for (g, e) in g.iter().zip(e) {
                    let e = e / batch.len() as f64;
                    assert!((g - e).abs() <= 1e-14 + 1e-12 * e.abs(), "batch {g} vs mean of positions {e}");
                }
            }
        }
    }
}
