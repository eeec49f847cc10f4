//! The paper's training and testing sets (section 4.5), filters, and CSV output.
//!
//! | name | positions | what |
//! |------|----------:|------|
//! | `T1`, `S1` | 125 + 125 | White to move, disjoint; a seeded random draw (see below) |
//! | `T2`, `S2` | 136 + 136 | Black to move, disjoint; a seeded random draw |
//! | `T3` | 81,664 | every White-to-move position |
//! | `T4` | 20,643 | White to move, pawn on the a-file (the paper's Fa) |
//! | `T5` | 20,346 | White to move, pawn on the d-file (Fd) |
//! | `wtm`, `btm`, `all` | 81,664, 84,012, 165,676 | every legal position of a side, or both |
//!
//! The paper's T1/S1 and T2/S2 were hand-prepared ("interesting 'borderline' ones from the texts
//! or … generated at random", then "randomly divided into two sets"), and are not published. A
//! seeded random draw of the same sizes stands in: the pool (every legal position of the side,
//! in [`crate::KpkIndex`] order) is partially shuffled by Fisher–Yates with a
//! `rand_chacha::ChaCha8Rng` seeded from `seed`; the first 125 (136) drawn form T1 (T2) and the
//! next 125 (136) form S1 (S2), so each pair is disjoint by construction and the same seed always
//! gives the same sets. Only these four sets depend on the seed.
//!
//! Positions keep the order they are drawn in (small sets) or [`crate::KpkIndex`] order (the
//! others); section 4.5 presents positions "in an arbitrary order which did not change".

use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::error::{Error, Result};
use crate::output::FileOut;
use crate::paper::coding::InputCoding;
use crate::paper::features::{FEATURES, features};
use crate::paper::tables::{Scope, TrainingSet};
use kpk_probe::table4::N_FEATURES;
use kpk_probe::{Color, Outcome};
use ndarray::Array2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

pub mod borderline;
pub mod krk;
use borderline::draw_borderline;

/// The seed of T1/S1 and T2/S2 when none is given: the year of the paper.
pub const DEFAULT_SEED: u64 = 1998;

/// Sizes of T1 (= S1) and T2 (= S2), section 4.5.
pub const SMALL_SET_SIZE: [usize; 2] = [125, 136];

/// Which side is to move in a set's positions. The paper treats wtm and btm as two separate
/// problems (section 4.5); `both` is for sets that mix them (`all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Wtm,
    Btm,
    Both,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Wtm => "wtm",
            Side::Btm => "btm",
            Side::Both => "both",
        })
    }
}

/// The named sets (the table above): each owns its side to move, its size and how its positions
/// are chosen. Written as in the table (`T1`, `wtm`); read case-insensitively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetName {
    T1,
    S1,
    T2,
    S2,
    T3,
    T4,
    T5,
    Wtm,
    Btm,
    All,
}

/// How a named set's positions are chosen.
enum Selection {
    /// A seeded draw from one side's positions: the first half (T1, T2) or the second (S1, S2).
    Drawn { side: Color, second: bool },
    /// Every legal position passing the filter, in index order.
    Filtered(Filter),
}

impl SetName {
    /// Every named set, in the table's order.
    pub const ALL: [SetName; 10] = [
        SetName::T1,
        SetName::S1,
        SetName::T2,
        SetName::S2,
        SetName::T3,
        SetName::T4,
        SetName::T5,
        SetName::Wtm,
        SetName::Btm,
        SetName::All,
    ];

