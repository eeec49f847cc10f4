//! The match's records reduced to [`MatchResults`]: each player's seeds pooled into a mean and a
//! 95% t-interval over seeds (the seed the unit: [`crate::stats::Interval`]), plies beyond DTC
//! compared only over the games both players converted, and section 2's Cp + q claim per seed.

use super::depth::{DepthAccuracy, DepthTarget, Tally};
use super::matches::{MAX_PLIES, Record};
use super::results::{
    Band, CpClaim, CpRow, CpShort, DepthDtc, DepthSetup, DepthSide, DtcCount, ExcessPair, HybridTraining,
    MatchResults, MateSummary, Nn6Training, PlayerKind, PlayerResult, SeedOutcome, ToMate,
};
use crate::dataset::Side;
use crate::stats::Interval;

/// Bands of DTC, in plies, for the table of wins won by DTC.
pub const DTC_BANDS: [(usize, usize); 6] = [(1, 6), (7, 12), (13, 18), (19, 24), (25, 30), (31, 38)];

/// The player every other evaluator's plies beyond DTC are compared with: the paper's net.
pub const EXCESS_REFERENCE: &str = super::evaluators::NN6_NAME;

/// Every game of the match: the players' records (a record per seed) and the Cp oracles', which
/// play the pawn side only.
pub struct Played {
    pub records: Vec<(PlayerKind, Record)>,
    pub oracles: Vec<Record>,
}

fn pct(a: usize, b: usize) -> Option<f64> {
    (b != 0).then(|| 100.0 * a as f64 / b as f64)
}

/// The mean and 95% interval over seeds of percentages (a zero-width interval for one seed).
fn over_seeds(values: &[f64]) -> Interval {
    Interval::of_mean_pct(values).unwrap_or(Interval { mean: 0.0, lo: 0.0, hi: 0.0, n: 0 })
}

fn in_band(v: &[usize], (lo, hi): (usize, usize)) -> usize {
    v.iter().take(hi + 1).skip(lo).sum()
}

/// The records grouped by player and q, in the order first played, each with its kind.
pub fn groups<'r>(
    records: impl Iterator<Item = (PlayerKind, &'r Record)>,
) -> Vec<(PlayerKind, Vec<&'r Record>)> {
    let mut out: Vec<(PlayerKind, Vec<&Record>)> = Vec::new();
    for (kind, r) in records {
        match out.iter_mut().find(|(_, g)| g[0].name == r.name && g[0].q == r.q) {
            Some((_, g)) => g.push(r),
            None => out.push((kind, vec![r])),
        }
    }
    out
}

