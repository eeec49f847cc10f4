//! The report's Markdown: the template `templates/reproduction/reproduction.md.j2` (the fixed prose, Table 5 beside
//! the paper, the figures) with the sections of the other templates and of the modules that
//! render their own tables filled in.

use super::{
    FIGURE3_PNG, NN6_PNG, TABLE5_PNG, TABLE6_MATCHED_SVG, TABLE6_OURS_SVG, TABLE6_PAPER_SVG, discussion,
    domain_notes, findings, groups, standing, table6, templates,
};
use crate::analysis::reproduction::data::Reproduction;
use crate::analysis::reproduction::key;
use crate::analysis::reproduction::table6_groups::matched_runs;
use crate::error::Result;
use crate::experiment::table6::Matched;
use crate::paper::tables::{self, Scope};
use crate::template::Engine;
use serde_json::{Value, json};
use std::collections::HashSet;

/// (caption, path relative to the report) of each figure drawn by [`super::outputs`].
pub fn figures(r: &Reproduction) -> Result<Vec<(String, &'static str)>> {
    let labels = &super::figures::LABELS;
    Ok(vec![
        (super::figures::figure3_caption(&r.paper)?, FIGURE3_PNG),
        (labels.nn6.caption.clone(), NN6_PNG),
        (labels.table5.caption.clone(), TABLE5_PNG),
    ])
}

/// Render the report as Markdown.
pub fn render(r: &Reproduction) -> Result<String> {
    let e = templates::engine()?;
    let context = json!({
        "summary": crate::report::summary::markdown(&r.summary)?,
        "domain": domain_notes::markdown(&e, &r.domain)?,
        "table5": table5_rows(r),
        "replicated": findings::replicated(&e, r)?,
        "readings": findings::readings(&e, &r.readings)?,
        "sweep": findings::sweep(&e, &r.readings)?,
        "standing": standing::markdown(&e, &r.replicated, &r.trials)?,
        "figures": figures(r)?,
        "table6": table6_section(&e, r)?,
        "matched": matched_section(&e, r)?,
        "continued": findings::continued(&e, r)?,
        "section51": findings::section51(&e, r)?,
        // The gap studies' measurements follow the discussion whose hypotheses they test.
        "discussion": discussion::markdown(&e, r)? + &discussion::gap(&e, &r.gap, &r.paper)?,
    });
    let md = templates::render(&e, "report", &context)?;
    crate::report::summary::check_sections(&r.summary, &md)?;
    Ok(md)
}

/// Each row of the paper's Table 5 with our trial of the same number, where run.
fn table5_rows(r: &Reproduction) -> Vec<Value> {
    r.paper
        .iter()
        .map(|p| {
            let ours = r.trial(p.trial).map(|s| {
                json!({
                    "epochs": s.epochs,
                    "best_epoch": s.best_epoch,
                    "weights": s.weights,
                    "train": s.train_accuracy_pct,
                    "margin": s.train_accuracy_at_margin_pct,
                    "test": s.test_accuracy_pct,
                })
            });
            json!({
                "paper": {
                    "trial": p.trial, "side": tables::side_name(p.side), "nn": p.nn, "topology": p.topology,
                    "weights": p.weights, "bits": p.bits, "comp": p.comp, "train_set": p.train_set,
                    "error_fn": p.error_fn, "target": p.target, "epochs": p.epochs,
                    "train": p.train_acc_pct, "test": p.test_acc_pct,
                },
                "ours": ours,
                // The whole-set trials' accuracies get two decimals: 99.96 % and 100 % differ by
                // 8 positions.
                "whole_set": p.scope() == Scope::Whole,
            })
        })
        .collect()
}

/// Our best net's misclassified a-file positions beside the paper's Table 6.
fn table6_section(e: &Engine, r: &Reproduction) -> Result<String> {
    let Some(best) = r.best() else {
        return Ok(String::new());
    };
    let paper_keys: HashSet<_> = r.paper_table6.iter().map(|p| key(&p.wk, &p.bk, &p.wp)).collect();
    let ours_keys: HashSet<_> = r.best_misclassified.iter().map(|m| key(&m.wk, &m.bk, &m.wp)).collect();
    let paper_row = |wk: &str, bk: &str, wp: &str| {
        r.paper_table6.iter().find(|p| key(&p.wk, &p.bk, &p.wp) == key(wk, bk, wp)).map(|p| p.n)
    };
    let rows: Vec<Value> = r
        .best_misclassified
        .iter()
        .map(|m| json!({ "m": m, "paper_row": paper_row(&m.wk, &m.bk, &m.wp) }))
        .collect();
    let on_both: Vec<u8> = r
        .paper_table6
        .iter()
        .filter(|p| ours_keys.contains(&key(&p.wk, &p.bk, &p.wp)))
        .map(|p| p.n)
        .collect();
    let context = json!({
        "best": best,
        "rows": rows,
        "paper_count": r.paper_table6.len(),
        "common": ours_keys.intersection(&paper_keys).count(),
        "missing": r.paper_table6.len() - on_both.len(),
        "on_both": on_both,
        "ours_svg": TABLE6_OURS_SVG,
        "paper_svg": TABLE6_PAPER_SVG,
    });
    templates::render(e, "table6", &context)
}

/// Table 6 at matched accuracy, its board diagrams and the paper's groups against the runs.
fn matched_section(e: &Engine, r: &Reproduction) -> Result<String> {
    let Some(m) = &r.matched else {
        return Ok(String::new());
    };
    let mut md = table6::markdown(e, m, &r.paper_table6)? + "\n";
    md += &matched_figure(e, m)?;
    if let Some(g) = &r.table6_groups {
        md += &groups::markdown(e, g, m, &r.paper_table6)?;
    }
    Ok(md)
}

/// The board diagrams of the positions wrong in at least half the matched runs, embedded.
fn matched_figure(e: &Engine, m: &Matched) -> Result<String> {
    let png = std::path::Path::new(TABLE6_MATCHED_SVG).with_extension("png");
    let context = json!({
        "drawn": table6::matched_diagrams(m)?.len(),
        "runs": matched_runs(m),
        "svg": TABLE6_MATCHED_SVG,
        "png": png.display().to_string(),
    });
    templates::render(e, "matched_figure", &context)
}
