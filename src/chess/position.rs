//! KPK positions as kpk plays them: moves and their results, FEN out in the user's orientation
//! and moves in short algebraic notation.
//!
//! Legality, the canonical orientation and the FEN grammar are the chess core's
//! ([`kpk_probe::position`], [`kpk_probe::fen`]). Inside kpk a position is always held in its
//! **canonical orientation**: the pawn belongs to White and stands on files a–d. A FEN with a black
//! pawn is turned round (colours swapped, ranks flipped, side to move swapped); a pawn on files
//! e–h is mirrored to a–d. Both maps are involutions and commute, so the [`Transform`] that
//! canonicalises a FEN also maps canonical squares back for display. Answers are always from the
//! pawn side's point of view.

use crate::chess::board::{KING_ATTACKS, WHITE_PAWN_ATTACKS, slider_attacks};
use crate::error::Error;
use kpk_probe::Illegal;
use kpk_probe::position::{Outcome, Transform};
use kpk_probe::{Color, Square};

/// A legal KPK position in canonical orientation (White pawn on files a–d): the chess core's
/// [`kpk_probe::Position`], with the moves kpk plays.
///
/// Legal means (kpk's definition, as in Table 2's counts): three distinct squares, kings not adjacent,
/// pawn on ranks 2–7, and the side not to move not in check. With White's only attacker the
/// pawn, that last rule only bites with White to move: the black king must not stand on a square
/// the pawn attacks. Black to move *in* check is legal (Table 1, set 7b counts such positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KpkPosition(kpk_probe::Position);

impl From<kpk_probe::Position> for KpkPosition {
    fn from(p: kpk_probe::Position) -> KpkPosition {
        KpkPosition(p)
    }
}

impl KpkPosition {
    /// A legal position with the white pawn on files a–d; positions with the pawn on files e–h
    /// are mirrored first (use [`Transform`] to keep track of that). Errors name the squares given.
    pub fn new(wk: Square, bk: Square, wp: Square, side: Color) -> Result<KpkPosition, Illegal> {
        kpk_probe::Position::new(wk, bk, wp, side).map(KpkPosition)
    }

    /// The position as the chess core holds it.
    pub fn core(&self) -> &kpk_probe::Position {
        &self.0
    }
    /// The white (pawn side's) king.
    pub fn wk(&self) -> Square {
        self.0.wk()
    }
    /// The black (lone) king.
    pub fn bk(&self) -> Square {
        self.0.bk()
    }
    /// The white pawn, on files a–d and ranks 2–7.
    pub fn wp(&self) -> Square {
        self.0.wp()
    }
    /// The side to move.
    pub fn side(&self) -> Color {
        self.0.side()
    }

    /// Every legal position in canonical orientation: 81,664 with White to move, then 84,012
    /// with Black to move, in index order.
    pub fn all() -> impl Iterator<Item = KpkPosition> {
        kpk_probe::Position::all().map(KpkPosition)
    }

    /// Is the side to move in check? (Only Black can be: White's attacker is the pawn.)
    pub fn in_check(&self) -> bool {
        self.0.in_check()
    }

    /// The position after a legal move: legal by construction.
    fn after(wk: Square, bk: Square, wp: Square, side: Color) -> KpkPosition {
        KpkPosition::new(wk, bk, wp, side).expect("a legal move leads to a legal position")
    }

