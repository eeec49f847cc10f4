//! The domain section (section 2): the paper's Table 2 (counts of positions, by source) and
//! Table 3 (wins converted in exactly p plies) beside kpk's exact counts
//! ([`crate::analysis::reproduction::domain`]), and why Table 2's sources differ from kpk's count:
//! for each source, the rows that differ and by how much, the position sets whose inclusion the paper's Table 2 marks differently from
//! kpk's count and whether they account for each difference, and what the paper's text says of
//! the source (section 2). A difference neither accounts for is said to have no stated reason.

use super::templates;
use crate::analysis::reproduction::domain::Domain;
use crate::error::Result;
use crate::paper::table2::{self, Figure, PositionSet, RowKey, Table1Set, Table2, Table2Remark};
use crate::paper::tables;
use crate::template::Engine;
use serde::Serialize;
use serde_json::json;

/// Whether kpk's count includes one of Table 1's sets. kpk counts every legal position with the
/// pawn on ranks 2-7, reachable from the initial array or not (Black to move may be in check):
/// so the unreachable sets 6a-e and 7b-c (section 2, Table 1) are in it and the post-conversion
/// set 7a (the pawn promoted) is not. The test below checks each against the bitbase's positions.
pub fn kpk_includes(set: Table1Set) -> bool {
    match set {
        Table1Set::Set6aToE | Table1Set::Set7bToC => true,
        Table1Set::Set7a => false,
    }
}

/// The sets a source's count includes and kpk's does not (+1), or the reverse (−1), where the
/// source's mark is known.
fn differing_sets(sets: &[PositionSet], j: usize) -> Vec<(&PositionSet, f64)> {
    sets.iter()
        .filter_map(|s| match (s.included[j], kpk_includes(s.set)) {
            (Some(true), false) => Some((s, 1.0)),
            (Some(false), true) => Some((s, -1.0)),
            _ => None,
        })
        .collect()
}

/// One row where a source's figure differs from kpk's: the row, source − kpk, and whether the
/// row is a percentage (written in points).
#[derive(Debug, Serialize)]
pub struct RowDiff {
    pub row: RowKey,
    pub diff: f64,
    pub pct: bool,
}

/// One of Table 1's sets the paper marks differently from kpk's count: `included` in the source's
/// count and not in kpk's, or the reverse.
#[derive(Debug, Serialize)]
pub struct MarkedSet<'a> {
    pub set: Table1Set,
    pub side: &'static str,
    pub positions: f64,
    pub wins: f64,
    pub draws: f64,
    /// Table 1's note on the set.
    pub note: &'a str,
    pub included: bool,
}

/// Why a source differs from kpk's count: the rows that differ, the sets marked differently, the
/// rows those sets account for, the paper's remarks on the source, and the rows no mark or
/// remark giving a reason covers (the template words it as "not stated").
#[derive(Debug, Serialize)]
pub struct SourceNote<'a> {
    pub source: &'a str,
    pub diffs: Vec<RowDiff>,
    pub sets: Vec<MarkedSet<'a>>,
    pub covered: Vec<RowKey>,
    /// (section, quote without its final full stop) of each remark of the paper's text.
    pub remarks: Vec<(&'a str, &'a str)>,
    pub unstated: Vec<RowKey>,
}

/// The note for source `j`, or `None` where every figure it gives equals kpk's.
fn source_note<'a>(
    t2: &'a Table2,
    j: usize,
    sets: &'a [PositionSet],
    remarks: &'a [Table2Remark],
    domain: &Domain,
) -> Option<SourceNote<'a>> {
    let source = &t2.sources[j];
    // (row, source − kpk) for every row where both give a figure and they differ.
    let diffs: Vec<(RowKey, f64)> = t2
        .rows
        .iter()
        .filter_map(|r| {
            let d = r.cells[j]? - domain.ours(r.key)?;
            (d.abs() > 1e-9).then_some((r.key, d))
        })
        .collect();
    if diffs.is_empty() {
        return None;
    }
    let marked = differing_sets(sets, j);
    let predicted = |row: RowKey| marked.iter().map(|(s, sign)| sign * s.count(row)).sum::<f64>();
    let is_explained = |row: RowKey, d: f64| (predicted(row) - d).abs() < 1e-9;
    // A win share follows from its side's positions and wins.
    let explained = |row: RowKey, d: f64| match row.figure {
        Figure::WinsPct => {
            let diff = |r: RowKey| diffs.iter().find(|x| x.0 == r).map_or(0.0, |x| x.1);
            let [p, w] = [Figure::Positions, Figure::Wins].map(|f| RowKey::new(row.side, f));
            predicted(p) != 0.0 && is_explained(p, diff(p)) && is_explained(w, diff(w))
        }
        _ => is_explained(row, d),
    };
    // (row, source − kpk) of the rows the marks account for, and of the others.
    let (covered, open): (Vec<&(RowKey, f64)>, Vec<_>) =
        diffs.iter().partition(|&&(row, d)| explained(row, d));
    // What neither the marks nor a remark giving a reason cover.
    let reasoned =
        |row: &RowKey| remarks.iter().any(|r| &r.source == source && r.reason_stated && r.rows.contains(row));
    Some(SourceNote {
        source,
        sets: marked
            .iter()
            .filter(|(s, _)| diffs.iter().any(|&(row, _)| s.count(row) != 0.0))
            .map(|&(s, sign)| MarkedSet {
                set: s.set,
                side: tables::side_name(s.side),
                positions: s.positions,
                wins: s.wins,
                draws: s.draws,
                note: &s.note,
                included: sign > 0.0,
            })
            .collect(),
        covered: covered.iter().map(|x| x.0).collect(),
        remarks: remarks
            .iter()
            .filter(|r| &r.source == source)
            .map(|r| (r.section.as_str(), r.quote.trim_end_matches('.')))
            .collect(),
        unstated: open.iter().map(|x| x.0).filter(|row| !reasoned(row)).collect(),
        diffs: diffs.iter().map(|&(row, diff)| RowDiff { row, diff, pct: row.figure.is_pct() }).collect(),
    })
}

