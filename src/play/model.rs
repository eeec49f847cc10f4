//! The play model file: the exact win/draw hybrid plus a move proposer and the exception table of
//! the positions where the proposer's move is not DTC-optimal, so that the file alone plays
//! perfectly (the hybrid idea of section 5.1 applied to moves).
//!
//! The file's layout, both versions, and what a reader must refuse are specified in
//! docs/MODEL_FORMATS.md ("The play model"). kpk writes version 2 and reads versions 1 and 2.
//!
//! A move exception is a position with the pawn side to move where the proposer's first winning
//! move is not DTC-optimal; its ordinal is the place of the first optimal move in the proposer's
//! ranking of the winning moves ([`PlayModel::ranked_wins`]), counted from 0 at the top-ranked
//! move, so at least 1.
//!
//! A version-2 file names each exception by its place among the *choice positions*: the positions
//! with the pawn side to move that the embedded model calls won, with no winning promotion and at
//! least two winning moves, in index order ([`PlayModel::choices`]). Only there can the proposer's
//! first winning move fail to be optimal, and the reader finds them from the model itself. Where
//! such a position has two winning moves the ordinal is 1 and is not stored.

use super::propose::{N_FEATURES, N_REGIMES, Proposer, V1_FEATURES};
use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::{After, KpkPosition, Move};
use crate::error::{Error, Result};
use crate::hybrid::Hybrid;
use crate::hybrid::bits::{BitWriter, best_rice};
use crate::hybrid::exceptions::{gaps, write_sorted};
use kpk_probe::bits::BitReader;
use kpk_probe::model::read_sorted;
use kpk_probe::{Color, MAX_INDEX, Outcome};
use rayon::prelude::*;
use std::path::Path;

pub const PLAY_MAGIC: &[u8; 4] = b"KPKP";
/// The version kpk writes; version 1 is still read.
pub const PLAY_VERSION: u8 = 2;
/// Where `kpk compress-play` writes the model and `kpk query --best-move` reads it by default.
pub const DEFAULT_PLAY_MODEL: &str = "models/kpk-play.hybrid";
/// The committed [`DEFAULT_PLAY_MODEL`], compiled into kpk: the play model read when no file is
/// given (`kpk uci`, `kpk play`, `kpk query --best-move`).
pub const DEFAULT_PLAY_MODEL_BYTES: &[u8] = include_bytes!("../../models/kpk-play.hybrid");
const CRC_LEN: usize = 4;
/// Most legal moves of the pawn side: 8 king moves and 2 pawn moves, or 4 promotions.
const MAX_MOVES: usize = 12;

/// Win/draw hybrid + move proposer + move exceptions; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayModel {
    hybrid: Hybrid,
    proposer: Proposer,
    /// Sorted indices of the move exceptions.
    indices: Vec<u32>,
    /// For each exception, the ordinal of the first optimal move in the ranking (0 = the top-ranked
    /// move, so at least 1).
    ordinals: Vec<u8>,
}

/// A pawn-side move as the proposer ranks it: its key (smaller first), its place in move
/// generation, and the position it leads to (`None` for a winning promotion).
#[derive(Clone, Copy)]
struct Candidate {
    key: i32,
    n: usize,
    mv: Move,
    to: Option<KpkPosition>,
}

