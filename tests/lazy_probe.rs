//! kpk-probe's lazy query path (`kpk_probe::lazy`: one position from the model's bits, no answer
//! set expanded) against its expanded path (`kpk_probe::Model`) and kpk's bitbase: the same
//! answer, and from the same part of the model, for every legal position in each of its four
//! orientations, by FEN and by squares; and the same refusals of illegal placements.

use kpk::{Bitbase, KpkPosition};
use kpk_probe::Transform;
use kpk_probe::lazy::{Lazy, workspace_words};
use kpk_probe::{Color, Model, Outcome, Position, Probe, Square};

const ORIENTATIONS: [Transform; 4] = [
    Transform { flip_colours: false, mirror_files: false },
    Transform { flip_colours: false, mirror_files: true },
    Transform { flip_colours: true, mirror_files: false },
    Transform { flip_colours: true, mirror_files: true },
];

fn committed_model() -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk.hybrid")).unwrap()
}

#[test]
fn the_lazy_path_answers_every_position_in_every_orientation_as_the_expanded_path_and_the_bitbase() {
    let bb = Bitbase::generate();
    let bytes = committed_model();
    let model = Model::from_bytes(&bytes).unwrap();
    let mut work = vec![0u32; workspace_words(&bytes)];
    let lazy = Lazy::load(&bytes, &mut work).unwrap();
    let mut positions = 0;
    for p in KpkPosition::all() {
        let want = if bb.outcome(&p) == kpk::Outcome::Win { Outcome::Win } else { Outcome::Draw };
        for t in ORIENTATIONS {
            let fen = p.to_fen_with(t);
            let q = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let expanded = model.probe(&q);
            assert_eq!(lazy.probe(&q), expanded, "{fen}");
            assert_eq!(expanded.outcome, want, "{fen}");
            // The same position by the squares of this orientation: the pawn side's king, the
            // lone king and the pawn seen through `t`, colours swapped when `t` swaps them.
            let (k, lone, pawn) = (t.apply(p.wk()), t.apply(p.bk()), t.apply(p.wp()));
            let (white_king, black_king, pawn_color, side) = if t.flip_colours {
                (lone, k, Color::Black, p.side().other())
            } else {
                (k, lone, Color::White, p.side())
            };
            let by_squares = lazy.probe_squares(white_king, black_king, pawn, pawn_color, side).unwrap();
            assert_eq!(by_squares, expanded, "{fen}");
            positions += 1;
        }
    }
    assert_eq!(positions, 4 * 165_676);
}

#[test]
fn the_lazy_path_refuses_the_placements_the_expanded_path_refuses() {
    let bytes = committed_model();
    let model = Model::from_bytes(&bytes).unwrap();
    let mut work = vec![0u32; workspace_words(&bytes)];
    let lazy = Lazy::load(&bytes, &mut work).unwrap();
    let (mut legal, mut refused) = (0, 0);
    for (wk, bk, pawn) in
        (0..64u8).flat_map(|a| (0..64u8).flat_map(move |b| (0..64u8).map(move |c| (a, b, c))))
    {
        let sq = |n| Square::new(n).unwrap();
        for (colour, side) in
            [(Color::White, Color::White), (Color::Black, Color::White), (Color::White, Color::Black)]
        {
            let expanded = model.probe_squares(sq(wk), sq(bk), sq(pawn), colour, side);
            assert_eq!(lazy.probe_squares(sq(wk), sq(bk), sq(pawn), colour, side), expanded);
            if expanded.is_ok() { legal += 1 } else { refused += 1 }
        }
    }
    assert!(legal > 0 && refused > 0);
}
