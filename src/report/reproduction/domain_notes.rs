//! Why Table 2's sources differ from kpk's count, computed: for each source, the rows that differ
//! and by how much, the position sets whose inclusion the paper's Table 2 marks differently from
//! kpk's count and whether they account for each difference, and what the paper's text says of
//! the source (section 2). A difference neither accounts for is said to have no stated reason.

use super::Domain;
use crate::paper::tables::{self, PositionSet, Table2, Table2Remark};
use std::fmt::Write;

/// Whether kpk's count includes one of Table 1's sets. kpk counts every legal position with the
/// pawn on ranks 2-7, reachable from the initial array or not (Black to move may be in check):
/// so the unreachable sets 6a-e and 7b-c (section 2, Table 1) are in it and the post-conversion
/// set 7a (the pawn promoted) is not. The test below checks each against the bitbase's positions.
pub fn kpk_includes(set: &str) -> Option<bool> {
    match set {
        "6a-e" | "7b-c" => Some(true),
        "7a" => Some(false),
        _ => None,
    }
}

/// The sets a source's count includes and kpk's does not (+1), or the reverse (−1), where both
/// marks are known.
fn differing_sets(sets: &[PositionSet], j: usize) -> Vec<(&PositionSet, f64)> {
    sets.iter()
        .filter_map(|s| match (s.included[j], kpk_includes(&s.set)) {
            (Some(true), Some(false)) => Some((s, 1.0)),
            (Some(false), Some(true)) => Some((s, -1.0)),
            _ => None,
        })
        .collect()
}

