//! The report's Markdown: Table 5 beside the paper, the summary of differences and Table 6. The
//! fixed prose at the top is the template `intro.md` beside this file.

use super::*;
use crate::experiment::table6::Matched;
use crate::paper::tables::Table6Row;
use crate::report::findings;
use crate::report::table6;
use std::collections::HashSet;
use std::fmt::Write;

const INTRO: &str = include_str!("intro.md");

/// (caption, path relative to the report) of each figure drawn by [`super::write`].
pub fn figures(r: &Reproduction) -> Vec<(String, &'static str)> {
    vec![
        (super::figures::figure3_caption(&r.paper), FIGURE3_PNG),
        ("Training accuracy by epoch of the NN6 trials 38-41 (whole sets T3, T4, T5)".to_string(), NN6_PNG),
        (
            "Table 5 at a glance: training and testing accuracy per trial, the paper's and our mean over \
             the replicates with its 95% interval"
                .to_string(),
            TABLE5_PNG,
        ),
    ]
}

/// Render the report as Markdown.
pub fn render(r: &Reproduction) -> Result<String> {
    let mut md = String::new();
    let w = &mut md;
    let (intro, table5) = INTRO.split_once("{{domain}}").expect("the intro template has a {{domain}} line");
    w.push_str(intro);
    w.push_str(&crate::report::domain::markdown(&r.domain));
    w.push_str(table5.trim_start_matches('\n'));
    let _ = writeln!(
        w,
        "| trial | side | NN | topology | weights | bits | comp | set | E | target | epochs (paper) | \
         epochs (ours) | train % (paper) | train % (ours) | m = 0.4 | test % (paper) | test % (ours) |"
    );
    let _ = writeln!(w, "|---:|---|---:|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for p in &r.paper {
        let ours = r.trial(p.trial);
        let (epochs, train, margin, test) = match ours {
            Some(s) => (
                format!("{} ({})", s.epochs, s.best_epoch),
                if NN6_TRIALS.contains(&p.trial) {
                    pct2(s.train_accuracy_pct)
                } else {
                    pct(s.train_accuracy_pct)
                },
                s.train_accuracy_at_margin_pct.map_or_else(|| "—".to_string(), pct2),
                opt_pct(s.test_accuracy_pct),
            ),
            None => ("not run".into(), "—".into(), "—".into(), "—".into()),
        };
        let weights = match ours {
            Some(s) if s.weights != p.weights => format!("{} (ours {})", p.weights, s.weights),
            _ => p.weights.to_string(),
        };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {:.3} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} | {} |",
            p.trial,
            p.side,
            p.nn,
            p.topology,
            weights,
            p.bits,
            p.comp,
            p.train_set,
            p.error_fn,
            p.target,
            p.epochs,
            epochs,
            paper_pct(p.train_acc_pct),
            train,
            margin,
            p.test_acc_pct.map_or_else(|| "—".to_string(), paper_pct),
            test,
        );
    }
    let _ = writeln!(w);
    let e = templates::engine()?;
    w.push_str(&findings::replicated(&e, r)?);
    w.push_str(&findings::readings(&e, &r.readings)?);
    w.push_str(&findings::sweep(&e, &r.readings)?);
    w.push_str(&super::standing::markdown(&r.replicated, &r.trials));

    // Figures.
    let _ = writeln!(w, "## Figure 3 and accuracy curves\n");
    for (caption, path) in figures(r) {
        let _ = writeln!(w, "![{caption}]({path})\n\n*{caption}*\n");
    }

    // Table 6.
    write_table6(w, r);
    if let Some(m) = &r.matched {
        let _ = writeln!(w, "{}", table6::markdown(m, &r.paper_table6));
        write_matched_figure(w, m);
        if let Some(g) = &r.table6_groups {
            w.push_str(&crate::report::table6_groups::markdown(g, m, &r.paper_table6));
        }
    }
    w.push_str(&findings::continued(&e, r)?);
    w.push_str(&findings::section51(&e, r)?);
    w.push_str(&super::discussion::markdown(r));
    Ok(md)
}

