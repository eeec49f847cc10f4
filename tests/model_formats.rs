//! docs/MODEL_FORMATS.md's examples, read from the document: the test vectors (a dozen FENs with
//! their win/draw, DTZ and best move) against the shipped models and the bitbase, and the hex
//! dumps of the DTZ and play files against kpk's readers.

use kpk::hybrid::Hybrid;
use kpk::play::model::PlayModel;
use kpk::{Bitbase, Oriented, Outcome};
use std::path::Path;

fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/MODEL_FORMATS.md")).unwrap()
}

/// The rows of the table under "## Test vectors": FEN, win/draw, DTZ, best move.
fn vectors(doc: &str) -> Vec<(String, String, i8, String)> {
    doc.lines()
        .skip_while(|l| !l.starts_with("## Test vectors"))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let fen = cells[1].trim_matches('`').to_string();
            (fen, cells[2].to_string(), cells[3].parse().unwrap(), cells[4].to_string())
        })
        .collect()
}

/// The bytes of the `text` block that follows the paragraph starting with `title`: each line's
/// leading two-digit hexadecimal words.
fn hex_dump(doc: &str, title: &str) -> Vec<u8> {
    let is_byte = |w: &&str| w.len() == 2 && w.chars().all(|c| c.is_ascii_hexdigit());
    doc.lines()
        .skip_while(|l| !l.starts_with(title))
        .skip_while(|l| !l.starts_with("```text"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .flat_map(|l| {
            l.split_whitespace()
                .take_while(is_byte)
                .map(|w| u8::from_str_radix(w, 16).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_test_vectors_are_the_shipped_models_answers_and_the_bitbases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wdl = Hybrid::load(&root.join("models/kpk.hybrid")).unwrap();
    let dtz =
        kpk_probe::DtzModel::from_bytes(&std::fs::read(root.join("models/kpk-dtz.hybrid")).unwrap()).unwrap();
    let play = PlayModel::load(&root.join("models/kpk-play.hybrid")).unwrap();
    let bb = Bitbase::generate();
    let rows = vectors(&doc());
    assert!(rows.len() >= 12, "{} test vectors", rows.len());
    let (mut black_pawn, mut white_pawn, mut stalemate) = (false, false, false);
    for (fen, outcome, depth, mv) in &rows {
        let o = Oriented::from_fen(fen).unwrap();
        let p = &o.position;
        let want = if outcome == "win" { Outcome::Win } else { Outcome::Draw };
        assert_eq!(wdl.classify(p).outcome, want, "{fen}: win/draw");
        assert_eq!(bb.outcome(p), want, "{fen}: the bitbase's win/draw");
        assert_eq!(dtz.dtz_fen(fen).unwrap(), *depth, "{fen}: DTZ");
        assert_eq!(bb.dtz(p), *depth, "{fen}: the bitbase's DTZ");
        let got = play.best_move(p).map_or_else(|| "-".to_string(), |m| kpk::play::uci(&o, m));
        assert_eq!(&got, mv, "{fen}: best move");
        black_pawn |= fen.contains('p');
        white_pawn |= fen.contains('P');
        stalemate |= mv == "-";
    }
    assert!(black_pawn && white_pawn && stalemate, "the vectors cover both colours and a stalemate");
}

#[test]
fn the_dtz_hex_dump_is_a_valid_file_answering_3_for_every_hard_position() {
    let bytes = hex_dump(&doc(), "**A hex dump of a small valid DTZ file.**");
    assert_eq!(bytes.len(), 50);
    let m = kpk_probe::DtzModel::from_bytes(&bytes).unwrap();
    assert_eq!(m.embedded().len(), 28);
    assert_eq!(m.tree().nodes, vec![kpk_probe::value_tree::Node::Leaf(0)]);
    assert!(m.corrections().is_empty());
}

#[test]
fn the_play_hex_dump_is_a_valid_file_with_no_exceptions() {
    let bytes = hex_dump(&doc(), "**A hex dump of a small valid play file.**");
    assert_eq!(bytes.len(), 139);
    let m = PlayModel::from_bytes(&bytes, "the hex dump").unwrap();
    assert_eq!(m.exception_count(), 0);
    assert_eq!(m.proposer(), kpk::play::propose::Proposer::default());
    assert_eq!(m.to_bytes(), bytes, "kpk writes the same bytes");
}
