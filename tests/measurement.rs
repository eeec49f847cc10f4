//! The trainer's end-of-epoch measurement (section 4.5: E1, E2 and the correct count, taken in
//! blocks of positions) against a reference that runs one position at a time, on every position of
//! T3. The blocked sums keep the single-position order, so the two agree exactly: E1 and E2 bit for
//! bit, the counts to the position.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::mlp::{Mlp, Workspace};
use kpk::net::output::{Classification, OutputCoding};
use kpk::paper::coding::InputCoding;
use kpk::train::{
    EpochMetrics, TrainData,
    config::{Optimiser, TrainConfig},
    train,
};

/// E1, E2, correct, misclassified, undecided and correct at m = 0, one position at a time.
fn reference(net: &Mlp, data: &TrainData, output: OutputCoding) -> (f64, f64, [usize; 4]) {
    let mut ws = Workspace::new(net);
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    let mut counts = [0usize; 4];
    let mut target = vec![0.0; output.width()];
    for (x, &win) in data.inputs.rows().into_iter().zip(data.wins) {
        let y = net.forward_with(&mut ws, x.as_slice().expect("standard layout"));
        output.target(win, &mut target);
        for (y, d) in y.iter().zip(&target) {
            sum += (y - d).abs();
            max = max.max((y - d).abs());
        }
        match output.classify(y) {
            Classification::Undecided => counts[2] += 1,
            c if c.is_correct(win) => counts[0] += 1,
            _ => counts[1] += 1,
        }
        counts[3] += usize::from(output.without_margin().classify(y).is_correct(win));
    }
    (sum / (data.wins.len() * output.width()) as f64, max, counts)
}

fn check(topology: &[usize], output: OutputCoding, optimiser: Optimiser) {
    let bb = Bitbase::generate();
    let t3 = Dataset::named("T3", 0, &bb).unwrap();
    let (inputs, wins) = (t3.inputs(InputCoding::Natural), t3.wins());
    let data = TrainData { inputs: inputs.view(), wins: &wins };
    let cfg = TrainConfig { output, optimiser, max_epochs: 1, ..TrainConfig::default() };
    let mut seen: Vec<EpochMetrics> = Vec::new();
    let result =
        train(Mlp::new(topology, 1.0, 3).unwrap(), &data, None, &cfg, &mut |m| seen.push(m.clone())).unwrap();
    // One epoch: the returned net is the state the epoch was measured with.
    let m = &seen[0];
    let (e1, e2, counts) = reference(&result.net, &data, output);
    assert_eq!(m.total, 81_664);
    assert_eq!(m.e1.to_bits(), e1.to_bits(), "E1 {} vs {e1}", m.e1);
    assert_eq!(m.e2.to_bits(), e2.to_bits(), "E2 {} vs {e2}", m.e2);
    assert_eq!([m.correct, m.misclassified, m.undecided, m.total - m.wrong_m0()], counts);
    // A net that has learned something, so the counts are not trivial.
    assert!(m.correct > 81_664 / 2 && m.correct < 81_664, "correct {}", m.correct);
}

#[test]
fn one_output_online_measurement_equals_one_position_at_a_time_on_all_of_t3() {
    check(&[32, 64, 20, 1], OutputCoding::One, Optimiser::online(0.1));
}

#[test]
fn two_output_adam_measurement_with_margin_equals_one_position_at_a_time_on_all_of_t3() {
    check(&[32, 10, 2], OutputCoding::Two { margin: 0.4 }, Optimiser::adam(0.01, 256));
}
