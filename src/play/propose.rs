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
//! The weights depend on the *regime* of the position before the move, a depth-two tree over the
//! pawn (a model tree: a linear score at each leaf): `3 × [rook's pawn] + [pawn on its 4th rank or
//! beyond] + [pawn on its 6th rank or beyond]`, six regimes of fifteen weights each.
//!
//! Play model files of version 1 hold eleven weights (features 0–10) for every regime; they read
//! as weight 0 for the other four, which ranks every move as version 1 did.
//!
//! The weights are stored in the model file; `kpk compress-play` chooses them by coordinate
//! descent to minimise the number of positions whose top-ranked move is not DTC-optimal.

use crate::chess::bitbase::Bitbase;
use crate::chess::position::{After, KpkPosition};
use kpk_probe::{Color, Outcome, Square};
use rayon::prelude::*;

/// Number of features, and of weights in a version-2 model file.
pub const N_FEATURES: usize = 15;
/// Number of weights in a version-1 model file: features 0–10, one set for every position.
pub const V1_FEATURES: usize = 11;
/// Number of regimes, each with its own weights.
pub const N_REGIMES: usize = 6;

/// The proposer's weights, per regime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposer {
    pub weights: [[i8; N_FEATURES]; N_REGIMES],
}

/// The weights `kpk compress-play` starts its search from: version 1's fitted weights, times four
/// so that the search has finer steps, and none on the later features.
const START: [i8; N_FEATURES] = [48, 4, 12, 0, 28, 12, 0, 4, -8, -4, 0, 0, 0, 0, 0];

impl Default for Proposer {
    /// The search's starting weights (version 1's fitted weights × 4) in every regime.
    fn default() -> Proposer {
        Proposer { weights: [START; N_REGIMES] }
    }
}

/// The regime of `p`, the position before the pawn side's move (see the module documentation).
#[inline]
pub fn regime(p: &KpkPosition) -> usize {
    let wp = p.wp();
    let rook_pawn = wp.file() == 0 || wp.file() == 7;
    3 * usize::from(rook_pawn) + usize::from(wp.rank() >= 3) + usize::from(wp.rank() >= 5)
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
    /// The score of `s`, reached by a move from a position of regime `regime` (smaller: the move
    /// to `s` is thought quicker).
    #[inline]
    pub fn score(&self, regime: usize, s: &KpkPosition) -> i32 {
        dot(&features(s), &self.weights[regime])
    }
}

fn dot(f: &[i32; N_FEATURES], w: &[i8; N_FEATURES]) -> i32 {
    f.iter().zip(w).map(|(&a, &b)| a * i32::from(b)).sum()
}

/// A won position with the pawn side to move, no winning promotion and a winning move that is not
/// optimal: its regime, and each winning move's features and whether it is optimal.
type Case = (usize, Vec<(bool, [i32; N_FEATURES])>);

/// The won positions with the pawn side to move and no winning promotion, in index order, each
/// with its winning moves: for each, whether it is DTC-optimal (the position after it is one ply
/// nearer conversion) and `describe` of the position after it. The proposer ranks exactly these
/// moves; a position with one winning move, or only optimal ones, needs no exception.
pub fn winning_moves<T: Send>(
    bb: &Bitbase,
    describe: impl Fn(&KpkPosition) -> T + Sync,
) -> Vec<(KpkPosition, Vec<(bool, T)>)> {
    let white: Vec<KpkPosition> = KpkPosition::all().filter(|p| p.side() == Color::White).collect();
    white
        .par_iter()
        .filter_map(|p| {
            let d = bb.dtc(p)?.0;
            let mut v = Vec::new();
            for mv in p.moves() {
                match p.play(mv) {
                    After::Promoted { outcome: Outcome::Win, .. } => return None,
                    After::Position(s) if bb.outcome(&s) == Outcome::Win => {
                        v.push((bb.dtc(&s).map(|x| x.0 + 1) == Some(d), describe(&s)));
                    }
                    _ => {}
                }
            }
            Some((*p, v))
        })
        .collect()
}

/// Choose the proposer's weights to minimise the number of positions whose top-ranked winning move
/// is not DTC-optimal: one set of weights for all positions by coordinate descent from `start`'s
/// first regime, then each regime's from that set over its own positions. Coordinate descent
/// steps one weight at a time by ±1, ±2, ±3, ±4, ±8 or ±16 (saturating at a signed byte's range),
/// keeps the first improvement, and stops when none improves. Deterministic: no random choice.
pub fn fit_proposer(bb: &Bitbase, start: Proposer) -> (Proposer, usize) {
    let cases: Vec<Case> = winning_moves(bb, features)
        .into_iter()
        .filter(|(_, v)| !v.iter().all(|x| x.0))
        .map(|(p, v)| (regime(&p), v))
        .collect();
    let (all, _) = descend(&cases, start.weights[0]);
    let mut weights = [all; N_REGIMES];
    let mut misses = 0;
    for (r, w) in weights.iter_mut().enumerate() {
        let own: Vec<Case> = cases.iter().filter(|c| c.0 == r).cloned().collect();
        let (fitted, m) = descend(&own, all);
        (*w, misses) = (fitted, misses + m);
    }
    (Proposer { weights }, misses)
}

/// Coordinate descent over one set of weights (see [`fit_proposer`]): the weights and their misses.
fn descend(cases: &[Case], start: [i8; N_FEATURES]) -> ([i8; N_FEATURES], usize) {
    let misses = |w: &[i8; N_FEATURES]| -> usize {
        // min_by_key keeps the first of equal scores: generation order, as the play model ranks.
        cases.par_iter().filter(|(_, v)| !v.iter().min_by_key(|x| dot(&x.1, w)).is_some_and(|x| x.0)).count()
    };
    let (mut w, mut best) = (start, misses(&start));
    loop {
        let mut improved = false;
        for j in 0..N_FEATURES {
            for delta in [-16i8, -8, -4, -3, -2, -1, 1, 2, 3, 4, 8, 16] {
                let mut t = w;
                t[j] = t[j].saturating_add(delta);
                let n = misses(&t);
                if n < best {
                    (best, w, improved) = (n, t, true);
                }
            }
        }
        if !improved {
            return (w, best);
        }
    }
}