    /// The name as the table writes it.
    pub fn name(self) -> &'static str {
        match self {
            SetName::T1 => "T1",
            SetName::S1 => "S1",
            SetName::T2 => "T2",
            SetName::S2 => "S2",
            SetName::T3 => "T3",
            SetName::T4 => "T4",
            SetName::T5 => "T5",
            SetName::Wtm => "wtm",
            SetName::Btm => "btm",
            SetName::All => "all",
        }
    }

    /// The testing set drawn beside a small training set (S1 beside T1, S2 beside T2, section 4.5).
    pub fn testing(self) -> Option<SetName> {
        match self {
            SetName::T1 => Some(SetName::S1),
            SetName::T2 => Some(SetName::S2),
            _ => None,
        }
    }

    /// The side to move in the set's positions.
    pub fn side(self) -> Side {
        match self {
            SetName::T1 | SetName::S1 | SetName::T3 | SetName::T4 | SetName::T5 | SetName::Wtm => Side::Wtm,
            SetName::T2 | SetName::S2 | SetName::Btm => Side::Btm,
            SetName::All => Side::Both,
        }
    }

    /// Positions in the set (the table's counts; checked against [`Dataset::of`] by the tests).
    pub fn size(self) -> usize {
        match self {
            SetName::T1 | SetName::S1 => SMALL_SET_SIZE[0],
            SetName::T2 | SetName::S2 => SMALL_SET_SIZE[1],
            SetName::T3 | SetName::Wtm => 81_664,
            SetName::T4 => 20_643,
            SetName::T5 => 20_346,
            SetName::Btm => 84_012,
            SetName::All => 165_676,
        }
    }

    /// Whether the set is a seeded draw (T1, S1, T2, S2): the only sets the seed changes.
    pub fn is_drawn(self) -> bool {
        matches!(self.selection(), Selection::Drawn { .. })
    }

    /// Small (a seeded draw) or whole, as section 4.5 sorts its sets.
    pub fn scope(self) -> Scope {
        if self.is_drawn() { Scope::Small } else { Scope::Whole }
    }

    fn selection(self) -> Selection {
        let side = |s| Filter { side: Some(s), ..Filter::default() };
        let file = |f| Filter { side: Some(Color::White), pawn_file: Some(f), ..Filter::default() };
        match self {
            SetName::T1 => Selection::Drawn { side: Color::White, second: false },
            SetName::S1 => Selection::Drawn { side: Color::White, second: true },
            SetName::T2 => Selection::Drawn { side: Color::Black, second: false },
            SetName::S2 => Selection::Drawn { side: Color::Black, second: true },
            SetName::T3 | SetName::Wtm => Selection::Filtered(side(Color::White)),
            SetName::Btm => Selection::Filtered(side(Color::Black)),
            // Section 4.5: T4 and T5 are the wtm positions with the pawn on the a-file and the d-file.
            SetName::T4 => Selection::Filtered(file(1)),
            SetName::T5 => Selection::Filtered(file(4)),
            SetName::All => Selection::Filtered(Filter::default()),
        }
    }
}

/// Table 5's training sets are named sets.
impl From<TrainingSet> for SetName {
    fn from(set: TrainingSet) -> SetName {
        match set {
            TrainingSet::T1 => SetName::T1,
            TrainingSet::T2 => SetName::T2,
            TrainingSet::T3 => SetName::T3,
            TrainingSet::T4 => SetName::T4,
            TrainingSet::T5 => SetName::T5,
        }
    }
}

impl fmt::Display for SetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SetName {
    type Err = Error;

    /// A set's name, case-insensitively; the error lists every name.
    fn from_str(s: &str) -> Result<SetName> {
        SetName::ALL.into_iter().find(|n| n.name().eq_ignore_ascii_case(s)).ok_or_else(|| {
            let allowed = SetName::ALL.map(SetName::name).join(", ");
            Error::UnknownName { what: "set", given: s.to_string(), allowed }
        })
    }
}

impl Serialize for SetName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for SetName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<SetName, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of legal positions with their outcomes and depths to conversion.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    pub name: String,
    pub positions: Vec<KpkPosition>,
    pub outcomes: Vec<Outcome>,
    /// DTC in plies of each win, `None` for draws.
    pub dtc: Vec<Option<u8>>,
}

/// Which positions to keep; `None` keeps all. Every condition must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub side: Option<Color>,
    /// Pawn file 1..=4 (a..d, Table 4's x5, canonical orientation).
    pub pawn_file: Option<u8>,
    /// Pawn rank 2..=7 (Table 4's x6).
    pub pawn_rank: Option<u8>,
    pub outcome: Option<Outcome>,
    /// Keep wins converted in at most this many plies: with `side` White, the paper's closed set
    /// Cp (section 2). Draws have no DTC, so this keeps wins only.
    pub max_dtc: Option<u8>,
}

