//! The integer net: every machine computes the same answer bit for bit.
//!
//! Layer `l` holds 16-bit weights `w` (row-major, `n_out × n_in`), 32-bit biases `b` and a
//! signed shift `s` (−8..=24). With integer inputs `a` it computes, in `i32`,
//!
//! ```text
//! acc_i = b_i + Σ_j w_ij · a_j
//! u_i   = clamp(R(acc_i, s), −128, 128)
//! a′_i  = SIGMOID[u_i + 128]                         ∈ 0..=255   (hidden layers)
//! ```
//!
//! where `R(acc, s) = ⌊(acc + 2^(s−1)) / 2^s⌋` for `s > 0` (round half up, an arithmetic shift),
//! `acc` for `s = 0`, and `acc · 2^−s` for `s < 0` (computed without overflow). The last layer
//! has one neuron; its accumulator `acc` is the net's output and its shift takes no part in it:
//! **win iff acc > 0**, otherwise draw.

use alloc::vec::Vec;

/// Widest layer (and input) the evaluator accepts; its buffers live on the stack.
pub const MAX_WIDTH: usize = 64;
/// Most layers a net may have.
pub const MAX_LAYERS: usize = 8;
/// Shifts a layer may use.
pub const SHIFTS: core::ops::RangeInclusive<i8> = -8..=24;
/// Hidden activations lie in `0..=ACTIVATION_MAX`, standing for `[0, 1]`.
pub const ACTIVATION_MAX: i32 = 255;

/// `SIGMOID[u + 128] = round(255 · σ(u / 16))` for `u` in −128..=128, `σ(t) = 1 / (1 + e^−t)`;
/// the one exact half, `u = 0` (127.5), rounds up to 128. The table is part of the format: an
/// implementation should copy it rather than compute it.
#[rustfmt::skip]
pub const SIGMOID: [u8; 257] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4,
    5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9, 10, 10, 11, 11,
    12, 13, 14, 14, 15, 16, 17, 18, 19, 20, 22, 23, 24, 26, 27, 29,
    30, 32, 34, 36, 38, 40, 42, 44, 47, 49, 51, 54, 57, 60, 62, 65,
    69, 72, 75, 78, 82, 85, 89, 93, 96, 100, 104, 108, 112, 116, 120, 124,
    128, 131, 135, 139, 143, 147, 151, 155, 159, 162, 166, 170, 173, 177, 180, 183,
    186, 190, 193, 195, 198, 201, 204, 206, 208, 211, 213, 215, 217, 219, 221, 223,
    225, 226, 228, 229, 231, 232, 233, 235, 236, 237, 238, 239, 240, 241, 241, 242,
    243, 244, 244, 245, 245, 246, 247, 247, 248, 248, 248, 249, 249, 249, 250, 250,
    250, 251, 251, 251, 251, 252, 252, 252, 252, 252, 253, 253, 253, 253, 253, 253,
    253, 253, 253, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254, 254,
    254, 254, 254, 254, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255,
];

/// Why a net was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetError {
    /// No layers, or more than [`MAX_LAYERS`].
    LayerCount,
    /// A width is 0 or above [`MAX_WIDTH`], the layers do not chain, the last layer is not one
    /// neuron wide, or a weight or bias count does not match the shape.
    Shape,
    /// A shift outside [`SHIFTS`].
    Shift,
    /// Some accumulator could overflow `i32` (the weights are too large for the inputs' bound).
    Overflow,
}

impl core::fmt::Display for NetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            NetError::LayerCount => "a net has 1 to 8 layers",
            NetError::Shape => "the layers' shapes do not chain into one output",
            NetError::Shift => "a layer's shift is outside -8..=24",
            NetError::Overflow => "an accumulator could overflow 32 bits",
        })
    }
}

/// One layer, as the format stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    pub n_in: usize,
    pub n_out: usize,
    /// Shift of the accumulator before the table lookup (no part of the output layer's answer).
    pub shift: i8,
    /// Row-major `n_out × n_in`.
    pub weights: Vec<i16>,
    pub biases: Vec<i32>,
}

/// An integer net with one output; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    layers: Vec<Layer>,
    /// Each layer's weight rows padded with zeros to a multiple of [`LANES`] inputs: a row's dot
    /// product is then whole blocks of 16-bit products summed in 32 bits (one multiply-add
    /// instruction per block on x86's baseline SSE2). Integer sums are exact in any order.
    rows: Vec<Vec<i16>>,
}

/// Inputs per block of a padded row.
const LANES: usize = 8;

