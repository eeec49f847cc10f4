//! Trials the study layer shapes beyond a trial config (see [`SettingKeys`]): training positions
//! drawn from a pool (a side, or one pawn file of it, section 2's Fx) with a fixed held-out
//! testing set, testing on other pawn files, the first k inputs only, section 2's curriculum over
//! the closed sets Cp, and pruning after training (section 6). Training is the trainer's own
//! ([`train::train`]) with the trial's config; only the data, the net's input width and what is
//! done around training differ.

use super::config::{PruneBy, SettingKeys};
use super::replicate::Replicate;
use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::dataset::{DEFAULT_SEED, Dataset, Side};
use crate::error::{Error, Result};
use crate::experiment::config::Trial;
use crate::net::mlp::Mlp;
use crate::net::output::{OutputCoding, classify};
use crate::train::{self, EpochMetrics, StopReason, TrainData, config::TrainConfig};
use kpk_probe::{Color, Outcome};
use ndarray::{Array2, s};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The held-out testing set is drawn with this seed whatever the replicate: a fixed yardstick.
pub const HELD_OUT_SEED: u64 = DEFAULT_SEED;

/// A set's inputs (the first `cols` of the coding) and true results.
struct Data {
    inputs: Array2<f64>,
    wins: Vec<bool>,
}

impl Data {
    fn new(set: &Dataset, trial: &Trial, cols: usize) -> Data {
        let x = set.inputs(trial.config.input_coding);
        Data { inputs: x.slice(s![.., ..cols]).to_owned(), wins: set.wins() }
    }
    fn view(&self) -> TrainData<'_> {
        TrainData { inputs: self.inputs.view(), wins: &self.wins }
    }
}

fn colour(side: Side) -> Result<Color> {
    match side {
        Side::Wtm => Ok(Color::White),
        Side::Btm => Ok(Color::Black),
        Side::Both => Err(Error::config("side", "a study's drawn sets take one side to move")),
    }
}

fn file_number(f: char) -> Result<u8> {
    match f {
        'a'..='d' => Ok(f as u8 - b'a' + 1),
        _ => Err(Error::config("pool_file", format!("'{f}' is not a pawn file a-d (canonical orientation)"))),
    }
}

/// The positions of the trial's side, on the given pawn files (all if `None`), in index order.
pub(super) fn pool(trial: &Trial, files: Option<&str>) -> Result<Vec<KpkPosition>> {
    let side = colour(trial.config.side)?;
    let files: Option<Vec<u8>> = files.map(|f| f.chars().map(file_number).collect()).transpose()?;
    Ok(KpkPosition::all()
        .filter(|p| p.side() == side)
        .filter(|p| files.as_ref().is_none_or(|fs| fs.contains(&(p.wp().file() + 1))))
        .collect())
}

/// The training and testing sets a setting asks for.
fn sets(trial: &Trial, keys: &SettingKeys, bb: &Bitbase) -> Result<(Dataset, Option<Dataset>)> {
    let c = &trial.config;
    if !keys.draws_data() {
        let test = c.testing_set.map(|t| Dataset::of_draw(t, c.data_seed, c.borderline, bb));
        return Ok((Dataset::of_draw(c.training_set, c.data_seed, c.borderline, bb), test));
    }
    if c.borderline > 0.0 {
        return Err(Error::config("borderline", "draws T1/S1, T2/S2; this setting draws its own sets"));
    }
    let mut positions = pool(trial, keys.pool_file.as_deref())?;
    // The held-out set: the first `held_out` of a shuffle with a fixed seed.
    positions.shuffle(&mut ChaCha8Rng::seed_from_u64(HELD_OUT_SEED));
    let held = keys.held_out.unwrap_or(0).min(positions.len());
    let mut rest = positions.split_off(held);
    let held_out = positions;
    // The training draw varies with the replicate's data seed.
    rest.shuffle(&mut ChaCha8Rng::seed_from_u64(c.data_seed));
    rest.truncate(keys.train_size.unwrap_or(usize::MAX));
    let train = Dataset::from_positions("train", rest, bb);
    let test = match &keys.test_files {
        Some(files) => Some(Dataset::from_positions("test", pool(trial, Some(files))?, bb)),
        None if held > 0 => Some(Dataset::from_positions("held-out", held_out, bb)),
        None => None,
    };
    Ok((train, test))
}

