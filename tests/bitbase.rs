//! Exhaustive checks of the bitbase and the position layer against the paper and against an
//! independent naive oracle (`tests/common`).

mod common;

use common::{Board, NaiveAfter};
use kpk::chess::bitbase::Bitbase;
use kpk::chess::index::KpkIndex;
use kpk::chess::position::{After, Oriented};
use kpk::{Color, KpkPosition, Square};
use kpk_probe::{MAX_INDEX, Outcome, Transform};
use std::collections::BTreeSet;
use std::sync::OnceLock;

fn bb() -> &'static Bitbase {
    static BB: OnceLock<Bitbase> = OnceLock::new();
    BB.get_or_init(Bitbase::generate)
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn pos(wk: &str, bk: &str, wp: &str, side: Color) -> KpkPosition {
    KpkPosition::new(sq(wk), sq(bk), sq(wp), side).unwrap()
}

// ---- the paper's counts (Table 2, section 4.5) ------------------------------------------------

#[test]
fn counts_match_table2_and_the_a_and_d_file_sets() {
    let c = bb().counts();
    assert_eq!(
        (c.positions(Color::White), c.wins(Color::White), c.draws(Color::White)),
        (81_664, 62_480, 19_184)
    );
    assert_eq!(
        (c.positions(Color::Black), c.wins(Color::Black), c.draws(Color::Black)),
        (84_012, 48_802, 35_210)
    );
    assert_eq!(c.positions[0][0], 20_643, "T4: wtm, pawn on the a-file");
    assert_eq!(c.positions[0][3], 20_346, "T5: wtm, pawn on the d-file");
}

// ---- the deepest wins (Table 1, sets 1 and 2) -------------------------------------------------

#[test]
fn deepest_wins_are_table1_sets_1_and_2() {
    let mut deepest = [(0u8, BTreeSet::new()), (0u8, BTreeSet::new())];
    for p in KpkPosition::all() {
        let Some(d) = bb().dtc(&p) else { continue };
        let slot = &mut deepest[usize::from(p.side() == Color::Black)];
        if d.0 > slot.0 {
            *slot = (d.0, BTreeSet::new());
        }
        if d.0 == slot.0 {
            slot.1.insert((p.wk(), p.bk(), p.wp()));
        }
    }
    let set1: BTreeSet<_> = ["g2", "h2", "h3"].iter().map(|k| (sq(k), sq("g5"), sq("b2"))).collect();
    let set2: BTreeSet<_> = ["h5", "h6"].iter().map(|k| (sq("h3"), sq(k), sq("b2"))).collect();
    assert_eq!(deepest[0], (37, set1));
    assert_eq!(deepest[1], (38, set2));
}

// ---- Table 1, sets 3-5: best moves ------------------------------------------------------------

/// DTC after each named move from the FEN (None: the move draws).
fn after_moves(fen: &str) -> Vec<(String, Option<u8>)> {
    let o = Oriented::from_fen(fen).unwrap();
    kpk::chess::probe::probe(bb(), &o)
        .moves
        .into_iter()
        .map(|m| (m.name, if m.outcome == Outcome::Win { m.dtc } else { None }))
        .collect()
}

fn dtc_after(moves: &[(String, Option<u8>)], name: &str) -> Option<u8> {
    moves.iter().find(|m| m.0 == name).unwrap_or_else(|| panic!("no move {name}")).1
}

#[test]
fn table1_set3_kc2_wins_kd2_draws() {
    let moves = after_moves("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
    assert!(dtc_after(&moves, "Kc2").is_some());
    assert_eq!(dtc_after(&moves, "Kd2"), None);
    let winners: Vec<_> = moves.iter().filter(|m| m.1.is_some()).map(|m| m.0.as_str()).collect();
    assert_eq!(winners, ["Kc2"], "Kc2 is the only winning move");
}

#[test]
fn table1_set4_kd5_is_best_kc5_sub_optimal() {
    let moves = after_moves("8/8/3K4/8/8/3k4/1P6/8 w - - 0 1");
    let best = moves.iter().filter_map(|m| m.1).min().unwrap();
    assert_eq!(dtc_after(&moves, "Kd5"), Some(best));
    assert!(dtc_after(&moves, "Kc5").is_some_and(|d| d > best));
    assert_eq!(moves.iter().filter(|m| m.1 == Some(best)).count(), 1);
}

#[test]
fn table1_set5_kb5_is_best_kb4_kc5_sub_optimal() {
    let moves = after_moves("2k5/8/8/8/2K5/8/1P6/8 w - - 0 1");
    let best = moves.iter().filter_map(|m| m.1).min().unwrap();
    assert_eq!(dtc_after(&moves, "Kb5"), Some(best));
    assert_eq!(moves.iter().filter(|m| m.1 == Some(best)).count(), 1);
    // Post-publication note: "Kb4 still wins", as does Kc5; both are slower.
    for name in ["Kb4", "Kc5"] {
        assert!(dtc_after(&moves, name).is_some_and(|d| d > best), "{name}");
    }
}

#[test]
fn only_the_rook_promotion_wins_where_the_queen_stalemates() {
    // White king a4, Black king a6, pawn b7, White to move: only b8=R wins.
    let moves = after_moves("8/1P6/k7/8/K7/8/8/8 w - - 0 1");
    let winners: Vec<_> = moves.iter().filter(|m| m.1.is_some()).map(|m| m.0.as_str()).collect();
    assert_eq!(winners, ["b8=R"]);
    assert_eq!(bb().dtc(&pos("a4", "a6", "b7", Color::White)).map(|d| d.0), Some(1));
}

// ---- Table 6: the 51 a-file positions, both sides to move -------------------------------------

#[test]
fn table6_true_results_for_both_sides_to_move() {
    let csv = include_str!("../data/paper/table6_misclassified_a_file.csv");
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (n, wk, bk, wp, w, b) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        for (side, want) in [(Color::White, w), (Color::Black, b)] {
            let p = pos(wk, bk, wp, side);
            let got = if bb().outcome(&p) == Outcome::Win { "w" } else { "d" };
            assert_eq!(got, want, "Table 6 #{n} {wk} {bk} {wp} {side:?} to move");
        }
        rows += 1;
    }
    assert_eq!(rows, 51);
}

