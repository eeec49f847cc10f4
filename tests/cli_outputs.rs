//! The output policy and the CLI contract, through the binary: every case is a command, its exit
//! code, a fragment of its one-line message, and the output folder listed before and after.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use support::{Scratch, kpk_in, snapshot};

/// A trial config that trains in milliseconds: NN1 on T1 for `epochs` epochs.
fn tiny(name: &str, epochs: usize, seed: u64) -> String {
    format!(
        "name = \"{name}\"\nside = \"wtm\"\ntraining_set = \"T1\"\ntesting_set = \"S1\"\ndata_seed = 1998\n\
         topology = \"32-10-10-1\"\ninput_coding = \"natural\"\noutput_coding = \"one\"\n\
         error_function = \"E1\"\nerror_target = 0.01\noptimiser = \"online\"\nlearning_rate = 0.3\n\
         max_epochs = {epochs}\nwindow = {epochs}\nseed = {seed}\n"
    )
}

/// The folder every case starts from: a foreign source tree, a foreign report file, a kpk run
/// folder made by a real run, configs, a plain file, a symlink, and a metrics file with a NaN.
fn fixture(s: &Scratch) {
    let w = |rel: &str, text: &str| {
        let p = s.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    w("out/src/main.rs", "fn main() {}\n");
    w("out/REPRODUCTION.md", "# my notes\n");
    w("plain", "a file, not a folder\n");
    w("src.toml", &tiny("src", 2, 1));
    w("report.toml", &tiny("REPRODUCTION.md", 2, 1));
    w("huge.toml", &tiny("huge", 2, 1).replace("32-10-10-1", "32-100000000-1"));
    w("ok.toml", &tiny("ok", 2, 1));
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    w("compress.toml", &std::fs::read_to_string(repo.join("experiments/compress.toml")).unwrap());
    w("target.csv", "old\n");
    std::os::unix::fs::symlink("target.csv", s.join("link.csv")).unwrap();
    let nan = "epoch,e1,e2,correct,misclassified,undecided,total,train_accuracy_pct,train_accuracy_m0_pct,test_accuracy_pct\n\
               1,0.3,0.7,97,28,0,125,77.6,77.6,72.8\n2,NaN,0.7,97,28,0,125,77.6,77.6,72.8\n";
    w("nan/metrics.csv", nan);
}

struct Case {
    args: &'static [&'static str],
    code: i32,
    /// A fragment of the single stderr line (empty: no stderr line is expected to matter).
    says: &'static str,
    /// Whether the scratch folder must be byte for byte as before.
    unchanged: bool,
}

