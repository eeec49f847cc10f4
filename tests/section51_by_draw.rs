//! Section 5.1's primary intervals (`reports/section51.json`, method `mixed_model`) recomputed
//! from the committed runs `reports/readings/replicates.csv` alone, with none of kpk's code: the
//! runs of the configs' reading (experiments/table5/), each group's mean within each data draw,
//! A − B per draw, and Student's t over the draws. The t quantile is the textbook value for 4
//! degrees of freedom, so a mistake in kpk's t cannot hide here. The verdicts' Holm adjustment
//! over the section's rows is recomputed too, with tests/student_t's t (Simpson's rule) for the
//! p-values and the intervals at Holm's levels; and the summary's gap to the paper's testing
//! accuracy by the draw.

mod student_t;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// t(0.975) with 4 degrees of freedom (any table of Student's t: 2.776).
const T975_DF4: f64 = 2.776_445_105_197_799;

/// The configs' reading of the stopping rule, as every Table 5 config writes it.
fn configs_reading() -> (String, String, String, String) {
    let mut readings = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(root().join("experiments/table5")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let t: toml::Table = toml::from_str(&text).unwrap();
        let key = |k: &str| t[k].to_string().trim_matches('"').to_string();
        readings.insert((key("stop"), key("window"), key("patience"), key("keep")));
    }
    assert_eq!(readings.len(), 1, "Table 5's trials share one reading: {readings:?}");
    readings.into_iter().next().unwrap()
}

/// Per draw, the mean of `column` over the runs of `trials` under the configs' reading.
fn draw_means(trials: &[u8], column: &str) -> BTreeMap<u64, f64> {
    let (stop, window, patience, keep) = configs_reading();
    let mut reader = csv::Reader::from_path(root().join("reports/readings/replicates.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut sums: BTreeMap<u64, (f64, usize)> = BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let reading = (&row[at("stop")], &row[at("window")], &row[at("patience")], &row[at("keep")]);
        let trial: u8 = row[at("trial")].parse().unwrap();
        if reading != (stop.as_str(), window.as_str(), patience.as_str(), keep.as_str())
            || !trials.contains(&trial)
        {
            continue;
        }
        let v: f64 = row[at(column)].parse().unwrap();
        let s = sums.entry(row[at("draw_index")].parse().unwrap()).or_default();
        *s = (s.0 + v, s.1 + 1);
    }
    sums.into_iter().map(|(d, (s, k))| (d, s / k as f64)).collect()
}

/// Mean and 95% t-interval over the draws of (A − B) per draw.
fn t_interval(a: &BTreeMap<u64, f64>, b: &BTreeMap<u64, f64>) -> (f64, f64, f64, usize) {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "the same draws");
    let d: Vec<f64> = a.iter().map(|(k, x)| x - b[k]).collect();
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    assert_eq!(d.len(), 5, "five draws, for the tabulated t");
    let half = T975_DF4 * (var / n).sqrt();
    (mean, mean - half, mean + half, d.len())
}

fn claim(json: &serde_json::Value, claim: &str, row: &str) -> serde_json::Value {
    json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim"] == claim && c["row"] == row)
        .unwrap_or_else(|| panic!("no claim {claim} {row}"))
        .clone()
}

#[test]
fn section51s_intervals_are_t_over_the_five_draws() {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("reports/section51.json")).unwrap()).unwrap();
    assert_eq!(json["method"], "mixed_model");
    assert_eq!(json["secondary_method"], "cluster_bootstrap");
    let wtm_e1: Vec<u8> = (1..=13).collect();
    let wtm_e2: Vec<u8> = (21..=28).collect();
    let small: Vec<u8> = (1..=37).collect();
    for (name, row, a, b) in [
        ("e2", "wtm", draw_means(&wtm_e2, "train_pct"), draw_means(&wtm_e1, "train_pct")),
        ("test_lower", "all", draw_means(&small, "train_pct"), draw_means(&small, "test_pct")),
    ] {
        let (mean, lo, hi, n) = t_interval(&a, &b);
        let c = claim(&json, name, row);
        let diff = &c["contrast"];
        assert_eq!(diff["method"], "mixed_model");
        assert_eq!(diff["units"], n);
        assert_eq!(diff["unadjusted"]["level"], 0.95);
        let (at_95_lo, at_95_hi) = (&diff["unadjusted"]["lo"], &diff["unadjusted"]["hi"]);
        for (ours, theirs) in [(mean, &diff["estimate"]), (lo, at_95_lo), (hi, at_95_hi)] {
            assert!((ours - theirs.as_f64().unwrap()).abs() < 1e-6, "{name} {row}: {ours} vs {theirs}");
        }
        // The secondary interval is the narrower percentile bootstrap of the same draws.
        let boot = &c["bootstrap"];
        assert_eq!(boot["method"], "cluster_bootstrap");
        assert!(boot["hi"].as_f64().unwrap() - boot["lo"].as_f64().unwrap() < hi - lo, "{name} {row}");
    }
}

/// The trials of a group as `section51.json` writes them: "1-13, 21-28".
fn trials_of(ranges: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for part in ranges.split(", ") {
        match part.split_once('-') {
            Some((a, b)) => out.extend(a.parse::<u8>().unwrap()..=b.parse().unwrap()),
            None => out.push(part.parse().unwrap()),
        }
    }
    out
}

