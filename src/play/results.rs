//! The match's pipeline and its analysis: train the evaluators, play every player against perfect
//! play ([`super::matches`]), and reduce the records to [`MatchResults`], every number
//! `reports/PLAY.md` and its figures show (committed as `reports/play.json`;
//! [`crate::report::play`] renders it and computes nothing).

use super::PlayModel;
use super::depth::{self, DepthAccuracy, DepthNets, DepthTarget, Tally};
use super::evaluators::{ladders, train_nn6};
use super::game::Player;
use super::matches::{MAX_PLIES, PawnSide, Record, record};
use super::search::Values;
use crate::chess::bitbase::Bitbase;
use crate::dataset::Side;
use crate::error::Result;
use crate::experiment::Trial;
use serde::{Deserialize, Serialize};

/// Bands of DTC, in plies, for the table of wins won by DTC.
pub const DTC_BANDS: [(usize, usize); 6] = [(1, 6), (7, 12), (13, 18), (19, 24), (25, 30), (31, 38)];

/// Every number of the match report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResults {
    /// Won positions (both sides to move) and drawn positions with a legal move.
    pub won: usize,
    pub drawn: usize,
    /// Most plies of a match game.
    pub max_plies: usize,
    /// The play model's size in bytes.
    pub model_bytes: usize,
    /// How NN6 trained: wtm (on T3) then btm (on every btm position).
    pub nn6: [Nn6Training; 2],
    pub depth_setup: DepthSetup,
    /// Every player, in the order they played.
    pub players: Vec<PlayerResult>,
    /// The bands of DTC and their won positions.
    pub bands: Vec<Band>,
    /// The depth nets' targets, and their accuracy per target by side to move.
    pub depth_targets: Vec<String>,
    pub depth_by_side: Vec<DepthSide>,
    /// The depth nets' accuracy by DTC: one row per DTC, one cell per target.
    pub depth_by_dtc: Vec<DepthDtc>,
    /// Section 2's claim on Cp and a q-ply search.
    pub cp: CpClaim,
}

/// One NN6 net's training: its training accuracy (%) and epochs run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Nn6Training {
    pub accuracy_pct: f64,
    pub epochs: usize,
}

/// How the depth nets train (the constants of [`super::depth`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthSetup {
    pub topology: Vec<usize>,
    pub optimiser: String,
    pub epochs: usize,
    pub seed: u64,
}

/// What a player is: the control, the model file, the random result-keeping mover, or an
/// evaluator with a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Perfect,
    Model,
    Random,
    Evaluator,
}

/// One player's match against perfect play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerResult {
    pub name: String,
    pub kind: PlayerKind,
    /// Plies of search below the move, for evaluators.
    pub q: Option<u32>,
    /// As the pawn side: won positions, those converted, their %.
    pub won: usize,
    pub converted: usize,
    pub converted_pct: Option<f64>,
    /// Plies beyond DTC over the converted games: mean and maximum.
    pub excess_mean: f64,
    pub excess_max: usize,
    /// The largest p with every position of Cp converted.
    pub largest_p: usize,
    /// As the lone king: drawn positions with a legal move, those held, their %.
    pub drawn: usize,
    pub held: usize,
    pub held_pct: Option<f64>,
    /// Won positions and conversions by DTC (the DTCs that have positions).
    pub by_dtc: Vec<DtcCount>,
    /// % converted in each band of DTC ([`MatchResults::bands`]).
    pub by_band: Vec<Option<f64>>,
}

/// Won positions of one DTC and how many a player converted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DtcCount {
    pub dtc: usize,
    pub positions: usize,
    pub converted: usize,
    pub pct: Option<f64>,
}

/// A band of DTC, in plies, and its won positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub lo: usize,
    pub hi: usize,
    pub positions: usize,
}

/// A depth net pair's accuracy on one side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthSide {
    pub target: String,
    pub side: Side,
    pub positions: usize,
    pub exact_pct: Option<f64>,
    pub within1_pct: Option<f64>,
    pub within2_pct: Option<f64>,
}

/// The won positions of one DTC and each target's % exact and within ±2 plies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthDtc {
    pub dtc: usize,
    pub positions: usize,
    pub cells: Vec<(Option<f64>, Option<f64>)>,
}

