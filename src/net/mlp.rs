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
//! # Skip-layer connections
//!
//! A net made by [`Mlp::with_skip`] also connects its inputs straight to its output layer (Ripley's
//! skip-layer connections; not a multi-layer perceptron in the paper's sense, so section 6's
//! "other topologies"). The last weight layer's rows are then `[bias, weights on the last hidden
//! layer…, weights on the inputs…]`, and the activation row it reads is `[1, hidden…, inputs…]`:
//! every pass treats it as one wider layer, and only the hidden part passes deltas down.
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
use super::topology::Topology;
use crate::error::{Allowed, Error, Result};
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
    /// Skip-layer connections from the inputs to the output layer (see the module docs).
    pub(super) skip: bool,
}

/// Why [`Mlp::with_skip`] refuses a net of two layers (section 3's skip-layer connections join the
/// inputs to the output layer past a hidden layer).
pub(crate) const SKIP_NEEDS_HIDDEN: &str = "has no hidden layer for skip-layer connections";

/// The sigmoid slope b of section 3: a positive number.
pub(crate) fn check_slope(slope: f64) -> Result<()> {
    Allowed::POSITIVE.check(slope).map(|_| ()).map_err(|e| Error::Shape(format!("sigmoid slope {e}")))
}

/// Layer widths, inputs first: the one rule is [`Topology::new`]'s.
fn check_topology(topology: &[usize]) -> Result<()> {
    Topology::new(topology.to_vec()).map(|_| ())
}

/// A net has `expected` weight layers, one per pair of adjacent layer widths.
pub(crate) fn check_layer_count(found: usize, expected: usize) -> Result<()> {
    if found == expected {
        Ok(())
    } else {
        Err(Error::Shape(format!("{found} weight layers, expected {expected}")))
    }
}

/// Weight layer `l` is shaped `expected` (a row per neuron; a bias, then a weight per input) and
/// every weight in it is finite.
pub(crate) fn check_layer<'a>(
    l: usize,
    found: (usize, usize),
    expected: (usize, usize),
    weights: impl IntoIterator<Item = &'a f64>,
) -> Result<()> {
    if found != expected {
        return Err(Error::Shape(format!(
            "weight layer {l} is {}×{}, expected {}×{} (a row per neuron, a bias and a weight per input)",
            found.0, found.1, expected.0, expected.1
        )));
    }
    match weights.into_iter().find(|w| !w.is_finite()) {
        Some(bad) => Err(Error::Shape(format!("weight layer {l} holds a non-finite weight {bad}"))),
        None => Ok(()),
    }
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
        Mlp::random(topology, slope, seed, false)
    }

    /// As [`Mlp::new`], with skip-layer connections from the inputs to the output layer (see the
    /// module docs); the net needs at least one hidden layer.
    ///
    /// ```
    /// let net = kpk::net::mlp::Mlp::with_skip(&[6, 42, 1], 1.0, 7).unwrap();
    /// assert_eq!(net.weight_count(), 7 * 42 + (1 + 42 + 6)); // 343
    /// ```
    pub fn with_skip(topology: &[usize], slope: f64, seed: u64) -> Result<Mlp> {
        if topology.len() < 3 {
            let widths = Topology::new(topology.to_vec())?;
            return Err(Error::Topology { text: widths.to_string(), reason: SKIP_NEEDS_HIDDEN.into() });
        }
        Mlp::random(topology, slope, seed, true)
    }

    fn random(topology: &[usize], slope: f64, seed: u64, skip: bool) -> Result<Mlp> {
        check_topology(topology)?;
        check_slope(slope)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let uniform = Uniform::new_inclusive(-INIT_RANGE, INIT_RANGE)
            .map_err(|e| Error::Internal(format!("weight initialisation range: {e}")))?;
        let mut net = Mlp { topology: topology.to_vec(), slope, layers: Vec::new(), skip };
        net.layers = (0..topology.len() - 1)
            .map(|l| Array2::random_using((topology[l + 1], net.act_width(l)), uniform, &mut rng))
            .collect();
        Ok(net)
    }

    /// A net from given weight layers (shapes as in the module docs; each layer's input width must
    /// match the previous layer's output width). Rejects non-finite weights.
    pub fn from_layers(layers: Vec<Array2<f64>>, slope: f64) -> Result<Mlp> {
        check_slope(slope)?;
        let first = layers.first().ok_or_else(|| Error::Shape("no weight layers".into()))?;
        let mut topology = vec![first.ncols().saturating_sub(1)];
        for (l, w) in layers.iter().enumerate() {
            let n_in = *topology.last().expect("topology is never empty");
            check_layer(l, w.dim(), (w.nrows(), n_in + 1), w)?;
            topology.push(w.nrows());
        }
        check_topology(&topology)?;
        // Standard layout is what the hot loops slice; copy if a caller passed a transposed view.
        let layers = layers.into_iter().map(|w| w.as_standard_layout().into_owned()).collect();
        Ok(Mlp { topology, slope, layers, skip: false })
    }

    /// A net like this one (topology, slope, skip-layer connections) with other weights, each
    /// layer shaped as this net's. Rejects other shapes and non-finite weights.
    pub fn with_layers(&self, layers: Vec<Array2<f64>>) -> Result<Mlp> {
        check_layer_count(layers.len(), self.layers.len())?;
        for (l, (w, own)) in layers.iter().zip(&self.layers).enumerate() {
            check_layer(l, w.dim(), own.dim(), w)?;
        }
        let layers = layers.into_iter().map(|w| w.as_standard_layout().into_owned()).collect();
        Ok(Mlp { layers, ..self.clone() })
    }

    /// Does the net have skip-layer connections (see the module docs)?
    pub fn has_skip(&self) -> bool {
        self.skip
    }

    /// Width of activation row `l` as the weight layer above reads it: the constant 1 and layer
    /// `l`'s neurons, and the inputs after them where skip-layer connections feed the output layer.
    pub(super) fn act_width(&self, l: usize) -> usize {
        let tail = if self.skip && l + 2 == self.topology.len() { self.n_inputs() } else { 0 };
        self.topology[l] + 1 + tail
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
        // A checked topology has at least two layers.
        self.topology[self.topology.len() - 1]
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
        if self.skip {
            let below_top = &mut ws.acts[self.topology.len() - 2];
            let n = below_top.len();
            below_top[n - input.len()..].copy_from_slice(input);
        }
        for (l, w) in self.layers.iter().enumerate() {
            let (below, above) = ws.acts.split_at_mut(l + 1);
            let a_in = &below[l];
            let a_out = &mut above[0][1..=self.topology[l + 1]];
            gemv(super::values(w), a_in, a_out);
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
        let acts = (0..net.topology.len())
            .map(|l| {
                let mut a = vec![0.0; net.act_width(l)];
                a[0] = 1.0;
                a
            })
            .collect();
        let deltas = net.topology[1..].iter().map(|&n| vec![0.0; n]).collect();
        Workspace { acts, deltas }
    }
}

#[cfg(test)]
mod tests;
