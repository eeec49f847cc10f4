//! Studies end to end: every committed study config loads and expands into checked trials, and
//! one study runs on a reduced grid (2 replicates) with every row of its results complete.

mod support;

use kpk::report::studies;
use kpk::study::{
    config::{MIN_REPLICATES, StudyConfig},
    custom::initial_net,
};
use std::path::{Path, PathBuf};
use support::{Scratch, kpk_in};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn study_configs() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("experiments/studies"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_study_config_expands_into_checked_trials_with_enough_replicates() {
    let paths = study_configs();
    assert!(paths.len() >= 5, "{paths:?}");
    for path in paths {
        let study = StudyConfig::load(&path, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let c = &study.config;
        assert_eq!(path.file_stem().unwrap().to_str(), Some(c.name.as_str()), "file named after the study");
        assert!(c.replicates >= MIN_REPLICATES, "{}", c.name);
        assert_eq!(study.trials.len(), c.settings.len() * c.replicates, "{}", c.name);
        studies::check_name(&c.name).unwrap();
        // Replicates differ in their seeds, and trial names are unique.
        let mut names: Vec<&str> = study.trials.iter().map(|t| t.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), study.trials.len(), "{}", c.name);
        let seeds: Vec<u64> = study.trials[..c.replicates].iter().map(|t| t.config.seed).collect();
        assert!(seeds.windows(2).all(|w| w[1] == w[0] + 1), "{}: {seeds:?}", c.name);
    }
}

/// A setting's label that states a weight count ("(1,227 w)") states the net's own.
#[test]
fn weight_counts_in_labels_are_the_nets() {
    let mut checked = 0;
    for path in study_configs() {
        let study = StudyConfig::load(&path, None).unwrap();
        let c = &study.config;
        for (i, setting) in c.settings.iter().enumerate() {
            let Some(stated) = setting.label.split('(').nth(1).and_then(|t| t.split(" w)").next()) else {
                continue;
            };
            let Ok(stated) = stated.replace(',', "").parse::<usize>() else { continue };
            let net = initial_net(&study.trials[i * c.replicates], &study.keys[i]).unwrap();
            assert_eq!(net.weight_count(), stated, "{}: {}", c.name, setting.label);
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} labels with weight counts");
}

#[test]
fn a_setting_that_kpk_run_would_refuse_is_refused_with_its_label() {
    let scratch = Scratch::new("study-bad");
    let base = root().join("experiments/table5/trial21.toml");
    let text = format!(
        "name = \"e1_vs_e2\"\ntitle = \"t\"\nbase = \"{}\"\nreplicates = 5\nvary = \"seed\"\nmeasures = [\"test\"]\n\
         [[setting]]\nlabel = \"too wide\"\ntopology = \"33-10-1\"\n",
        base.display()
    );
    let path = scratch.join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let e = StudyConfig::load(&path, None).unwrap_err().to_string();
    assert!(e.contains("too wide") && e.contains("topology"), "{e}");
}

/// The CI run of a study by the binary: pruning (the study layer's own runner) on 2 replicates a
/// setting, its results.csv complete.
#[test]
fn a_reduced_study_writes_a_complete_row_per_setting() {
    reduced_study_is_complete("pruning");
}

/// The studies' pipeline without the binary: e1_vs_e2 (trials as `kpk run` trains them) on 2
/// replicates a setting, analysed, through JSON and back, and rendered.
#[test]
fn the_study_pipeline_runs_and_renders_from_its_results_alone() {
    let config = root().join("experiments/studies/e1_vs_e2.toml");
    let loaded = kpk::study::config::load_all(&[config], Some(2)).unwrap();
    let bb = kpk::Bitbase::generate();
    let run = kpk::study::run::run_study(&loaded[0], &bb, &|_| {}).unwrap();
    let results = kpk::analysis::studies::collect(vec![kpk::study::results::analyse(&run)], studies::order);
    let s = &results.studies[0];
    assert_eq!(s.settings.len(), loaded[0].config.settings.len());
    assert!(s.settings.iter().all(|t| t.replicates == 2 && t.test.is_some()), "{s:?}");
    let json = kpk::template::results_json(&results).unwrap();
    let back: kpk::study::results::StudiesResults = serde_json::from_str(&json).unwrap();
    assert_eq!(back, results);
    let text = studies::render(&back).unwrap();
    assert!(text.contains(&format!("## {}\n", s.title)), "{text}");
    assert!(text.contains("**Answer.** *Primary* (declared in the config before the run"), "{text}");
    assert!(text.contains("\n\n*Exploratory* ("), "{text}");
    assert!(text.contains("## Summary\n"), "{text}");
    let rows = text.lines().filter(|l| l.starts_with("| ") && l.ends_with(" of 2 |")).count();
    assert_eq!(rows, s.settings.len(), "{text}");
    assert!(!text.contains("{{") && !text.contains("{%"), "{text}");
}

/// The committed studies.json reads into its types and writes out byte for byte: the contrast
/// record keeps its fields, their order and their floats' bits.
#[test]
fn the_committed_studies_json_writes_back_byte_for_byte() {
    let text = std::fs::read_to_string(root().join("reports/studies.json")).unwrap();
    let results: kpk::study::results::StudiesResults = serde_json::from_str(&text).unwrap();
    assert!(kpk::template::results_json(&results).unwrap() == text, "studies.json changes when written back");
}

fn reduced_study_is_complete(name: &str) {
    let scratch = Scratch::new("study-run");
    let config = root().join(format!("experiments/studies/{name}.toml"));
    let out = kpk_in(
        root(),
        &["study", config.to_str().unwrap(), "--replicates", "2", "--out", scratch.path().to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let folder = scratch.join(format!("studies/{name}"));
    let csv = std::fs::read_to_string(folder.join("results.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<&str> = lines.collect();
    let study = StudyConfig::load(&config, Some(2)).unwrap();
    assert_eq!(rows.len(), study.config.settings.len());
    for (row, setting) in rows.iter().zip(&study.config.settings) {
        // The label is quoted and holds a comma: split around it.
        let (head, rest) = row.split_once(",\"").unwrap();
        let (label, tail) = rest.split_once("\",").unwrap();
        assert_eq!(label, setting.label);
        let cells: Vec<&str> = std::iter::once(head).chain(tail.split(',')).collect();
        assert_eq!(cells.len() + 1, header.len(), "{row}");
        for (cell, name) in cells.iter().zip(header.iter().filter(|h| **h != "label")) {
            let v: f64 = cell.parse().unwrap_or_else(|_| panic!("{name} = '{cell}' in {row}"));
            assert!(v.is_finite(), "{name} in {row}");
        }
        assert_eq!(cells[1], "2", "replicates");
    }
    let replicates = std::fs::read_to_string(folder.join("replicates.csv")).unwrap();
    assert_eq!(replicates.lines().count(), 1 + 2 * rows.len());
    for figure in [format!("{name}.png"), format!("{name}.svg")] {
        assert!(std::fs::metadata(folder.join(&figure)).unwrap().len() > 1000, "{figure}");
    }
    assert!(!scratch.join("STUDIES.md").exists(), "only --all writes STUDIES.md");
}

/// docs/STUDIES.md counts the studies and names each one: the count and the names are those of
/// experiments/studies/*.toml.
#[test]
fn the_studies_page_counts_and_names_every_study_config() {
    let page = std::fs::read_to_string(root().join("docs/STUDIES.md")).unwrap();
    let names = kpk::study::config::configs_in(&root().join("experiments/studies")).unwrap();
    let start = page.find(&format!("The {} studies: ", names.len()));
    let start =
        start.unwrap_or_else(|| panic!("docs/STUDIES.md does not say \"The {} studies: \"", names.len()));
    let paragraph = page[start..].split("\n\n").next().unwrap();
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy();
        assert!(paragraph.contains(&format!("`{name}`")), "docs/STUDIES.md's list lacks `{name}`");
    }
}
