//! DTZ (Syzygy's depth to zeroing) on every legal position against a computation written here:
//! the naive oracle's moves (`tests/common`), win/draw by plain value iteration, then DTZ by
//! value iteration from "unknown" until nothing changes. Nothing of kpk's bitbase is used but
//! its answers, which are compared.
mod common;

use common::{Board, NaiveAfter};
use kpk::chess::bitbase::Bitbase;
use kpk::chess::position::KpkPosition;
use kpk_probe::{Color, Outcome, Square};
use std::collections::HashMap;

/// What one legal move leads to: another position (its number) or the end of KPK.
#[derive(Clone, Copy)]
enum Step {
    /// A position; `zeroing` when the move is a pawn move.
    To { id: usize, zeroing: bool },
    /// A promotion that wins at once (the game leaves KPK won).
    PromotionWins,
    /// The pawn taken, or a promotion that does not win: a draw.
    Draws,
}

struct Graph {
    /// (wk, bk, wp, white to move) of each legal position, pawn on files a–d.
    positions: Vec<(usize, usize, usize, bool)>,
    steps: Vec<Vec<Step>>,
}

fn graph() -> Graph {
    let mut positions = Vec::new();
    for wtm in [true, false] {
        for wp in (8..56).filter(|s| s % 8 < 4) {
            for wk in 0..64 {
                for bk in 0..64 {
                    if common::legal(wk, bk, wp, wtm) {
                        positions.push((wk, bk, wp, wtm));
                    }
                }
            }
        }
    }
    let id: HashMap<_, _> = positions.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let steps = positions
        .iter()
        .map(|&(wk, bk, wp, wtm)| {
            Board::kpk(wk, bk, wp, wtm)
                .legal_moves()
                .iter()
                .map(|((from, _, _), next)| match common::classify(next) {
                    NaiveAfter::Kpk(k, b, p, w) => Step::To { id: id[&(k, b, p, w)], zeroing: *from == wp },
                    NaiveAfter::Promoted(true) => Step::PromotionWins,
                    NaiveAfter::Promoted(false) | NaiveAfter::PawnTaken => Step::Draws,
                })
                .collect()
        })
        .collect();
    Graph { positions, steps }
}

/// Won for the pawn side, by value iteration: the pawn side to move wins when some move wins;
/// the lone king to move loses when it has a move and every move loses.
fn wins(g: &Graph) -> Vec<bool> {
    let mut win = vec![false; g.positions.len()];
    loop {
        let mut changed = false;
        for (i, &(_, _, _, wtm)) in g.positions.iter().enumerate() {
            let won = |s: &Step| match *s {
                Step::To { id, .. } => win[id],
                Step::PromotionWins => true,
                Step::Draws => false,
            };
            let now = if wtm {
                g.steps[i].iter().any(won)
            } else {
                !g.steps[i].is_empty() && g.steps[i].iter().all(won)
            };
            if now && !win[i] {
                win[i] = true;
                changed = true;
            }
        }
        if !changed {
            return win;
        }
    }
}

/// |DTZ| by value iteration from "unknown" (`u32::MAX`): the pawn side to move, won, takes 1 for
/// a winning pawn move and otherwise 1 + the least value of a winning king move; the lone king to
/// move, lost, takes 1 + the greatest value among its moves.
fn depths(g: &Graph, win: &[bool]) -> Vec<u32> {
    const UNKNOWN: u32 = u32::MAX;
    let mut d = vec![UNKNOWN; g.positions.len()];
    loop {
        let mut changed = false;
        for (i, &(_, _, _, wtm)) in g.positions.iter().enumerate() {
            if !win[i] {
                continue;
            }
            let now = if wtm {
                let via = |s: &Step| match *s {
                    Step::PromotionWins => Some(1),
                    Step::To { id, zeroing: true } if win[id] => Some(1),
                    Step::To { id, zeroing: false } if win[id] && d[id] != UNKNOWN => Some(1 + d[id]),
                    _ => None,
                };
                g.steps[i].iter().filter_map(via).min().unwrap_or(UNKNOWN)
            } else {
                let via = |s: &Step| match *s {
                    Step::To { id, .. } if d[id] != UNKNOWN => Some(1 + d[id]),
                    _ => None,
                };
                let known: Vec<u32> = g.steps[i].iter().filter_map(via).collect();
                if known.len() == g.steps[i].len() {
                    known.into_iter().max().unwrap_or(UNKNOWN)
                } else {
                    UNKNOWN
                }
            };
            if now != d[i] {
                d[i] = now;
                changed = true;
            }
        }
        if !changed {
            return d;
        }
    }
}

#[test]
fn dtz_agrees_with_value_iteration_on_every_position() {
    let g = graph();
    assert_eq!(g.positions.len(), 165_676);
    let win = wins(&g);
    let d = depths(&g, &win);
    let bb = Bitbase::generate();
    let sq = |i: usize| Square::new(i as u8).unwrap();
    let (mut won, mut deepest) = (0, 0);
    for (i, &(wk, bk, wp, wtm)) in g.positions.iter().enumerate() {
        let side = if wtm { Color::White } else { Color::Black };
        let p = KpkPosition::new(sq(wk), sq(bk), sq(wp), side).unwrap();
        assert_eq!(bb.outcome(&p) == Outcome::Win, win[i], "outcome {}", p.to_fen());
        let expected = match (win[i], wtm) {
            (false, _) => 0,
            (true, true) => d[i] as i32,
            (true, false) => -(d[i] as i32),
        };
        assert!(!win[i] || d[i] != u32::MAX, "a won position without a DTZ {}", p.to_fen());
        assert_eq!(i32::from(bb.dtz(&p)), expected, "DTZ {}", p.to_fen());
        won += usize::from(win[i]);
        deepest = deepest.max(expected.abs());
    }
    assert_eq!(won, 62_480 + 48_802);
    assert!(deepest > 1);
}

#[test]
fn dtz_is_one_where_only_the_rook_promotion_wins() {
    // White king a4, Black king a6, pawn b7: b8=Q stalemates, b8=R wins and zeroes.
    let bb = Bitbase::generate();
    let s = |n: &str| n.parse::<Square>().unwrap();
    let p = KpkPosition::new(s("a4"), s("a6"), s("b7"), Color::White).unwrap();
    assert_eq!(bb.dtz(&p), 1);
    assert_eq!(bb.dtc(&p).map(|d| d.0), Some(1));
}

#[test]
fn dtz_never_exceeds_dtc_and_has_the_side_to_moves_parity() {
    let bb = Bitbase::generate();
    for p in KpkPosition::all() {
        let z = bb.dtz(&p);
        match bb.dtc(&p) {
            None => assert_eq!(z, 0, "{}", p.to_fen()),
            Some(c) => {
                assert!(z.unsigned_abs() <= c.0, "{}", p.to_fen());
                let odd = z.unsigned_abs() % 2 == 1;
                assert_eq!(odd, p.side() == Color::White, "{}", p.to_fen());
                assert_eq!(z > 0, p.side() == Color::White, "{}", p.to_fen());
            }
        }
    }
}
