//! The paper's own groups of its 51 misclassified a-file positions (section 5.1, the text after
//! Table 6) against our replicates at matched accuracy, and the a2 double-step class defined
//! exactly with the bitbase over every a-file wtm position.
//!
//! [`analyse`] computes the rates from `readings/table6.json` ([`Matched`]), the paper's Table 6
//! and the bitbase; [`crate::report::reproduction::groups`] words them.

use crate::chess::bitbase::Bitbase;
use crate::chess::position::{After, KpkPosition};
use crate::experiment::table6::Matched;
use crate::paper::tables::Table6Row;
use crate::stats::{self, Interval};
use kpk_probe::{Color, Outcome, Square};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// Section 5.1: "some win-defining rules input as characteristics were not 100% effective (see
/// # 8, 17, 21, 22, 24)". The paper names the rows; nothing in the table marks them.
pub const RULES_NOT_EFFECTIVE: [u8; 5] = [8, 17, 21, 22, 24];
/// Section 5.1: "Positions # 29 to 38 remind us that the wP is sometimes better on a2 than a3".
pub const A2_A3_ROWS: std::ops::RangeInclusive<u8> = 29..=38;

/// One of the paper's groups: its name, how it is defined and its rows of Table 6.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub name: &'static str,
    /// The rule that picks its rows, as the report states it.
    pub rule: &'static str,
    pub rows: Vec<u8>,
}

/// The groups section 5.1 names, in the order it names them, after the whole list. The three
/// groups by result are computed from the results printed in Table 6; the last two are the rows
/// the text lists.
pub fn paper_groups(paper6: &[Table6Row]) -> Vec<Group> {
    let rows = |keep: &dyn Fn(&Table6Row) -> bool| paper6.iter().filter(|p| keep(p)).map(|p| p.n).collect();
    let rows: [Vec<u8>; 6] = [
        rows(&|_| true),
        rows(&|p| p.result_wtm != p.result_btm),
        rows(&|p| p.result_wtm == 'd' && p.result_btm == 'd'),
        rows(&|p| p.result_wtm == 'w' && p.result_btm == 'w'),
        RULES_NOT_EFFECTIVE.to_vec(),
        A2_A3_ROWS.collect(),
    ];
    TEXTS.group.iter().zip(rows).map(|(t, rows)| Group { name: &t.name, rule: &t.rule, rows }).collect()
}

/// The name and rule of a group or class, from `table6_groups.toml`.
#[derive(Deserialize)]
struct Text {
    name: String,
    rule: String,
}

/// The words of the groups (in [`paper_groups`] order) and of the classes (in [`A2_CLASSES`]
/// order).
#[derive(Deserialize)]
struct Texts {
    group: [Text; 6],
    class: [Text; 3],
}

static TEXTS: LazyLock<Texts> =
    LazyLock::new(|| toml::from_str(include_str!("table6_groups.toml")).expect("table6_groups.toml parses"));

/// How often our runs at matched accuracy get a set of positions wrong.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorRate {
    /// Positions in the set.
    pub positions: usize,
    /// Of them, wrong in at least one run.
    pub wrong_any: usize,
    /// (position, run) pairs that are wrong, of `positions` × runs.
    pub wrong_pairs: usize,
    /// Runs at matched accuracy.
    pub runs: usize,
}

impl ErrorRate {
    /// Mean number of runs that get a position of the set wrong.
    pub fn mean_runs(&self) -> f64 {
        if self.positions == 0 { 0.0 } else { self.wrong_pairs as f64 / self.positions as f64 }
    }

    /// % of (position, run) pairs wrong, with its 95% Wilson interval. The pairs of one position
    /// are not independent across runs, so the interval is narrower than a per-position one.
    pub fn pct(&self) -> Option<Interval> {
        stats::wilson_pct(self.wrong_pairs, self.positions * self.runs)
    }
}

/// Section 5.1's groups of the paper's 51 and the a2 classes, against the runs at matched accuracy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table6Groups {
    /// Every a-file wtm position: the base rate.
    pub all: ErrorRate,
    /// One per group of [`paper_groups`], in its order.
    pub groups: Vec<ErrorRate>,
    /// One per class of [`A2_CLASSES`], in its order.
    pub classes: Vec<ClassRow>,
}

