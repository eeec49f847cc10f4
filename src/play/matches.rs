//! The match of section 6's question: a player against perfect play from every position of a
//! result. As the pawn side it starts from every won position (both sides to move) and must
//! convert; as the lone king it starts from every drawn position and must hold. A game ends as
//! [`super::game::play`] says, after at most [`MAX_PLIES`] plies; a converted game then goes on to
//! checkmate, both sides by DTM ([`super::mates`]), which changes none of the DTC measures.

use super::game::{End, Player, play};
use super::mates::Mating;
use crate::chess::bitbase::{Bitbase, MAX_DTC};
use crate::chess::position::{KpkPosition, Oriented};
use kpk_probe::{Outcome, Transform};
use rayon::prelude::*;

/// Most plies of a match game.
pub const MAX_PLIES: usize = 100;

/// One player's results as the pawn side, over the won positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnSide {
    /// Won positions by DTC (index = DTC), and how many of them the player converted.
    pub positions: Vec<usize>,
    pub converted: Vec<usize>,
    /// Sum and maximum of plies beyond DTC over the converted games.
    pub excess_sum: usize,
    pub excess_max: usize,
    /// Each won position's game, in the order of [`KpkPosition::all`]: its plies beyond DTC where
    /// the player converted, `None` where not (for comparisons over the games two players both
    /// converted).
    pub games: Vec<Option<u8>>,
    /// Converted games that went on to checkmate past the promotion.
    pub mated: usize,
    /// Over the mated games: plies to mate in all (KPK's plies and the line past the promotion)
    /// and the starts' DTM, summed; the games mated in exactly the start's DTM; and the fewest
    /// and most plies to mate beyond the start's DTM (negative: sooner).
    pub mate_plies_sum: usize,
    pub dtm_sum: usize,
    pub at_dtm: usize,
    pub beyond_dtm: Option<(i32, i32)>,
}

/// One pawn-side game as the record keeps it: the start's DTC, its plies beyond DTC if converted,
/// and if it went on to mate, its plies to mate and the start's DTM.
type PawnGame = (u8, Option<usize>, Option<(usize, usize)>);

impl PawnSide {
    pub fn total(&self) -> (usize, usize) {
        (self.positions.iter().sum(), self.converted.iter().sum())
    }

    /// The largest p such that the player converts every position with DTC ≤ p (section 2's Cp).
    pub fn largest_p(&self) -> usize {
        (1..self.positions.len()).take_while(|&d| self.converted[d] == self.positions[d]).last().unwrap_or(0)
    }
}

/// A game from `p` in its canonical orientation.
fn game_of<'a>(
    bb: &Bitbase,
    p: KpkPosition,
    pawn: &mut Player<'a>,
    lone: &mut Player<'a>,
) -> super::game::Game {
    let start = Oriented { position: p, transform: Transform::IDENTITY };
    play(bb, start, pawn, lone, MAX_PLIES)
}

/// `make(seed)` builds the player under test; the opponent plays perfectly.
pub fn pawn_side<'a>(
    bb: &'a Bitbase,
    mating: &Mating,
    make: &(dyn Fn(u64) -> Player<'a> + Sync),
) -> PawnSide {
    let won: Vec<KpkPosition> = KpkPosition::all().filter(|p| bb.dtc(p).is_some()).collect();
    let results: Vec<PawnGame> = won
        .par_iter()
        .map(|&p| {
            let dtc = bb.dtc(&p).expect("won").0;
            let seed = crate::chess::index::KpkIndex::of(&p).value() as u64;
            let (mut pawn, mut lone) = (make(seed), Player::Perfect(bb));
            let g = game_of(bb, p, &mut pawn, &mut lone);
            let excess = (g.end == End::Converted).then(|| g.plies.len() - usize::from(dtc));
            let to_mate = mating.after_game(&g).filter(|line| line.mated).map(|line| {
                let dtm = mating.tables.kpk_dtm(&p).plies as usize;
                (g.plies.len() + usize::from(line.plies), dtm)
            });
            (dtc, excess, to_mate)
        })
        .collect();
    tally(results)
}

