//! Under the readings table of `REPRODUCTION.md`: what its intervals are, whether the closest
//! reading is measurably closer than the runner-up, and whether the ranking rests on runs cut at
//! their budget (trial 41's budget is the paper's own epoch count) or on the whole-set trials
//! ([`crate::analysis::reproduction::readings_robustness`]).

use super::templates;
use crate::analysis::reproduction::data::Readings;
use crate::analysis::reproduction::readings_robustness::ranges;
use crate::error::Result;
use crate::experiment::readings_intervals::Ranking;
use crate::experiment::sweep::{BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED};
use crate::template::Engine;
use serde_json::{Value, json};

/// "trial 41" or "trials 39-41".
fn trials_phrase(trials: &[u8]) -> String {
    format!("trial{} {}", if trials.len() == 1 { "" } else { "s" }, ranges(trials))
}

/// `text` with its first letter upper-case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// How many readings stand at another place than in `all`'s order.
fn moved(all: &Ranking, other: &Ranking) -> usize {
    all.labels().iter().zip(other.labels()).filter(|(a, b)| **a != *b).count()
}

/// One row of the robustness table: the trials ranked over, the top two, their paired difference,
/// how many readings change place against the order over all trials.
fn row(name: String, r: &Ranking, all: &Ranking) -> Value {
    let (first, second) = (&r.order[0], &r.order[1]);
    json!({
        "name": name, "count": r.trials.len(),
        "first": first.reading, "first_distance": first.distance,
        "second": second.reading, "second_distance": second.distance,
        "vs": second.vs_closest, "lo": second.vs_closest_lo, "hi": second.vs_closest_hi,
        "moved": moved(all, r), "total": r.order.len(),
    })
}

/// The paragraphs and the table under the readings table (the template `robustness.md.j2`), from
/// `all` (the ranking over every trial) and the subsets' rankings.
pub fn markdown(e: &Engine, all: &Ranking, readings: &Readings) -> Result<String> {
    let mut rows = vec![row(format!("all ({})", ranges(&all.trials)), all, all)];
    // (trials, the same closest reading as over all, measurably closer than the runner-up)
    let mut verdicts: Vec<(String, bool, bool)> = Vec::new();
    for (name, r) in &readings.subsets {
        rows.push(row(format!("{name} ({})", ranges(&r.trials)), r, all));
        verdicts.push((
            ranges(&r.trials),
            r.order[0].reading == all.order[0].reading,
            r.order[1].vs_closest_lo > 0.0,
        ));
    }
    let list = |f: &dyn Fn(&(String, bool, bool)) -> bool| -> Vec<String> {
        verdicts.iter().filter(|v| f(v)).map(|v| v.0.clone()).collect()
    };
    let verdicts = (!verdicts.is_empty())
        .then(|| json!({ "others": list(&|v| !v.1), "apart": list(&|v| v.2), "not_apart": list(&|v| !v.2) }));
    let fixed = (!all.fixed.is_empty())
        .then(|| json!({ "phrase": capitalised(&trials_phrase(&all.fixed)), "one": all.fixed.len() == 1 }));
    let context = json!({
        "resamples": BOOTSTRAP_RESAMPLES,
        "seed": BOOTSTRAP_SEED,
        "fixed": fixed,
        "n_all": all.trials.len(),
        "first": all.order[0].reading,
        "second": all.order[1].reading,
        // The readings whose difference from the closest has an interval reaching 0.
        "tied": all.order[1..].iter().filter(|o| o.vs_closest_lo <= 0.0).map(|o| &o.reading).collect::<Vec<_>>(),
        "capped": readings.at_the_papers_count,
        "n_readings": all.order.len(),
        "rows": rows,
        "verdicts": verdicts,
    });
    templates::render(e, "robustness", &context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trial_lists_are_written_as_phrases() {
        assert_eq!(trials_phrase(&[39, 40, 41]), "trials 39-41");
        assert_eq!(trials_phrase(&[41]), "trial 41");
        assert_eq!(capitalised("trials 38-41"), "Trials 38-41");
    }
}