impl Filter {
    /// Check the values are ones a legal position can have.
    pub fn validate(&self) -> Result<()> {
        if let Some(f) = self.pawn_file
            && !(1..=4).contains(&f)
        {
            return Err(Error::Argument(format!(
                "pawn file {f} out of range: the pawn is on files 1-4 (a-d) in canonical orientation"
            )));
        }
        if let Some(r) = self.pawn_rank
            && !(2..=7).contains(&r)
        {
            return Err(Error::Argument(format!("pawn rank {r} out of range: a pawn stands on ranks 2-7")));
        }
        Ok(())
    }

    /// Does a position with this outcome and DTC pass?
    pub fn accepts(&self, p: &KpkPosition, outcome: Outcome, dtc: Option<u8>) -> bool {
        self.side.is_none_or(|s| p.side() == s)
            && self.pawn_file.is_none_or(|f| p.wp().file() + 1 == f)
            && self.pawn_rank.is_none_or(|r| p.wp().rank() + 1 == r)
            && self.outcome.is_none_or(|o| outcome == o)
            && self.max_dtc.is_none_or(|m| dtc.is_some_and(|d| d <= m))
    }

    /// True when the filter keeps everything.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }
}

/// `side=w,file=a,rank=2,result=win,dtc<=9`, the conditions that are set.
impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(s) = self.side {
            parts.push(format!("side={}", s.fen_char()));
        }
        if let Some(file) = self.pawn_file {
            parts.push(format!("file={}", char::from(b'a' + file.saturating_sub(1))));
        }
        if let Some(r) = self.pawn_rank {
            parts.push(format!("rank={r}"));
        }
        if let Some(o) = self.outcome {
            parts.push(format!("result={o}"));
        }
        if let Some(m) = self.max_dtc {
            parts.push(format!("dtc<={m}"));
        }
        f.write_str(&parts.join(","))
    }
}

impl Dataset {
    /// A dataset of the given positions, labelled from the bitbase.
    pub fn from_positions(name: impl Into<String>, positions: Vec<KpkPosition>, bb: &Bitbase) -> Dataset {
        let outcomes = positions.iter().map(|p| bb.outcome(p)).collect();
        let dtc = positions.iter().map(|p| bb.dtc(p).map(|d| d.0)).collect();
        Dataset { name: name.into(), positions, outcomes, dtc }
    }

    /// Every legal position passing `filter`, in index order.
    pub fn select(name: impl Into<String>, filter: &Filter, bb: &Bitbase) -> Result<Dataset> {
        filter.validate()?;
        let positions =
            KpkPosition::all().filter(|p| filter.accepts(p, bb.outcome(p), bb.dtc(p).map(|d| d.0))).collect();
        Ok(Dataset::from_positions(name, positions, bb))
    }

    /// One of the named sets by name (case-insensitive): [`Dataset::of`] after [`SetName`]'s
    /// parse.
    pub fn named(name: &str, seed: u64, bb: &Bitbase) -> Result<Dataset> {
        Ok(Dataset::of(name.parse()?, seed, bb))
    }

    /// A named set's positions; `seed` matters only for the drawn sets T1, S1, T2, S2.
    pub fn of(set: SetName, seed: u64, bb: &Bitbase) -> Dataset {
        Dataset::of_draw(set, seed, 0.0, bb)
    }

    /// A named set's positions, the drawn sets with a share `borderline` (in [0, 1]) of their
    /// positions taken from the side's [critical](borderline::is_critical) ones (see [`draw_borderline`]);
    /// 0 is [`Dataset::of`]'s random draw. The whole sets ignore both `seed` and `borderline`.
    pub fn of_draw(set: SetName, seed: u64, borderline: f64, bb: &Bitbase) -> Dataset {
        match set.selection() {
            Selection::Drawn { side, second } => {
                let n = SMALL_SET_SIZE[usize::from(side == Color::Black)];
                let pool: Vec<KpkPosition> = KpkPosition::all().filter(|p| p.side() == side).collect();
                let drawn = if borderline > 0.0 {
                    draw_borderline(pool, n, borderline, seed, bb)
                } else {
                    draw(pool, 2 * n, seed)
                };
                let half = if second { drawn[n..].to_vec() } else { drawn[..n].to_vec() };
                Dataset::from_positions(set.name(), half, bb)
            }
            Selection::Filtered(filter) => {
                Dataset::select(set.name(), &filter, bb).expect("a named set's filter is valid")
            }
        }
    }

