//! Probing: a position's outcome, DTC and DTZ, and what every legal move leads to (`kpk probe`).

use crate::chess::bitbase::Bitbase;
use crate::chess::position::{After, Move, Oriented};
use kpk_probe::{Color, Outcome};

/// The bitbase's answer for one position, with every legal move's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub outcome: Outcome,
    /// Plies to conversion for a win.
    pub dtc: Option<u8>,
    /// Syzygy's DTZ: plies to the next zeroing move, positive when the side to move wins,
    /// negative when it loses, 0 in a draw ([`crate::chess::dtz`]).
    pub dtz: i8,
    /// Legal moves, best first for the side to move.
    pub moves: Vec<MoveLine>,
}

/// One legal move and what it leads to, from the pawn side's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// Short algebraic name in the user's orientation: `Kc2`, `b4`, `b8=R`, `Kxb2`.
    pub name: String,
    /// The move in canonical orientation.
    pub mv: Move,
    pub outcome: Outcome,
    /// DTC of the position after the move (0 for a winning promotion: conversion is done).
    pub dtc: Option<u8>,
    /// Why a move ends the game at once: `converted`, `stalemate`, `takes the pawn`, …
    pub note: &'static str,
    /// An optimal move: the quickest win for the pawn side; for the lone king a draw or else the
    /// slowest loss.
    pub best: bool,
}

impl MoveLine {
    /// Sort key, smaller is better for the side to move.
    fn rank(&self, side: Color) -> i32 {
        let d = self.dtc.map_or(0, i32::from);
        match (side, self.outcome) {
            (Color::White, Outcome::Win) => d,
            (Color::White, Outcome::Draw) => 1000,
            (Color::Black, Outcome::Draw) => -1000,
            (Color::Black, Outcome::Win) => -d,
        }
    }
}

/// Probe a position given as the user wrote it.
pub fn probe(bb: &Bitbase, o: &Oriented) -> Probe {
    let p = o.position;
    let mut moves: Vec<MoveLine> = p
        .moves()
        .into_iter()
        .map(|mv| {
            let name = o.move_name(mv);
            let (outcome, dtc, note) = match p.play(mv) {
                After::Position(next) => (bb.outcome(&next), bb.dtc(&next).map(|d| d.0), ""),
                After::PawnCaptured => (Outcome::Draw, None, "takes the pawn"),
                After::Promoted { outcome, reason, .. } => {
                    (outcome, (outcome == Outcome::Win).then_some(0), reason.words())
                }
            };
            MoveLine { name, mv, outcome, dtc, note, best: false }
        })
        .collect();
    moves.sort_by(|a, b| (a.rank(p.side()), &a.name).cmp(&(b.rank(p.side()), &b.name)));
    if let Some(top) = moves.first().map(|m| m.rank(p.side())) {
        for m in moves.iter_mut().filter(|m| m.rank(p.side()) == top) {
            m.best = true;
        }
    }
    Probe { outcome: bb.outcome(&p), dtc: bb.dtc(&p).map(|d| d.0), dtz: bb.dtz(&p), moves }
}
