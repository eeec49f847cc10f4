//! `reports/PLAY.md` and its figures, rendered from the match's results
//! ([`crate::play::results::MatchResults`], committed as `reports/play.json`): the prose is the
//! template `play.md`; nothing here plays or computes a number.

use crate::error::{Error, Result};
use crate::figures::plot::{Legend, LineChart, Series};
use crate::play::results::{MatchResults, PlayerKind, PlayerResult};
use crate::template::{Engine, Typed};

const TEMPLATE: &str = include_str!("play.md");

/// The figures' file stems under `reports/figures/`, and their size in pixels.
pub const FIGURES: [&str; 3] = ["play_wins_by_dtc", "play_cp_q", "play_excess"];
pub const FIGURE_SIZE: (u32, u32) = (960, 600);

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The report's text.
pub fn render(results: &MatchResults) -> Result<String> {
    let engine = Engine::new()
        .filter("pct", |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}")))
        .filter("q", |v: Option<u32>| v.map_or_else(|| "-".to_string(), |v| v.to_string()))
        .filter("bold", |v: String| format!("**{v}**"))
        .filter("and_list", |v: Typed<Vec<serde_json::Value>>| {
            let items: Vec<String> =
                v.0.iter().map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string)).collect();
            and_list(&items)
        })
        .template("play.md", TEMPLATE);
    engine
        .and_then(|e| e.render("play.md", results))
        .map_err(|e| Error::Format { path: e.name, message: e.message })
}

/// A player's line label: its name, and q for an evaluator.
fn label(r: &PlayerResult) -> String {
    r.q.map_or(r.name.clone(), |q| format!("{}, q = {q}", r.name))
}

/// The evaluators, by name, in the order first met.
fn searchers(results: &MatchResults) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for r in results.players.iter().filter(|r| r.q.is_some()) {
        if !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    names
}

