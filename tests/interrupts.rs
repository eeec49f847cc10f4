//! Interrupts leave nothing (docs/CLI.md, "Interruption"): every command that writes files,
//! started in a scratch folder of its own and sent SIGINT or SIGTERM at a seeded random moment,
//! leaves no `.kpk-tmp-*` entry, every destination absent (when it was), as it was before, or
//! whole (the bytes of an uninterrupted run), and exits with the signal's status.
//!
//! The commands come from `kpk --help`: each one is either a case here or named as writing no
//! file, so that a command added later fails this test until it is covered. `KPK_INTERRUPT_TRIALS`
//! sets the number of trials (default 240, spread over the cases) and `KPK_INTERRUPT_SEED` the
//! seed of the moments and signals (default 45).

mod support;

use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Scratch, snapshot};

/// Commands that write no file (they answer on standard output or over a socket).
const WRITING_NONE: &[&str] = &["probe", "bench", "query", "features", "play", "serve", "uci", "help"];

/// Commands that write files but take too long per run to be interrupted many times; each writes
/// through the same `FileOut` as a command that is a case here.
const TOO_SLOW: &[(&str, &str)] =
    &[("compress-play", "builds the play model for about 10 s; one FileOut, as compress-dtz")];

/// One writing command: the files it reads are put in place by `setup`, then it runs with `args`
/// (`{repo}` stands for the repository's root). `whole` are the run folders it replaces as a
/// whole: each, when present, must hold exactly the files of an uninterrupted run.
struct Case {
    command: &'static str,
    setup: fn(&Path),
    args: &'static [&'static str],
    whole: &'static [&'static str],
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(repo().join(from), to).unwrap();
}

/// Three trial configs that train in a fraction of a second.
fn tiny_trials(dir: &Path) {
    for (k, name) in ["a", "b", "c"].iter().enumerate() {
        let text = format!(
            "name = \"{name}\"\nside = \"wtm\"\ntraining_set = \"T1\"\ntesting_set = \"S1\"\ndata_seed = 1998\n\
             topology = \"32-10-10-1\"\ninput_coding = \"natural\"\noutput_coding = \"one\"\n\
             error_function = \"E1\"\nerror_target = 0.01\noptimiser = \"online\"\nlearning_rate = 0.3\n\
             max_epochs = 8\nwindow = 8\nseed = {k}\n"
        );
        std::fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    }
}

