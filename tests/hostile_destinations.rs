//! A hostile user's outputs: two outputs on one path, an output that is an input, an output
//! inside the figures folder, and destinations that `learners` and `match` must refuse before
//! their first fit. Every case runs the binary inside its own scratch folder, bounded in time: a
//! command that starts training instead of refusing is stopped and the case fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Scratch, snapshot};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// What a bounded run gave: its exit code (`None`: stopped at the time limit) and its stderr.
struct Ran {
    code: Option<i32>,
    stderr: String,
}

/// Run `kpk args` in `cwd`, stopped after `limit`.
fn kpk_within(cwd: &Path, args: &[&str], limit: Duration) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kpk");
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    Ran { code, stderr }
}

/// The command is refused at once: exit 2 within `limit`, one error line holding `says`, and the
/// scratch folder exactly as before.
fn refused(s: &Scratch, args: &[&str], says: &str, limit: Duration) {
    let before = snapshot(s.path());
    let ran = kpk_within(s.path(), args, limit);
    let at = format!("kpk {args:?}");
    assert_eq!(ran.code, Some(2), "{at}: not refused within {limit:?}: {}", ran.stderr);
    let errors: Vec<&str> = ran.stderr.lines().filter(|l| l.starts_with("kpk: error: ")).collect();
    assert_eq!(errors.len(), 1, "{at}: {}", ran.stderr);
    assert!(errors[0].contains(says), "{at}: expected {says:?} in {}", ran.stderr);
    assert!(snapshot(s.path()) == before, "{at}: the folder changed");
}

fn copy(from: &str, s: &Scratch, to: &str) -> String {
    std::fs::copy(repo(from), s.join(to)).unwrap();
    to.to_string()
}

const QUICK: Duration = Duration::from_secs(20);

#[test]
fn match_refuses_two_outputs_on_one_path_and_an_output_in_its_figures_folder() {
    let s = Scratch::new("match-dest");
    let results = copy("reports/play.json", &s, "play.json");
    let r = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> =
            vec!["match".into(), "--render-only".into(), "--results".into(), results.clone()];
        v.extend(["--figures", "figs"].map(String::from));
        v.extend(extra.iter().map(|a| a.to_string()));
        v
    };
    let cases: [(&[&str], &str); 4] = [
        (&["--out", "x", "--csv", "x"], "named by two outputs"),
        (&["--out", "-", "--csv", "-"], "named by two outputs"),
        (&["--out", "p.md", "--csv", "figs/play_cp_q.png"], "(--csv figs/play_cp_q.png) lies inside it"),
        (&["--out", "p.md", "--csv", "figs/notes.csv"], "(--csv figs/notes.csv) lies inside it"),
    ];
    for (extra, says) in cases {
        let args = r(extra);
        refused(&s, &args.iter().map(String::as_str).collect::<Vec<_>>(), says, QUICK);
    }
    // Without --render-only the same refusal comes before any training.
    refused(&s, &["match", "--out", "x", "--csv", "x", "--figures", "figs"], "named by two outputs", QUICK);
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let s = Scratch::new("out-is-in");
    copy("reports/play.json", &s, "p.json");
    copy("reports/compression.json", &s, "c.json");
    copy("models/kpk.hybrid", &s, "h");
    std::os::unix::fs::symlink("h", s.join("link-to-h")).unwrap();
    let says = "is also an input";
    refused(
        &s,
        &["match", "--render-only", "--results", "p.json", "--out", "p.json", "--figures", "f"],
        "p.json: is named by two outputs of this command (--out and --results)",
        QUICK,
    );
    refused(
        &s,
        &["compress", "--render-only", "--results", "c.json", "--report", "c.json"],
        "c.json: is named by two outputs of this command (--report and --results)",
        QUICK,
    );
    refused(&s, &["compress-play", "--hybrid", "h", "--out", "h"], says, QUICK);
    // The same file through a symlink is the same file.
    refused(&s, &["compress-play", "--hybrid", "h", "--out", "link-to-h"], says, QUICK);
    // A chart's name that links to the metrics it is drawn from.
    std::fs::write(s.join("metrics.csv"), "epoch,e1,e2,correct,misclassified,undecided,total,train_accuracy_pct,train_accuracy_m0_pct,test_accuracy_pct\n1,0.3,0.7,97,28,0,125,77.6,77.6,72.8\n").unwrap();
    std::os::unix::fs::symlink("metrics.csv", s.join("chart.svg")).unwrap();
    refused(&s, &["plot", "metrics.csv", "--out", "chart.svg"], says, QUICK);
}

#[test]
fn compress_from_refuses_to_write_over_its_saved_net() {
    let s = Scratch::new("compress-from");
    let config = "name = \"tiny\"\nside = \"wtm\"\ntraining_set = \"T1\"\ntesting_set = \"S1\"\ndata_seed = 1998\n\
                  topology = \"32-10-1\"\ninput_coding = \"natural\"\noutput_coding = \"one\"\n\
                  error_function = \"E1\"\nerror_target = 0.01\noptimiser = \"online\"\nlearning_rate = 0.3\n\
                  max_epochs = 2\nwindow = 2\nseed = 1\n";
    std::fs::write(s.join("tiny.toml"), config).unwrap();
    let ran = kpk_within(s.path(), &["run", "tiny.toml", "--out", "runs"], Duration::from_secs(60));
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    refused(
        &s,
        &["compress", "--from", "runs/tiny/weights.json", "--out", "runs/tiny/weights.json"],
        "is also an input",
        QUICK,
    );
}

/// The reduced `learners` flags: everything that can be small is, so that a refusal that comes
/// only after the fits still shows as a timeout, never as minutes of work.
fn learners(out: &str, model: &str, replicates: &str) -> Vec<String> {
    let table5 = repo("experiments/table5").display().to_string();
    let design = repo("experiments/learners_powered.toml").display().to_string();
    let pilot = repo("experiments/learners_pilot.csv").display().to_string();
    [
        "learners",
        "--out",
        out,
        "--model",
        model,
        "--replicates",
        replicates,
        "--t3-epochs",
        "1",
        "--no-variants",
        "--configs",
        &table5,
        "--design",
        &design,
        "--pilot",
        &pilot,
    ]
    .map(String::from)
    .to_vec()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn learners_refuses_a_destination_before_its_first_fit() {
    let s = Scratch::new("learners-out");
    copy("models/kpk-net.hybrid", &s, "net.hybrid");
    std::fs::write(s.join("plain"), "a file, not a folder\n").unwrap();
    refused(&s, &strs(&learners("plain", "net.hybrid", "2")), "plain", QUICK);
    // The model named as the report's own JSON: an output that is an input.
    std::fs::create_dir(s.join("r")).unwrap();
    copy("models/kpk-net.hybrid", &s, "r/learners.json");
    refused(&s, &strs(&learners("r", "r/learners.json", "2")), "is also an input", QUICK);
}

#[test]
fn learners_reads_its_model_and_refuses_one_the_reader_refuses() {
    let s = Scratch::new("learners-model");
    std::fs::write(s.join("garbage"), b"GARBAGE!").unwrap();
    refused(&s, &strs(&learners("r", "garbage", "2")), "garbage", Duration::from_secs(60));
}

#[test]
fn learners_refuses_one_replicate_in_its_parser() {
    let s = Scratch::new("learners-one");
    copy("models/kpk-net.hybrid", &s, "net.hybrid");
    refused(&s, &strs(&learners("r", "net.hybrid", "1")), "--replicates", QUICK);
}
