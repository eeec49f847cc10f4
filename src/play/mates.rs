//! The match's games past a winning promotion, to checkmate: section 7's fifth objective for White,
//! "mate the black King after the endgame conversion to KQK or KRK". Past the promotion both
//! sides play DTM-optimal moves from the KQK and KRK tables ([`super::mating::mate_from`], the
//! rule of `kpk play` and `kpk uci`), whoever played KPK, so the line from a promotion is the
//! same in every game that reaches it: it is played once per winning promotion and looked up.

use super::game::{End, Game};
use super::mating::mate_from;
use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::index::KpkIndex;
use crate::chess::position::{After, KpkPosition, Move, Oriented, Promotion};
use kpk_probe::{Color, Outcome, Transform};
use rayon::prelude::*;
use std::collections::HashMap;

/// The longest line played past a promotion: well beyond the longest mate of KQK or KRK (KRK's,
/// 16 moves, is 31 plies), so that a line stopped by it would show as a game not mated.
pub const MAX_MATE_PLIES: usize = 100;

/// The line from one winning promotion: plies from the position after it to checkmate, and
/// whether it ended in checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateLine {
    pub plies: u8,
    pub mated: bool,
}

/// Every winning promotion's line to mate, in the canonical orientation the match plays in.
pub struct MateLines {
    lines: HashMap<(usize, Promotion), MateLine>,
}

/// What the match plays on to mate with: the DTM tables (the start's DTM) and every winning
/// promotion's line.
pub struct Mating {
    pub tables: Tables,
    pub lines: MateLines,
}

impl Mating {
    pub fn generate(bb: &Bitbase) -> Mating {
        let tables = Tables::generate();
        let lines = MateLines::generate(bb, &tables);
        Mating { tables, lines }
    }

    /// The line past a converted game's promotion (`None` for a game not converted).
    pub fn after_game(&self, game: &Game) -> Option<MateLine> {
        let last = game.plies.last().filter(|_| game.end == End::Converted)?;
        self.lines.after(&last.before, last.mv)
    }
}

/// The winning promotions of a position with White to move and the pawn on the seventh rank.
fn winning_promotions(p: &KpkPosition) -> Vec<Move> {
    let seventh = p.side() == Color::White && p.wp().rank() == 6;
    let wins = |mv: &Move| matches!(p.play(*mv), After::Promoted { outcome: Outcome::Win, .. });
    if seventh {
        p.moves().into_iter().filter(|mv| mv.promotion.is_some() && wins(mv)).collect()
    } else {
        Vec::new()
    }
}

/// The line from the promotion `mv` in `p`, played on the board.
fn line(tables: &Tables, p: &KpkPosition, mv: Move) -> MateLine {
    let o = Oriented { position: *p, transform: Transform::IDENTITY };
    let mut board: cozy_chess::Board = o.to_fen().parse().expect("a legal board");
    let promotion: cozy_chess::Move = super::uci(&o, mv).parse().expect("a move in UCI");
    board.play_unchecked(promotion);
    let (plies, mated) = mate_from(tables, board, MAX_MATE_PLIES);
    MateLine { plies: u8::try_from(plies.len()).expect("at most MAX_MATE_PLIES"), mated }
}

impl MateLines {
    /// Play the line from every winning promotion of KPK (`bb` says which win).
    pub fn generate(bb: &Bitbase, tables: &Tables) -> MateLines {
        let sources: Vec<KpkPosition> =
            KpkPosition::all().filter(|p| bb.dtc(p).is_some_and(|d| d.0 == 1)).collect();
        let lines = sources
            .par_iter()
            .flat_map_iter(|p| {
                let index = KpkIndex::of(p).value();
                winning_promotions(p).into_iter().map(move |mv| (index, *p, mv))
            })
            .map(|(index, p, mv)| ((index, mv.promotion.expect("a promotion")), line(tables, &p, mv)))
            .collect();
        MateLines { lines }
    }

    /// The line after the winning promotion `mv` in `p` (`None` for any other move).
    pub fn after(&self, p: &KpkPosition, mv: Move) -> Option<MateLine> {
        self.lines.get(&(KpkIndex::of(p).value(), mv.promotion?)).copied()
    }

    /// How many winning promotions there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::game::{Player, play};
    use crate::play::mating::mate;

    /// A converted game's line in the table is the one `kpk play` plays on from its promotion.
    #[test]
    fn lines_are_what_kpk_play_plays_past_the_promotion() {
        let (bb, tables) = (Bitbase::generate(), Tables::generate());
        let lines = MateLines::generate(&bb, &tables);
        assert!(lines.len() > 10_000, "{}", lines.len());
        let won: Vec<KpkPosition> = KpkPosition::all().filter(|p| bb.dtc(p).is_some()).collect();
        for p in won.iter().step_by(997) {
            let start = Oriented { position: *p, transform: Transform::IDENTITY };
            let game = play(&bb, start, &mut Player::Perfect(&bb), &mut Player::Perfect(&bb), 100);
            assert_eq!(game.end, End::Converted);
            let last = game.plies.last().expect("a ply");
            let looked_up = lines.after(&last.before, last.mv).expect("a winning promotion");
            let played = mate(&tables, game, 1000);
            assert!(played.mated && looked_up.mated);
            assert_eq!(usize::from(looked_up.plies), played.mating.len());
        }
    }
}