/// Accuracy at m = 0 (section 4.3's plain reading), %.
fn accuracy(net: &Mlp, output: OutputCoding, data: &Data) -> f64 {
    let plain = output.without_margin();
    let right = data
        .inputs
        .rows()
        .into_iter()
        .zip(&data.wins)
        .filter(|(x, w)| classify(net, plain, x.as_slice().expect("standard layout")).is_correct(**w))
        .count();
    100.0 * right as f64 / data.wins.len().max(1) as f64
}

/// What one training call left: the kept net, its epochs, and the record.
struct Trained {
    net: Mlp,
    epochs: usize,
    kept_epoch: usize,
    stop_reason: StopReason,
    history: Vec<EpochMetrics>,
}

fn fit(net: Mlp, data: &Data, cfg: &TrainConfig) -> Result<Trained> {
    let r = train::train(net, &data.view(), None, cfg, &mut |_| {})?;
    Ok(Trained {
        net: r.net,
        epochs: r.epochs_run,
        kept_epoch: r.best_epoch,
        stop_reason: r.stop_reason,
        history: r.history,
    })
}

/// Section 2's walk before run: train on C1 ∪ D, C3 ∪ D, … in turn (Cp: the side's wins in at
/// most p plies; D: its draws), `stage_epochs` each; the epochs are counted in passes over the
/// whole pool (presentations / pool size), rounded up.
fn curriculum(net: Mlp, trial: &Trial, keys: &SettingKeys, stages: &[u8], bb: &Bitbase) -> Result<Trained> {
    let all = pool(trial, keys.pool_file.as_deref())?;
    let cols = keys.inputs.unwrap_or(trial.config.input_coding.width());
    let epochs = keys.stage_epochs.unwrap_or(1);
    let mut cfg = trial.train_config();
    (cfg.max_epochs, cfg.window) = (epochs, cfg.window.min(epochs));
    let (mut net, mut presented, mut history, mut last) = (net, 0usize, Vec::new(), StopReason::MaxEpochs);
    for &p in stages {
        let stage: Vec<KpkPosition> = all
            .iter()
            .copied()
            .filter(|q| bb.outcome(q) == Outcome::Draw || bb.dtc(q).is_some_and(|d| d.0 <= p))
            .collect();
        let data = Data::new(&Dataset::from_positions(format!("C{p}"), stage, bb), trial, cols);
        let t = fit(net, &data, &cfg)?;
        presented += t.epochs * data.wins.len();
        (net, last) = (t.net, t.stop_reason);
        history.extend(t.history);
    }
    let epochs = presented.div_ceil(all.len().max(1));
    Ok(Trained { net, epochs, kept_epoch: epochs, stop_reason: last, history })
}

/// Each weight's importance under `by` (biases excluded: `None`), layer by layer.
fn importance(net: &Mlp, twin: Option<&Mlp>, by: PruneBy, seed: u64) -> Vec<Array2<Option<f64>>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    net.layers()
        .iter()
        .enumerate()
        .map(|(l, w)| {
            Array2::from_shape_fn(w.dim(), |(i, j)| {
                (j > 0).then(|| match by {
                    PruneBy::Magnitude => w[(i, j)].abs(),
                    // Section 6: a weight that ends where its init's sign sent it (w+ ≈ −w−) did
                    // not matter; one both nets drive to the same value did.
                    PruneBy::Symmetry => {
                        twin.map_or(0.0, |t| (w[(i, j)] + t.layers()[l][(i, j)]).abs() / 2.0)
                    }
                    PruneBy::Random => rng.random::<f64>(),
                })
            })
        })
        .collect()
}

