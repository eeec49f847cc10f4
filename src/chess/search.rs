//! Players that look ahead on an evaluator: section 6's "White evaluating btm-positions" (the
//! pawn side's move chosen by the value of the position it leads to) and "Black evaluating
//! wtm-positions", with an optional q-ply search below the move (section 2: agents that win all
//! of Cp, combined with a q-ply search, win over Cp+q).
//!
//! An evaluator gives every legal position a value from the pawn side's point of view (higher is
//! better for the pawn side), computed once for all positions ([`Values`]). A move is valued by
//! plain minimax q plies below it: the pawn side maximises, the lone king minimises, and a position
//! q plies below the move takes the evaluator's value. The rules value what ends a game: a winning
//! promotion is worth [`WIN`] plus the plies of search left (a sooner win is better), a drawing one,
//! the pawn's capture and stalemate are worth [`DRAW`]; every evaluator value lies strictly
//! between them. Equal values go to the first move in generation order.

use crate::chess::index::KpkIndex;
use crate::chess::position::{After, KpkPosition, Move};
use crate::error::{Error, Result};
use kpk_probe::{Color, MAX_INDEX, Outcome};
use rayon::prelude::*;

/// The value of a winning promotion (plus the plies of search left when it happens).
pub const WIN: f64 = 1e12;
/// The value of a position the rules end in a draw.
pub const DRAW: f64 = -1e12;
/// Evaluator values must lie in ±LIMIT, far inside [`DRAW`]..[`WIN`].
pub const LIMIT: f64 = 1e9;

/// An evaluator's value of every legal position, by [`KpkIndex`], searched `depth` plies deep.
#[derive(Clone, Debug)]
pub struct Values {
    name: String,
    depth: u32,
    by_index: Vec<f64>,
}