/// Runs of `m` that reached matched accuracy.
pub fn matched_runs(m: &Matched) -> usize {
    m.runs.iter().filter(|r| r.epoch.is_some()).count()
}

/// Runs wrong per position of `m`, keyed by (wK, bK, wP) as Table 6 writes them.
fn runs_by_square(m: &Matched) -> BTreeMap<(String, String, String), usize> {
    m.positions.iter().map(|p| ((p.wk.clone(), p.bk.clone(), p.wp.clone()), p.runs)).collect()
}

/// The error rate of our runs on the positions `keys` (wK, bK, wP).
pub fn rate_over<'a>(m: &Matched, keys: impl Iterator<Item = (&'a str, &'a str, &'a str)>) -> ErrorRate {
    let by = runs_by_square(m);
    let mut r = ErrorRate { positions: 0, wrong_any: 0, wrong_pairs: 0, runs: matched_runs(m) };
    for (wk, bk, wp) in keys {
        let k = by.get(&(wk.to_string(), bk.to_string(), wp.to_string())).copied().unwrap_or(0);
        r.positions += 1;
        r.wrong_any += usize::from(k > 0);
        r.wrong_pairs += k;
    }
    r
}

/// The error rate of our runs on each group's rows.
pub fn group_rates(m: &Matched, paper6: &[Table6Row], groups: &[Group]) -> Vec<ErrorRate> {
    groups
        .iter()
        .map(|g| {
            let rows = paper6.iter().filter(|p| g.rows.contains(&p.n));
            rate_over(m, rows.map(|p| (p.wk.as_str(), p.bk.as_str(), p.wp.as_str())))
        })
        .collect()
}

/// Whether a wtm position with the pawn on a2 is won *only because of the double step*: it is a
/// win, a2-a4 wins, and no other move does (a2-a3 and every king move draw). Section 5.1: "Neither
/// the 'a2→a4' or the 'cannot move into check' rules are known to the NN."
pub fn needs_double_step(p: &KpkPosition, bb: &Bitbase) -> bool {
    if p.wp().file() != 0 || p.wp().rank() != 1 || p.side() != Color::White {
        return false;
    }
    let mut double_wins = false;
    for mv in p.moves() {
        let wins = match p.play(mv) {
            After::Position(q) => bb.outcome(&q) == Outcome::Win,
            After::Promoted { outcome, .. } => outcome == Outcome::Win,
            After::PawnCaptured => false,
        };
        let double = mv.from == p.wp() && mv.to.rank() == 3;
        match (double, wins) {
            (true, w) => double_wins = w,
            (false, true) => return false,
            (false, false) => {}
        }
    }
    double_wins
}

/// Whether a wtm position with the pawn on a2 wins while the same kings with the pawn on a3, White
/// to move, draw or are no legal position: section 5.1's "the wP is sometimes better on a2 than a3.
/// The bK cannot move into check on b3, is forced to move to b2, and allows the wP to escape to a4."
pub fn better_on_a2(p: &KpkPosition, bb: &Bitbase) -> bool {
    if p.wp().file() != 0 || p.wp().rank() != 1 || p.side() != Color::White || bb.outcome(p) != Outcome::Win {
        return false;
    }
    let a3 = Square::ALL[16]; // file a, rank 3: index rank * 8 + file
    KpkPosition::new(p.wk(), p.bk(), a3, p.side()).map_or(true, |q| bb.outcome(&q) == Outcome::Draw)
}

/// Whether a2-a4 wins and a2-a3 does not, whatever the king moves do.
pub fn double_beats_single(p: &KpkPosition, bb: &Bitbase) -> bool {
    if p.wp().file() != 0 || p.wp().rank() != 1 || p.side() != Color::White {
        return false;
    }
    let pawn_to = |rank: u8| {
        p.moves()
            .into_iter()
            .find(|mv| mv.from == p.wp() && mv.to.rank() == rank)
            .is_some_and(|mv| matches!(p.play(mv), After::Position(q) if bb.outcome(&q) == Outcome::Win))
    };
    pawn_to(3) && !pawn_to(2)
}