/// Zero the `fraction` of weights (biases kept) with the least importance, ties broken by
/// position (layer, row, column); returns the pruned net and the mask (true: kept).
fn prune(net: &Mlp, scores: &[Array2<Option<f64>>], fraction: f64) -> Result<(Mlp, Vec<Array2<bool>>)> {
    let mut ranked: Vec<(f64, usize, (usize, usize))> = scores
        .iter()
        .enumerate()
        .flat_map(|(l, s)| s.indexed_iter().filter_map(move |(ij, v)| v.map(|v| (v, l, ij))))
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let k = ((fraction * ranked.len() as f64).round() as usize).min(ranked.len());
    let mut masks: Vec<Array2<bool>> = scores.iter().map(|s| Array2::from_elem(s.dim(), true)).collect();
    for &(_, l, ij) in &ranked[..k] {
        masks[l][ij] = false;
    }
    Ok((apply(net, &masks)?, masks))
}

fn apply(net: &Mlp, masks: &[Array2<bool>]) -> Result<Mlp> {
    let layers = net
        .layers()
        .iter()
        .zip(masks)
        .map(|(w, m)| Array2::from_shape_fn(w.dim(), |ij| if m[ij] { w[ij] } else { 0.0 }));
    net.with_layers(layers.collect())
}

/// The net with every weight negated: the section 6 twin's init.
fn negated(net: &Mlp) -> Result<Mlp> {
    net.with_layers(net.layers().iter().map(|w| w.mapv(|v| -v)).collect())
}

/// The untrained net of a setting: the trial's topology with the input layer narrowed to the
/// inputs fed, and skip-layer connections where the setting asks for them.
pub fn initial_net(trial: &Trial, keys: &SettingKeys) -> Result<Mlp> {
    let c = &trial.config;
    let mut widths = trial.topology().widths().to_vec();
    widths[0] = keys.inputs.unwrap_or(c.input_coding.width());
    if keys.skip { Mlp::with_skip(&widths, c.slope, c.seed) } else { Mlp::new(&widths, c.slope, c.seed) }
}

