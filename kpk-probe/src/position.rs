//! KPK positions: legality, the canonical orientation and the dense index.
//!
//! **Legal** (as in the paper's Table 2 counts): three distinct squares, the pawn on ranks 2–7,
//! the kings not adjacent, and the side not to move not in check. With the pawn side's only
//! attacker the pawn, that last rule only bites with the pawn side to move: the lone king must
//! not stand on a square the pawn attacks. The lone king to move *in* check is legal (Table 1's
//! set 7b counts such positions).
//!
//! **Canonical orientation.** Every answer is computed with the pawn White's, moving up the board,
//! on files a–d. A position whose pawn is Black's is turned round first (ranks flipped, colours
//! and the side to move swapped); one whose pawn is then on files e–h is mirrored (files
//! a↔h, b↔g, …). Both maps are their own inverses and commute, so the [`Transform`] that
//! canonicalises a position also maps canonical squares back. Answers are from the pawn side's
//! point of view, so they do not change.
//!
//! **Index** (the numbering the exception table and the bitbase use):
//!
//! ```text
//! MAX_INDEX = 2 × 24 × 64 × 64 = 196,608
//! index     = ((side × 24 + pawn) × 64 + wk) × 64 + bk
//!   side  0 = the pawn side (White) to move, 1 = the lone king (Black) to move
//!   pawn  (rank − 2) × 4 + file, rank 2..7 (1-based), file a..d = 0..3
//!   wk    square of the pawn side's king, bk square of the lone king (canonical orientation)
//! ```

use crate::square::{Color, Square};
use core::fmt;

/// Number of indices: 2 sides × 24 pawn squares × 64 × 64 king squares.
pub const MAX_INDEX: usize = 2 * 24 * 64 * 64;

/// The result of a KPK position for the pawn side: it wins, or the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Draw,
    Win,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
        })
    }
}

/// Why a placement is not a legal KPK position; the squares are those the caller gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// Two pieces on this square.
    SameSquare(Square),
    /// The pawn on its first or last rank.
    PawnOnBackRank(Square),
    /// The pawn side's king and the lone king touch.
    AdjacentKings(Square, Square),
    /// The pawn side to move with the lone king on a square its pawn attacks.
    NotToMoveInCheck { king: Square, pawn: Square },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::SameSquare(s) => write!(f, "two pieces on {s}"),
            Illegal::AdjacentKings(a, b) => write!(f, "kings on adjacent squares {a} and {b}"),
            Illegal::PawnOnBackRank(s) => {
                write!(f, "pawn on {s}: a pawn cannot stand on the first or last rank")
            }
            Illegal::NotToMoveInCheck { king, pawn } => {
                write!(f, "the side not to move is in check: king on {king} attacked by the pawn on {pawn}")
            }
        }
    }
}

impl core::error::Error for Illegal {}

impl Illegal {
    /// The same reason with its squares seen through `t`.
    #[must_use]
    pub fn through(self, t: Transform) -> Illegal {
        match self {
            Illegal::SameSquare(s) => Illegal::SameSquare(t.apply(s)),
            Illegal::PawnOnBackRank(s) => Illegal::PawnOnBackRank(t.apply(s)),
            Illegal::AdjacentKings(a, b) => Illegal::AdjacentKings(t.apply(a), t.apply(b)),
            Illegal::NotToMoveInCheck { king, pawn } => {
                Illegal::NotToMoveInCheck { king: t.apply(king), pawn: t.apply(pawn) }
            }
        }
    }
}

/// The map between a caller's orientation and the canonical one (either way: it is its own
/// inverse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Transform {
    /// The pawn was Black's: colours were swapped and ranks flipped.
    pub flip_colours: bool,
    /// The pawn was on files e–h: files were mirrored.
    pub mirror_files: bool,
}

impl Transform {
    pub const IDENTITY: Transform = Transform { flip_colours: false, mirror_files: false };

