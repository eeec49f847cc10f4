//! The stored net: a multilayer perceptron in integer arithmetic, so that every machine computes
//! bit-for-bit the same answer and the exception table stays valid everywhere.
//!
#![doc = include_str!("quant.md")]

use crate::error::{Error, Result};
use crate::net::topology::Topology;
use ndarray::Array2;

/// How the integer net computes (also printed in reports/COMPRESSION.md).
pub const ARITHMETIC_DOC: &str = include_str!("quant.md");

/// Table resolution: `u` counts sixteenths of the sigmoid's argument.
pub const SIGMOID_STEPS_PER_UNIT: f64 = 16.0;
/// Hidden activations lie in `0..=ACTIVATION_MAX`, standing for `[0, 1]`.
pub const ACTIVATION_MAX: i32 = 255;
/// Widest layer the evaluator accepts (its buffers live on the stack).
pub const MAX_WIDTH: usize = 64;
/// Shifts a layer may use: a negative shift multiplies the accumulator by `2^−s` instead.
pub const SHIFTS: std::ops::RangeInclusive<i8> = -8..=24;
/// Largest bias magnitude a file may hold (weights are `i16`).
pub const MAX_MAGNITUDE: i64 = 1 << 24;

// One integer layer is the probe crate's (`kpk_probe::net::Layer`), so the file, kpk and the
// embeddable probe share one definition; so is the activation table `kpk_probe::net::SIGMOID`.
use kpk_probe::net::Layer;

/// An integer MLP with one output; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    layers: Vec<Layer>,
    /// The same layers as the probe crate evaluates them (one evaluator for kpk and the probe).
    eval: kpk_probe::net::Net,
}

impl QuantNet {
    /// Check the shapes chain and end in one output, and that no accumulator can overflow when
    /// every input lies within `input_bound` in magnitude.
    pub fn new(layers: Vec<Layer>, input_bound: i32) -> Result<QuantNet> {
        check_shapes(&layers)?;
        check_bounds(&layers, input_bound)?;
        let eval =
            kpk_probe::net::Net::new(layers.clone(), input_bound).map_err(|e| Error::Model(e.to_string()))?;
        Ok(QuantNet { layers, eval })
    }

    /// Prove `|acc| < 2^31` for every neuron, given `|input| ≤ input_bound`.
    pub fn check_bounds(&self, input_bound: i32) -> Result<()> {
        check_bounds(&self.layers, input_bound)
    }

    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    pub fn n_inputs(&self) -> usize {
        self.layers[0].n_in
    }

    /// Number of weights and biases.
    pub fn parameter_count(&self) -> usize {
        self.layers.iter().map(|l| l.weights.len() + l.biases.len()).sum()
    }

    /// The layer widths, inputs first (written as the paper writes them, e.g. `33-16-4-1`); an
    /// error if they are not a topology kpk trains.
    pub fn topology(&self) -> Result<Topology> {
        Topology::new(std::iter::once(self.n_inputs()).chain(self.layers.iter().map(|l| l.n_out)).collect())
    }

    /// The output layer's accumulator for `input` (`input.len() == n_inputs()`); win iff > 0.
    #[inline]
    pub fn output(&self, input: &[i32]) -> i32 {
        self.forward(input, |_, _, _| {})
    }

    /// The forward pass, the only one: `seen(l, accumulators, activations)` is called for every
    /// hidden layer `l` (what [`super::refine`] records); returns the output accumulator.
    #[inline(always)]
    pub(crate) fn forward(&self, input: &[i32], seen: impl FnMut(usize, &[i32], &[i16])) -> i32 {
        let mut a = [0i16; MAX_WIDTH];
        for (a, &x) in a.iter_mut().zip(input) {
            *a = x as i16; // inputs are bounded by the input function (|x| ≤ 16)
        }
        self.eval.forward(&a[..input.len()], seen)
    }

    /// The evaluator the probe crate runs.
    pub fn evaluator(&self) -> &kpk_probe::net::Net {
        &self.eval
    }
}