impl Values {
    /// The values `f` gives every legal position (depth 0). Errors if one is not finite or
    /// outside ±[`LIMIT`].
    pub fn new(name: impl Into<String>, f: impl Fn(&KpkPosition) -> f64 + Sync) -> Result<Values> {
        let name = name.into();
        let by_index = by_index(|p| f(p));
        let legal = KpkPosition::all().map(|p| by_index[KpkIndex::of(&p).value()]);
        if let Some(v) = legal.into_iter().find(|v| !(v.is_finite() && v.abs() <= LIMIT)) {
            return Err(Error::Argument(format!("evaluator {name} gives {v}, outside ±{LIMIT}")));
        }
        Ok(Values { name, depth: 0, by_index })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Plies searched below a position.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The value of `p`.
    #[inline]
    pub fn of(&self, p: &KpkPosition) -> f64 {
        self.by_index[KpkIndex::of(p).value()]
    }

    /// The values one ply deeper: each position's best move by these values (the pawn side's
    /// largest, the lone king's smallest), computed for every position at once, so a q-ply search
    /// is q sweeps over the positions rather than a tree below every move.
    pub fn deepened(&self) -> Values {
        let by_index = by_index(|p| self.best(p).map_or(DRAW, |(_, v)| v));
        Values { name: self.name.clone(), depth: self.depth + 1, by_index }
    }

    /// The value of playing `mv` in `p`: the position it leads to, or the rules' value of what
    /// ends the game.
    #[inline]
    fn after(&self, p: &KpkPosition, mv: Move) -> f64 {
        match p.play(mv) {
            After::Position(s) => self.of(&s),
            After::PawnCaptured => DRAW,
            After::Promoted { outcome: Outcome::Win, .. } => WIN + f64::from(self.depth),
            After::Promoted { .. } => DRAW,
        }
    }

    /// The best move in `p` by these values and its value (`None`: no legal move): the pawn side's
    /// largest, the lone king's smallest, the first such move in generation order. With values
    /// [`Values::deepened`] q times, this is the move of a q-ply search below it.
    pub fn best(&self, p: &KpkPosition) -> Option<(Move, f64)> {
        let white = p.side() == Color::White;
        let mut best: Option<(Move, f64)> = None;
        for mv in p.moves() {
            let v = self.after(p, mv);
            if best.is_none_or(|(_, b)| (white && v > b) || (!white && v < b)) {
                best = Some((mv, v));
            }
        }
        best
    }
}

/// `f` over every legal position, by index (NaN elsewhere).
fn by_index(f: impl Fn(&KpkPosition) -> f64 + Sync) -> Vec<f64> {
    let all: Vec<KpkPosition> = KpkPosition::all().collect();
    let values: Vec<(usize, f64)> = all.par_iter().map(|p| (KpkIndex::of(p).value(), f(p))).collect();
    let mut by_index = vec![f64::NAN; MAX_INDEX];
    for (i, v) in values {
        by_index[i] = v;
    }
    by_index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;

    /// The bitbase as an evaluator: a win is worth more the smaller its DTC, a draw least.
    fn exact(bb: &Bitbase) -> Values {
        Values::new("exact", |p| bb.dtc(p).map_or(-100.0, |d| 100.0 - f64::from(d.0))).unwrap()
    }

    /// Minimax written as a tree search, the definition the sweeps must equal.
    fn tree(v: &Values, p: &KpkPosition, depth: u32) -> f64 {
        if depth == 0 {
            return v.of(p);
        }
        let values = p.moves().into_iter().map(|mv| match p.play(mv) {
            After::Position(s) => tree(v, &s, depth - 1),
            After::Promoted { outcome: Outcome::Win, .. } => WIN + f64::from(depth - 1),
            _ => DRAW,
        });
        let best = if p.side() == Color::White { values.reduce(f64::max) } else { values.reduce(f64::min) };
        best.unwrap_or(DRAW)
    }

    #[test]
    fn one_ply_on_the_exact_depth_plays_perfectly_on_every_position() {
        let bb = Bitbase::generate();
        let values = exact(&bb);
        for p in KpkPosition::all() {
            let Some((mv, _)) = values.best(&p) else {
                assert!(p.moves().is_empty());
                continue;
            };
            assert!(crate::play::is_perfect(&bb, &p, mv), "{} plays {mv:?}", p.to_fen());
        }
    }

    #[test]
    fn the_sweeps_equal_a_tree_search() {
        let bb = Bitbase::generate();
        // An evaluator that knows little: the pawn's rank and the kings' distance.
        let v0 =
            Values::new("race", |p| f64::from(p.wp().rank()) - f64::from(p.wk().distance(p.bk()))).unwrap();
        let v1 = v0.deepened();
        let v2 = v1.deepened();
        assert_eq!((v1.depth(), v2.depth()), (1, 2));
        for p in KpkPosition::all().step_by(11) {
            assert_eq!(v1.of(&p), tree(&v0, &p, 1), "{}", p.to_fen());
            assert_eq!(v2.of(&p), tree(&v0, &p, 2), "{}", p.to_fen());
        }
        // With the exact values, searching deeper keeps every result.
        let deep = exact(&bb).deepened().deepened();
        for p in KpkPosition::all() {
            let Some((mv, _)) = deep.best(&p) else { continue };
            let must = matches!(
                (p.side(), bb.outcome(&p)),
                (Color::White, Outcome::Win) | (Color::Black, Outcome::Draw)
            );
            assert!(
                !must || crate::play::after(&bb, &p, mv).0 == bb.outcome(&p),
                "{} plays {mv:?}",
                p.to_fen()
            );
        }
    }

    #[test]
    fn the_rules_value_what_ends_a_game() {
        let bb = Bitbase::generate();
        // A flat evaluator: only the rules tell moves apart.
        let mut flat = Values::new("flat", |_| 0.0).unwrap();
        let p = crate::chess::position::Oriented::from_fen("k7/2P5/8/8/8/8/8/K7 w - - 0 1").unwrap().position;
        for q in 0..3 {
            let (mv, v) = flat.best(&p).unwrap();
            assert!(mv.promotion.is_some() && v >= WIN, "q {q}: {mv:?} {v}");
            assert_eq!(crate::play::after(&bb, &p, mv).0, Outcome::Win);
            flat = flat.deepened();
        }
        assert!(Values::new("bad", |_| f64::NAN).is_err());
        assert!(Values::new("bad", |_| 2.0 * LIMIT).is_err());
    }
}