    /// Map a square between the caller's and the canonical orientation (either way).
    #[must_use]
    pub const fn apply(self, sq: Square) -> Square {
        let sq = if self.flip_colours { sq.flip_rank() } else { sq };
        if self.mirror_files { sq.mirror_file() } else { sq }
    }
}

/// The pawn slot `0..24` of a canonical pawn square (files a–d, ranks 2–7).
#[must_use]
pub const fn pawn_slot(wp: Square) -> usize {
    (wp.rank() as usize - 1) * 4 + wp.file() as usize
}

/// The canonical pawn square of slot `0..24` (`slot % 24` for a larger one).
#[must_use]
pub const fn pawn_square(slot: usize) -> Square {
    let slot = slot % 24;
    Square::ALL[(slot / 4 + 1) * 8 + slot % 4]
}

/// The index of a canonical placement (see the module documentation); legal or not.
#[must_use]
pub const fn index_of(wk: Square, bk: Square, wp: Square, side: Color) -> u32 {
    let side = match side {
        Color::White => 0,
        Color::Black => 1,
    };
    (((side * 24 + pawn_slot(wp)) * 64 + wk.index()) * 64 + bk.index()) as u32
}

/// The canonical placement `(wk, bk, wp, side)` an index below [`MAX_INDEX`] names.
#[must_use]
pub const fn squares_of(index: u32) -> (Square, Square, Square, Color) {
    let i = index as usize % MAX_INDEX;
    let side = if i < MAX_INDEX / 2 { Color::White } else { Color::Black };
    (Square::ALL[i / 64 % 64], Square::ALL[i % 64], pawn_square(i / 4096), side)
}

/// A legal KPK position in the canonical orientation (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    wk: Square,
    bk: Square,
    wp: Square,
    side: Color,
}

/// Why the canonical placement is illegal, if it is (the pawn White's on files a–d).
fn check_legal(wk: Square, bk: Square, wp: Square, side: Color) -> Result<(), Illegal> {
    if wk == bk || wk == wp || bk == wp {
        return Err(Illegal::SameSquare(if wk == bk || wk == wp { wk } else { bk }));
    }
    if wp.rank() == 0 || wp.rank() == 7 {
        return Err(Illegal::PawnOnBackRank(wp));
    }
    if wk.distance(bk) <= 1 {
        return Err(Illegal::AdjacentKings(wk, bk));
    }
    if side == Color::White && bk.rank() == wp.rank() + 1 && bk.file().abs_diff(wp.file()) == 1 {
        return Err(Illegal::NotToMoveInCheck { king: bk, pawn: wp });
    }
    Ok(())
}

impl Position {
    /// The position with the pawn White's: a pawn on files e–h is mirrored to a–d. Errors name
    /// the squares given.
    pub fn new(wk: Square, bk: Square, wp: Square, side: Color) -> Result<Position, Illegal> {
        if wp.file() >= 4 {
            return Position::oriented(wk, bk, wp, Color::White, side).map(|(p, _)| p);
        }
        check_legal(wk, bk, wp, side)?;
        Ok(Position { wk, bk, wp, side })
    }

    /// The position with a white king, a black king and a pawn of `pawn_color` on the given
    /// squares, `side_to_move` to play, in the canonical orientation, and the transform that maps
    /// its squares back to the ones given. Errors name the squares given.
    pub fn oriented(
        white_king: Square,
        black_king: Square,
        pawn: Square,
        pawn_color: Color,
        side_to_move: Color,
    ) -> Result<(Position, Transform), Illegal> {
        let flip_colours = pawn_color == Color::Black;
        let (king, lone) = if flip_colours { (black_king, white_king) } else { (white_king, black_king) };
        let mirror_files = Transform { flip_colours, mirror_files: false }.apply(pawn).file() >= 4;
        let t = Transform { flip_colours, mirror_files };
        let side = if flip_colours { side_to_move.other() } else { side_to_move };
        let (wk, bk, wp) = (t.apply(king), t.apply(lone), t.apply(pawn));
        check_legal(wk, bk, wp, side).map_err(|e| e.through(t))?;
        Ok((Position { wk, bk, wp, side }, t))
    }

