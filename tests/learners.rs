//! `kpk learners` on a reduced grid (2 draws at the paper's size and at n = 250, one replicate on
//! T3, the MLP one epoch there, no variants, a 1-epoch hybrid): the full run takes about half an
//! hour, so CI checks here that every draw has its rows with test sets of every other position,
//! every exact model is exact on every legal position, the verdicts recompute from the JSON and
//! draws.csv alone, and the report renders from its JSON alone byte for byte.

use kpk::analysis::Mode;
use kpk::analysis::learners::{Destinations, Learners};
use kpk::dataset::Side;
use kpk::learners::analyse::{self, LearnersReport, Settings};
use kpk::learners::curves::{self, DRAW_COLUMNS, DrawFit};
use kpk::learners::design::{Design, paper_size};
use kpk::learners::power::Pilot;
use kpk::report::driver::drive;
use kpk::report::learners::{self as render, RESULT_COLUMNS};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// A one-net, one-epoch compress config: the bytes primary's plumbing, not its size.
const TINY_COMPRESS: &str = r#"
seed = 2
slope = 1.0
batch_size = 256
stages = [{ learning_rate = 0.01, epochs = 1 }]
candidates = [{ hidden = [4], inputs = "pawn_side", seed = 4, lone_king_by_rule = true }]
[inputs]
pawn_side = [1, 2, 3, 4, 5, 6, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 32]
"#;

/// The reduced grid run by the driver into `dir`: its results and draws as written there.
fn reduced(dir: &Path) -> (LearnersReport, Vec<DrawFit>) {
    let design_path = PathBuf::from("experiments/learners_powered.toml");
    let mut design = Design::load(&design_path).unwrap();
    (design.paper_draws, design.sizes, design.draws, design.hybrid_seeds) = (2, vec![250], vec![2], 2);
    design.check().unwrap();
    let compress = dir.join("compress.toml");
    std::fs::write(&compress, TINY_COMPRESS).unwrap();
    let settings = Settings {
        replicates: 1,
        t3_epochs: 1,
        variants: false,
        table5: PathBuf::from("experiments/table5"),
        shipped_model: PathBuf::from("models/kpk-net.hybrid"),
        design,
        declared_in: "test".into(),
        pilot: PathBuf::from("experiments/learners_pilot.csv"),
        compress,
    };
    let to = Destinations::under(dir);
    let learners = Learners {
        to: to.clone(),
        design: design_path,
        pilot: settings.pilot.clone(),
        settings: Some(settings),
        from_draws: false,
        progress: &|_| {},
        fitted: RefCell::new(Vec::new()),
    };
    let written = drive(&learners, Mode::Run).expect("the reduced grid runs");
    assert_eq!(written[0], to.json, "the results first");
    assert_eq!(written.len(), 10, "LEARNERS.md, 4 tables and 4 figures besides the results");
    assert!(!written.contains(&to.draws()), "draws.csv is the run's, not rendered");
    let report = kpk::template::read_results(&to.json).unwrap();
    (report, curves::read_draws(&to.draws()).unwrap())
}

#[test]
fn the_reduced_grid_has_every_draw_and_renders_from_its_json_alone() {
    let dir = std::env::temp_dir().join(format!("kpk-learners-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (report, draws) = reduced(&dir);
    // 7 learners × 2 input sets × (2 + 2) draws × 2 sides.
    assert_eq!(draws.len(), 112);
    for d in &draws {
        let side_size = if d.side == Side::Wtm { 81_664 } else { 84_012 };
        assert_eq!(d.test_n, side_size - d.n, "{d:?}");
        assert!(d.n == paper_size(d.side) || d.n == 250);
        assert!((0.0..=100.0).contains(&d.test_pct) && (0.0..=100.0).contains(&d.train_pct));
    }
    assert_eq!(report.primaries.len(), 11);
    assert_eq!(report.curves.len(), 7 * 2 * 2 * 2);
    assert_eq!(report.sizes.hybrid_bytes.len(), 2);
    // The six learners × two input sets on T3, each exact model checked on all positions.
    assert_eq!(report.rows.len(), 12);
    for r in &report.rows {
        assert_eq!(r.exact_checked, 165_676, "{}", r.learner);
        assert_eq!(r.exact_wrong, 0, "{}", r.learner);
    }
    let csv = render::results_csv(&report);
    assert_eq!(csv.lines().next(), Some(RESULT_COLUMNS));
    assert_eq!(csv.lines().count(), 13);

    let to = Destinations::under(&dir);
    let draws_csv = std::fs::read_to_string(to.draws()).unwrap();
    assert_eq!(draws_csv.lines().next(), Some(DRAW_COLUMNS));
    let first = std::fs::read(&to.markdown).unwrap();
    let learners = Learners {
        to: to.clone(),
        design: PathBuf::from("experiments/learners_powered.toml"),
        pilot: PathBuf::from("experiments/learners_pilot.csv"),
        settings: None,
        from_draws: false,
        progress: &|_| {},
        fitted: RefCell::new(Vec::new()),
    };
    std::fs::write(&to.markdown, "stale\n").unwrap();
    drive(&learners, Mode::RenderOnly).unwrap();
    assert_eq!(std::fs::read(&to.markdown).unwrap(), first, "rendering from the JSON alone");
    assert!(String::from_utf8(first).unwrap().starts_with("# Section 7"));
    let pilot = Pilot::load(Path::new("experiments/learners_pilot.csv")).unwrap();
    let again = analyse::analyse_committed(&to.json, &to.draws(), &report.design, &pilot).unwrap();
    // The derived numbers recompute from learners.json and draws.csv alone.
    assert_eq!(again.primaries, report.primaries);
    assert_eq!(again.curves, report.curves);
    assert_eq!(again.against_mlp, report.against_mlp);
    assert_eq!(again.characterisation, report.characterisation);
    std::fs::remove_dir_all(&dir).unwrap();
}