fn write_table6(w: &mut String, r: &Reproduction) {
    let Some(best) = r.best() else {
        return;
    };
    let paper_keys: HashSet<_> = r.paper_table6.iter().map(|p| key(&p.wk, &p.bk, &p.wp)).collect();
    let ours = &r.best_misclassified;
    let ours_keys: HashSet<_> = ours.iter().map(|m| key(&m.wk, &m.bk, &m.wp)).collect();
    let common = ours_keys.intersection(&paper_keys).count();
    let _ = writeln!(w, "## Table 6: the a-file positions the best net still misclassifies\n");
    let _ = writeln!(
        w,
        "Our best net on the a-file set T4 is **{}** ({} epochs, kept epoch {}, {} % training accuracy). \
         It misclassifies **{}** of the {} a-file wtm positions (m = 0); the paper's best net \
         misclassified **{}**. On both lists: **{common}**.\n",
        best.name,
        best.epochs,
        best.best_epoch,
        format_args!("{:.2}", best.train_accuracy_pct),
        ours.len(),
        best.train_positions,
        r.paper_table6.len(),
    );
    let _ = writeln!(
        w,
        "Columns as in the paper: the true result with White (w) and Black (b) to move, the targets \
         and the actual outputs o1 (win) and o2 (draw); *paper #* gives the row of the paper's \
         Table 6 where the same position appears.\n"
    );
    let _ =
        writeln!(w, "| # | wK | bK | wP | w | b | target o1 | target o2 | actual o1 | actual o2 | paper # |");
    let _ = writeln!(w, "|---:|---|---|---|---|---|---:|---:|---:|---:|---:|");
    for (i, m) in ours.iter().enumerate() {
        let paper_n = r
            .paper_table6
            .iter()
            .find(|p| key(&p.wk, &p.bk, &p.wp) == key(&m.wk, &m.bk, &m.wp))
            .map_or_else(|| "—".to_string(), |p| p.n.to_string());
        let o = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |v| format!("{v:.3}"));
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {} | {paper_n} |",
            i + 1,
            m.wk,
            m.bk,
            m.wp,
            m.result_wtm,
            m.result_btm,
            m.target_o1,
            m.target_o2.map_or_else(|| "—".to_string(), |v| v.to_string()),
            m.actual_o1,
            o(m.actual_o2),
        );
    }
    let _ = writeln!(w);
    let missing: Vec<&Table6Row> =
        r.paper_table6.iter().filter(|p| !ours_keys.contains(&key(&p.wk, &p.bk, &p.wp))).collect();
    let on_both: Vec<String> = r
        .paper_table6
        .iter()
        .filter(|p| ours_keys.contains(&key(&p.wk, &p.bk, &p.wp)))
        .map(|p| format!("#{}", p.n))
        .collect();
    let _ = writeln!(
        w,
        "Our net classifies {} of the paper's {} positions correctly; the paper's rows it still gets \
         wrong: {}.\n",
        missing.len(),
        r.paper_table6.len(),
        if on_both.is_empty() { "none".to_string() } else { on_both.join(", ") }
    );
    let _ = writeln!(
        w,
        "On the board (White to move in every position; the pawn White's, on the a-file):\n\n\
         ![our best net's misclassified a-file positions]({TABLE6_OURS_SVG})\n\n\
         ![the paper's Table 6 positions]({TABLE6_PAPER_SVG})\n"
    );
}

/// The board diagrams of the positions wrong in at least half the matched runs, embedded.
fn write_matched_figure(w: &mut String, m: &Matched) {
    let runs = crate::report::table6_groups::matched_runs(m);
    let drawn = table6::matched_diagrams(m).len();
    let png = std::path::Path::new(TABLE6_MATCHED_SVG).with_extension("png");
    let _ = writeln!(
        w,
        "On the board: the {drawn} positions wrong in at least half of the {runs} runs at matched \
         accuracy (the rule for drawing one: wrong in k of {runs} runs with 2k ≥ {runs}), most \
         frequent first, each captioned with k and the paper's row where Table 6 lists it (White to \
         move in every one; SVG beside the PNG: `{TABLE6_MATCHED_SVG}`).\n\n\
         ![positions wrong in at least half the runs at matched accuracy]({})\n",
        png.display()
    );
}