fn check_shapes(layers: &[Layer]) -> Result<()> {
    let bad = |m: String| Err(Error::Model(m));
    let Some(last) = layers.last() else { return bad("a net needs at least one layer".into()) };
    if last.n_out != 1 {
        return bad(format!("the output layer has {} neurons, expected 1", last.n_out));
    }
    for (l, layer) in layers.iter().enumerate() {
        if layer.n_in == 0 || layer.n_out == 0 || layer.n_in > MAX_WIDTH || layer.n_out > MAX_WIDTH {
            return bad(format!(
                "layer {l} is {}×{}: widths must be 1..={MAX_WIDTH}",
                layer.n_out, layer.n_in
            ));
        }
        if layer.weights.len() != layer.n_in * layer.n_out || layer.biases.len() != layer.n_out {
            return bad(format!("layer {l}: weight or bias count does not match its shape"));
        }
        if l > 0 && layers[l - 1].n_out != layer.n_in {
            return bad(format!(
                "layer {l} takes {} inputs, the layer below gives {}",
                layer.n_in,
                layers[l - 1].n_out
            ));
        }
        check_shift(layer.shift).map_err(|e| Error::Model(format!("layer {l}: {e}")))?;
    }
    Ok(())
}

/// A layer's shift, one of [`SHIFTS`].
fn check_shift(shift: i8) -> std::result::Result<(), String> {
    if SHIFTS.contains(&shift) { Ok(()) } else { Err(format!("shift {shift} is outside {SHIFTS:?}")) }
}

/// Prove `|acc| < 2^31` for every neuron, given `|input| ≤ input_bound`.
fn check_bounds(layers: &[Layer], input_bound: i32) -> Result<()> {
    let mut bound = i64::from(input_bound);
    for (l, layer) in layers.iter().enumerate() {
        for (i, row) in layer.weights.chunks(layer.n_in).enumerate() {
            let worst = i64::from(layer.biases[i]).abs()
                + row.iter().map(|&w| i64::from(w).abs() * bound).sum::<i64>();
            // Room for the rounding term added before the shift.
            if worst + (1i64 << layer.shift.max(0)) >= i64::from(i32::MAX) {
                return Err(Error::Model(format!(
                    "layer {l} neuron {i} could overflow a 32-bit accumulator"
                )));
            }
        }
        bound = i64::from(ACTIVATION_MAX);
    }
    Ok(())
}

/// A float layer as the trainer stores it: shape `(n_out, n_in + 1)`, column 0 the bias.
pub type FloatLayer = Array2<f64>;

/// Quantise a float sigmoid net (`σ(slope · z)` in every layer; the output's sign of `z` is the
/// class) whose raw inputs were coded as `scale[j] · x_j + offset[j]` from the integer inputs
/// `x_j`. `shifts[l]` sets layer `l`'s precision: weights are scaled by `2^shifts[l]`.
pub fn quantise(
    layers: &[FloatLayer],
    slope: f64,
    scale: &[f64],
    offset: &[f64],
    shifts: &[i8],
    input_bound: i32,
) -> Result<QuantNet> {
    if layers.is_empty() || shifts.len() != layers.len() {
        return Err(Error::Quantise("one shift per layer is needed".into()));
    }
    let n0 = layers[0].ncols() - 1;
    if scale.len() != n0 || offset.len() != n0 {
        let width = Error::InputWidth { net: n0, by: "the coding".into(), given: scale.len() };
        return Err(Error::Quantise(width.to_string()));
    }
    let k = SIGMOID_STEPS_PER_UNIT * slope;
    let mut out = Vec::with_capacity(layers.len());
    for (l, (w, &shift)) in layers.iter().zip(shifts).enumerate() {
        let (n_out, n_in) = (w.nrows(), w.ncols() - 1);
        check_shift(shift).map_err(Error::Quantise)?;
        let f = k * 2f64.powi(i32::from(shift));
        let mut weights = Vec::with_capacity(n_out * n_in);
        let mut biases = Vec::with_capacity(n_out);
        for i in 0..n_out {
            let mut bias = w[[i, 0]];
            for j in 0..n_in {
                let (m, c) =
                    if l == 0 { (scale[j], offset[j]) } else { (1.0 / f64::from(ACTIVATION_MAX), 0.0) };
                bias += w[[i, j + 1]] * c;
                let v = to_int(w[[i, j + 1]] * m * f)?;
                weights.push(i16::try_from(v).map_err(|_| {
                    Error::Quantise(format!("weight {v} does not fit 16 bits at shift {shift}"))
                })?);
            }
            biases.push(to_int(bias * f)?);
        }
        out.push(Layer { n_in, n_out, shift, weights, biases });
    }
    QuantNet::new(out, input_bound)
}