/// Up to `MAX_MOVES` (the most legal moves a KPK position has) moves, ranked.
pub struct Ranked {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Ranked {
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl PlayModel {
    /// The model of `hybrid` and `proposer` whose exceptions make it play perfectly against `bb`.
    pub fn build(hybrid: Hybrid, proposer: Proposer, bb: &Bitbase) -> PlayModel {
        let mut m = PlayModel { hybrid, proposer, indices: Vec::new(), ordinals: Vec::new() };
        let legal: Vec<KpkPosition> = KpkPosition::all().filter(|p| p.side() == Color::White).collect();
        let mut found: Vec<(u32, u8)> = legal
            .par_iter()
            .filter_map(|p| {
                let d = bb.dtc(p)?.0;
                let ranked = m.ranked_wins(p);
                let first =
                    ranked.as_slice().iter().position(|&mv| super::after(bb, p, mv).1 == Some(d - 1))?;
                (first > 0).then(|| (KpkIndex::of(p).value() as u32, first as u8))
            })
            .collect();
        found.sort_unstable();
        (m.indices, m.ordinals) = found.into_iter().unzip();
        m
    }

    pub fn hybrid(&self) -> &Hybrid {
        &self.hybrid
    }

    pub fn proposer(&self) -> Proposer {
        self.proposer
    }

    /// Number of move exceptions.
    pub fn exception_count(&self) -> usize {
        self.indices.len()
    }

    /// Is `s` won for the pawn side? The hybrid's exact answer.
    #[inline]
    fn wins(&self, s: &KpkPosition) -> bool {
        self.hybrid.classify(s).outcome == Outcome::Win
    }

    /// The pawn side's moves in `p` (White to move) that may win, in the proposer's order, before
    /// asking which of them do: winning promotions first (queen before rook), then the moves to
    /// positions by score, equal keys in move-generation order. Promotions that do not win are
    /// left out.
    fn candidates(&self, p: &KpkPosition) -> ([Candidate; MAX_MOVES], usize) {
        let none =
            Candidate { key: 0, n: 0, mv: Move { from: p.wk(), to: p.wk(), promotion: None }, to: None };
        let mut keyed = [none; MAX_MOVES];
        let mut len = 0;
        let regime = super::propose::regime(p);
        for (n, mv) in p.moves().into_iter().enumerate() {
            keyed[len] = match p.play(mv) {
                After::Promoted { outcome: Outcome::Win, .. } => Candidate { key: i32::MIN, n, mv, to: None },
                After::Position(s) => Candidate { key: self.proposer.score(regime, &s), n, mv, to: Some(s) },
                _ => continue,
            };
            len += 1;
        }
        keyed[..len].sort_unstable_by_key(|c| (c.key, c.n));
        (keyed, len)
    }

    /// Does the candidate move win? A promotion among the candidates does; a move to a position
    /// wins where the hybrid says so.
    fn candidate_wins(&self, c: &Candidate) -> bool {
        c.to.is_none_or(|s| self.wins(&s))
    }

    /// The pawn side's winning moves in `p` (White to move), best first as the proposer sees
    /// them: the order of its candidate moves, kept where the move wins.
    pub fn ranked_wins(&self, p: &KpkPosition) -> Ranked {
        let (keyed, len) = self.candidates(p);
        let mut moves = [keyed[0].mv; MAX_MOVES];
        let mut n = 0;
        for c in keyed[..len].iter().filter(|c| self.candidate_wins(c)) {
            moves[n] = c.mv;
            n += 1;
        }
        Ranked { moves, len: n }
    }

    /// The winning move at place `ordinal` (0 = first) of [`PlayModel::ranked_wins`], asking the
    /// hybrid only about the moves up to it (usually one): the same answer, faster.
    fn nth_win(&self, p: &KpkPosition, ordinal: usize) -> Option<Move> {
        let (keyed, len) = self.candidates(p);
        keyed[..len].iter().filter(|c| self.candidate_wins(c)).nth(ordinal).map(|c| c.mv)
    }

    /// The move the file alone gives (`None` only when the side to move has no legal move):
    /// - the pawn side in a won position: a move that wins in exactly DTC − 1 (a winning
    ///   promotion where DTC is 1);
    /// - the lone king in a drawn position: a move that keeps the draw;
    /// - otherwise the first legal move.
    ///
    /// The hybrid is exact, so in a position it calls won the pawn side has a winning move and the
    /// lone king no drawing one, and in a drawn one the reverse: the position is classified first,
    /// and only the side whose moves matter searches them.
    pub fn best_move(&self, p: &KpkPosition) -> Option<Move> {
        match p.side() {
            Color::White => {
                if self.wins(p) {
                    let at = self.indices.binary_search(&(KpkIndex::of(p).value() as u32));
                    let ordinal = at.map_or(0, |i| usize::from(self.ordinals[i]));
                    return self.nth_win(p, ordinal);
                }
                p.moves().first().copied()
            }
            Color::Black => {
                let moves = p.moves();
                if self.wins(p) {
                    return moves.first().copied();
                }
                let holds = |mv: &&Move| match p.play(**mv) {
                    After::PawnCaptured => true,
                    After::Position(t) => !self.wins(&t),
                    After::Promoted { .. } => false,
                };
                moves.iter().find(holds).or(moves.first()).copied()
            }
        }
    }

    /// The choice positions (see the module documentation) in index order: each one's index and
    /// number of winning moves. They depend on the embedded model alone, not on the proposer.
    pub fn choices(&self) -> Vec<(u32, u8)> {
        let white: Vec<KpkPosition> = KpkPosition::all().filter(|p| p.side() == Color::White).collect();
        let mut found: Vec<(u32, u8)> = white
            .par_iter()
            .filter_map(|p| {
                if !self.wins(p) {
                    return None;
                }
                let (keyed, len) = self.candidates(p);
                if keyed[..len].iter().any(|c| c.to.is_none()) {
                    return None; // a winning promotion: always the top-ranked move, and optimal
                }
                let wins = keyed[..len].iter().filter(|c| self.candidate_wins(c)).count();
                (wins >= 2).then(|| (KpkIndex::of(p).value() as u32, wins as u8))
            })
            .collect();
        found.sort_unstable();
        found
    }

    /// The model file's bytes, format version 2 (docs/MODEL_FORMATS.md, "The play model").
    pub fn to_bytes(&self) -> Vec<u8> {
        let choices = self.choices();
        let place =
            |i: u32| choices.binary_search_by_key(&i, |c| c.0).expect("an exception is a choice position");
        let places: Vec<u32> = self.indices.iter().map(|&i| place(i) as u32).collect();
        // Ordinals minus one, where the position has three or more winning moves.
        let stored: Vec<u64> = (places.iter().zip(&self.ordinals))
            .filter(|&(&at, _)| choices[at as usize].1 > 2)
            .map(|(_, &o)| u64::from(o) - 1)
            .collect();
        let hybrid = self.hybrid.to_bytes();
        let mut bytes = Vec::with_capacity(hybrid.len() + 64);
        bytes.extend_from_slice(PLAY_MAGIC);
        bytes.push(PLAY_VERSION);
        bytes.extend_from_slice(&[0; 4]); // length, filled in below
        bytes.extend_from_slice(&(hybrid.len() as u16).to_le_bytes());
        bytes.extend_from_slice(&hybrid);
        bytes.push((N_REGIMES * N_FEATURES) as u8);
        bytes.extend(self.proposer.weights.iter().flatten().map(|&w| w as u8));
        bytes.extend_from_slice(&(places.len() as u32).to_le_bytes()[..3]);
        let (kg, _) = best_rice(gaps(&places));
        let (ko, _) = best_rice(stored.iter().copied());
        bytes.extend_from_slice(&[kg as u8, ko as u8]);
        let mut w = BitWriter::new();
        write_sorted(&places, &mut w, kg);
        for &o in &stored {
            w.rice(o, ko);
        }
        bytes.extend_from_slice(&w.into_bytes());
        let total = (bytes.len() + CRC_LEN) as u32;
        bytes[5..9].copy_from_slice(&total.to_le_bytes());
        let crc = kpk_probe::bits::crc32(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Load a play model file.
    pub fn load(path: &Path) -> Result<PlayModel> {
        PlayModel::from_bytes(&crate::io::read(path)?, &path.display().to_string())
    }

    /// Parse a play model file of version 1 or 2; `path` only names the file in errors.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<PlayModel> {
        let bad = |message: String| Error::Format { path: path.to_string(), message };
        if bytes.len() < 4 || &bytes[..4] != PLAY_MAGIC {
            return Err(bad(kpk_probe::magic::not_a(PLAY_MAGIC, bytes)));
        }
        if bytes.len() < 11 + CRC_LEN {
            return Err(bad(format!("file is {} bytes: truncated", bytes.len())));
        }
        let version = bytes[4];
        if version != 1 && version != PLAY_VERSION {
            return Err(bad(format!(
                "unsupported play model version {version}, expected 1 or {PLAY_VERSION}"
            )));
        }
        let length = u32::from_le_bytes(bytes[5..9].try_into().expect("4 bytes")) as usize;
        if length != bytes.len() {
            return Err(bad(format!("file is {} bytes but its header says {length}", bytes.len())));
        }
        let body = &bytes[..bytes.len() - CRC_LEN];
        if kpk_probe::bits::crc32(body)
            != u32::from_le_bytes(bytes[body.len()..].try_into().expect("4 bytes"))
        {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let n = usize::from(u16::from_le_bytes([body[9], body[10]]));
        let rest = body.get(11 + n..).ok_or_else(|| bad("the embedded hybrid runs past the end".into()))?;
        let hybrid = Hybrid::from_bytes(&body[11..11 + n], path)?;
        let n_weights = if version == 1 { V1_FEATURES } else { N_REGIMES * N_FEATURES };
        if rest.len() < 1 + n_weights + 5 || usize::from(rest[0]) != n_weights {
            return Err(bad(format!("expected {n_weights} proposer weights")));
        }
        let stored = &rest[1..=n_weights];
        let weights: [[i8; N_FEATURES]; N_REGIMES] = std::array::from_fn(|r| {
            // Version 1: one regime's first eleven weights, for every regime.
            let at = if version == 1 { 0 } else { r * N_FEATURES };
            std::array::from_fn(|j| {
                stored.get(at + j).filter(|_| version > 1 || j < V1_FEATURES).map_or(0, |&b| b as i8)
            })
        });
        let h = &rest[1 + n_weights..];
        let count = u32::from_le_bytes([h[0], h[1], h[2], 0]) as usize;
        let (kg, ko) = (u32::from(h[3]), u32::from(h[4]));
        if kg > 24 || ko > 8 {
            return Err(bad("Rice parameter out of range".into()));
        }
        let model =
            PlayModel { hybrid, proposer: Proposer { weights }, indices: Vec::new(), ordinals: Vec::new() };
        let (indices, ordinals) =
            model.read_exceptions(&mut BitReader::new(&h[5..]), version, count, [kg, ko]).map_err(bad)?;
        Ok(PlayModel { indices, ordinals, ..model })
    }

    /// The exception table of a version-`version` file: `count` exceptions, then their ordinals,
    /// with Rice parameters `k` (gaps, ordinals). Each must be a choice position, each ordinal
    /// smaller than its position's number of winning moves, and the bits must end there.
    fn read_exceptions(
        &self,
        r: &mut BitReader,
        version: u8,
        count: usize,
        [kg, ko]: [u32; 2],
    ) -> std::result::Result<(Vec<u32>, Vec<u8>), String> {
        let bad = |message: String| message;
        let choices = self.choices();
        let universe = if version == 1 { MAX_INDEX } else { choices.len() };
        let sorted = read_sorted(r, count, kg, universe).map_err(|e| bad(format!("exceptions: {e}")))?;
        let places = sorted
            .iter()
            .map(|&e| match version {
                1 => choices.binary_search_by_key(&e, |c| c.0).map_err(|_| {
                    bad(format!("exception at index {e}, where the proposer's first move cannot be wrong"))
                }),
                _ => Ok(e as usize),
            })
            .collect::<std::result::Result<Vec<usize>, String>>()?;
        let mut ordinals = Vec::with_capacity(count);
        for &at in &places {
            let wins = u64::from(choices[at].1);
            let ordinal = match (version, wins) {
                (2, 2) => 1,
                _ => r.rice(ko).map_err(|e| bad(format!("ordinals: {e}")))? + 1,
            };
            if ordinal >= wins {
                return Err(bad(format!(
                    "move ordinal {ordinal} out of range: the position has {wins} winning moves"
                )));
            }
            ordinals.push(ordinal as u8);
        }
        if !r.at_padded_end() {
            return Err(bad("bytes after the exception table".into()));
        }
        Ok((places.iter().map(|&at| choices[at].0).collect(), ordinals))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped tree with the default proposer and no exceptions.
    fn bare() -> PlayModel {
        let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join(crate::hybrid::DEFAULT_MODEL);
        let hybrid = Hybrid::load(&tree).unwrap();
        PlayModel { hybrid, proposer: Proposer::default(), indices: Vec::new(), ordinals: Vec::new() }
    }

    /// `read_exceptions` over the bits that `write` puts down.
    fn read(
        m: &PlayModel,
        version: u8,
        count: usize,
        write: impl Fn(&mut BitWriter),
    ) -> std::result::Result<(), String> {
        let mut w = BitWriter::new();
        write(&mut w);
        let bytes = w.into_bytes();
        m.read_exceptions(&mut BitReader::new(&bytes), version, count, [17, 0]).map(|_| ())
    }

    #[test]
    fn an_exception_must_be_a_choice_position_with_its_ordinal_below_its_winning_moves() {
        let m = bare();
        let choices = m.choices();
        // Version 2: the place of a position with three winning moves, then ordinal 3: refused;
        // ordinal 2 is read.
        let (at, &(_, wins)) = choices.iter().enumerate().find(|c| c.1.1 == 3).unwrap();
        let place = |o: u64| move |w: &mut BitWriter| (w.rice(at as u64, 17), w.rice(o - 1, 0)).1;
        assert_eq!(read(&m, 2, 1, place(u64::from(wins) - 1)), Ok(()));
        assert!(read(&m, 2, 1, place(u64::from(wins))).unwrap_err().contains("out of range"));
        // A place past the last choice position.
        assert!(read(&m, 2, 1, |w| w.rice(choices.len() as u64, 17)).is_err());
        // Version 1 names positions by index: one that is not a choice position is refused.
        let not = (0..).find(|i| choices.binary_search_by_key(i, |c| c.0).is_err()).unwrap();
        assert!(
            read(&m, 1, 1, |w| (w.rice(u64::from(not), 17), w.rice(0, 0)).1)
                .unwrap_err()
                .contains("cannot be wrong")
        );
        // Where a position has two winning moves a version-2 file stores no ordinal.
        let (two, _) = choices.iter().enumerate().find(|c| c.1.1 == 2).unwrap();
        assert_eq!(read(&m, 2, 1, |w| w.rice(two as u64, 17)), Ok(()));
    }
}
