//! The experiment configs and the trial runner, end to end.

use kpk::Color;
use kpk::dataset::{SetName, Side};
use kpk::experiment::config::{OutputName, TrialConfig};
use kpk::paper::tables::{self, Scope};
use kpk::train::config::ErrorFunction;
use std::path::{Path, PathBuf};

fn table5_config(trial: u8) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("experiments/table5/trial{trial:02}.toml"))
}

/// Every row of Table 5 has a config, and each config states exactly that row's set-up.
#[test]
fn the_41_table5_configs_match_the_paper_row_by_row() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/table5");
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "toml"));
    assert_eq!(files.count(), 41);
    for row in tables::table5() {
        let trial = TrialConfig::load(&table5_config(row.trial)).unwrap();
        let c = &trial.config;
        let at = format!("trial {}", row.trial);
        assert_eq!(c.name, format!("trial{:02}", row.trial), "{at}");
        assert_eq!(c.side, if row.side == Color::White { Side::Wtm } else { Side::Btm }, "{at}");
        assert_eq!(c.topology.to_string(), row.topology, "{at}");
        assert_eq!(trial.topology().weight_count(), row.weights, "{at}");
        assert_eq!(c.training_set, SetName::from(row.train_set), "{at}");
        assert_eq!(trial.scope(), row.scope(), "{at}");
        // Trials 1-37 were tested on the unseen half of their hand-prepared set; 38-41 not at all.
        let expected_test = row.train_set.testing_set();
        assert_eq!(c.testing_set.map(|t| t.name()), expected_test, "{at}");
        assert_eq!(row.scope() == Scope::Small, row.trial <= 37, "{at}");
        assert_eq!(row.test_acc_pct.is_some(), expected_test.is_some(), "{at}");
        let error = if row.error_fn == "E1" { ErrorFunction::E1 } else { ErrorFunction::E2 };
        assert_eq!(c.error_function, error, "{at}");
        assert_eq!(c.error_target, row.target, "{at}");
        // NN6 is the only two-output net; it used the margin 0.4 in its stopping rule (4.3).
        if row.nn == 6 {
            assert_eq!((c.output_coding, c.margin), (OutputName::Two, 0.4), "{at}");
        } else {
            assert_eq!((c.output_coding, c.margin), (OutputName::One, 0.0), "{at}");
        }
        // The paper: natural coding, online updates without momentum, b = 1, a 20-epoch window.
        assert_eq!(c.input_coding, kpk::paper::coding::InputCoding::Natural, "{at}");
        assert_eq!(c.momentum, 0.0, "{at}");
        assert_eq!((c.slope, c.window), (1.0, 20), "{at}");
    }
}

/// Every value that is our choice where the paper is silent carries a comment saying so.
#[test]
fn every_chosen_value_in_the_table5_configs_is_commented() {
    for trial in 1..=41u8 {
        let path = table5_config(trial);
        let text = std::fs::read_to_string(&path).unwrap();
        for key in ["data_seed", "learning_rate", "max_epochs", "keep", "seed"] {
            let line = text
                .lines()
                .find(|l| l.split_once('=').is_some_and(|(k, _)| k.trim() == key))
                .unwrap_or_else(|| panic!("{}: no {key}", path.display()));
            assert!(line.contains("# our choice"), "{}: {line}", path.display());
        }
    }
}

use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::KpkPosition;
use kpk::dataset::Dataset;
use kpk::experiment::{self as exp, config::Trial};
use kpk::net::export;
use kpk::net::mlp::{Mlp, Workspace};
use kpk::output::RunFolder;
use kpk::paper::coding::InputCoding;
use kpk::train::{self, TrainData};
use std::process::Command;

mod support;

/// A small, fast trial: NN1 on T1 for a fixed number of epochs (the window is as long as the run,
/// so the stopping rule cannot end it early unless the error target is met).
fn tiny(name: &str, epochs: usize) -> String {
    format!(
        r#"
name = "{name}"
side = "wtm"
training_set = "T1"
testing_set = "S1"
data_seed = 1998
topology = "32-10-10-1"
input_coding = "natural"
output_coding = "one"
error_function = "E1"
error_target = 0.01
optimiser = "online"
learning_rate = 0.3
max_epochs = {epochs}
window = {epochs}
seed = 5
"#
    )
}