/// The notes on every source that differs from kpk's count, for the template `domain.md.j2`.
pub fn notes<'a>(
    t2: &'a Table2,
    sets: &'a [PositionSet],
    remarks: &'a [Table2Remark],
    domain: &Domain,
) -> Vec<SourceNote<'a>> {
    (0..t2.sources.len()).filter_map(|j| source_note(t2, j, sets, remarks, domain)).collect()
}

fn cell(v: Option<f64>) -> String {
    match v {
        None => "—".into(),
        Some(v) if v.fract() == 0.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

/// Tables 2 and 3 as a Markdown section (the template `domain.md.j2`).
pub fn markdown(e: &Engine, d: &Domain) -> Result<String> {
    let t2 = table2::table2();
    let sets = table2::table2_sets(&t2.sources);
    let remarks = table2::table2_remarks();
    let rows: Vec<_> = t2
        .rows
        .iter()
        .map(|r| {
            let theirs: Vec<String> = r.cells.iter().map(|&c| cell(c)).collect();
            json!({ "row": r.label(), "ours": cell(d.ours(r.key)), "theirs": theirs })
        })
        .collect();
    // The sources that give at least one figure kpk counts, each equal to kpk's.
    let agree: Vec<&str> = t2
        .sources
        .iter()
        .enumerate()
        .filter(|&(j, _)| {
            let given: Vec<_> = t2.rows.iter().filter_map(|r| r.cells[j].map(|v| (r.key, v))).collect();
            !given.is_empty() && given.iter().all(|&(row, v)| d.ours(row).is_some_and(|o| o == v))
        })
        .map(|(_, s)| s.as_str())
        .collect();
    let context = json!({
        "others": t2.sources.len().saturating_sub(1),
        "sources": t2.sources,
        "rows": rows,
        "agree": agree,
        "notes": notes(&t2, &sets, &remarks, d),
        "table3": d.table3.chunks(2).collect::<Vec<_>>(),
    });
    templates::render(e, "domain", &context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use crate::chess::position::KpkPosition;
    use crate::paper::table2;
    use kpk_probe::{Color, Outcome, Square};

    /// (positions legal in kpk, of which wins) among `placements`.
    fn in_kpk(bb: &Bitbase, placements: &[(&str, &str, &str)], side: Color) -> (usize, usize) {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let legal: Vec<KpkPosition> = placements
            .iter()
            .filter_map(|(wk, bk, wp)| KpkPosition::new(sq(wk), sq(bk), sq(wp), side).ok())
            .collect();
        (legal.len(), legal.iter().filter(|p| bb.outcome(p) == Outcome::Win).count())
    }

    /// kpk's marks hold on the bitbase: Table 1's 14 positions of 6a-e and the 390 of 7b-c are
    /// kpk positions with the paper's counts of wins; 7a's pawn on the eighth rank is not.
    #[test]
    fn kpk_includes_the_sets_its_marks_say() {
        let bb = Bitbase::generate();
        let mut six = vec![];
        for wk in ["a6", "b6", "c6", "c7", "c8"] {
            six.push((wk, "a8", "a7"));
        }
        six.extend([("b6", "b8", "b7"), ("c6", "c8", "c7"), ("d6", "d8", "d7")]);
        six.extend([("c1", "a1", "a2"), ("c2", "a1", "a2"), ("c7", "a8", "b6"), ("c8", "a8", "b6")]);
        six.extend([("a6", "a8", "c7"), ("b6", "a8", "c7")]);
        let six_in = in_kpk(&bb, &six, Color::White);
        assert_eq!(six_in, (14, 9));
        // 7b: the bK on rank 3 in check from the wP on a2-d2, the wK anywhere; 7c: wK a1, wP a2, bK c1/c2.
        let names: Vec<String> = (0..64u8).map(|i| Square::new(i).unwrap().to_string()).collect();
        let mut seven = vec![];
        for (wp, bks) in
            [("a2", vec!["b3"]), ("b2", vec!["a3", "c3"]), ("c2", vec!["b3", "d3"]), ("d2", vec!["c3", "e3"])]
        {
            for bk in bks {
                seven.extend(names.iter().map(|wk| (wk.as_str(), bk, wp)));
            }
        }
        seven.extend([("a1", "c1", "a2"), ("a1", "c2", "a2")]);
        let seven_in = in_kpk(&bb, &seven, Color::Black);
        assert_eq!(seven_in, (390, 7));
        let promoted = KpkPosition::new(
            "e1".parse().unwrap(),
            "e3".parse().unwrap(),
            "a8".parse().unwrap(),
            Color::Black,
        );
        assert!(promoted.is_err());
        // kpk includes a set where its positions are kpk's, with the paper's counts of them.
        let sets = table2::table2_sets(&table2::table2().sources);
        for s in &sets {
            let counts = (s.positions as usize, s.wins as usize);
            let found = match s.set {
                Table1Set::Set6aToE => six_in == counts,
                Table1Set::Set7bToC => seven_in == counts,
                Table1Set::Set7a => promoted.is_ok(),
            };
            assert_eq!(kpk_includes(s.set), found, "{}", s.set);
        }
        assert_eq!(
            (sets[0].positions, sets[0].wins, sets[2].positions, sets[2].wins),
            (14.0, 9.0, 390.0, 7.0)
        );
    }

    #[test]
    fn each_differing_source_is_explained_by_its_marks_or_said_to_have_no_stated_reason() {
        let domain = crate::analysis::reproduction::domain::analyse(&Bitbase::generate());
        let t2 = table2::table2();
        let sets = table2::table2_sets(&t2.sources);
        let remarks = table2::table2_remarks();
        let all = notes(&t2, &sets, &remarks, &domain);
        let note = |source: &str| all.iter().find(|n| n.source == source);
        let clarke = note("clarke_1977").unwrap();
        let diffs: Vec<(RowKey, f64)> = clarke.diffs.iter().map(|d| (d.row, d.diff)).collect();
        let key = |name: &str| name.parse::<RowKey>().unwrap();
        let btm = ["btm positions", "btm wins", "btm wins pct", "btm draws"].map(key);
        let (wtm_wins, wtm_draws) = (key("wtm wins"), key("wtm draws"));
        let expected = [(wtm_wins, -1.0), (wtm_draws, 1.0), (btm[0], 13980.0), (btm[1], 12985.0)];
        assert_eq!(diffs[..4], expected);
        assert!((diffs[4].1 - 5.0).abs() < 1e-9 && diffs[5] == (btm[3], 995.0), "{diffs:?}");
        assert!(clarke.diffs[4].pct && !clarke.diffs[3].pct);
        let set = &clarke.sets[0];
        assert_eq!((set.set, set.positions, set.included), (Table1Set::Set7a, 13980.0, true));
        assert_eq!(clarke.covered, btm);
        assert!(clarke.remarks.iter().any(|r| r.1.contains("'one out' discrepancy")));
        assert_eq!(clarke.unstated, [wtm_wins, wtm_draws]);
        let ours = note("haworth_velliste_1998").unwrap();
        let marked: Vec<Table1Set> = ours.sets.iter().map(|s| s.set).collect();
        assert_eq!((marked, ours.unstated.len()), (vec![Table1Set::Set6aToE, Table1Set::Set7bToC], 0));
        let shapiro = note("shapiro_niblett_1982").unwrap();
        assert!(shapiro.diffs.iter().any(|d| (d.row, d.diff) == (btm[0], -390.0)));
        assert!(note("edwards_1994").is_none() && note("bramer_1980").is_none());
        // Without the marks, nothing accounts for Clarke's btm figures.
        let mut bare_sets = sets.clone();
        bare_sets.iter_mut().for_each(|s| s.included.iter_mut().for_each(|m| *m = None));
        let bare = source_note(&t2, 0, &bare_sets, &[], &domain).unwrap();
        assert_eq!(bare.unstated, [wtm_wins, wtm_draws, btm[0], btm[1], btm[2], btm[3]]);
    }

    #[test]
    fn the_sources_that_count_legal_positions_agree_with_kpk() {
        let e = templates::engine().unwrap();
        let md = markdown(&e, &crate::analysis::reproduction::domain::analyse(&Bitbase::generate())).unwrap();
        assert!(md.contains("equals: bramer_1980, thompson_1986, edwards_1994."), "{md}");
    }
}
