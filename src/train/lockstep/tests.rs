use super::*;
use crate::chess::bitbase::Bitbase;
use crate::dataset::Dataset;
use crate::net::output::OutputCoding;
use crate::paper::coding::InputCoding;
use crate::train::config::StopRule;
use crate::train::keep::BestState;
use crate::train::{EpochMetrics, train};

/// Everything of a result but the wall times: weights and metrics as bits.
fn record(r: &TrainResult) -> (Vec<u64>, usize, usize, StopReason, Vec<Vec<u64>>) {
    let weights = r.net.layers().iter().flat_map(|w| w.iter().map(|v| v.to_bits())).collect();
    let epoch = |m: &EpochMetrics| {
        let test = m.test_accuracy_pct.map_or(u64::MAX, f64::to_bits);
        let m0 = m.train_accuracy_m0_pct.map_or(u64::MAX, f64::to_bits);
        vec![
            m.epoch as u64,
            m.e1.to_bits(),
            m.e2.to_bits(),
            m.correct as u64,
            m.misclassified as u64,
            m.undecided as u64,
            m.total as u64,
            m.train_accuracy_pct.to_bits(),
            m0,
            test,
        ]
    };
    (weights, r.best_epoch, r.epochs_run, r.stop_reason, r.history.iter().map(epoch).collect())
}

/// Jobs of one group that differ in everything a lane may differ in: weight seed, order seed,
/// training and testing sets (of different sizes), learning rate and its schedule, reshuffling,
/// stopping rule, window, kept state and epoch budget, so that nets stop at different epochs and
/// lanes are refilled mid-run.
fn jobs(
    topology: &[usize],
    output: OutputCoding,
    momentum: f64,
    skip: bool,
) -> Vec<(Mlp, Dataset, Option<Dataset>, TrainConfig)> {
    let bb = Bitbase::generate();
    let sets = [("T1", Some("S1")), ("T2", Some("S2")), ("T1", None), ("S1", Some("T1"))];
    (0..LANES as u64 + 5)
        .map(|i| {
            let (t, s) = sets[i as usize % sets.len()];
            let train_set = Dataset::named(t, 1998 + i % 2, &bb).unwrap();
            let test_set = s.map(|s| Dataset::named(s, 1998 + i % 2, &bb).unwrap());
            let anneal = match i % 3 {
                0 => Anneal::None,
                1 => Anneal::Exponential { factor: 0.97 },
                _ => Anneal::Inverse { epochs: 5.0 },
            };
            let cfg = TrainConfig {
                optimiser: Optimiser::Online {
                    learning_rate: 0.1 + 0.05 * i as f64,
                    momentum,
                    anneal,
                    reshuffle: i % 2 == 1,
                },
                output,
                error_target: [0.1, 0.2, 0.05][i as usize % 3],
                window: 3 + i as usize % 4,
                patience: Some(4 + i as usize % 3),
                stop: [StopRule::Either, StopRule::NoImprovement, StopRule::ErrorTarget][i as usize % 3],
                best: if i % 2 == 0 { BestState::MostCorrect } else { BestState::LeastError },
                max_epochs: 8 + 5 * i as usize,
                seed: 100 + i,
                ..TrainConfig::default()
            };
            let net =
                if skip { Mlp::with_skip(topology, 1.0, i) } else { Mlp::new(topology, 1.0, i) }.unwrap();
            (net, train_set, test_set, cfg)
        })
        .collect()
}

fn lockstep_equals_train(topology: &[usize], output: OutputCoding, momentum: f64, skip: bool) {
    let jobs = jobs(topology, output, momentum, skip);
    let coded: Vec<_> = jobs
        .iter()
        .map(|(_, t, s, _)| {
            let coding = InputCoding::Natural;
            ((t.inputs(coding), t.wins()), s.as_ref().map(|s| (s.inputs(coding), s.wins())))
        })
        .collect();
    let data = |i: usize| {
        let ((x, w), s) = &coded[i];
        (
            TrainData { inputs: x.view(), wins: w },
            s.as_ref().map(|(x, w)| TrainData { inputs: x.view(), wins: w }),
        )
    };
    let mut results: Vec<Option<TrainResult>> = (0..jobs.len()).map(|_| None).collect();
    let mut queue = 0..jobs.len();
    train_lockstep(
        || {
            let i = queue.next()?;
            let (net, _, _, cfg) = &jobs[i];
            let (t, s) = data(i);
            Some((i, LaneJob::new(net.clone(), &t, s.as_ref(), cfg)))
        },
        |i, r| results[i] = Some(r.unwrap()),
    );
    let mut epochs = std::collections::BTreeSet::new();
    for (i, (net, _, _, cfg)) in jobs.iter().enumerate() {
        let (t, s) = data(i);
        let alone = train(net.clone(), &t, s.as_ref(), cfg, &mut |_| {}).unwrap();
        let got = results[i].as_ref().expect("every job finished");
        assert!(record(got) == record(&alone), "job {i}, {topology:?}");
        epochs.insert(alone.epochs_run);
    }
    // The nets stopped at several epochs, so lanes were refilled while others ran on.
    assert!(epochs.len() > 3, "{epochs:?}");
}

#[test]
fn every_net_of_a_lockstep_queue_trains_as_it_does_alone() {
    lockstep_equals_train(&[32, 10, 10, 1], OutputCoding::One, 0.0, false);
    lockstep_equals_train(&[32, 8, 2], OutputCoding::Two { margin: 0.4 }, 0.0, false);
    lockstep_equals_train(&[32, 6, 1], OutputCoding::One, 0.5, true);
}

#[test]
fn jobs_lockstep_cannot_train_are_refused() {
    let net = Mlp::new(&[2, 3, 1], 1.0, 0).unwrap();
    let x = ndarray::Array2::<f64>::zeros((4, 2));
    let wins = [true, false, true, false];
    let data = TrainData { inputs: x.view(), wins: &wins };
    let adam = TrainConfig { optimiser: Optimiser::adam(0.01, 2), ..TrainConfig::default() };
    assert!(LaneJob::new(net.clone(), &data, None, &adam).is_err());
    let wide = TrainConfig { output: OutputCoding::Two { margin: 0.0 }, ..TrainConfig::default() };
    assert!(LaneJob::new(net, &data, None, &wide).is_err());
}
