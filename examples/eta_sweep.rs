//! The experiment behind kpk's default online learning rate (docs/TRAINER.md): train one of the
//! paper's nets on one of its sets with several learning rates and weight seeds, printing CSV.
//!
//! `cargo run --release --example eta_sweep -- T4 32-32-5-2 200 0.01,0.03,0.1,0.3,1 1,2`
//!
//! Arguments: set (T1..T5), topology, epochs, learning rates, seeds, and optionally a momentum and
//! an exponential annealing factor (section 6's question; default 0 and 1, the paper's setting).
//! Runs the full budget (no early stop), E2 with target 0.10, two outputs with margin 0 when the
//! net has two outputs.
//!
//! `eta_sweep --summary 1,10,50,200 < runs.csv` reads that CSV back and prints a Markdown table:
//! per optimiser setting, the range over the seeds of the training accuracy at each epoch listed,
//! of E1 at the last, and of the first printed epoch with E1 ≤ 0.05. `.ci/eta-sweep` writes the
//! runs and tables of docs/TRAINER.md into `docs/eta_sweep/` and checks them.

use kpk::Bitbase;
use kpk::dataset::Dataset;
use kpk::net::mlp::Mlp;
use kpk::net::output::OutputCoding;
use kpk::paper::coding::InputCoding;
use kpk::train::{
    TrainData,
    config::{Anneal, ErrorFunction, Optimiser, TrainConfig},
    keep::BestState,
    train,
};

fn list<T: std::str::FromStr>(s: &str, sep: char) -> Vec<T> {
    s.split(sep).map(|v| v.parse().unwrap_or_else(|_| panic!("bad value '{v}'"))).collect()
}

/// The range of `values` over the seeds: "a" when they agree to the digits shown, else "a–b".
fn range(values: &[f64], digits: usize) -> String {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (a, b) = (format!("{lo:.digits$}"), format!("{hi:.digits$}"));
    if a == b { a } else { format!("{a}–{b}") }
}

/// An optimiser setting as printed: (η, momentum, annealing factor).
type Setting = (String, String, String);
/// One run's printed rows: (epoch, E1, training accuracy %).
type Rows = Vec<(usize, f64, f64)>;

/// The Markdown table of a sweep's CSV (stdin), at the epochs listed.
fn summary(epochs: &[usize]) {
    use std::collections::BTreeMap;
    use std::io::BufRead;
    // (eta, momentum, anneal) as printed -> seed -> rows (epoch, e1, accuracy).
    let mut runs: BTreeMap<Setting, BTreeMap<u64, Rows>> = BTreeMap::new();
    let mut order = Vec::new();
    for line in std::io::stdin().lock().lines().skip(1) {
        let line = line.expect("stdin");
        let f: Vec<&str> = line.split(',').collect();
        let key = (f[2].to_string(), f[3].to_string(), f[4].to_string());
        if !order.contains(&key) {
            order.push(key.clone());
        }
        let row = (f[6].parse().expect("epoch"), f[7].parse().expect("e1"), f[9].parse().expect("accuracy"));
        runs.entry(key).or_default().entry(f[5].parse().expect("seed")).or_default().push(row);
    }
    let cols: Vec<String> = epochs.iter().map(|e| format!("accuracy % at epoch {e}")).collect();
    let last = epochs.last().copied().unwrap_or(0);
    println!(
        "| η | momentum | annealing factor | seeds | {} | E1 at {last} | first epoch with E1 ≤ 0.05 |",
        cols.join(" | ")
    );
    println!("|---|---|---|---|{}---|---|", "---|".repeat(epochs.len()));
    for key in &order {
        let seeds = &runs[key];
        let at = |e: usize, pick: fn(&(usize, f64, f64)) -> f64| -> Vec<f64> {
            seeds.values().filter_map(|rows| rows.iter().find(|r| r.0 == e).map(pick)).collect()
        };
        let accuracy: Vec<String> = epochs.iter().map(|&e| range(&at(e, |r| r.2), 2)).collect();
        let first: Vec<Option<usize>> =
            seeds.values().map(|rows| rows.iter().find(|r| r.1 <= 0.05).map(|r| r.0)).collect();
        let reached: Vec<f64> = first.iter().flatten().map(|&e| e as f64).collect();
        let missed = first.len() - reached.len();
        let first = match (reached.is_empty(), missed) {
            (true, _) => format!("> {last} (all seeds)"),
            (false, 0) => range(&reached, 0),
            (false, m) => format!("{} (> {last} for {m} of {} seeds)", range(&reached, 0), first.len()),
        };
        let (eta, momentum, factor) = key;
        println!(
            "| {eta} | {momentum} | {factor} | {} | {} | {} | {first} |",
            seeds.len(),
            accuracy.join(" | "),
            range(&at(last, |r| r.1), 4)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "--summary" {
        summary(&list::<usize>(&args[2], ','));
        return;
    }
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
                // A window longer than any run: the stopping rule never ends one early.
                window: kpk::train::config::MAX_EPOCHS,
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
