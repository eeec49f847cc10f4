//! A program with the model inside its binary (`include_bytes!`): no file to ship, no kpk.
//!
//! `cargo run --release -p kpk-probe --example embedded -- "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1"`

use kpk_probe::{Model, Outcome, Source};

static MODEL: &[u8] = include_bytes!("../../models/kpk.hybrid");

fn main() {
    let model = Model::from_bytes(MODEL).expect("the embedded model is valid");
    let fens: Vec<String> = std::env::args().skip(1).collect();
    let fens = if fens.is_empty() { vec!["8/8/8/8/8/1K6/1P6/6k1 w - - 0 1".to_string()] } else { fens };
    for fen in fens {
        match model.probe_fen(&fen) {
            Ok(a) => {
                let outcome = if a.outcome == Outcome::Win { "win" } else { "draw" };
                let source = match a.source {
                    Source::Net => "net",
                    Source::Tree => "tree",
                    Source::Exception => "exception",
                    Source::Rule => "rule",
                };
                println!("{fen}\t{outcome}\t{source}");
            }
            Err(e) => eprintln!("{fen}: {e}"),
        }
    }
}
