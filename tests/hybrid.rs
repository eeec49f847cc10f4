//! The hybrid classifier: exact on every legal position, refuses damaged files, and `kpk query`.

use kpk::hybrid::quant::QuantNet;
use kpk::hybrid::{Hybrid, inputs::InputFunction};
use kpk::{Bitbase, KpkPosition};
use kpk_probe::model::Source;
use kpk_probe::net::Layer;
use std::path::Path;
use std::process::Command;

/// A deliberately poor net (a hand-set 7-2-1 on the coordinates): its exception table is large,
/// which exercises the machinery rather than the learning.
fn poor_hybrid(bb: &Bitbase) -> Hybrid {
    let l0 = Layer {
        n_in: 7,
        n_out: 2,
        shift: 3,
        weights: vec![0, 0, 0, -8, 0, 16, -4, 4, 0, 0, 0, 0, 0, 0],
        biases: vec![8, -2],
    };
    let l1 = Layer { n_in: 2, n_out: 1, shift: 0, weights: vec![3, -1], biases: vec![-100] };
    let net = QuantNet::new(vec![l0, l1], 8).unwrap();
    Hybrid::build(InputFunction::Coordinates, net, bb).unwrap()
}

#[test]
fn a_built_hybrid_is_exact_on_every_legal_position_before_and_after_saving() {
    let bb = Bitbase::generate();
    let h = poor_hybrid(&bb);
    assert!(h.exceptions().len() > 1000, "the test net should be poor");
    assert!(h.disagreements(&bb).is_empty());
    let back = Hybrid::from_bytes(&h.to_bytes(), "memory").unwrap();
    assert_eq!(back, h);
    let mut from_exceptions = 0;
    for p in KpkPosition::all() {
        let a = back.classify(&p);
        assert_eq!(a.outcome, bb.outcome(&p), "{}", p.to_fen());
        from_exceptions += usize::from(a.source == Source::Exception);
        assert_eq!(a.source == Source::Net, back.net_outcome(&p) == bb.outcome(&p));
    }
    assert_eq!(from_exceptions, h.exceptions().len());
}

fn temp_model(bb: &Bitbase, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kpk-hybrid-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("poor.hybrid");
    poor_hybrid(bb).save(&path).unwrap();
    path
}

