//! The paper's learner (section 3, Figure 1): a fully connected multi-layer perceptron a-b-…-k of
//! sigmoid neurons, and its single-sample forward pass. No I/O.
//!
//! # Layout
//!
//! Weight layer `l` (0-based) connects layer `l` of neurons (width `n_in = topology[l]`) to layer
//! `l + 1` (width `n_out = topology[l + 1]`). It is an `Array2<f64>` of shape `(n_out, n_in + 1)`
//! in standard (row-major) layout: row `j` holds the weights into neuron `j`, and column 0 is the
//! weight on the paper's constant-1 neuron x0 = 1 (the bias); columns `1..=n_in` are the weights on
//! the neurons of the layer below. So 32-10-10-1 has 33·10 + 11·10 + 11·1 = 451 weights, the count
//! Table 5 gives.
//!
//! The [`Workspace`] stores each layer's activations with that constant 1 in front, so a neuron's
//! input sum is one dot product of its weight row with the workspace row, and a weight row's
//! update is one `axpy`: both run over contiguous slices and the compiler vectorises them.
//!
//! # Activation
//!
//! Section 3: y = f(z) = 1 / (1 + e^(−bz)) with slope b > 0 (the paper uses b = 1), whose
//! derivative is f′(z) = b·f(z)·(1 − f(z)).
//!
//! # Determinism
//!
//! Every sum is taken in an order fixed by `net/kernels.rs` (dot products use four interleaved
//! partial sums, combined in a fixed tree), so the same weights and inputs give bit-identical
//! outputs and updates however wide the machine's vector unit is (`net/simd.rs`); Rust never
//! fuses a multiply and an add on its own.
//!
//! The backward pass and the online update are in `net/backprop.rs`, the batch passes of
//! minibatch training in [`super::batch`].

use super::kernels::gemv;
use super::simd::vectorised;
use crate::error::{Error, Result};
use ndarray::{Array1, Array2, ArrayView1};
use ndarray_rand::RandomExt;
use ndarray_rand::rand::SeedableRng;
use ndarray_rand::rand_distr::Uniform;
use rand_chacha::ChaCha8Rng;

/// The paper's initial weight range (section 4.5: "set the weights initially at random to values in
/// the [−0.1, +0.1] range").
pub const INIT_RANGE: f64 = 0.1;

/// The logistic sigmoid f(z) = 1 / (1 + e^(−bz)) of section 3, evaluated without overflow and
/// without a branch: with e = e^(−|bz|) ∈ (0, 1], f = 1 / (1 + e) for bz ≥ 0 and e / (1 + e)
/// otherwise (the same value, written so `exp` never sees a large positive argument and the
/// result keeps full relative precision near 0). The exponential is [`exp_nonpositive`], so a loop
/// of sigmoids vectorises.
#[inline(always)]
pub fn sigmoid(z: f64, slope: f64) -> f64 {
    let x = slope * z;
    let e = exp_nonpositive(-x.abs());
    let s = 1.0 / (1.0 + e);
    if x >= 0.0 { s } else { e * s }
}

