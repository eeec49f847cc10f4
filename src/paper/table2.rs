//! The paper's Table 2 (section 2): the counts of KPK positions each source gives, the sets of
//! Table 1's positions each source's count includes or not, and what the paper's text says of the
//! sources, as transcribed in `data/paper/table2_*.csv`.
//!
//! A row of Table 2 is named in the CSV as printed (`btm wins pct`); the name is parsed once, on
//! loading, into a [`RowKey`] (side to move and figure), and an unknown name is an error.

use super::tables::{EMBEDDED, parse, parse_side, side_name};
use crate::error::{Error, Result};
use kpk_probe::Color;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::str::FromStr;

const TABLE2_PATH: &str = "data/paper/table2_counts.csv";
const TABLE2_CSV: &str = include_str!("../../data/paper/table2_counts.csv");
const TABLE2_SETS_CSV: &str = include_str!("../../data/paper/table2_position_sets.csv");
const TABLE2_REMARKS_CSV: &str = include_str!("../../data/paper/table2_remarks.csv");

/// What a row of Table 2 gives for one side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    /// The positions counted.
    Positions,
    /// The won positions among them.
    Wins,
    /// The wins as a % of the positions, to one decimal.
    WinsPct,
    /// The drawn positions among them.
    Draws,
    /// The wins won by simply running the pawn (Shapiro & Niblett's figure).
    WinsByRunningThePawn,
}

impl Figure {
    pub const ALL: [Figure; 5] =
        [Figure::Positions, Figure::Wins, Figure::WinsPct, Figure::Draws, Figure::WinsByRunningThePawn];

    /// The figure as Table 2's rows name it, after the side to move.
    pub fn name(self) -> &'static str {
        match self {
            Figure::Positions => "positions",
            Figure::Wins => "wins",
            Figure::WinsPct => "wins pct",
            Figure::Draws => "draws",
            Figure::WinsByRunningThePawn => "wins won by simply running the pawn",
        }
    }

    /// Whether the figure is a percentage (its differences are in points), not a count.
    pub fn is_pct(self) -> bool {
        self == Figure::WinsPct
    }
}

/// A row of Table 2: which figure, for which side to move. Written (and serialised) as the paper's
/// CSV names it, `wtm wins` or `btm wins pct`; read only from those names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct RowKey {
    pub side: Color,
    pub figure: Figure,
}

impl RowKey {
    pub const fn new(side: Color, figure: Figure) -> RowKey {
        RowKey { side, figure }
    }

    /// Every row Table 2 can name: each figure for each side to move.
    pub fn all() -> impl Iterator<Item = RowKey> {
        [Color::White, Color::Black].into_iter().flat_map(|s| Figure::ALL.map(|f| RowKey::new(s, f)))
    }
}

impl fmt::Display for RowKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", side_name(self.side), self.figure.name())
    }
}

impl FromStr for RowKey {
    type Err = Error;

    fn from_str(s: &str) -> Result<RowKey> {
        RowKey::all().find(|k| k.to_string() == s).ok_or_else(|| Error::UnknownName {
            what: "row of Table 2",
            given: s.to_string(),
            allowed: RowKey::all().map(|k| k.to_string()).collect::<Vec<_>>().join(", "),
        })
    }
}

impl From<RowKey> for String {
    fn from(k: RowKey) -> String {
        k.to_string()
    }
}

impl TryFrom<String> for RowKey {
    type Error = Error;

    fn try_from(s: String) -> Result<RowKey> {
        s.parse()
    }
}

/// One row of Table 2 as printed: its key, the paper's parenthetical note on it (the rest of its
/// name in the CSV, `(Shapiro & Niblett: 75.7% of btm wins)`), and one cell per source.
#[derive(Clone, Debug, PartialEq)]
pub struct Table2Row {
    pub key: RowKey,
    pub note: Option<String>,
    pub cells: Vec<Option<f64>>,
}

impl Table2Row {
    /// The row's name as the paper's CSV writes it: the key, then the note in brackets.
    pub fn label(&self) -> String {
        match &self.note {
            Some(note) => format!("{} ({note})", self.key),
            None => self.key.to_string(),
        }
    }
}

/// Table 2 as printed: the counts each source gives, `None` where it gives none.
#[derive(Clone, Debug, PartialEq)]
pub struct Table2 {
    /// The sources, e.g. `clarke_1977`, in the paper's column order.
    pub sources: Vec<String>,
    /// One row per figure (e.g. `wtm wins`), in the paper's order.
    pub rows: Vec<Table2Row>,
}