/// One player's seeds pooled.
fn player(kind: PlayerKind, seeds: &[&Record]) -> PlayerResult {
    let first = seeds[0];
    let won = first.pawn.total().0;
    let per_seed =
        |f: &dyn Fn(&Record) -> Option<f64>| -> Vec<f64> { seeds.iter().filter_map(|r| f(r)).collect() };
    let mean = |xs: &[f64]| if xs.is_empty() { None } else { Some(crate::stats::mean(xs)) };
    let converted: Vec<f64> = seeds.iter().map(|r| r.pawn.total().1 as f64).collect();
    let (excess_sum, converted_sum) =
        seeds.iter().fold((0, 0), |(e, c), r| (e + r.pawn.excess_sum, c + r.pawn.total().1));
    let by_dtc = (1..first.pawn.positions.len())
        .filter(|&d| first.pawn.positions[d] > 0)
        .map(|d| DtcCount {
            dtc: d,
            positions: first.pawn.positions[d],
            pct: over_seeds(&per_seed(&|r| pct(r.pawn.converted[d], r.pawn.positions[d]))),
        })
        .collect();
    let by_band = DTC_BANDS
        .iter()
        .map(|&b| mean(&per_seed(&|r| pct(in_band(&r.pawn.converted, b), in_band(&r.pawn.positions, b)))))
        .collect();
    PlayerResult {
        name: first.name.clone(),
        kind,
        q: first.q,
        seeds: seeds.len(),
        won,
        converted: crate::stats::mean(&converted),
        wins_won: over_seeds(&per_seed(&|r| pct(r.pawn.total().1, won))),
        excess_mean: if converted_sum == 0 { 0.0 } else { excess_sum as f64 / converted_sum as f64 },
        excess_max: seeds.iter().map(|r| r.pawn.excess_max).max().unwrap_or(0),
        largest_p: seeds.iter().map(|r| r.pawn.largest_p()).collect(),
        drawn: first.drawn,
        held: crate::stats::mean(&seeds.iter().map(|r| r.held as f64).collect::<Vec<_>>()),
        draws_held: over_seeds(&per_seed(&|r| pct(r.held, r.drawn))),
        by_dtc,
        by_band,
        mated: crate::stats::mean(&seeds.iter().map(|r| r.pawn.mated as f64).collect::<Vec<_>>()),
        to_mate: to_mate(seeds),
        lost: crate::stats::mean(&seeds.iter().map(|r| (r.drawn - r.held) as f64).collect::<Vec<_>>()),
        lost_mated: crate::stats::mean(&seeds.iter().map(|r| r.lost_mated as f64).collect::<Vec<_>>()),
        per_seed: seeds
            .iter()
            .map(|r| SeedOutcome {
                seed: r.replicate,
                converted: r.pawn.total().1,
                excess_sum: r.pawn.excess_sum,
                held: r.held,
                largest_p: r.pawn.largest_p(),
                mated: r.pawn.mated,
                mate_plies_sum: r.pawn.mate_plies_sum,
                dtm_sum: r.pawn.dtm_sum,
                lost_mated: r.lost_mated,
            })
            .collect(),
    }
}

/// Plies to mate against the starts' DTM over every seed's mated games (`None`: none mated).
fn to_mate(seeds: &[&Record]) -> Option<ToMate> {
    let sum = |f: fn(&Record) -> usize| seeds.iter().map(|r| f(r)).sum::<usize>() as f64;
    let mated = sum(|r| r.pawn.mated);
    let ranges: Vec<(i32, i32)> = seeds.iter().filter_map(|r| r.pawn.beyond_dtm).collect();
    (mated > 0.0).then(|| ToMate {
        plies_mean: sum(|r| r.pawn.mate_plies_sum) / mated,
        dtm_mean: sum(|r| r.pawn.dtm_sum) / mated,
        beyond_mean: (sum(|r| r.pawn.mate_plies_sum) - sum(|r| r.pawn.dtm_sum)) / mated,
        at_dtm_pct: 100.0 * sum(|r| r.pawn.at_dtm) / mated,
        beyond_min: ranges.iter().map(|r| r.0).min().unwrap_or(0),
        beyond_max: ranges.iter().map(|r| r.1).max().unwrap_or(0),
    })
}

/// The games won by a promotion, over every record (the Cp oracles' too), and those mated.
fn mate_summary(played: &Played) -> MateSummary {
    let all = || played.records.iter().map(|(_, r)| r).chain(&played.oracles);
    MateSummary {
        converted: all().map(|r| r.pawn.total().1).sum(),
        converted_mated: all().map(|r| r.pawn.mated).sum(),
        lost: all().map(|r| r.drawn - r.held).sum(),
        lost_mated: all().map(|r| r.lost_mated).sum(),
    }
}

/// Plies beyond DTC of `a` and `b` over the games both converted: (games, mean of a, mean of b).
fn common_excess(a: &Record, b: &Record) -> Option<(usize, f64, f64)> {
    let both: Vec<(f64, f64)> = a
        .pawn
        .games
        .iter()
        .zip(&b.pawn.games)
        .filter_map(|(x, y)| Some((f64::from((*x)?), f64::from((*y)?))))
        .collect();
    let n = both.len();
    (n > 0).then(|| {
        let sum = both.iter().fold((0.0, 0.0), |s, (x, y)| (s.0 + x, s.1 + y));
        (n, sum.0 / n as f64, sum.1 / n as f64)
    })
}