/// e^t for t ≤ 0 (t ≥ −708; below that, 0 — the sigmoid is then below 1e−307 — and NaN stays NaN),
/// within 2 ulp of the exact value. Branch-free so that loops over it vectorise, and written out
/// here so that the result is fixed by this file rather than by the platform's `libm`:
/// t = n·ln 2 + r with |r| ≤ ½ ln 2 (Cody–Waite, ln 2 split in two parts so n·ln2_hi is exact),
/// e^r by its Taylor polynomial to degree 13 in Horner form (truncation error < 1e−17 relative),
/// and 2^n put straight into the exponent bits.
#[inline(always)]
pub fn exp_nonpositive(t: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    // ln 2 = LN2_HI + LN2_LO, LN2_HI with 32 significant bits (fdlibm's split).
    const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
    // 1.5·2^52: adding it rounds to an integer held in the low mantissa bits.
    const SHIFTER: f64 = 6_755_399_441_055_744.0;
    const C: [f64; 14] = [
        1.0,
        1.0,
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5040.0,
        1.0 / 40320.0,
        1.0 / 362_880.0,
        1.0 / 3_628_800.0,
        1.0 / 39_916_800.0,
        1.0 / 479_001_600.0,
        1.0 / 6_227_020_800.0,
    ];
    let too_small = t < -708.0;
    let t = if too_small { 0.0 } else { t };
    let shifted = t * LOG2E + SHIFTER;
    let n = shifted - SHIFTER;
    let r = (t - n * LN2_HI) - n * LN2_LO;
    let mut p = C[13];
    for &c in C[..13].iter().rev() {
        p = p * r + c;
    }
    // The low 32 bits of `shifted` hold n in two's complement; n ∈ [−1022, 0] here.
    let n_bits = (shifted.to_bits() as i64) << 32 >> 32;
    let scale = f64::from_bits(((n_bits + 1023) as u64) << 52);
    if too_small { 0.0 } else { p * scale }
}

/// A sigmoid multi-layer perceptron (section 3, Figure 1). See the module docs for the layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub(super) topology: Vec<usize>,
    pub(super) slope: f64,
    pub(super) layers: Vec<Array2<f64>>,
}

fn check_slope(slope: f64) -> Result<()> {
    if slope.is_finite() && slope > 0.0 {
        Ok(())
    } else {
        Err(Error::Shape(format!("sigmoid slope must be finite and > 0, got {slope}")))
    }
}

fn check_topology(topology: &[usize]) -> Result<()> {
    if topology.len() < 2 {
        return Err(Error::Shape(format!(
            "a network needs at least an input and an output layer, got topology {topology:?}"
        )));
    }
    if topology.contains(&0) {
        return Err(Error::Shape(format!("topology {topology:?} has a layer of width 0")));
    }
    Ok(())
}

impl Mlp {
    /// A new net with the given layer widths (inputs first, outputs last), sigmoid slope b, and
    /// every weight (biases included) drawn uniformly from [−0.1, 0.1] (section 4.5) by a
    /// `ChaCha8Rng` seeded with `seed`, layer by layer, each layer in row-major order.
    ///
    /// ```
    /// let net = kpk::net::mlp::Mlp::new(&[32, 32, 5, 2], 1.0, 7).unwrap();
    /// assert_eq!(net.weight_count(), 1233); // NN6 of Table 5
    /// ```
    pub fn new(topology: &[usize], slope: f64, seed: u64) -> Result<Mlp> {
        check_topology(topology)?;
        check_slope(slope)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let uniform = Uniform::new_inclusive(-INIT_RANGE, INIT_RANGE)
            .map_err(|e| Error::Internal(format!("weight initialisation range: {e}")))?;
        let layers =
            topology.windows(2).map(|w| Array2::random_using((w[1], w[0] + 1), uniform, &mut rng)).collect();
        Ok(Mlp { topology: topology.to_vec(), slope, layers })
    }

    /// A net from given weight layers (shapes as in the module docs; each layer's input width must
    /// match the previous layer's output width). Rejects non-finite weights.
    pub fn from_layers(layers: Vec<Array2<f64>>, slope: f64) -> Result<Mlp> {
        check_slope(slope)?;
        let first =
            layers.first().ok_or_else(|| Error::Shape("a network needs at least one weight layer".into()))?;
        let mut topology = vec![first.ncols().saturating_sub(1)];
        for (l, w) in layers.iter().enumerate() {
            let n_in = *topology.last().expect("topology is never empty");
            if w.ncols() != n_in + 1 {
                return Err(Error::Shape(format!(
                    "weight layer {l} has {} columns, expected {} (bias + {n_in} inputs)",
                    w.ncols(),
                    n_in + 1
                )));
            }
            if let Some(bad) = w.iter().find(|v| !v.is_finite()) {
                return Err(Error::Shape(format!("weight layer {l} holds a non-finite weight {bad}")));
            }
            topology.push(w.nrows());
        }
        check_topology(&topology)?;
        // Standard layout is what the hot loops slice; copy if a caller passed a transposed view.
        let layers = layers.into_iter().map(|w| w.as_standard_layout().into_owned()).collect();
        Ok(Mlp { topology, slope, layers })
    }