/// A trained net's `weights.json` and `metrics.csv`, from one run of a tiny trial (made once).
fn trained(dir: &Path) {
    static TRAINED: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    let (weights, metrics) = TRAINED.get_or_init(|| {
        let s = Scratch::new("interrupt-trained");
        tiny_trials(s.path());
        let o = support::kpk_in(s.path(), &["run", "a.toml", "--out", "out"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            std::fs::read(s.join("out/a/weights.json")).unwrap(),
            std::fs::read(s.join("out/a/metrics.csv")).unwrap(),
        )
    });
    std::fs::create_dir_all(dir.join("in")).unwrap();
    std::fs::write(dir.join("in/weights.json"), weights).unwrap();
    std::fs::write(dir.join("in/metrics.csv"), metrics).unwrap();
}

fn nothing(_: &Path) {}

const CASES: &[Case] = &[
    Case {
        command: "bitbase",
        setup: nothing,
        args: &["bitbase", "--out", "kpk.bitbase", "--csv", "kpk.csv"],
        whole: &[],
    },
    Case {
        command: "dataset",
        setup: nothing,
        args: &["dataset", "--set", "T3", "--out", "t3.csv"],
        whole: &[],
    },
    Case {
        command: "run",
        setup: tiny_trials,
        args: &["run", "a.toml", "b.toml", "c.toml", "--out", "out", "--jobs", "2"],
        whole: &["out/a", "out/b", "out/c"],
    },
    Case {
        command: "export",
        setup: trained,
        args: &["export", "in/weights.json", "--out", "exp"],
        whole: &["exp"],
    },
    Case {
        command: "plot",
        setup: trained,
        args: &["plot", "in/metrics.csv", "--out", "chart.png"],
        whole: &[],
    },
    Case {
        command: "compress-dtz",
        setup: nothing,
        args: &[
            "compress-dtz",
            "--hybrid",
            "{repo}/models/kpk.hybrid",
            "--play",
            "{repo}/models/kpk-play.hybrid",
            "--out",
            "dtz.hybrid",
            "--report",
            "DTZ.md",
        ],
        whole: &[],
    },
    Case {
        command: "compress-krk",
        setup: nothing,
        args: &["compress-krk", "--out", "krk.hybrid", "--results", "krk_model.json"],
        whole: &[],
    },
    Case {
        command: "compress",
        setup: nothing,
        args: &[
            "compress",
            "--render-only",
            "--results",
            "{repo}/reports/compression.json",
            "--report",
            "c/COMPRESSION.md",
        ],
        whole: &[],
    },
    Case {
        command: "match",
        setup: nothing,
        args: &[
            "match",
            "--render-only",
            "--results",
            "{repo}/reports/play.json",
            "--out",
            "PLAY.md",
            "--csv",
            "play/results.csv",
            "--seeds-csv",
            "play/seeds.csv",
            "--figures",
            "figures",
        ],
        whole: &[],
    },
    Case {
        command: "study",
        setup: |dir| copy("reports/studies.json", &dir.join("st/studies.json")),
        args: &["study", "--render-only", "--out", "st"],
        whole: &[],
    },
    Case {
        command: "reproduce",
        setup: |dir| {
            copy("reports/reproduction.json", &dir.join("rp/reproduction.json"));
            copy("reports/section51.json", &dir.join("rp/section51.json"));
        },
        args: &["reproduce", "--render-only", "--out", "rp"],
        whole: &[],
    },
    Case {
        command: "readings",
        setup: |dir| copy("reports/readings/sweep.csv", &dir.join("rd/sweep.csv")),
        args: &["readings", "--render-only", "--out", "rd", "--configs", "{repo}/experiments/table5"],
        whole: &[],
    },
    Case {
        command: "learners",
        setup: |dir| copy("reports/learners.json", &dir.join("ln/learners.json")),
        args: &["learners", "--render-only", "--out", "ln"],
        whole: &[],
    },
    Case {
        command: "krk-learners",
        setup: |dir| copy("reports/krk_learners.json", &dir.join("kl/krk_learners.json")),
        args: &[
            "krk-learners",
            "--render-only",
            "--out",
            "kl",
            "--model-results",
            "{repo}/reports/krk_model.json",
        ],
        whole: &[],
    },
    Case {
        command: "findings",
        setup: |dir| {
            for entry in std::fs::read_dir(repo().join("reports")).unwrap().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if (name.ends_with(".json") || name.ends_with(".md")) && name != "README.md" {
                    copy(&format!("reports/{name}"), &dir.join("fd").join(&name));
                }
            }
        },
        args: &["findings", "--reports", "fd", "--model", "{repo}/models/kpk.hybrid"],
        whole: &[],
    },
];

fn args_of(case: &Case) -> Vec<String> {
    case.args.iter().map(|a| a.replace("{repo}", &repo().display().to_string())).collect()
}

fn kpk(dir: &Path, case: &Case) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kpk"));
    c.current_dir(dir).args(args_of(case)).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    c
}

type Files = BTreeMap<String, Vec<u8>>;

fn files(dir: &Path) -> Files {
    snapshot(dir).into_iter().collect()
}

/// What an uninterrupted run of a case reads and writes, and how long it takes.
struct Reference {
    inputs: Files,
    outputs: Files,
    took: Duration,
}

fn reference(case: &Case) -> Reference {
    let s = Scratch::new(&format!("interrupt-ref-{}", case.command));
    (case.setup)(s.path());
    let inputs = files(s.path());
    let started = Instant::now();
    let o = kpk(s.path(), case).output().unwrap();
    let took = started.elapsed();
    assert!(o.status.success(), "{}: {}", case.command, String::from_utf8_lossy(&o.stderr));
    let outputs = files(s.path()).into_iter().filter(|(k, v)| inputs.get(k) != Some(v)).collect();
    Reference { inputs, outputs, took }
}

/// The previous version of every output: a whole folder as an uninterrupted run leaves it,
/// every other file a line of text that no run writes.
const PREVIOUS: &[u8] = b"the previous version\n";

fn inside_whole<'a>(case: &'a Case, name: &str) -> Option<&'a str> {
    case.whole.iter().copied().find(|w| name == format!("{w}/") || name.starts_with(&format!("{w}/")))
}

fn put_previous(dir: &Path, case: &Case, reference: &Reference) {
    for (name, bytes) in &reference.outputs {
        let path = dir.join(name.trim_end_matches('/'));
        if name.ends_with('/') {
            std::fs::create_dir_all(&path).unwrap();
        } else {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let whole = inside_whole(case, name).is_some();
            std::fs::write(&path, if whole { bytes.as_slice() } else { PREVIOUS }).unwrap();
        }
    }
}

