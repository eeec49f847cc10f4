//! The committed `reports/studies/*/contrasts.csv` recomputed from the committed `replicates.csv`
//! alone, with none of kpk's statistics: every paired contrast's estimate and interval, every
//! primary's Holm level, adjusted p-value and verdict. Student's t comes from tests/student_t,
//! integrated by Simpson's rule (kpk uses a continued fraction), so the two cannot share a mistake.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod student_t;
use student_t::{t_cdf, t_quantile, t_upper};

fn studies_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/studies")
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (m, x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0))
}

/// One row of a contrasts.csv, and what the replicates give for it: (estimate, se, df, p).
struct Row {
    study: String,
    cells: BTreeMap<String, String>,
    recomputed: (f64, f64, f64, f64),
}

fn read_csv(path: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(String::from)).collect()).collect()
}

fn recompute(replicates: &[BTreeMap<String, String>], c: &BTreeMap<String, String>) -> (f64, f64, f64, f64) {
    let values = |setting: &str| -> Vec<f64> {
        replicates
            .iter()
            .filter(|r| r["setting"] == setting)
            .filter_map(|r| r[&c["measure"]].parse().ok())
            .collect()
    };
    let (a, b) = (values(&c["a"]), values(&c["b"]));
    let (estimate, se, df) = if c["method"] == "paired" {
        assert_eq!(a.len(), b.len());
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let (m, v) = mean_var(&d);
        (m, (v / d.len() as f64).sqrt(), d.len() as f64 - 1.0)
    } else {
        assert_eq!(c["method"], "welch");
        let ((ma, va), (mb, vb)) = (mean_var(&a), mean_var(&b));
        let (qa, qb) = (va / a.len() as f64, vb / b.len() as f64);
        let df = (qa + qb).powi(2) / (qa * qa / (a.len() - 1) as f64 + qb * qb / (b.len() - 1) as f64);
        (ma - mb, (qa + qb).sqrt(), df)
    };
    let p = if se == 0.0 { f64::from(estimate == 0.0) } else { 2.0 * t_upper((estimate / se).abs(), df) };
    (estimate, se, df, p)
}

fn rows() -> Vec<Row> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(studies_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in dirs.iter().filter(|d| d.join("contrasts.csv").exists()) {
        let replicates = read_csv(&dir.join("replicates.csv"));
        for cells in read_csv(&dir.join("contrasts.csv")) {
            let recomputed = recompute(&replicates, &cells);
            out.push(Row { study: dir.file_name().unwrap().to_string_lossy().into(), cells, recomputed });
        }
    }
    out
}

fn num(row: &Row, key: &str) -> f64 {
    row.cells[key].parse().unwrap_or_else(|_| panic!("{}: {key} = '{}'", row.study, row.cells[key]))
}

#[test]
fn every_paired_contrast_is_recomputed_from_replicates_csv() {
    let rows = rows();
    assert!(rows.len() >= 50, "{} contrasts", rows.len());
    let primaries: Vec<&Row> = rows.iter().filter(|r| r.cells["primary"] == "true").collect();
    let studies: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.study.as_str()).collect();
    for s in &studies {
        assert!(primaries.iter().any(|r| r.study == *s), "{s} declares no primary contrast");
    }
    // Holm over the family of every study's primaries: the k-th smallest p (from 0) of m is read
    // at 1 − 0.05/(m − k); its adjusted p is the running maximum of (m − j)·p_(j).
    let m = primaries.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| primaries[i].recomputed.3.total_cmp(&primaries[j].recomputed.3));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * primaries[i].recomputed.3).min(1.0));
        adjusted[i] = running;
    }
    let mut paired = 0;
    for row in &rows {
        let (estimate, se, df, p) = row.recomputed;
        let what = format!("{}: {}", row.study, row.cells["contrast"]);
        // The committed values carry 4 decimals.
        assert!((num(row, "estimate") - estimate).abs() < 2e-4, "{what}: estimate {estimate}");
        let half = (num(row, "hi") - num(row, "lo")) / 2.0;
        let levels: Vec<f64> = if row.cells["primary"] == "true" {
            // The ranks this p could take, allowing for the rounding of replicates.csv.
            let close = |q: f64| (q - p).abs() <= 1e-2 * p.max(q) + 1e-12;
            let below = primaries.iter().filter(|r| r.recomputed.3 < p && !close(r.recomputed.3)).count();
            let tied = primaries.iter().filter(|r| close(r.recomputed.3)).count();
            (below..below + tied).map(|k| 1.0 - 0.05 / (m - k) as f64).collect()
        } else {
            assert_eq!(
                (row.cells["p_adjusted"].as_str(), row.cells["verdict"].as_str()),
                ("", "exploratory")
            );
            vec![0.95]
        };
        let fits = if se == 0.0 {
            half.abs() < 1e-4
        } else {
            levels.iter().any(|l| (t_quantile(0.5 + l / 2.0, df) * se - half).abs() < 2e-3)
        };
        assert!(fits, "{what}: half-width {half} at none of the levels {levels:?} (se {se}, df {df})");
        if row.cells["method"] == "paired" {
            paired += 1;
        }
    }
    assert!(paired >= 40, "{paired} paired contrasts");
    for (row, &pa) in primaries.iter().zip(&adjusted) {
        let what = format!("{}: {}", row.study, row.cells["contrast"]);
        // The committed accuracies carry 4 decimals: over T3 that moves a p-value by parts in 10⁴.
        assert!((num(row, "p_adjusted") - pa).abs() < 1e-5 + 5e-3 * pa, "{what}: p_adjusted {pa}");
        // The verdict rule: a beats b (more accuracy, fewer epochs) where the adjusted interval
        // lies above 0 on that side and Holm's step reaches it.
        let sign =
            if ["epochs", "state_epoch"].contains(&row.cells["measure"].as_str()) { -1.0 } else { 1.0 };
        let (lo, hi) = (sign * num(row, "lo"), sign * num(row, "hi"));
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        let rule = if pa >= 0.05 {
            "not shown"
        } else if lo > 0.0 {
            "supported"
        } else if hi < 0.0 {
            "contradicted"
        } else {
            "not shown"
        };
        let verdict = row.cells["verdict"].as_str();
        let own_sets = rule != "supported" && verdict == "not replicated on random sets";
        assert!(verdict == rule || own_sets, "{what}: {verdict}, the rule says {rule}");
    }
}

#[test]
fn the_integrated_t_distribution_matches_known_values() {
    // Cauchy (df = 1): P(T ≤ 1) = 3/4; t(0.975, 9) = 2.262, t(0.975, 19) = 2.093 (tables).
    assert!((t_cdf(1.0, 1.0) - 0.75).abs() < 1e-9);
    assert!((t_quantile(0.975, 9.0) - 2.262).abs() < 1e-3);
    assert!((t_quantile(0.975, 19.0) - 2.093).abs() < 1e-3);
    assert!((t_cdf(0.0, 4.5) - 0.5).abs() < 1e-12);
}
