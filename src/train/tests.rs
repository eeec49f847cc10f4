use super::*;
use crate::net::output::{Classification, OutputCoding};
use crate::train::config::{Anneal, Optimiser};
use crate::train::keep::BestState;

#[test]
fn two_output_reading_follows_section_4_3() {
    let two = |m| OutputCoding::Two { margin: m };
    assert_eq!(two(0.0).classify(&[0.5, 0.49]), Classification::Win);
    assert_eq!(two(0.0).classify(&[0.49, 0.5]), Classification::Draw);
    assert_eq!(two(0.0).classify(&[0.6, 0.6]), Classification::Undecided);
    assert_eq!(two(0.0).classify(&[0.4, 0.4]), Classification::Undecided);
    assert_eq!(two(0.4).classify(&[0.9, 0.09]), Classification::Win);
    assert_eq!(two(0.4).classify(&[0.89, 0.05]), Classification::Undecided);
    assert_eq!(two(0.4).classify(&[0.95, 0.1]), Classification::Undecided);
    assert_eq!(two(0.4).classify(&[0.05, 0.95]), Classification::Draw);
    assert_eq!(OutputCoding::One.classify(&[0.5]), Classification::Win);
    assert_eq!(OutputCoding::One.classify(&[0.4999]), Classification::Draw);
    assert!(Classification::Win.is_correct(true) && !Classification::Win.is_correct(false));
    assert!(!Classification::Undecided.is_correct(true) && !Classification::Undecided.is_correct(false));
}

/// Feed a rule a sequence of (measure, correct) and report when and why it stops.
fn run_rule(window: usize, max_epochs: usize, epochs: &[(f64, usize)]) -> Option<(usize, StopReason)> {
    let cfg = TrainConfig { error_target: 0.1, window, max_epochs, ..TrainConfig::default() };
    let mut rule = StoppingRule::new(&cfg);
    epochs.iter().enumerate().find_map(|(i, &(e, c))| rule.observe(e, c).map(|r| (i + 1, r)))
}

#[test]
fn stopping_rule_reading() {
    // Within target (≤ 0.1, equality included) for 3 epochs in a row, while still improving.
    let seq = [(0.2, 1), (0.1, 2), (0.05, 3), (0.2, 4), (0.1, 5), (0.09, 6), (0.1, 7), (0.3, 8)];
    assert_eq!(run_rule(3, 100, &seq), Some((7, StopReason::ErrorTarget)));
    // The best count (7, first at epoch 2) is not beaten in epochs 3..=5, and equalling it is
    // not improving.
    let seq = [(0.5, 5), (0.5, 7), (0.5, 6), (0.5, 7), (0.5, 3), (0.5, 9)];
    assert_eq!(run_rule(3, 100, &seq), Some((5, StopReason::NoImprovement)));
    // No improvement at all after epoch 1: stop once W epochs have passed it.
    assert_eq!(run_rule(2, 100, &[(0.5, 4), (0.5, 4), (0.5, 4)]), Some((3, StopReason::NoImprovement)));
    // Steady improvement outside the target runs to the epoch limit.
    let seq: Vec<(f64, usize)> = (0..10).map(|i| (0.5, i)).collect();
    assert_eq!(run_rule(3, 10, &seq), Some((10, StopReason::MaxEpochs)));
    // Both rules at once: the error target is reported.
    assert_eq!(run_rule(2, 100, &[(0.1, 4), (0.1, 4), (0.1, 4)]), Some((2, StopReason::ErrorTarget)));
    // Nothing fires early.
    assert_eq!(run_rule(20, 100, &[(0.05, 1); 19]), None);
}

#[test]
fn annealing_schedules() {
    assert_eq!(Anneal::None.rate(0.2, 50), 0.2);
    assert_eq!(Anneal::Exponential { factor: 0.5 }.rate(0.2, 1), 0.2);
    assert_eq!(Anneal::Exponential { factor: 0.5 }.rate(0.2, 3), 0.05);
    assert_eq!(Anneal::Inverse { epochs: 10.0 }.rate(0.2, 11), 0.1);
}

