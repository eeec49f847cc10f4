//! Softmax nets on KRK rows: 18 outputs, one per class, trained by cross-entropy. With no hidden
//! layer it is the 1-level net (multinomial logistic regression); with the declaration's hidden
//! layers of tanh units (the paper's NN2 shape, 20 then 10) it is the paper's MLP with an output
//! per class. Inputs are the columns scaled to [0, 1] by their declared ranges; weights start
//! uniform in ±1/√fan-in; training is mini-batch gradient descent with momentum over rows
//! shuffled each epoch, for the declared number of epochs, keeping the last weights. The answer is
//! the output of largest activation, ties to the lower class.

use super::design::MlpSettings;
use super::knn::scaled;
use super::{Inputs, KrkLearner, KrkModel, KrkRow, N_CLASSES};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The learner: its name, hidden layers and training.
pub struct SoftmaxNet {
    pub name: &'static str,
    pub hidden: Vec<usize>,
    pub training: MlpSettings,
}

/// One layer: `w[o * inputs + i]` and a bias per output.
#[derive(Clone)]
struct Layer {
    inputs: usize,
    w: Vec<f32>,
    b: Vec<f32>,
}

/// A fitted net.
pub struct Net {
    cols: std::ops::Range<usize>,
    layers: Vec<Layer>,
}

impl Net {
    /// Every layer's activations for input `x` (the input first, the softmax last).
    fn forward(&self, x: Vec<f32>) -> Vec<Vec<f32>> {
        let mut acts = vec![x];
        for (k, l) in self.layers.iter().enumerate() {
            let a = acts.last().expect("the input");
            let mut z: Vec<f32> =
                l.b.iter()
                    .enumerate()
                    .map(|(o, b)| b + dot(&l.w[o * l.inputs..(o + 1) * l.inputs], a))
                    .collect();
            if k + 1 < self.layers.len() {
                z.iter_mut().for_each(|v| *v = v.tanh());
            } else {
                let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                z.iter_mut().for_each(|v| *v = (*v - max).exp());
                let sum: f32 = z.iter().sum();
                z.iter_mut().for_each(|v| *v /= sum);
            }
            acts.push(z);
        }
        acts
    }

    /// Add the cross-entropy gradient of one row of class `class` to `grads`.
    fn backward(&self, acts: &[Vec<f32>], class: u8, grads: &mut [Layer]) {
        let mut delta: Vec<f32> = acts.last().expect("the output").clone();
        delta[usize::from(class)] -= 1.0;
        for k in (0..self.layers.len()).rev() {
            let (l, g, a) = (&self.layers[k], &mut grads[k], &acts[k]);
            for (o, d) in delta.iter().enumerate() {
                g.b[o] += d;
                g.w[o * l.inputs..(o + 1) * l.inputs].iter_mut().zip(a).for_each(|(w, x)| *w += d * x);
            }
            if k > 0 {
                delta = (0..l.inputs)
                    .map(|i| {
                        let s: f32 = delta.iter().enumerate().map(|(o, d)| d * l.w[o * l.inputs + i]).sum();
                        s * (1.0 - a[i] * a[i])
                    })
                    .collect();
            }
        }
    }
}

fn dot(w: &[f32], x: &[f32]) -> f32 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

impl KrkModel for Net {
    fn predict_all(&self, rows: &[KrkRow]) -> Vec<u8> {
        rows.iter()
            .map(|x| {
                let acts = self.forward(scaled(x, self.cols.clone()).collect());
                let out = acts.last().expect("the output");
                let mut best = 0;
                for c in 1..N_CLASSES {
                    if out[c] > out[best] {
                        best = c;
                    }
                }
                best as u8
            })
            .collect()
    }
}

impl KrkLearner for SoftmaxNet {
    fn name(&self) -> &'static str {
        self.name
    }

    fn fit(&self, rows: &[KrkRow], classes: &[u8], inputs: Inputs, seed: u64) -> Box<dyn KrkModel> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let widths: Vec<usize> = std::iter::once(inputs.cols().len())
            .chain(self.hidden.iter().copied())
            .chain([N_CLASSES])
            .collect();
        let layers: Vec<Layer> = widths
            .windows(2)
            .map(|p| {
                let bound = 1.0 / (p[0] as f32).sqrt();
                let mut draw =
                    |len: usize| (0..len).map(|_| rng.random_range(-bound..bound)).collect::<Vec<f32>>();
                Layer { inputs: p[0], w: draw(p[0] * p[1]), b: draw(p[1]) }
            })
            .collect();
        let mut net = Net { cols: inputs.cols(), layers };
        let x: Vec<Vec<f32>> = rows.iter().map(|r| scaled(r, inputs.cols()).collect()).collect();
        let zero = |n: &Net| -> Vec<Layer> {
            n.layers
                .iter()
                .map(|l| Layer { inputs: l.inputs, w: vec![0.0; l.w.len()], b: vec![0.0; l.b.len()] })
                .collect()
        };
        let mut velocity = zero(&net);
        let t = &self.training;
        let step = (t.rate / t.batch as f64) as f32;
        let momentum = t.momentum as f32;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        for _ in 0..t.epochs(rows.len()) {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            for batch in order.chunks(t.batch) {
                let mut grads = zero(&net);
                for &i in batch {
                    let acts = net.forward(x[i].clone());
                    net.backward(&acts, classes[i], &mut grads);
                }
                for ((l, v), g) in net.layers.iter_mut().zip(&mut velocity).zip(&grads) {
                    for (w, (v, g)) in
                        l.w.iter_mut()
                            .chain(l.b.iter_mut())
                            .zip(v.w.iter_mut().chain(v.b.iter_mut()).zip(g.w.iter().chain(&g.b)))
                    {
                        *v = momentum * *v - step * g;
                        *w += *v;
                    }
                }
            }
        }
        Box::new(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_nets_learn_classes_that_follow_one_column() {
        let rows: Vec<KrkRow> = (0..64)
            .map(|i| {
                let mut r = [0i8; super::super::N_COLS];
                r[0] = (i % 8) as i8;
                r[1] = (i / 8) as i8;
                r
            })
            .collect();
        let classes: Vec<u8> = (0..64).map(|i| if i % 8 < 4 { 2 } else { 9 }).collect();
        let training = MlpSettings {
            hidden: vec![],
            rate: 0.05,
            momentum: 0.9,
            batch: 16,
            max_epochs: 2000,
            presentations: 64 * 2000,
        };
        for hidden in [vec![], vec![6, 4]] {
            let net = SoftmaxNet { name: "net", hidden, training: training.clone() };
            let m = net.fit(&rows, &classes, Inputs::Squares, 3);
            assert_eq!(m.predict_all(&rows), classes);
            assert_eq!(m.predict_all(&rows), net.fit(&rows, &classes, Inputs::Squares, 3).predict_all(&rows));
        }
    }
}
