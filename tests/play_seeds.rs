//! PLAY.md's intervals over seeds recomputed from the committed per-seed counts
//! `reports/play/seeds.csv` alone, with none of kpk's statistics: each seed's % wins won and %
//! draws held from its counts, their mean and Student's t-interval over the seeds (cut to
//! [0, 100], as a percentage's mean cannot leave it), against `reports/play/results.csv`; and
//! section 2's largest p per seed with its interval, against `reports/play.json`. Student's t is
//! tests/student_t's (Simpson's rule); kpk reads a table to 3 decimals, so the bounds agree to
//! that table's rounding.

mod student_t;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn rows(file: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(root().join(file)).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| headers.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect())
        .collect()
}

/// Mean and 95% t-interval of `xs`, cut to [`min`, `max`]; no interval for one value.
fn t_interval(xs: &[f64], min: f64, max: f64) -> (f64, Option<(f64, f64)>) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = student_t::t_quantile(0.975, n - 1.0) * (var / n).sqrt();
    (mean, Some(((mean - half).max(min), (mean + half).min(max))))
}

/// `ours` against kpk's `theirs` (4 decimals in results.csv): within the rounding of kpk's
/// 3-decimal t table, relative to the half-width, and of the file's decimals.
fn close(ours: f64, theirs: f64, half: f64, what: &str) {
    let tolerance = 3e-4 * half + 1e-4;
    assert!((ours - theirs).abs() <= tolerance, "{what}: recomputed {ours}, kpk {theirs}");
}

type Key = (String, String);

/// The per-seed counts by player and q, in seed order.
fn seeds() -> BTreeMap<Key, Vec<BTreeMap<String, String>>> {
    let mut by: BTreeMap<Key, Vec<BTreeMap<String, String>>> = BTreeMap::new();
    for row in rows("reports/play/seeds.csv") {
        by.entry((row["player"].clone(), row["q"].clone())).or_default().push(row);
    }
    for (key, g) in &by {
        let order: Vec<usize> = g.iter().map(|r| r["seed"].parse().unwrap()).collect();
        assert_eq!(order, (0..g.len()).collect::<Vec<_>>(), "{key:?}: seeds 0, 1, … once each");
    }
    by
}

fn count(row: &BTreeMap<String, String>, column: &str) -> f64 {
    row[column].parse::<usize>().unwrap_or_else(|e| panic!("{column}: {e}")) as f64
}

#[test]
fn plays_intervals_recompute_from_the_per_seed_counts() {
    let seeds = seeds();
    let results = rows("reports/play/results.csv");
    assert_eq!(results.len(), seeds.len(), "a player and q in results.csv for each in seeds.csv");
    let mut intervals = 0;
    for r in &results {
        let key = (r["player"].clone(), r["q"].clone());
        let g = seeds.get(&key).unwrap_or_else(|| panic!("{key:?} has no seeds in seeds.csv"));
        assert_eq!(r["seeds"], g.len().to_string(), "{key:?}");
        for (measure, part, whole) in [("wins_won", "converted", "won"), ("draws_held", "held", "drawn")] {
            let pct: Vec<f64> = g.iter().map(|s| 100.0 * count(s, part) / count(s, whole)).collect();
            let (mean, bounds) = t_interval(&pct, 0.0, 100.0);
            let cell = |c: &str| r[&format!("{measure}_{c}")].clone();
            close(mean, cell("mean").parse().unwrap(), 0.0, &format!("{key:?} {measure} mean"));
            match bounds {
                Some((lo, hi)) => {
                    let half = (hi - lo) / 2.0;
                    close(lo, cell("lo").parse().unwrap(), half, &format!("{key:?} {measure} lo"));
                    close(hi, cell("hi").parse().unwrap(), half, &format!("{key:?} {measure} hi"));
                    intervals += 1;
                }
                None => {
                    assert!(cell("lo").is_empty() && cell("hi").is_empty(), "{key:?}: one seed, no interval")
                }
            }
        }
    }
    assert!(intervals >= 30, "the trained players' intervals were checked: {intervals}");
}

#[test]
fn section_2s_p_over_seeds_recomputes_from_the_per_seed_counts() {
    let seeds = seeds();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root().join("reports/play.json")).unwrap()).unwrap();
    let qs: Vec<u64> = json["cp"]["qs"].as_array().unwrap().iter().map(|q| q.as_u64().unwrap()).collect();
    let mut checked = 0;
    for row in json["cp"]["rows"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        for (i, q) in qs.iter().enumerate() {
            // The Cp oracles play the pawn side only and are not players of seeds.csv.
            let Some(g) = seeds.get(&(name.to_string(), q.to_string())) else { continue };
            let p: Vec<f64> = g.iter().map(|s| count(s, "largest_p")).collect();
            let kpk_p: Vec<f64> =
                row["p"][i].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            assert_eq!(p, kpk_p, "{name} q = {q}");
            let (mean, bounds) = t_interval(&p, f64::NEG_INFINITY, f64::INFINITY);
            let m = &row["p_mean"][i];
            close(mean, m["mean"].as_f64().unwrap(), 0.0, &format!("{name} q = {q}: mean p"));
            if let Some((lo, hi)) = bounds {
                let half = (hi - lo) / 2.0;
                close(lo, m["lo"].as_f64().unwrap(), half, &format!("{name} q = {q}: lo"));
                close(hi, m["hi"].as_f64().unwrap(), half, &format!("{name} q = {q}: hi"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "section 2's p checked for the searching players: {checked}");
}