/// Each evaluator's plies beyond DTC against [`EXCESS_REFERENCE`]'s at the same q, over the games
/// both converted: seed r against seed r, or a one-seed player against each reference seed.
fn excess_pairs(groups: &[(PlayerKind, Vec<&Record>)]) -> Vec<ExcessPair> {
    let reference = |q| groups.iter().find(|(_, g)| g[0].name == EXCESS_REFERENCE && g[0].q == Some(q));
    groups
        .iter()
        .filter(|(_, g)| g[0].name != EXCESS_REFERENCE)
        .filter_map(|(_, g)| {
            let q = g[0].q?;
            let (_, refs) = reference(q)?;
            let pairs: Vec<(usize, f64, f64)> = refs
                .iter()
                .enumerate()
                .filter_map(|(r, b)| common_excess(if g.len() == 1 { g[0] } else { g.get(r)? }, b))
                .collect();
            let column = |f: &dyn Fn(&(usize, f64, f64)) -> f64| pairs.iter().map(f).collect::<Vec<f64>>();
            let difference = Interval::of_mean(&column(&|p| p.1 - p.2))?;
            Some(ExcessPair {
                player: g[0].name.clone(),
                reference: EXCESS_REFERENCE.to_string(),
                q,
                games: crate::stats::mean(&column(&|p| p.0 as f64)),
                player_mean: crate::stats::mean(&column(&|p| p.1)),
                reference_mean: crate::stats::mean(&column(&|p| p.2)),
                difference,
            })
        })
        .collect()
}

/// The depth nets' tables over seeds: by side, then by DTC (means).
fn depth_tables(depth: &[(DepthTarget, Vec<DepthAccuracy>)]) -> (Vec<DepthSide>, Vec<DepthDtc>) {
    let share = |runs: &[DepthAccuracy], f: &dyn Fn(&DepthAccuracy) -> (usize, usize)| {
        over_seeds(&runs.iter().filter_map(|a| pct(f(a).0, f(a).1)).collect::<Vec<_>>())
    };
    let mut by_side = Vec::new();
    for (t, runs) in depth {
        for (s, side) in [Side::Wtm, Side::Btm].into_iter().enumerate() {
            let of = |f: fn(&Tally) -> usize| share(runs, &|a| (f(&a.by_side[s]), a.by_side[s].positions));
            by_side.push(DepthSide {
                target: t.name().to_string(),
                side,
                positions: runs.first().map_or(0, |a| a.by_side[s].positions),
                exact: of(|t| t.exact),
                within1: of(|t| t.within1),
                within2: of(|t| t.within2),
            });
        }
    }
    let rows = depth.first().and_then(|(_, r)| r.first()).map_or(0, |a| a.by_dtc.len());
    let by_dtc = (1..rows)
        .map(|d| {
            let n = depth[0].1[0].by_dtc[d].positions;
            let mean = |runs: &[DepthAccuracy], f: fn(&Tally) -> usize| {
                let xs: Vec<f64> = runs.iter().filter_map(|a| pct(f(&a.by_dtc[d]), n)).collect();
                (!xs.is_empty()).then(|| crate::stats::mean(&xs))
            };
            let cells =
                depth.iter().map(|(_, runs)| (mean(runs, |t| t.exact), mean(runs, |t| t.within2))).collect();
            DepthDtc { dtc: d, positions: n, cells }
        })
        .collect();
    (by_side, by_dtc)
}

