//! The committed comparison held to its declaration and recomputed with this file's own code:
//! learners.json's design is the declaration file's (and the file is unchanged since the commit
//! that declared it), draws.csv has the declared draws with test sets of every other position,
//! and every primary's estimate, Holm-adjusted p-values (superiority and TOST) and verdict follow
//! from draws.csv by a paired t written here, with tests/student_t's distribution (none of kpk's
//! statistics).

mod student_t;

use kpk::learners::design::Design;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const DECLARATION: &str = "experiments/learners_powered.toml";

fn report() -> Value {
    serde_json::from_str(&std::fs::read_to_string("reports/learners.json").unwrap()).unwrap()
}

/// draws.csv as (learner, inputs, side, n) → [(draw, test_pct, test_n)].
type Cells = BTreeMap<(String, String, String, usize), Vec<(usize, f64, usize)>>;

fn draws() -> Cells {
    let text = std::fs::read_to_string("reports/learners/draws.csv").unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("learner,inputs,side,n,draw,train_pct,test_pct,test_n,passes"));
    let mut cells = Cells::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 9, "{line}");
        let key = (f[0].to_string(), f[1].to_string(), f[2].to_string(), f[3].parse().unwrap());
        cells.entry(key).or_default().push((
            f[4].parse().unwrap(),
            f[6].parse().unwrap(),
            f[7].parse().unwrap(),
        ));
    }
    cells
}

#[test]
fn the_results_hold_the_committed_declaration() {
    let declared = Design::load(Path::new(DECLARATION)).unwrap();
    let run: Design = serde_json::from_value(report()["design"].clone()).unwrap();
    assert_eq!(run, declared, "learners.json's design differs from {DECLARATION}: rerun kpk learners");
    let commit = report()["declared_in"].as_str().unwrap().to_string();
    let shown = std::process::Command::new("git").args(["show", &format!("{commit}:{DECLARATION}")]).output();
    match shown {
        Ok(o) if o.status.success() => {
            assert_eq!(
                o.stdout,
                std::fs::read(DECLARATION).unwrap(),
                "the declaration changed after {commit}"
            )
        }
        // Outside a git checkout (a source tarball) the commit cannot be read back.
        _ => eprintln!("no git history: the declaring commit {commit} is not checked"),
    }
}

#[test]
fn draws_csv_has_the_declared_draws_tested_on_every_other_position() {
    let design = Design::load(Path::new(DECLARATION)).unwrap();
    let cells = draws();
    let learners = ["rule_list", "tree", "naive_bayes", "logistic", "boosted_trees", "mlp", "mlp_converged"];
    for side in ["wtm", "btm"] {
        let (paper, size) = if side == "wtm" { (125, 81_664) } else { (136, 84_012) };
        let sizes = std::iter::once((paper, design.paper_draws))
            .chain(design.sizes.iter().copied().zip(design.draws.iter().copied()));
        for (n, want) in sizes {
            assert!(want >= if n <= 1000 { 40 } else { 10 }, "{side} n = {n}: {want} draws declared");
            for learner in learners {
                for inputs in ["x1..x32", "x1..x6"] {
                    let rows = &cells[&(learner.to_string(), inputs.to_string(), side.to_string(), n)];
                    let mut ids: Vec<usize> = rows.iter().map(|r| r.0).collect();
                    ids.sort_unstable();
                    assert_eq!(ids, (0..want).collect::<Vec<_>>(), "{learner} {inputs} {side} {n}");
                    assert!(rows.iter().all(|r| r.2 == size - n), "{learner} {inputs} {side} {n}: test sets");
                }
            }
        }
    }
}

/// Holm's adjusted p-values, in the order given.
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

/// Mean, standard error and degrees of freedom of the differences.
fn paired(d: &[f64]) -> (f64, f64, f64) {
    let k = d.len() as f64;
    let mean = d.iter().sum::<f64>() / k;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, (var / k).sqrt(), k - 1.0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 + 1e-3 * b.abs()
}

#[test]
fn every_primary_recomputes_from_draws_csv() {
    let report = report();
    let design = Design::load(Path::new(DECLARATION)).unwrap();
    let cells = draws();
    let sizes = &report["sizes"];
    let tree = sizes["tree_bytes"].as_f64().unwrap();
    let mut read = Vec::new();
    for p in &design.primaries {
        let d: Vec<f64> = if p.a == "tree" && p.b == "hybrid" {
            sizes["hybrid_bytes"].as_array().unwrap().iter().map(|h| tree - h.as_f64().unwrap()).collect()
        } else {
            let n = if p.side.to_string() == "wtm" { 125 } else { 136 };
            let arm = |l: &str| {
                let mut v = cells[&(l.to_string(), "x1..x32".to_string(), p.side.to_string(), n)].clone();
                v.sort_by_key(|r| r.0);
                v
            };
            arm(&p.a).iter().zip(arm(&p.b)).map(|(x, y)| x.1 - y.1).collect()
        };
        read.push(paired(&d));
    }
    let p_sup: Vec<f64> =
        read.iter().map(|&(m, se, df)| 2.0 * student_t::t_upper((m / se).abs(), df)).collect();
    let acc: Vec<usize> = (0..read.len()).filter(|&i| design.primaries[i].b != "hybrid").collect();
    let m = design.margin;
    let p_tost: Vec<f64> = acc
        .iter()
        .map(|&i| {
            let (mean, se, df) = read[i];
            student_t::t_upper((mean + m) / se, df).max(student_t::t_upper((m - mean) / se, df))
        })
        .collect();
    let (sup_holm, tost_holm) = (holm(&p_sup), holm(&p_tost));
    let committed = report["primaries"].as_array().unwrap();
    assert_eq!(committed.len(), design.primaries.len());
    for (i, c) in committed.iter().enumerate() {
        let name = c["name"].as_str().unwrap();
        assert_eq!(name, design.primaries[i].name);
        assert!(close(c["estimate"].as_f64().unwrap(), read[i].0), "{name}: estimate");
        assert!(
            close(c["p_adjusted"].as_f64().unwrap(), sup_holm[i]),
            "{name}: Holm's p {} vs {}",
            c["p_adjusted"],
            sup_holm[i]
        );
        let k = acc.iter().position(|&j| j == i);
        if let Some(k) = k {
            assert!(
                close(c["equivalence"]["p_tost_adjusted"].as_f64().unwrap(), tost_holm[k]),
                "{name}: TOST p"
            );
        }
        let better = (read[i].0 > 0.0) == k.is_some();
        let want = if sup_holm[i] < design.alpha {
            if better { "shown_better" } else { "shown_worse" }
        } else if k.is_some_and(|k| tost_holm[k] < design.alpha) {
            "shown_equivalent"
        } else {
            "inconclusive"
        };
        assert_eq!(c["verdict"].as_str().unwrap(), want, "{name}");
    }
}

#[test]
fn the_declarations_power_table_is_what_kpk_learners_power_prints() {
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_kpk")).args(["learners", "--power"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let declaration = std::fs::read_to_string(DECLARATION).unwrap();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        assert!(declaration.contains(&format!("#   {line}\n")), "the declaration does not hold: {line}");
    }
}
