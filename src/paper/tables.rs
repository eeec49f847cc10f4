//! The paper's reference numbers: Table 5 (the 41 training trials) and Table 6 (the 51 a-file
//! positions the best net still misclassified), as transcribed in `data/paper/*.csv`; Table 2 is
//! [`super::table2`]'s.
//!
//! The CSV files are embedded with `include_str!` so that a clone of the repository, or the
//! binary alone, can always put the paper's figures beside ours.

use crate::chess::position::KpkPosition;
use crate::error::{Error, Result};
use kpk_probe::{Color, Square};
use serde::{Deserialize, Deserializer, Serialize};

/// Why reading an embedded table cannot fail: the tests of the module reading it read every one.
pub(super) const EMBEDDED: &str = "the embedded tables parse (tested)";
const TABLE5_CSV: &str = include_str!("../../data/paper/table5_trials.csv");
const TABLE6_CSV: &str = include_str!("../../data/paper/table6_misclassified_a_file.csv");
const TABLE6_NAME: &str = "data/paper/table6_misclassified_a_file.csv";

/// 2^17 bits: the size the paper assumes for a KPK database when computing `comp` (section 5).
pub const DATABASE_BITS: f64 = 131_072.0;

/// Bits per stored weight in the paper: 64-bit floating point, unpruned (section 5).
pub const BITS_PER_WEIGHT: usize = 64;

/// The two kinds of trial of section 4.5: on a small drawn training set, tested on a disjoint
/// set of the same size (Table 5's trials 1-37), or on a whole set, every position of a side or a
/// pawn file, with nothing left to test on (trials 38-41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Small,
    Whole,
}

/// Table 5's training sets (section 4.5): T1 (wtm) and T2 (btm) are the small sets, each beside
/// its testing set S1, S2; T3 (every wtm position), T4 (a-file) and T5 (d-file) are whole sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TrainingSet {
    T1,
    T2,
    T3,
    T4,
    T5,
}

impl TrainingSet {
    /// The testing set drawn beside a small training set, as the paper names it; none for a
    /// whole set.
    pub fn testing_set(self) -> Option<&'static str> {
        match self {
            TrainingSet::T1 => Some("S1"),
            TrainingSet::T2 => Some("S2"),
            TrainingSet::T3 | TrainingSet::T4 | TrainingSet::T5 => None,
        }
    }

    /// Small (with a testing set) or whole.
    pub fn scope(self) -> Scope {
        if self.testing_set().is_some() { Scope::Small } else { Scope::Whole }
    }
}

impl std::fmt::Display for TrainingSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// The side to move as the paper's tables name it: `wtm` or `btm`.
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "wtm",
        Color::Black => "btm",
    }
}

/// The side to move named `wtm` or `btm`.
pub fn parse_side(name: &str) -> Result<Color> {
    [Color::White, Color::Black].into_iter().find(|&c| side_name(c) == name).ok_or_else(|| {
        Error::UnknownName { what: "side to move", given: name.to_string(), allowed: "wtm, btm".into() }
    })
}

/// A side to move in a CSV cell, `wtm` or `btm`.
fn side_to_move<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Color, D::Error> {
    parse_side(&String::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// One row of Table 5, as printed (trial 14's NN number corrected from 1 to 2; its topology
/// 32-20-10-1 with 881 weights is NN2's).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Table5Row {
    pub trial: u8,
    /// Written `wtm` or `btm`.
    #[serde(deserialize_with = "side_to_move")]
    pub side: Color,
    /// The paper's network number NN1..NN6 (section 4.4).
    pub nn: u8,
    /// Layer widths as Table 5 writes them, e.g. "32-10-10-1". Text here: the paper's tables
    /// come before the net stage that owns `net::topology::Topology`; every row parses as one
    /// with its weight count (net::topology's tests).
    pub topology: String,
    pub weights: usize,
    pub bits: usize,
    pub comp: f64,
    pub train_set: TrainingSet,
    /// "E1" (mean |y - d|) or "E2" (max |y - d|), section 4.5.
    pub error_fn: String,
    pub target: f64,
    pub epochs: usize,
    pub train_acc_pct: f64,
    pub train_err_pct: f64,
    /// Empty for trials 38-41, which were not tested (they train on whole sets).
    pub test_acc_pct: Option<f64>,
    pub test_err_pct: Option<f64>,
}

/// One row of Table 6: an a-file wtm position the paper's best net misclassified.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Table6Row {
    pub n: u8,
    pub wk: String,
    pub bk: String,
    pub wp: String,
    /// 'w' or 'd': the true result with White to move (the position the net was asked about).
    pub result_wtm: char,
    /// The true result of the same placement with Black to move.
    pub result_btm: char,
    pub target_o1: f64,
    pub target_o2: f64,
    pub actual_o1: f64,
    pub actual_o2: f64,
}

