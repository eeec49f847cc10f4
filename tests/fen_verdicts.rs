//! One verdict on every string: the chess core (kpk-probe), kpk's library, `kpk probe` and the
//! stdlib Python reader (python/kpk_hybrid.py) accept the same strings as FENs, with the same
//! position and answer, and refuse the rest; none panics. (The C ABI against the core:
//! kpk-probe-c/src/tests.rs, on the same corpus.)
//!
//! The corpus is fixed (tests/fen_corpus: 3,000 strings from one seed, most of them FENs of
//! random placements with mutations aimed at the grammar). Each side runs once over all of it:
//! the Python reader in one process, `kpk probe` in a few batches of arguments.

mod fen_corpus;

use kpk::chess::position::Oriented;
use kpk::{Bitbase, KpkIndex};
use kpk_probe::{Model, Outcome, Position, Source};
use std::io::Write;
use std::process::{Command, Stdio};

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid");

/// The core's verdict, as the Python reader prints it: `reject` or `OUTCOME SOURCE INDEX`.
fn core_verdict(model: &Model, fen: &str) -> String {
    match Position::from_fen(fen) {
        Err(_) => "reject".to_string(),
        Ok(p) => {
            let a = model.probe(&p);
            let outcome = if a.outcome == Outcome::Win { "win" } else { "draw" };
            let source = match a.source {
                Source::Net => "net",
                Source::Tree => "tree",
                Source::Exception => "exception",
                Source::Rule => "rule",
            };
            format!("{outcome} {source} {}", p.index())
        }
    }
}

/// A verdict without the answer's source (the bitbase has none): `reject` or `OUTCOME INDEX`.
fn short(verdict: &str) -> String {
    verdict.split(' ').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The corpus's strings that are text (every reader but the C ABI takes text).
fn texts() -> Vec<String> {
    fen_corpus::corpus().into_iter().filter_map(|b| String::from_utf8(b).ok()).collect()
}

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The Python reader's verdicts, one per string, from one run over them all; `None` where the
/// machine has no `python3` (the README's test command needs only the Rust toolchain) unless
/// `KPK_REQUIRE_PYTHON` is set, as `.ci/run` sets it.
fn python_verdicts(fens: &[String]) -> Option<Vec<String>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/python/kpk_hybrid.py");
    let spawned = Command::new("python3")
        .args([script, "--verdicts", MODEL])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                && std::env::var_os("KPK_REQUIRE_PYTHON").is_none() =>
        {
            eprintln!("fen_verdicts: no python3 on this machine; the Python reader is not compared");
            return None;
        }
        spawned => spawned.expect("python3 runs the stdlib reader"),
    };
    let input: String = fens.iter().map(|f| hex(f) + "\n").collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "python reader: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect())
}

/// `kpk probe`'s verdicts on a batch of arguments: `reject`, or the outcome and the index of the
/// position it printed.
fn cli_verdicts(fens: &[&String]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk")).arg("probe").arg("--").args(fens).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0..=2)), "exit {:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let mut rejected = vec![false; fens.len()];
    for line in stderr.lines() {
        let n = line.strip_prefix("kpk: error: argument ").and_then(|r| r.split(':').next());
        let n: usize = n.and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("stderr line {line:?}"));
        rejected[n - 1] = true;
    }
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut blocks = stdout.split("\n\n").map(str::trim).filter(|b| !b.is_empty());
    let verdicts = rejected
        .iter()
        .map(|&r| {
            if r {
                return "reject".to_string();
            }
            let mut lines = blocks.next().expect("a block per answered FEN").lines();
            let fen = lines.next().unwrap();
            let outcome = lines.next().unwrap().trim().split([',', ' ']).next().unwrap().to_string();
            format!("{outcome} {}", Position::from_fen(fen).expect("kpk prints a FEN it reads").index())
        })
        .collect();
    assert!(blocks.next().is_none(), "more answers than FENs");
    verdicts
}

#[test]
fn the_core_kpk_the_python_reader_and_kpk_probe_agree_on_every_string() {
    let model = Model::from_bytes(&std::fs::read(MODEL).unwrap()).unwrap();
    let bb = Bitbase::generate();
    let fens = texts();
    let core: Vec<String> = fens.iter().map(|f| core_verdict(&model, f)).collect();
    let accepted = core.iter().filter(|v| *v != "reject").count();
    assert!(
        accepted > fens.len() / 10 && accepted < fens.len() * 9 / 10,
        "{accepted} of {} accepted",
        fens.len()
    );

    // kpk's library: the same positions, and the bitbase's outcome is the model's answer.
    for (fen, want) in fens.iter().zip(&core) {
        let got = match Oriented::from_fen(fen) {
            Err(_) => "reject".to_string(),
            Ok(o) => {
                let i = KpkIndex::of(&o.position).value();
                format!("{} {i}", bb.outcome(&o.position))
            }
        };
        assert_eq!(got, short(want), "kpk's library on {fen:?}");
    }

    if let Some(python) = python_verdicts(&fens) {
        assert_eq!(python.len(), fens.len());
        for ((fen, want), got) in fens.iter().zip(&core).zip(&python) {
            assert_eq!(got, want, "the Python reader on {fen:?}");
        }
    }

    // A command-line argument cannot hold a NUL byte; the other readers took those strings above.
    let args: Vec<usize> = (0..fens.len()).filter(|&i| !fens[i].contains('\0')).collect();
    let batches =
        args.chunks(1000).map(|batch| cli_verdicts(&batch.iter().map(|&i| &fens[i]).collect::<Vec<_>>()));
    for (&i, got) in args.iter().zip(batches.flatten()) {
        assert_eq!(got, short(&core[i]), "kpk probe on {:?}", fens[i]);
    }
}
