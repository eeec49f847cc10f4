//! Integer fine-tuning of a quantised net: a greedy local search over its stored integers that
//! directly minimises what the file pays for, the bits of the weights plus the bits of the
//! exceptions.
//!
//! Rounding a float net to integers costs accuracy the float training never saw (quantisation-
//! aware training would see it; this is the integer-side counterpart). Each step tries moving one
//! weight or bias by ±1 and keeps the move if `Δ(weight bits) + bits_per_exception · Δ(errors)`
//! is negative, with each layer's Rice parameter held fixed. The search keeps every layer's
//! activations for all legal positions, so a trial on the output layer costs one pass over the
//! positions, and a trial deeper down touches only the positions whose activation it changes.
//! Passes run in a fixed order until one improves nothing or `max_passes` is reached, so the
//! result is deterministic. Nets of any depth are refined: a move's effect ripples up layer by
//! layer through only the neurons whose activation it changes.

use super::bits::{best_rice, rice_len};
use super::quant::{MAX_WIDTH, QuantNet};
use crate::error::Result;
use kpk_probe::bits::zigzag;
use kpk_probe::net::{Layer, activation};
use rayon::prelude::*;

fn cost(v: i32, k: u32) -> i64 {
    rice_len(zigzag(v.into()), k) as i64
}

/// What the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Refined {
    pub passes: usize,
    pub moves: usize,
    pub errors_before: usize,
    pub errors_after: usize,
}

/// One parameter: `(layer, neuron, input)`, the input `None` for the bias.
type Param = (usize, usize, Option<usize>);

/// Every hidden layer's accumulators and activations and the output of every position, kept
/// current as moves are made. Each neuron's values over the positions are contiguous (neuron
/// major), so a trial on one neuron sweeps memory in order; positions are independent, so a trial
/// is summed over chunks of positions in parallel (an integer sum: the same in any order).
struct Activations {
    /// Positions.
    n: usize,
    /// The raw inputs, input major: `x[k · n + r]`.
    x: Vec<i32>,
    /// `acc[l][j · n + r]` and `act[l][…]` for the hidden layers `l < last`.
    acc: Vec<Vec<i32>>,
    act: Vec<Vec<i16>>,
    out: Vec<i32>,
}

/// A changed hidden value: (layer, neuron, position, accumulator, activation).
type Update = (usize, usize, usize, i32, i16);

/// The (neuron, activation change) pairs of the layer being rippled through and of the next.
type Scratch = ([(usize, i32); MAX_WIDTH], [(usize, i32); MAX_WIDTH]);

/// Positions per parallel chunk of a trial.
const CHUNK: usize = 4096;

impl Activations {
    /// Record [`QuantNet::forward`] on every position.
    fn new(net: &QuantNet, x: &[i32], n: usize) -> Activations {
        let hidden = &net.layers()[..net.layers().len() - 1];
        let mut acc: Vec<Vec<i32>> = hidden.iter().map(|l| vec![0; n * l.n_out]).collect();
        let mut act: Vec<Vec<i16>> = hidden.iter().map(|l| vec![0; n * l.n_out]).collect();
        let n_inputs = net.n_inputs();
        let mut xt = vec![0i32; n * n_inputs];
        let mut out = Vec::with_capacity(n);
        for (r, row) in x.chunks_exact(n_inputs).take(n).enumerate() {
            for (k, &v) in row.iter().enumerate() {
                xt[k * n + r] = v;
            }
            out.push(net.forward(row, |l, a, y| {
                for (j, (&a, &y)) in a.iter().zip(y).enumerate() {
                    (acc[l][j * n + r], act[l][j * n + r]) = (a, y);
                }
            }));
        }
        Activations { n, x: xt, acc, act, out }
    }

    /// Input `k` of layer `l` for position `r`: a raw input for layer 0, else an activation.
    fn input(&self, l: usize, r: usize, k: usize) -> i32 {
        if l == 0 { self.x[k * self.n + r] } else { i32::from(self.act[l - 1][k * self.n + r]) }
    }

