//! Table 5's trial 39 epoch by epoch: NN6 (32-32-5-2, two outputs, margin 0.4 in the stopping
//! condition) trained on T4 with E2 and target 0.10, exactly as `experiments/table5/trial39.toml`
//! states it and `kpk run` trains it, printing every epoch as CSV and a summary line. The paper
//! reached 99.6% training accuracy in 1,610 epochs.
//!
//! `cargo run --release --example trial39`
//!
//! An optional argument, a number of epochs, trains exactly that many (no early stop: both of
//! section 4.5's conditions must then hold over the whole run, which they cannot), e.g.
//! `cargo run --release --example trial39 -- 1610` for the paper's run length.

use kpk::Bitbase;
use kpk::experiment::{config::TrialConfig, run::run_trial};
use kpk::train::config::StopRule;
use std::path::Path;

const CONFIG: &str = "experiments/table5/trial39.toml";

fn main() {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join(CONFIG);
    let trial = TrialConfig::load(&config).unwrap_or_else(|e| fail(&e.to_string()));
    let trial = match std::env::args().nth(1) {
        None => trial,
        Some(epochs) => {
            let epochs: usize =
                epochs.parse().unwrap_or_else(|_| fail(&format!("{epochs:?} is not a number of epochs")));
            let longer = |c: &mut TrialConfig| {
                (c.max_epochs, c.window, c.patience, c.stop) = (epochs, epochs, epochs, StopRule::Both)
            };
            trial.with(longer).unwrap_or_else(|e| fail(&e.to_string()))
        }
    };
    let bb = Bitbase::generate();
    println!("epoch,e1,e2,correct,misclassified,undecided,train_accuracy_pct,train_accuracy_m0_pct");
    let run = run_trial(&trial, &bb, &mut |m| {
        println!(
            "{},{:.5},{:.5},{},{},{},{:.3},{:.3}",
            m.epoch,
            m.e1,
            m.e2,
            m.correct,
            m.misclassified,
            m.undecided,
            m.train_accuracy_pct,
            m.accuracy_m0_pct()
        );
    })
    .unwrap_or_else(|e| fail(&e.to_string()));
    let s = &run.summary;
    println!(
        "# {}: stopped ({}) after {} epochs; kept epoch {}: {:.3}% correct at m = 0 ({} wrong), E1 {:.4}, E2 {:.4}",
        s.name,
        s.stop_reason,
        s.epochs,
        s.best_epoch,
        s.train_accuracy_pct,
        s.train_misclassified,
        s.e1,
        s.e2
    );
}

fn fail(message: &str) -> ! {
    eprintln!("trial39: error: {message}");
    std::process::exit(2);
}