/// Section 2's claim: the largest p with all of Cp won, by evaluator and q, and for which
/// evaluators p grows by q.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpClaim {
    /// The depths of search played, and those above 0.
    pub qs: Vec<u32>,
    pub searched: Vec<u32>,
    /// Per evaluator, its p at each of `qs` (`None`: not played).
    pub rows: Vec<CpRow>,
    /// Evaluators for which the claim holds, those where it fails (and where), those without a
    /// game at q = 0.
    pub holds: Vec<String>,
    pub fails: Vec<CpFailure>,
    pub untested: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpRow {
    pub name: String,
    pub p: Vec<Option<usize>>,
}

/// An evaluator whose p falls short of p at q = 0 plus q: each (p, q, the p needed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpFailure {
    pub name: String,
    pub short: Vec<CpShort>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpShort {
    pub p: usize,
    pub q: u32,
    pub need: usize,
}

fn pct(a: usize, b: usize) -> Option<f64> {
    (b != 0).then(|| 100.0 * a as f64 / b as f64)
}

/// Train the evaluators and play the match: NN6 from `nn6` (trial 38's config), the depth nets,
/// the play model's hybrid, each searched up to `max_q` plies. `progress` hears each step.
pub fn run_match(
    model: &PlayModel,
    nn6: &Trial,
    max_q: u32,
    bb: &Bitbase,
    progress: &dyn Fn(&str),
) -> Result<MatchResults> {
    progress("training NN6 for wtm and btm");
    let nets = train_nn6(nn6, bb)?;
    progress("training the depth nets");
    let (log, linear) =
        rayon::join(|| DepthNets::train(bb, DepthTarget::Log), || DepthNets::train(bb, DepthTarget::Linear));
    let depth = [log?, linear?];
    let accuracy: Vec<_> = depth.iter().map(|d| (d.target, d.accuracy(bb))).collect();
    let ladders = ladders(&nets, model.hybrid(), &depth, max_q)?;
    let records = play_all(bb, model, &ladders, progress);
    let nn6 = [0, 1].map(|s| Nn6Training { accuracy_pct: nets.accuracy_pct[s], epochs: nets.epochs[s] });
    Ok(analyse(&records, &accuracy, model.to_bytes().len(), nn6))
}

/// The match of every player against perfect play: perfect, the play model, a random
/// result-keeping move, then each evaluator of `ladders` at each depth of search.
pub fn play_all(
    bb: &Bitbase,
    model: &PlayModel,
    ladders: &[Vec<Values>],
    progress: &dyn Fn(&str),
) -> Vec<(PlayerKind, Record)> {
    let mut records = Vec::new();
    type Make<'a> = Box<dyn Fn(u64) -> Player<'a> + Sync + 'a>;
    let fixed: Vec<(PlayerKind, &str, Make)> = vec![
        (PlayerKind::Perfect, "perfect", Box::new(|_| Player::Perfect(bb))),
        (PlayerKind::Model, "model", Box::new(|_| Player::Model(model))),
        (PlayerKind::Random, "random", Box::new(|seed| Player::random(bb, seed))),
    ];
    for (kind, name, make) in &fixed {
        progress(&format!("match: {name}"));
        records.push((*kind, record(bb, name, None, make.as_ref())));
    }
    for values in ladders.iter().flatten() {
        progress(&format!("match: {}, q = {}", values.name(), values.depth()));
        let r = record(bb, values.name(), Some(values.depth()), &|_| Player::Search(values));
        records.push((PlayerKind::Evaluator, r));
    }
    records
}

fn in_band(v: &[usize], (lo, hi): (usize, usize)) -> usize {
    v.iter().take(hi + 1).skip(lo).sum()
}

fn player(kind: PlayerKind, r: &Record) -> PlayerResult {
    let p: &PawnSide = &r.pawn;
    let (won, converted) = p.total();
    let by_dtc = (1..p.positions.len())
        .filter(|&d| p.positions[d] > 0)
        .map(|d| DtcCount {
            dtc: d,
            positions: p.positions[d],
            converted: p.converted[d],
            pct: pct(p.converted[d], p.positions[d]),
        })
        .collect();
    PlayerResult {
        name: r.name.clone(),
        kind,
        q: r.q,
        won,
        converted,
        converted_pct: pct(converted, won),
        excess_mean: if converted == 0 { 0.0 } else { p.excess_sum as f64 / converted as f64 },
        excess_max: p.excess_max,
        largest_p: p.largest_p(),
        drawn: r.drawn,
        held: r.held,
        held_pct: pct(r.held, r.drawn),
        by_dtc,
        by_band: DTC_BANDS.iter().map(|&b| pct(in_band(&p.converted, b), in_band(&p.positions, b))).collect(),
    }
}