#[test]
fn configs_are_validated() {
    assert!(TrainConfig::default().validate().is_ok());
    let with = |f: &dyn Fn(&mut TrainConfig)| {
        let mut c = TrainConfig::default();
        f(&mut c);
        c.validate()
    };
    assert!(with(&|c| c.error_target = -0.1).is_err());
    assert!(with(&|c| c.max_epochs = 0).is_err());
    assert!(with(&|c| c.window = 0).is_err());
    assert!(with(&|c| c.output = OutputCoding::Two { margin: 0.5 }).is_err());
    assert!(with(&|c| c.optimiser = Optimiser::online(0.0)).is_err());
    assert!(
        with(&|c| c.optimiser =
            Optimiser::Online { learning_rate: 0.1, momentum: 1.0, anneal: Anneal::None, reshuffle: false })
        .is_err()
    );
    assert!(
        with(&|c| c.optimiser =
            Optimiser::Adam { learning_rate: 1e-3, batch_size: 0, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 })
        .is_err()
    );
}

#[test]
fn configs_read_from_toml_with_defaults() {
    let cfg: TrainConfig = toml::from_str(
        r#"
        error_function = "E2"
        error_target = 0.1
        output = { kind = "two", margin = 0.4 }
        optimiser = { kind = "online", learning_rate = 0.1, anneal = { kind = "exponential", factor = 0.99 } }
        max_epochs = 100
        seed = 3
        "#,
    )
    .unwrap();
    assert_eq!(cfg.window, 20);
    assert_eq!(cfg.output, OutputCoding::Two { margin: 0.4 });
    assert_eq!(
        cfg.optimiser,
        Optimiser::Online {
            learning_rate: 0.1,
            momentum: 0.0,
            anneal: Anneal::Exponential { factor: 0.99 },
            reshuffle: false
        }
    );
    let adam: Optimiser = toml::from_str("kind = \"adam\"\nlearning_rate = 0.001\nbatch_size = 256").unwrap();
    assert_eq!(
        adam,
        Optimiser::Adam { learning_rate: 0.001, batch_size: 256, beta1: 0.9, beta2: 0.999, epsilon: 1e-8 }
    );
    assert!(toml::from_str::<Optimiser>("kind = \"online\"\nlearning_rate = 0.1\nmomemtum = 0.5").is_err());
}

/// Training on several threads (each epoch's measurement beside the next epoch's training, that
/// epoch thrown away when training stops) keeps the same states, measurements and stop as on one:
/// early stops by either rule, with a test set, online with momentum and reshuffling, and Adam.
#[test]
fn training_on_several_threads_is_training_on_one() {
    let n = 300;
    let inputs = ndarray::Array2::from_shape_fn((n, 5), |(i, j)| ((i * 7 + j * 13) % 11) as f64 / 5.0 - 1.0);
    let wins: Vec<bool> = (0..n).map(|i| (i * 7 % 11) + (i % 3) > 6).collect();
    let data = TrainData { inputs: inputs.view(), wins: &wins };
    let test = TrainData { inputs: inputs.slice(ndarray::s![..100, ..]), wins: &wins[..100] };
    let momentum = Optimiser::Online {
        learning_rate: 0.2,
        momentum: 0.5,
        anneal: Anneal::Exponential { factor: 0.99 },
        reshuffle: true,
    };
    let configs = [
        TrainConfig { optimiser: momentum, window: 3, max_epochs: 200, ..TrainConfig::default() },
        TrainConfig {
            optimiser: Optimiser::adam(0.01, 32),
            window: 4,
            max_epochs: 200,
            ..TrainConfig::default()
        },
        TrainConfig { error_target: 0.45, window: 2, max_epochs: 200, ..TrainConfig::default() },
        TrainConfig { window: 50, max_epochs: 7, best: BestState::LeastError, ..TrainConfig::default() },
    ];
    for cfg in configs {
        let net = Mlp::new(&[5, 6, 1], 1.0, 3).unwrap();
        let one = train_on(net.clone(), &data, Some(&test), &cfg, 1, &mut |_| {}).unwrap();
        for threads in [2, 3] {
            let many = train_on(net.clone(), &data, Some(&test), &cfg, threads, &mut |_| {}).unwrap();
            let what = format!("{:?}, {threads} threads", cfg.optimiser);
            assert_eq!(many.net, one.net, "{what}");
            // Wall times differ; everything measured must not.
            let measured = |h: &[EpochMetrics]| -> Vec<EpochMetrics> {
                h.iter().map(|m| EpochMetrics { wall_seconds: 0.0, ..m.clone() }).collect()
            };
            assert_eq!(measured(&many.history), measured(&one.history), "{what}");
            assert_eq!(
                (many.best_epoch, many.epochs_run, many.stop_reason),
                (one.best_epoch, one.epochs_run, one.stop_reason),
                "{what}"
            );
        }
        assert!(one.epochs_run < cfg.max_epochs || cfg.max_epochs == 7, "{:?} stopped early", cfg.optimiser);
    }
}
