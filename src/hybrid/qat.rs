//! Quantisation-aware training: fine-tune a trained float net so that it survives rounding to a
//! coarser grid than plain rounding tolerates, so that its weights cost fewer bits.
//!
//! Each Adam step takes the gradient of the squared error at the net *rounded to the grid* of the
//! target shifts and applies it to the float weights (the straight-through estimator: rounding is
//! treated as the identity on the way back). The rounded net is exactly what [`quant::quantise`]
//! stores, written back as floats ([`project`]), so the float net the gradient sees computes the
//! integer net's pre-activations (up to the hidden layers' activation rounding). After each
//! epoch the rounded net's errors on every legal position are counted, and the state with the
//! fewest is the result.

use super::complete::{self, Positions};
use super::inputs::InputFunction;
use super::quant::{self, ACTIVATION_MAX, FloatLayer, SIGMOID_STEPS_PER_UNIT};
use crate::error::{Allowed, Error, Result, at_least_one};
use crate::net::mlp::Mlp;
use crate::train::step::AdamState;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The fine-tuning of `kpk compress` (`[qat]` in its config).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QatSpec {
    /// How many steps coarser than the shifts plain rounding chose each layer's grid is.
    pub coarser: i8,
    pub epochs: usize,
    pub learning_rate: f64,
    /// Adam's minibatch.
    pub batch_size: usize,
}

impl QatSpec {
    /// Check every value once.
    pub fn validate(&self) -> Result<()> {
        if !(1..=8).contains(&self.coarser) {
            return Err(Error::config("qat.coarser", format!("{} is not 1..=8 steps", self.coarser)));
        }
        at_least_one("qat.epochs", self.epochs)?;
        at_least_one("qat.batch_size", self.batch_size)?;
        Allowed::POSITIVE.check_key("qat.learning_rate", self.learning_rate).map(|_| ())
    }

    /// The target grid: each of `shifts` made `coarser` steps coarser, within the stored range.
    pub fn target(&self, shifts: &[i8]) -> Vec<i8> {
        shifts.iter().map(|&s| (s - self.coarser).max(*quant::SHIFTS.start())).collect()
    }
}

/// What the fine-tuning did: the rounded net's errors before it and at the kept epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuned {
    pub errors_before: usize,
    pub errors_after: usize,
    /// The kept epoch (0: the net as it came, no epoch improved on it).
    pub epoch: usize,
}

/// `layers` rounded to the grid [`quant::quantise`] stores at `shifts`, as float layers of the
/// same net: weight `w` of an input coded `m · x + c` becomes `round(w · m · f) / (m · f)` with
/// `f = 16 · slope · 2^s`, and the bias is chosen so that the folded bias (the bias plus
/// `Σ w · c`) is the stored one divided by `f`.
pub fn project(
    layers: &[FloatLayer],
    slope: f64,
    scale: &[f64],
    offset: &[f64],
    shifts: &[i8],
) -> Vec<FloatLayer> {
    let k = SIGMOID_STEPS_PER_UNIT * slope;
    let mut out = Vec::with_capacity(layers.len());
    for (l, (w, &s)) in layers.iter().zip(shifts).enumerate() {
        let f = k * 2f64.powi(i32::from(s));
        let mut q = w.clone();
        for i in 0..w.nrows() {
            let (mut folded, mut folded_rounded) = (w[[i, 0]], 0.0);
            for j in 0..w.ncols() - 1 {
                let (m, c) =
                    if l == 0 { (scale[j], offset[j]) } else { (1.0 / f64::from(ACTIVATION_MAX), 0.0) };
                folded += w[[i, j + 1]] * c;
                let rounded = (w[[i, j + 1]] * m * f).round() / (m * f);
                q[[i, j + 1]] = rounded;
                folded_rounded += rounded * c;
            }
            q[[i, 0]] = (folded * f).round() / f - folded_rounded;
        }
        out.push(q);
    }
    out
}

/// Fine-tune `net` (one output; its inputs those of `input` coded as in `data`) for rounding at
/// `shifts`, under `spec`, the presentation order drawn from `seed`.
pub fn fine_tune(
    net: &Mlp,
    input: InputFunction,
    data: &Positions,
    shifts: &[i8],
    spec: &QatSpec,
    seed: u64,
) -> Result<(Mlp, Tuned)> {
    let errors = |net: &Mlp| complete::rounded_errors(net, input, data, shifts).unwrap_or(usize::MAX);
    let rows = crate::net::values(&data.rows);
    let targets: Vec<f64> = data.wins.iter().map(|&w| f64::from(u8::from(w))).collect();
    let mut order: Vec<u32> = (0..data.wins.len() as u32).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut adam = AdamState::for_net(net, spec.learning_rate, spec.batch_size.min(order.len()));
    let mut current = net.clone();
    let before = errors(net);
    let (mut best, mut best_errors, mut best_epoch) = (net.clone(), before, 0);
    for epoch in 1..=spec.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(spec.batch_size) {
            let rounded = current.with_layers(project(
                current.layers(),
                current.slope(),
                &data.scale,
                &data.offset,
                shifts,
            ))?;
            adam.step_at(&mut current, &rounded, rows, &targets, batch);
        }
        let e = errors(&current);
        if e < best_errors {
            (best, best_errors, best_epoch) = (current.clone(), e, epoch);
        }
    }
    Ok((best, Tuned { errors_before: before, errors_after: best_errors, epoch: best_epoch }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hybrid::quant::quantise;
    use ndarray::array;

    #[test]
    fn the_projected_net_is_the_stored_net_and_rounds_to_itself() {
        let l0 = array![[0.37, 1.3, -2.2], [-1.1, 0.27, 0.71]];
        let l1 = array![[-0.33, 1.7, -0.52]];
        let (scale, offset) = ([0.5, 0.25], [0.1, -1.0]);
        let shifts = [2, 5];
        let layers = [l0, l1];
        let stored = quantise(&layers, 1.0, &scale, &offset, &shifts, 8).unwrap();
        let projected = project(&layers, 1.0, &scale, &offset, &shifts);
        assert_eq!(quantise(&projected, 1.0, &scale, &offset, &shifts, 8).unwrap(), stored);
        assert_eq!(project(&projected, 1.0, &scale, &offset, &shifts), projected, "a fixed point");
        // The first layer's pre-activation, in the table's units, is the stored accumulator
        // divided by 2^s on every input.
        for x0 in 1..=8 {
            for x1 in 0..=7 {
                let coded = [scale[0] * f64::from(x0) + offset[0], scale[1] * f64::from(x1) + offset[1]];
                let row = projected[0].row(0);
                let z = row[0] + row[1] * coded[0] + row[2] * coded[1];
                let l = &stored.layers()[0];
                let acc = l.biases[0] + i32::from(l.weights[0]) * x0 + i32::from(l.weights[1]) * x1;
                assert!((16.0 * z * 4.0 - f64::from(acc)).abs() < 1e-9, "x = ({x0}, {x1})");
            }
        }
    }

    #[test]
    fn the_target_grid_is_coarser_within_range() {
        let spec = QatSpec { coarser: 2, epochs: 1, learning_rate: 1e-4, batch_size: 8 };
        assert_eq!(spec.target(&[0, 7, -7]), [-2, 5, -8]);
        assert!(spec.validate().is_ok());
        assert!(QatSpec { coarser: 0, ..spec.clone() }.validate().is_err());
        assert!(QatSpec { learning_rate: f64::NAN, ..spec }.validate().is_err());
    }
}
