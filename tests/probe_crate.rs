//! The embeddable probe (`kpk-probe`) against kpk's bitbase: the same answers from the committed
//! model for every legal position, by FEN in every orientation and by squares with colours
//! reversed. (Legality, the index and the FEN grammar are one code, the chess core in kpk-probe;
//! tests/fen_verdicts.rs checks the C ABI, the Python reader and `kpk probe` agree on strings.)

use kpk::hybrid::Hybrid;
use kpk::{Bitbase, KpkIndex, KpkPosition};
use kpk_probe::{Color, Model, Outcome, Position, Probe, Transform};

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
        let (wk, bk, wp) = (p.wk().flip_rank(), p.bk().flip_rank(), p.wp().flip_rank());
        let flipped = model.probe_squares(bk, wk, wp, Color::Black, p.side().other()).unwrap();
        assert_eq!(flipped, model.probe(&Position::from_fen(&p.to_fen()).unwrap()));
        assert_eq!(flipped.outcome, want);
        let h = hybrid.classify(&p);
        assert_eq!(
            h.source == kpk_probe::model::Source::Exception,
            flipped.source == kpk_probe::Source::Exception
        );
    }
}
