//! `kpk bench --what online|adam`: the trainer's speed on the reference workload of its speed
//! targets, one epoch
//! of 32-64-20-1 over all 81,664 White-to-move positions.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::mlp::{Mlp, Workspace};
use kpk::net::sweep::Sweep;
use kpk::paper::coding::InputCoding;
use kpk::train::{
    TrainData,
    config::{Anneal, Optimiser, TrainConfig},
    train, train_on,
};
use ndarray::Array2;
use std::process::ExitCode;

/// T3 of section 4.5, the 81,664 White-to-move positions, with the 32 characteristics of Table 4
/// in the paper's natural coding.
fn workload() -> anyhow::Result<(Array2<f64>, Vec<bool>)> {
    let bb = Bitbase::generate();
    let t3 = Dataset::named("T3", 0, &bb)?;
    Ok((t3.inputs(InputCoding::Natural), t3.wins()))
}

/// Epochs of the runs that time an epoch inside a longer training: enough that the first epoch,
/// which trains alone before any measurement can run beside it ([`train_on`]), weighs little.
/// The stopping window is set to the same count, so no run stops early.
const EPOCHS: usize = 10;

/// Time `f` (after one warm-up run) by wall clock and by thread CPU time; print min and median.
fn measure<T>(what: &str, runs: usize, f: impl FnMut() -> T) -> std::io::Result<()> {
    measure_per(what, runs, 1, f)
}

/// As [`measure`], each time divided by `per` (the epochs one call of `f` trains).
fn measure_per<T>(what: &str, runs: usize, per: usize, f: impl FnMut() -> T) -> std::io::Result<()> {
    let (wall, cpu) = super::timing::timed(1, runs, f);
    let ms = |v: &[f64], i: usize| v[i] * 1e3 / per as f64;
    outln!(
        "{what}: CPU min {:.1} ms, median {:.1} ms; wall min {:.1} ms, median {:.1} ms ({} runs)",
        ms(&cpu, 0),
        ms(&cpu, cpu.len() / 2),
        ms(&wall, 0),
        ms(&wall, wall.len() / 2),
        cpu.len()
    )
}

/// Which parts of the training workload to time.
pub struct TrainBench {
    /// The end-of-epoch measurement pass: one position at a time, and in blocks.
    pub measurement: bool,
    pub online: bool,
    pub adam: bool,
}

/// One epoch of each optimiser on 32-64-20-1 over the wtm positions.
pub fn run_train_bench(what: TrainBench, runs: usize) -> anyhow::Result<ExitCode> {
    let (inputs, wins) = workload()?;
    let data = TrainData { inputs: inputs.view(), wins: &wins };
    let topology = [32, 64, 20, 1];
    let n = wins.len();
    outln!("workload: T3, {n} wtm positions x 32 natural inputs, net {topology:?}, single thread")?;
    let one_epoch = |optimiser| TrainConfig { optimiser, max_epochs: 1, ..TrainConfig::default() };
    // An epoch inside a run of EPOCHS, on one thread and on two: each epoch's measurement as tasks
    // beside the next epoch's training, Adam's batches split in halves (the wall figure is what a
    // second core buys).
    let per_epoch = |optimiser, name: &str| -> std::io::Result<()> {
        let cfg = TrainConfig { optimiser, max_epochs: EPOCHS, window: EPOCHS, ..TrainConfig::default() };
        for threads in [1, 2] {
            let what = if threads == 1 {
                format!("{name}, per epoch of a {EPOCHS}-epoch train() run")
            } else {
                "the same on two threads, train_on(.., 2, ..) (read the wall figure)".into()
            };
            measure_per(&what, runs, EPOCHS, || {
                let net = Mlp::new(&topology, 1.0, 0).unwrap();
                train_on(net, &data, None, &cfg, threads, &mut |_| {}).unwrap()
            })?;
        }
        Ok(())
    };
    if what.measurement {
        let rows = inputs.as_slice().expect("standard layout");
        let net = Mlp::new(&topology, 1.0, 0)?;
        measure("forward pass over the set, one position at a time", runs, || {
            let mut ws = Workspace::new(&net);
            let mut out = 0.0;
            for x in rows.chunks_exact(32) {
                out += net.forward_with(&mut ws, x)[0];
            }
            out
        })?;
        measure("forward pass over the set in blocks (the end-of-epoch measurement)", runs, || {
            let mut out = 0.0;
            net.forward_each(&mut Sweep::new(), rows, |_, y| out += y[0]);
            out
        })?;
        measure("the same on two threads (read the wall figure)", runs, || {
            let mut out = [0.0; 2];
            std::thread::scope(|scope| {
                for (half, out) in rows.chunks(rows.len().div_ceil(64) * 32).zip(&mut out) {
                    scope.spawn(|| net.forward_each(&mut Sweep::new(), half, |_, y| *out += y[0]));
                }
            });
            out
        })?;
    }
    if what.online {
        // The update pass alone, as the Python peers time it: forward, backward and update per
        // position, in a fixed order, through the same library call the trainer's loop makes.
        let rows = inputs.as_slice().expect("standard layout");
        let targets: Vec<f64> = wins.iter().map(|&w| if w { 1.0 } else { 0.0 }).collect();
        let mut net = Mlp::new(&topology, 1.0, 0)?;
        let mut ws = Workspace::new(&net);
        measure("online backprop, update pass only", runs, || {
            for (x, d) in rows.chunks_exact(32).zip(&targets) {
                net.sgd_step(&mut ws, x, std::slice::from_ref(d), 0.1, None);
            }
        })?;
        let cfg = one_epoch(Optimiser::online(0.1));
        measure("kpk::train::train, one online epoch incl. end-of-epoch E1/E2 and accuracy", runs, || {
            train(Mlp::new(&topology, 1.0, 0).unwrap(), &data, None, &cfg, &mut |_| {}).unwrap()
        })?;
        per_epoch(Optimiser::online(0.1), "online")?;
        let cfg = one_epoch(Optimiser::Online {
            learning_rate: 0.1,
            momentum: 0.9,
            anneal: Anneal::None,
            reshuffle: true,
        });
        measure("kpk::train::train, one online epoch with momentum 0.9", runs, || {
            train(Mlp::new(&topology, 1.0, 0).unwrap(), &data, None, &cfg, &mut |_| {}).unwrap()
        })?;
    }
    if what.adam {
        let cfg = one_epoch(Optimiser::adam(1e-3, 256));
        measure(
            "kpk::train::train, one Adam epoch, batch 256, incl. end-of-epoch measurement",
            runs,
            || train(Mlp::new(&topology, 1.0, 0).unwrap(), &data, None, &cfg, &mut |_| {}).unwrap(),
        )?;
        per_epoch(Optimiser::adam(1e-3, 256), "Adam")?;
    }
    Ok(ExitCode::SUCCESS)
}
