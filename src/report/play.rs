//! `reports/PLAY.md`, `reports/play/results.csv`, `reports/play/seeds.csv` and the figures,
//! rendered from the match's results ([`crate::play::results::MatchResults`], committed as
//! `reports/play.json`): the prose is the template `templates/play.md.j2`, the figures' words
//! `play_figures.toml`; nothing here plays or computes a number.

use crate::error::{Error, Result};
use crate::figures::colours::{Measure, category};
use crate::figures::plot::{Legend, LineChart, Series};
use crate::play::results::{MatchResults, PlayerKind, PlayerResult};
use crate::stats::Interval;
use crate::template::{Engine, Typed};
use serde::Deserialize;

const TEMPLATE: &str = include_str!("templates/play.md.j2");
const FIGURE_TEXT: &str = include_str!("play_figures.toml");

/// The figures' file stems under `reports/figures/`, and their size in pixels.
pub const FIGURES: [&str; 3] = ["play_wins_by_dtc", "play_cp_q", "play_excess"];
pub const FIGURE_SIZE: (u32, u32) = (960, 600);

/// The columns of `reports/play/results.csv`.
pub const CSV_COLUMNS: [&str; 9] = [
    "player",
    "q",
    "seeds",
    "wins_won_mean",
    "wins_won_lo",
    "wins_won_hi",
    "draws_held_mean",
    "draws_held_lo",
    "draws_held_hi",
];

/// The columns of `reports/play/seeds.csv`.
pub const SEEDS_CSV_COLUMNS: [&str; 13] = [
    "player",
    "q",
    "seed",
    "won",
    "converted",
    "excess_sum",
    "drawn",
    "held",
    "largest_p",
    "mated",
    "mate_plies_sum",
    "dtm_sum",
    "lost_mated",
];

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A mean over seeds with its interval, `39.80 (38.12–41.48)`, or `-1.61 (-2.62 to -0.59)` where
/// a bound is negative; the mean alone for one seed.
fn interval(i: &Interval, digits: usize) -> String {
    match i.n {
        0 | 1 => format!("{:.digits$}", i.mean),
        _ if i.lo < 0.0 => format!("{:.d$} ({:.d$} to {:.d$})", i.mean, i.lo, i.hi, d = digits),
        _ => i.show(digits),
    }
}

/// The report's text.
pub fn render(results: &MatchResults) -> Result<String> {
    let engine = Engine::new()
        .filter("pct", |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}")))
        .filter("q", |v: Option<u32>| v.map_or_else(|| "-".to_string(), |v| v.to_string()))
        .filter("bold", |v: String| format!("**{v}**"))
        .filter("ci", |v: Typed<Interval>, digits: usize| interval(&v.0, digits))
        .filter("and_list", |v: Typed<Vec<serde_json::Value>>| {
            let items: Vec<String> =
                v.0.iter().map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string)).collect();
            and_list(&items)
        })
        .template("play.md", TEMPLATE);
    engine.and_then(|e| e.render("play.md", results)).map_err(Error::from)
}

/// `reports/play/results.csv`: a row per player and q, wins won and draws held (%) with their 95%
/// intervals over seeds (empty for a player of one seed, whose numbers are exact).
pub fn results_csv(results: &MatchResults) -> Result<String> {
    crate::output::csv_text("results.csv", |w| {
        w.write_record(CSV_COLUMNS)?;
        for r in &results.players {
            let bounds = |i: &Interval| {
                let cell = |v: f64| if i.n > 1 { format!("{v:.4}") } else { String::new() };
                [format!("{:.4}", i.mean), cell(i.lo), cell(i.hi)]
            };
            let q = r.q.map_or_else(String::new, |q| q.to_string());
            let mut row = vec![r.name.clone(), q, r.seeds.to_string()];
            row.extend(bounds(&r.wins_won));
            row.extend(bounds(&r.draws_held));
            w.write_record(&row)?;
        }
        Ok(())
    })
}

/// `reports/play/seeds.csv`: a row per player, q and seed, with the counts that
/// [`results_csv`]'s percentages and intervals over seeds are computed from (won and drawn
/// positions are every seed's).
pub fn seeds_csv(results: &MatchResults) -> Result<String> {
    crate::output::csv_text("seeds.csv", |w| {
        w.write_record(SEEDS_CSV_COLUMNS)?;
        for r in &results.players {
            let q = r.q.map_or_else(String::new, |q| q.to_string());
            for s in &r.per_seed {
                let counts = [
                    s.seed,
                    r.won,
                    s.converted,
                    s.excess_sum,
                    r.drawn,
                    s.held,
                    s.largest_p,
                    s.mated,
                    s.mate_plies_sum,
                    s.dtm_sum,
                    s.lost_mated,
                ];
                let row = [r.name.clone(), q.clone()].into_iter().chain(counts.iter().map(usize::to_string));
                w.write_record(row)?;
            }
        }
        Ok(())
    })
}

/// A figure's words.
#[derive(Deserialize)]
struct FigureText {
    title: String,
    x_label: String,
    y_label: String,
}

/// The figures' words, in the order of [`FIGURES`], and the reference line's label.
#[derive(Deserialize)]
struct FiguresText {
    figure: Vec<FigureText>,
    reference: String,
}

/// Each player's colour, the one place that chooses them: the palette index of its name in the
/// order players first appear (the report's rows, then the Cp oracles), so a player keeps its
/// colour in every figure.
fn colours(results: &MatchResults) -> impl Fn(&str) -> usize + '_ {
    let mut names: Vec<&str> = Vec::new();
    let all = results
        .players
        .iter()
        .map(|r| r.name.as_str())
        .chain(results.cp.rows.iter().map(|r| r.name.as_str()));
    for name in all {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    move |name| category(names.iter().position(|n| *n == name).unwrap_or(names.len()))
}

