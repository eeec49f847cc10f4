//! `kpk match` on a reduced scale (two seeds, one ply of search, nets trained for one or two
//! epochs): the pipeline `kpk match` runs in full, checked for what must hold at any scale.

use kpk::Bitbase;
use kpk::experiment::config::TrialConfig;
use kpk::hybrid::compress::{CompressConfig, HybridRecipe, Stage};
use kpk::hybrid::results::CompressionResults;
use kpk::play::evaluators::HYBRID_CONFIG;
use kpk::play::model::PlayModel;
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
    // The hybrid's recipe with one epoch in one stage and one of fine-tuning.
    let mut compress = CompressConfig::load(&root(HYBRID_CONFIG)).unwrap();
    compress.stages = vec![Stage { learning_rate: 0.01, epochs: 1 }];
    compress.qat.as_mut().unwrap().epochs = 1;
    let hybrid = HybridRecipe::first(HYBRID_CONFIG, compress).unwrap();
    let setup = MatchSetup { seeds: 2, max_q: 1, depth_epochs: 1 };
    let r = run_match(&model, &trial, &hybrid, &setup, &bb, &|_| {}).unwrap();
    assert_eq!((r.won, r.drawn, r.seeds), (111_282, 54_383, 2));
    // Every player that something random trains or moves plays every seed; perfect play and the
    // play model, one exact file, play once.
    for p in &r.players {
        let exact = matches!(p.kind, PlayerKind::Perfect | PlayerKind::Model);
        assert_eq!(p.seeds, if exact { 1 } else { setup.seeds }, "{}", p.name);
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
    // Past a winning promotion every game goes on to checkmate by DTM, whoever played KPK: each
    // converted game and each game a lone king lost is mated.
    let m = r.mate;
    assert!(m.converted > 0 && m.converted_mated == m.converted && m.lost_mated == m.lost, "{m:?}");
    for p in &r.players {
        assert_eq!((p.mated, p.lost_mated), (p.converted, p.lost), "{}", p.name);
    }
    // The perfect player converts every win, so its mated games' starts are every won position:
    // their mean DTM is the tables' over the won positions, read through each position's FEN.
    let tables = kpk::chess::dtm::Tables::generate();
    let won: Vec<_> = kpk::KpkPosition::all().filter(|p| bb.dtc(p).is_some()).collect();
    let dtm_sum: u64 = won.iter().map(|p| u64::from(tables.probe_fen(&p.to_fen()).unwrap().plies)).sum();
    let perfect = r.players.iter().find(|p| p.kind == PlayerKind::Perfect).unwrap();
    let to_mate = perfect.to_mate.unwrap();
    assert!((to_mate.dtm_mean - dtm_sum as f64 / won.len() as f64).abs() < 1e-9, "{to_mate:?}");
    assert!(to_mate.beyond_min <= 0 && to_mate.beyond_min <= to_mate.beyond_max, "{to_mate:?}");
    // Each seed's hybrid is exact, trained from the candidate's seed plus r · 1000.
    let h = &r.hybrid;
    assert_eq!(h.seeds, [4, 1004]);
    assert!(h.bytes.iter().zip(&h.exceptions).all(|(&b, &e)| b > 0 && e > 0), "{h:?}");
    for name in ["hybrid net", "hybrid"] {
        let rows: Vec<_> = r.players.iter().filter(|p| p.name == name).collect();
        assert_eq!(rows.len(), setup.max_q as usize + 1, "{name}");
        assert!(rows.iter().all(|p| p.seeds == setup.seeds), "{name}");
    }
    let csv = results_csv(&r).unwrap();
    assert_eq!(csv.lines().next().unwrap(), CSV_COLUMNS.join(","));
    assert_eq!(csv.lines().count(), r.players.len() + 1);
    let text = render(&r).unwrap();
    assert!(text.starts_with("# Can a net play KPK?") && text.contains("\n## Summary\n"));
}

/// The match trains, per seed, the compress config's first candidate as the net `kpk compress`
/// chooses: the committed compression report must have chosen that candidate.
#[test]
fn the_hybrid_recipe_is_the_candidate_kpk_compress_ships() {
    let recipe = HybridRecipe::load(&root(HYBRID_CONFIG)).unwrap();
    let report: CompressionResults = kpk::template::read_results(&root("reports/compression.json")).unwrap();
    let chosen = &report.candidates[0];
    let widths = chosen.topology.widths();
    assert_eq!(widths[1..widths.len() - 1], recipe.candidate.hidden[..]);
    assert_eq!(
        (&chosen.inputs, chosen.lone_king_by_rule),
        (&recipe.candidate.inputs, recipe.candidate.lone_king_by_rule)
    );
    assert_eq!(chosen.seed, recipe.seed(0));
    assert_eq!(
        report.model.sizes.total,
        std::fs::metadata(root("models/kpk-net.hybrid")).unwrap().len() as usize
    );
}