    /// The legal moves of the side to move.
    pub fn moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(12);
        let occupied = self.wk().bit() | self.bk().bit() | self.wp().bit();
        match self.side() {
            Color::White => {
                let targets =
                    KING_ATTACKS[self.wk().index()] & !KING_ATTACKS[self.bk().index()] & !self.wp().bit();
                for to in crate::chess::board::squares(targets) {
                    moves.push(Move { from: self.wk(), to, promotion: None });
                }
                let one = Square::new(self.wp().index() as u8 + 8).expect("pawn below rank 8");
                if occupied & one.bit() == 0 {
                    if one.rank() == 7 {
                        for piece in Promotion::ALL {
                            moves.push(Move { from: self.wp(), to: one, promotion: Some(piece) });
                        }
                    } else {
                        moves.push(Move { from: self.wp(), to: one, promotion: None });
                        if self.wp().rank() == 1 {
                            let two = Square::new(one.index() as u8 + 8).expect("rank 4");
                            if occupied & two.bit() == 0 {
                                moves.push(Move { from: self.wp(), to: two, promotion: None });
                            }
                        }
                    }
                }
            }
            Color::Black => {
                // The black king may take the pawn only if the white king does not guard it,
                // which the first mask already ensures.
                let targets = KING_ATTACKS[self.bk().index()]
                    & !KING_ATTACKS[self.wk().index()]
                    & !WHITE_PAWN_ATTACKS[self.wp().index()];
                for to in crate::chess::board::squares(targets) {
                    moves.push(Move { from: self.bk(), to, promotion: None });
                }
            }
        }
        moves
    }

    /// What a legal move of the side to move leads to.
    pub fn play(&self, mv: Move) -> After {
        let side = self.side().other();
        match (self.side(), mv.promotion) {
            (Color::White, Some(piece)) => {
                let (outcome, reason) = promotion_outcome(self.wk(), self.bk(), mv.to, piece);
                After::Promoted { piece, outcome, reason }
            }
            (Color::White, None) if mv.from == self.wk() => {
                After::Position(KpkPosition::after(mv.to, self.bk(), self.wp(), side))
            }
            (Color::White, None) => After::Position(KpkPosition::after(self.wk(), self.bk(), mv.to, side)),
            (Color::Black, _) if mv.to == self.wp() => After::PawnCaptured,
            (Color::Black, _) => After::Position(KpkPosition::after(self.wk(), mv.to, self.wp(), side)),
        }
    }

    /// The result when the rules settle it at one ply, from the moves alone: the pawn side to
    /// move wins at once by a promotion that wins; the lone king to move draws when it can take
    /// the pawn, or when it has no move (stalemate: KPK has no checkmate). `None` otherwise.
    pub fn settled_at_one_ply(&self) -> Option<Outcome> {
        let moves = self.moves();
        match self.side() {
            Color::White => moves
                .iter()
                .any(|&mv| matches!(self.play(mv), After::Promoted { outcome: Outcome::Win, .. }))
                .then_some(Outcome::Win),
            Color::Black => (moves.is_empty()
                || moves.iter().any(|&mv| self.play(mv) == After::PawnCaptured))
            .then_some(Outcome::Draw),
        }
    }

    /// FEN of the canonical orientation, e.g. `8/8/8/8/8/2P5/8/3K1k2 w - - 0 1`.
    pub fn to_fen(&self) -> String {
        self.to_fen_with(Transform::IDENTITY)
    }

    /// FEN of the position seen through `t` (the orientation the user gave).
    pub fn to_fen_with(&self, t: Transform) -> String {
        let mut board = [None::<char>; 64];
        let (wk, bk, wp) = (t.apply(self.wk()), t.apply(self.bk()), t.apply(self.wp()));
        let (king, lone, pawn) = if t.flip_colours { ('k', 'K', 'p') } else { ('K', 'k', 'P') };
        board[wk.index()] = Some(king);
        board[bk.index()] = Some(lone);
        board[wp.index()] = Some(pawn);
        let mut fen = fen_placement(&board);
        let side = if t.flip_colours { self.side().other() } else { self.side() };
        fen.push(' ');
        fen.push(side.fen_char());
        fen.push_str(" - - 0 1");
        fen
    }
}

/// The piece placement field of a FEN: the board's letters (square a1 = 0 … h8 = 63) rank 8
/// first, runs of empty squares as digits, ranks parted by `/`.
pub fn fen_placement(board: &[Option<char>; 64]) -> String {
    let mut fen = String::with_capacity(72);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}

/// A FEN as the user wrote it: its canonical position and the transform back to the user's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oriented {
    pub position: KpkPosition,
    pub transform: Transform,
}

impl Oriented {
    /// Parse a FEN whose material is king and pawn versus king, the pawn of either colour on any
    /// file, by the chess core's grammar ([`kpk_probe::fen`]): the fields after the side to move
    /// are optional; castling must be `-`, an en passant square must be one the pawn has just passed
    /// in its double step (as python-chess checks it; no pawn can capture it, so it is then
    /// ignored), counters must be ASCII digits.
    pub fn from_fen(fen: &str) -> Result<Oriented, Error> {
        match kpk_probe::fen::parse(fen) {
            Ok((p, transform)) => Ok(Oriented { position: KpkPosition(p), transform }),
            Err(kpk_probe::FenError::Illegal(kind)) => {
                Err(Error::Illegal { fen: fen.trim().to_string(), kind })
            }
            Err(kind) => Err(Error::Fen { fen: fen.trim().to_string(), kind }),
        }
    }

    /// FEN in the user's orientation.
    pub fn to_fen(&self) -> String {
        self.position.to_fen_with(self.transform)
    }

    /// A move in the user's orientation, in short algebraic form (`Kc2`, `b4`, `b8=R`, `Kxb2`).
    pub fn move_name(&self, mv: Move) -> String {
        let to = self.transform.apply(mv.to);
        if mv.from == self.position.wp() && self.position.side() == Color::White {
            match mv.promotion {
                Some(p) => format!("{to}={}", p.letter()),
                None => to.to_string(),
            }
        } else if self.position.side() == Color::Black && mv.to == self.position.wp() {
            format!("Kx{to}")
        } else {
            format!("K{to}")
        }
    }
}