/// A player's line label: its name, and q for an evaluator.
fn label(r: &PlayerResult) -> String {
    r.q.map_or(r.name.clone(), |q| format!("{}, q = {q}", r.name))
}

/// Error bars from intervals over seeds, none where there is one seed.
fn bars(points: impl Iterator<Item = (f64, Interval)>) -> Vec<(f64, f64, f64)> {
    points.filter(|(_, i)| i.n > 1).map(|(x, i)| (x, i.lo, i.hi)).collect()
}

/// The figures, in the order of [`FIGURES`]: % wins won by DTC (every player without search, and
/// each evaluator at q = 0), the largest p with all of Cp won by q, and plies beyond DTC against
/// NN6's over the games both converted, by q; error bars are 95% intervals over seeds.
pub fn figures(results: &MatchResults) -> Result<Vec<LineChart>> {
    let text: FiguresText = toml::from_str(FIGURE_TEXT)
        .map_err(|e| Error::Format { path: "play_figures.toml".into(), message: e.to_string() })?;
    let colour = colours(results);
    let players = &results.players;
    let mut by_dtc: Vec<Series> = players
        .iter()
        .filter(|r| r.q.is_none() || r.q == Some(0))
        .map(|r| {
            let points = r.by_dtc.iter().map(|d| (d.dtc as f64, d.pct.mean)).collect();
            // Perfect play in its measure's colour (black) across every figure.
            let c =
                if r.kind == PlayerKind::Perfect { Measure::PerfectPlay.colour() } else { colour(&r.name) };
            let line = Series::new(label(r), points, c).with_markers();
            let line = line.with_error_bars(bars(r.by_dtc.iter().map(|d| (d.dtc as f64, d.pct))));
            // Perfect play is dashed, so that a player level with it (at 100%) shows beneath.
            if r.kind == PlayerKind::Perfect { line.dashed() } else { line }
        })
        .collect();
    // The dashed control last, on top.
    by_dtc.rotate_left(usize::from(players.first().is_some_and(|r| r.kind == PlayerKind::Perfect)));
    // Each line a little to the side of q, so that equal values stay visible.
    let dodge = |c: usize, of: usize| (c as f64 - (of as f64 - 1.0) / 2.0) * 0.04;
    let rows = &results.cp.rows;
    let cp: Vec<Series> = rows
        .iter()
        .enumerate()
        .map(|(c, row)| {
            let at = |i: usize| f64::from(results.cp.qs[i]) + dodge(c, rows.len());
            let means: Vec<(f64, Interval)> =
                row.p_mean.iter().enumerate().filter_map(|(i, m)| Some((at(i), (*m)?))).collect();
            let line =
                Series::new(&row.name, means.iter().map(|(x, m)| (*x, m.mean)).collect(), colour(&row.name));
            let line = line.with_markers().with_error_bars(bars(means.into_iter()));
            if row.applies { line } else { line.dashed() }
        })
        .collect();
    let mut excess_names: Vec<&str> = Vec::new();
    for e in &results.excess {
        if !excess_names.contains(&e.player.as_str()) {
            excess_names.push(&e.player);
        }
    }
    let mut excess: Vec<Series> = excess_names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let pairs = results.excess.iter().filter(|e| e.player == *name);
            let at = |q: u32| f64::from(q) + dodge(c, excess_names.len());
            let points = pairs.clone().map(|e| (at(e.q), e.difference.mean)).collect();
            let line = Series::new(*name, points, colour(name)).with_markers();
            line.with_error_bars(bars(pairs.map(|e| (at(e.q), e.difference))))
        })
        .collect();
    let max_q = players.iter().filter_map(|r| r.q).max().unwrap_or(0);
    // The q axes run a little past the dodged points, so no marker is cut at the frame.
    let q_span = (-0.3, f64::from(max_q) + 0.3);
    let reference = results.excess.first().map_or("", |e| e.reference.as_str());
    if !reference.is_empty() {
        let label = text.reference.replace("{reference}", reference);
        excess.push(Series::reference(label, 0.0, q_span, colour(reference)));
    }
    let top = |s: &[Series]| {
        s.iter()
            .flat_map(|s| s.points.iter().map(|p| p.1).chain(s.error_bars.iter().map(|b| b.2)))
            .fold(1.0, f64::max)
            * 1.08
    };
    let low = |s: &[Series]| {
        s.iter()
            .flat_map(|s| s.error_bars.iter().map(|b| b.1).chain(s.points.iter().map(|p| p.1)))
            .fold(0.0, f64::min)
    };
    let ranges = [(0.0, 104.0), (0.0, top(&cp)), (low(&excess) * 1.08, top(&excess))];
    let charts = [by_dtc, cp, excess]
        .into_iter()
        .zip(text.figure)
        .zip(ranges)
        .enumerate()
        .map(|(i, ((series, words), y_range))| LineChart {
            title: words.title.replace("{reference}", reference),
            x_label: words.x_label,
            y_label: words.y_label,
            y_range,
            y2: None,
            x_range: (i > 0).then_some(q_span),
            log_x: false,
            log_y: false,
            // Beside the frame: never over the data.
            legend: Legend::Right,
            integer_x: i > 0,
            series,
        })
        .collect();
    Ok(charts)
}

#[cfg(test)]
#[path = "play_tests.rs"]
mod tests;