    /// Layer widths, inputs first.
    pub fn topology(&self) -> &[usize] {
        &self.topology
    }

    /// The sigmoid slope b.
    pub fn slope(&self) -> f64 {
        self.slope
    }

    /// Number of inputs.
    pub fn n_inputs(&self) -> usize {
        self.topology[0]
    }

    /// Number of outputs.
    pub fn n_outputs(&self) -> usize {
        *self.topology.last().expect("topology has at least two layers")
    }

    /// Total number of weights, biases included (Table 5's "# wts." column).
    pub fn weight_count(&self) -> usize {
        self.layers.iter().map(|w| w.len()).sum()
    }

    /// The weight layers; layer `l` has shape `(topology[l + 1], topology[l] + 1)`, column 0 the bias.
    pub fn layers(&self) -> &[Array2<f64>] {
        &self.layers
    }

    pub(crate) fn layers_mut(&mut self) -> &mut [Array2<f64>] {
        &mut self.layers
    }

    /// Forward pass into `out` (`input.len() == n_inputs()`, `out.len() == n_outputs()`). Allocates a
    /// [`Workspace`]; loops over many inputs should use [`Mlp::forward_with`].
    pub fn forward(&self, input: &[f64], out: &mut [f64]) {
        let mut ws = Workspace::new(self);
        out.copy_from_slice(self.forward_with(&mut ws, input));
    }

    /// Forward pass that allocates nothing: activations are kept in `ws` (made by
    /// [`Workspace::new`] for a net of this topology) and the outputs are returned from it.
    ///
    /// Panics if `input.len() != n_inputs()` or `ws` belongs to another topology.
    pub fn forward_with<'w>(&self, ws: &'w mut Workspace, input: &[f64]) -> &'w [f64] {
        assert_eq!(input.len(), self.n_inputs(), "input width");
        assert_eq!(ws.acts.len(), self.topology.len(), "workspace topology");
        vectorised(
            #[inline(always)]
            || self.forward_in(ws, input),
        );
        &ws.acts[self.topology.len() - 1][1..]
    }

    /// The forward pass itself, for callers already inside [`vectorised`].
    #[inline(always)]
    pub(super) fn forward_in(&self, ws: &mut Workspace, input: &[f64]) {
        ws.acts[0][1..].copy_from_slice(input);
        for (l, w) in self.layers.iter().enumerate() {
            let (below, above) = ws.acts.split_at_mut(l + 1);
            let a_in = &below[l];
            let a_out = &mut above[0][1..];
            gemv(w.as_slice().expect("layers are kept in standard layout"), a_in, a_out);
            for y in a_out.iter_mut() {
                *y = sigmoid(*y, self.slope);
            }
        }
    }

    /// Forward pass for one input row; allocates. `input.len() == n_inputs()`.
    pub fn predict(&self, input: ArrayView1<f64>) -> Array1<f64> {
        let input = input.to_vec();
        let mut out = Array1::zeros(self.n_outputs());
        self.forward(&input, out.as_slice_mut().expect("fresh array is contiguous"));
        out
    }
}

/// Preallocated activation and delta buffers for one net topology, so that forward and backward
/// passes allocate nothing.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// `acts[l]` = [1, activations of layer l…]: the constant-1 neuron first (section 3, x0 = 1).
    pub(super) acts: Vec<Vec<f64>>,
    /// `deltas[l]` = ∂L/∂z for the neurons fed by weight layer l (layer l + 1 of neurons).
    pub(super) deltas: Vec<Vec<f64>>,
}

