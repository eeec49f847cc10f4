//! `kpk compress --from`: a net saved by `kpk run` (natural or scaled coding, one or two outputs,
//! any feature order) quantised and completed into an exact hybrid.

use kpk::hybrid::complete::{from_saved, prepare};
use kpk::hybrid::quant;
use kpk::net::mlp::Mlp;
use kpk::net::model::SavedNet;
use kpk::net::output::OutputCoding;
use kpk::paper::coding::InputCoding;
use kpk::paper::features::features;
use kpk::train::{
    self, TrainData,
    config::{Optimiser, TrainConfig},
};
use kpk::{Bitbase, KpkPosition, Outcome};
use ndarray::Array2;
use std::process::Command;

/// The saved net's own inputs for `p`: the listed characteristics under `coding`.
fn coded(coding: InputCoding, xs: &[usize], p: &KpkPosition) -> Vec<f64> {
    let mut all = vec![0.0; coding.width()];
    coding.encode(&features(p), &mut all);
    xs.iter().map(|&x| all[x - 1]).collect()
}

/// A small net trained for two epochs on every legal position, saved as `kpk run` saves one.
fn saved_net(coding: InputCoding, xs: &[usize], output: OutputCoding, bb: &Bitbase) -> SavedNet {
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    let rows: Vec<f64> = legal.iter().flat_map(|p| coded(coding, xs, p)).collect();
    let inputs = Array2::from_shape_vec((legal.len(), xs.len()), rows).unwrap();
    let wins: Vec<bool> = legal.iter().map(|p| bb.outcome(p) == Outcome::Win).collect();
    let net = Mlp::new(&[xs.len(), 6, output.width()], 1.0, 5).unwrap();
    let tc = TrainConfig {
        output,
        optimiser: Optimiser::adam(0.01, 256),
        max_epochs: 2,
        window: 2,
        error_target: 0.0,
        seed: 5,
        ..TrainConfig::default()
    };
    let data = TrainData { inputs: inputs.view(), wins: &wins };
    let net = train::train(net, &data, None, &tc, &mut |_| {}).unwrap().net;
    let names = xs.iter().map(|x| format!("x{x}")).collect();
    SavedNet::new(&net, coding, names, output, 5).unwrap()
}

/// Out of order, with x13 (0 on every legal position).
const XS: [usize; 6] = [28, 13, 27, 32, 1, 14];

#[test]
fn a_saved_net_is_read_as_its_own_classification_and_completed_exactly() {
    let bb = Bitbase::generate();
    for (coding, output) in
        [(InputCoding::Natural, OutputCoding::Two { margin: 0.4 }), (InputCoding::Scaled, OutputCoding::One)]
    {
        let saved = saved_net(coding, &XS, output, &bb);
        let original = saved.net().unwrap();
        let p = prepare(&saved).unwrap();
        assert_eq!(p.input.xs(), vec![1, 14, 27, 28, 32], "increasing x, x13 dropped");
        assert_eq!(p.net.topology(), &[5, 6, 1]);
        // On every legal position the prepared net, reading the raw characteristics through the
        // folded coding, classifies as the saved net does (a two-output net: the larger output).
        let (mut y, mut z) = (vec![0.0; output.width()], [0.0]);
        let mut compared = 0;
        for pos in KpkPosition::all() {
            original.forward(&coded(coding, &XS, &pos), &mut y);
            let raw: Vec<f64> = p.input.xs().iter().map(|&x| f64::from(features(&pos)[x - 1])).collect();
            let x: Vec<f64> = raw.iter().zip(&p.scale).zip(&p.offset).map(|((v, s), o)| s * v + o).collect();
            p.net.forward(&x, &mut z);
            let (says_win, margin) = match output {
                OutputCoding::One => (y[0] >= 0.5, y[0] - 0.5),
                OutputCoding::Two { .. } => (y[0] > y[1], y[0] - y[1]),
            };
            if margin.abs() > 1e-9 {
                assert_eq!(z[0] >= 0.5, says_win, "{coding:?} {}", pos.to_fen());
                compared += 1;
            }
        }
        assert!(compared > 165_000);
        // Quantised with 6-bit fractions, the integer net agrees with the float net almost everywhere: the
        // coding is folded into the first layer, not dropped.
        let q = quant::quantise(p.net.layers(), p.net.slope(), &p.scale, &p.offset, &[8, 8], 8).unwrap();
        let mut x = vec![0i32; p.input.width()];
        let disagree = KpkPosition::all()
            .filter(|pos| {
                p.input.write(pos, &mut x);
                let raw: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
                let coded: Vec<f64> =
                    raw.iter().zip(&p.scale).zip(&p.offset).map(|((v, s), o)| s * v + o).collect();
                p.net.forward(&coded, &mut z);
                (q.output(&x) > 0) != (z[0] >= 0.5)
            })
            .count();
        let near = KpkPosition::all()
            .filter(|pos| {
                p.input.write(pos, &mut x);
                let coded: Vec<f64> =
                    x.iter().zip(&p.scale).zip(&p.offset).map(|((&v, s), o)| s * f64::from(v) + o).collect();
                p.net.forward(&coded, &mut z);
                (z[0] - 0.5).abs() < 0.002
            })
            .count();
        eprintln!("near {near}");
        eprintln!("{coding:?}: {disagree}");
        assert!(disagree < 1_657, "{coding:?}: {disagree} positions change class when quantised");
        // Completed: exact on every legal position, from the bytes.
        let done = from_saved(&saved, &bb).unwrap();
        let h = kpk::hybrid::Hybrid::from_bytes(&done.completed.hybrid.to_bytes(), "memory").unwrap();
        assert!(h.disagreements(&bb).is_empty());
        assert_eq!(h.exceptions().len(), done.completed.refined.errors_after);
        assert!(done.float_errors > 0 && done.float_errors < 165_676);
    }
}

#[test]
fn codings_that_are_not_affine_are_refused() {
    use kpk::paper::coding::BINARY_BITS;
    let net = Mlp::new(&[BINARY_BITS[26] + BINARY_BITS[27], 3, 1], 1.0, 1).unwrap();
    let names = vec!["x27".to_string(), "x28".to_string()];
    let saved = SavedNet::new(&net, InputCoding::Binary, names, OutputCoding::One, 1).unwrap();
    let e = prepare(&saved).unwrap_err().to_string();
    assert!(e.contains("binary input coding is not affine"), "{e}");
}

#[test]
fn the_cli_needs_an_explicit_destination_with_from() {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["compress", "--from", "no-such-net.json"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--from needs --out"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
