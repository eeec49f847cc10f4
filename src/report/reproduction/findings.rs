//! The parts of `REPRODUCTION.md` that rest on replicates and on extra runs: Table 5 with
//! intervals, the readings of the stopping rule compared, the learning-rate sweep, trial 40 as
//! trial 39 continued, and section 5.1's comments checked. Each is a template of
//! `report/templates/reproduction/` filled from the report's data.

use super::{replicated, robustness, templates};
use crate::analysis::reproduction::data::{Readings, Reproduction};
use crate::analysis::reproduction::section51::Section51;
use crate::error::Result;
use crate::experiment::readings_intervals::ReadingInterval;
use crate::experiment::sweep::{BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED};
use crate::paper::tables::{self, Scope};
use crate::template::Engine;
use serde_json::json;

/// Table 5 over the replicates, or nothing where the run made none.
pub fn replicated(e: &Engine, r: &Reproduction) -> Result<String> {
    if r.replicated.is_empty() {
        return Ok(String::new());
    }
    let small = r.replicated.iter().find(|s| tables::scope(s.trial) == Some(Scope::Small));
    let whole = r.replicated.iter().find(|s| tables::scope(s.trial) == Some(Scope::Whole));
    let tested: Vec<bool> = r.replicated.iter().filter_map(|s| s.paper_test_inside).collect();
    let context = json!({
        "small": {
            "replicates": small.map_or(0, |s| s.replicates),
            "seeds": small.map_or(0, |s| s.seeds),
            "draws": small.map_or(0, |s| s.draws),
        },
        "whole_replicates": whole.map_or(0, |s| s.replicates),
        "table": replicated::markdown(&r.replicated, &r.paper, &r.trials),
        "below": r.replicated.iter().filter(|s| replicated::cap_mark(s, &r.trials) == replicated::BELOW_THE_PAPERS).map(|s| json!({"trial": s.trial, "paper": s.paper_epochs, "budget": r.trial(s.trial).map(|t| t.max_epochs)})).collect::<Vec<_>>(),
        "at": r.replicated.iter().filter(|s| replicated::cap_mark(s, &r.trials) == replicated::AT_THE_PAPERS).map(|s| s.trial).collect::<Vec<u8>>(),
        "n": r.replicated.len(),
        "train_in": r.replicated.iter().filter(|s| s.paper_train_inside).count(),
        "test_in": tested.iter().filter(|&&b| b).count(),
        "tested": tested.len(),
        "epochs_in": r.replicated.iter().filter(|s| s.paper_epochs_inside).count(),
        // The trials whose runs reached their budget.
        "capped": r.replicated.iter().filter(|s| s.capped > 0).map(|s| s.trial).collect::<Vec<u8>>(),
    });
    templates::render(e, "replicated", &context)
}

/// Section 5.1's comments against the replicates, or nothing where no claim was checked.
pub fn section51(e: &Engine, r: &Reproduction) -> Result<String> {
    if r.section51.claims.is_empty() {
        return Ok(String::new());
    }
    templates::render(e, "section51", &section51_context(&r.section51))
}

/// The template's data: the section as analysed, with the claims whose intervals were computed.
pub fn section51_context(s: &Section51) -> serde_json::Value {
    serde_json::json!({
        "s": s,
        "conspicuous": s.claims.iter().find_map(|c| c.contrast.not_better_by.map(|n| n.margin)),
    })
}

/// The readings of section 4.5 compared (`kpk readings`, `reports/readings/distances.csv`), or
/// nothing where they were not run.
pub fn readings(e: &Engine, readings: &Readings) -> Result<String> {
    let Some(first) = readings.distances.first() else {
        return Ok(String::new());
    };
    let interval = |label: &str| -> Option<&ReadingInterval> {
        readings.ranking.as_ref().and_then(|r| r.order.iter().find(|o| o.reading == label))
    };
    let mut sorted: Vec<_> = readings.distances.iter().collect();
    sorted.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    let rows: Vec<_> = sorted
        .iter()
        .map(|d| {
            let mut row = serde_json::to_value(d).unwrap_or_default();
            row["interval"] = serde_json::to_value(interval(&d.reading)).unwrap_or_default();
            row
        })
        .collect();
    // Keeping the least error measure against keeping the most correct state: the least gap of
    // the one and the greatest of the other, said only where they do not overlap.
    let points = |keep: &'static str| {
        readings.distances.iter().filter(move |d| d.keep == keep).map(|d| d.train_points)
    };
    let least = points("least_error").fold(f64::INFINITY, f64::min);
    let most = points("most_correct").fold(f64::NEG_INFINITY, f64::max);
    let least_error = (least.is_finite() && most.is_finite() && least > most)
        .then(|| json!({"least": least, "most": most}));
    let context = json!({
        "small_set_replicates": first.small_set_replicates,
        "whole_set_replicates": first.whole_set_replicates,
        "rows": rows,
        "best": sorted[0],
        "least_error": least_error,
        "kept": readings.least_error_kept,
    });
    let mut md = templates::render(e, "readings", &context)?;
    if let Some(r) = readings.ranking.as_ref().filter(|r| r.order.len() >= 2) {
        md += &robustness::markdown(e, r, readings)?;
    }
    Ok(md)
}

/// The learning-rate sweep of the small-set trials (`kpk readings --learning-rates`,
/// `reports/readings/sweep.csv`), each rate against the configs' by a paired bootstrap.
pub fn sweep(e: &Engine, readings: &Readings) -> Result<String> {
    let rows = &readings.sweep;
    let Some(first) = rows.first() else {
        return Ok(String::new());
    };
    let configs = first.configs_rate;
    let context = json!({
        "configs": configs,
        "resamples": BOOTSTRAP_RESAMPLES,
        "seed": BOOTSTRAP_SEED,
        "rows": rows,
        // Rates measurably closer than the configs' (the interval of the difference below 0), and
        // those not told apart from it (the interval holds 0).
        "closer": rows.iter().filter(|r| r.vs_configs_hi < 0.0).map(|r| r.learning_rate).collect::<Vec<_>>(),
        "tied": rows
            .iter()
            .filter(|r| r.learning_rate != configs && r.vs_configs_lo <= 0.0 && r.vs_configs_hi >= 0.0)
            .map(|r| r.learning_rate)
            .collect::<Vec<_>>(),
    });
    templates::render(e, "sweep", &context)
}

/// Trial 40 as the paper may have run it: trial 39 continued to 6,285 epochs, beside the
/// independent trial 40; nothing where the continued run is missing.
pub fn continued(e: &Engine, r: &Reproduction) -> Result<String> {
    let Some(c) = &r.continued else {
        return Ok(String::new());
    };
    templates::render(e, "continued", &json!({ "c": c, "t40": r.trial(40) }))
}