impl Workspace {
    /// Buffers for nets of `net`'s topology.
    pub fn new(net: &Mlp) -> Workspace {
        let acts = net
            .topology
            .iter()
            .map(|&n| {
                let mut a = vec![0.0; n + 1];
                a[0] = 1.0;
                a
            })
            .collect();
        let deltas = net.topology[1..].iter().map(|&n| vec![0.0; n]).collect();
        Workspace { acts, deltas }
    }
}

#[cfg(test)]
// The tests walk several same-shaped arrays by layer index.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndarray_rand::rand::Rng;

    #[test]
    fn weight_counts_match_table_5() {
        for (topology, count) in [
            (&[32, 10, 10, 1][..], 451),
            (&[32, 20, 10, 1], 881),
            (&[32, 32, 5, 1], 1227),
            (&[32, 64, 10, 1], 2773),
            (&[32, 64, 20, 1], 3433),
            (&[32, 32, 5, 2], 1233),
        ] {
            assert_eq!(Mlp::new(topology, 1.0, 0).unwrap().weight_count(), count, "{topology:?}");
        }
    }

    #[test]
    fn initial_weights_are_in_range_seeded_and_not_constant() {
        let a = Mlp::new(&[32, 64, 20, 1], 1.0, 42).unwrap();
        let b = Mlp::new(&[32, 64, 20, 1], 1.0, 42).unwrap();
        let c = Mlp::new(&[32, 64, 20, 1], 1.0, 43).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let all: Vec<f64> = a.layers().iter().flat_map(|w| w.iter().copied()).collect();
        assert!(all.iter().all(|w| (-INIT_RANGE..=INIT_RANGE).contains(w)));
        // Spread over the range: both signs, and near both ends.
        assert!(all.iter().any(|&w| w > 0.09) && all.iter().any(|&w| w < -0.09));
        let mean = all.iter().sum::<f64>() / all.len() as f64;
        assert!(mean.abs() < 0.01, "mean {mean}");
    }

    #[test]
    fn bad_topologies_and_slopes_are_rejected() {
        assert!(Mlp::new(&[32], 1.0, 0).is_err());
        assert!(Mlp::new(&[], 1.0, 0).is_err());
        assert!(Mlp::new(&[32, 0, 1], 1.0, 0).is_err());
        assert!(Mlp::new(&[2, 1], 0.0, 0).is_err());
        assert!(Mlp::new(&[2, 1], f64::NAN, 0).is_err());
        assert!(Mlp::from_layers(vec![], 1.0).is_err());
        // Layer 2 expects 3 + 1 columns.
        assert!(Mlp::from_layers(vec![Array2::zeros((3, 3)), Array2::zeros((1, 3))], 1.0).is_err());
        assert!(Mlp::from_layers(vec![array![[0.0, f64::INFINITY]]], 1.0).is_err());
        let net = Mlp::from_layers(vec![Array2::zeros((3, 3)), Array2::zeros((1, 4))], 1.0).unwrap();
        assert_eq!(net.topology(), &[2, 3, 1]);
    }

    #[test]
    fn sigmoid_is_the_papers_function_and_never_overflows() {
        for &z in &[-30.0f64, -2.5, -0.1, 0.0, 0.1, 2.5, 30.0] {
            for &b in &[0.5, 1.0, 2.0] {
                let naive = 1.0 / (1.0 + (-b * z).exp());
                assert!((sigmoid(z, b) - naive).abs() < 1e-15);
                // f(z) + f(−z) = 1 (section 3).
                assert!((sigmoid(z, b) + sigmoid(-z, b) - 1.0).abs() < 1e-15);
            }
        }
        assert_eq!(sigmoid(0.0, 1.0), 0.5);
        assert_eq!(sigmoid(1e6, 1.0), 1.0);
        assert_eq!(sigmoid(-1e6, 1.0), 0.0);
        assert_eq!(sigmoid(f64::INFINITY, 1.0), 1.0);
        assert_eq!(sigmoid(f64::NEG_INFINITY, 1.0), 0.0);
        // Far in the tail the stable form keeps relative precision: f(−700) ≈ e^−700.
        let tiny = sigmoid(-700.0, 1.0);
        assert!(tiny > 0.0 && ((tiny / (-700.0f64).exp()) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn exp_nonpositive_is_within_two_ulp_of_libm() {
        let ulp = |x: f64| f64::from_bits(x.to_bits() + 1) - x;
        let mut t = 0.0f64;
        let mut worst = 0.0f64;
        // Dense near 0, then out to the underflow cut.
        while t > -708.0 {
            let (mine, libm) = (exp_nonpositive(t), t.exp());
            worst = worst.max((mine - libm).abs() / ulp(libm));
            t -= 0.000_731 * (1.0 - t);
        }
        assert!(worst <= 2.0, "worst error {worst} ulp");
        assert_eq!(exp_nonpositive(0.0), 1.0);
        assert_eq!(exp_nonpositive(-1000.0), 0.0);
        assert_eq!(exp_nonpositive(f64::NEG_INFINITY), 0.0);
        assert!(exp_nonpositive(f64::NAN).is_nan());
    }

    #[test]
    fn forward_matches_a_hand_computation() {
        // 2-2-1 with known weights; column 0 is the bias.
        let w1 = array![[0.1, 0.2, -0.3], [-0.4, 0.5, 0.6]];
        let w2 = array![[0.7, -0.8, 0.9]];
        let net = Mlp::from_layers(vec![w1, w2], 2.0).unwrap();
        let x = [1.5, -0.5];
        let f = |z: f64| 1.0 / (1.0 + (-2.0 * z).exp());
        let h0 = f(0.1 + 0.2 * 1.5 - 0.3 * -0.5);
        let h1 = f(-0.4 + 0.5 * 1.5 + 0.6 * -0.5);
        let y = f(0.7 - 0.8 * h0 + 0.9 * h1);
        let mut out = [0.0];
        net.forward(&x, &mut out);
        assert!((out[0] - y).abs() < 1e-15);
        assert!((net.predict(ndarray::aview1(&x))[0] - y).abs() < 1e-15);
    }

    /// Loss of one position under the current weights.
    fn loss(net: &Mlp, x: &[f64], d: &[f64]) -> f64 {
        let mut y = vec![0.0; net.n_outputs()];
        net.forward(x, &mut y);
        y.iter().zip(d).map(|(y, d)| 0.5 * (y - d) * (y - d)).sum()
    }

    #[test]
    fn backprop_gradients_equal_central_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let unit = Uniform::new_inclusive(-1.0, 1.0).unwrap();
        for (case, topology) in
            [&[3, 4, 1][..], &[5, 4, 3, 2], &[2, 7, 1, 3], &[4, 3, 3, 3, 2]].into_iter().enumerate()
        {
            for slope in [1.0, 0.7] {
                // Larger weights than the initial ±0.1, so hidden units are off their linear part.
                let layers = topology
                    .windows(2)
                    .map(|w| Array2::random_using((w[1], w[0] + 1), unit, &mut rng) * 2.0)
                    .collect();
                let mut net = Mlp::from_layers(layers, slope).unwrap();
                let x: Vec<f64> = (0..topology[0]).map(|_| rng.sample(unit) * 3.0).collect();
                let d: Vec<f64> = (0..net.n_outputs()).map(|k| (k % 2) as f64).collect();
                let mut ws = Workspace::new(&net);
                let mut grads: Vec<Array2<f64>> =
                    net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
                let l0 = net.accumulate_gradient(&mut ws, &x, &d, &mut grads);
                assert!((l0 - loss(&net, &x, &d)).abs() < 1e-15);
                let h = 1e-6;
                for l in 0..net.layers().len() {
                    for (idx, &g) in grads[l].indexed_iter() {
                        let w0 = net.layers[l][idx];
                        net.layers[l][idx] = w0 + h;
                        let up = loss(&net, &x, &d);
                        net.layers[l][idx] = w0 - h;
                        let down = loss(&net, &x, &d);
                        net.layers[l][idx] = w0;
                        let fd = (up - down) / (2.0 * h);
                        assert!(
                            (g - fd).abs() <= 1e-8 + 1e-6 * fd.abs(),
                            "case {case} slope {slope} layer {l} weight {idx:?}: backprop {g}, finite difference {fd}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_sgd_step_moves_each_weight_by_minus_eta_times_its_gradient() {
        let mut net = Mlp::new(&[4, 5, 3, 2], 1.0, 9).unwrap();
        let x = [0.5, -1.0, 2.0, 0.0];
        let d = [1.0, 0.0];
        let mut ws = Workspace::new(&net);
        let mut grads: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
        let before = net.clone();
        net.accumulate_gradient(&mut ws, &x, &d, &mut grads);
        assert_eq!(net, before, "computing a gradient leaves the weights alone");
        let eta = 0.3;
        net.sgd_step(&mut ws, &x, &d, eta, None);
        for l in 0..grads.len() {
            for (idx, &g) in grads[l].indexed_iter() {
                let expected = before.layers[l][idx] - eta * g;
                assert!((net.layers[l][idx] - expected).abs() < 1e-15);
            }
        }
        // With momentum and zero velocity the first step is the same, and the velocity holds it.
        let mut with_momentum = before.clone();
        let mut velocity: Vec<Array2<f64>> = grads.iter().map(|g| Array2::zeros(g.dim())).collect();
        with_momentum.sgd_step(&mut ws, &x, &d, eta, Some((0.9, &mut velocity)));
        for l in 0..grads.len() {
            for (idx, &g) in grads[l].indexed_iter() {
                assert!((with_momentum.layers[l][idx] - net.layers[l][idx]).abs() < 1e-15);
                assert!((velocity[l][idx] + eta * g).abs() < 1e-15);
            }
        }
        // A second step adds 0.9 × the first.
        let mut grads2: Vec<Array2<f64>> = grads.iter().map(|g| Array2::zeros(g.dim())).collect();
        let after_one = with_momentum.clone();
        with_momentum.clone().accumulate_gradient(&mut ws, &x, &d, &mut grads2);
        with_momentum.sgd_step(&mut ws, &x, &d, eta, Some((0.9, &mut velocity)));
        for l in 0..grads.len() {
            for (idx, &g2) in grads2[l].indexed_iter() {
                let step = 0.9 * (-eta * grads[l][idx]) - eta * g2;
                assert!((with_momentum.layers[l][idx] - after_one.layers[l][idx] - step).abs() < 1e-14);
            }
        }
    }

    #[test]
    fn a_2_2_1_net_learns_xor() {
        let xs = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
        let ds = [0.0, 1.0, 1.0, 0.0];
        let mut solved = 0;
        for seed in 0..5 {
            // Small initial weights sit near XOR's saddle; a larger η escapes it quickly.
            let mut net = Mlp::new(&[2, 2, 1], 1.0, seed).unwrap();
            let mut ws = Workspace::new(&net);
            for _ in 0..20_000 {
                for (x, &d) in xs.iter().zip(&ds) {
                    net.sgd_step(&mut ws, x, &[d], 2.0, None);
                }
            }
            let ok = xs.iter().zip(&ds).all(|(x, &d)| (net.forward_with(&mut ws, x)[0] - d).abs() < 0.2);
            solved += usize::from(ok);
        }
        // A 2-2-1 net has local minima on XOR; most seeds must find the solution.
        assert!(solved >= 3, "only {solved} of 5 seeds learned XOR");
    }
}