impl Net {
    /// Check the shapes chain into one output, the shifts, and that no accumulator can overflow
    /// when every input lies within `input_bound` in magnitude.
    pub fn new(layers: Vec<Layer>, input_bound: i32) -> Result<Net, NetError> {
        if layers.is_empty() || layers.len() > MAX_LAYERS {
            return Err(NetError::LayerCount);
        }
        let mut n_in = layers[0].n_in;
        for layer in &layers {
            let ok_width = |w: usize| (1..=MAX_WIDTH).contains(&w);
            if layer.n_in != n_in
                || !ok_width(layer.n_in)
                || !ok_width(layer.n_out)
                || layer.weights.len() != layer.n_in * layer.n_out
                || layer.biases.len() != layer.n_out
            {
                return Err(NetError::Shape);
            }
            if !SHIFTS.contains(&layer.shift) {
                return Err(NetError::Shift);
            }
            n_in = layer.n_out;
        }
        if n_in != 1 {
            return Err(NetError::Shape);
        }
        check_bounds(&layers, input_bound)?;
        let rows = layers
            .iter()
            .map(|l| {
                let stride = l.n_in.next_multiple_of(LANES);
                let mut padded = alloc::vec![0i16; stride * l.n_out];
                for (row, w) in padded.chunks_exact_mut(stride).zip(l.weights.chunks_exact(l.n_in)) {
                    row[..l.n_in].copy_from_slice(w);
                }
                padded
            })
            .collect();
        Ok(Net { layers, rows })
    }

    #[must_use]
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    #[must_use]
    pub fn n_inputs(&self) -> usize {
        self.layers[0].n_in
    }

    /// The output layer's accumulator for `input` (`input.len() == n_inputs()`); win iff > 0.
    #[inline]
    #[must_use]
    pub fn output(&self, input: &[i16]) -> i32 {
        self.forward(input, |_, _, _| {})
    }

    /// The forward pass: `seen(l, accumulators, activations)` is called for every hidden layer
    /// `l` (what a search over the weights records); returns the output accumulator.
    #[inline(always)]
    pub fn forward(&self, input: &[i16], seen: impl FnMut(usize, &[i32], &[i16])) -> i32 {
        let first = &self.layers[0];
        let stride = first.n_in.next_multiple_of(LANES);
        let mut x = [0i16; MAX_WIDTH];
        x[..input.len()].copy_from_slice(input);
        let mut acc = [0i32; MAX_WIDTH];
        for ((acc, row), &b) in acc.iter_mut().zip(self.rows[0].chunks_exact(stride)).zip(&first.biases) {
            *acc = b + dot(row, &x[..stride]);
        }
        self.forward_from_first(&acc[..first.n_out], seen)
    }

    /// The rest of the forward pass from the first layer's accumulators `acc0` (the output itself
    /// for a one-layer net).
    #[inline(always)]
    pub fn forward_from_first(&self, acc0: &[i32], mut seen: impl FnMut(usize, &[i32], &[i16])) -> i32 {
        let last = self.layers.len() - 1;
        let mut acc = [0i32; MAX_WIDTH];
        acc[..acc0.len()].copy_from_slice(acc0);
        for l in 0..last {
            let layer = &self.layers[l];
            // Activations beyond a layer's width stay 0, so the padded weights add nothing.
            let mut a = [0i16; MAX_WIDTH];
            for (a, &acc) in a.iter_mut().zip(&acc[..layer.n_out]) {
                *a = activation(acc, layer.shift);
            }
            seen(l, &acc[..layer.n_out], &a[..layer.n_out]);
            let (next, rows) = (&self.layers[l + 1], &self.rows[l + 1]);
            let stride = next.n_in.next_multiple_of(LANES);
            for ((acc, row), &b) in acc.iter_mut().zip(rows.chunks_exact(stride)).zip(&next.biases) {
                *acc = b + dot(row, &a[..stride]);
            }
        }
        acc[0]
    }
}

/// `Σ w_j · x_j` over whole blocks of [`LANES`], in 32 bits (no overflow: see `check_bounds`).
#[inline(always)]
fn dot(w: &[i16], x: &[i16]) -> i32 {
    let mut lanes = [0i32; LANES];
    for (w, x) in w.chunks_exact(LANES).zip(x.chunks_exact(LANES)) {
        for k in 0..LANES {
            lanes[k] += i32::from(w[k]) * i32::from(x[k]);
        }
    }
    lanes.iter().sum()
}

/// A hidden neuron's activation from its accumulator: `SIGMOID[clamp(R(acc, s)) + 128]`.
#[inline(always)]
#[must_use]
pub fn activation(acc: i32, shift: i8) -> i16 {
    i16::from(SIGMOID[(shift_round(acc, shift).clamp(-128, 128) + 128) as usize])
}

/// `R(acc, s)` of the module documentation.
#[inline(always)]
#[must_use]
pub fn shift_round(acc: i32, shift: i8) -> i32 {
    match shift {
        0 => acc,
        // A left shift is done in 64 bits and clamped: only the sign and the table's range matter.
        s if s < 0 => (i64::from(acc) << -s).clamp(-1 << 20, 1 << 20) as i32,
        s => (acc + (1 << (s - 1))) >> s,
    }
}

/// Prove `|acc| + 2^max(s, 0) < 2^31 − 1` for every neuron, given `|input| ≤ input_bound`.
fn check_bounds(layers: &[Layer], input_bound: i32) -> Result<(), NetError> {
    let mut bound = i64::from(input_bound);
    for layer in layers {
        for (i, row) in layer.weights.chunks(layer.n_in).enumerate() {
            let worst = i64::from(layer.biases[i]).abs()
                + row.iter().map(|&w| i64::from(w).abs() * bound).sum::<i64>();
            if worst + (1i64 << layer.shift.max(0)) >= i64::from(i32::MAX) {
                return Err(NetError::Overflow);
            }
        }
        bound = i64::from(ACTIVATION_MAX);
    }
    Ok(())
}