impl Table6Row {
    /// The position (always White to move: Table 6 lists wtm positions); an error names the
    /// table's file and the row.
    pub fn position(&self) -> Result<KpkPosition> {
        let bad = |e: &dyn std::fmt::Display| Error::Format {
            path: TABLE6_NAME.into(),
            message: format!("row {}: {e}", self.n),
        };
        let sq = |s: &str| s.parse::<Square>().map_err(|e| bad(&e));
        KpkPosition::new(sq(&self.wk)?, sq(&self.bk)?, sq(&self.wp)?, Color::White).map_err(|e| bad(&e))
    }
}

pub(super) fn parse<T: serde::de::DeserializeOwned>(csv_text: &str, name: &str) -> Result<Vec<T>> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    reader
        .deserialize()
        .collect::<std::result::Result<Vec<T>, _>>()
        .map_err(|e| Error::Format { path: name.to_string(), message: e.to_string() })
}

/// Table 5, one row per trial, in trial order 1..=41.
pub fn table5() -> Vec<Table5Row> {
    // The embedded file is checked by the unit tests below, so a parse failure is a build defect.
    parse(TABLE5_CSV, "data/paper/table5_trials.csv").expect(EMBEDDED)
}

impl Table5Row {
    /// Whether the trial trained on a small set or a whole one (its training set says).
    pub fn scope(&self) -> Scope {
        self.train_set.scope()
    }
}

/// The scope of Table 5's trial `trial` (1-41), as its training set gives it; `None` for a number
/// that is not one of Table 5's trials.
pub fn scope(trial: u8) -> Option<Scope> {
    table5().iter().find(|r| r.trial == trial).map(Table5Row::scope)
}

/// Table 6, the 51 misclassified a-file positions, in the paper's order.
pub fn table6() -> Vec<Table6Row> {
    parse(TABLE6_CSV, TABLE6_NAME).expect(EMBEDDED)
}

/// The paper's compression factor: database bits / (weights * 64 bits), section 5.
pub fn compression(weights: usize) -> f64 {
    DATABASE_BITS / (weights * BITS_PER_WEIGHT) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::bitbase::Bitbase;
    use kpk_probe::Outcome;

    #[test]
    fn table5_has_41_consistent_rows() {
        let rows = table5();
        assert_eq!(rows.len(), 41);
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.trial as usize, i + 1);
            // Every bit count and compression factor follows from the weight count (which
            // follows from the topology: net::topology's tests).
            assert_eq!(r.bits, r.weights * BITS_PER_WEIGHT, "trial {}", r.trial);
            assert!((compression(r.weights) - r.comp).abs() < 0.0006, "trial {}", r.trial);
            assert!((r.train_acc_pct + r.train_err_pct - 100.0).abs() < 1e-9);
            // Only the small-set trials were tested: trials 1-37.
            assert_eq!(r.test_acc_pct.is_some(), r.scope() == Scope::Small, "trial {}", r.trial);
            assert_eq!(scope(r.trial), Some(if r.trial <= 37 { Scope::Small } else { Scope::Whole }));
        }
        // Trial 14 uses NN2's topology; the CSV carries the corrected NN number.
        assert_eq!(rows[13].nn, 2);
        assert_eq!(rows[13].topology, "32-20-10-1");
    }

    #[test]
    fn table6_rows_are_a_file_positions_whose_stated_results_match_the_bitbase() {
        let bb = Bitbase::generate();
        let rows = table6();
        assert_eq!(rows.len(), 51);
        let letter = |o: Outcome| if o == Outcome::Win { 'w' } else { 'd' };
        for r in &rows {
            let p = r.position().unwrap();
            assert_eq!(p.wp().file(), 0, "row {}", r.n);
            assert_eq!(letter(bb.outcome(&p)), r.result_wtm, "row {} wtm", r.n);
            let btm = KpkPosition::new(p.wk(), p.bk(), p.wp(), Color::Black).unwrap();
            assert_eq!(letter(bb.outcome(&btm)), r.result_btm, "row {} btm", r.n);
            // Targets are (1, 0) for a win and (0, 1) for a draw (section 4.3).
            let win = r.result_wtm == 'w';
            assert_eq!((r.target_o1, r.target_o2), if win { (1.0, 0.0) } else { (0.0, 1.0) });
            // The net's outputs are on the wrong side of 0.5: that is why the row is listed.
            assert_eq!(r.actual_o1 >= 0.5, !win, "row {}", r.n);
        }
    }
}