    /// The positions passing `filter`, named `name[filter]`.
    pub fn filter(&self, filter: &Filter) -> Result<Dataset> {
        filter.validate()?;
        let mut out = Dataset {
            name: if filter.is_empty() { self.name.clone() } else { format!("{}[{filter}]", self.name) },
            positions: Vec::new(),
            outcomes: Vec::new(),
            dtc: Vec::new(),
        };
        for ((p, &o), &d) in self.positions.iter().zip(&self.outcomes).zip(&self.dtc) {
            if filter.accepts(p, o, d) {
                out.positions.push(*p);
                out.outcomes.push(o);
                out.dtc.push(d);
            }
        }
        Ok(out)
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// `true` where the pawn side wins: the training target.
    pub fn wins(&self) -> Vec<bool> {
        self.outcomes.iter().map(|&o| o == Outcome::Win).collect()
    }

    /// The characteristics x1..x32 of every position.
    pub fn features(&self) -> Vec<[i8; N_FEATURES]> {
        self.positions.iter().map(features).collect()
    }

    /// The network inputs, one row per position, `coding.width()` columns.
    pub fn inputs(&self, coding: InputCoding) -> Array2<f64> {
        let width = coding.width();
        let mut data = vec![0.0; self.len() * width];
        for (row, p) in data.chunks_exact_mut(width).zip(&self.positions) {
            coding.encode(&features(p), row);
        }
        Array2::from_shape_vec((self.len(), width), data).expect("rows × width values")
    }

    /// Write one row per position: `side,wk,bk,wp` (as the bitbase CSV: `w`/`b`, squares in
    /// canonical orientation), `x1`…`x32`, `result` (`win`/`draw`), `dtc` (empty for draws).
    /// Written by the output policy of [`crate::output`] (a checked destination).
    pub fn write_csv(&self, out: &FileOut) -> Result<()> {
        out.write_with(|w| {
            let mut csv = csv::Writer::from_writer(w);
            let mut header: Vec<String> = ["side", "wk", "bk", "wp"].map(String::from).to_vec();
            header.extend(FEATURES.iter().map(|f| format!("x{}", f.x)));
            header.extend(["result", "dtc"].map(String::from));
            csv.write_record(&header)?;
            let mut record = Vec::with_capacity(header.len());
            for ((p, o), d) in self.positions.iter().zip(&self.outcomes).zip(&self.dtc) {
                record.clear();
                record.push(p.side().fen_char().to_string());
                record.extend([p.wk(), p.bk(), p.wp()].map(|s| s.to_string()));
                record.extend(features(p).iter().map(|v| v.to_string()));
                record.push(o.to_string());
                record.push(d.map(|d| d.to_string()).unwrap_or_default());
                csv.write_record(&record)?;
            }
            csv.flush()
        })
    }

    /// [`Dataset::write_csv`] to a path.
    pub fn to_csv(&self, path: &Path) -> Result<()> {
        self.write_csv(&FileOut::check(path)?)
    }
}

/// The first `k` of `pool` after a partial Fisher–Yates shuffle seeded with `seed`.
fn draw(pool: Vec<KpkPosition>, k: usize, seed: u64) -> Vec<KpkPosition> {
    draw_with(&mut ChaCha8Rng::seed_from_u64(seed), pool, k)
}

/// The first `k` of `pool` after a partial Fisher–Yates shuffle drawing from `rng`.
fn draw_with(rng: &mut ChaCha8Rng, mut pool: Vec<KpkPosition>, k: usize) -> Vec<KpkPosition> {
    let k = k.min(pool.len());
    for i in 0..k {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

#[cfg(test)]
mod tests;