/// Everything wrong with the folder after one interrupted run.
fn faults(case: &Case, reference: &Reference, after: &Files, previous: bool, finished: bool) -> Vec<String> {
    let mut faults = Vec::new();
    for (name, bytes) in after {
        if name.contains(".kpk-tmp-") {
            faults.push(format!("temporary left: {name}"));
        } else if let Some(input) = reference.inputs.get(name) {
            if input != bytes && reference.outputs.get(name) != Some(bytes) {
                faults.push(format!("input changed: {name}"));
            }
        } else if let Some(whole) = reference.outputs.get(name) {
            let was = previous && inside_whole(case, name).is_none() && bytes == PREVIOUS;
            if whole != bytes && !was {
                faults.push(format!("neither previous nor whole: {name} ({} bytes)", bytes.len()));
            }
        } else {
            faults.push(format!("not written by an uninterrupted run: {name}"));
        }
    }
    for name in reference.inputs.keys() {
        if !after.contains_key(name) {
            faults.push(format!("input gone: {name}"));
        }
    }
    for name in reference.outputs.keys() {
        let present = after.contains_key(name);
        // A folder replaced whole is all there or not at all; a previous version never vanishes.
        let folder_there = inside_whole(case, name).is_some_and(|w| after.contains_key(&format!("{w}/")));
        if !present && (previous || finished || folder_there) {
            faults.push(format!("missing: {name}"));
        }
    }
    faults
}

/// The commands `kpk --help` lists.
fn commands() -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_kpk")).arg("--help").output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    let listed = help.split("Commands:\n").nth(1).expect("a Commands section");
    listed
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

#[test]
fn every_command_is_a_case_or_writes_nothing() {
    for command in commands() {
        let known = CASES.iter().any(|c| c.command == command)
            || WRITING_NONE.contains(&command.as_str())
            || TOO_SLOW.iter().any(|(c, _)| *c == command);
        assert!(known, "kpk {command}: add an interrupt case for it, or name it as writing no file");
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn interrupted_commands_leave_no_temporaries_and_every_destination_whole() {
    let trials = env_number("KPK_INTERRUPT_TRIALS", 240) as usize;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(env_number("KPK_INTERRUPT_SEED", 45));
    let references: Vec<Reference> = CASES.iter().map(reference).collect();
    let mut failures = Vec::new();
    let mut interrupted = 0;
    for trial in 0..trials {
        let (case, reference) = (&CASES[trial % CASES.len()], &references[trial % CASES.len()]);
        let s = Scratch::new(&format!("interrupt-{}", case.command));
        (case.setup)(s.path());
        let previous = rng.random_bool(0.5);
        if previous {
            put_previous(s.path(), case, reference);
        }
        let signal = if rng.random_bool(0.5) { libc::SIGINT } else { libc::SIGTERM };
        let delay = reference.took.mul_f64(rng.random_range(0.0..1.1));
        let child = kpk(s.path(), case).spawn().unwrap();
        std::thread::sleep(delay);
        // SAFETY: sending a signal to the child this test spawned and has not yet waited for.
        unsafe { libc::kill(child.id() as i32, signal) };
        let o = child.wait_with_output().unwrap();
        let finished = o.status.code() == Some(0);
        let by_signal = o.status.code() == Some(128 + signal) || o.status.signal() == Some(signal);
        interrupted += usize::from(by_signal);
        let mut found = faults(case, reference, &files(s.path()), previous, finished);
        if !finished && !by_signal {
            found.push(format!("exit status {:?}: {}", o.status, String::from_utf8_lossy(&o.stderr).trim()));
        }
        if !found.is_empty() {
            let what = if signal == libc::SIGINT { "SIGINT" } else { "SIGTERM" };
            failures.push(format!(
                "kpk {} ({what} after {delay:?}, previous: {previous}): {found:?}",
                case.command
            ));
        }
    }
    eprintln!("{interrupted} of {trials} trials interrupted, {} failed", failures.len());
    assert!(failures.is_empty(), "{} of {trials} trials failed:\n{}", failures.len(), failures.join("\n"));
    assert!(
        interrupted * 2 >= trials,
        "only {interrupted} of {trials} trials were interrupted: the moments are too late"
    );
}
