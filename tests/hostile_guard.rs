//! The defects of a hostile pass, each through the binary: a command that would replace its own
//! input refuses before any work and leaves every file as it was; a python-chess dump that is
//! not one is refused; a figure's title stays valid XML; a full disk is one line; a model of
//! the wrong kind is named by its kind.

mod support;

use std::path::{Path, PathBuf};
use support::{Scratch, kpk_in, snapshot};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn stderr_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The scratch folder with copies of the three models and a study config.
fn fixture() -> Scratch {
    let s = Scratch::new("hostile-guard");
    for m in ["kpk.hybrid", "kpk-play.hybrid", "kpk-dtz.hybrid"] {
        std::fs::copy(repo("models").join(m), s.join(m)).unwrap();
    }
    std::fs::create_dir_all(s.join("studies")).unwrap();
    std::fs::copy(repo("experiments/studies/e1_vs_e2.toml"), s.join("studies/e1_vs_e2.toml")).unwrap();
    std::fs::copy(repo("experiments/learners_powered.toml"), s.join("design.toml")).unwrap();
    std::fs::write(s.join("dump.csv"), "side,wk,bk,wp,wdl,dtz\nw,4,60,12,0,0\n").unwrap();
    s
}

#[test]
fn a_command_naming_its_input_as_an_output_refuses_before_any_work() {
    let cases: &[&[&str]] = &[
        &["compress-dtz", "--hybrid", "kpk.hybrid", "--play", "kpk-play.hybrid", "--out", "kpk-play.hybrid"],
        &["compress-dtz", "--hybrid", "kpk.hybrid", "--play", "kpk-play.hybrid", "--report", "kpk.hybrid"],
        &[
            "compress-dtz",
            "--hybrid",
            "kpk.hybrid",
            "--play",
            "kpk-play.hybrid",
            "--syzygy",
            "dump.csv",
            "--out",
            "dump.csv",
        ],
        &["study", "--all", "--studies", "studies", "--results", "studies/e1_vs_e2.toml"],
        &["learners", "--ship", "design.toml", "--design", "design.toml"],
    ];
    for args in cases {
        let s = fixture();
        let before = snapshot(s.path());
        let started = std::time::Instant::now();
        let o = kpk_in(s.path(), args);
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("kpk: error: ") && err.lines().count() == 1, "{args:?}: {err}");
        assert!(err.contains("give each its own path"), "{args:?}: {err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{args:?}: refused only after work");
        assert!(snapshot(s.path()) == before, "{args:?}: the folder changed");
    }
}

#[test]
fn a_python_chess_dump_with_a_bad_header_side_square_or_no_row_is_refused() {
    let cases = [
        ("", "header"),
        ("side,wk,bk,wp,wdl,dtz\n", "no position"),
        ("s,a,b,c,d,e\nw,4,60,12,0,0\n", "header"),
        ("side,wk,bk,wp,wdl,dtz\nx,4,60,12,0,0\n", "expected w or b"),
        ("side,wk,bk,wp,wdl,dtz\nw,260,60,12,0,0\n", "not 0 to 63"),
        ("side,wk,bk,wp,wdl,dtz\nw,4,-1,12,0,0\n", "not 0 to 63"),
    ];
    for (dump, says) in cases {
        let s = fixture();
        std::fs::write(s.join("bad.csv"), dump).unwrap();
        let o = kpk_in(
            s.path(),
            &[
                "compress-dtz",
                "--hybrid",
                "kpk.hybrid",
                "--play",
                "kpk-play.hybrid",
                "--syzygy",
                "bad.csv",
                "--out",
                "o.hybrid",
                "--report",
                "o.md",
            ],
        );
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "{dump:?}: {err}");
        assert!(err.contains(says) && err.lines().count() == 1, "{dump:?}: {err}");
        assert!(!s.join("o.md").exists(), "{dump:?}: a report was written");
    }
}

const METRICS: &str = "epoch,e1,e2,correct,misclassified,undecided,total,train_accuracy_pct,train_accuracy_m0_pct,test_accuracy_pct\n\
                       1,0.3,0.7,97,28,0,125,77.6,77.6,72.8\n2,0.3,0.7,97,28,0,125,77.6,77.6,72.8\n";

/// The characters XML 1.0 allows: tab, line feed, carriage return, U+0020..U+D7FF,
/// U+E000..U+FFFD and U+10000 up.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

#[test]
fn every_character_of_a_charts_svg_is_xml_whatever_its_title() {
    let s = fixture();
    std::fs::write(s.join("metrics.csv"), METRICS).unwrap();
    let title = "a\u{FFFE}b\u{FFFF}c\u{1}d\u{FDD0}e\u{1FFFF}f<&>";
    let o = kpk_in(s.path(), &["plot", "metrics.csv", "--out", "x.svg", "--title", title]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    let svg = std::fs::read_to_string(s.join("x.svg")).unwrap();
    assert!(svg.chars().all(xml_char), "a character XML does not allow: {svg}");
    assert!(svg.contains("\\u{fffe}") && svg.contains("&lt;"), "{svg}");
}

#[test]
fn a_model_of_another_kind_is_named_by_its_kind() {
    let s = fixture();
    let o = kpk_in(s.path(), &["bench", "--what", "dtz", "--model", "kpk.hybrid", "--runs", "1"]);
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("not a kpk DTZ model: this is a kpk hybrid model"), "{err}");
    let o = kpk_in(s.path(), &["uci", "--model", "kpk-dtz.hybrid"]);
    let err = stderr_of(&o);
    assert!(err.contains("not a kpk play model: this is a kpk DTZ model"), "{err}");
}

/// A full disk while a chart is written (a small tmpfs, when this test may mount one; else
/// /dev/full, which fails the same writes): one line naming the file, no Rust debugging text.
#[test]
fn a_full_disk_while_plotting_is_one_line_without_debug_text() {
    let s = fixture();
    std::fs::write(s.join("metrics.csv"), METRICS).unwrap();
    let small = s.join("small");
    std::fs::create_dir_all(&small).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&small)
        .output()
        .is_ok_and(|o| o.status.success());
    if !mounted {
        eprintln!("no tmpfs could be mounted here: the full disk is /dev/full");
        std::os::unix::fs::symlink("/dev/full", small.join("x.png")).unwrap();
    }
    let o = kpk_in(s.path(), &["plot", "metrics.csv", "--out", "small/x.png"]);
    if mounted {
        let _ = std::process::Command::new("umount").arg(&small).status();
    }
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end(), "kpk: error: small/x.png: No space left on device (os error 28)");
}
