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

use super::bits::{best_rice, rice_len, zigzag};
use super::quant::{QuantLayer, QuantNet, activation};
use crate::error::Result;

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
/// current as moves are made.
struct Activations<'x> {
    x: &'x [i32],
    n_inputs: usize,
    /// `acc[l][r · width_l + j]` and `act[l][…]` for the hidden layers `l < last`.
    acc: Vec<Vec<i32>>,
    act: Vec<Vec<i16>>,
    out: Vec<i32>,
    /// Reused buffers of (neuron, activation change) for the layer being rippled through.
    cur: Vec<(usize, i32)>,
    next: Vec<(usize, i32)>,
}

impl<'x> Activations<'x> {
    /// Record [`QuantNet::forward`] on every position.
    fn new(net: &QuantNet, x: &'x [i32], n: usize) -> Activations<'x> {
        let hidden = &net.layers()[..net.layers().len() - 1];
        let mut acc: Vec<Vec<i32>> = hidden.iter().map(|l| Vec::with_capacity(n * l.n_out)).collect();
        let mut act: Vec<Vec<i16>> = hidden.iter().map(|l| Vec::with_capacity(n * l.n_out)).collect();
        let n_inputs = net.n_inputs();
        let out = x
            .chunks_exact(n_inputs)
            .take(n)
            .map(|row| {
                net.forward(row, |l, a, y| {
                    acc[l].extend_from_slice(a);
                    act[l].extend_from_slice(y);
                })
            })
            .collect();
        Activations { x, n_inputs, acc, act, out, cur: Vec::new(), next: Vec::new() }
    }

    /// Input `k` of layer `l` for position `r`: a raw input for layer 0, else an activation.
    fn input(&self, layers: &[QuantLayer], l: usize, r: usize, k: usize) -> i32 {
        if l == 0 {
            self.x[r * self.n_inputs + k]
        } else {
            i32::from(self.act[l - 1][r * layers[l].n_in + k])
        }
    }

    /// How position `r`'s output changes when the accumulator of neuron `i` of layer `l` moves
    /// by `da`, rippling the activation changes up through the layers above. With `commit`, every
    /// accumulator, activation and output touched takes its new value.
    fn ripple(
        &mut self,
        layers: &[QuantLayer],
        (l, i): (usize, usize),
        da: i32,
        r: usize,
        commit: bool,
    ) -> i32 {
        let last = layers.len() - 1;
        if l == last {
            if commit {
                self.out[r] += da;
            }
            return da;
        }
        let idx = r * layers[l].n_out + i;
        let acc = self.acc[l][idx] + da;
        let a = activation(acc, layers[l].shift);
        let change = i32::from(a) - i32::from(self.act[l][idx]);
        if commit {
            (self.acc[l][idx], self.act[l][idx]) = (acc, a);
        }
        self.cur.clear();
        if change != 0 {
            self.cur.push((i, change));
        }
        for (m, layer) in layers.iter().enumerate().take(last).skip(l + 1) {
            self.next.clear();
            for j in 0..layer.n_out {
                let row = &layer.weights[j * layer.n_in..(j + 1) * layer.n_in];
                let s: i32 = self.cur.iter().map(|&(k, dk)| i32::from(row[k]) * dk).sum();
                if s == 0 {
                    continue;
                }
                let jdx = r * layer.n_out + j;
                let acc = self.acc[m][jdx] + s;
                let a = activation(acc, layer.shift);
                let change = i32::from(a) - i32::from(self.act[m][jdx]);
                if commit {
                    (self.acc[m][jdx], self.act[m][jdx]) = (acc, a);
                }
                if change != 0 {
                    self.next.push((j, change));
                }
            }
            std::mem::swap(&mut self.cur, &mut self.next);
        }
        let top = &layers[last].weights;
        let dout: i32 = self.cur.iter().map(|&(k, dk)| i32::from(top[k]) * dk).sum();
        if commit {
            self.out[r] += dout;
        }
        dout
    }

    /// Move parameter `p` by `d` on every position: with `commit` the state follows and the
    /// return is 0; without, nothing changes and the return is the change in the error count.
    fn apply(&mut self, layers: &[QuantLayer], (l, i, k): Param, d: i32, wins: &[bool], commit: bool) -> i64 {
        let mut derr = 0;
        for (r, &win) in wins.iter().enumerate() {
            let da = match k {
                Some(k) => d * self.input(layers, l, r, k),
                None => d,
            };
            if da == 0 {
                continue;
            }
            let before = self.out[r];
            let dout = self.ripple(layers, (l, i), da, r, commit);
            if !commit && dout != 0 {
                derr += i64::from(wrong(before + dout, win)) - i64::from(wrong(before, win));
            }
        }
        derr
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
    let mut layers: Vec<QuantLayer> = net.layers().to_vec();
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
                let derr = state.apply(&layers, (l, i, k), d, wins, false);
                if dbits as f64 + bits_per_exception * derr as f64 >= 0.0 {
                    continue;
                }
                // Keep the move. The ripple reads only the layers above l, so the order of the two
                // updates does not matter.
                state.apply(&layers, (l, i, k), d, wins, true);
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
    use crate::chess::position::{KpkPosition, Outcome};
    use crate::hybrid::InputFunction;

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
        let layer = |n_in: usize, n_out: usize, shift: i8, seed: i32| QuantLayer {
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
