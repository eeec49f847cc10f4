use super::*;
use crate::play::matches::PawnSide;

/// A record of a player that converts the wins of DTC 1..=`p` (of 1..=3, ten each), each
/// converted game `excess` plies beyond DTC, and holds `held` of 5 draws.
pub(crate) fn made_up(name: &str, q: Option<u32>, replicate: usize, p: usize, excess: u8) -> Record {
    let positions = vec![0, 10, 10, 10];
    let converted: Vec<usize> = (0..4).map(|d| if (1..=p).contains(&d) { 10 } else { 0 }).collect();
    let games = (1..=3).flat_map(|d| [(d <= p).then_some(excess); 10]).collect();
    let total = converted.iter().sum::<usize>();
    let pawn = PawnSide {
        positions,
        converted,
        excess_sum: total * usize::from(excess),
        excess_max: usize::from(excess),
        games,
        mated: total,
        mate_plies_sum: total * (20 + usize::from(excess)),
        dtm_sum: total * 20,
        at_dtm: if excess == 0 { total } else { 0 },
        beyond_dtm: (total > 0).then_some((i32::from(excess), i32::from(excess))),
    };
    Record { name: name.into(), q, replicate, pawn, drawn: 5, held: 5, lost_mated: 0 }
}

/// The training of a made-up hybrid over `seeds` seeds.
pub(crate) fn made_up_hybrid(seeds: usize) -> HybridTraining {
    let each = |v: usize| vec![v; seeds];
    HybridTraining {
        config: "compress.toml".into(),
        topology: Some("23-20-5-1".parse().unwrap()),
        inputs: "pawn_side".into(),
        lone_king_by_rule: true,
        epochs: 240,
        qat_epochs: 60,
        seeds: (0..seeds as u64).map(|r| 4 + 1000 * r).collect(),
        float_errors: each(39),
        exceptions: each(40),
        bytes: each(598),
    }
}

fn setup() -> (DepthSetup, [Nn6Training; 2]) {
    let i = Interval { mean: 99.5, lo: 99.5, hi: 99.5, n: 1 };
    let nn6 = [0, 1].map(|_| Nn6Training { seeds: vec![38], accuracy_pct: i, epochs: (3, 3) });
    (DepthSetup { topology: vec![32, 1], optimiser: "x".into(), epochs: 1, seeds: vec![6] }, nn6)
}

fn results(records: Vec<(PlayerKind, Record)>, oracles: Vec<Record>) -> MatchResults {
    let (depth, nn6) = setup();
    analyse(&Played { records, oracles }, &[], 100, nn6, made_up_hybrid(1), depth)
}

#[test]
fn the_dtc_bands_cover_every_win_once() {
    let covered: usize = DTC_BANDS.iter().map(|&(lo, hi)| hi + 1 - lo).sum();
    assert_eq!(covered, 38);
    assert!(DTC_BANDS.windows(2).all(|w| w[1].0 == w[0].1 + 1));
    let r = player(PlayerKind::Evaluator, &[&made_up("x", Some(1), 0, 5, 0)]);
    assert_eq!(r.by_band[0], Some(100.0));
    assert_eq!(r.by_band[1], None);
}

#[test]
fn seeds_pool_into_a_t_interval_over_seeds() {
    let seeds = [made_up("e", Some(0), 0, 3, 0), made_up("e", Some(0), 1, 1, 0)];
    let r = player(PlayerKind::DepthEvaluator, &seeds.iter().collect::<Vec<_>>());
    assert_eq!(r.seeds, 2);
    let expect = Interval::of_mean_pct(&[100.0, 100.0 / 3.0]).unwrap();
    assert_eq!(r.wins_won, expect);
    assert!(r.wins_won.lo < r.wins_won.mean && r.wins_won.mean < r.wins_won.hi);
    assert_eq!(r.largest_p, [3, 1]);
    assert_eq!(r.converted, 20.0);
}

#[test]
fn excess_plies_are_compared_over_the_games_both_converted() {
    // The reference converts DTC 1 only (excess 1); the player DTC 1..=3 (excess 4): only the ten
    // DTC-1 games are common, so the difference is 4 − 1, not the player's own mean.
    let r = results(
        vec![
            (PlayerKind::Evaluator, made_up(EXCESS_REFERENCE, Some(0), 0, 1, 1)),
            (PlayerKind::Evaluator, made_up(EXCESS_REFERENCE, Some(0), 1, 1, 1)),
            (PlayerKind::DepthEvaluator, made_up("d", Some(0), 0, 3, 4)),
            (PlayerKind::DepthEvaluator, made_up("d", Some(0), 1, 2, 4)),
        ],
        vec![],
    );
    assert_eq!(r.excess.len(), 1);
    let e = &r.excess[0];
    assert_eq!((e.player.as_str(), e.q, e.games), ("d", 0, 10.0));
    assert_eq!((e.player_mean, e.reference_mean), (4.0, 1.0));
    assert_eq!((e.difference.mean, e.difference.n), (3.0, 2));
}

#[test]
fn the_claim_is_judged_per_seed_and_only_where_it_applies() {
    let mut records = Vec::new();
    for (name, kind, seeds) in [
        ("a", PlayerKind::Evaluator, [[1, 1, 2, 3], [1, 2, 3, 3]]),
        ("b", PlayerKind::DepthEvaluator, [[1, 2, 3, 3], [0, 1, 2, 3]]),
    ] {
        for (r, ps) in seeds.iter().enumerate() {
            for (q, &p) in ps.iter().enumerate() {
                records.push((kind, made_up(name, Some(q as u32), r, p, 0)));
            }
        }
    }
    let oracle = (0..4).map(|q| made_up("o", Some(q), 0, (1 + q as usize).min(3), 0)).collect();
    let c = results(records, oracle).cp;
    assert_eq!(c.qs, [0, 1, 2, 3]);
    assert_eq!(c.searched, [1, 2, 3]);
    assert_eq!(c.longest, 3);
    let row = |n: &str| c.rows.iter().find(|r| r.name == n).unwrap();
    assert!(!row("a").applies && row("b").applies && row("o").applies);
    assert_eq!(row("a").p[1], [1, 2]);
    // a's seed 0 is short at q = 1 and 2; p + q is capped at the longest win (3).
    assert_eq!(
        row("a").short,
        [CpShort { seed: 0, p: 1, q: 1, need: 2 }, CpShort { seed: 0, p: 2, q: 2, need: 3 }]
    );
    assert_eq!((row("a").holds_in, row("b").holds_in, row("o").holds_in), (1, 2, 1));
}

#[test]
fn the_results_read_back_from_json_as_written() {
    let r = results(
        vec![
            (PlayerKind::Perfect, made_up("perfect", None, 0, 3, 0)),
            (PlayerKind::Evaluator, made_up("e", Some(0), 0, 1, 4)),
            (PlayerKind::Evaluator, made_up("e", Some(1), 0, 2, 2)),
        ],
        vec![],
    );
    assert_eq!(r.players[0].kind, PlayerKind::Perfect);
    assert_eq!(r.cp.rows[0].holds_in, 1);
    let back: MatchResults = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back, r);
}