/// A row of Table 2 and a source's figure minus kpk's.
type Diff<'a> = &'a (&'a str, f64);

fn signed(row: &str, d: f64) -> String {
    if row.ends_with("pct") { format!("{d:+.1} points") } else { format!("{d:+.0}") }
}

/// The note for source `j`, or `None` where every figure it gives equals kpk's.
fn source_note(
    t2: &Table2,
    j: usize,
    sets: &[PositionSet],
    remarks: &[Table2Remark],
    domain: &Domain,
) -> Option<String> {
    let source = &t2.sources[j];
    // (row, source − kpk) for every row where both give a figure and they differ.
    let diffs: Vec<(&str, f64)> = t2
        .rows
        .iter()
        .filter_map(|(row, cells)| {
            let d = cells[j]? - domain.ours(row)?;
            (d.abs() > 1e-9).then_some((row.as_str(), d))
        })
        .collect();
    if diffs.is_empty() {
        return None;
    }
    let marked = differing_sets(sets, j);
    let predicted = |row: &str| marked.iter().map(|(s, sign)| sign * s.count(row)).sum::<f64>();
    let is_explained = |row: &str, d: f64| (predicted(row) - d).abs() < 1e-9;
    // A win share follows from its side's positions and wins.
    let explained = |row: &str, d: f64| match row.strip_suffix(" wins pct") {
        Some(side) => {
            let count = |r: String| diffs.iter().find(|x| x.0 == r).map_or(0.0, |x| x.1);
            let (p, w) = (format!("{side} positions"), format!("{side} wins"));
            predicted(&p) != 0.0 && is_explained(&p, count(p.clone())) && is_explained(&w, count(w.clone()))
        }
        None => is_explained(row, d),
    };
    let list: Vec<String> = diffs.iter().map(|&(row, d)| format!("{row} ({})", signed(row, d))).collect();
    let mut note = format!("- **{source}** differs from kpk's count in {}.", list.join(", "));
    let (covered, open): (Vec<Diff>, Vec<Diff>) = diffs.iter().partition(|&&(row, d)| explained(row, d));
    for (s, sign) in &marked {
        if diffs.iter().any(|(row, _)| s.count(row) != 0.0) {
            let _ = write!(
                note,
                " The paper's Table 2 marks set {} ({:.0} {} positions: {:.0} wins, {:.0} draws; Table 1: \
                 \"{}\") as {} in this count; kpk's {} it.",
                s.set,
                s.positions,
                s.side,
                s.wins,
                s.draws,
                s.note,
                if *sign > 0.0 { "included" } else { "not included" },
                if *sign > 0.0 { "excludes" } else { "includes" },
            );
        }
    }
    if !covered.is_empty() {
        let rows: Vec<&str> = covered.iter().map(|x| x.0).collect();
        let _ = write!(note, " That accounts for the difference in {}.", rows.join(", "));
    }
    for r in remarks.iter().filter(|r| &r.source == source) {
        let _ =
            write!(note, " The paper's text (section {}): \"{}\".", r.section, r.quote.trim_end_matches('.'));
    }
    // What neither the marks nor a remark giving a reason cover.
    let reasoned = |row: &str| {
        remarks.iter().any(|r| &r.source == source && r.reason_stated && r.rows.split(';').any(|x| x == row))
    };
    let unstated: Vec<&str> = open.iter().map(|x| x.0).filter(|row| !reasoned(row)).collect();
    if !unstated.is_empty() {
        let _ = write!(note, " The reason for the difference in {} is not stated.", unstated.join(", "));
    }
    Some(note)
}

/// The notes on every source that differs from kpk's count, as a Markdown list.
pub fn markdown(domain: &Domain) -> String {
    let t2 = tables::table2();
    let sets = tables::table2_sets(&t2.sources);
    let remarks = tables::table2_remarks();
    let notes: Vec<String> =
        (0..t2.sources.len()).filter_map(|j| source_note(&t2, j, &sets, &remarks, domain)).collect();
    if notes.is_empty() {
        return String::new();
    }
    let mut w = String::from("The others, each against kpk's count (source − kpk):\n\n");
    for n in notes {
        let _ = writeln!(w, "{n}");
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use crate::chess::board::{Color, Square};
    use crate::chess::position::{KpkPosition, Outcome};

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
        assert_eq!(in_kpk(&bb, &six, Color::White), (14, 9));
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
        assert_eq!(in_kpk(&bb, &seven, Color::Black), (390, 7));
        assert!(
            KpkPosition::new(
                "e1".parse().unwrap(),
                "e3".parse().unwrap(),
                "a8".parse().unwrap(),
                Color::Black
            )
            .is_err()
        );
        let sets = tables::table2_sets(&tables::table2().sources);
        for s in &sets {
            let wanted = if s.set == "7a" { Some(false) } else { Some(true) };
            assert_eq!(kpk_includes(&s.set), wanted, "{}", s.set);
        }
        assert_eq!(
            (sets[0].positions, sets[0].wins, sets[2].positions, sets[2].wins),
            (14.0, 9.0, 390.0, 7.0)
        );
    }

    #[test]
    fn each_differing_source_is_explained_by_its_marks_or_said_to_have_no_stated_reason() {
        let domain = crate::report::reproduction::domain::analyse(&Bitbase::generate());
        let md = markdown(&domain);
        let line =
            |source: &str| md.lines().find(|l| l.contains(&format!("**{source}**"))).unwrap().to_string();
        let clarke = line("clarke_1977");
        assert!(clarke.contains("in wtm wins (-1), wtm draws (+1), btm positions (+13980), btm wins (+12985), btm wins pct (+5.0 points), btm draws (+995)."), "{clarke}");
        assert!(clarke.contains("marks set 7a (13980 btm positions"), "{clarke}");
        assert!(
            clarke
                .contains("accounts for the difference in btm positions, btm wins, btm wins pct, btm draws."),
            "{clarke}"
        );
        assert!(
            clarke.contains("'one out' discrepancy")
                && clarke.ends_with("The reason for the difference in wtm wins, wtm draws is not stated."),
            "{clarke}"
        );
        let ours = line("haworth_velliste_1998");
        assert!(
            ours.contains("set 6a-e") && ours.contains("set 7b-c") && !ours.contains("not stated"),
            "{ours}"
        );
        assert!(line("shapiro_niblett_1982").contains("btm positions (-390)"));
        assert!(!md.contains("**edwards_1994**") && !md.contains("**bramer_1980**"));
        // Without the marks, nothing accounts for Clarke's btm figures.
        let t2 = tables::table2();
        let mut sets = tables::table2_sets(&t2.sources);
        sets.iter_mut().for_each(|s| s.included.iter_mut().for_each(|m| *m = None));
        let bare = source_note(&t2, 0, &sets, &[], &domain).unwrap();
        assert!(bare.ends_with("The reason for the difference in wtm wins, wtm draws, btm positions, btm wins, btm wins pct, btm draws is not stated."), "{bare}");
    }
}