    /// How position `r`'s output changes when the accumulator of neuron `i` of layer `l` moves
    /// by `da`, rippling the activation changes up through the layers above; every hidden value
    /// that changes is passed to `changed`.
    fn ripple(
        &self,
        layers: &[Layer],
        (l, i): (usize, usize),
        da: i32,
        r: usize,
        scratch: &mut Scratch,
        mut changed: impl FnMut(Update),
    ) -> i32 {
        let last = layers.len() - 1;
        if l == last {
            return da;
        }
        let n = self.n;
        let acc = self.acc[l][i * n + r] + da;
        let a = activation(acc, layers[l].shift);
        let change = i32::from(a) - i32::from(self.act[l][i * n + r]);
        changed((l, i, r, acc, a));
        if change == 0 {
            return 0;
        }
        let (mut cur, mut next) = (&mut scratch.0, &mut scratch.1);
        cur[0] = (i, change);
        let mut len = 1;
        for (m, layer) in layers.iter().enumerate().take(last).skip(l + 1) {
            let mut next_len = 0;
            for j in 0..layer.n_out {
                let row = &layer.weights[j * layer.n_in..(j + 1) * layer.n_in];
                let s: i32 = cur[..len].iter().map(|&(k, dk)| i32::from(row[k]) * dk).sum();
                if s == 0 {
                    continue;
                }
                let acc = self.acc[m][j * n + r] + s;
                let a = activation(acc, layer.shift);
                let change = i32::from(a) - i32::from(self.act[m][j * n + r]);
                changed((m, j, r, acc, a));
                if change != 0 {
                    next[next_len] = (j, change);
                    next_len += 1;
                }
            }
            std::mem::swap(&mut cur, &mut next);
            len = next_len;
        }
        let top = &layers[last].weights;
        cur[..len].iter().map(|&(k, dk)| i32::from(top[k]) * dk).sum()
    }

    /// The accumulator change of parameter `p` moved by `d` at position `r`.
    fn delta(&self, l: usize, k: Option<usize>, d: i32, r: usize) -> i32 {
        match k {
            Some(k) => d * self.input(l, r, k),
            None => d,
        }
    }

    /// The change in the error count if parameter `p` moved by `d`; nothing changes.
    fn trial(&self, layers: &[Layer], (l, i, k): Param, d: i32, wins: &[bool]) -> i64 {
        (0..self.n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut derr = 0;
                let mut scratch = ([(0, 0); MAX_WIDTH], [(0, 0); MAX_WIDTH]);
                let start = c * CHUNK;
                for (r, &win) in wins.iter().enumerate().take((start + CHUNK).min(self.n)).skip(start) {
                    let da = self.delta(l, k, d, r);
                    if da == 0 {
                        continue;
                    }
                    let dout = self.ripple(layers, (l, i), da, r, &mut scratch, |_| {});
                    if dout != 0 {
                        let before = self.out[r];
                        derr += i64::from(wrong(before + dout, win)) - i64::from(wrong(before, win));
                    }
                }
                derr
            })
            .sum()
    }

    /// Move parameter `p` by `d` on every position: every accumulator, activation and output
    /// touched takes its new value. (The ripple reads only the layers above `l`, so updating the
    /// parameter itself before or after does not matter.)
    fn commit(&mut self, layers: &[Layer], (l, i, k): Param, d: i32) {
        let mut updates: Vec<Update> = Vec::new();
        let mut douts: Vec<(usize, i32)> = Vec::new();
        let mut scratch = ([(0, 0); MAX_WIDTH], [(0, 0); MAX_WIDTH]);
        for r in 0..self.n {
            let da = self.delta(l, k, d, r);
            if da != 0 {
                let dout = self.ripple(layers, (l, i), da, r, &mut scratch, |u| updates.push(u));
                douts.push((r, dout));
            }
        }
        for (m, j, r, acc, a) in updates {
            (self.acc[m][j * self.n + r], self.act[m][j * self.n + r]) = (acc, a);
        }
        for (r, dout) in douts {
            self.out[r] += dout;
        }
    }
}

fn wrong(out: i32, win: bool) -> bool {
    (out > 0) != win
}