// ---- legality, move generation and the fixpoint against the naive oracle -----------------------

#[test]
fn legality_agrees_with_the_naive_oracle_on_every_index() {
    for i in KpkIndex::all() {
        let (wk, bk, wp) = i.squares();
        let naive = common::legal(wk.index(), bk.index(), wp.index(), i.side() == Color::White);
        assert_eq!(i.position().is_some(), naive, "index {}", i.value());
    }
    assert_eq!(KpkIndex::all().count(), MAX_INDEX);
}

fn naive_board(p: &KpkPosition) -> Board {
    Board::kpk(p.wk().index(), p.bk().index(), p.wp().index(), p.side() == Color::White)
}

/// The canonical position named by naive squares.
fn kpk_of(wk: usize, bk: usize, wp: usize, white: bool) -> KpkPosition {
    let s = |i: usize| Square::new(i as u8).unwrap();
    KpkPosition::new(s(wk), s(bk), s(wp), if white { Color::White } else { Color::Black }).unwrap()
}

#[test]
fn move_generation_agrees_with_the_naive_oracle_on_every_position() {
    let mut checked = 0;
    for p in KpkPosition::all() {
        let board = naive_board(&p);
        let naive: BTreeSet<(usize, usize, Option<char>, String)> = board
            .legal_moves()
            .into_iter()
            .map(|((f, t, pr), next)| (f, t, pr, format!("{:?}", common::classify(&next))))
            .collect();
        let ours: BTreeSet<(usize, usize, Option<char>, String)> = p
            .moves()
            .into_iter()
            .map(|mv| {
                let after = match p.play(mv) {
                    After::Position(q) => NaiveAfter::Kpk(
                        q.wk().index(),
                        q.bk().index(),
                        q.wp().index(),
                        q.side() == Color::White,
                    ),
                    After::PawnCaptured => NaiveAfter::PawnTaken,
                    After::Promoted { outcome, .. } => NaiveAfter::Promoted(outcome == Outcome::Win),
                };
                (mv.from.index(), mv.to.index(), mv.promotion.map(|x| x.letter()), format!("{after:?}"))
            })
            .collect();
        assert_eq!(ours, naive, "{}", p.to_fen());
        checked += 1;
    }
    assert_eq!(checked, 165_676);
}

#[test]
fn no_checkmate_exists_and_stalemates_are_draws() {
    let mut stalemates = 0;
    for p in KpkPosition::all().filter(|p| p.side() == Color::Black) {
        let board = naive_board(&p);
        if board.legal_moves().is_empty() {
            assert!(!board.in_check(), "K+P cannot mate: {}", p.to_fen());
            assert_eq!(bb().outcome(&p), Outcome::Draw, "stalemate {}", p.to_fen());
            stalemates += 1;
        }
    }
    assert!(stalemates > 0, "KPK has stalemates with Black to move");
}