#[test]
fn every_case_exits_with_its_code_and_one_line_and_touches_only_what_it_may() {
    let cases = [
        // A config named like a foreign folder or file under --out: refused before training.
        Case {
            args: &["run", "src.toml", "--out", "out"],
            code: 2,
            says: "out/src: holds 'main.rs', which this command does not write",
            unchanged: true,
        },
        Case {
            args: &["run", "report.toml", "--out", "out"],
            code: 2,
            says: "out/REPRODUCTION.md: is not a folder",
            unchanged: true,
        },
        // --out is a file: refused before training, naming the real path.
        Case {
            args: &["run", "ok.toml", "--out", "plain"],
            code: 2,
            says: "plain: is not a folder",
            unchanged: true,
        },
        // An unwritable model destination fails before minutes of training.
        Case {
            args: &["compress", "compress.toml", "--out", "plain/kpk.hybrid"],
            code: 2,
            says: "plain/kpk.hybrid: cannot be written: plain is not a folder",
            unchanged: true,
        },
        Case {
            args: &["compress", "compress.toml", "--out", "m.hybrid", "--report", "plain/C.md"],
            code: 2,
            says: "plain/C.md: cannot be written: plain is not a folder",
            unchanged: true,
        },
        // Limits checked before allocating.
        Case {
            args: &["run", "huge.toml", "--out", "out"],
            code: 2,
            says: "key `topology`",
            unchanged: true,
        },
        Case {
            args: &["run", "ok.toml", "--out", "out", "--jobs", "0"],
            code: 2,
            says: "--jobs",
            unchanged: true,
        },
        Case { args: &["bench", "--runs", "0"], code: 2, says: "--runs", unchanged: true },
        // plot: the extension chooses the format; others and NaN are refused.
        Case {
            args: &["plot", "nan/metrics.csv", "--out", "x.jpg"],
            code: 2,
            says: "x.jpg: a chart is written as .png or .svg",
            unchanged: true,
        },
        Case {
            args: &["plot", "nan/metrics.csv", "--out", "x.svg"],
            code: 2,
            says: "line 3 (epoch 2): e1 is NaN",
            unchanged: true,
        },
        // Batches: some inputs rejected is 1, all rejected is 2, with the input named.
        Case {
            args: &["probe", "8/8/8/8/8/8/P7/k1K5 w - - 0 1", "nonsense"],
            code: 1,
            says: "kpk: error: argument 2: bad FEN 'nonsense'",
            unchanged: true,
        },
        Case {
            args: &["probe", "nonsense"],
            code: 2,
            says: "kpk: error: argument 1: bad FEN",
            unchanged: true,
        },
        Case {
            args: &["features", "x", "8/8/8/8/8/8/P7/k1K5 w - - 0 1"],
            code: 1,
            says: "kpk: error: argument 1:",
            unchanged: true,
        },
        // Control characters in input never reach the terminal raw.
        Case {
            args: &["probe", "8/8/8/8/8/8/P7/k1K5 \u{1b}[31m"],
            code: 2,
            says: "\\u{1b}[31m",
            unchanged: true,
        },
    ];
    for case in &cases {
        let s = Scratch::new("case");
        fixture(&s);
        let before = snapshot(s.path());
        let o = kpk_in(s.path(), case.args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let at = format!("kpk {:?}", case.args);
        assert_eq!(o.status.code(), Some(case.code), "{at}: {stderr}");
        let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
        assert_eq!(lines.len(), 1, "{at}: one error line expected: {stderr}");
        assert!(lines[0].contains(case.says), "{at}: {stderr}");
        assert!(!stderr.contains('\u{1b}'), "{at}: raw control character");
        assert!(!stderr.contains(".kpk-tmp-"), "{at}: a temporary name in {stderr}");
        if case.unchanged {
            assert_eq!(snapshot(s.path()), before, "{at}: the folder changed");
        }
    }
}

#[test]
fn a_foreign_folder_and_file_under_out_survive_a_run_byte_for_byte_and_a_run_folder_is_replaced() {
    let s = Scratch::new("survive");
    fixture(&s);
    let foreign = |s: &Scratch| {
        (
            std::fs::read(s.join("out/src/main.rs")).unwrap(),
            std::fs::read(s.join("out/REPRODUCTION.md")).unwrap(),
        )
    };
    let kept = foreign(&s);
    let o = kpk_in(s.path(), &["run", "ok.toml", "--out", "out", "--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read(s.join("out/ok/metrics.csv")).unwrap();
    // A second run with another seed replaces kpk's own folder, and nothing else.
    std::fs::write(s.join("ok.toml"), tiny("ok", 3, 9)).unwrap();
    let o = kpk_in(s.path(), &["run", "ok.toml", "--out", "out", "--jobs", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_ne!(std::fs::read(s.join("out/ok/metrics.csv")).unwrap(), first);
    assert_eq!(foreign(&s), kept);
    // A file put into the run folder by hand makes it foreign: the next run refuses it.
    std::fs::write(s.join("out/ok/notes.txt"), "mine").unwrap();
    let o = kpk_in(s.path(), &["run", "ok.toml", "--out", "out"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(s.join("out/ok/notes.txt")).unwrap(), "mine");
    let names: Vec<String> = std::fs::read_dir(s.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".kpk-tmp-")), "{names:?}");
}

#[test]
fn a_symlink_out_stays_a_symlink_and_its_target_gets_the_data() {
    let s = Scratch::new("symlink");
    fixture(&s);
    let o = kpk_in(s.path(), &["dataset", "--set", "T1", "--out", "link.csv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::symlink_metadata(s.join("link.csv")).unwrap().file_type().is_symlink());
    let text = std::fs::read_to_string(s.join("target.csv")).unwrap();
    assert!(text.starts_with("side,wk,bk,wp,x1,"), "{}", &text[..40]);
    assert_eq!(text.lines().count(), 126);
}

#[test]
fn dash_and_dev_stdout_stream_the_csv_and_nothing_else() {
    let s = Scratch::new("stdout");
    for out in ["-", "/dev/stdout"] {
        let o = kpk_in(s.path(), &["dataset", "--set", "T1", "--out", out]);
        assert!(o.status.success(), "{out}: {}", String::from_utf8_lossy(&o.stderr));
        let csv = String::from_utf8(o.stdout).unwrap();
        assert!(csv.starts_with("side,wk,bk,wp,x1,"), "{out}");
        assert_eq!(csv.lines().count(), 126, "{out}: the CSV and only the CSV on stdout");
        assert!(String::from_utf8_lossy(&o.stderr).contains("125 positions"), "{out}");
    }
    assert!(std::fs::symlink_metadata("/dev/stdout").unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_dir(s.path()).unwrap().count(), 0);
}

#[test]
fn a_filter_that_matches_nothing_warns() {
    let s = Scratch::new("empty");
    let o = kpk_in(s.path(), &["dataset", "--set", "T1", "--side", "b", "--out", "e.csv"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("kpk: warning: the filters leave no positions"), "{stderr}");
    assert_eq!(std::fs::read_to_string(s.join("e.csv")).unwrap().lines().count(), 1);
}

/// `kpk query --stdin` on the committed model, fed `input`.
fn query_stdin(input: &[u8]) -> std::process::Output {
    let s = Scratch::new("query");
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/kpk.hybrid");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .current_dir(s.path())
        .args(["query", "--model", model.to_str().unwrap(), "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn query_stdin_answers_every_line_a_bad_one_is_its_own_error() {
    let mut input = b"8/8/8/8/8/8/P7/k1K5 w - - 0 1\n".to_vec();
    input.extend_from_slice(b"\xff\xfe not utf-8\n");
    input.extend_from_slice(b"nonsense\n\n5k2/8/8/8/8/2P5/8/3K4 w - - 0 1\n");
    let o = query_stdin(&input);
    let stdout = String::from_utf8(o.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stdout.lines().nth(1).unwrap().starts_with("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1\twin"), "{stdout}");
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{stderr}");
    assert_eq!(errors[0], "kpk: error: line 2: not UTF-8 text");
    assert!(errors[1].starts_with("kpk: error: line 3: bad FEN 'nonsense'"), "{stderr}");
}

#[test]
fn a_huge_input_is_quoted_once_and_cut() {
    let line = format!("8/8/8/8/8/8/P7/k1K5 {}\n", "x".repeat(1 << 16));
    let o = query_stdin(line.as_bytes());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1);
    assert!(stderr.len() < 400, "{} bytes of error", stderr.len());
    assert!(stderr.contains("characters)"), "{stderr}");
}

#[test]
fn stale_temporaries_of_a_killed_run_are_removed_by_the_next_run() {
    let s = Scratch::new("stale");
    fixture(&s);
    // The name a kpk process that no longer runs (no pid is 2^22 + 1) left behind.
    let stale = s.join("out/.ok.kpk-tmp-4194305-0");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("metrics.csv"), "partial").unwrap();
    let o = kpk_in(s.path(), &["run", "ok.toml", "--out", "out"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!stale.exists());
}

/// SIGINT while trials are being written: every trial folder is whole (the previous run's or the
/// new one), nothing temporary is left, and the exit code says the run was interrupted.
#[test]
fn sigint_during_a_run_leaves_whole_folders_and_no_temporaries() {
    let s = Scratch::new("sigint");
    let names: Vec<String> = (0..8).map(|k| format!("t{k}")).collect();
    let configs: Vec<String> = names.iter().map(|n| format!("{n}.toml")).collect();
    for (n, c) in names.iter().zip(&configs) {
        std::fs::write(s.join(c), tiny(n, 2, 1)).unwrap();
    }
    let mut args: Vec<&str> = vec!["run"];
    args.extend(configs.iter().map(String::as_str));
    args.extend(["--out", "out", "--jobs", "1"]);
    assert!(kpk_in(s.path(), &args).status.success());
    let before = snapshot(&s.join("out"));
    for (n, c) in names.iter().zip(&configs) {
        std::fs::write(s.join(c), tiny(n, 20, 2).replace("\"T1\"", "\"T3\"")).unwrap();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .current_dir(s.path())
        .args(&args)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Interrupt once the first trial folder has been replaced (or after at most 20 s).
    let first = s.join("out/t0/summary.json");
    let old = std::fs::read(&first).unwrap();
    for _ in 0..2000 {
        if std::fs::read(&first).is_ok_and(|now| now != old) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: sending SIGINT to the child we spawned.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    let after = snapshot(&s.join("out"));
    assert!(
        after.iter().all(|(name, _)| !name.contains(".kpk-tmp-")),
        "{:?}",
        after.iter().map(|e| &e.0).collect::<Vec<_>>()
    );
    let listing = |snap: &[(String, Vec<u8>)]| snap.iter().map(|e| e.0.clone()).collect::<Vec<_>>();
    assert_eq!(listing(&after), listing(&before), "every folder whole, with the same files");
    for n in &names {
        let summary = std::fs::read(s.join("out").join(n).join("summary.json")).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&summary).unwrap();
        assert_eq!(json["name"], n.as_str());
    }
}
