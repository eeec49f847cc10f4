//! A hostile user's cases through the binary, one table: each case runs in its own
//! scratch folder with its standard input and output, and must end with its exit code and, for
//! an error, exactly one `kpk: error:` line holding its message. A case may check the folder
//! afterwards. No case panics (exit 101) or hangs.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use support::Scratch;

const FEN: &str = "8/8/8/8/8/8/P7/k1K5 w - - 0 1";

/// Where a case's standard output goes.
#[derive(Clone, Copy, PartialEq)]
enum Sink {
    Piped,
    /// `> /dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose reader has gone (`| head -c1` after the first byte): EPIPE.
    Closed,
}

struct Case {
    name: &'static str,
    args: &'static [&'static str],
    /// Standard input: `/dev/zero` when true, else nothing.
    zero_stdin: bool,
    stdout: Sink,
    setup: fn(&Scratch),
    code: i32,
    /// A fragment of the one error line (codes 1 and 2); empty: no error line (a closed pipe is
    /// quiet; report lines may still go to standard error).
    says: &'static str,
    after: fn(&Scratch, &Output),
}

const fn case(name: &'static str, args: &'static [&'static str], code: i32, says: &'static str) -> Case {
    Case { name, args, zero_stdin: false, stdout: Sink::Piped, setup: fixture, code, says, after: |_, _| {} }
}

fn repo(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn write(s: &Scratch, rel: &str, text: &str) {
    let p = s.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn tiny(name: &str) -> String {
    format!(
        "name = \"{name}\"\nside = \"wtm\"\ntraining_set = \"T1\"\ntesting_set = \"S1\"\ndata_seed = 1998\n\
         topology = \"32-10-10-1\"\ninput_coding = \"natural\"\noutput_coding = \"one\"\n\
         error_function = \"E1\"\nerror_target = 0.01\noptimiser = \"online\"\nlearning_rate = 0.3\n\
         max_epochs = 2\nwindow = 2\nseed = 1\n"
    )
}

fn study(base: &str, replicates: usize) -> String {
    format!(
        "name = \"hostile\"\ntitle = \"t\"\nbase = \"{base}\"\nreplicates = {replicates}\nvary = \"seed\"\n\
         measures = [\"test\"]\n[[setting]]\nlabel = \"a\"\n"
    )
}

/// The folder most cases start from: the committed models, a tiny trial config, a trial folder
/// from a real run (its weights.json and metrics.csv), a study with a sane base.
fn fixture(s: &Scratch) {
    for m in ["kpk.hybrid", "kpk-play.hybrid"] {
        std::fs::create_dir_all(s.join("models")).unwrap();
        std::fs::copy(repo("models").join(m), s.join("models").join(m)).unwrap();
    }
    write(s, "tiny.toml", &tiny("tiny"));
    let o = run(s, &["run", "tiny.toml", "--out", "runs", "--jobs", "1"], false, Sink::Piped);
    assert!(o.status.success(), "fixture run: {}", String::from_utf8_lossy(&o.stderr));
    write(s, "self.toml", &study("self.toml", 5));
    write(s, "huge.toml", &study("tiny.toml", 100_000_000));
}

fn bare(_: &Scratch) {}

fn run(s: &Scratch, args: &[&str], zero_stdin: bool, sink: Sink) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kpk"));
    cmd.current_dir(s.path()).args(args).stderr(Stdio::piped());
    cmd.stdin(if zero_stdin { std::fs::File::open("/dev/zero").unwrap().into() } else { Stdio::null() });
    match sink {
        Sink::Piped => cmd.stdout(Stdio::piped()),
        Sink::Full => cmd.stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()),
        Sink::Closed => cmd.stdout(Stdio::piped()),
    };
    let mut child = cmd.spawn().unwrap();
    if sink == Sink::Closed {
        drop(child.stdout.take()); // the reader goes before kpk writes its megabytes
    }
    child.wait_with_output().unwrap()
}

fn mode(s: &Scratch, rel: &str) -> u32 {
    std::fs::metadata(s.join(rel)).unwrap().permissions().mode() & 0o777
}

fn full(name: &'static str, args: &'static [&'static str]) -> Case {
    Case { stdout: Sink::Full, ..case(name, args, 2, "standard output: No space left on device") }
}

fn closed(name: &'static str, args: &'static [&'static str]) -> Case {
    Case { stdout: Sink::Closed, ..case(name, args, 141, "") }
}

fn zero(name: &'static str, args: &'static [&'static str], says: &'static str) -> Case {
    case(name, args, 2, says)
}

fn cases() -> Vec<Case> {
    [writes(), inputs(), contract(), smaller()].into_iter().flatten().collect()
}

/// Part 1: standard output full or closed.
fn writes() -> Vec<Case> {
    vec![
        // 1. A full disk on standard output: one line, exit 2, in every command that prints.
        full("probe > /dev/full", &["probe", FEN]),
        full("features > /dev/full", &["features", FEN]),
        full("bench > /dev/full", &["bench", "--what", "features", "--runs", "1"]),
        full("play > /dev/full", &["play", FEN]),
        full("dataset --out - > /dev/full", &["dataset", "--set", "T1", "--out", "-"]),
        full("dataset report line > /dev/full", &["dataset", "--set", "T1", "--out", "t1.csv"]),
        full("export > /dev/full", &["export", "runs/tiny", "--out", "exported"]),
        full("plot > /dev/full", &["plot", "runs/tiny/metrics.csv", "--out", "chart.svg"]),
        full("run > /dev/full", &["run", "tiny.toml", "--out", "again", "--jobs", "1"]),
        full("query > /dev/full", &["query", FEN]),
        full("bitbase > /dev/full", &["bitbase"]),
        full("help > /dev/full", &["--help"]),
        // A closed pipe: quiet, 141 as for a writer killed by SIGPIPE.
        closed("bitbase --csv - | head -c1", &["bitbase", "--csv", "-"]),
        closed("dataset --out - | head -c1", &["dataset", "--set", "all", "--out", "-"]),
    ]
}

/// Part 1: endless inputs and huge counts.
fn inputs() -> Vec<Case> {
    vec![
        // 1. Endless inputs are refused at their cap, at once.
        zero("/dev/zero as model", &["query", "--model", "/dev/zero", FEN], "/dev/zero: larger than 64 MiB"),
        zero(
            "/dev/zero as play model",
            &["play", FEN, "--white", "model", "--model", "/dev/zero"],
            "larger than 64 MiB",
        ),
        zero("/dev/zero as trial config", &["run", "/dev/zero"], "/dev/zero: larger than 1 MiB"),
        zero("/dev/zero as study config", &["study", "/dev/zero"], "/dev/zero: larger than 1 MiB"),
        zero(
            "/dev/zero as compress config",
            &["compress", "/dev/zero", "--out", "m.hybrid"],
            "larger than 1 MiB",
        ),
        zero("/dev/zero as weights", &["export", "/dev/zero", "--out", "e"], "/dev/zero: larger than 64 MiB"),
        zero(
            "/dev/zero as net to compress",
            &["compress", "--from", "/dev/zero", "--out", "m"],
            "larger than 64 MiB",
        ),
        zero("/dev/zero as CSV", &["plot", "/dev/zero", "--out", "c.svg"], "/dev/zero: larger than 64 MiB"),
        Case {
            zero_stdin: true,
            ..case("/dev/zero on stdin", &["query", "--stdin"], 2, "line 1 is longer than 1 MiB")
        },
        // 1. Counts in configs and arguments are checked before anything is allocated.
        case(
            "replicates = 100000000",
            &["study", "huge.toml"],
            2,
            "key `replicates`: 100000000 is outside 1..=1000",
        ),
        case("--seeds 100000000", &["reproduce", "--seeds", "100000000"], 2, "--seeds"),
        Case {
            setup: |s| {
                write(
                    s,
                    "b.toml",
                    &(tiny("b").replace("\"online\"", "\"adam\"") + "batch_size = 100000000000\n"),
                )
            },
            ..case(
                "batch_size huge",
                &["run", "b.toml"],
                2,
                "key `batch_size`: 100000000000 is outside 1..=262144",
            )
        },
        Case {
            setup: |s| write(s, "p.toml", &(tiny("p") + "patience = 100000000000\n")),
            ..case("patience huge", &["run", "p.toml"], 2, "key `patience`")
        },
        // 2. (the kpk side) a first rank of 33 eights overflows nothing.
        case(
            "33 eights",
            &["probe", "888888888888888888888888888888888/8/8/8/8/8/8/8 w - - 0 1"],
            2,
            "covers 264 files",
        ),
    ]
}

/// Part 3: the output contract.
fn contract() -> Vec<Case> {
    vec![
        Case {
            setup: bare,
            after: |s, _| assert!(s.join("a/b/c/t1.csv").is_file()),
            ..case("missing folders are created", &["dataset", "--set", "T1", "--out", "a/b/c/t1.csv"], 0, "")
        },
        Case {
            setup: bare,
            after: |s, _| assert!(s.join("x/y/bb.bin").is_file() && s.join("x/y/bb.csv").is_file()),
            ..case(
                "bitbase creates folders too",
                &["bitbase", "--out", "x/y/bb.bin", "--csv", "x/y/bb.csv"],
                0,
                "",
            )
        },
        case("plot --out -", &["plot", "runs/tiny/metrics.csv", "--out", "-"], 2, "not to standard output"),
        Case {
            after: |s, _| assert!(!s.join("-").exists()),
            ..case("export --out -", &["export", "runs/tiny", "--out", "-"], 2, "standard output cannot hold")
        },
        Case {
            setup: |s| {
                write(s, "secret.csv", "mine\n");
                std::fs::set_permissions(s.join("secret.csv"), std::fs::Permissions::from_mode(0o600))
                    .unwrap();
            },
            after: |s, _| assert_eq!(mode(s, "secret.csv"), 0o600),
            ..case("mode 600 kept", &["dataset", "--set", "T1", "--out", "secret.csv"], 0, "")
        },
        Case {
            setup: |s| {
                write(s, "linked.csv", "mine\n");
                std::fs::hard_link(s.join("linked.csv"), s.join("twin.csv")).unwrap();
            },
            after: |s, _| assert_eq!(std::fs::read_to_string(s.join("twin.csv")).unwrap(), "mine\n"),
            ..case(
                "hard link refused",
                &["dataset", "--set", "T1", "--out", "linked.csv"],
                2,
                "has 2 hard links",
            )
        },
        Case {
            setup: |s| write(s, "X", "precious\n"),
            after: |s, _| assert_eq!(std::fs::read_to_string(s.join("X")).unwrap(), "precious\n"),
            ..case(
                "same path twice",
                &["bitbase", "--out", "X", "--csv", "X"],
                2,
                "X: is named by two outputs",
            )
        },
        Case {
            setup: |s| {
                fixture(s);
                write(s, "mine/weights.json", "{\"my\": \"notes\"}\n");
            },
            after: |s, _| {
                assert_eq!(
                    std::fs::read_to_string(s.join("mine/weights.json")).unwrap(),
                    "{\"my\": \"notes\"}\n"
                )
            },
            ..case(
                "export over a foreign folder",
                &["export", "runs/tiny", "--out", "mine"],
                2,
                "is not a kpk run folder",
            )
        },
        Case {
            setup: |s| {
                fixture(s);
                write(s, "mine/notes.txt", "mine\n");
            },
            ..case(
                "export next to a foreign file",
                &["export", "runs/tiny", "--out", "mine"],
                2,
                "holds 'notes.txt'",
            )
        },
    ]
}

/// Part 4: smaller things.
fn smaller() -> Vec<Case> {
    vec![
        Case {
            after: |_, o| assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{FEN}\twin\ttree\n")),
            ..case("tab in a FEN", &["query", "8/8/8/8/8/8/P7/k1K5\tw - - 0 1"], 0, "")
        },
        case(
            "a study whose base is itself",
            &["study", "self.toml"],
            2,
            "key `base`: names this study file itself",
        ),
        Case {
            after: |_, o| assert_eq!(String::from_utf8_lossy(&o.stdout).split('\t').count(), 3),
            ..case(
                "play model without --best-move",
                &["query", "--model", "models/kpk-play.hybrid", FEN],
                0,
                "",
            )
        },
        Case {
            setup: bare,
            ..case("reproduce outside the repository", &["reproduce"], 2, "run it from the root of a clone")
        },
    ]
}

#[test]
fn every_hostile_case_ends_with_its_code_and_one_line() {
    for c in cases() {
        let s = Scratch::new("hostile");
        (c.setup)(&s);
        let started = std::time::Instant::now();
        let o = run(&s, c.args, c.zero_stdin, c.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        let at = format!("{} (kpk {:?})", c.name, c.args);
        assert_eq!(o.status.code(), Some(c.code), "{at}: {stderr}");
        assert!(started.elapsed().as_secs() < 60, "{at}: took {:?}", started.elapsed());
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
        if c.code == 0 || c.says.is_empty() {
            assert!(errors.is_empty(), "{at}: {stderr}");
        } else {
            assert_eq!(errors.len(), 1, "{at}: one error line expected: {stderr}");
            assert!(errors[0].starts_with("kpk: error: ") && errors[0].contains(c.says), "{at}: {stderr}");
        }
        assert!(!stderr.contains("panicked"), "{at}: {stderr}");
        (c.after)(&s, &o);
    }
}

/// `kpk reproduce --render-only` on a copy of the committed reports, its standard output full.
#[test]
fn reproduce_render_only_reports_a_full_disk() {
    let s = Scratch::new("render");
    let o = Command::new("cp").arg("-r").arg(repo("reports")).arg(s.join("reports")).output().unwrap();
    assert!(o.status.success());
    let o = run(&s, &["reproduce", "--render-only", "--out", "reports"], false, Sink::Full);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("standard output: No space left on device"), "{stderr}");
}

/// Identical runs write identical bytes, the safetensors file included.
#[test]
fn identical_runs_write_identical_files() {
    let [a, b] = ["a", "b"].map(Scratch::new);
    for s in [&a, &b] {
        fixture(s);
    }
    for file in ["weights.safetensors", "weights.json", "metrics.csv", "summary.json"] {
        let read = |s: &Scratch| std::fs::read(s.join("runs/tiny").join(file)).unwrap();
        assert_eq!(read(&a), read(&b), "{file}");
    }
}