/// A − B per draw of a group pair whose measure replicates.csv holds (training or testing
/// accuracy); `None` for the measures over the draw's share of wins, which need the draws' sets.
fn differences(c: &serde_json::Value) -> Option<Vec<f64>> {
    let column = |g: &serde_json::Value| match g["measure"].as_str().unwrap() {
        "train" => Some("train_pct"),
        "test" => Some("test_pct"),
        _ => None,
    };
    let (ga, gb) = (&c["contrast"]["a"], &c["contrast"]["b"]);
    let (ca, cb) = (column(ga)?, column(gb)?);
    let a = draw_means(&trials_of(ga["trials"].as_str().unwrap()), ca);
    let b = draw_means(&trials_of(gb["trials"].as_str().unwrap()), cb);
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "the same draws");
    Some(a.iter().map(|(k, x)| x - b[k]).collect())
}

fn mean_se(d: &[f64]) -> (f64, f64) {
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn section51s_verdicts_are_holm_adjusted_over_its_rows() {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("reports/section51.json")).unwrap()).unwrap();
    let claims = json["claims"].as_array().unwrap();
    assert_eq!(json["family"], claims.len(), "the family is every row");
    assert_eq!(claims.len(), 10);
    assert_eq!(json["alpha"], 0.05);
    let m = claims.len();
    // Each row's p-value, recomputed where replicates.csv holds its measure.
    let mut recomputed = 0;
    let p: Vec<f64> = claims
        .iter()
        .map(|c| {
            let margin = &c["contrast"]["not_better_by"];
            let kpk = margin["p"].as_f64().or(c["contrast"]["p"].as_f64()).unwrap();
            let Some(d) = differences(c) else { return kpk };
            let (mean, se) = mean_se(&d);
            let null = margin["margin"].as_f64().unwrap_or(0.0);
            let ours = 2.0 * student_t::t_upper(((mean - null) / se).abs(), (d.len() - 1) as f64);
            assert!((ours - kpk).abs() < 1e-6 + 1e-4 * kpk, "{} {}: p {ours} vs {kpk}", c["claim"], c["row"]);
            recomputed += 1;
            ours
        })
        .collect();
    assert_eq!(recomputed, 8, "every row but the two over the draws' share of wins");
    // Holm: sorted ascending, the k-th (from 0) adjusted to max over j ≤ k of min(1, (m − j)·p).
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        let c = &claims[i];
        let what = format!("{} {}", c["claim"], c["row"]);
        let adjusted = &c["contrast"];
        let p_adjusted = adjusted["p_adjusted"].as_f64().unwrap();
        assert!((p_adjusted - running).abs() < 1e-6 + 1e-4 * running, "{what}: {p_adjusted} vs {running}");
        let level = 1.0 - 0.05 / (m - k) as f64;
        assert!((adjusted["level"].as_f64().unwrap() - level).abs() < 1e-12, "{what}");
        let (lo, hi) = (adjusted["lo"].as_f64().unwrap(), adjusted["hi"].as_f64().unwrap());
        if let Some(d) = differences(c) {
            let (mean, se) = mean_se(&d);
            let half = student_t::t_quantile(1.0 - (1.0 - level) / 2.0, (d.len() - 1) as f64) * se;
            assert!((lo - (mean - half)).abs() < 1e-6 && (hi - (mean + half)).abs() < 1e-6, "{what}");
        }
        // The verdict: only where Holm reaches the row, by its interval at Holm's level.
        let shown = match c["contrast"]["not_better_by"]["margin"].as_f64() {
            Some(t) => hi < t,
            None => lo > 0.0,
        };
        let verdict = c["contrast"]["verdict"].as_str().unwrap();
        assert_eq!(verdict == "supported", running < 0.05 && shown, "{what}: {verdict}");
        if running >= 0.05 {
            assert!(["not_shown", "not_replicated_on_random_sets"].contains(&verdict), "{what}: {verdict}");
        }
    }
}

#[test]
fn the_gap_to_the_papers_testing_accuracy_is_t_over_the_draws() {
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("reports/section51.json")).unwrap()).unwrap();
    let paper = kpk::paper::tables::table5();
    let small: Vec<u8> = (1..=37).collect();
    let ours = draw_means(&small, "test_pct");
    // Every trial has as many runs in each draw, so the mean over runs weighs the trials alike.
    let papers = small.iter().map(|&t| paper.iter().find(|p| p.trial == t).unwrap().test_acc_pct.unwrap());
    let papers_mean = papers.sum::<f64>() / small.len() as f64;
    let zero: BTreeMap<u64, f64> = ours.keys().map(|&d| (d, papers_mean)).collect();
    let (mean, lo, hi, n) = t_interval(&ours, &zero);
    let gap = &json["gap_to_paper"];
    assert_eq!(gap["units"], n);
    assert_eq!(gap["method"], "mixed_model");
    for (ours, theirs) in [(mean, &gap["estimate"]), (lo, &gap["lo"]), (hi, &gap["hi"])] {
        assert!((ours - theirs.as_f64().unwrap()).abs() < 1e-6, "{ours} vs {theirs}");
    }
}
