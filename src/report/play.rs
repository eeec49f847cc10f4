//! `reports/PLAY.md` and its figures: the match of every player against perfect play (prose in
//! `play.md`).

use crate::chess::bitbase::Bitbase;
use crate::play::PlayModel;
use crate::play::depth::{self, DepthAccuracy, DepthTarget};
use crate::play::game::Player;
use crate::play::matches::{MAX_PLIES, Record, record};
use crate::play::search::Values;
use crate::report::plot::{Legend, LineChart, Series};
use std::fmt::Write;

const TEMPLATE: &str = include_str!("play.md");

/// The figures' file stems under `reports/figures/`, and their size in pixels.
pub const FIGURES: [&str; 3] = ["play_wins_by_dtc", "play_cp_q", "play_excess"];
pub const FIGURE_SIZE: (u32, u32) = (960, 600);

fn pct(a: usize, b: usize) -> String {
    if b == 0 { "-".into() } else { format!("{:.2}", 100.0 * a as f64 / b as f64) }
}

fn q_of(r: &Record) -> String {
    r.q.map_or("-".into(), |q| q.to_string())
}

/// The players that search, by name, in the order first met.
fn searchers(records: &[Record]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for r in records.iter().filter(|r| r.q.is_some()) {
        if !names.contains(&r.name.as_str()) {
            names.push(&r.name);
        }
    }
    names
}

/// The match of every player against perfect play: perfect, the play model, a random
/// result-keeping move, then each evaluator of `ladders` at each depth of search. `progress`
/// hears each player's name as its match starts.
pub fn run(bb: &Bitbase, model: &PlayModel, ladders: &[Vec<Values>], progress: &dyn Fn(&str)) -> Vec<Record> {
    let mut records = Vec::new();
    type Make<'a> = Box<dyn Fn(u64) -> Player<'a> + Sync + 'a>;
    let fixed: Vec<(&str, Make)> = vec![
        ("perfect", Box::new(|_| Player::Perfect(bb))),
        ("model", Box::new(|_| Player::Model(model))),
        ("random", Box::new(|seed| Player::random(bb, seed))),
    ];
    for (name, make) in &fixed {
        progress(name);
        records.push(record(bb, name, None, make.as_ref()));
    }
    for values in ladders.iter().flatten() {
        progress(&format!("{}, q = {}", values.name(), values.depth()));
        records.push(record(bb, values.name(), Some(values.depth()), &|_| Player::Search(values)));
    }
    records
}

/// How the depth nets were trained, from the constants and the optimiser that train them.
fn depth_setup() -> String {
    let t = depth::TOPOLOGY.iter().map(usize::to_string).collect::<Vec<_>>().join("-");
    format!(
        "{t} per side to move, {} for {} epochs, seed {}",
        depth::optimiser().describe(),
        depth::EPOCHS,
        depth::SEED
    )
}

