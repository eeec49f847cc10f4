//! The optimisers' state across epochs: online backpropagation (section 3, with section 6's
//! momentum and annealing) and minibatch Adam.

use super::{Anneal, Optimiser, Prepared};
use crate::net::batch::BatchWorkspace;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::simd::prefetch;
use ndarray::Array2;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The optimiser's state across epochs.
pub(super) enum Stepper {
    Online { learning_rate: f64, momentum: f64, anneal: Anneal, reshuffle: bool, velocity: Vec<Array2<f64>> },
    Adam(Box<AdamState>),
}

impl Stepper {
    /// `positions`: the training set size (a batch never holds more, so no buffer is larger).
    pub(super) fn new(net: &Mlp, optimiser: Optimiser, positions: usize) -> Stepper {
        let zeros = || net.layers().iter().map(|w| Array2::zeros(w.dim())).collect::<Vec<_>>();
        match optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, reshuffle } => {
                let velocity = if momentum > 0.0 { zeros() } else { Vec::new() };
                Stepper::Online { learning_rate, momentum, anneal, reshuffle, velocity }
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                let batch_size = batch_size.min(positions);
                Stepper::Adam(Box::new(AdamState::new(net, learning_rate, batch_size, beta1, beta2, epsilon)))
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
        net.batch_gradient(&mut self.batch, rows, targets, batch, &mut self.grads);
    }

    /// Adam update with bias correction, from `self.grads`.
    fn update(&mut self, net: &mut Mlp) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t);
        let c2 = 1.0 - self.beta2.powi(self.t);
        let (b1, b2, eps, lr) = (self.beta1, self.beta2, self.epsilon, self.learning_rate);
        for (l, w) in net.layers_mut().iter_mut().enumerate() {
            ndarray::Zip::from(w).and(&mut self.m[l]).and(&mut self.v[l]).and(&self.grads[l]).for_each(
                |w, m, v, &g| {
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
                },
            );
        }
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