/// A class of a-file wtm positions defined with the bitbase.
pub struct Class {
    pub name: &'static str,
    pub rule: &'static str,
    pub test: fn(&KpkPosition, &Bitbase) -> bool,
}

/// The index in [`A2_CLASSES`] of the class the paper's #29-38 illustrate (section 5.1: "the wP is
/// sometimes better on a2 than a3").
pub const BETTER_ON_A2: usize = 2;

/// The classes of the a2→a4 rule, narrowest first.
pub static A2_CLASSES: LazyLock<[Class; 3]> = LazyLock::new(|| {
    let tests: [fn(&KpkPosition, &Bitbase) -> bool; 3] =
        [needs_double_step, double_beats_single, better_on_a2];
    std::array::from_fn(|i| Class { name: &TEXTS.class[i].name, rule: &TEXTS.class[i].rule, test: tests[i] })
});

/// The error rate of our runs on the positions of `population` that `keep` picks.
pub fn rate_where(m: &Matched, population: &[KpkPosition], keep: impl Fn(&KpkPosition) -> bool) -> ErrorRate {
    let names: Vec<[String; 3]> = population
        .iter()
        .filter(|p| keep(p))
        .map(|p| [p.wk().to_string(), p.bk().to_string(), p.wp().to_string()])
        .collect();
    rate_over(m, names.iter().map(|[a, b, c]| (a.as_str(), b.as_str(), c.as_str())))
}

/// The rows of Table 6 whose position `keep` picks.
pub fn rows_where(paper6: &[Table6Row], keep: impl Fn(&KpkPosition) -> bool) -> Vec<u8> {
    paper6.iter().filter(|p| p.position().is_ok_and(|q| keep(&q))).map(|p| p.n).collect()
}

/// Every a-file wtm position (the set T4, the paper's Fa), in index order.
pub fn a_file_wtm() -> Vec<KpkPosition> {
    KpkPosition::all().filter(|p| p.wp().file() == 0 && p.side() == Color::White).collect()
}

/// The rates of the paper's groups and of the a2 classes, over every a-file wtm position.
pub fn analyse(m: &Matched, paper6: &[Table6Row], bb: &Bitbase) -> Table6Groups {
    let population = a_file_wtm();
    Table6Groups {
        all: rate_where(m, &population, |_| true),
        groups: group_rates(m, paper6, &paper_groups(paper6)),
        classes: A2_CLASSES.iter().map(|c| class_row(c, m, paper6, bb, &population)).collect(),
    }
}

/// A share in %, 0 for an empty set.
fn share(k: usize, n: usize) -> f64 {
    if n == 0 { 0.0 } else { 100.0 * k as f64 / n as f64 }
}

/// One a2 class against the other wtm wins with the pawn on a2, for the paper's net and for ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRow {
    pub inside: ErrorRate,
    pub outside: ErrorRate,
    pub a2_rest: ErrorRate,
    pub paper_rows: Vec<u8>,
    /// The paper's net's % wrong inside the class and on the other a2 wins.
    pub paper_in: f64,
    pub paper_rest: f64,
}