#[test]
fn query_answers_each_fen_and_names_bad_lines() {
    let bb = Bitbase::generate();
    let model = temp_model(&bb, "query");
    // White pawn on b2 with its king in front: a win; the same with colours reversed and the
    // board mirrored (black pawn on g7): also a win for the pawn side; a rook-pawn draw.
    let fens = [
        "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1",
        "not a fen",
        "1k6/6p1/6k1/8/8/8/8/1K6 b - - 0 1",
        "6k1/8/8/8/8/6K1/6p1/8 b - - 0 1",
        "k7/8/1K6/P7/8/8/8/8 b - - 0 1",
    ];
    let input = fens.join("\n") + "\n\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["query", "--model", model.to_str().unwrap(), "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a bad line makes the exit code 1");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("line 2") && stderr.contains("not a fen"), "{stderr}");
    assert!(stderr.contains("line 3"), "two kings of one colour is an error: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let h = Hybrid::load(&model).unwrap();
    for (line, fen) in lines.iter().zip([fens[0], fens[3], fens[4]]) {
        let o = kpk::Oriented::from_fen(fen).unwrap();
        let a = h.classify(&o.position);
        assert_eq!(*line, format!("{fen}\t{}\t{}", bb.outcome(&o.position), a.source));
    }
    assert!(lines[0].contains("\twin\t") && lines[2].contains("\tdraw\t"), "{stdout}");

    // FENs as arguments; all good: exit 0.
    let out = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["query", "--model", model.to_str().unwrap(), fens[0], fens[3]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    std::fs::remove_dir_all(model.parent().unwrap()).unwrap();
}

#[test]
fn query_refuses_a_damaged_model() {
    let bb = Bitbase::generate();
    let model = temp_model(&bb, "damaged");
    let mut bytes = std::fs::read(&model).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&model, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["query", "--model", model.to_str().unwrap(), "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no answer from a corrupt model");
    assert!(String::from_utf8(out.stderr).unwrap().contains("checksum"));
    std::fs::remove_dir_all(model.parent().unwrap()).unwrap();
}

/// The shipped model (`models/kpk.hybrid`, a decision tree, format version 3) or, with `net`, the
/// net hybrid `kpk compress` writes (`models/kpk-net.hybrid`, version 2).
fn committed_model_of(net: bool) -> (Vec<u8>, std::path::PathBuf) {
    let name = if net { kpk::hybrid::NET_MODEL } else { kpk::hybrid::DEFAULT_MODEL };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (bytes, path)
}

fn committed_model() -> (Vec<u8>, std::path::PathBuf) {
    committed_model_of(false)
}

#[test]
fn the_committed_models_answer_every_legal_position_exactly_as_the_bitbase() {
    let bb = Bitbase::generate();
    let legal: Vec<KpkPosition> = KpkPosition::all().collect();
    assert_eq!(legal.len(), 165_676);
    for (net, version) in [(false, 3), (true, 2)] {
        let (bytes, path) = committed_model_of(net);
        assert_eq!(bytes[4], version, "{}", path.display());
        let model = Hybrid::load(&path).unwrap();
        for p in &legal {
            assert_eq!(model.classify(p).outcome, bb.outcome(p), "{}", p.to_fen());
        }
        // The batch on every thread answers each position as the single query does.
        let batch = model.classify_all(&legal);
        assert!(legal.iter().zip(&batch).all(|(p, a)| *a == model.classify(p)));
        // The table holds exactly the learner's mistakes: no entry is wasted on a position it gets
        // right.
        assert_eq!(model.net_errors(&bb), model.exceptions().indices());
    }
}

#[test]
fn the_exception_diagrams_show_each_exception_with_its_exact_result() {
    let (_, path) = committed_model_of(true);
    let model = Hybrid::load(&path).unwrap();
    let bb = Bitbase::generate();
    // The committed results (reports/compression.json) are the committed model's.
    let results: kpk::hybrid::results::CompressionResults =
        kpk::template::read_results(&Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/compression.json"))
            .unwrap();
    assert_eq!(results.model.sizes, model.sizes());
    let diagrams = kpk::report::compression::exception_diagrams(&results).unwrap();
    assert_eq!(diagrams.len(), model.exceptions().len());
    for (d, &i) in diagrams.iter().zip(model.exceptions().indices()) {
        let p = kpk::chess::index::KpkIndex::new(i).and_then(|i| i.position()).unwrap();
        let side = if p.side() == kpk::Color::White { "wtm" } else { "btm" };
        let expected = format!("{side}: {}; the net says {}", bb.outcome(&p), model.net_outcome(&p));
        assert_eq!(d.caption.as_deref(), Some(expected.as_str()), "{}", p.to_fen());
        assert_ne!(bb.outcome(&p), model.net_outcome(&p), "{}", p.to_fen());
        assert_eq!(d.pieces.len(), 3);
    }
}

#[test]
fn the_committed_model_meets_the_size_goal() {
    let (bytes, _) = committed_model();
    let model = Hybrid::from_bytes(&bytes, "committed").unwrap();
    let sizes = model.sizes();
    assert_eq!(sizes.total, bytes.len());
    assert!(bytes.len() < 3_528, "{} bytes: not smaller than xz -9e of the raw bitbase", bytes.len());
    // The shipped model is smaller than the 598-byte net hybrid, and meets the 400-byte
    // goal.
    let (net, _) = committed_model_of(true);
    assert!(bytes.len() < net.len() && bytes.len() <= 400, "{} bytes against {}", bytes.len(), net.len());
}

#[test]
fn every_flipped_byte_and_every_truncation_of_the_committed_model_is_refused() {
    for net in [false, true] {
        let (bytes, _) = committed_model_of(net);
        let at: Vec<usize> = (0..bytes.len()).collect();
        for (what, b) in kpk::scratch::corruptions(&bytes, &at, &[0x01, 0x10, 0x80, 0xFF]) {
            assert!(Hybrid::from_bytes(&b, "damaged").is_err(), "{what} accepted");
        }
    }
}

#[test]
fn kpk_learners_ship_rebuilds_the_committed_model_byte_for_byte() {
    let bb = Bitbase::generate();
    let (bytes, candidates) = kpk::learners::ship::ship(&bb).unwrap();
    assert_eq!(bytes, committed_model().0, "`kpk learners --ship` no longer writes models/kpk.hybrid");
    assert_eq!(candidates.len(), 2 * kpk::learners::ship::PRUNE_BITS.count());
    assert!(candidates.windows(2).all(|w| w[0].bytes <= w[1].bytes));
}
