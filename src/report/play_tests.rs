use super::*;
use crate::play::analysis::tests::{made_up, made_up_hybrid};
use crate::play::analysis::{EXCESS_REFERENCE, Played, analyse};
use crate::play::matches::Record;
use crate::play::results::{DepthSetup, Nn6Training};

/// Results of perfect play, an evaluator `e` and the reference over two seeds at q = 0..=3 (p
/// from `ps`), and one Cp oracle.
fn made_up_results(ps: [usize; 4]) -> MatchResults {
    let mut records: Vec<(PlayerKind, Record)> =
        vec![(PlayerKind::Perfect, made_up("perfect", None, 0, 3, 0))];
    for (name, kind) in [(EXCESS_REFERENCE, PlayerKind::Evaluator), ("e", PlayerKind::DepthEvaluator)] {
        for (q, &p) in ps.iter().enumerate() {
            for r in 0..2 {
                records.push((kind, made_up(name, Some(q as u32), r, p.min(3) - r.min(p), 1 + r as u8)));
            }
        }
    }
    let oracles = (0..4).map(|q| made_up("o", Some(q), 0, (1 + q as usize).min(3), 0)).collect();
    let i = Interval { mean: 99.5, lo: 99.0, hi: 100.0, n: 2 };
    let nn6 = [0, 1].map(|_| Nn6Training { seeds: vec![38, 1038], accuracy_pct: i, epochs: (3, 4) });
    let depth = DepthSetup { topology: vec![32, 1], optimiser: "x".into(), epochs: 1, seeds: vec![6, 1006] };
    analyse(&Played { records, oracles }, &[], 100, nn6, made_up_hybrid(2), depth)
}

#[test]
fn the_tables_are_rows_of_the_results() {
    let r = made_up_results([1, 2, 3, 3]);
    let text = render(&r).unwrap();
    assert!(text.contains("\n| perfect | - | 1 | 30 | 30.0 | 100.00 | 0.00 | 0 | 3 |\n"), "{text}");
    let e = &r.players.iter().find(|p| p.name == "e" && p.q == Some(0)).unwrap().wins_won;
    assert!(text.contains(&format!("\n| e | 0 | 2 | 30 | 5.0 | {} |", e.show(2))), "{text}");
    assert!(text.contains("\n| e | 0 | 2 | 5 | 5.0 | 100.00 (100.00–100.00) |\n"), "{text}");
    assert!(!text.contains("{{") && !text.contains("{%"), "{text}");
}

#[test]
fn the_summary_opens_the_report_in_at_most_twelve_lines() {
    let text = render(&made_up_results([1, 2, 3, 3])).unwrap();
    let summary = text.split("## Summary").nth(1).unwrap().split("\n## ").next().unwrap();
    let lines = summary.lines().filter(|l| !l.trim().is_empty()).count();
    assert!((3..=12).contains(&lines), "{summary}");
    assert!(text.find("## Summary") < text.find("## As the pawn side"));
}

#[test]
fn the_verdict_is_judged_where_the_claim_applies() {
    let text = render(&made_up_results([1, 2, 3, 3])).unwrap();
    let verdict = text.lines().find(|l| l.starts_with("Verdict")).unwrap();
    assert!(verdict.contains("**o** holds in every"), "{verdict}");
    assert!(verdict.contains("**e** falls short in"), "{verdict}");
    assert!(!verdict.contains(EXCESS_REFERENCE), "{verdict}");
}

#[test]
fn the_csv_has_the_issues_columns_and_a_row_per_player_and_q() {
    let r = made_up_results([1, 2, 3, 3]);
    let csv = results_csv(&r).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
    assert_eq!(lines.clone().count(), r.players.len());
    // One seed: the mean alone; two seeds: the interval too.
    assert_eq!(lines.next().unwrap(), "perfect,,1,100.0000,,,100.0000,,");
    assert!(lines.next().unwrap().starts_with(&format!("{EXCESS_REFERENCE},0,2,")));
    let cells: Vec<&str> = csv.lines().nth(2).unwrap().split(',').collect();
    assert!(cells.iter().skip(3).all(|c| !c.is_empty()), "{cells:?}");
}

/// The section past the promotion says whether every won game ended in mate, and each player's
/// plies to mate against the starts' DTM.
#[test]
fn the_mate_section_counts_mated_games_and_plies_against_the_dtm() {
    let mut r = made_up_results([1, 2, 3, 3]);
    let text = render(&r).unwrap();
    assert!(text.contains("to mate: every game"), "{text}");
    let row = "\n| perfect | - | 1 | 30.0 | 30.0 | 20.00 | 20.00 | 0.00 | 100.00 | 0 to 0 | 0.0 | 0.0 |\n";
    assert!(text.contains(row), "{text}");
    assert!(text.contains(&format!("Of the {} converted games", r.mate.converted)), "{text}");
    r.mate.converted_mated -= 1;
    let text = render(&r).unwrap();
    assert!(text.contains("to mate: not every"), "{text}");
}

/// seeds.csv holds every seed's counts, and results.csv's intervals are those of the counts.
#[test]
fn the_seeds_csv_has_a_row_per_player_q_and_seed_with_the_counts_behind_the_intervals() {
    let r = made_up_results([1, 2, 3, 3]);
    let csv = seeds_csv(&r).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), SEEDS_CSV_COLUMNS.join(","));
    assert_eq!(lines.clone().count(), r.players.iter().map(|p| p.seeds).sum::<usize>());
    assert_eq!(lines.next().unwrap(), "perfect,,0,30,30,0,5,5,3,30,600,600,0");
    let e0: Vec<Vec<usize>> = csv
        .lines()
        .filter(|l| l.starts_with("e,0,"))
        .map(|l| l.split(',').skip(2).map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(e0.iter().map(|c| c[0]).collect::<Vec<_>>(), [0, 1], "seed r in order");
    let pct: Vec<f64> = e0.iter().map(|c| 100.0 * c[2] as f64 / c[1] as f64).collect();
    let e = r.players.iter().find(|p| p.name == "e" && p.q == Some(0)).unwrap();
    assert_eq!(Interval::of_mean_pct(&pct).unwrap(), e.wins_won);
    assert_eq!(e0.iter().map(|c| c[6]).collect::<Vec<_>>(), e.largest_p);
}

#[test]
fn the_figures_keep_intervals_one_colour_per_player_and_the_legend_beside() {
    let r = made_up_results([1, 2, 3, 3]);
    let charts = figures(&r).unwrap();
    assert_eq!(charts.len(), FIGURES.len());
    for (c, q_axis) in charts.iter().zip([false, true, true]) {
        assert_eq!(c.integer_x, q_axis, "{}", c.title);
        assert_eq!(c.legend, Legend::Right, "{}", c.title);
        assert!(!c.title.contains('{'), "{}", c.title);
    }
    assert_eq!(charts[0].y_range.0, 0.0);
    let colour_of = |chart: &LineChart, name: &str| {
        chart.series.iter().find(|s| s.label.starts_with(name)).unwrap().colour
    };
    assert_eq!(colour_of(&charts[0], "e"), colour_of(&charts[1], "e"));
    assert_eq!(colour_of(&charts[1], "e"), colour_of(&charts[2], "e"));
    let e = charts[1].series.iter().find(|s| s.label == "e").unwrap();
    // Two seeds: an interval at each q; one seed: none.
    assert_eq!(e.error_bars.len(), 4);
    let o = charts[1].series.iter().find(|s| s.label == "o").unwrap();
    assert!(o.error_bars.is_empty());
}