/// Run one trial of a setting whose keys reshape it, and keep what the study reports.
pub fn run_custom(trial: &Trial, keys: &SettingKeys, bb: &Bitbase) -> Result<Replicate> {
    let c = &trial.config;
    let (train_set, test_set) = sets(trial, keys, bb)?;
    let cols = keys.inputs.unwrap_or(c.input_coding.width());
    let train_data = Data::new(&train_set, trial, cols);
    let test_data = test_set.as_ref().map(|t| Data::new(t, trial, cols));
    let init = initial_net(trial, keys)?;
    let cfg = trial.train_config();
    let trained = match &keys.curriculum {
        Some(stages) => curriculum(init.clone(), trial, keys, stages, bb)?,
        None => fit(init.clone(), &train_data, &cfg)?,
    };
    let mut net = trained.net;
    if let Some(fraction) = keys.prune {
        let twin = match keys.prune_by {
            PruneBy::Symmetry => Some(fit(negated(&init)?, &train_data, &cfg)?.net),
            _ => None,
        };
        let scores = importance(&net, twin.as_ref(), keys.prune_by, c.seed);
        let (pruned, masks) = prune(&net, &scores, fraction)?;
        net = pruned;
        // Retraining: one epoch at a time, the pruned weights set back to 0 after each.
        let mut one = cfg.clone();
        (one.max_epochs, one.window) = (1, 1);
        for _ in 0..keys.retrain {
            net = apply(&fit(net, &train_data, &one)?.net, &masks)?;
        }
    }
    let output = trial.output();
    Ok(Replicate {
        train_accuracy_pct: accuracy(&net, output, &train_data),
        test_accuracy_pct: test_data.as_ref().map(|t| accuracy(&net, output, t)),
        epochs: trained.epochs,
        kept_epoch: trained.kept_epoch,
        state_epoch: trained.kept_epoch,
        stop_reason: trained.stop_reason,
        curve: trained.history.iter().map(|m| (m.accuracy_m0_pct(), None)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::config::TrialConfig;

    fn trial(data_seed: u64) -> Trial {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/table5/trial21.toml"))
                .unwrap();
        let mut c = TrialConfig::parse(&text).unwrap();
        c.data_seed = data_seed;
        c.check().unwrap()
    }

    #[test]
    fn the_held_out_set_is_fixed_and_never_trained_on() {
        let bb = Bitbase::generate();
        let keys = SettingKeys {
            pool_file: Some("b".into()),
            held_out: Some(500),
            train_size: Some(300),
            ..SettingKeys::default()
        };
        let (train1, test1) = sets(&trial(1), &keys, &bb).unwrap();
        let (train2, test2) = sets(&trial(2), &keys, &bb).unwrap();
        let (test1, test2) = (test1.unwrap(), test2.unwrap());
        assert_eq!((train1.len(), test1.len()), (300, 500));
        assert_eq!(test1.positions, test2.positions, "the held-out set does not move with the data seed");
        assert_ne!(train1.positions, train2.positions, "the training draw does");
        for p in train1.positions.iter().chain(&test1.positions) {
            assert_eq!((p.wp().file(), p.side()), (1, Color::White));
        }
        assert!(train1.positions.iter().all(|p| !test1.positions.contains(p)));
        let other = SettingKeys { test_files: Some("acd".into()), ..keys };
        let (_, test) = sets(&trial(1), &other, &bb).unwrap();
        let test = test.unwrap();
        let expected = KpkPosition::all().filter(|p| p.side() == Color::White && p.wp().file() != 1).count();
        assert_eq!(test.len(), expected);
    }

    #[test]
    fn c37_with_the_draws_is_every_wtm_position() {
        let bb = Bitbase::generate();
        let last = KpkPosition::all()
            .filter(|p| p.side() == Color::White)
            .all(|p| bb.outcome(&p) == Outcome::Draw || bb.dtc(&p).is_some_and(|d| d.0 <= 37));
        assert!(last, "the curriculum's last stage is T3");
    }

    #[test]
    fn pruning_zeroes_exactly_the_fraction_asked_and_keeps_the_biases() {
        let net = Mlp::new(&[32, 32, 5, 1], 1.0, 7).unwrap();
        let weights: usize = net.layers().iter().map(|w| w.nrows() * (w.ncols() - 1)).sum();
        for (fraction, by) in [(0.0, PruneBy::Magnitude), (0.5, PruneBy::Magnitude), (0.9, PruneBy::Random)] {
            let scores = importance(&net, None, by, 3);
            let (pruned, masks) = prune(&net, &scores, fraction).unwrap();
            let zeroed = masks.iter().map(|m| m.iter().filter(|k| !**k).count()).sum::<usize>();
            assert_eq!(zeroed, (fraction * weights as f64).round() as usize);
            for (w, p) in net.layers().iter().zip(pruned.layers()) {
                assert_eq!(w.column(0), p.column(0), "biases kept");
            }
            if by == PruneBy::Magnitude && fraction > 0.0 {
                // Every weight kept is at least as large as every weight pruned.
                let kept = pruned
                    .layers()
                    .iter()
                    .flat_map(|w| w.slice(s![.., 1..]).iter().map(|v| v.abs()).collect::<Vec<_>>());
                let smallest_kept = kept.filter(|v| *v > 0.0).fold(f64::INFINITY, f64::min);
                let largest_pruned = net
                    .layers()
                    .iter()
                    .zip(&masks)
                    .flat_map(|(w, m)| {
                        w.indexed_iter().filter(|(ij, _)| !m[*ij]).map(|(_, v)| v.abs()).collect::<Vec<_>>()
                    })
                    .fold(0.0, f64::max);
                assert!(largest_pruned <= smallest_kept, "{largest_pruned} > {smallest_kept}");
            }
        }
    }

    #[test]
    fn a_weight_that_kept_its_inits_sign_in_both_twins_scores_zero() {
        let net = Mlp::new(&[4, 3, 1], 1.0, 5).unwrap();
        let twin = negated(&net).unwrap();
        let scores = importance(&net, Some(&twin), PruneBy::Symmetry, 0);
        assert!(scores.iter().flat_map(|s| s.iter().flatten()).all(|v| *v == 0.0));
        let same = importance(&net, Some(&net), PruneBy::Symmetry, 0);
        let magnitude = importance(&net, None, PruneBy::Magnitude, 0);
        assert_eq!(same, magnitude, "twins that agree score their common |w|");
    }
}
