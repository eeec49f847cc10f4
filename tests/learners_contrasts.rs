//! The committed `reports/learners/contrasts.csv` recomputed from the per-replicate fits of the
//! committed `reports/learners.json`, with none of kpk's statistics: every paired contrast's
//! estimate and interval (at Holm's level for a primary, 95% otherwise), every primary's
//! adjusted p-value and verdict. Student's t comes from tests/student_t, integrated by Simpson's
//! rule (kpk uses a continued fraction), so the two cannot share a mistake. The declaration must
//! hold a primary.

use kpk::learners::contrasts::Declared;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

mod student_t;
use student_t::{t_quantile, t_upper};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// An arm's values replicate by replicate, read from the JSON by its label.
fn values(report: &Value, arm: &str, measure: &str) -> Vec<f64> {
    if let Some(start) = arm.strip_prefix("seeding/") {
        let key = if measure == "test_pct" { "test_pct" } else { measure };
        return report["seeding"][start][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
    }
    let parts: Vec<&str> = arm.split('/').collect();
    let row = report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["learner"] == parts[0] && r["inputs"] == parts[1] && r["train_set"] == parts[2])
        .unwrap_or_else(|| panic!("no row {arm}"));
    row["fits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| match measure {
            "exact_bytes" => f["exact"]["bytes"].as_f64().unwrap(),
            m => f[m].as_f64().unwrap_or_else(|| panic!("{arm}: no {m}")),
        })
        .collect()
}

/// (estimate, se, df, p) of the paired differences a − b.
fn paired(a: &[f64], b: &[f64]) -> (f64, f64, f64, f64) {
    assert_eq!(a.len(), b.len());
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len() as f64;
    let m = d.iter().sum::<f64>() / n;
    let se = (d.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0) / n).sqrt();
    let p = if se == 0.0 { f64::from(m == 0.0) } else { 2.0 * t_upper((m / se).abs(), n - 1.0) };
    (m, se, n - 1.0, p)
}

fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    assert_eq!(header.join(","), "contrast,measure,a,b,primary,estimate,lo,hi,method,p_adjusted,verdict");
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(String::from)).collect()).collect()
}

#[test]
fn every_contrast_of_the_learners_is_recomputed_from_the_committed_fits() {
    let report: Value =
        serde_json::from_slice(&std::fs::read(root().join("reports/learners.json")).unwrap()).unwrap();
    let rows = read_csv(&root().join("reports/learners/contrasts.csv"));
    let declared = Declared::load(&root().join("experiments/learners.toml")).unwrap();
    let primaries: Vec<&BTreeMap<String, String>> = rows.iter().filter(|r| r["primary"] == "true").collect();
    let names: Vec<&str> = declared.contrasts.iter().filter(|c| c.primary).map(|c| c.name.as_str()).collect();
    assert!(!names.is_empty());
    assert_eq!(primaries.iter().map(|r| r["contrast"].as_str()).collect::<Vec<_>>(), names);
    let stats: Vec<(f64, f64, f64, f64)> = rows
        .iter()
        .map(|r| {
            assert_eq!(r["method"], "paired");
            paired(&values(&report, &r["a"], &r["measure"]), &values(&report, &r["b"], &r["measure"]))
        })
        .collect();
    // Holm over the primaries: the k-th smallest p (from 0) of m is read at 1 − 0.05/(m − k).
    let pp: Vec<(usize, f64)> = rows
        .iter()
        .zip(&stats)
        .enumerate()
        .filter(|(_, (r, _))| r["primary"] == "true")
        .map(|(i, (_, s))| (i, s.3))
        .collect();
    let m = pp.len();
    let mut order = pp.clone();
    order.sort_by(|x, y| x.1.total_cmp(&y.1));
    let (mut level, mut adjusted, mut running) = (BTreeMap::new(), BTreeMap::new(), 0.0f64);
    for (k, &(i, p)) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p).min(1.0));
        level.insert(i, 1.0 - 0.05 / (m - k) as f64);
        adjusted.insert(i, running);
    }
    let num = |r: &BTreeMap<String, String>, k: &str| -> f64 { r[k].parse().unwrap() };
    for (i, (r, &(estimate, se, df, _))) in rows.iter().zip(&stats).enumerate() {
        let what = &r["contrast"];
        assert!((num(r, "estimate") - estimate).abs() < 1e-4, "{what}: estimate {estimate}");
        let half = (num(r, "hi") - num(r, "lo")) / 2.0;
        let l = level.get(&i).copied().unwrap_or(0.95);
        // The exploratory intervals read t from a 3-decimal table.
        let expected = if se == 0.0 { 0.0 } else { t_quantile(0.5 + l / 2.0, df) * se };
        assert!(
            (half - expected).abs() < 2e-3 * (1.0 + se),
            "{what}: half-width {half}, recomputed {expected}"
        );
        match adjusted.get(&i) {
            None => {
                assert_eq!((r["p_adjusted"].as_str(), r["verdict"].as_str()), ("", "exploratory"), "{what}")
            }
            Some(&pa) => {
                assert!((num(r, "p_adjusted") - pa).abs() < 1e-5 + 1e-3 * pa, "{what}: p_adjusted {pa}");
                // The rule: a beats b (more accuracy; fewer bytes or epochs) where the interval at
                // Holm's level lies on that side of 0 and Holm's step reaches the contrast.
                let sign =
                    if ["exact_bytes", "epochs"].contains(&r["measure"].as_str()) { -1.0 } else { 1.0 };
                let (lo, hi) = (
                    (sign * num(r, "lo")).min(sign * num(r, "hi")),
                    (sign * num(r, "lo")).max(sign * num(r, "hi")),
                );
                let rule = if pa >= 0.05 || (lo <= 0.0 && hi >= 0.0) {
                    "not shown"
                } else if lo > 0.0 {
                    "supported"
                } else {
                    "contradicted"
                };
                assert_eq!(r["verdict"], rule, "{what}");
            }
        }
    }
    assert!(rows.len() >= 40, "{} contrasts", rows.len());
}

#[test]
fn a_declaration_without_a_primary_is_refused() {
    let text = std::fs::read_to_string(root().join("experiments/learners.toml")).unwrap();
    assert!(text.contains("primary = true"));
    let none: Declared = toml::from_str(&text.replace("primary = true", "primary = false")).unwrap();
    let e = none.check().unwrap_err().to_string();
    assert!(e.contains("no contrast is primary"), "{e}");
    let committed: Declared = toml::from_str(&text).unwrap();
    committed.check().unwrap();
}
