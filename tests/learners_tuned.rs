//! The committed tuned comparison (reports/learners_tuned/) held to its declaration and recomputed
//! with this file's own code: training_draws.csv holds the declared draws; each learner's untuned
//! fit on a draw reproduces the committed untuned run's row for that draw (reports/learners/
//! draws.csv); and every primary's estimate, its three Holm-adjusted p-values (the minimal-effect
//! test, TOST, the test of 0) and its words follow from draws.csv by a paired t written here, with
//! tests/student_t's distribution (none of kpk's statistics).

mod student_t;

use kpk::dataset::Side;
use kpk::learners::draws::training_draw;
use kpk::learners::tune::TunedDesign;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn design() -> TunedDesign {
    TunedDesign::load(Path::new("experiments/learners_tuned.toml")).unwrap()
}

fn csv_rows(path: &str) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

/// (learner, side) → test % by draw, from the tuned draws.csv (`column`).
fn tuned(column: &str) -> BTreeMap<(String, String), BTreeMap<usize, f64>> {
    let mut out: BTreeMap<(String, String), BTreeMap<usize, f64>> = BTreeMap::new();
    for r in csv_rows("reports/learners_tuned/draws.csv") {
        let key = (r["learner"].clone(), r["side"].clone());
        out.entry(key).or_default().insert(r["draw"].parse().unwrap(), r[column].parse().unwrap());
    }
    out
}

#[test]
fn training_draws_csv_holds_the_declared_draws() {
    let d = design();
    let rows = csv_rows("reports/learners_tuned/training_draws.csv");
    assert_eq!(rows.len(), d.sides.len() * d.draws);
    for r in rows {
        let side = if r["side"] == "btm" { Side::Btm } else { Side::Wtm };
        let n: usize = r["n"].parse().unwrap();
        let want = training_draw(d.seed, side, n, r["draw"].parse().unwrap());
        let got: Vec<usize> = r["indices"].split(' ').map(|i| i.parse().unwrap()).collect();
        assert_eq!(got, want);
    }
}

#[test]
fn each_untuned_fit_reproduces_the_committed_untuned_run_on_its_draw() {
    let untuned = tuned("untuned_test_pct");
    let mut checked = 0;
    for r in csv_rows("reports/learners/draws.csv") {
        let paper = (r["side"] == "wtm" && r["n"] == "125") || (r["side"] == "btm" && r["n"] == "136");
        if !paper || r["inputs"] != "x1..x32" {
            continue;
        }
        let Some(by_draw) = untuned.get(&(r["learner"].clone(), r["side"].clone())) else { continue };
        let Some(&v) = by_draw.get(&r["draw"].parse().unwrap()) else { continue };
        assert_eq!(
            v,
            r["test_pct"].parse::<f64>().unwrap(),
            "{} {} draw {}",
            r["learner"],
            r["side"],
            r["draw"]
        );
        checked += 1;
    }
    // Seven learners of the untuned run on both sides, on every tuned draw.
    assert_eq!(checked, 7 * 2 * design().draws);
}

fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].partial_cmp(&p[b]).unwrap());
    let (mut out, mut running) = (vec![0.0; p.len()], 0.0f64);
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((p.len() - rank) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 + 1e-6 * b.abs()
}

#[test]
fn every_primary_recomputes_from_draws_csv() {
    let d = design();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string("reports/learners_tuned.json").unwrap()).unwrap();
    let primaries = report["reading"]["primaries"].as_array().unwrap();
    assert_eq!(primaries.len(), d.sides.len() * d.comparators.len() * d.learners.len());
    let test = tuned("test_pct");
    let (mut beyond, mut tost, mut zero, mut est) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for p in primaries {
        let side = p["side"].as_str().unwrap().to_string();
        let a = &test[&(p["a"].as_str().unwrap().to_string(), side.clone())];
        let b = &test[&(p["b"].as_str().unwrap().to_string(), side)];
        assert_eq!(a.len(), d.draws);
        let diffs: Vec<f64> = a.iter().map(|(k, v)| v - b[k]).collect();
        let k = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / k;
        let se = (diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0) / k).sqrt();
        let df = k - 1.0;
        let m = d.margin;
        let upper = student_t::t_upper((mean - m) / se, df);
        let lower = student_t::t_cdf((mean + m) / se, df);
        beyond.push((2.0 * upper.min(lower)).min(1.0));
        tost.push(student_t::t_upper((mean + m) / se, df).max(student_t::t_cdf((mean - m) / se, df)));
        zero.push(2.0 * student_t::t_upper(mean.abs() / se, df));
        est.push(mean);
        assert!(close(p["estimate"].as_f64().unwrap(), mean), "{}", p["name"]);
    }
    let (hb, ht, hz) = (holm(&beyond), holm(&tost), holm(&zero));
    for (i, p) in primaries.iter().enumerate() {
        let near = |field: &str, want: f64| (p[field].as_f64().unwrap() - want).abs() <= 1e-6 + 1e-3 * want;
        assert!(
            near("p_beyond_adjusted", hb[i])
                && near("p_tost_adjusted", ht[i])
                && near("p_zero_adjusted", hz[i])
        );
        let size = if hb[i] <= d.alpha {
            "beyond"
        } else if ht[i] <= d.alpha {
            "within"
        } else {
            "undetermined"
        };
        let direction = match (hz[i] <= d.alpha, est[i] > 0.0) {
            (false, _) => "not_shown",
            (true, true) => "better",
            (true, false) => "worse",
        };
        assert_eq!(
            (p["size"].as_str().unwrap(), p["direction"].as_str().unwrap()),
            (size, direction),
            "{}",
            p["name"]
        );
    }
}
