//! `kpk match` on a reduced scale (two seeds, one ply of search, nets trained for two epochs):
//! the pipeline `kpk match` runs in full, checked for what must hold at any scale. CI runs this
//! and `kpk match --render-only`; the full match (minutes) is rerun by hand (docs/PLAY.md).

use kpk::Bitbase;
use kpk::experiment::TrialConfig;
use kpk::play::PlayModel;
use kpk::play::pipeline::{MatchSetup, run_match};
use kpk::play::results::PlayerKind;
use kpk::report::play::{CSV_COLUMNS, render, results_csv};
use std::path::Path;

fn root(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn a_reduced_match_pools_seeds_pairs_excess_and_tests_the_cp_claim() {
    let bb = Bitbase::generate();
    let model = PlayModel::load(&root("models/kpk-play.hybrid")).unwrap();
    let nn6 = TrialConfig::load(&root(kpk::play::evaluators::NN6_TRIAL)).unwrap();
    let trial = nn6.with(|c| (c.max_epochs, c.window, c.patience) = (2, 1, 1)).unwrap();
    let setup = MatchSetup { seeds: 2, max_q: 1, depth_epochs: 1 };
    let r = run_match(&model, &trial, &setup, &bb, &|_| {}).unwrap();
    assert_eq!((r.won, r.drawn, r.seeds), (111_282, 54_383, 2));
    for p in &r.players {
        let seeded = matches!(p.kind, PlayerKind::Random | PlayerKind::DepthEvaluator) || p.name == "NN6";
        assert_eq!(p.seeds, if seeded { 2 } else { 1 }, "{}", p.name);
        for i in [p.wins_won, p.draws_held] {
            assert!(i.lo <= i.mean && i.mean <= i.hi && i.n == p.seeds, "{} {i:?}", p.name);
        }
        if matches!(p.kind, PlayerKind::Perfect | PlayerKind::Model) {
            assert_eq!((p.wins_won.mean, p.draws_held.mean), (100.0, 100.0), "{}", p.name);
        }
    }
    // Excess plies compare over the games both players converted: never more games than either
    // converted.
    for e in &r.excess {
        let converted =
            |name: &str| r.players.iter().find(|p| p.name == name && p.q == Some(e.q)).unwrap().converted;
        assert!(e.games <= converted(&e.player).min(converted(&e.reference)), "{e:?}");
    }
    // Section 2's claim, exact over every won position for the agents that know Cp: an oracle that
    // knows DTC ≤ k wins all of C(k + 1) at q = 0 and all of C(k + 2) with one ply of search.
    let oracles: Vec<_> = r.cp.rows.iter().filter(|c| c.name.starts_with("Cp oracle")).collect();
    assert_eq!(oracles.len(), kpk::play::pipeline::ORACLE_KNOWS.len());
    for (c, k) in oracles.iter().zip(kpk::play::pipeline::ORACLE_KNOWS) {
        assert!(c.applies && c.holds_in == 1, "{c:?}");
        assert!(c.p[0][0] > usize::from(k), "{c:?}");
    }
    assert!(r.cp.rows.iter().filter(|c| c.name == "NN6").all(|c| !c.applies));
    let csv = results_csv(&r).unwrap();
    assert_eq!(csv.lines().next().unwrap(), CSV_COLUMNS.join(","));
    assert_eq!(csv.lines().count(), r.players.len() + 1);
    let text = render(&r).unwrap();
    assert!(text.starts_with("# Can a net play KPK?") && text.contains("\n## Summary\n"));
}
