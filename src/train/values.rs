//! Fitting real values rather than a win/draw class: the depth nets of section 6's question "How
//! would MLPs have performed if tested on position value and depth instead of just value?", whose
//! targets are a function of the depth to conversion. The optimisers are the trainer's own
//! (`step.rs`) on the squared error ½·Σ(y − d)², run for a fixed number of epochs: section 4.5's
//! stopping rule and kept state are defined for classes, so neither applies here.

use super::Prepared;
use super::step::Stepper;
use crate::error::{Error, Result};
use crate::net::mlp::{Mlp, Workspace};
use crate::net::sweep::Sweep;
use crate::train::config::Optimiser;
use ndarray::ArrayView2;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Fit `net` to `targets` (`net.n_outputs()` values per row of `inputs`) by `epochs` epochs of
/// `optimiser`, the presentation order a permutation seeded by `seed`. Returns the net after the
/// last epoch and the mean squared error over the rows after each epoch. Errors on shapes that do
/// not fit and if the weights stop being finite.
pub fn fit_values(
    net: Mlp,
    inputs: ArrayView2<f64>,
    targets: &[f64],
    optimiser: Optimiser,
    epochs: usize,
    seed: u64,
) -> Result<(Mlp, Vec<f64>)> {
    let (n, width) = inputs.dim();
    let o = net.n_outputs();
    if n == 0 || width != net.n_inputs() || targets.len() != n * o {
        return Err(Error::Shape(format!(
            "{n} rows of {width} inputs and {} targets do not fit a net of {} inputs and {o} outputs",
            targets.len(),
            net.n_inputs()
        )));
    }
    let inputs = ndarray::CowArray::from(inputs.as_standard_layout().into_owned());
    let data = Prepared { inputs, targets: targets.to_vec(), wins: (&[][..]).into() };
    let mut net = net;
    let mut ws = Workspace::new(&net);
    let mut sweep = Sweep::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(&mut rng);
    let mut stepper = Stepper::new(&net, optimiser, n, false);
    let mut errors = Vec::with_capacity(epochs);
    for epoch in 1..=epochs {
        stepper.epoch(&mut net, &mut ws, &data, &mut order, &mut rng, epoch);
        let mut sum = 0.0;
        net.forward_each(&mut sweep, data.rows(), |i, y| {
            sum +=
                y.iter().zip(&data.targets[i * o..(i + 1) * o]).map(|(y, d)| (y - d) * (y - d)).sum::<f64>();
        });
        let mse = sum / (n * o) as f64;
        if !mse.is_finite() {
            return Err(Error::Diverged { epoch });
        }
        errors.push(mse);
    }
    Ok((net, errors))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    #[test]
    fn a_net_fits_a_smooth_function_and_the_error_falls() {
        // y = 0.2 + 0.6·x0·x1 on a grid of [0, 1]².
        let xs: Vec<f64> = (0..100).flat_map(|i| [(i % 10) as f64 / 9.0, (i / 10) as f64 / 9.0]).collect();
        let inputs = Array2::from_shape_vec((100, 2), xs).unwrap();
        let targets: Vec<f64> = inputs.rows().into_iter().map(|r| 0.2 + 0.6 * r[0] * r[1]).collect();
        let net = Mlp::new(&[2, 8, 1], 1.0, 3).unwrap();
        let (net, errors) =
            fit_values(net, inputs.view(), &targets, Optimiser::adam(0.01, 10), 1000, 5).unwrap();
        assert!(
            errors[999] < errors[0] / 10.0 && errors.windows(2).filter(|w| w[1] > w[0]).count() < 500,
            "{} -> {}",
            errors[0],
            errors[999]
        );
        let mut y = [0.0];
        net.forward(&[1.0, 1.0], &mut y);
        assert!((y[0] - 0.8).abs() < 0.05, "{}", y[0]);
        assert!(fit_values(net, inputs.view(), &targets[1..], Optimiser::adam(0.01, 10), 1, 5).is_err());
    }
}