fn class_row(
    c: &Class,
    m: &Matched,
    paper6: &[Table6Row],
    bb: &Bitbase,
    population: &[KpkPosition],
) -> ClassRow {
    let in_class = |p: &KpkPosition| (c.test)(p, bb);
    let a2_win = |p: &KpkPosition| p.wp().rank() == 1 && bb.outcome(p) == Outcome::Win;
    let inside = rate_where(m, population, in_class);
    let a2_rest = rate_where(m, population, |p| a2_win(p) && !in_class(p));
    let paper_rows = rows_where(paper6, in_class);
    let paper_rest = rows_where(paper6, |p| a2_win(p) && !in_class(p)).len();
    ClassRow {
        outside: rate_where(m, population, |p| !in_class(p)),
        paper_in: share(paper_rows.len(), inside.positions),
        paper_rest: share(paper_rest, a2_rest.positions),
        inside,
        a2_rest,
        paper_rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::table6::{MatchedRun, PositionCount};

    fn position(wk: &str, bk: &str, wp: &str) -> KpkPosition {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        KpkPosition::new(sq(wk), sq(bk), sq(wp), Color::White).unwrap()
    }

    #[test]
    fn the_groups_hold_the_rows_section_5_1_names() {
        let paper6 = crate::paper::tables::table6();
        let groups = paper_groups(&paper6);
        let rows = |i: usize| groups[i].rows.clone();
        // In order: all of Table 6, critical, drawn and won either side to move, win-defining
        // rules not effective, wP better on a2 than a3.
        assert_eq!(rows(0).len(), 51);
        // "Of the 51 misclassified positions, 42 are critical ... Eight are drawn with either wtm or
        // btm (# 1, 17, 21, 22, 24, 41, 49, 51) and one (# 33) is a win with either side to move."
        assert_eq!(rows(1).len(), 42);
        assert_eq!(rows(2), vec![1, 17, 21, 22, 24, 41, 49, 51]);
        assert_eq!(rows(3), vec![33]);
        assert_eq!(rows(4), vec![8, 17, 21, 22, 24]);
        assert_eq!(rows(5), (29..=38).collect::<Vec<u8>>());
    }

    #[test]
    fn the_a2_classes_match_hand_checked_positions() {
        let bb = Bitbase::generate();
        // wK a8, bK b2, wP a2 (row 44): the bK attacks a2 and a3, so a king move or a2-a3 loses
        // the pawn; a2-a4 escapes ("allows the wP to escape to a4") and wins.
        let row44 = position("a8", "b2", "a2");
        assert!(needs_double_step(&row44, &bb));
        assert!(double_beats_single(&row44, &bb));
        // wK b1 beside the pawn, bK far away on h8: every move wins, so the double step is not needed.
        let easy = position("b1", "h8", "a2");
        assert_eq!(bb.outcome(&easy), Outcome::Win);
        assert!(!needs_double_step(&easy, &bb));
        assert!(!double_beats_single(&easy, &bb));
        // On a3 it wins as well.
        assert!(!better_on_a2(&easy, &bb));
        // Row 29 (wK g6, bK f3): a win with the pawn on a2, a draw with it on a3.
        let row29 = position("g6", "f3", "a2");
        assert!(better_on_a2(&row29, &bb));
        let on_a3 = position("g6", "f3", "a3");
        assert_eq!(bb.outcome(&on_a3), Outcome::Draw);
        // Off a2 no class holds.
        let on_a3_win = position("b4", "h8", "a3");
        assert!(A2_CLASSES.iter().all(|c| !(c.test)(&on_a3_win, &bb)));
        // The narrowest class lies inside the second.
        let population = a_file_wtm();
        assert_eq!(population.len(), 20_643);
        assert!(population.iter().all(|p| !needs_double_step(p, &bb) || double_beats_single(p, &bb)));
    }

    #[test]
    fn rates_count_runs_per_position_and_pairs() {
        let count = |wk: &str, bk: &str, wp: &str, runs| PositionCount {
            wk: wk.into(),
            bk: bk.into(),
            wp: wp.into(),
            result_wtm: "w".into(),
            result_btm: "d".into(),
            runs,
            paper_row: None,
        };
        let run = |epoch| MatchedRun {
            trial: "trial39".into(),
            seed: 0,
            epoch,
            errors: 0,
            on_paper_list: 0,
            chance_expected: 0.0,
            chance_p: 1.0,
        };
        let m = Matched {
            runs: vec![run(Some(3)), run(Some(4)), run(None)],
            positions: vec![count("a8", "b2", "a2", 2), count("g6", "f3", "a2", 1)],
            population: 3,
            critical_base_pct: 0.0,
        };
        let population = [position("a8", "b2", "a2"), position("g6", "f3", "a2"), position("b1", "h8", "a2")];
        let r = rate_where(&m, &population, |_| true);
        assert_eq!((r.positions, r.wrong_any, r.wrong_pairs, r.runs), (3, 2, 3, 2));
        assert!((r.mean_runs() - 1.0).abs() < 1e-12);
        assert!((r.pct().unwrap().mean - 50.0).abs() < 1e-12);
        let bb = Bitbase::generate();
        let only = rate_where(&m, &population, |p| needs_double_step(p, &bb));
        assert_eq!((only.positions, only.wrong_pairs), (1, 2));
    }
}
