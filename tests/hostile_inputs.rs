//! A hostile user's inputs: a model file that is not a model, a title with control characters,
//! a folder of configs that lacks trials, a float where a square goes, an empty list, a closed
//! pipe, and standard error that is not a terminal. Every case works in its own scratch folder.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Scratch, kpk_in};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn stderr_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A copy of the committed reports' markdown (what `kpk findings` reads) in `s/reports`.
fn reports_copy(s: &Scratch) {
    std::fs::create_dir(s.join("reports")).unwrap();
    for e in std::fs::read_dir(repo("reports")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            std::fs::copy(e.path(), s.join("reports").join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn findings_reads_its_model_and_names_the_one_it_was_given() {
    let s = Scratch::new("findings");
    reports_copy(&s);
    std::fs::write(s.join("garbage"), b"not a model at all").unwrap();
    for model in ["/dev/zero", "garbage", "/dev/null"] {
        let o = kpk_in(s.path(), &["findings", "--model", model]);
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "--model {model}: {err}");
        assert!(err.starts_with("kpk: error: ") && err.contains(model), "--model {model}: {err}");
        assert!(!std::fs::read_to_string(s.join("reports/README.md")).unwrap().contains(" 0 B"));
    }
    // The net hybrid is a model, but not the decision tree the findings describe.
    std::fs::copy(repo("models/kpk-net.hybrid"), s.join("net.hybrid")).unwrap();
    let o = kpk_in(s.path(), &["findings", "--model", "net.hybrid"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr_of(&o));
    // A copy of the shipped model elsewhere: the findings name that path and its size.
    std::fs::copy(repo("models/kpk.hybrid"), s.join("copy.hybrid")).unwrap();
    let o = kpk_in(s.path(), &["findings", "--model", "copy.hybrid"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr_of(&o));
    let readme = std::fs::read_to_string(s.join("reports/README.md")).unwrap();
    let bytes = std::fs::metadata(repo("models/kpk.hybrid")).unwrap().len();
    assert!(readme.contains(&format!("`copy.hybrid`, is {bytes} B")), "{readme}");
    assert!(!readme.contains("models/kpk.hybrid"), "{readme}");
}

#[test]
fn a_title_with_control_characters_gives_a_well_formed_svg() {
    let s = Scratch::new("title");
    let metrics = "epoch,e1,e2,correct,misclassified,undecided,total,train_accuracy_pct,train_accuracy_m0_pct,test_accuracy_pct\n\
                   1,0.3,0.7,97,28,0,125,77.6,77.6,72.8\n2,0.2,0.6,99,26,0,125,79.2,79.2,73.0\n";
    std::fs::write(s.join("metrics.csv"), metrics).unwrap();
    let o = kpk_in(s.path(), &["plot", "metrics.csv", "--out", "chart.svg", "--title", "a\u{1}b\u{1b}c<&"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr_of(&o));
    let svg = std::fs::read_to_string(s.join("chart.svg")).unwrap();
    // XML 1.0 allows no control character but tab, line feed and carriage return.
    let bad: Vec<char> = svg.chars().filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')).collect();
    assert!(bad.is_empty(), "raw control characters {bad:?} in the SVG");
    assert!(svg.contains("a\\u{1}b\\u{1b}c&lt;&amp;"), "the title is shown escaped");
}

#[test]
fn reproduce_with_a_partial_config_folder_is_the_users_error_before_any_training() {
    let s = Scratch::new("partial");
    std::fs::create_dir(s.join("configs")).unwrap();
    for t in ["trial01.toml", "trial02.toml"] {
        std::fs::copy(repo("experiments/table5").join(t), s.join("configs").join(t)).unwrap();
    }
    // What the other commands wrote, so that nothing but the configs is missing.
    let o = Command::new("cp").arg("-r").arg(repo("reports")).arg(s.join("out")).output().unwrap();
    assert!(o.status.success());
    for flags in [&["--seeds", "1", "--draws", "1", "--whole-set-seeds", "1"][..], &["--analyse-only"]] {
        let mut args = vec!["reproduce", "--configs", "configs", "--out", "out"];
        args.extend(flags);
        let started = Instant::now();
        let o = kpk_in(s.path(), &args);
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("internal error"), "{args:?}: a user's mistake reported as a bug: {err}");
        assert!(err.starts_with("kpk: error: configs: ") && err.contains("trial03"), "{args:?}: {err}");
        assert!(started.elapsed() < Duration::from_secs(30), "{args:?}: refused only after work");
    }
}

#[test]
fn the_stdlib_python_reader_refuses_a_float_square_and_a_string_side() {
    let script = "import sys; sys.path.insert(0, sys.argv[1]); import kpk_hybrid\n\
                  m = kpk_hybrid.load(sys.argv[2])\n\
                  assert m.probe(1, 63, 9) == m.probe(1, 63, 9)\n\
                  assert m.probe(1, 63, 9, False, 1) == m.probe(1, 63, 9, black_to_move=True)\n\
                  for bad in [(1.5, 63, 9), (1, 63.0, 9), (True, 63, 9), (1, 63, 9, 'no'), (1, 63, 9, False, 'yes'),\n\
                  \x20           (1, 63, 9, 'yes'), (1, 63, 9, False, 'no'), (1, 63, 9, False, 1.0)]:\n\
                  \x20   try:\n\
                  \x20       m.probe(*bad)\n\
                  \x20   except TypeError:\n\
                  \x20       continue\n\
                  \x20   sys.exit('accepted %r' % (bad,))\n";
    let ran = Command::new("python3")
        .args([
            "-c",
            script,
            &repo("python").display().to_string(),
            &repo("models/kpk.hybrid").display().to_string(),
        ])
        .output();
    let o = match ran {
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                && std::env::var_os("KPK_REQUIRE_PYTHON").is_none() =>
        {
            eprintln!("no python3 on this machine; the Python reader is not checked");
            return;
        }
        ran => ran.expect("python3 runs"),
    };
    assert!(o.status.success(), "{}", stderr_of(&o));
}

#[test]
fn an_empty_trial_list_names_its_flag() {
    let s = Scratch::new("trials");
    let configs = repo("experiments/table5").display().to_string();
    for list in ["", "x", "0", "3-1", "1-42"] {
        let o = kpk_in(s.path(), &["readings", "--configs", &configs, "--out", "out", "--trials", list]);
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "--trials {list:?}: {err}");
        assert_eq!(err.lines().count(), 1, "--trials {list:?}: one line: {err}");
        assert!(err.starts_with("kpk: error: ") && err.contains("--trials"), "--trials {list:?}: {err}");
    }
    assert!(!s.join("out").exists());
}

#[test]
fn hybrid_answers_stops_quietly_when_its_reader_closes_the_pipe() {
    // Built beside the test binaries by `cargo test` (target/<profile>/examples/).
    let exe = std::env::current_exe().unwrap();
    let example = exe.parent().unwrap().parent().unwrap().join("examples/hybrid_answers");
    assert!(
        example.exists(),
        "{} is built by `cargo test` (or `cargo build --example hybrid_answers`)",
        example.display()
    );
    let mut child = Command::new(&example)
        .arg(repo("models/kpk.hybrid"))
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert_eq!(first.split_whitespace().count(), 6, "{first}");
    // The reader (stdout) is dropped here: the pipe is closed, as by `| head -1`.
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.is_empty(), "nothing on stderr for a closed pipe: {err}");
    assert_eq!(status.code(), Some(141), "the code a shell reports for SIGPIPE");
}

#[test]
fn reproduce_prints_progress_lines_when_stderr_is_not_a_terminal() {
    let s = Scratch::new("progress");
    let o = Command::new("cp").arg("-r").arg(repo("reports")).arg(s.join("out")).output().unwrap();
    assert!(o.status.success());
    let configs = repo("experiments/table5").display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .current_dir(s.path())
        .args(["reproduce", "--configs", &configs, "--out", "out", "--seeds", "1", "--draws", "1"])
        .args(["--whole-set-seeds", "1", "--jobs", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = rx.recv_timeout(Duration::from_secs(120));
    child.kill().unwrap();
    child.wait().unwrap();
    let line = line.expect("a progress line within two minutes of a run whose stderr is a pipe");
    assert!(line.contains(" runs"), "{line}");
}
