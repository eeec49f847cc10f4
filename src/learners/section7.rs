//! Section 7's two suggestions, measured.
//!
//! 1. **A 1-level net seeding a 2-level net.** The paper suggests initialising a net from
//!    categorical analysis. Here the 1-level net is [`super::logistic`]'s fit on the training set;
//!    its weights become hidden unit 1 of a 2-level net (the others start as [`Mlp::new`] draws
//!    them), and the output unit starts as `σ(6·h₁ − 3)` (ours: close to the logistic net's own
//!    answer, the other hidden units' output weights drawn as usual). The seeded and the random
//!    start train under the same config from the same seed and data draw; they are compared by
//!    paired differences over the replicates.
//! 2. **What the hidden units compute.** Each first-layer unit of a trained MLP is correlated
//!    (Pearson) with every characteristic x1..x32, with the outcome (win = 1) and with DTC (over
//!    the wins), on every position of the training side; the nearest characteristic is the one of
//!    largest |r|. Table 1 lists illegal positions, not rules of play, so there is no Table 1 rule
//!    to correlate with.

use super::logistic::Logistic;
use super::mlp::{PaperMlp, natural_inputs};
use super::{InputSet, Samples};
use crate::error::Result;
use crate::net::mlp::{Mlp, sigmoid};
use crate::net::topology::Topology;
use crate::paper::features::FEATURES;
use crate::stats::Interval;
use kpk_probe::table4::N_FEATURES;
use serde::{Deserialize, Serialize};

/// One start's results over the replicates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartResult {
    pub epochs: Vec<f64>,
    pub best_epoch: Vec<f64>,
    pub train_pct: Vec<f64>,
    pub test_pct: Vec<f64>,
}

/// Seeded versus random start, paired over replicates (seeded − random).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seeding {
    pub topology: Topology,
    pub train_set: String,
    pub test_set: String,
    pub random: StartResult,
    pub seeded: StartResult,
    /// Differences seeded − random: epochs run, epoch kept, test accuracy (points).
    pub epochs_diff: Interval,
    pub best_epoch_diff: Interval,
    pub test_diff: Interval,
    pub train_diff: Interval,
    /// The logistic net's own test accuracy on the same draws.
    pub logistic_test: Interval,
}

/// The 2-level net of `mlp`'s widths (inputs, hidden, 1) from `seed`, hidden unit 1 replaced by
/// the logistic net fitted on `train` and the output unit leaning on it.
pub fn seeded_net(mlp: &PaperMlp, train: &Samples, seed: u64) -> Result<Mlp> {
    let widths = mlp.widths(InputSet::All);
    let net = Mlp::new(&widths, mlp.trial.config.slope, seed)?;
    let fitted = Logistic::default().fit_weights(train, InputSet::All)?.0;
    let model = super::logistic::LogisticModel { inputs: InputSet::All, weights: fitted, steps: 0 };
    let (bias, w) = model.natural_weights();
    let mut layers = net.layers().to_vec();
    layers[0][[0, 0]] = bias;
    for (j, v) in w.iter().enumerate() {
        layers[0][[0, j + 1]] = *v;
    }
    layers[1][[0, 0]] = -3.0;
    layers[1][[0, 1]] = 6.0;
    net.with_layers(layers)
}

/// One replicate of the seeding comparison: (random, seeded) as (epochs, kept epoch, train %,
/// test %), and the logistic net's test %.
pub fn seeding_replicate(
    mlp: &PaperMlp,
    train: &Samples,
    test: &Samples,
    seed: u64,
) -> Result<([f64; 4], [f64; 4], f64)> {
    let run = |net: Mlp| -> Result<[f64; 4]> {
        let (net, epochs, best) = mlp.train_net(net, train, InputSet::All)?;
        let model = super::mlp::MlpModel {
            net,
            output: mlp.trial.output().without_margin(),
            inputs: InputSet::All,
            epochs,
        };
        Ok([epochs as f64, best as f64, train.accuracy_pct(&model), test.accuracy_pct(&model)])
    };
    let random = run(Mlp::new(&mlp.widths(InputSet::All), mlp.trial.config.slope, seed)?)?;
    let seeded = run(seeded_net(mlp, train, seed)?)?;
    let logistic = super::Learner::fit(&Logistic::default(), train, InputSet::All, seed)?;
    Ok((random, seeded, test.accuracy_pct(logistic.as_ref())))
}

/// One hidden unit's reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HiddenUnit {
    /// From 1.
    pub unit: usize,
    /// The characteristic of largest |r|, as `x32 P-runs?`.
    pub nearest: String,
    pub r: f64,
    /// The runner-up and its r.
    pub second: String,
    pub r_second: f64,
    pub r_win: f64,
    /// Over the wins only.
    pub r_dtc: f64,
}

fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 { 0.0 } else { sab / (saa * sbb).sqrt() }
}

/// Read the first hidden layer of `net` (all 32 inputs) on `data`.
pub fn hidden_units(net: &Mlp, data: &Samples) -> Vec<HiddenUnit> {
    let x = natural_inputs(data, InputSet::All);
    let w = &net.layers()[0];
    let win: Vec<f64> = data.wins.iter().map(|&v| f64::from(u8::from(v))).collect();
    let won: Vec<usize> = (0..data.len()).filter(|&i| data.wins[i]).collect();
    let dtc: Vec<f64> = won.iter().map(|&i| f64::from(data.dtc[i].unwrap_or(0))).collect();
    let columns: Vec<Vec<f64>> =
        (0..N_FEATURES).map(|c| data.rows.iter().map(|r| f64::from(r[c])).collect()).collect();
    (0..w.nrows())
        .map(|u| {
            let act: Vec<f64> = x
                .rows()
                .into_iter()
                .map(|row| {
                    sigmoid(
                        w[[u, 0]] + row.iter().zip(w.row(u).iter().skip(1)).map(|(a, b)| a * b).sum::<f64>(),
                        net.slope(),
                    )
                })
                .collect();
            let mut rs: Vec<(usize, f64)> =
                columns.iter().enumerate().map(|(c, col)| (c, pearson(&act, col))).collect();
            rs.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
            let name = |c: usize| format!("x{} {}", FEATURES[c].x, FEATURES[c].name);
            let act_won: Vec<f64> = won.iter().map(|&i| act[i]).collect();
            HiddenUnit {
                unit: u + 1,
                nearest: name(rs[0].0),
                r: rs[0].1,
                second: name(rs[1].0),
                r_second: rs[1].1,
                r_win: pearson(&act, &win),
                r_dtc: pearson(&act_won, &dtc),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::pearson;

    #[test]
    fn pearson_is_one_for_a_line_and_minus_one_reversed() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((pearson(&a, &[3.0, 5.0, 7.0, 9.0]) - 1.0).abs() < 1e-12);
        assert!((pearson(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert_eq!(pearson(&a, &[1.0; 4]), 0.0);
    }
}
