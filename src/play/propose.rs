//! The move proposer of the play model: it ranks the pawn side's winning moves by a small
//! integer score of the position after each move, an estimate of its depth to conversion.
//!
//! Which moves win is exact (the hybrid classifier); only the order among winning moves is
//! estimated. The score is a weighted sum of fifteen terms that chess players use to judge a
//! king-and-pawn race (smaller is better for the pawn side):
//!
//! | feature | meaning |
//! |---|---|
//! | 0 | ranks the pawn still has to go to promote |
//! | 1 | king distance from the pawn side's king to the square in front of the pawn |
//! | 2 | king distance from the pawn side's king to the promotion square |
//! | 3 | minus the lone king's distance to the promotion square |
//! | 4 | minus the lone king's distance to the pawn |
//! | 5 | minus how far the pawn side's king stands ahead of the pawn (ranks, clamped to ±2) |
//! | 6 | king distance from the pawn side's king to the pawn |
//! | 7 | minus the lone king's distance to the square in front of the pawn |
//! | 8 | the rule of the square: the lone king's distance to the promotion square minus the pawn's, clamped to ±2 |
//! | 9 | 1 when the kings stand in opposition on a file, the lone king in front (it is to move) |
//! | 10 | files between the pawn side's king and the pawn |
//! | 11 | 1 when the kings stand on one diagonal an even number of squares apart (diagonal opposition) |
//! | 12 | for a rook's pawn (a or h file): king distance from the pawn side's king to the promotion square; else 0 |
//! | 13 | 1 when the pawn side's king stands beside the pawn one rank ahead of it (files differ by 1) |
//! | 14 | 1 when the pawn stands on its second rank (a double step still to come) |
//!
//! Play model files of version 1 hold the first eleven weights (features 0–10); they read as
//! weight 0 for the other four, which ranks every move as version 1 did.
//!
//! The weights are stored in the model file; `kpk compress-play` chooses them by coordinate
//! descent to minimise the number of positions whose top-ranked move is not DTC-optimal.

use crate::chess::board::Square;
use crate::chess::position::KpkPosition;

/// Number of features, and of weights in a version-2 model file.
pub const N_FEATURES: usize = 15;
/// Number of weights in a version-1 model file: features 0–10.
pub const V1_FEATURES: usize = 11;

/// The proposer's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposer {
    pub weights: [i8; N_FEATURES],
}

impl Default for Proposer {
    /// The weights `kpk compress-play` starts its search from: version 1's fitted weights, times
    /// four so that the search has finer steps, and none on the later features.
    fn default() -> Proposer {
        Proposer { weights: [48, 4, 12, 0, 28, 12, 0, 4, -8, -4, 0, 0, 0, 0, 0] }
    }
}

/// The features of `s`, the position after a pawn-side move (lone king to move), in the table's order.
#[inline]
pub fn features(s: &KpkPosition) -> [i32; N_FEATURES] {
    let (wk, bk, wp) = (s.wk(), s.bk(), s.wp());
    let front = Square::from_coords(wp.file() as i8, wp.rank() as i8 + 1).expect("the pawn is below rank 8");
    let queening = Square::from_coords(wp.file() as i8, 7).expect("rank 8");
    let (files, ranks) = (wk.file().abs_diff(bk.file()), wk.rank().abs_diff(bk.rank()));
    let rook_pawn = wp.file() == 0 || wp.file() == 7;
    [
        7 - i32::from(wp.rank()),
        i32::from(wk.distance(front)),
        i32::from(wk.distance(queening)),
        -i32::from(bk.distance(queening)),
        -i32::from(bk.distance(wp)),
        -(i32::from(wk.rank()) - i32::from(wp.rank())).clamp(-2, 2),
        i32::from(wk.distance(wp)),
        -i32::from(bk.distance(front)),
        (i32::from(bk.distance(queening)) - (7 - i32::from(wp.rank()))).clamp(-2, 2),
        i32::from(wk.file() == bk.file() && bk.rank() == wk.rank() + 2),
        i32::from(wk.file().abs_diff(wp.file())),
        i32::from(files == ranks && files % 2 == 0),
        if rook_pawn { i32::from(wk.distance(queening)) } else { 0 },
        i32::from(wk.rank() == wp.rank() + 1 && wk.file().abs_diff(wp.file()) == 1),
        i32::from(wp.rank() == 1),
    ]
}

impl Proposer {
    /// The score of `s` (smaller: the move to `s` is thought quicker).
    #[inline]
    pub fn score(&self, s: &KpkPosition) -> i32 {
        features(s).iter().zip(self.weights).map(|(&f, w)| f * i32::from(w)).sum()
    }
}
