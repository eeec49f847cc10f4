//! Depth to zeroing (DTZ), Syzygy's metric, by retrograde analysis over the won-position bits.
//!
//! # The rule
//!
//! A **zeroing move** resets the fifty-move counter: a pawn move (a promotion included) or a
//! capture. DTZ counts the plies to the next zeroing move under play where the winner, among the
//! moves that keep the win, reaches a zeroing move as soon as it can and the loser puts it off as
//! long as it can. The zeroing move itself counts as one ply. The sign is the side to move's:
//! positive when it wins, negative when it loses, 0 in a draw. In KPK:
//!
//! * **The pawn side to move, won:** DTZ = 1 when some pawn move keeps the win: a push or double
//!   push to a won position, or a promotion that wins (to a queen *or a rook*: where the queen
//!   stalemates the rook may win, and that promotion is the zeroing move). Otherwise
//!   DTZ = 1 + |DTZ| of the best king move to a won position, the least.
//! * **The lone king to move, lost:** DTZ = −(1 + the greatest DTZ among its moves). Taking the
//!   pawn is a zeroing move but draws, so a lost position has none; a lost position always has a
//!   move (no move is stalemate, a draw: KPK has no checkmate).
//! * **Drawn:** 0, whoever is to move; a position where the lone king can take the pawn, or has
//!   no move, is drawn.
//!
//! So DTZ is odd with the pawn side to move (1, 3, …) and even with the lone king to move
//! (−2, −4, …). DTZ ≤ DTC for every won position: a conversion is a zeroing move, so the
//! DTC-optimal line reaches one within DTC plies, and DTZ = DTC exactly where the quickest line to
//! a pawn move is the promotion itself.
//!
//! # The computation
//!
//! Level by level as for DTC, on the same 64-bit words (one bit per lone-king square): level 1 is
//! every won position with the pawn side to move and a winning pawn move; level `d` even adds the
//! lost positions with the lone king to move whose every move reaches levels below `d`; level `d`
//! odd adds the won positions with a king move to a level below `d`. Each level adds exactly the
//! positions of that depth.

use crate::chess::board::{KING_ATTACKS, neighbours, squares};
use crate::chess::index::{SIDE_WORDS, WORDS, word};
use kpk_probe::{Color, MAX_INDEX, Square, position::pawn_square};

/// The greatest |DTZ| in KPK is well below this; the loop stops when a level adds nothing.
const LEVEL_LIMIT: u8 = 120;

/// |DTZ| of every index (0 for draws and illegal indices) from the won-position bits `win` (one
/// per index, legal wins only), the legality masks `legal` and the lone king's step squares `safe`
/// per pawn-side word (see the DTC fixpoint in [`crate::chess::bitbase`]), and the promotion
/// wins per pawn-side word (rank-7 slots; 0 elsewhere).
pub fn generate(win: &[u64], legal: &[u64], safe: &[u64], promotes: &[u64]) -> Vec<u8> {
    let mut depth = vec![0u8; MAX_INDEX];
    let mut reached = vec![0u64; WORDS];
    let (white, black) = win.split_at(SIDE_WORDS);
    let record = |depth: &mut [u8], w: usize, new: u64, d: u8| {
        for bk in squares(new) {
            depth[w * 64 + bk.index()] = d;
        }
    };
    // Level 1: a pawn move that keeps the win.
    for slot in 0..24 {
        let wp = pawn_square(slot);
        let one = Square::new(wp.index() as u8 + 8).expect("pawn below rank 8");
        for wk in Square::ALL {
            let w = word(Color::White, slot, wk);
            let mut zeroing = promotes[w];
            if slot < 20 && wk != one {
                zeroing |= black[word(Color::White, slot + 4, wk)];
                if slot < 4 && wk.index() != one.index() + 8 {
                    zeroing |= black[word(Color::White, slot + 8, wk)] & !one.bit();
                }
            }
            let new = zeroing & white[w];
            reached[w] = new;
            record(&mut depth, w, new, 1);
        }
    }
    let mut d = 1u8;
    while d < LEVEL_LIMIT {
        d += 1;
        let (rw, rb) = reached.split_at_mut(SIDE_WORDS);
        let mut added = 0u64;
        if d % 2 == 0 {
            for w in 0..SIDE_WORDS {
                let escapes = safe[w] & !rw[w];
                let new =
                    black[w] & legal[SIDE_WORDS + w] & neighbours(safe[w]) & !neighbours(escapes) & !rb[w];
                if new != 0 {
                    rb[w] |= new;
                    record(&mut depth, SIDE_WORDS + w, new, d);
                    added |= new;
                }
            }
        } else {
            for w in 0..SIDE_WORDS {
                if white[w] & !rw[w] == 0 {
                    continue;
                }
                let wk = Square::ALL[w % 64];
                let base = w - w % 64;
                let reach = squares(KING_ATTACKS[wk.index()]).fold(0, |acc, k| acc | rb[base + k.index()]);
                let new = reach & white[w] & !rw[w];
                if new != 0 {
                    rw[w] |= new;
                    record(&mut depth, w, new, d);
                    added |= new;
                }
            }
        }
        if added == 0 {
            break;
        }
    }
    depth
}