/// The pawn side's games counted.
fn tally(results: Vec<PawnGame>) -> PawnSide {
    let n = usize::from(MAX_DTC) + 1;
    let mut s = PawnSide {
        positions: vec![0; n],
        converted: vec![0; n],
        excess_sum: 0,
        excess_max: 0,
        games: Vec::with_capacity(results.len()),
        mated: 0,
        mate_plies_sum: 0,
        dtm_sum: 0,
        at_dtm: 0,
        beyond_dtm: None,
    };
    for (d, excess, to_mate) in results {
        s.positions[usize::from(d)] += 1;
        if let Some(e) = excess {
            s.converted[usize::from(d)] += 1;
            s.excess_sum += e;
            s.excess_max = s.excess_max.max(e);
        }
        // A game lasts at most MAX_PLIES (100) plies, so its excess fits a byte.
        s.games.push(excess.map(|e| u8::try_from(e).expect("at most MAX_PLIES plies")));
        if let Some((plies, dtm)) = to_mate {
            s.mated += 1;
            s.mate_plies_sum += plies;
            s.dtm_sum += dtm;
            s.at_dtm += usize::from(plies == dtm);
            let beyond = plies as i32 - dtm as i32;
            s.beyond_dtm =
                Some(s.beyond_dtm.map_or((beyond, beyond), |(lo, hi)| (lo.min(beyond), hi.max(beyond))));
        }
    }
    s
}

/// As the lone king from every drawn position with a legal move: (positions, draws held, lost
/// games that went on to checkmate).
pub fn lone_king<'a>(
    bb: &'a Bitbase,
    mating: &Mating,
    make: &(dyn Fn(u64) -> Player<'a> + Sync),
) -> (usize, usize, usize) {
    let drawn: Vec<KpkPosition> =
        KpkPosition::all().filter(|p| bb.outcome(p) == Outcome::Draw && !p.moves().is_empty()).collect();
    let games: Vec<(bool, bool)> = drawn
        .par_iter()
        .map(|&p| {
            let seed = crate::chess::index::KpkIndex::of(&p).value() as u64;
            let (mut pawn, mut lone) = (Player::Perfect(bb), make(seed));
            let g = game_of(bb, p, &mut pawn, &mut lone);
            let mated = mating.after_game(&g).is_some_and(|line| line.mated);
            (g.outcome() != Some(Outcome::Win), mated)
        })
        .collect();
    let held = games.iter().filter(|g| g.0).count();
    (drawn.len(), held, games.iter().filter(|g| g.1).count())
}

/// One player's match against perfect play, from both sides.
#[derive(Clone, Debug)]
pub struct Record {
    /// The player's name in the report.
    pub name: String,
    /// Plies of search below the move, for players that search.
    pub q: Option<u32>,
    /// The replicate (training seed) of a trained evaluator or of the random mover; 0 otherwise.
    pub replicate: usize,
    pub pawn: PawnSide,
    /// Drawn positions with a legal move, and how many the player held as the lone king.
    pub drawn: usize,
    pub held: usize,
    /// The lone king's lost games (drawn starts the player let slip) that went on to checkmate.
    pub lost_mated: usize,
}

/// The match of the player `make` builds, from every won and every drawn position.
pub fn record<'a>(
    bb: &'a Bitbase,
    name: &str,
    (q, replicate): (Option<u32>, usize),
    mating: &Mating,
    make: &(dyn Fn(u64) -> Player<'a> + Sync),
) -> Record {
    let pawn = pawn_side(bb, mating, make);
    let (drawn, held, lost_mated) = lone_king(bb, mating, make);
    Record { name: name.to_string(), q, replicate, pawn, drawn, held, lost_mated }
}
