//! Table 6 at matched accuracy in `REPRODUCTION.md`, and the board diagrams of the paper's Table 6,
//! of our best net's misclassified a-file positions and of the positions wrong in most runs at
//! matched accuracy. The runs are analysed in [`crate::experiment::table6`].

use super::templates;
use crate::chess::position::KpkPosition;
use crate::error::Result;
use crate::experiment::rows::MisclassifiedRow;
use crate::experiment::table6::Matched;
use crate::paper::tables::Table6Row;
use crate::report::diagram::Diagram;
use crate::template::Engine;
use kpk_probe::{Color, Square};
use serde_json::json;
use templates::label;

/// The section of `REPRODUCTION.md` (the template `matched.md.j2`).
pub fn markdown(e: &Engine, m: &Matched, paper6: &[Table6Row]) -> Result<String> {
    let total: usize = m.runs.iter().map(|r| r.errors).sum();
    // Errors on positions whose result changes with the side to move, over all runs.
    let critical: usize = m.positions.iter().filter(|p| p.result_wtm != p.result_btm).map(|p| p.runs).sum();
    let paper_critical = paper6.iter().filter(|p| p.result_wtm != p.result_btm).count();
    let listed: Vec<u8> = m.positions.iter().filter_map(|p| p.paper_row).collect();
    let context = json!({
        "population": m.population,
        "runs": m.runs,
        "total": total,
        "critical_pct": if total == 0 { 0.0 } else { 100.0 * critical as f64 / total as f64 },
        "paper_critical": paper_critical,
        "paper_critical_pct": 100.0 * paper_critical as f64 / paper6.len() as f64,
        "critical_base_pct": m.critical_base_pct,
        "distinct": m.positions.len(),
        "a2_group": listed.iter().filter(|&&n| (29..=38).contains(&n)).count(),
        "listed": listed,
        "matched_runs": m.runs.iter().filter(|r| r.epoch.is_some()).count(),
        "top": m.positions.iter().take(15).collect::<Vec<_>>(),
    });
    templates::render(e, "matched", &context)
}

/// A Table 6 placement, White to move, as a board diagram; `None` where the squares do not name a
/// legal position.
fn placement(wk: &str, bk: &str, wp: &str, caption: String) -> Option<Diagram> {
    let sq = |s: &str| s.parse::<Square>().ok();
    let p = KpkPosition::new(sq(wk)?, sq(bk)?, sq(wp)?, Color::White).ok()?;
    Some(Diagram::canonical(&p).with_caption(caption))
}

fn result_word(r: &str) -> &'static str {
    match r {
        "w" => "win",
        "d" => "draw",
        _ => "illegal",
    }
}

/// The paper's Table 6 positions as board diagrams, captioned with the row number and the true
/// result with White and with Black to move.
pub fn paper_diagrams(paper6: &[Table6Row]) -> Result<Vec<Diagram>> {
    let mut out = Vec::new();
    for p in paper6 {
        let (w, b) = (result_word(&p.result_wtm.to_string()), result_word(&p.result_btm.to_string()));
        let caption = label("reproduction/diagrams/paper.txt.j2", &json!({ "n": p.n, "wtm": w, "btm": b }))?;
        out.extend(placement(&p.wk, &p.bk, &p.wp, caption));
    }
    Ok(out)
}

/// Our net's misclassified a-file positions as board diagrams, captioned with our row number, the
/// true result with White to move and the paper's row where the same position appears.
pub fn our_diagrams(ours: &[MisclassifiedRow], paper6: &[Table6Row]) -> Result<Vec<Diagram>> {
    let mut out = Vec::new();
    for (i, m) in ours.iter().enumerate() {
        let paper = paper6.iter().find(|p| (&p.wk, &p.bk, &p.wp) == (&m.wk, &m.bk, &m.wp)).map(|p| p.n);
        let context = json!({ "i": i + 1, "wtm": result_word(&m.result_wtm), "paper": paper });
        out.extend(placement(&m.wk, &m.bk, &m.wp, label("reproduction/diagrams/ours.txt.j2", &context)?));
    }
    Ok(out)
}

/// The rule for drawing a matched-accuracy position: wrong in at least half the runs that reached
/// matched accuracy.
pub fn drawn_rule(runs_wrong: usize, runs: usize) -> bool {
    runs > 0 && 2 * runs_wrong >= runs
}

/// The positions wrong in at least half the runs at matched accuracy ([`drawn_rule`]), most
/// frequent first, as board diagrams captioned "wrong in k of n runs" and the paper's row.
pub fn matched_diagrams(m: &Matched) -> Result<Vec<Diagram>> {
    let runs = m.runs.iter().filter(|r| r.epoch.is_some()).count();
    let mut out = Vec::new();
    for p in m.positions.iter().filter(|p| drawn_rule(p.runs, runs)) {
        let context = json!({ "wrong": p.runs, "runs": runs, "paper": p.paper_row });
        out.extend(placement(&p.wk, &p.bk, &p.wp, label("reproduction/diagrams/matched.txt.j2", &context)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use crate::experiment::table6::{MatchedRun, PAPER_ERRORS, PositionCount};

    #[test]
    fn every_table6_row_is_drawn_white_to_move_with_its_results() {
        let paper6 = crate::paper::tables::table6();
        let diagrams = paper_diagrams(&paper6).unwrap();
        assert_eq!(diagrams.len(), PAPER_ERRORS);
        for (d, p) in diagrams.iter().zip(&paper6) {
            assert_eq!(d.to_move, Some(Color::White));
            assert_eq!(d.pieces.len(), 3);
            let caption = d.caption.as_deref().unwrap();
            assert!(caption.starts_with(&format!("paper #{}: wtm ", p.n)), "{caption}");
        }
        let bb = Bitbase::generate();
        for (d, p) in diagrams.iter().zip(&paper6) {
            let pos = p.position().unwrap();
            let word = if bb.outcome(&pos) == kpk_probe::Outcome::Win { "win" } else { "draw" };
            assert!(d.caption.as_deref().unwrap().contains(&format!("wtm {word},")), "row {}", p.n);
        }
    }

    #[test]
    fn matched_diagrams_draw_the_positions_wrong_in_at_least_half_the_runs() {
        let run = |epoch| MatchedRun {
            trial: "trial40".into(),
            seed: 40,
            epoch,
            errors: 0,
            on_paper_list: 0,
            chance_expected: 0.0,
            chance_p: 1.0,
        };
        let count = |wk: &str, runs, paper_row| PositionCount {
            wk: wk.into(),
            bk: "c3".into(),
            wp: "a2".into(),
            result_wtm: "w".into(),
            result_btm: "d".into(),
            runs,
            paper_row,
        };
        // Four runs reached matched accuracy, one never did: half is 2 of 4.
        let m = Matched {
            runs: vec![run(Some(30)), run(Some(31)), run(Some(32)), run(Some(33)), run(None)],
            positions: vec![count("d5", 4, Some(38)), count("e5", 2, None), count("f5", 1, None)],
            population: 20_643,
            critical_base_pct: 0.0,
        };
        let d = matched_diagrams(&m).unwrap();
        let captions: Vec<_> = d.iter().map(|d| d.caption.clone().unwrap()).collect();
        assert_eq!(captions.len(), 2);
        assert!(captions[0].contains("4 of 4") && captions[0].ends_with("paper #38"), "{captions:?}");
        assert!(captions[1].contains("2 of 4") && captions[1].ends_with("Table 6"), "{captions:?}");
        assert!(drawn_rule(3, 5) && !drawn_rule(2, 5) && !drawn_rule(0, 0));
    }
}
