//! The embeddable probe (`kpk-probe`) against kpk: the same positions from the same FENs and
//! squares, in every orientation, and the same answers from the committed model.

use kpk::chess::position::{Oriented, Transform};
use kpk::hybrid::Hybrid;
use kpk::{Bitbase, KpkIndex, KpkPosition};
use kpk_probe::{Color, Model, Outcome, Position};

const ORIENTATIONS: [Transform; 4] = [
    Transform { flip_colours: false, mirror_files: false },
    Transform { flip_colours: false, mirror_files: true },
    Transform { flip_colours: true, mirror_files: false },
    Transform { flip_colours: true, mirror_files: true },
];

#[test]
fn the_committed_model_answers_every_position_in_every_orientation_as_the_bitbase() {
    let bb = Bitbase::generate();
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")).unwrap();
    let model = Model::from_bytes(&bytes).unwrap();
    let hybrid = Hybrid::from_bytes(&bytes, "kpk.hybrid").unwrap();
    for p in KpkPosition::all() {
        let want = if bb.outcome(&p) == kpk::Outcome::Win { Outcome::Win } else { Outcome::Draw };
        for t in ORIENTATIONS {
            let fen = p.to_fen_with(t);
            let q = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(q.index() as usize, KpkIndex::of(&p).value(), "{fen}");
            assert_eq!(model.probe(&q).outcome, want, "{fen}");
        }
        // By squares, with colours reversed: the pawn Black's, ranks flipped, the other side to move.
        let sq = |s: kpk::Square| s.index() as u8;
        let (wk, bk, wp) = (sq(p.wk()), sq(p.bk()), sq(p.wp()));
        let black = if p.side() == kpk::Color::White { Color::Black } else { Color::White };
        let flipped = model.probe_squares(bk ^ 56, wk ^ 56, wp ^ 56, Color::Black, black).unwrap();
        assert_eq!(flipped, model.probe(&Position::from_fen(&p.to_fen()).unwrap()));
        assert_eq!(flipped.outcome, want);
        let h = hybrid.classify(&p);
        assert_eq!(
            h.source == kpk::hybrid::Source::Exception,
            flipped.source == kpk_probe::Source::Exception
        );
    }
}

#[test]
fn fens_kpk_refuses_the_probe_refuses() {
    let bad = [
        "",
        "w",
        "8/8/8/8/8/1K6/1P6/6k1",
        "8/8/8/8/8/1K6/1P6/6k1 x",
        "8/8/8/8/8/1K6/1P6/6k1 w KQ",
        "8/8/8/8/8/1K6/1P6/6k1 w - e4",
        "8/8/8/8/8/1K6/1P6/6k1 w - - x 1",
        "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1 7",
        "8/8/8/8/8/1K6/1P6/6k w - - 0 1",
        "8/8/8/8/8/1K6/1P6/6k2 w - - 0 1",
        "8/8/8/8/8/1K6/1P6 w - - 0 1",
        "8/8/8/8/8/8/1K6/1P6/6k1 w - - 0 1",
        "8/8/8/8/8/1K6/1PP5/6k1 w - - 0 1",
        "8/8/8/8/8/1K6/1Pp5/6k1 w - - 0 1",
        "8/8/8/8/8/1K6/1Q6/6k1 w - - 0 1",
        "8/8/8/8/8/1KK5/1P6/6k1 w - - 0 1",
        "8/8/8/8/8/1K6/8/6k1 w - - 0 1",
        "1P6/8/8/8/8/1K6/8/6k1 w - - 0 1",
        "8/8/8/8/2k5/1K6/1P6/8 w - - 0 1",
        "8/8/8/8/4K3/2k5/1P6/8 w - - 0 1",
        "8/8/8/8/8/1K6/1P6/6k1 w - - 0 1 junk",
        "8/8/8/8/8/1K6/1P6/6kX w - - 0 1",
    ];
    for fen in bad {
        assert!(Oriented::from_fen(fen).is_err(), "kpk accepts {fen:?}");
        assert!(Position::from_fen(fen).is_err(), "the probe accepts {fen:?}");
    }
    let good =
        ["8/8/8/8/8/1K6/1P6/6k1 w", "8/8/8/8/8/1K6/1P6/6k1 w - e3 12 40", "8/8/8/8/8/1K6/1P6/6k1 b - - 0"];
    for fen in good {
        let o = Oriented::from_fen(fen).unwrap();
        assert_eq!(Position::from_fen(fen).unwrap().index() as usize, KpkIndex::of(&o.position).value());
    }
}

#[test]
fn every_index_decodes_to_the_same_legal_position_in_both_crates() {
    for i in KpkIndex::all() {
        let ours = Position::from_index(i.value() as u32);
        assert_eq!(ours.is_some(), i.position().is_some(), "index {}", i.value());
        if let Some(q) = ours {
            assert_eq!(q.index() as usize, i.value());
        }
    }
}