fn parse(text: &str) -> Trial {
    TrialConfig::parse(text).unwrap().check().unwrap()
}

/// The runner's per-epoch record and kept state are exactly those of one direct trainer call.
#[test]
fn the_runner_records_exactly_what_the_trainer_measures() {
    let bb = Bitbase::generate();
    let trial = parse(&tiny("exact", 30));
    let run = exp::run::run_trial(&trial, &bb, &mut |_| {}).unwrap();
    assert_eq!(run.metrics.len(), 30);

    let t1 = Dataset::named("T1", 1998, &bb).unwrap();
    let s1 = Dataset::named("S1", 1998, &bb).unwrap();
    let (x, w) = (t1.inputs(InputCoding::Natural), t1.wins());
    let (xt, wt) = (s1.inputs(InputCoding::Natural), s1.wins());
    let net = Mlp::new(trial.topology().widths(), 1.0, 5).unwrap();
    let mut continuous = Vec::new();
    let test = TrainData { inputs: xt.view(), wins: &wt };
    train::train(
        net,
        &TrainData { inputs: x.view(), wins: &w },
        Some(&test),
        &trial.train_config(),
        &mut |m| continuous.push(m.clone()),
    )
    .unwrap();
    assert_eq!(continuous.len(), 30);
    for (a, b) in run.metrics.iter().zip(&continuous) {
        assert_eq!(
            (a.epoch, a.e1.to_bits(), a.e2.to_bits(), a.correct),
            (b.epoch, b.e1.to_bits(), b.e2.to_bits(), b.correct)
        );
        assert_eq!(a.test_accuracy_pct, b.test_accuracy_pct);
    }
    // The kept state is the epoch with the most training positions right (ties: least E1).
    let best = run.metrics.iter().map(|m| m.correct).max().unwrap();
    let kept = &run.metrics[run.summary.best_epoch - 1];
    assert_eq!(kept.correct, best);
    assert!(run.metrics.iter().filter(|m| m.correct == best).all(|m| m.e1 >= kept.e1));
    assert_eq!(run.summary.train_accuracy_pct, 100.0 * best as f64 / 125.0);
    assert_eq!(run.summary.train_misclassified, 125 - best);
}

/// Exported weights (JSON, safetensors, .npy) load back into a net whose outputs are
/// bit-identical to the trained net's on every legal position.
#[test]
fn exported_weights_load_back_with_identical_outputs() {
    let bb = Bitbase::generate();
    let scratch = support::Scratch::new("export");
    let dir = scratch.path();
    let run = exp::run::run_trial(&parse(&tiny("export", 15)), &bb, &mut |_| {}).unwrap();
    let folder = dir.join("export");
    exp::folder::write_trial(&RunFolder::check(dir, "export", &exp::folder::TRIAL_FOLDER).unwrap(), &run)
        .unwrap();
    let out = dir.join("exported");
    exp::folder::export_net(&folder.join(exp::rows::WEIGHTS_JSON), &out).unwrap();
    let nets = [
        exp::folder::load_net(&folder.join(exp::rows::WEIGHTS_JSON)).unwrap(),
        exp::folder::load_net(&out.join(exp::rows::WEIGHTS_JSON)).unwrap(),
        export::read_safetensors(&folder.join(exp::folder::WEIGHTS_SAFETENSORS)).unwrap(),
        export::read_safetensors(&out.join(exp::folder::WEIGHTS_SAFETENSORS)).unwrap(),
        export::read_npy(&folder.join(exp::folder::WEIGHTS_NPY_DIR), 1.0).unwrap(),
        export::read_npy(&out.join(exp::folder::WEIGHTS_NPY_DIR), 1.0).unwrap(),
    ];
    let mut ws = Workspace::new(&run.net);
    let mut ws2 = Workspace::new(&run.net);
    let mut input = vec![0.0; 32];
    let mut checked = 0;
    for p in KpkPosition::all() {
        InputCoding::Natural.encode(&kpk::paper::features::features(&p), &mut input);
        let y = run.net.forward_with(&mut ws, &input).to_vec();
        for net in &nets {
            let z = net.forward_with(&mut ws2, &input);
            assert_eq!(y[0].to_bits(), z[0].to_bits(), "{}", p.to_fen());
        }
        checked += 1;
    }
    assert_eq!(checked, 165_676);
}