/// The piece a pawn promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Promotion {
    pub const ALL: [Promotion; 4] = [Promotion::Queen, Promotion::Rook, Promotion::Bishop, Promotion::Knight];
    pub fn letter(self) -> char {
        match self {
            Promotion::Queen => 'Q',
            Promotion::Rook => 'R',
            Promotion::Bishop => 'B',
            Promotion::Knight => 'N',
        }
    }
}

/// A move in canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Promotion>,
}

/// What a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Another KPK position.
    Position(KpkPosition),
    /// Black took the pawn: a draw.
    PawnCaptured,
    /// The pawn promoted (conversion): the game leaves KPK with this result.
    Promoted { piece: Promotion, outcome: Outcome, reason: PromotionReason },
}

/// Why a promotion wins or draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionReason {
    /// A bishop or knight cannot win.
    InsufficientMaterial,
    /// Black takes the new, unguarded piece at once.
    Taken,
    /// Black, not in check, has no move.
    Stalemate,
    /// KQK or KRK, won.
    Converted,
}

impl PromotionReason {
    /// The reason in the words `kpk probe` writes after the move.
    pub fn words(self) -> &'static str {
        match self {
            PromotionReason::InsufficientMaterial => "insufficient material",
            PromotionReason::Taken => "the new piece is taken",
            PromotionReason::Stalemate => "stalemate",
            PromotionReason::Converted => "converted",
        }
    }
}

/// The result of promoting on `q` with the white king on `wk` and the black king on `bk`, Black
/// then to move. A queen or rook promotion wins unless the new piece can be taken at once or Black
/// is stalemated (KQK and KRK are otherwise always won); a bishop or knight cannot win.
pub fn promotion_outcome(wk: Square, bk: Square, q: Square, piece: Promotion) -> (Outcome, PromotionReason) {
    let (orthogonal, diagonal) = match piece {
        Promotion::Queen => (true, true),
        Promotion::Rook => (true, false),
        Promotion::Bishop | Promotion::Knight => {
            return (Outcome::Draw, PromotionReason::InsufficientMaterial);
        }
    };
    let guarded = KING_ATTACKS[wk.index()];
    if KING_ATTACKS[bk.index()] & q.bit() != 0 && guarded & q.bit() == 0 {
        return (Outcome::Draw, PromotionReason::Taken);
    }
    // Rays pass through the black king's square: it cannot step back along a checking line.
    let piece_attacks = slider_attacks(q, wk.bit(), orthogonal, diagonal);
    let in_check = piece_attacks & bk.bit() != 0;
    let escapes = KING_ATTACKS[bk.index()] & !(guarded | piece_attacks | wk.bit());
    if !in_check && escapes == 0 {
        (Outcome::Draw, PromotionReason::Stalemate)
    } else {
        (Outcome::Win, PromotionReason::Converted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn parses_table1_set3() {
        let o = Oriented::from_fen("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1").unwrap();
        assert_eq!(o.transform, Transform::IDENTITY);
        assert_eq!((o.position.wk(), o.position.bk(), o.position.wp()), (sq("d1"), sq("f8"), sq("c3")));
        assert_eq!(o.to_fen(), "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
    }

    #[test]
    fn black_pawn_on_g_file_is_flipped_and_mirrored() {
        // Black king d8, black pawn g6, white king f1, Black to move.
        let o = Oriented::from_fen("3k4/8/6p1/8/8/8/8/5K2 b - -").unwrap();
        assert_eq!(o.transform, Transform { flip_colours: true, mirror_files: true });
        let p = o.position;
        assert_eq!(p.side(), Color::White);
        assert_eq!(p.wp(), sq("b3"));
        assert_eq!(p.wk(), sq("e1")); // black king d8 -> d1 -> e1
        assert_eq!(p.bk(), sq("c8")); // white king f1 -> f8 -> c8
        assert_eq!(o.to_fen(), "3k4/8/6p1/8/8/8/8/5K2 b - - 0 1");
    }

    #[test]
    fn rook_promotion_wins_where_queen_stalemates() {
        // White king a4, Black king a6, pawn b7: b8=Q stalemates, b8=R wins.
        let (wk, bk, q) = (sq("a4"), sq("a6"), sq("b8"));
        assert_eq!(promotion_outcome(wk, bk, q, Promotion::Queen).0, Outcome::Draw);
        assert_eq!(promotion_outcome(wk, bk, q, Promotion::Rook).0, Outcome::Win);
    }
}
