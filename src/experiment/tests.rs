use super::{FIXTURE as GOOD, fixture_with as with};
use crate::error::Error;
use crate::experiment::chart::{ChartMarks, accuracy_chart};
use crate::experiment::config::TrialConfig;
use crate::experiment::rows::{read_metrics, write_metrics};
use crate::train::EpochMetrics;

fn error_of(text: &str) -> String {
    match TrialConfig::parse(text).and_then(TrialConfig::check) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn metrics_round_trip_through_csv() {
    let scratch = crate::scratch::Scratch::new("metrics");
    let dir = scratch.path();
    let rows: Vec<EpochMetrics> = (1..=3)
        .map(|epoch| EpochMetrics {
            epoch,
            e1: 0.1 / epoch as f64,
            e2: 0.9 / epoch as f64,
            correct: 100 + epoch,
            misclassified: 25 - epoch,
            undecided: 0,
            total: 125,
            train_accuracy_pct: 100.0 * (100 + epoch) as f64 / 125.0,
            train_accuracy_m0_pct: (epoch != 3).then_some(90.0),
            test_accuracy_pct: if epoch == 2 { None } else { Some(70.0 + epoch as f64) },
            wall_seconds: 0.0,
        })
        .collect();
    let path = dir.join("metrics.csv");
    write_metrics(&path, &rows).unwrap();
    assert_eq!(read_metrics(&path).unwrap(), rows);
    accuracy_chart("t", &rows, &ChartMarks::default()).save(&dir.join("accuracy.png"), (400, 300)).unwrap();
    std::fs::write(&path, "epoch,e1\n1,x\n").unwrap();
    assert!(read_metrics(&path).unwrap_err().to_string().contains("metrics.csv"));
}

#[test]
fn a_good_config_checks_and_round_trips_with_defaults_filled_in() {
    let trial = TrialConfig::parse(GOOD).unwrap().check().unwrap();
    assert_eq!(trial.topology().widths(), [32, 10, 10, 1]);
    assert_eq!(trial.config.window, 20);
    assert_eq!(trial.config.slope, 1.0);
    let resolved = trial.config.to_toml();
    assert!(resolved.contains("window = 20"), "{resolved}");
    assert_eq!(TrialConfig::parse(&resolved).unwrap(), *trial.config);
}

#[test]
fn unknown_keys_and_wrong_types_name_the_key_on_one_line() {
    let e = error_of(&with("learning_rat", "0.5"));
    assert!(e.contains("learning_rat") && !e.contains('\n'), "{e}");
    let e = error_of(&with("max_epochs", "\"lots\""));
    assert!(e.contains("key `max_epochs`") && !e.contains('\n'), "{e}");
    let e = error_of(&with("seed", ""));
    assert_eq!(e, "missing field `seed`");
    let e = error_of(&with("error_function", "\"E3\""));
    assert!(e.contains("error_function") && e.contains("E1") && e.contains("E2"), "{e}");
    let e = error_of(&with("input_coding", "\"gray\""));
    assert!(e.contains("input_coding") && e.contains("natural"), "{e}");
}

/// The line and key come from the error's span, never from the message's words.
#[test]
fn toml_errors_give_the_line_and_key_their_span_starts_on() {
    let line_of = |text: &str, key: &str| 1 + text.lines().position(|l| l.starts_with(key)).unwrap();
    // A bad type on a key's line.
    let text = with("max_epochs", "\"lots\"");
    let e = error_of(&text);
    assert!(e.starts_with(&format!("line {}, key `max_epochs`: ", line_of(&text, "max_epochs"))), "{e}");
    // Syntax errors: on a key's line, on a line without a key, and at the very start.
    let e = error_of(&format!("{GOOD}window =\n"));
    assert!(e.starts_with(&format!("line {}, key `window`: ", GOOD.lines().count() + 1)), "{e}");
    let e = error_of(&format!("{GOOD}[stages\n"));
    assert!(e.starts_with(&format!("line {}: ", GOOD.lines().count() + 1)), "{e}");
    let e = error_of(&format!("= 3\n{GOOD}"));
    assert!(e.starts_with("line 1: "), "{e}");
    // A missing top-level key is the whole document's, even in a document of one line.
    for text in [with("seed", ""), "name = \"t\"".to_string()] {
        let e = error_of(&text);
        assert!(!e.contains("line ") && !e.contains("key `") && !e.contains('\n'), "{e}");
    }
    // A table lacking a key: the line of its header, or of its key's inline table.
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Net {
        name: String,
        layer: Layer,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Layer {
        width: usize,
        slope: f64,
    }
    let e = |text: &str| super::config::parse_toml::<Net>(text).unwrap_err().to_string();
    let inline = e("name = \"n\"\nlayer = { width = 3 }\n");
    assert!(inline.starts_with("line 2, key `layer`: ") && inline.contains("slope"), "{inline}");
    let header = e("name = \"n\"\n\n[layer]\nwidth = 3\n");
    assert!(header.starts_with("line 3: ") && header.contains("slope"), "{header}");
    let top = e("layer = { width = 3, slope = 1.0 }");
    assert!(!top.contains("line ") && top.contains("name"), "{top}");
}

#[test]
fn values_are_checked_against_each_other() {
    let cases = [
        (with("topology", "\"31-10-1\""), "key `topology`"),
        (with("topology", "\"32-10-2\""), "key `topology`"),
        (with("topology", "\"32\""), "key `topology`"),
        (with("topology", "\"32-0-1\""), "key `topology`"),
        (with("topology", "\"32-x-1\""), "key `topology`"),
        (with("training_set", "\"T9\""), "key `training_set`"),
        (with("testing_set", "\"S2\""), "key `testing_set`"),
        (with("testing_set", "\"T1\""), "key `testing_set`"),
        (with("side", "\"btm\""), "key `side`"),
        (with("margin", "0.4"), "key `margin`"),
        (with("error_target", "0"), "key `error_target`"),
        (with("learning_rate", "-1.0"), "key `learning_rate`"),
        (with("momentum", "1.0"), "key `momentum`"),
        (with("max_epochs", "0"), "key `max_epochs`"),
        (with("window", "101"), "key `window`"),
        (with("patience", "0"), "key `patience`"),
        (with("stop", "\"sometimes\""), "stop"),
        (with("slope", "0.0"), "key `slope`"),
        (with("name", "\"../x\""), "key `name`"),
        (with("batch_size", "8"), "key `batch_size`"),
    ];
    for (text, expected) in cases {
        let e = error_of(&text);
        assert!(e.contains(expected) && !e.contains('\n'), "expected {expected}, got {e}");
    }
    // Two outputs need a two-output topology, and take a margin in [0, 0.5).
    let two = with("output_coding", "\"two\"").replace("32-10-10-1", "32-10-10-2");
    assert!(TrialConfig::parse(&two).unwrap().check().is_ok());
    let e = error_of(&format!("{two}\nmargin = 0.5"));
    assert!(e.contains("key `margin`"), "{e}");
    assert!(TrialConfig::parse(&format!("{two}\nmargin = 0.4")).unwrap().check().is_ok());
}

#[test]
fn config_errors_carry_the_file_and_the_key() {
    let scratch = crate::scratch::Scratch::new("config-error");
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/table5/trial39.toml"))
            .unwrap()
            .replace("margin = 0.4", "margin = 0.7");
    let path = scratch.join("m.toml");
    std::fs::write(&path, text).unwrap();
    match TrialConfig::load(&path) {
        Err(Error::Config { path: p, key, reason }) => {
            assert_eq!((p.as_str(), key.as_str()), (path.display().to_string().as_str(), "margin"));
            assert!(reason.contains("0.7"), "{reason}");
        }
        other => panic!("expected a config error on `margin`, got {other:?}"),
    }
}

#[test]
fn a_wrapped_error_keeps_its_kind() {
    let e = Error::Diverged { epoch: 7 }.context("trial39 (seed 39)");
    assert!(matches!(e.root(), Error::Diverged { epoch: 7 }));
    assert_eq!(
        e.to_string(),
        "trial39 (seed 39): training diverged at epoch 7: weights are no longer finite"
    );
}

/// Each examined reading's label (a row of trials.csv) names it alone: `from_label` gives it back.
#[test]
fn every_examined_reading_is_found_by_its_label() {
    for r in crate::experiment::readings::examined() {
        assert_eq!(crate::experiment::readings::from_label(&r.label()), Some(r));
    }
    assert_eq!(crate::experiment::readings::from_label("either (target 20, patience 20)"), None);
}