fn to_int(v: f64) -> Result<i32> {
    let r = v.round();
    if !r.is_finite() || r.abs() > MAX_MAGNITUDE as f64 {
        return Err(Error::Quantise(format!("value {v} does not fit the stored range")));
    }
    Ok(r as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpk_probe::net::{SIGMOID, shift_round};
    use ndarray::array;

    #[test]
    fn sigmoid_table_is_monotone_symmetric_and_matches_libm_within_rounding() {
        for i in 0..257 {
            let x = (i as f64 - 128.0) / 16.0;
            let exact = 255.0 / (1.0 + (-x).exp());
            assert!((f64::from(SIGMOID[i]) - exact).abs() <= 0.5 + 1e-9, "u = {}", i as i32 - 128);
            if i > 0 {
                assert!(SIGMOID[i] >= SIGMOID[i - 1]);
            }
            assert_eq!(u16::from(SIGMOID[i]) + u16::from(SIGMOID[256 - i]), 255 + u16::from(i == 128));
        }
        assert_eq!((SIGMOID[0], SIGMOID[128], SIGMOID[256]), (0, 128, 255));
    }

    #[test]
    fn shift_rounds_half_up() {
        assert_eq!([7, 8, 9, -8, -9, -7].map(|a| shift_round(a, 4)), [0, 1, 1, 0, -1, 0]);
        assert_eq!(shift_round(-5, 0), -5);
        assert_eq!(shift_round(-5, -2), -20);
    }

    #[test]
    fn quantised_net_follows_the_float_net() {
        // 2-2-1 net: hidden h = σ(slope (b + w·x)), output sign of (b + w·h).
        let l0 = array![[0.5, 1.0, -2.0], [-1.0, 0.25, 0.75]];
        let l1 = array![[-0.3, 1.0, -0.5]];
        let slope = 1.0;
        let q = quantise(&[l0.clone(), l1.clone()], slope, &[0.5, 0.5], &[0.0, -1.0], &[8, 8], 8).unwrap();
        assert_eq!(q.topology().unwrap().to_string(), "2-2-1");
        assert_eq!(q.parameter_count(), 9);
        let sig = |z: f64| 1.0 / (1.0 + (-slope * z).exp());
        for x0 in -8..=8 {
            for x1 in -8..=8 {
                let i = [0.5 * x0 as f64, 0.5 * x1 as f64 - 1.0];
                let h: Vec<f64> =
                    (0..2).map(|r| sig(l0[[r, 0]] + l0[[r, 1]] * i[0] + l0[[r, 2]] * i[1])).collect();
                let z = l1[[0, 0]] + l1[[0, 1]] * h[0] + l1[[0, 2]] * h[1];
                if z.abs() > 0.02 {
                    assert_eq!(q.output(&[x0, x1]) > 0, z > 0.0, "x = ({x0}, {x1}), z = {z}");
                }
            }
        }
    }

    #[test]
    fn rejects_bad_shapes_and_overflow() {
        let layer = |n_in, n_out, w: i16| Layer {
            n_in,
            n_out,
            shift: 0,
            weights: vec![w; n_in * n_out],
            biases: vec![0; n_out],
        };
        assert!(QuantNet::new(vec![], 8).is_err());
        assert!(QuantNet::new(vec![layer(3, 2, 1)], 8).is_err()); // two outputs
        assert!(QuantNet::new(vec![layer(3, 2, 1), layer(3, 1, 1)], 8).is_err()); // chain broken
        assert!(QuantNet::new(vec![layer(3, 2, 1), layer(2, 1, 1)], 8).is_ok());
        assert!(QuantNet::new(vec![layer(3, 1, i16::MAX)], 1 << 16).is_err()); // overflow
    }
}