fn kpk(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kpk")).args(args).output().unwrap()
}

/// Bad configs fail with one line naming the problem, a non-zero exit, and nothing written.
#[test]
fn bad_configs_give_one_line_errors_and_write_nothing() {
    let scratch = support::Scratch::new("bad");
    let dir = scratch.path();
    let good = tiny("good", 3);
    let cases = [
        ("unknown_key", format!("{good}colour = \"red\"\n"), "unknown field `colour`"),
        ("wrong_type", good.replace("max_epochs = 3", "max_epochs = \"three\""), "key `max_epochs`"),
        ("topology", good.replace("32-10-10-1", "30-10-10-1"), "key `topology`"),
        ("two_outputs", good.replace("32-10-10-1", "32-10-10-2"), "key `topology`"),
        ("unknown_set", good.replace("\"T1\"", "\"T9\""), "unknown set 'T9'"),
        ("side", good.replace("\"S1\"", "\"S2\""), "key `testing_set`"),
    ];
    for (tag, text, expected) in cases {
        let config = dir.join(format!("{tag}.toml"));
        std::fs::write(&config, text).unwrap();
        let out_dir = dir.join(format!("out-{tag}"));
        // A good config beside the bad one must not run either.
        let good_path = dir.join("good.toml");
        std::fs::write(&good_path, &good).unwrap();
        let o = kpk(&[
            "run",
            good_path.to_str().unwrap(),
            config.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{tag}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{tag}: {stderr}");
        assert!(stderr.contains(expected) && stderr.contains(&format!("{tag}.toml")), "{tag}: {stderr}");
        assert!(!out_dir.exists(), "{tag}: wrote {}", out_dir.display());
    }
    let missing = dir.join("missing.toml");
    let o = kpk(&["run", missing.to_str().unwrap(), "--out", dir.join("out-missing").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("missing.toml"), "{stderr}");
    assert!(!dir.join("out-missing").exists());
}

/// `kpk run` writes every file of a trial's folder; `kpk plot` redraws its chart; `kpk export`
/// writes the weights elsewhere.
#[test]
fn run_plot_and_export_from_the_command_line() {
    let scratch = support::Scratch::new("cli");
    let dir = scratch.path();
    let config = dir.join("cli.toml");
    std::fs::write(&config, tiny("cli", 4)).unwrap();
    let out = dir.join("reports");
    let o = kpk(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let folder = out.join("cli");
    for file in [
        "config.toml",
        "metrics.csv",
        "summary.json",
        "weights.json",
        "weights.safetensors",
        "accuracy.png",
        "misclassified.csv",
    ] {
        assert!(folder.join(file).is_file(), "{file}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(folder.join("summary.json")).unwrap()).unwrap();
    for key in ["name", "epochs", "train_accuracy_pct", "test_accuracy_pct", "weights"] {
        assert!(summary.get(key).is_some(), "{key}");
    }
    assert_eq!(summary["epochs"], 4);
    assert_eq!(exp::rows::read_metrics(&folder.join("metrics.csv")).unwrap().len(), 4);
    // The resolved config runs again as it is.
    assert!(TrialConfig::load(&folder.join("config.toml")).is_ok());
    let png = dir.join("redrawn.png");
    let o = kpk(&["plot", folder.join("metrics.csv").to_str().unwrap(), "--out", png.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    let exported = dir.join("exported");
    let o = kpk(&["export", folder.to_str().unwrap(), "--out", exported.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(exported.join("npy/layer3.bias.npy").is_file());
}

/// Trials run in parallel give exactly what each gives alone: the thread count changes only time.
#[test]
fn parallel_runs_are_deterministic_per_trial() {
    let bb = Bitbase::generate();
    let scratch = support::Scratch::new("parallel");
    let dir = scratch.path();
    let trials = [parse(&tiny("a", 6)), parse(&tiny("b", 9).replace("seed = 5", "seed = 6"))];
    let folders = exp::folder::check_destinations(&trials, dir).unwrap();
    let runs = exp::schedule::run_trials(&trials, &folders, &bb, 2, &|_| {}).unwrap();
    assert_eq!(runs.len(), 2);
    for (trial, run) in trials.iter().zip(&runs) {
        let alone = exp::run::run_trial(trial, &bb, &mut |_| {}).unwrap();
        assert_eq!(run.net, alone.net, "{}", trial.name());
        let bits = |r: &exp::run::TrialRun| {
            r.metrics.iter().map(|m| (m.e1.to_bits(), m.e2.to_bits(), m.correct)).collect::<Vec<_>>()
        };
        assert_eq!(bits(run), bits(&alone));
        assert!(dir.join(trial.name()).join(exp::folder::SUMMARY_JSON).is_file());
    }
}

/// The configs use what the committed studies chose: the reading of section 4.5 closest to the
/// paper (`reports/readings/distances.csv`, `kpk readings`) in every trial, and the small-set
/// trials the learning rate the sweep compares against (`reports/readings/sweep.csv`), so the
/// report's "is the configs' default" is true of the files.
#[test]
fn the_configs_use_the_reading_and_rate_the_committed_readings_compare() {
    use kpk::experiment::readings::ReadingDistance;
    use kpk::experiment::sweep::SweepRow;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |file: &str| std::fs::read(root.join("reports/readings").join(file)).unwrap();
    let distances: Vec<ReadingDistance> = csv::Reader::from_reader(read("distances.csv").as_slice())
        .deserialize()
        .map(Result::unwrap)
        .collect();
    let best = distances.iter().min_by(|a, b| a.distance.total_cmp(&b.distance)).unwrap();
    let sweep: Vec<SweepRow> =
        csv::Reader::from_reader(read("sweep.csv").as_slice()).deserialize().map(Result::unwrap).collect();
    assert!(sweep.len() >= 2, "the sweep compares several rates");
    for trial in 1..=41u8 {
        let c = TrialConfig::load(&table5_config(trial)).unwrap().config;
        let reading = (c.stop.name(), c.window, c.patience, c.keep.name());
        assert_eq!(
            reading,
            (best.stop.as_str(), best.window, best.patience, best.keep.as_str()),
            "trial {trial}"
        );
        if tables::scope(trial) == Some(Scope::Small) {
            assert!(sweep.iter().all(|r| r.configs_rate == c.learning_rate), "trial {trial}'s rate");
        }
    }
}

/// The readings' intervals resample the committed runs (`reports/readings/replicates.csv`): over
/// all trials, each reading's bootstrap point distance is the committed `distances.csv` distance
/// (to rounding), its interval holds it, and the closest reading is the committed default.
#[test]
fn the_readings_intervals_rest_on_the_committed_distances() {
    use kpk::experiment::readings::{ReadingDistance, ReplicateOutcome, TrialUnderReading};
    use kpk::experiment::readings_intervals;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/readings");
    fn read<T: serde::de::DeserializeOwned>(path: &Path) -> Vec<T> {
        let bytes = std::fs::read(path).unwrap();
        csv::Reader::from_reader(bytes.as_slice()).deserialize().map(Result::unwrap).collect()
    }
    let distances: Vec<ReadingDistance> = read(&root.join("distances.csv"));
    let trials: Vec<TrialUnderReading> = read(&root.join("trials.csv"));
    let replicates: Vec<ReplicateOutcome> = read(&root.join("replicates.csv"));
    let ranking = readings_intervals::rank(&distances, &trials, &replicates, &|_| true).unwrap();
    assert_eq!(ranking.order.len(), distances.len());
    for d in &distances {
        let r = ranking.order.iter().find(|r| r.reading == d.reading).unwrap();
        assert!(
            (r.distance - d.distance).abs() < 1e-9,
            "{}: {} against {}",
            d.reading,
            r.distance,
            d.distance
        );
        assert!(r.lo <= r.distance && r.distance <= r.hi, "{r:?}");
    }
    let best = distances.iter().min_by(|a, b| a.distance.total_cmp(&b.distance)).unwrap();
    assert_eq!(ranking.order[0].reading, best.reading);
}
