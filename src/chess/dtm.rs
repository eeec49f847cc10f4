//! Distance to mate (DTM), the Nalimov and Gaviota metric, for KPK through promotion and for the
//! pawnless endgames it promotes into.
//!
//! # The rule
//!
//! DTM counts plies to checkmate with best play: the winner mates as fast as it can, the loser
//! puts mate off as long as it can (Section 7's fifth objective for White: "mate the black King
//! after the endgame conversion to KQK or KRK"). A position already checkmated has DTM 0.
//! KBK and KNK have no checkmate at all (a lone king cannot be mated by king and minor piece),
//! so every position there is drawn, and so is a KPK promotion to a bishop or a knight.
//!
//! KPK's DTM is one more retrograde pass ([`crate::chess::endgame`]) whose exits are the
//! promotions: promoting to a queen, rook, bishop or knight wins at depth 1 + the child table's
//! DTM of the position after it (Black to move), where that position is lost for Black. So DTM
//! differs from DTC (plies to a winning promotion) and DTZ (plies to the next pawn move).
//!
//! # The sign (python-chess's Gaviota convention)
//!
//! From the side to move's point of view: positive plies when it mates, negative when it is
//! mated, 0 in a draw and in a position already checkmated.

use crate::chess::bitbase::Kpk;
use crate::chess::endgame::{Endgame, Exits, Solution, solve};
use crate::chess::index::KpkIndex;
use crate::chess::pawnless::{self, Pawnless, Piece};
use crate::chess::position::{After, KpkPosition, Move as KpkMove, Promotion};
use cozy_chess::{Board, Move};
use kpk_probe::{Color, Square};

/// A position's distance to mate from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dtm {
    /// 1 when the side to move mates, -1 when it is mated (or already checkmated), 0 a draw.
    pub wdl: i8,
    /// Plies to mate; 0 in a draw or a checkmate.
    pub plies: u32,
}

impl Dtm {
    pub const DRAW: Dtm = Dtm { wdl: 0, plies: 0 };

    /// Signed plies, python-chess's Gaviota convention.
    pub fn signed(self) -> i32 {
        i32::from(self.wdl) * self.plies as i32
    }

    /// UCI's `score mate N`: moves to mate, negative when the side to move is mated; `None` in
    /// a draw.
    pub fn uci_mate(self) -> Option<i32> {
        match self.wdl {
            1 => Some(self.plies.div_ceil(2) as i32),
            -1 => Some(-((self.plies / 2) as i32)),
            _ => None,
        }
    }

    /// The DTM after a move to a position whose DTM (for the other side) is `self`.
    fn before(self) -> Dtm {
        match self.wdl {
            0 => Dtm::DRAW,
            w => Dtm { wdl: -w, plies: self.plies + 1 },
        }
    }

    /// Ordering key for the side that chooses: a win first, the quickest; then a draw; then a
    /// loss, the longest.
    pub fn preference(self) -> (u8, i64) {
        match self.wdl {
            1 => (0, i64::from(self.plies)),
            0 => (1, 0),
            _ => (2, -i64::from(self.plies)),
        }
    }
}

/// The DTM tables: KQK, KRK, KBK and KNK (in [`Piece::ALL`] order) and KPK through promotion.
pub struct Tables {
    pawnless: Vec<Solution>,
    kpk: Solution,
}

impl Tables {
    /// Solve the four pawnless tables, then KPK with promotions read from them.
    pub fn generate() -> Tables {
        let pawnless: Vec<Solution> = Piece::ALL.iter().map(|&p| Pawnless::new(p).solve()).collect();
        let kpk = solve(&Kpk, &Kpk.masks(), &promotion_exits(&pawnless));
        Tables { pawnless, kpk }
    }

    /// The solved pawnless table of `piece` (index layout in [`crate::chess::pawnless`]).
    pub fn pawnless(&self, piece: Piece) -> &Solution {
        &self.pawnless[Piece::ALL.iter().position(|&p| p == piece).expect("a piece")]
    }

    /// KPK's DTM table over [`KpkIndex`].
    pub fn kpk(&self) -> &Solution {
        &self.kpk
    }

    /// The DTM of a KPK position (canonical orientation).
    pub fn kpk_dtm(&self, p: &KpkPosition) -> Dtm {
        let i = KpkIndex::of(p).value();
        read(&self.kpk, i, p.side() == Color::White)
    }

    /// The DTM of the position a legal KPK move leads to, for the side then to move (a capture
    /// of the pawn, or a promotion to a bishop or knight, draws).
    pub fn after_move(&self, p: &KpkPosition, mv: KpkMove) -> Dtm {
        let piece = match mv.promotion {
            None => {
                return match p.play(mv) {
                    After::Position(next) => self.kpk_dtm(&next),
                    _ => Dtm::DRAW,
                };
            }
            Some(Promotion::Queen) => Piece::Queen,
            Some(Promotion::Rook) => Piece::Rook,
            Some(Promotion::Bishop) => Piece::Bishop,
            Some(Promotion::Knight) => Piece::Knight,
        };
        self.pawnless_dtm(piece, false, [mv.to, p.wk(), p.bk()])
    }

