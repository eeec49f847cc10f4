//! An endgame of some men against a lone king, as a type, and the one retrograde solver over it.
//!
//! # The layout
//!
//! The strong side (normalised to White) has the king and one more man; the lone king is Black.
//! Every placement of the strong men owns a *word* number `w < SIDE_WORDS`; with White to move
//! the 64-bit word `w` holds one bit per lone-king square, with Black to move it is word
//! `SIDE_WORDS + w`, and index `word × 64 + lone-king square` names a position. KPK's words are
//! (pawn slot, white king) ([`crate::chess::index`]); a pawnless endgame's are (piece, white king)
//! ([`crate::chess::pawnless`]).
//!
//! # The rule (minimax over depths)
//!
//! * **White to move** wins at depth `d` (odd) when some move reaches a Black-to-move position
//!   lost at depth `d − 1`, or some move leaves the endgame (a promotion) with depth `d` by the
//!   metric ([`Exits`]), and it did not win at a smaller depth.
//! * **Black to move** is lost at depth 0 when checkmated, and at depth `d` (even) when it has a
//!   move and every move reaches a White-to-move win of depth `< d`. A stalemate, or taking an
//!   unguarded man, is a draw.
//!
//! The metric is the exits' depths: with every winning promotion at depth 1 the depths are KPK's
//! depth to conversion; with 1 + the child table's distance to mate they are the distance to mate.
//! Each ply adds the positions of exactly that depth, over all 64 lone-king squares at once.

use crate::chess::board::{neighbours, squares};

/// The masks the solver starts from; `legal` has `2 × SIDE_WORDS` words, the others one per
/// placement (White's words).
pub struct Masks {
    /// Lone-king squares of legal positions: White's words, then Black's.
    pub legal: Vec<u64>,
    /// Per placement: the squares the lone king may step to (an unguarded man's square included:
    /// taking it draws, and no win has the lone king there).
    pub safe: Vec<u64>,
    /// Per placement: the lone-king squares in check.
    pub checked: Vec<u64>,
}

/// One endgame: its placements, legality and the strong side's moves inside it.
pub trait Endgame {
    /// Placements of the strong men (words per side to move).
    const SIDE_WORDS: usize;

    /// The masks of every placement.
    fn masks(&self) -> Masks;

    /// The lone-king squares from which White, to move in placement `w`, reaches a position
    /// whose bit is set in `lost` (Black's words, indexed by placement), by a move inside the
    /// endgame. Only squares legal with White to move are read by the solver.
    fn reach(&self, w: usize, lost: &[u64]) -> u64;
}

/// The moves that leave the endgame with White to move, by depth: `by_depth[d]` lists the
/// (placement, lone-king squares) that win at depth `d` by leaving (0 and even depths empty).
#[derive(Default)]
pub struct Exits {
    pub by_depth: Vec<Vec<(usize, u64)>>,
}

impl Exits {
    /// Add the lone-king squares `bits` of placement `w` as exits of depth `d`.
    pub fn add(&mut self, d: usize, w: usize, bits: u64) {
        if bits == 0 {
            return;
        }
        if self.by_depth.len() <= d {
            self.by_depth.resize_with(d + 1, Vec::new);
        }
        self.by_depth[d].push((w, bits));
    }

    fn at(&self, d: usize) -> &[(usize, u64)] {
        self.by_depth.get(d).map_or(&[], Vec::as_slice)
    }
}

/// The solved endgame: won bits and depths (0 for draws, illegal indices and mates).
#[derive(Clone, PartialEq, Eq)]
pub struct Solution {
    /// One bit per index: White to move and winning, or Black to move and lost.
    pub win: Vec<u64>,
    /// One byte per index: the depth of a win or loss.
    pub depth: Vec<u8>,
}

/// Solve endgame `e` by retrograde analysis with the given masks and exits.
pub fn solve<E: Endgame>(e: &E, masks: &Masks, exits: &Exits) -> Solution {
    let n = E::SIDE_WORDS;
    let Masks { legal, safe, checked } = masks;
    let mut win = vec![0u64; 2 * n];
    let mut depth = vec![0u8; 2 * n * 64];
    let record = |depth: &mut [u8], w: usize, new: u64, d: usize| {
        for sq in squares(new) {
            depth[w * 64 + sq.index()] = d as u8;
        }
    };
    let (white, black) = win.split_at_mut(n);
    // Depth 0: checkmates, Black to move. Its bits stand in `black` but depth 0 means "mated".
    for w in 0..n {
        black[w] = legal[n + w] & checked[w] & !neighbours(safe[w]);
    }
    let last_exit = exits.by_depth.len();
    let mut d = 0;
    loop {
        d += 1;
        let mut added = 0u64;
        if d % 2 == 0 {
            for w in 0..n {
                let escapes = safe[w] & !white[w];
                let lost = legal[n + w] & neighbours(safe[w]) & !neighbours(escapes);
                let new = lost & !black[w];
                if new != 0 {
                    black[w] |= new;
                    record(&mut depth, n + w, new, d);
                    added |= new;
                }
            }
        } else {
            for &(w, bits) in exits.at(d) {
                let new = bits & legal[w] & !white[w];
                white[w] |= new;
                record(&mut depth, w, new, d);
                added |= new;
            }
            for w in 0..n {
                if legal[w] == 0 {
                    continue;
                }
                let new = e.reach(w, black) & legal[w] & !white[w];
                if new != 0 {
                    white[w] |= new;
                    record(&mut depth, w, new, d);
                    added |= new;
                }
            }
        }
        if added == 0 && d >= last_exit {
            break;
        }
    }
    Solution { win, depth }
}