/// The fixpoint, checked on every position with the naive oracle's moves:
/// a won wtm position has a move to a won position whose DTC is one less and none to a smaller
/// one; a won btm position has only moves into won positions, the deepest exactly one less;
/// every draw has no such line.
#[test]
fn every_position_satisfies_the_dtc_fixpoint() {
    for p in KpkPosition::all() {
        let board = naive_board(&p);
        // DTC after each move for the pawn side: Some(d) a win converting in d more plies.
        let after: Vec<Option<u8>> = board
            .legal_moves()
            .iter()
            .map(|(_, next)| match common::classify(next) {
                NaiveAfter::Kpk(wk, bk, wp, white) => bb().dtc(&kpk_of(wk, bk, wp, white)).map(|d| d.0),
                NaiveAfter::PawnTaken => None,
                NaiveAfter::Promoted(wins) => wins.then_some(0),
            })
            .collect();
        let here = bb().dtc(&p).map(|d| d.0);
        let fen = p.to_fen();
        match (p.side(), here) {
            (Color::White, Some(d)) => {
                let best = after.iter().flatten().min().copied();
                assert_eq!(best, Some(d - 1), "wtm win {fen}");
            }
            (Color::White, None) => assert!(after.iter().all(Option::is_none), "wtm draw {fen}"),
            (Color::Black, Some(d)) => {
                assert!(!after.is_empty() && after.iter().all(Option::is_some), "btm win {fen}");
                assert_eq!(after.iter().flatten().max().copied(), Some(d - 1), "btm win {fen}");
            }
            (Color::Black, None) => {
                assert!(after.is_empty() || after.iter().any(Option::is_none), "btm draw {fen}")
            }
        }
    }
}

// ---- FEN round trip, mirroring and colour flipping on every position ---------------------------

/// Build a FEN by hand from (square, piece letter) pairs.
fn fen_of(pieces: &[(Square, char)], side: char) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match pieces.iter().find(|(s, _)| s.index() == rank * 8 + file) {
                Some((_, c)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side} - - 0 1", rows.join("/"))
}

#[test]
fn fen_round_trip_mirroring_and_colour_flip_on_every_position() {
    for p in KpkPosition::all() {
        let side = p.side().fen_char();
        let other = p.side().other().fen_char();
        let (wk, bk, wp) = (p.wk(), p.bk(), p.wp());
        let m = |s: Square| s.mirror_file();
        let f = |s: Square| s.flip_rank();
        let variants = [
            (fen_of(&[(wk, 'K'), (bk, 'k'), (wp, 'P')], side), Transform::IDENTITY),
            (
                fen_of(&[(m(wk), 'K'), (m(bk), 'k'), (m(wp), 'P')], side),
                Transform { flip_colours: false, mirror_files: true },
            ),
            (
                fen_of(&[(f(wk), 'k'), (f(bk), 'K'), (f(wp), 'p')], other),
                Transform { flip_colours: true, mirror_files: false },
            ),
            (
                fen_of(&[(m(f(wk)), 'k'), (m(f(bk)), 'K'), (m(f(wp)), 'p')], other),
                Transform { flip_colours: true, mirror_files: true },
            ),
        ];
        assert_eq!(p.to_fen(), variants[0].0);
        for (fen, t) in variants {
            let o = Oriented::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(o.position, p, "{fen}");
            assert_eq!(o.transform, t, "{fen}");
            assert_eq!(o.to_fen(), fen);
        }
    }
}

#[test]
fn file_round_trip_preserves_every_index() {
    let bytes = bb().to_bytes();
    let back = Bitbase::from_bytes(&bytes, "mem").unwrap();
    for i in KpkIndex::all() {
        assert_eq!(back.outcome_at(i), bb().outcome_at(i));
        assert_eq!(back.dtc_at(i), bb().dtc_at(i));
    }
}

#[test]
fn corrupt_or_truncated_bitbase_files_are_rejected() {
    let bytes = bb().to_bytes();
    // A spread of offsets, the header's fields and the checksum included.
    let at: Vec<usize> = (0..bytes.len())
        .step_by(997)
        .chain([3, 4, 6, 8, 11, 12, 100, bytes.len() - 4, bytes.len() - 1])
        .collect();
    for (what, b) in kpk::scratch::corruptions(&bytes, &at, &[0x10]) {
        assert!(Bitbase::from_bytes(&b, "t").is_err(), "{what} accepted");
    }
}

/// The one-ply rule agrees with the bitbase wherever it settles a position, and settles exactly
/// the wins in one ply (DTC 1), the positions where the lone king can take the pawn, and the
/// stalemates — counted with the naive oracle's moves, on every legal position.
#[test]
fn the_one_ply_rule_settles_exactly_what_it_says() {
    let mut settled = [0usize; 2];
    for p in KpkPosition::all() {
        let board = naive_board(&p);
        let moves = board.legal_moves();
        let expected = match p.side() {
            Color::White => (bb().dtc(&p).map(|d| d.0) == Some(1)).then_some(Outcome::Win),
            Color::Black => {
                let takes =
                    moves.iter().any(|(_, next)| matches!(common::classify(next), NaiveAfter::PawnTaken));
                (moves.is_empty() || takes).then_some(Outcome::Draw)
            }
        };
        assert_eq!(p.settled_at_one_ply(), expected, "{}", p.to_fen());
        if let Some(o) = expected {
            assert_eq!(bb().outcome(&p), o, "{}", p.to_fen());
            settled[usize::from(p.side() == Color::Black)] += 1;
        }
    }
    assert!(settled[0] > 0 && settled[1] > 0, "{settled:?}");
}