/// Refine a net of any depth on the raw inputs `x` (row-major, `net.n_inputs()` per row) with
/// outcomes `wins`.
pub fn refine(
    net: &QuantNet,
    x: &[i32],
    wins: &[bool],
    bits_per_exception: f64,
    max_passes: usize,
    input_bound: i32,
) -> Result<(QuantNet, Refined)> {
    let mut layers: Vec<Layer> = net.layers().to_vec();
    let mut state = Activations::new(net, x, wins.len());
    let errors = |s: &Activations| s.out.iter().zip(wins).filter(|&(&o, &w)| wrong(o, w)).count();
    let mut stats = Refined { errors_before: errors(&state), ..Refined::default() };
    // Each layer's Rice parameters (weights, biases), held fixed during the search.
    let ks: Vec<(u32, u32)> = layers
        .iter()
        .map(|l| {
            (
                best_rice(l.weights.iter().map(|&w| zigzag(w.into()))).0,
                best_rice(l.biases.iter().map(|&b| zigzag(b.into()))).0,
            )
        })
        .collect();
    // Output layer first: its trials are cheapest and move the decision boundary most directly.
    let mut params: Vec<Param> = Vec::new();
    for (l, layer) in layers.iter().enumerate().rev() {
        for i in 0..layer.n_out {
            params.push((l, i, None));
            params.extend((0..layer.n_in).map(|k| (l, i, Some(k))));
        }
    }
    for _pass in 0..max_passes {
        stats.passes += 1;
        let mut improved = false;
        for &(l, i, k) in &params {
            for d in [1i32, -1] {
                let (old, rice) = match k {
                    Some(k) => (i32::from(layers[l].weights[i * layers[l].n_in + k]), ks[l].0),
                    None => (layers[l].biases[i], ks[l].1),
                };
                let new = old + d;
                if k.is_some() && i16::try_from(new).is_err() {
                    continue;
                }
                let dbits = cost(new, rice) - cost(old, rice);
                let derr = state.trial(&layers, (l, i, k), d, wins);
                if dbits as f64 + bits_per_exception * derr as f64 >= 0.0 {
                    continue;
                }
                state.commit(&layers, (l, i, k), d);
                let n_in = layers[l].n_in;
                match k {
                    Some(k) => layers[l].weights[i * n_in + k] = new as i16,
                    None => layers[l].biases[i] = new,
                }
                stats.moves += 1;
                improved = true;
                break; // do not try −1 straight after a kept +1
            }
        }
        if !improved {
            break;
        }
    }
    stats.errors_after = errors(&state);
    Ok((QuantNet::new(layers, input_bound)?, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use crate::chess::position::KpkPosition;
    use crate::hybrid::inputs::InputFunction;
    use kpk_probe::Outcome;

    #[test]
    fn refining_never_grows_the_objective_and_reports_true_error_counts() {
        check_refine(&[(7, 3, 0), (3, 2, 4), (2, 1, 0)]);
    }

    #[test]
    fn nets_of_any_depth_are_refined() {
        check_refine(&[(7, 1, 0)]);
        check_refine(&[(7, 3, 0), (3, 1, 0)]);
        check_refine(&[(7, 4, 0), (4, 3, 3), (3, 2, 4), (2, 1, 0)]);
    }

    /// Refine a deterministic net of the given (inputs, outputs, shift) layers on every legal
    /// position: the incremental bookkeeping must match a recount and the objective must fall.
    fn check_refine(shape: &[(usize, usize, i8)]) {
        let bb = Bitbase::generate();
        let input = InputFunction::Coordinates;
        let legal: Vec<KpkPosition> = KpkPosition::all().collect();
        let mut x = vec![0i32; 7 * legal.len()];
        for (row, p) in x.chunks_exact_mut(7).zip(&legal) {
            input.write(p, row);
        }
        let wins: Vec<bool> = legal.iter().map(|p| bb.outcome(p) == Outcome::Win).collect();
        let layer = |n_in: usize, n_out: usize, shift: i8, seed: i32| Layer {
            n_in,
            n_out,
            shift,
            weights: (0..n_in * n_out).map(|i| ((i as i32 * 7 + seed) % 11 - 5) as i16).collect(),
            biases: (0..n_out).map(|i| (i as i32 * 5 + seed) % 9 - 4).collect(),
        };
        let layers = shape.iter().zip(1..).map(|(&(i, o, s), seed)| layer(i, o, s, seed)).collect();
        let net = QuantNet::new(layers, 8).unwrap();
        let count = |q: &QuantNet| {
            x.chunks_exact(7).zip(&wins).filter(|(row, win)| (q.output(row) > 0) != **win).count()
        };
        let bits = |q: &QuantNet| -> i64 {
            q.layers()
                .iter()
                .map(|l| {
                    let kw = best_rice(l.weights.iter().map(|&w| zigzag(w.into()))).0;
                    let kb = best_rice(l.biases.iter().map(|&b| zigzag(b.into()))).0;
                    l.weights.iter().map(|&w| cost(w.into(), kw)).sum::<i64>()
                        + l.biases.iter().map(|&b| cost(b, kb)).sum::<i64>()
                })
                .sum()
        };
        let before = count(&net);
        let (refined, stats) = refine(&net, &x, &wins, 10.0, 2, 8).unwrap();
        assert_eq!(stats.errors_before, before);
        assert_eq!(stats.errors_after, count(&refined), "the incremental bookkeeping matches a recount");
        assert!(stats.moves > 0, "{shape:?}");
        // Bits are counted with the Rice parameters fixed at the start; re-choosing them can only help.
        let objective = |q: &QuantNet, errors: usize| bits(q) as f64 + 10.0 * errors as f64;
        assert!(objective(&refined, stats.errors_after) < objective(&net, before));
    }
}
