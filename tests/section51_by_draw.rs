//! Section 5.1's primary intervals (`reports/section51.json`, method `mixed_model`) recomputed
//! from the committed runs `reports/readings/replicates.csv` alone, with none of kpk's code: the
//! runs of the configs' reading (experiments/table5/), each group's mean within each data draw,
//! A − B per draw, and Student's t over the draws. The t quantile is the textbook value for 4
//! degrees of freedom, so a mistake in kpk's t cannot hide here.

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
        let diff = &c["diff"];
        assert_eq!(diff["method"], "mixed_model");
        assert_eq!(diff["units"], n);
        for (ours, theirs) in [(mean, &diff["estimate"]), (lo, &diff["lo"]), (hi, &diff["hi"])] {
            assert!((ours - theirs.as_f64().unwrap()).abs() < 1e-6, "{name} {row}: {ours} vs {theirs}");
        }
        // The secondary interval is the narrower percentile bootstrap of the same draws.
        let boot = &c["bootstrap"];
        assert_eq!(boot["method"], "cluster_bootstrap");
        assert!(boot["hi"].as_f64().unwrap() - boot["lo"].as_f64().unwrap() < hi - lo, "{name} {row}");
    }
}
