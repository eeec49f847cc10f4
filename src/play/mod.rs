//! Playing KPK: perfect moves from the bitbase, moves from the play model file alone, and moves in
//! UCI notation in the user's own squares.
//!
//! Perfect play is the bitbase's minimax with depth to conversion (DTC, section 2 of the paper):
//! the pawn side in a won position converts as fast as possible (a move to DTC − 1, or the winning
//! promotion where DTC is 1); the lone king in a lost position delays as long as possible; a side
//! in a drawn position keeps the draw.

pub mod analysis;
pub mod depth;
pub mod engine;
pub mod evaluators;
pub mod game;
pub mod matches;
pub mod mates;
pub mod mating;
pub mod model;
pub mod pgn;
pub mod pipeline;
pub mod propose;
pub mod results;

use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::{Dtm, Tables};
use crate::chess::position::{After, KpkPosition, Move, Oriented, Promotion};
use kpk_probe::{Color, Outcome};

/// What a move leads to, from the pawn side's point of view: the outcome and the DTC after it
/// (0 for a winning promotion: conversion is done; `None` for a draw).
pub fn after(bb: &Bitbase, p: &KpkPosition, mv: Move) -> (Outcome, Option<u8>) {
    match p.play(mv) {
        After::Position(next) => (bb.outcome(&next), bb.dtc(&next).map(|d| d.0)),
        After::PawnCaptured => (Outcome::Draw, None),
        After::Promoted { outcome, .. } => (outcome, (outcome == Outcome::Win).then_some(0)),
    }
}

/// The perfect move of the side to move (`None` when it has no legal move: stalemate).
///
/// The pawn side takes a move to the smallest DTC among winning moves (a queen before a rook
/// where both promote and win), else any move; the lone king takes a drawing move if it has one,
/// else the move to the largest DTC. Ties go to the first move in generation order, so the
/// answer is deterministic.
pub fn perfect_move(bb: &Bitbase, p: &KpkPosition) -> Option<Move> {
    let moves = p.moves();
    let key = |mv: &Move| -> i32 {
        let (outcome, dtc) = after(bb, p, *mv);
        let d = dtc.map_or(0, i32::from);
        match (p.side(), outcome) {
            (Color::White, Outcome::Win) => d,
            (Color::White, Outcome::Draw) => 1000,
            (Color::Black, Outcome::Draw) => -1000,
            (Color::Black, Outcome::Win) => -d,
        }
    };
    // min_by_key keeps the first of equal keys.
    moves.iter().copied().min_by_key(key)
}

/// A DTM-optimal move in UCI and the position's DTM (side to move's view), for any position of
/// KPK, KQK, KRK, KBK or KNK (either colour strong): the quickest mate, a draw kept, the longest
/// resistance, ties to the move whose UCI text is first in byte order. `None` for other material
/// or with no legal move. This is how a game goes on after promotion, to mate.
pub fn dtm_move(tables: &Tables, board: &cozy_chess::Board) -> Option<(String, Dtm)> {
    tables.best_move(board).map(|(mv, d)| (mv.to_string(), d))
}

/// Is `mv` perfect in `p` as [`perfect_move`] defines it (one of possibly several)?
pub fn is_perfect(bb: &Bitbase, p: &KpkPosition, mv: Move) -> bool {
    match perfect_move(bb, p) {
        None => false,
        Some(best) => after(bb, p, best) == after(bb, p, mv),
    }
}

/// A move in UCI notation in the user's orientation: `c2c3`, `b7b8r`, `e1d2`.
pub fn uci(o: &Oriented, mv: Move) -> String {
    let (from, to) = (o.transform.apply(mv.from), o.transform.apply(mv.to));
    let mut s = format!("{from}{to}");
    if let Some(piece) = mv.promotion {
        s.push(piece.letter().to_ascii_lowercase());
    }
    s
}

/// The promotion pieces worth trying first: a queen, then a rook (a queen can stalemate where a
/// rook wins; a bishop or knight never wins KPK's race, section 2).
pub const WINNING_PROMOTIONS: [Promotion; 2] = [Promotion::Queen, Promotion::Rook];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_move_on_table1_set3_is_kc2() {
        let bb = Bitbase::generate();
        let o = Oriented::from_fen("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1").unwrap();
        let mv = perfect_move(&bb, &o.position).unwrap();
        assert_eq!(o.move_name(mv), "Kc2");
        assert_eq!(uci(&o, mv), "d1c2");
    }

    #[test]
    fn rook_promotion_where_queen_stalemates() {
        let bb = Bitbase::generate();
        let o = Oriented::from_fen("8/1P6/k7/8/K7/8/8/8 w - - 0 1").unwrap();
        let mv = perfect_move(&bb, &o.position).unwrap();
        assert_eq!(uci(&o, mv), "b7b8r");
    }

    #[test]
    fn colour_flipped_answer_in_the_users_squares() {
        let bb = Bitbase::generate();
        // Table 1 set 3 with colours swapped and files mirrored: black pawn f6, Black to move.
        let o = Oriented::from_fen("4k3/8/5p2/8/8/8/8/2K5 b - - 0 1").unwrap();
        let mv = perfect_move(&bb, &o.position).unwrap();
        assert_eq!(uci(&o, mv), "e8f7");
    }
}
