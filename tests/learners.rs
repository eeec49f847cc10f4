//! `kpk learners` on a reduced grid (one replicate, the MLP one epoch on T3, no variants): the
//! full run takes minutes, so CI checks here that the result rows are complete, every exact model
//! is exact on every legal position, and the report renders from its JSON alone byte for byte.

use kpk::chess::bitbase::Bitbase;
use kpk::dataset::{SetName, Side};
use kpk::learners::analyse::{self, LearnersReport, Settings};
use kpk::learners::render::{self, Destinations, RESULT_COLUMNS};
use kpk::learners::{InputSet, NAMES};
use std::path::PathBuf;

fn reduced() -> LearnersReport {
    let settings = Settings {
        replicates: 1,
        t3_epochs: 1,
        variants: false,
        table5: PathBuf::from("experiments/table5"),
        shipped_model: PathBuf::from("models/kpk-net.hybrid"),
    };
    analyse::analyse(&settings, &Bitbase::generate(), &|_| {}).expect("the reduced grid runs")
}

#[test]
fn the_reduced_grid_has_every_row_and_renders_from_its_json_alone() {
    let report = reduced();
    // Six learners × two input sets × three training sets.
    assert_eq!(report.rows.len(), 36);
    let set_of = |name: &str| name.parse::<SetName>().expect("a row's training set is a named set");
    for set in [SetName::T1, SetName::T2, SetName::T3] {
        for inputs in InputSet::ALL {
            let names: Vec<&str> = report
                .rows
                .iter()
                .filter(|r| set_of(&r.train_set) == set && r.inputs == inputs)
                .map(|r| r.learner.as_str())
                .collect();
            assert_eq!(names, NAMES, "{set} {}", inputs.name());
        }
    }
    for r in &report.rows {
        assert_eq!(r.fits.len(), 1);
        assert!((0.0..=100.0).contains(&r.train.mean), "{r:?}");
        assert!(r.model_bits > 0.0, "{} {}", r.learner, r.train_set);
        // Exact models for the pawn side to move, checked on all 165,676 positions.
        let wtm = set_of(&r.train_set).side() == Side::Wtm;
        assert_eq!(r.exact_bytes.is_some(), wtm, "{} {}", r.learner, r.train_set);
        assert_eq!(r.exact_checked, if wtm { 165_676 } else { 0 });
        assert_eq!(r.exact_wrong, 0, "{} {}", r.learner, r.train_set);
    }
    // Five learners compared with the MLP on each of six cells.
    assert_eq!(report.contrasts.len(), 30);
    assert_eq!(report.theories.len(), 2);
    for t in &report.theories {
        assert_eq!(t.rules.iter().map(|r| r.covered).sum::<usize>(), 81_664);
        assert_eq!(t.rules.iter().map(|r| r.correct).sum::<usize>(), t.correct);
    }
    assert_eq!(report.hidden.len(), 32, "trial 38's first hidden layer");

    let csv = render::results_csv(&report);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(RESULT_COLUMNS));
    assert_eq!(lines.clone().count(), 36);
    assert!(lines.all(|l| l.split(',').count() == 13), "{csv}");

    let dir = std::env::temp_dir().join(format!("kpk-learners-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let to = Destinations::under(&dir);
    render::write(&report, &to).unwrap();
    let first = std::fs::read(&to.markdown).unwrap();
    let again = render::render_only(&to).unwrap();
    assert_eq!(std::fs::read(&to.markdown).unwrap(), first, "rendering from the JSON alone");
    assert_eq!(again.rows.len(), 36);
    assert!(String::from_utf8(first).unwrap().starts_with("# Section 7"));
    std::fs::remove_dir_all(&dir).unwrap();
}
