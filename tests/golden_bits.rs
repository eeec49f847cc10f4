//! The trainers' exact bits: short runs on real KPK positions (T4) whose every weight and every
//! per-epoch measurement are hashed and compared with values recorded from the reference code.
//! Every committed report depends on these bits, so a faster kernel must leave them unchanged;
//! this test fails on any difference, however small. Adam's batch gradient goes through
//! matrixmultiply, whose kernel is chosen by the CPU, so its hashes hold on x86-64 with AVX2 and
//! FMA (the machine they were recorded on); other CPUs skip those cases.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::mlp::{Mlp, Workspace};
use kpk::net::output::OutputCoding;
use kpk::paper::coding::InputCoding;
use kpk::train::{
    EpochMetrics, TrainData,
    config::{Anneal, Optimiser, TrainConfig},
    train_on,
};
use ndarray::Array2;

/// FNV-1a over 64-bit words.
struct Hash(u64);

impl Hash {
    fn new() -> Hash {
        Hash(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn net(&mut self, net: &Mlp) {
        for w in net.layers() {
            for v in w {
                self.word(v.to_bits());
            }
        }
    }

    fn metrics(&mut self, m: &EpochMetrics) {
        for v in [m.e1, m.e2, m.train_accuracy_pct, m.accuracy_m0_pct(), m.test_accuracy_pct.unwrap_or(-1.0)]
        {
            self.word(v.to_bits());
        }
        for n in [m.epoch, m.correct, m.misclassified, m.undecided, m.total] {
            self.word(n as u64);
        }
    }
}

fn data(coding: InputCoding) -> (Array2<f64>, Vec<bool>) {
    let bb = Bitbase::generate();
    let t4 = Dataset::named("T4", 0, &bb).unwrap();
    (t4.inputs(coding), t4.wins())
}

/// One short training run, measured on one thread.
fn run(net: Mlp, coding: InputCoding, output: OutputCoding, optimiser: Optimiser, epochs: usize) -> u64 {
    run_on(1, net, coding, output, optimiser, epochs)
}

/// One short training run on `threads` threads: the hash of the kept net's weights and of every epoch's metrics.
fn run_on(
    threads: usize,
    net: Mlp,
    coding: InputCoding,
    output: OutputCoding,
    optimiser: Optimiser,
    epochs: usize,
) -> u64 {
    let (x, wins) = data(coding);
    let data = TrainData { inputs: x.view(), wins: &wins };
    // A held-out half as the test set exercises the second measurement pass.
    let half = wins.len() / 2;
    let test = TrainData { inputs: x.slice(ndarray::s![half.., ..]), wins: &wins[half..] };
    let cfg = TrainConfig {
        optimiser,
        output,
        max_epochs: epochs,
        window: 1000,
        seed: 7,
        ..TrainConfig::default()
    };
    let mut h = Hash::new();
    let result = train_on(net, &data, Some(&test), &cfg, threads, &mut |m| h.metrics(m)).unwrap();
    assert_eq!(result.epochs_run, epochs);
    h.net(&result.net);
    h.0
}

fn online(learning_rate: f64, momentum: f64, reshuffle: bool) -> Optimiser {
    let anneal = if reshuffle { Anneal::Exponential { factor: 0.9 } } else { Anneal::None };
    Optimiser::Online { learning_rate, momentum, anneal, reshuffle }
}

fn fma_machine() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The online trainer with and without momentum, one and two outputs, with skip-layer connections.
#[test]
fn online_training_keeps_its_bits() {
    let one = OutputCoding::One;
    let two = OutputCoding::Two { margin: 0.4 };
    let nat = InputCoding::Natural;
    let cases = [
        (
            "32-64-20-1 online",
            run(Mlp::new(&[32, 64, 20, 1], 1.0, 3).unwrap(), nat, one, online(0.1, 0.0, false), 3),
        ),
        (
            "32-16-2 momentum",
            run(Mlp::new(&[32, 16, 2], 1.0, 4).unwrap(), nat, two, online(0.03, 0.9, true), 3),
        ),
        (
            "scaled 32-10-10-1",
            run(
                Mlp::new(&[32, 10, 10, 1], 1.0, 5).unwrap(),
                InputCoding::Scaled,
                one,
                online(0.3, 0.5, false),
                2,
            ),
        ),
        (
            "skip 32-9-1",
            run(Mlp::with_skip(&[32, 9, 1], 1.0, 6).unwrap(), nat, one, online(0.1, 0.0, false), 2),
        ),
    ];
    report_and_check(&cases, &GOLDEN_ONLINE);
    // Training with the measurement beside the next epoch (`train_on`) gives the same bits.
    for threads in [2, 3] {
        let net = Mlp::new(&[32, 64, 20, 1], 1.0, 3).unwrap();
        assert_eq!(
            run_on(threads, net, nat, one, online(0.1, 0.0, false), 3),
            GOLDEN_ONLINE[0],
            "{threads} threads"
        );
    }
}

/// Minibatch Adam (batches of 256, and of 64 with skip-layer connections and two outputs).
#[test]
fn adam_training_keeps_its_bits() {
    if !fma_machine() {
        return;
    }
    let nat = InputCoding::Natural;
    let cases = [
        (
            "32-64-20-1 adam 256",
            run(
                Mlp::new(&[32, 64, 20, 1], 1.0, 3).unwrap(),
                nat,
                OutputCoding::One,
                Optimiser::adam(1e-3, 256),
                3,
            ),
        ),
        (
            "skip 32-12-2 adam 64",
            run(
                Mlp::with_skip(&[32, 12, 2], 1.0, 8).unwrap(),
                nat,
                OutputCoding::Two { margin: 0.0 },
                Optimiser::adam(3e-3, 64),
                2,
            ),
        ),
    ];
    report_and_check(&cases, &GOLDEN_ADAM);
    // Training on several threads (`train_on`: the measurement as tasks, each batch's passes and
    // update in halves) gives the same bits.
    for threads in [2, 3] {
        let net = Mlp::new(&[32, 64, 20, 1], 1.0, 3).unwrap();
        let hash = run_on(threads, net, nat, OutputCoding::One, Optimiser::adam(1e-3, 256), 3);
        assert_eq!(hash, GOLDEN_ADAM[0], "{threads} threads");
        let net = Mlp::with_skip(&[32, 12, 2], 1.0, 8).unwrap();
        let hash = run_on(threads, net, nat, OutputCoding::Two { margin: 0.0 }, Optimiser::adam(3e-3, 64), 2);
        assert_eq!(hash, GOLDEN_ADAM[1], "skip, {threads} threads");
    }
}

/// The single-position passes on their own: forward outputs and a few hundred online steps.
#[test]
fn single_position_passes_keep_their_bits() {
    let (x, wins) = data(InputCoding::Natural);
    let rows = x.as_slice().unwrap();
    let mut net = Mlp::new(&[32, 20, 7, 2], 1.0, 9).unwrap();
    let mut ws = Workspace::new(&net);
    let mut velocity: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
    let mut h = Hash::new();
    for (n, (x, &win)) in rows.chunks_exact(32).zip(&wins).enumerate().step_by(37) {
        let d = if win { [1.0, 0.0] } else { [0.0, 1.0] };
        let m = if n % 2 == 0 { Some((0.8, velocity.as_mut_slice())) } else { None };
        net.sgd_step(&mut ws, x, &d, 0.2, m);
        for y in net.forward_with(&mut ws, x) {
            h.word(y.to_bits());
        }
    }
    h.net(&net);
    report_and_check(&[("single-position steps", h.0)], &GOLDEN_SINGLE);
}

fn report_and_check(cases: &[(&str, u64)], golden: &[u64]) {
    for (name, hash) in cases {
        println!("{name}: {hash:#018x}");
    }
    let got: Vec<u64> = cases.iter().map(|c| c.1).collect();
    assert_eq!(got, golden, "the trainers' bits changed (hashes printed above)");
}

const GOLDEN_ONLINE: [u64; 4] =
    [0x96e5_8a2c_98f2_8ebe, 0x5637_5548_a825_70c0, 0x9638_6c27_e774_35a9, 0x07dc_ef5b_d88d_8d9b];
const GOLDEN_ADAM: [u64; 2] = [0x8fde_e3ca_08ef_fb44, 0x44b4_ec5e_b218_579d];
const GOLDEN_SINGLE: [u64; 1] = [0x1588_6ea9_0d28_1460];