/// The depth nets' accuracy tables: by side, then by DTC (exact and within ±2 plies, per target).
fn depth_tables(depth: &[(DepthTarget, DepthAccuracy)]) -> (String, String) {
    let mut by_side = String::from(
        "| target | side | won positions | DTC exact, % | within ±1 ply, % | within ±2 plies, % |\n|---|---|---:|---:|---:|---:|",
    );
    for (t, a) in depth {
        for (side, s) in ["wtm", "btm"].iter().zip(&a.by_side) {
            let _ = write!(
                by_side,
                "\n| {} | {side} | {} | {} | {} | {} |",
                t.name(),
                s.positions,
                pct(s.exact, s.positions),
                pct(s.within1, s.positions),
                pct(s.within2, s.positions)
            );
        }
    }
    let mut by_dtc = String::from("| DTC (plies) | won positions |");
    for (t, _) in depth {
        let _ = write!(by_dtc, " {0}: exact, % | {0}: ±2, % |", t.name());
    }
    by_dtc.push_str("\n|---:|---:|");
    by_dtc.push_str(&"---:|---:|".repeat(depth.len()));
    let rows = depth.first().map_or(0, |(_, a)| a.by_dtc.len());
    for d in 1..rows {
        let n = depth[0].1.by_dtc[d].positions;
        let _ = write!(by_dtc, "\n| {d} | {n} |");
        for (_, a) in depth {
            let s = a.by_dtc[d];
            let _ = write!(by_dtc, " {} | {} |", pct(s.exact, n), pct(s.within2, n));
        }
    }
    (by_side, by_dtc)
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Section 2's claim, from the largest p with all of Cp won (`p_of(name, q)`): the sentence that
/// says for which evaluators it holds, that is whose p at every q searched is at least their p at
/// q = 0 plus q (or the longest win, `longest` plies, where that is less), and where the others
/// fall short.
fn cp_verdict(
    names: &[&str],
    qs: &[u32],
    longest: usize,
    p_of: &dyn Fn(&str, u32) -> Option<usize>,
) -> String {
    let (mut holds, mut fails, mut untested) = (Vec::new(), Vec::new(), Vec::new());
    for name in names {
        let Some(p0) = p_of(name, 0) else {
            untested.push(format!("**{name}**"));
            continue;
        };
        let short: Vec<String> = qs
            .iter()
            .filter(|&&q| q > 0)
            .filter_map(|&q| {
                let need = (p0 + q as usize).min(longest);
                let p = p_of(name, q)?;
                (p < need).then(|| format!("p = {p} at q = {q}, where the claim needs {need}"))
            })
            .collect();
        if short.is_empty() {
            holds.push(format!("**{name}**"));
        } else {
            fails.push(format!("**{name}** ({})", short.join("; ")));
        }
    }
    let searched: Vec<String> = qs.iter().filter(|&&q| q > 0).map(u32::to_string).collect();
    let mut verdict = format!("Verdict, computed from the table (q = {}): ", and_list(&searched));
    verdict.push_str(&match (holds.is_empty(), fails.is_empty()) {
        (false, true) => format!("the claim holds for every evaluator: {}.", and_list(&holds)),
        (true, false) => format!("the claim holds for no evaluator: {}.", and_list(&fails)),
        (false, false) => {
            format!("the claim holds for {}; it fails for {}.", and_list(&holds), and_list(&fails))
        }
        (true, true) => "no evaluator searched.".into(),
    });
    if !untested.is_empty() {
        verdict.push_str(&format!(" Without a game at q = 0: {}.", and_list(&untested)));
    }
    verdict
}

/// The Cp+q table (the largest p with all of Cp won, by evaluator and q) and the verdict on
/// section 2's claim drawn from the same numbers.
fn cp_q(records: &[Record]) -> (String, String) {
    let names = searchers(records);
    let qs: Vec<u32> = {
        let mut qs: Vec<u32> = records.iter().filter_map(|r| r.q).collect();
        qs.sort_unstable();
        qs.dedup();
        qs
    };
    let p_of = |name: &str, q: u32| {
        records.iter().find(|r| r.name == name && r.q == Some(q)).map(|r| r.pawn.largest_p())
    };
    let mut rows =
        format!("| evaluator |{}\n|---|", qs.iter().map(|q| format!(" q = {q} |")).collect::<String>());
    rows.push_str(&"---:|".repeat(qs.len()));
    for name in &names {
        rows.push_str(&format!("\n| {name} |"));
        for &q in &qs {
            rows.push_str(&format!(" {} |", p_of(name, q).map_or("-".into(), |p| p.to_string())));
        }
    }
    // The longest win: largest_p's ceiling, reached by a player that converts every win.
    let longest = records.first().map_or(0, |r| r.pawn.positions.len().saturating_sub(1));
    (rows, cp_verdict(&names, &qs, longest, &p_of))
}

/// Bands of DTC, in plies, for the table of wins won by DTC.
const DTC_BANDS: [(usize, usize); 6] = [(1, 6), (7, 12), (13, 18), (19, 24), (25, 30), (31, 38)];

/// % of the won positions each record converts, by band of DTC ([`DTC_BANDS`]); the header gives
/// each band's positions.
fn band_rows(records: &[Record]) -> String {
    let in_band = |v: &[usize], (lo, hi): (usize, usize)| v.iter().take(hi + 1).skip(lo).sum::<usize>();
    let Some(first) = records.first() else { return String::new() };
    let mut t = String::from("| player | q |");
    for band in DTC_BANDS {
        t += &format!(" DTC {}–{} ({}) |", band.0, band.1, in_band(&first.pawn.positions, band));
    }
    t += &format!("\n|---|---:|{}", "---:|".repeat(DTC_BANDS.len()));
    for r in records {
        t += &format!("\n| {} | {} |", r.name, q_of(r));
        for band in DTC_BANDS {
            t += &format!(" {} |", pct(in_band(&r.pawn.converted, band), in_band(&r.pawn.positions, band)));
        }
    }
    t
}

/// The report's text. `model_bytes` is the play model's size; `nn6_train` says how the NN6 nets
/// trained (accuracy and epochs).
pub fn render(
    records: &[Record],
    depth: &[(DepthTarget, DepthAccuracy)],
    model_bytes: usize,
    nn6_train: &str,
) -> String {
    let (depth_by_side, depth_by_dtc) = depth_tables(depth);
    let pawn_rows: Vec<String> = records
        .iter()
        .map(|r| {
            let (n, c) = r.pawn.total();
            let mean = if c == 0 { 0.0 } else { r.pawn.excess_sum as f64 / c as f64 };
            format!(
                "| {} | {} | {n} | {c} | {} | {mean:.2} | {} | {} |",
                r.name,
                q_of(r),
                pct(c, n),
                r.pawn.excess_max,
                r.pawn.largest_p()
            )
        })
        .collect();
    let king_rows: Vec<String> = records
        .iter()
        .map(|r| {
            format!("| {} | {} | {} | {} | {} |", r.name, q_of(r), r.drawn, r.held, pct(r.held, r.drawn))
        })
        .collect();
    let (cp_rows, cp_verdict) = cp_q(records);
    let random = records.iter().find(|r| r.name == "random");
    let dtc_rows: Vec<String> = random
        .map(|r| {
            (1..r.pawn.positions.len())
                .filter(|&d| r.pawn.positions[d] > 0)
                .map(|d| {
                    let (n, c) = (r.pawn.positions[d], r.pawn.converted[d]);
                    format!("| {d} | {n} | {c} | {} |", pct(c, n))
                })
                .collect()
        })
        .unwrap_or_default();
    let won = records.first().map_or(0, |r| r.pawn.total().0);
    let drawn = records.first().map_or(0, |r| r.drawn);
    crate::report::template::fill(
        TEMPLATE,
        &[
            ("won", won.to_string()),
            ("drawn", drawn.to_string()),
            ("max_plies", MAX_PLIES.to_string()),
            ("model_bytes", model_bytes.to_string()),
            ("nn6_train", nn6_train.to_string()),
            ("pawn_rows", pawn_rows.join("\n")),
            ("king_rows", king_rows.join("\n")),
            ("cp_rows", cp_rows),
            ("cp_verdict", cp_verdict),
            ("depth_by_side", depth_by_side),
            ("depth_by_dtc", depth_by_dtc),
            ("depth_setup", depth_setup()),
            ("dtc_rows", dtc_rows.join("\n")),
            ("band_rows", band_rows(records)),
        ],
    )
}

/// The figures, in the order of [`FIGURES`]: % wins won by DTC (every player without search, and
/// each evaluator at q = 0), the largest p with all of Cp won by q, and the mean plies beyond DTC
/// by q.
pub fn figures(records: &[Record]) -> Vec<LineChart> {
    let names = searchers(records);
    let by_dtc: Vec<Series> = records
        .iter()
        .filter(|r| r.q.is_none() || r.q == Some(0))
        .enumerate()
        .map(|(c, r)| {
            let points = (1..r.pawn.positions.len())
                .filter(|&d| r.pawn.positions[d] > 0)
                .map(|d| (d as f64, 100.0 * r.pawn.converted[d] as f64 / r.pawn.positions[d] as f64))
                .collect();
            let label = r.q.map_or(r.name.clone(), |q| format!("{}, q = {q}", r.name));
            let line = Series::new(label, points, c).with_markers();
            // Perfect play is dashed, so that a player level with it (at 100%) shows beneath.
            if r.name == "perfect" { line.dashed() } else { line }
        })
        .collect();
    // The dashed control last, on top.
    let mut by_dtc = by_dtc;
    by_dtc.rotate_left(usize::from(records.first().is_some_and(|r| r.name == "perfect")));
    let by_q = |f: &dyn Fn(&Record) -> f64| -> Vec<Series> {
        names
            .iter()
            .enumerate()
            .map(|(c, name)| {
                // Each evaluator a little to the side of q, so that equal values stay visible.
                let dodge = (c as f64 - (names.len() as f64 - 1.0) / 2.0) * 0.03;
                let points = records
                    .iter()
                    .filter(|r| r.name == *name)
                    .filter_map(|r| Some((f64::from(r.q?) + dodge, f(r))))
                    .collect();
                Series::new(*name, points, c).with_markers()
            })
            .collect()
    };
    let cp = by_q(&|r| r.pawn.largest_p() as f64);
    let excess = by_q(&|r| {
        let (_, c) = r.pawn.total();
        if c == 0 { 0.0 } else { r.pawn.excess_sum as f64 / c as f64 }
    });
    // The q axes run a little past the dodged points, so no marker is cut at the frame; q is a
    // whole number of plies, so are its ticks.
    let max_q = records.iter().filter_map(|r| r.q).max().unwrap_or(0);
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
            "q: plies searched below the move (evaluators set a little apart)",
            "largest p (DTC, plies)",
            cp,
            cp_range,
        ),
        chart(
            "Mean plies beyond DTC in the converted games",
            "q: plies searched below the move (evaluators set a little apart)",
            "plies beyond DTC (mean)",
            excess,
            excess_range,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::matches::PawnSide;

    /// The verdict from a table of (name, p at q = 0, 1, 2, 3).
    fn verdict(table: &[(&str, [usize; 4])], longest: usize) -> String {
        let names: Vec<&str> = table.iter().map(|t| t.0).collect();
        let p_of = |name: &str, q: u32| table.iter().find(|t| t.0 == name).map(|t| t.1[q as usize]);
        cp_verdict(&names, &[0, 1, 2, 3], longest, &p_of)
    }

    #[test]
    fn the_dtc_bands_cover_every_win_once() {
        let r = made_up("x", Some(1), 5, 0);
        let covered: usize = DTC_BANDS.iter().map(|&(lo, hi)| hi + 1 - lo).sum();
        assert_eq!(covered, 38, "DTC 1..=38, each in one band");
        assert!(DTC_BANDS.windows(2).all(|w| w[1].0 == w[0].1 + 1));
        let table = band_rows(&[r]);
        assert_eq!(table.lines().count(), 3, "{table}");
        assert!(table.lines().nth(2).unwrap().starts_with("| x | 1 | 100.00 | - |"), "{table}");
    }

    #[test]
    fn the_verdict_asks_for_p_to_grow_by_q_at_every_q() {
        let v = verdict(&[("a", [2, 2, 4, 4]), ("b", [2, 4, 6, 6]), ("c", [2, 4, 6, 8])], 38);
        assert_eq!(
            v,
            "Verdict, computed from the table (q = 1, 2 and 3): the claim holds for **b** and **c**; it \
             fails for **a** (p = 2 at q = 1, where the claim needs 3; p = 4 at q = 3, where the claim \
             needs 5)."
        );
        assert!(verdict(&[("a", [2, 3, 4, 5])], 38).contains("holds for every evaluator: **a**."));
        assert!(verdict(&[("a", [2, 2, 2, 2])], 38).contains("holds for no evaluator: **a** ("));
    }

    #[test]
    fn the_verdict_caps_p_plus_q_at_the_longest_win() {
        assert!(verdict(&[("a", [37, 38, 38, 38])], 38).contains("holds for every evaluator"));
        assert!(
            verdict(&[("a", [37, 38, 38, 37])], 38).contains("p = 37 at q = 3, where the claim needs 38")
        );
    }

    /// A record of a player that converts the wins of DTC 1..=`p` (of 1..=3), and no other.
    fn made_up(name: &str, q: Option<u32>, p: usize, excess: usize) -> Record {
        let positions = vec![0, 10, 10, 10];
        let converted = (0..4).map(|d| if (1..=p).contains(&d) { 10 } else { 0 }).collect();
        let pawn = PawnSide { positions, converted, excess_sum: excess, excess_max: excess };
        Record { name: name.into(), q, pawn, drawn: 5, held: 5 }
    }

    #[test]
    fn the_figures_start_at_zero_with_whole_q_ticks_and_the_legend_beside() {
        let records = [
            made_up("perfect", None, 3, 0),
            made_up("e", Some(0), 1, 4),
            made_up("e", Some(1), 2, 2),
            made_up("e", Some(2), 3, 0),
        ];
        let charts = figures(&records);
        assert_eq!(charts.len(), FIGURES.len());
        for (c, q_axis) in charts.iter().zip([false, true, true]) {
            assert_eq!(c.y_range.0, 0.0, "{}", c.title);
            assert_eq!(c.integer_x, q_axis, "{}", c.title);
            assert_eq!(c.legend, Legend::Right, "{}", c.title);
        }
        assert_eq!(
            cp_q(&records).1,
            "Verdict, computed from the table (q = 1 and 2): the claim holds for every evaluator: **e**."
        );
    }
}