/// A row's name split into its key and its note: `btm wins (a note)` is `btm wins` noted.
fn parse_row_name(name: &str) -> Result<(RowKey, Option<String>)> {
    match name.strip_suffix(')').and_then(|n| n.split_once(" (")) {
        Some((key, note)) => Ok((key.parse()?, Some(note.to_string()))),
        None => Ok((name.parse()?, None)),
    }
}

/// Table 2 from the text of its CSV (a `row` column, then one column per source); an unknown
/// row name or a malformed record is an error naming `path`.
pub fn parse_table2(csv_text: &str, path: &str) -> Result<Table2> {
    let format = |e: &dyn fmt::Display| Error::Format { path: path.to_string(), message: e.to_string() };
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let sources = reader.headers().map_err(|e| format(&e))?.iter().skip(1).map(str::to_string).collect();
    let rows = reader
        .records()
        .map(|r| {
            let r = r.map_err(|e| format(&e))?;
            let (key, note) = parse_row_name(r.get(0).unwrap_or_default()).map_err(|e| format(&e))?;
            let cells = r.iter().skip(1).map(|c| c.parse::<f64>().ok()).collect();
            Ok(Table2Row { key, note, cells })
        })
        .collect::<Result<_>>()?;
    Ok(Table2 { sources, rows })
}

/// Table 2, the counts of KPK positions by source.
pub fn table2() -> Table2 {
    parse_table2(TABLE2_CSV, TABLE2_PATH).expect(EMBEDDED)
}

/// One of Table 1's sets of positions that Table 2's sources count differently (section 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "&'static str")]
pub enum Table1Set {
    /// 6a-e: wtm positions not reachable from the initial array.
    Set6aToE,
    /// 7a: btm positions after the pawn's promotion, not in KPK.
    Set7a,
    /// 7b-c: btm positions not reachable from the initial array.
    Set7bToC,
}

impl Table1Set {
    pub const ALL: [Table1Set; 3] = [Table1Set::Set6aToE, Table1Set::Set7a, Table1Set::Set7bToC];

    /// The set as Table 1 names it.
    pub fn name(self) -> &'static str {
        match self {
            Table1Set::Set6aToE => "6a-e",
            Table1Set::Set7a => "7a",
            Table1Set::Set7bToC => "7b-c",
        }
    }
}

impl From<Table1Set> for &'static str {
    fn from(s: Table1Set) -> &'static str {
        s.name()
    }
}

impl fmt::Display for Table1Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Table1Set {
    type Err = Error;

    fn from_str(s: &str) -> Result<Table1Set> {
        Table1Set::ALL.into_iter().find(|t| t.name() == s).ok_or_else(|| Error::UnknownName {
            what: "set of Table 1",
            given: s.to_string(),
            allowed: Table1Set::ALL.map(Table1Set::name).join(", "),
        })
    }
}

/// One of Table 2's "Pos. set" rows: a set of Table 1's illegal or unreachable positions, its
/// counts, and whether each source's count includes it.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionSet {
    pub set: Table1Set,
    pub side: Color,
    pub positions: f64,
    pub wins: f64,
    pub draws: f64,
    /// Table 1's note on the set.
    pub note: String,
    /// Per source of [`Table2::sources`], in that order: whether its count includes the set,
    /// `None` where the paper gives no mark.
    pub included: Vec<Option<bool>>,
}

impl PositionSet {
    /// The set's figure for a row of Table 2: its positions, wins or draws for its own side's
    /// rows, zero for the other side's rows and for rows that are not these counts.
    pub fn count(&self, row: RowKey) -> f64 {
        if row.side != self.side {
            return 0.0;
        }
        match row.figure {
            Figure::Positions => self.positions,
            Figure::Wins => self.wins,
            Figure::Draws => self.draws,
            Figure::WinsPct | Figure::WinsByRunningThePawn => 0.0,
        }
    }
}