/// The depth nets' tables: by side, then by DTC.
fn depth_tables(depth: &[(DepthTarget, DepthAccuracy)]) -> (Vec<DepthSide>, Vec<DepthDtc>) {
    let row = |t: DepthTarget, side, s: &Tally| DepthSide {
        target: t.name().to_string(),
        side,
        positions: s.positions,
        exact_pct: pct(s.exact, s.positions),
        within1_pct: pct(s.within1, s.positions),
        within2_pct: pct(s.within2, s.positions),
    };
    let by_side = depth
        .iter()
        .flat_map(|(t, a)| [Side::Wtm, Side::Btm].into_iter().zip(&a.by_side).map(|(c, s)| row(*t, c, s)))
        .collect();
    let rows = depth.first().map_or(0, |(_, a)| a.by_dtc.len());
    let by_dtc = (1..rows)
        .map(|d| {
            let n = depth[0].1.by_dtc[d].positions;
            let cells =
                depth.iter().map(|(_, a)| (pct(a.by_dtc[d].exact, n), pct(a.by_dtc[d].within2, n))).collect();
            DepthDtc { dtc: d, positions: n, cells }
        })
        .collect();
    (by_side, by_dtc)
}

/// Section 2's claim, from the largest p with all of Cp won: it holds for an evaluator whose p at
/// every q searched is at least its p at q = 0 plus q (or the longest win, `longest` plies, where
/// that is less).
fn cp_claim(records: &[&Record]) -> CpClaim {
    let mut names: Vec<&str> = Vec::new();
    for r in records.iter().filter(|r| r.q.is_some()) {
        if !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    let mut qs: Vec<u32> = records.iter().filter_map(|r| r.q).collect();
    qs.sort_unstable();
    qs.dedup();
    let p_of = |name: &str, q: u32| {
        records.iter().find(|r| r.name == name && r.q == Some(q)).map(|r| r.pawn.largest_p())
    };
    // The longest win: largest_p's ceiling, reached by a player that converts every win.
    let longest = records.first().map_or(0, |r| r.pawn.positions.len().saturating_sub(1));
    cp_verdict(&names, &qs, longest, &p_of)
}

fn cp_verdict(
    names: &[&str],
    qs: &[u32],
    longest: usize,
    p_of: &dyn Fn(&str, u32) -> Option<usize>,
) -> CpClaim {
    let (mut holds, mut fails, mut untested) = (Vec::new(), Vec::new(), Vec::new());
    for name in names {
        let Some(p0) = p_of(name, 0) else {
            untested.push(name.to_string());
            continue;
        };
        let short: Vec<CpShort> = qs
            .iter()
            .filter(|&&q| q > 0)
            .filter_map(|&q| {
                let need = (p0 + q as usize).min(longest);
                let p = p_of(name, q)?;
                (p < need).then_some(CpShort { p, q, need })
            })
            .collect();
        if short.is_empty() {
            holds.push(name.to_string());
        } else {
            fails.push(CpFailure { name: name.to_string(), short });
        }
    }
    CpClaim {
        qs: qs.to_vec(),
        searched: qs.iter().copied().filter(|&q| q > 0).collect(),
        rows: names
            .iter()
            .map(|n| CpRow { name: n.to_string(), p: qs.iter().map(|&q| p_of(n, q)).collect() })
            .collect(),
        holds,
        fails,
        untested,
    }
}

/// Every number of the report from the match's records, the depth nets' accuracy, the play
/// model's size and NN6's training.
pub fn analyse(
    played: &[(PlayerKind, Record)],
    depth: &[(DepthTarget, DepthAccuracy)],
    model_bytes: usize,
    nn6: [Nn6Training; 2],
) -> MatchResults {
    let (depth_by_side, depth_by_dtc) = depth_tables(depth);
    let records: Vec<&Record> = played.iter().map(|(_, r)| r).collect();
    let first = records.first();
    MatchResults {
        won: first.map_or(0, |r| r.pawn.total().0),
        drawn: first.map_or(0, |r| r.drawn),
        max_plies: MAX_PLIES,
        model_bytes,
        nn6,
        depth_setup: DepthSetup {
            topology: depth::TOPOLOGY.to_vec(),
            optimiser: depth::optimiser().describe(),
            epochs: depth::EPOCHS,
            seed: depth::SEED,
        },
        players: played.iter().map(|(k, r)| player(*k, r)).collect(),
        bands: DTC_BANDS
            .iter()
            .map(|&(lo, hi)| Band {
                lo,
                hi,
                positions: first.map_or(0, |r| in_band(&r.pawn.positions, (lo, hi))),
            })
            .collect(),
        depth_targets: depth.iter().map(|(t, _)| t.name().to_string()).collect(),
        depth_by_side,
        depth_by_dtc,
        cp: cp_claim(&records),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The claim from a table of (name, p at q = 0, 1, 2, 3).
    fn claim(table: &[(&str, [usize; 4])], longest: usize) -> CpClaim {
        let names: Vec<&str> = table.iter().map(|t| t.0).collect();
        let p_of = |name: &str, q: u32| table.iter().find(|t| t.0 == name).map(|t| t.1[q as usize]);
        cp_verdict(&names, &[0, 1, 2, 3], longest, &p_of)
    }

    #[test]
    fn the_dtc_bands_cover_every_win_once() {
        let covered: usize = DTC_BANDS.iter().map(|&(lo, hi)| hi + 1 - lo).sum();
        assert_eq!(covered, 38, "DTC 1..=38, each in one band");
        assert!(DTC_BANDS.windows(2).all(|w| w[1].0 == w[0].1 + 1));
        let r = player(PlayerKind::Evaluator, &made_up("x", Some(1), 5, 0));
        assert_eq!(r.by_band[0], Some(100.0));
        assert_eq!(r.by_band[1], None, "no positions in the band");
    }

    #[test]
    fn the_claim_asks_for_p_to_grow_by_q_at_every_q() {
        let c = claim(&[("a", [2, 2, 4, 4]), ("b", [2, 4, 6, 6]), ("c", [2, 4, 6, 8])], 38);
        assert_eq!(c.holds, ["b", "c"]);
        assert_eq!(c.fails.len(), 1);
        assert_eq!(c.fails[0].short, [CpShort { p: 2, q: 1, need: 3 }, CpShort { p: 4, q: 3, need: 5 }]);
        assert_eq!(c.searched, [1, 2, 3]);
        assert!(claim(&[("a", [2, 2, 2, 2])], 38).holds.is_empty());
    }

    #[test]
    fn the_claim_caps_p_plus_q_at_the_longest_win() {
        assert_eq!(claim(&[("a", [37, 38, 38, 38])], 38).holds, ["a"]);
        let c = claim(&[("a", [37, 38, 38, 37])], 38);
        assert_eq!(c.fails[0].short, [CpShort { p: 37, q: 3, need: 38 }]);
    }

    /// A record of a player that converts the wins of DTC 1..=`p` (of 1..=3), and no other.
    pub(crate) fn made_up(name: &str, q: Option<u32>, p: usize, excess: usize) -> Record {
        let positions = vec![0, 10, 10, 10];
        let converted = (0..4).map(|d| if (1..=p).contains(&d) { 10 } else { 0 }).collect();
        let pawn = PawnSide { positions, converted, excess_sum: excess, excess_max: excess };
        Record { name: name.into(), q, pawn, drawn: 5, held: 5 }
    }

    #[test]
    fn the_results_read_back_from_json_as_written() {
        let records = [
            (PlayerKind::Perfect, made_up("perfect", None, 3, 0)),
            (PlayerKind::Evaluator, made_up("e", Some(0), 1, 4)),
            (PlayerKind::Evaluator, made_up("e", Some(1), 2, 2)),
        ];
        let nn6 = [Nn6Training { accuracy_pct: 99.5, epochs: 3 }; 2];
        let r = analyse(&records, &[], 100, nn6);
        assert_eq!(r.players[0].kind, PlayerKind::Perfect);
        assert_eq!(r.cp.holds, ["e"]);
        let back: MatchResults = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }
}
