//! The DTZ model file alone answers Syzygy's DTZ exactly: the Rust reader (kpk-probe) on every
//! legal position in four orientations, `kpk query --dtz` from FEN text in four orientations, both
//! against the bitbase; damaged files refused; and `kpk compress-dtz` rewrites the committed model
//! byte for byte.

mod support;

use kpk::{Bitbase, KpkPosition};
use kpk_probe::{DtzModel, Transform};
use std::process::{Command, Stdio};

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk-dtz.hybrid");

fn transforms() -> [Transform; 4] {
    let t = |flip_colours, mirror_files| Transform { flip_colours, mirror_files };
    [t(false, false), t(false, true), t(true, false), t(true, true)]
}

#[test]
fn the_rust_reader_is_exact_in_four_orientations_and_under_the_size_goal() {
    let bytes = std::fs::read(MODEL).unwrap();
    assert!(bytes.len() < 4_176, "{} bytes: not below Syzygy's KPvK.rtbz", bytes.len());
    let m = DtzModel::from_bytes(&bytes).unwrap();
    let bb = Bitbase::generate();
    let mut n = 0;
    for p in KpkPosition::all() {
        let want = bb.dtz(&p);
        for t in transforms() {
            let (wk, bk, wp) = (t.apply(p.wk()), t.apply(p.bk()), t.apply(p.wp()));
            let (white_king, black_king) = if t.flip_colours { (bk, wk) } else { (wk, bk) };
            let pawn_colour = if t.flip_colours { kpk::Color::Black } else { kpk::Color::White };
            let side = if t.flip_colours { p.side().other() } else { p.side() };
            let (q, _) =
                kpk_probe::Position::oriented(white_king, black_king, wp, pawn_colour, side).unwrap();
            assert_eq!(m.dtz(&q), want, "{}", p.to_fen_with(t));
        }
        assert_eq!(m.dtz_fen(&p.to_fen()).unwrap(), want);
        n += 1;
    }
    assert_eq!(n, 165_676);
}

#[test]
fn damaged_files_are_refused() {
    let bytes = std::fs::read(MODEL).unwrap();
    let every: Vec<usize> = (0..bytes.len()).collect();
    for (what, bad) in kpk::scratch::corruptions(&bytes, &every, &[0x04]) {
        assert!(DtzModel::from_bytes(&bad).is_err(), "{what} accepted");
    }
    // A win/draw model is no DTZ model, and the other way round.
    let wdl = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")).unwrap();
    assert!(DtzModel::from_bytes(&wdl).is_err());
    assert!(kpk_probe::Model::from_bytes(&bytes).is_err());
}

#[test]
fn kpk_query_dtz_reads_the_model_file_alone() {
    let bb = Bitbase::generate();
    let positions: Vec<KpkPosition> = KpkPosition::all().step_by(5).collect();
    let fens: Vec<String> = positions.iter().flat_map(|p| transforms().map(|t| p.to_fen_with(t))).collect();
    let dir = support::Scratch::new("dtz-query");
    std::fs::copy(MODEL, dir.join("only.hybrid")).unwrap();
    let args = ["query", "--dtz", "--model", "only.hybrid", "--stdin"];
    let out = support::kpk_with_input(dir.path(), &args, fens.join("\n"));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), fens.len());
    for (i, line) in lines.iter().enumerate() {
        let dtz: i8 = line.rsplit('\t').next().unwrap().parse().unwrap();
        assert_eq!(dtz, bb.dtz(&positions[i / 4]), "{line}");
    }
}

#[test]
fn kpk_query_dtz_refuses_a_model_without_depths() {
    let out = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["query", "--dtz", "--model", concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")])
        .arg("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("holds no depths") && err.lines().count() == 1, "{err}");
}

#[test]
fn compress_dtz_rewrites_the_committed_model_byte_for_byte() {
    let dir = support::Scratch::new("dtz-compress");
    let (model, report) = (dir.join("m.hybrid"), dir.join("DTZ.md"));
    let status = Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["compress-dtz", "--hybrid", concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")])
        .arg("--out")
        .arg(&model)
        .arg("--report")
        .arg(&report)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&model).unwrap(), std::fs::read(MODEL).unwrap());
}

/// A CRC-valid file whose tree puts every hard position at `2 * leaf + 3` plies, no corrections.
fn crafted(leaf: u8) -> Vec<u8> {
    let embedded = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")).unwrap();
    let tree = kpk_probe::dtz::ValueTree::new(vec![kpk_probe::value_tree::Node::Leaf(leaf)], 6);
    kpk::hybrid::dtz::encode(&embedded, &tree, &[]).0
}

/// At the format's limit: hard positions at DTZ 125 give lone-king replies up to 126, every
/// answer within ±127 with the sign of the side to move; at 127 the lone king's would be 128,
/// beyond what the format holds, and the file is refused (in debug and release builds alike,
/// instead of a negation overflowing).
#[test]
fn a_crafted_file_at_the_dtz_limit_is_answered_in_range_or_refused() {
    let m = DtzModel::from_bytes(&crafted(61)).unwrap();
    let mut deepest = 0;
    for p in kpk_probe::Position::all() {
        let d = i32::from(m.dtz(&p));
        assert!(d.abs() <= 127, "{d}");
        if d != 0 {
            assert!(if p.white_to_move() { d > 0 } else { d < 0 }, "{d}");
        }
        deepest = deepest.max(d.abs());
    }
    assert_eq!(deepest, 126);
    let refused = DtzModel::from_bytes(&crafted(62)).map(|_| ()).unwrap_err();
    assert!(refused.to_string().contains("out of range"), "{refused}");
}