/// Table 2's position sets, their marks ordered as `sources`.
pub fn table2_sets(sources: &[String]) -> Vec<PositionSet> {
    let mut reader = csv::Reader::from_reader(TABLE2_SETS_CSV.as_bytes());
    let headers = reader.headers().expect(EMBEDDED).clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    reader
        .records()
        .map(|r| {
            let r = r.expect(EMBEDDED);
            let field = |name: &str| column(name).map_or("", |i| &r[i]).to_string();
            let number = |name: &str| field(name).parse::<f64>().expect(EMBEDDED);
            let included = sources
                .iter()
                .map(|s| match field(s).as_str() {
                    "included" => Some(true),
                    "not included" => Some(false),
                    _ => None,
                })
                .collect();
            PositionSet {
                set: field("set").parse().expect(EMBEDDED),
                side: parse_side(&field("side")).expect(EMBEDDED),
                positions: number("positions"),
                wins: number("wins"),
                draws: number("draws"),
                note: field("table1_note"),
                included,
            }
        })
        .collect()
}

/// What the paper's text says of one source's Table 2 figures.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Table2Remark {
    pub source: String,
    /// The rows of Table 2 it concerns (written separated by `;`).
    #[serde(deserialize_with = "row_keys")]
    pub rows: Vec<RowKey>,
    pub quote: String,
    /// The paper's section.
    pub section: String,
    /// Whether the quote gives a reason for the difference, or only notes it.
    pub reason_stated: bool,
}

/// Rows of Table 2 separated by `;`.
fn row_keys<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<RowKey>, D::Error> {
    let text = String::deserialize(d)?;
    text.split(';').map(|r| r.parse().map_err(serde::de::Error::custom)).collect()
}

/// The paper's remarks on Table 2's sources.
pub fn table2_remarks() -> Vec<Table2Remark> {
    parse(TABLE2_REMARKS_CSV, "data/paper/table2_remarks.csv").expect(EMBEDDED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_name_of_the_csv_parses_and_prints_back_as_written() {
        let mut reader = csv::Reader::from_reader(TABLE2_CSV.as_bytes());
        let names: Vec<String> = reader.records().map(|r| r.unwrap()[0].to_string()).collect();
        let t2 = table2();
        assert_eq!(t2.rows.iter().map(Table2Row::label).collect::<Vec<_>>(), names);
        let (w, b) = (Color::White, Color::Black);
        let keys: Vec<RowKey> = t2.rows.iter().map(|r| r.key).collect();
        let wtm = [Figure::Positions, Figure::Wins, Figure::Draws].map(|f| RowKey::new(w, f));
        let btm =
            [Figure::Positions, Figure::Wins, Figure::WinsPct, Figure::Draws, Figure::WinsByRunningThePawn];
        assert_eq!(keys, [&wtm[..], &btm.map(|f| RowKey::new(b, f))[..]].concat());
        // One row carries a note: Shapiro & Niblett's share of btm wins won by running the pawn.
        let noted: Vec<usize> = (0..t2.rows.len()).filter(|&i| t2.rows[i].note.is_some()).collect();
        assert_eq!(noted, [7]);
        assert_eq!(t2.sources.len(), 7);
        assert!(t2.rows.iter().all(|r| r.cells.len() == 7));
        // Every key prints as it parses, and serialises as its name.
        for k in RowKey::all() {
            assert_eq!(k.to_string().parse::<RowKey>().unwrap(), k);
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
        let sets: Vec<Table1Set> = table2_sets(&t2.sources).iter().map(|s| s.set).collect();
        assert_eq!(sets, Table1Set::ALL);
        let remarked: Vec<Vec<RowKey>> = table2_remarks().into_iter().map(|r| r.rows).collect();
        assert_eq!(remarked.iter().map(Vec::len).collect::<Vec<_>>(), [2, 6]);
    }

    #[test]
    fn an_unknown_row_name_is_a_clear_error() {
        for bad in ["btm wins percent", "wtm", "white wins", "Wtm wins", "btm wins (no close", ""] {
            let csv = format!("row,a\n{bad},1\n");
            let err = parse_table2(&csv, "t2.csv").unwrap_err().to_string();
            assert!(err.starts_with("t2.csv: unknown row of"), "{err}");
            assert!(err.contains("; allowed: wtm positions,"), "{err}");
        }
        // A remark on a row Table 2 does not have.
        let csv = "source,rows,quote,section,reason_stated\nx,btm wins;btm won,q,2,false\n";
        let err = parse::<Table2Remark>(csv, "r.csv").unwrap_err().to_string();
        assert!(err.starts_with("r.csv: ") && err.contains("'btm won'"), "{err}");
        assert!("7d".parse::<Table1Set>().is_err() && parse_side("white").is_err());
        assert_eq!(serde_json::to_string(&Table1Set::Set7bToC).unwrap(), "\"7b-c\"");
    }
}
