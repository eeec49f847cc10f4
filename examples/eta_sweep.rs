//! The experiment behind kpk's default online learning rate (docs/TRAINER.md): train one of the
//! paper's nets on one of its sets with several learning rates and weight seeds, printing CSV.
//!
//! `cargo run --release --example eta_sweep -- T4 32-32-5-2 200 0.01,0.03,0.1,0.3,1 1,2`
//!
//! Arguments: set (T1..T5), topology, epochs, learning rates, seeds, and optionally a momentum and
//! an exponential annealing factor (section 6's question; default 0 and 1, the paper's setting).
//! Runs the full budget (no early stop), E2 with target 0.10, two outputs with margin 0 when the
//! net has two outputs.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::mlp::Mlp;
use kpk::paper::coding::InputCoding;
use kpk::train::{Anneal, BestState, ErrorFunction, Optimiser, OutputCoding, TrainConfig, TrainData, train};

fn list<T: std::str::FromStr>(s: &str, sep: char) -> Vec<T> {
    s.split(sep).map(|v| v.parse().unwrap_or_else(|_| panic!("bad value '{v}'"))).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !(6..=8).contains(&args.len()) {
        eprintln!("usage: eta_sweep SET TOPOLOGY EPOCHS ETAS SEEDS [MOMENTUM [ANNEAL_FACTOR]]");
        std::process::exit(2);
    }
    let (set, topology, epochs) = (&args[1], list::<usize>(&args[2], '-'), args[3].parse().expect("epochs"));
    let (etas, seeds) = (list::<f64>(&args[4], ','), list::<u64>(&args[5], ','));
    let momentum: f64 = args.get(6).map_or(0.0, |s| s.parse().expect("momentum"));
    let factor: f64 = args.get(7).map_or(1.0, |s| s.parse().expect("annealing factor"));
    let anneal = if factor < 1.0 { Anneal::Exponential { factor } } else { Anneal::None };
    let bb = Bitbase::generate();
    let ds = Dataset::named(set, kpk::dataset::DEFAULT_SEED, &bb).expect("dataset");
    let x = ds.inputs(InputCoding::Natural);
    let wins = ds.wins();
    let data = TrainData { inputs: x.view(), wins: &wins };
    let output =
        if topology.last() == Some(&2) { OutputCoding::Two { margin: 0.0 } } else { OutputCoding::One };
    println!("set,topology,eta,momentum,anneal,seed,epoch,e1,e2,train_accuracy_pct");
    for &eta in &etas {
        for &seed in &seeds {
            let cfg = TrainConfig {
                error_function: ErrorFunction::E2,
                error_target: 0.10,
                output,
                optimiser: Optimiser::Online { learning_rate: eta, momentum, anneal, reshuffle: false },
                max_epochs: epochs,
                window: usize::MAX,
                seed,
                best: BestState::LeastError,
                ..TrainConfig::default()
            };
            let net = Mlp::new(&topology, 1.0, seed).expect("topology");
            train(net, &data, None, &cfg, &mut |m| {
                if m.epoch == 1 || m.epoch % 10 == 0 {
                    println!(
                        "{set},{},{eta},{momentum},{factor},{seed},{},{:.5},{:.5},{:.3}",
                        args[2], m.epoch, m.e1, m.e2, m.train_accuracy_pct
                    );
                }
            })
            .expect("training");
        }
    }
}