    /// The legal position at `index`, or `None` (see the module documentation for the numbering).
    #[must_use]
    pub fn from_index(index: u32) -> Option<Position> {
        if index as usize >= MAX_INDEX {
            return None;
        }
        let (wk, bk, wp, side) = squares_of(index);
        check_legal(wk, bk, wp, side).ok()?;
        Some(Position { wk, bk, wp, side })
    }

    /// Every legal position, in index order: 81,664 with the pawn side to move, then 84,012 with
    /// the lone king to move.
    pub fn all() -> impl Iterator<Item = Position> {
        (0..MAX_INDEX as u32).filter_map(Position::from_index)
    }

    /// This position's index.
    #[must_use]
    #[inline]
    pub fn index(&self) -> u32 {
        index_of(self.wk, self.bk, self.wp, self.side)
    }

    /// The pawn side's (white) king.
    #[must_use]
    pub fn wk(&self) -> Square {
        self.wk
    }
    /// The lone (black) king.
    #[must_use]
    pub fn bk(&self) -> Square {
        self.bk
    }
    /// The pawn, White's, on files a–d and ranks 2–7.
    #[must_use]
    pub fn wp(&self) -> Square {
        self.wp
    }
    /// The side to move.
    #[must_use]
    pub fn side(&self) -> Color {
        self.side
    }
    /// Whether the pawn side is to move.
    #[must_use]
    pub fn white_to_move(&self) -> bool {
        self.side == Color::White
    }
    /// The pawn side's king, the lone king and the pawn.
    #[must_use]
    pub fn squares(&self) -> (Square, Square, Square) {
        (self.wk, self.bk, self.wp)
    }
    /// Is the side to move in check? Only the lone king can be: the pawn attacks it.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.side == Color::Black
            && self.bk.rank() == self.wp.rank() + 1
            && self.bk.file().abs_diff(self.wp.file()) == 1
    }

    /// Table 4's level-0 coordinates x1..x6: file and rank (1-based) of the pawn side's king,
    /// the lone king and the pawn.
    #[must_use]
    #[inline]
    pub fn coordinates(&self) -> [i8; 6] {
        let c = |sq: Square| [sq.file() as i8 + 1, sq.rank() as i8 + 1];
        let (w, b, p) = (c(self.wk), c(self.bk), c(self.wp));
        [w[0], w[1], b[0], b[1], p[0], p[1]]
    }

    /// With the lone king to move: calls `reply` with each position its king can step to (the
    /// pawn side then to move), and returns whether it can also take the pawn (the pawn stands
    /// next to it and the pawn side's king does not guard it). No reply and no capture is
    /// stalemate: KPK has no checkmate.
    #[inline]
    pub fn lone_king_replies(&self, mut reply: impl FnMut(Position)) -> bool {
        let wp = self.wp;
        let reach = king_attacks(self.bk) & !(king_attacks(self.wk) | self.wk.bit());
        // A square the pawn attacks is no step: the lone king would stand in check.
        let mut steps = reach & !wp.bit() & !pawn_attacks(wp);
        while steps != 0 {
            let to = Square::ALL[steps.trailing_zeros() as usize];
            steps &= steps - 1;
            reply(Position { wk: self.wk, bk: to, wp, side: Color::White });
        }
        reach & wp.bit() != 0
    }

    /// Calls `f` with every legal position with `side` to move, in index order: a walk over the
    /// placements as the index numbers them (pawn, pawn side's king, lone king), the lone king
    /// on the squares legality leaves it.
    pub fn each(side: Color, mut f: impl FnMut(Position)) {
        for slot in 0..24 {
            let wp = pawn_square(slot);
            let checked = if side == Color::White { pawn_attacks(wp) } else { 0 };
            for wk in Square::ALL {
                if wk == wp {
                    continue;
                }
                let mut free = !(king_attacks(wk) | wk.bit() | wp.bit() | checked);
                while free != 0 {
                    let bk = Square::ALL[free.trailing_zeros() as usize];
                    free &= free - 1;
                    f(Position { wk, bk, wp, side });
                }
            }
        }
    }
}