    /// The DTM of a pawnless position, White strong (an illegal placement reads as a draw).
    pub fn pawnless_dtm(&self, piece: Piece, strong_to_move: bool, at: [Square; 3]) -> Dtm {
        let [p, wk, bk] = at;
        read(self.pawnless(piece), pawnless::index(strong_to_move, p, wk, bk), strong_to_move)
    }

    /// The DTM of any position of KPK, KQK, KRK, KBK, KNK (either colour strong) or two bare
    /// kings; `None` for other material.
    pub fn probe(&self, board: &Board) -> Option<Dtm> {
        let stm = board.side_to_move();
        let Some(strong) = cozy_chess::Color::ALL.into_iter().find(|&c| board.colors(c).len() == 2) else {
            return (board.occupied().len() == 2).then_some(Dtm::DRAW);
        };
        if board.occupied().len() != 3 {
            return None;
        }
        let flip = |sq: cozy_chess::Square| {
            let i = sq as u8;
            Square::new(if strong == cozy_chess::Color::Black { i ^ 56 } else { i }).expect("a square")
        };
        let man = board.colors(strong) & !board.pieces(cozy_chess::Piece::King);
        let man_sq = flip(man.next_square()?);
        let wk = flip(board.king(strong));
        let bk = flip(board.king(!strong));
        let strong_to_move = stm == strong;
        let piece = match board.piece_on(man.next_square()?)? {
            cozy_chess::Piece::Pawn => {
                let m = |s: Square| {
                    if man_sq.index() % 8 >= 4 { Square::new(s.index() as u8 ^ 7).expect("sq") } else { s }
                };
                let side = if strong_to_move { Color::White } else { Color::Black };
                let p = KpkPosition::new(m(wk), m(bk), m(man_sq), side).ok()?;
                return Some(self.kpk_dtm(&p));
            }
            cozy_chess::Piece::Queen => Piece::Queen,
            cozy_chess::Piece::Rook => Piece::Rook,
            cozy_chess::Piece::Bishop => Piece::Bishop,
            cozy_chess::Piece::Knight => Piece::Knight,
            cozy_chess::Piece::King => return None,
        };
        Some(self.pawnless_dtm(piece, strong_to_move, [man_sq, wk, bk]))
    }

    /// [`Tables::probe`] of a FEN (all six fields); `None` for a bad FEN or other material.
    pub fn probe_fen(&self, fen: &str) -> Option<Dtm> {
        self.probe(&fen.trim().parse().ok()?)
    }

    /// Every legal move with the DTM it leaves the mover (the position's DTM is the best of
    /// them); `None` when some position after a move is outside the tables.
    pub fn moves(&self, board: &Board) -> Option<Vec<(Move, Dtm)>> {
        let mut moves = Vec::new();
        board.generate_moves(|ms| {
            moves.extend(ms);
            false
        });
        moves
            .into_iter()
            .map(|mv| {
                let mut after = board.clone();
                after.play_unchecked(mv);
                self.probe(&after).map(|d| (mv, d.before()))
            })
            .collect()
    }

    /// A DTM-optimal move and the position's DTM: the quickest mate when winning, the longest
    /// resistance when losing, a drawing move otherwise. Ties go to the move whose UCI text is
    /// first in byte order. `None` with no legal move or outside the tables.
    pub fn best_move(&self, board: &Board) -> Option<(Move, Dtm)> {
        self.moves(board)?.into_iter().min_by(|(a, da), (b, db)| {
            da.preference().cmp(&db.preference()).then_with(|| a.to_string().cmp(&b.to_string()))
        })
    }
}

/// Read a solution at an index: `strong_to_move` says whose move it is.
fn read(s: &Solution, i: usize, strong_to_move: bool) -> Dtm {
    if s.win[i / 64] >> (i % 64) & 1 == 0 {
        return Dtm::DRAW;
    }
    let plies = u32::from(s.depth[i]);
    Dtm { wdl: if strong_to_move { 1 } else { -1 }, plies }
}

/// KPK's promotions as exits: for each rank-7 placement with White to move, the lone-king
/// squares where promoting wins, at depth 1 + the child's DTM, the least over the four pieces.
fn promotion_exits(pawnless: &[Solution]) -> Exits {
    let mut exits = Exits::default();
    for slot in 20..24 {
        let q = Square::new(kpk_probe::position::pawn_square(slot).index() as u8 + 8).expect("rank 8");
        for wk in Square::ALL {
            if wk == q {
                continue;
            }
            let w = slot * 64 + wk.index();
            let mut by_depth = [0u64; 64];
            for bk in Square::ALL {
                let best = pawnless
                    .iter()
                    .map(|s| read(s, pawnless::index(false, q, wk, bk), false))
                    .filter(|d| d.wdl == -1)
                    .map(|d| d.plies + 1)
                    .min();
                if let (Some(d), false) = (best, bk == q) {
                    by_depth[d as usize] |= bk.bit();
                }
            }
            for (d, &bits) in by_depth.iter().enumerate() {
                exits.add(d, w, bits);
            }
        }
    }
    exits
}