/// The figures, in the order of [`FIGURES`]: % wins won by DTC (every player without search, and
/// each evaluator at q = 0), the largest p with all of Cp won by q, and the mean plies beyond DTC
/// by q.
pub fn figures(results: &MatchResults) -> Vec<LineChart> {
    let players = &results.players;
    let names = searchers(results);
    let mut by_dtc: Vec<Series> = players
        .iter()
        .filter(|r| r.q.is_none() || r.q == Some(0))
        .enumerate()
        .map(|(c, r)| {
            let points = r.by_dtc.iter().filter_map(|d| Some((d.dtc as f64, d.pct?))).collect();
            let line = Series::new(label(r), points, c).with_markers();
            // Perfect play is dashed, so that a player level with it (at 100%) shows beneath.
            if r.kind == PlayerKind::Perfect { line.dashed() } else { line }
        })
        .collect();
    // The dashed control last, on top.
    by_dtc.rotate_left(usize::from(players.first().is_some_and(|r| r.kind == PlayerKind::Perfect)));
    let by_q = |f: &dyn Fn(&PlayerResult) -> f64| -> Vec<Series> {
        names
            .iter()
            .enumerate()
            .map(|(c, name)| {
                // Each evaluator a little to the side of q, so that equal values stay visible.
                let dodge = (c as f64 - (names.len() as f64 - 1.0) / 2.0) * 0.03;
                let points = players
                    .iter()
                    .filter(|r| r.name == *name)
                    .filter_map(|r| Some((f64::from(r.q?) + dodge, f(r))))
                    .collect();
                Series::new(*name, points, c).with_markers()
            })
            .collect()
    };
    let cp = by_q(&|r| r.largest_p as f64);
    let excess = by_q(&|r| r.excess_mean);
    // The q axes run a little past the dodged points, so no marker is cut at the frame; q is a
    // whole number of plies, so are its ticks.
    let max_q = players.iter().filter_map(|r| r.q).max().unwrap_or(0);
    let q_span = Some((-0.3, f64::from(max_q) + 0.3));
    // Every value here is at least 0 and the legend stands outside the frame, so the y axes start
    // at 0.
    let chart = |title: &str, x: &str, y: &str, series: Vec<Series>, y_range: (f64, f64)| LineChart {
        title: title.into(),
        x_label: x.into(),
        y_label: y.into(),
        y_range,
        y2: None,
        x_range: if x.starts_with("q:") { q_span } else { None },
        log_x: false,
        log_y: false,
        legend: Legend::Right,
        integer_x: x.starts_with("q:"),
        series,
    };
    let top = |s: &[Series]| s.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(1.0, f64::max) * 1.08;
    let (dtc_range, cp_range, excess_range) = ((0.0, 104.0), (0.0, top(&cp)), (0.0, top(&excess)));
    let q_axis = "q: plies searched below the move (evaluators set a little apart)";
    vec![
        chart(
            "Wins won against DTC (players without search, evaluators at q = 0)",
            "DTC of the start position (plies)",
            "wins won (%)",
            by_dtc,
            dtc_range,
        ),
        chart(
            "Section 2: the largest p with every position of Cp won, by search depth",
            q_axis,
            "largest p (DTC, plies)",
            cp,
            cp_range,
        ),
        chart(
            "Mean plies beyond DTC in the converted games",
            q_axis,
            "plies beyond DTC (mean)",
            excess,
            excess_range,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::matches::{PawnSide, Record};
    use crate::play::results::{Nn6Training, analyse};

    /// A record of a player that converts the wins of DTC 1..=`p` (of 1..=3), and no other.
    fn made_up(name: &str, q: Option<u32>, p: usize, excess: usize) -> (PlayerKind, Record) {
        let positions = vec![0, 10, 10, 10];
        let converted = (0..4).map(|d| if (1..=p).contains(&d) { 10 } else { 0 }).collect();
        let pawn = PawnSide { positions, converted, excess_sum: excess, excess_max: excess };
        let kind = if q.is_some() { PlayerKind::Evaluator } else { PlayerKind::Perfect };
        (kind, Record { name: name.into(), q, pawn, drawn: 5, held: 5 })
    }

    fn made_up_results(table: &[(&str, [usize; 4])]) -> MatchResults {
        let mut played = vec![made_up("perfect", None, 3, 0)];
        for (name, ps) in table {
            for (q, &p) in ps.iter().enumerate() {
                played.push(made_up(name, Some(q as u32), p.min(3), 0));
            }
        }
        analyse(&played, &[], 100, [Nn6Training { accuracy_pct: 99.5, epochs: 3 }; 2])
    }

    fn verdict(results: &MatchResults) -> String {
        let text = render(results).unwrap();
        text.lines().find(|l| l.starts_with("Verdict")).unwrap().to_string()
    }

    #[test]
    fn the_verdict_words_the_claim_computed() {
        let r = made_up_results(&[("a", [1, 1, 3, 3]), ("b", [1, 2, 3, 3])]);
        assert_eq!(
            verdict(&r),
            "Verdict, computed from the table (q = 1, 2 and 3): the claim holds for **b**; it fails for \
             **a** (p = 1 at q = 1, where the claim needs 2)."
        );
        let r = made_up_results(&[("a", [1, 2, 3, 3])]);
        assert!(verdict(&r).ends_with("the claim holds for every evaluator: **a**."), "{}", verdict(&r));
        let r = made_up_results(&[("a", [1, 1, 1, 1])]);
        assert!(verdict(&r).contains("holds for no evaluator: **a** (p = 1 at q = 1"), "{}", verdict(&r));
    }

    #[test]
    fn the_tables_are_rows_of_the_results() {
        let text = render(&made_up_results(&[("e", [1, 2, 3, 3])])).unwrap();
        assert!(text.contains("\n| perfect | - | 30 | 30 | 100.00 | 0.00 | 0 | 3 |\n"), "{text}");
        assert!(text.contains("\n| e | 0 | 5 | 5 | 100.00 |\n"), "{text}");
        assert!(text.contains("\n| e | 0 | 33.33 | - | - | - | - | - |\n"), "{text}");
        assert!(!text.contains("{{") && !text.contains("{%"), "{text}");
    }

    #[test]
    fn the_figures_start_at_zero_with_whole_q_ticks_and_the_legend_beside() {
        let charts = figures(&made_up_results(&[("e", [1, 2, 3, 3])]));
        assert_eq!(charts.len(), FIGURES.len());
        for (c, q_axis) in charts.iter().zip([false, true, true]) {
            assert_eq!(c.y_range.0, 0.0, "{}", c.title);
            assert_eq!(c.integer_x, q_axis, "{}", c.title);
            assert_eq!(c.legend, Legend::Right, "{}", c.title);
        }
    }
}