/// Section 2's claim per evaluator and seed: it holds in a seed where p at every q searched is at
/// least p at q = 0 plus q (or `longest`, the longest win, where that is less).
pub fn cp_claim(groups: &[(PlayerKind, Vec<&Record>)], longest: usize) -> CpClaim {
    let searched = |(_, g): &&(PlayerKind, Vec<&Record>)| g[0].q.is_some();
    let mut qs: Vec<u32> = groups.iter().filter_map(|(_, g)| g[0].q).collect();
    qs.sort_unstable();
    qs.dedup();
    let mut rows: Vec<CpRow> = Vec::new();
    for (kind, g) in groups.iter().filter(searched) {
        let p: Vec<usize> = g.iter().map(|r| r.pawn.largest_p()).collect();
        let i = qs.iter().position(|&q| Some(q) == g[0].q).expect("q listed");
        match rows.iter_mut().find(|row| row.name == g[0].name) {
            Some(row) => row.p[i] = p,
            None => {
                let mut row = CpRow {
                    name: g[0].name.clone(),
                    applies: kind.knows_depth(),
                    seeds: g.len(),
                    p: vec![Vec::new(); qs.len()],
                    p_mean: vec![None; qs.len()],
                    holds_in: 0,
                    short: Vec::new(),
                };
                row.p[i] = p;
                rows.push(row);
            }
        }
    }
    for row in &mut rows {
        row.p_mean = row
            .p
            .iter()
            .map(|ps| Interval::of_mean(&ps.iter().map(|&p| p as f64).collect::<Vec<_>>()))
            .collect();
        cp_verdict(row, &qs, longest);
    }
    CpClaim { searched: qs.iter().copied().filter(|&q| q > 0).collect(), qs, longest, rows }
}

/// Fill `row`'s seeds where the claim holds and where it falls short.
fn cp_verdict(row: &mut CpRow, qs: &[u32], longest: usize) {
    let Some(zero) = qs.iter().position(|&q| q == 0) else { return };
    for seed in 0..row.seeds {
        let Some(&p0) = row.p[zero].get(seed) else { continue };
        let short: Vec<CpShort> = qs
            .iter()
            .zip(&row.p)
            .filter(|(q, _)| **q > 0)
            .filter_map(|(&q, ps)| {
                let need = (p0 + q as usize).min(longest);
                let p = *ps.get(seed)?;
                (p < need).then_some(CpShort { seed, p, q, need })
            })
            .collect();
        row.holds_in += usize::from(short.is_empty());
        row.short.extend(short);
    }
}

/// Every number of the report from the match's games, the depth nets' accuracy per seed, the
/// play model's size, NN6's and the hybrids' training and the depth nets' setup.
pub fn analyse(
    played: &Played,
    depth: &[(DepthTarget, Vec<DepthAccuracy>)],
    model_bytes: usize,
    nn6: [Nn6Training; 2],
    hybrid: HybridTraining,
    depth_setup: DepthSetup,
) -> MatchResults {
    let (depth_by_side, depth_by_dtc) = depth_tables(depth);
    let grouped = groups(played.records.iter().map(|(k, r)| (*k, r)));
    let first = played.records.first().map(|(_, r)| r);
    // The longest win: largest_p's ceiling, reached by a player that converts every win.
    let longest = first.map_or(0, |r| r.pawn.positions.len().saturating_sub(1));
    let mut with_oracles = grouped.clone();
    with_oracles.extend(groups(played.oracles.iter().map(|r| (PlayerKind::Oracle, r))));
    MatchResults {
        won: first.map_or(0, |r| r.pawn.total().0),
        drawn: first.map_or(0, |r| r.drawn),
        max_plies: MAX_PLIES,
        model_bytes,
        seeds: grouped.iter().map(|(_, g)| g.len()).max().unwrap_or(0),
        nn6,
        hybrid,
        depth_setup,
        players: grouped.iter().map(|(k, g)| player(*k, g)).collect(),
        excess: excess_pairs(&grouped),
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
        cp: cp_claim(&with_oracles, longest),
        mate: mate_summary(played),
    }
}

#[cfg(test)]
#[path = "analysis_tests.rs"]
pub(crate) mod tests;