/// Every square but those of the a-file, and of the h-file: what a step to the east, or to the
/// west, may land on without wrapping round the board.
const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The squares a king on `sq` attacks, as a bitboard: its rank's neighbours (no wrap from the h-
/// to the a-file), then that row shifted a rank up and down.
#[inline]
const fn king_attacks(sq: Square) -> u64 {
    let b = sq.bit();
    let row = b | ((b << 1) & NOT_A_FILE) | ((b >> 1) & NOT_H_FILE);
    (row | (row << 8) | (row >> 8)) & !b
}

/// The squares a white pawn on `wp` attacks (one rank up, one file either side; none off the
/// board: the pawn stands below the eighth rank).
#[inline]
const fn pawn_attacks(wp: Square) -> u64 {
    let b = wp.bit();
    ((b << 7) & NOT_H_FILE) | ((b << 9) & NOT_A_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_round_trips_and_counts_table_2s_positions() {
        let (mut white, mut black) = (0, 0);
        for i in 0..MAX_INDEX as u32 {
            let (wk, bk, wp, side) = squares_of(i);
            assert_eq!(index_of(wk, bk, wp, side), i);
            if let Some(p) = Position::from_index(i) {
                assert_eq!(p.index(), i);
                if p.white_to_move() { white += 1 } else { black += 1 }
            }
        }
        assert_eq!((white, black), (81_664, 84_012));
    }

    #[test]
    fn each_walks_the_legal_positions_in_index_order_and_replies_are_the_kings_steps() {
        for side in [Color::White, Color::Black] {
            let mut walked = alloc::vec::Vec::new();
            Position::each(side, |p| walked.push(p));
            let all: alloc::vec::Vec<Position> = Position::all().filter(|p| p.side == side).collect();
            assert_eq!(walked, all);
        }
        let steps = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
        Position::each(Color::Black, |p| {
            let mut replies = alloc::vec::Vec::new();
            let takes = p.lone_king_replies(|q| replies.push(q));
            let mut want = alloc::vec::Vec::new();
            let targets = steps.iter().filter_map(|&(df, dr)| p.bk.offset(df, dr));
            for to in targets.filter(|to| to.distance(p.wk) > 1) {
                want.extend(Position::new(p.wk, to, p.wp, Color::White).ok().filter(|_| to != p.wp));
            }
            want.sort_by_key(Position::index);
            assert_eq!(replies, want);
            assert_eq!(takes, p.bk.distance(p.wp) == 1 && p.wk.distance(p.wp) > 1);
        });
    }

    #[test]
    fn pawn_slots_cover_files_a_to_d_ranks_2_to_7() {
        for slot in 0..24 {
            let sq = pawn_square(slot);
            assert!(sq.file() < 4 && (1..=6).contains(&sq.rank()));
            assert_eq!(pawn_slot(sq), slot);
        }
    }

    #[test]
    fn errors_name_the_squares_given() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        // Black pawn g6, black king f5 ... kings e4 (white) and f5 (black) touch.
        let e = Position::oriented(sq("e4"), sq("f5"), sq("g6"), Color::Black, Color::White);
        assert_eq!(e, Err(Illegal::AdjacentKings(sq("f5"), sq("e4"))));
        let e = Position::oriented(sq("e1"), sq("b3"), sq("a2"), Color::White, Color::White);
        assert_eq!(e, Err(Illegal::NotToMoveInCheck { king: sq("b3"), pawn: sq("a2") }));
        let e = Position::new(sq("h2"), sq("a8"), sq("h2"), Color::Black);
        assert_eq!(e, Err(Illegal::SameSquare(sq("h2"))));
        let e = Position::new(sq("a1"), sq("a8"), sq("g8"), Color::Black);
        assert_eq!(e, Err(Illegal::PawnOnBackRank(sq("g8"))));
    }
}
