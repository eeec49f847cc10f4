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
//! result is deterministic.

use super::bits::{best_rice, rice_len, zigzag};
use super::quant::{QuantLayer, QuantNet, SIGMOID, shift_round};
use crate::error::Result;

#[inline(always)]
fn act(acc: i32, shift: i8) -> i16 {
    i16::from(SIGMOID[(shift_round(acc, shift).clamp(-128, 128) + 128) as usize])
}

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

/// Refine a net with two hidden layers on the raw inputs `x` (row-major, `net.n_inputs()` per
/// row) with outcomes `wins`. Other depths are returned unchanged.
pub fn refine(
    net: &QuantNet,
    x: &[i32],
    wins: &[bool],
    bits_per_exception: f64,
    max_passes: usize,
    input_bound: i32,
) -> Result<(QuantNet, Refined)> {
    let mut layers: Vec<QuantLayer> = net.layers().to_vec();
    if layers.len() != 3 {
        return Ok((net.clone(), Refined::default()));
    }
    let (n0, h1, h2) = (layers[0].n_in, layers[0].n_out, layers[1].n_out);
    let n = wins.len();
    let (s1, s2) = (layers[0].shift, layers[1].shift);
    // Activations of every position.
    let mut acc1 = vec![0i32; n * h1];
    let mut a1 = vec![0i16; n * h1];
    let mut acc2 = vec![0i32; n * h2];
    let mut a2 = vec![0i16; n * h2];
    let mut out = vec![0i32; n];
    for r in 0..n {
        let xr = &x[r * n0..(r + 1) * n0];
        for i in 0..h1 {
            let w = &layers[0].weights[i * n0..(i + 1) * n0];
            let acc = layers[0].biases[i] + w.iter().zip(xr).map(|(&w, &x)| i32::from(w) * x).sum::<i32>();
            acc1[r * h1 + i] = acc;
            a1[r * h1 + i] = act(acc, s1);
        }
        for j in 0..h2 {
            let w = &layers[1].weights[j * h1..(j + 1) * h1];
            let a = &a1[r * h1..(r + 1) * h1];
            let acc = layers[1].biases[j]
                + w.iter().zip(a).map(|(&w, &a)| i32::from(w) * i32::from(a)).sum::<i32>();
            acc2[r * h2 + j] = acc;
            a2[r * h2 + j] = act(acc, s2);
        }
        let a = &a2[r * h2..(r + 1) * h2];
        out[r] = layers[2].biases[0]
            + layers[2].weights.iter().zip(a).map(|(&w, &a)| i32::from(w) * i32::from(a)).sum::<i32>();
    }
    let wrong = |o: i32, win: bool| (o > 0) != win;
    let errors_before = (0..n).filter(|&r| wrong(out[r], wins[r])).count();
    let ks: Vec<(u32, u32)> = layers
        .iter()
        .map(|l| {
            (
                best_rice(l.weights.iter().map(|&w| zigzag(w.into()))).0,
                best_rice(l.biases.iter().map(|&b| zigzag(b.into()))).0,
            )
        })
        .collect();
    let mut stats = Refined { errors_before, ..Refined::default() };
    let mut changed_rows: Vec<(u32, i16)> = Vec::with_capacity(n);

    for _pass in 0..max_passes {
        stats.passes += 1;
        let mut improved = false;
        // Parameters as (layer, neuron, input or None for the bias), output layer first: its
        // trials are cheapest and move the decision boundary most directly.
        let mut params: Vec<(usize, usize, Option<usize>)> = Vec::new();
        for l in (0..3).rev() {
            for i in 0..layers[l].n_out {
                params.push((l, i, None));
                params.extend((0..layers[l].n_in).map(|k| (l, i, Some(k))));
            }
        }
        for &(l, i, k) in &params {
            for d in [1i32, -1] {
                let (kw, kb) = ks[l];
                let old = match k {
                    Some(k) => i32::from(layers[l].weights[i * layers[l].n_in + k]),
                    None => layers[l].biases[i],
                };
                let new = old + d;
                if k.is_some() && i16::try_from(new).is_err() {
                    continue;
                }
                let dbits = cost(new, if k.is_some() { kw } else { kb })
                    - cost(old, if k.is_some() { kw } else { kb });
                // Error change of the trial, without changing any state.
                let mut derr: i64 = 0;
                match l {
                    2 => {
                        for r in 0..n {
                            let delta = match k {
                                Some(k) => d * i32::from(a2[r * h2 + k]),
                                None => d,
                            };
                            if delta != 0 {
                                derr += i64::from(wrong(out[r] + delta, wins[r]))
                                    - i64::from(wrong(out[r], wins[r]));
                            }
                        }
                    }
                    1 => {
                        let w3 = i32::from(layers[2].weights[i]);
                        for r in 0..n {
                            let da = match k {
                                Some(k) => d * i32::from(a1[r * h1 + k]),
                                None => d,
                            };
                            if da == 0 {
                                continue;
                            }
                            let na = act(acc2[r * h2 + i] + da, s2);
                            let dout = w3 * (i32::from(na) - i32::from(a2[r * h2 + i]));
                            if dout != 0 {
                                derr += i64::from(wrong(out[r] + dout, wins[r]))
                                    - i64::from(wrong(out[r], wins[r]));
                            }
                        }
                    }
                    _ => {
                        for r in 0..n {
                            let da = match k {
                                Some(k) => d * x[r * n0 + k],
                                None => d,
                            };
                            if da == 0 {
                                continue;
                            }
                            let na1 = act(acc1[r * h1 + i] + da, s1);
                            let d1 = i32::from(na1) - i32::from(a1[r * h1 + i]);
                            if d1 == 0 {
                                continue;
                            }
                            let mut dout = 0;
                            for j in 0..h2 {
                                let w2 = i32::from(layers[1].weights[j * h1 + i]);
                                let na2 = act(acc2[r * h2 + j] + w2 * d1, s2);
                                dout += i32::from(layers[2].weights[j])
                                    * (i32::from(na2) - i32::from(a2[r * h2 + j]));
                            }
                            if dout != 0 {
                                derr += i64::from(wrong(out[r] + dout, wins[r]))
                                    - i64::from(wrong(out[r], wins[r]));
                            }
                        }
                    }
                }
                if dbits as f64 + bits_per_exception * derr as f64 >= 0.0 {
                    continue;
                }
                // Keep the move: update the parameter and every activation it changes.
                let n_in = layers[l].n_in;
                match k {
                    Some(k) => layers[l].weights[i * n_in + k] = new as i16,
                    None => layers[l].biases[i] = new,
                }
                match l {
                    2 => {
                        for r in 0..n {
                            out[r] += match k {
                                Some(k) => d * i32::from(a2[r * h2 + k]),
                                None => d,
                            };
                        }
                    }
                    1 => {
                        let w3 = i32::from(layers[2].weights[i]);
                        for r in 0..n {
                            let da = match k {
                                Some(k) => d * i32::from(a1[r * h1 + k]),
                                None => d,
                            };
                            acc2[r * h2 + i] += da;
                            let na = act(acc2[r * h2 + i], s2);
                            out[r] += w3 * (i32::from(na) - i32::from(a2[r * h2 + i]));
                            a2[r * h2 + i] = na;
                        }
                    }
                    _ => {
                        changed_rows.clear();
                        for r in 0..n {
                            let da = match k {
                                Some(k) => d * x[r * n0 + k],
                                None => d,
                            };
                            acc1[r * h1 + i] += da;
                            let na1 = act(acc1[r * h1 + i], s1);
                            let d1 = i32::from(na1) - i32::from(a1[r * h1 + i]);
                            a1[r * h1 + i] = na1;
                            if d1 != 0 {
                                changed_rows.push((r as u32, d1 as i16));
                            }
                        }
                        for &(r, d1) in &changed_rows {
                            let r = r as usize;
                            for j in 0..h2 {
                                let w2 = i32::from(layers[1].weights[j * h1 + i]);
                                acc2[r * h2 + j] += w2 * i32::from(d1);
                                let na2 = act(acc2[r * h2 + j], s2);
                                out[r] += i32::from(layers[2].weights[j])
                                    * (i32::from(na2) - i32::from(a2[r * h2 + j]));
                                a2[r * h2 + j] = na2;
                            }
                        }
                    }
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
    stats.errors_after = (0..n).filter(|&r| wrong(out[r], wins[r])).count();
    let refined = QuantNet::new(layers, input_bound)?;
    Ok((refined, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use crate::chess::position::{KpkPosition, Outcome};
    use crate::hybrid::InputFunction;

    #[test]
    fn refining_never_grows_the_objective_and_reports_true_error_counts() {
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
        let net = QuantNet::new(vec![layer(7, 3, 0, 1), layer(3, 2, 4, 2), layer(2, 1, 0, 3)], 8).unwrap();
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
        assert!(stats.moves > 0);
        // Bits are counted with the Rice parameters fixed at the start; re-choosing them can only help.
        let objective = |q: &QuantNet, errors: usize| bits(q) as f64 + 10.0 * errors as f64;
        assert!(objective(&refined, stats.errors_after) < objective(&net, before));
    }
}
