//! The DTZ model file (`models/kpk-dtz.hybrid`): Syzygy's depth to zeroing for every legal KPK
//! position from an embedded win/draw model, a value tree over Table 4's characteristics and a
//! table of corrections. The kpk crate's `src/hybrid/format.md` ("The DTZ model") specifies it.
//!
//! DTZ is answered by three rules and one learned part:
//!
//! * a draw (the embedded model's answer) is 0;
//! * the pawn side to move in a won position with a **winning pawn move** (a push to a won
//!   position, or a promotion to a queen or rook that wins at once) is 1;
//! * the other won positions with the pawn side to move, the **hard positions**, read the value
//!   tree, `2 · leaf + 3`, corrected where the correction table names them;
//! * the lone king to move in a lost position is `−(1 + the greatest DTZ among its moves)`, one
//!   ply over the answers above (as Syzygy's prober searches one ply for the side its table
//!   leaves out).
//!
//! Loading computes |DTZ| for every index once (a byte each, 192 KB), so a query is a lookup.

use crate::bits::{BitError, BitReader, unzigzag};
use crate::fen::FenError;
use crate::model::{FormatError, Model, has_bit, open_envelope, read_sorted};
use crate::position::{MAX_INDEX, Position};
use crate::square::{Color, Square};
use crate::table4::{N_FEATURES, characteristics};
use crate::tree::{RANGES, X_BITS};
use crate::value_tree::{self, FeatureSet};
use alloc::vec::Vec;

pub const DTZ_MAGIC: &[u8; 4] = b"KPKZ";
pub const DTZ_VERSION: u8 = 1;
/// Magic, version, length, embedded model length.
const HEADER_LEN: usize = 4 + 1 + 4 + 2;
/// Leaf bits, correction count (3), two Rice parameters.
const FIELDS_LEN: usize = 1 + 3 + 2;
const CRC_LEN: usize = 4;
/// The largest leaf width a file may use; the largest |DTZ| it may give.
pub const MAX_LEAF_BITS: u32 = 6;
pub const MAX_DTZ: u32 = 127;

/// Table 4's characteristics as the value tree reads them: a split names a column (0-based) in
/// [`X_BITS`] bits and a threshold relative to the column's least value `lo` ([`RANGES`]), in
/// [`crate::tree::threshold_bits`] bits, as format version 3's win/draw tree does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Characteristics;

impl FeatureSet for Characteristics {
    type Values = [i8; N_FEATURES];
    const INDEX_BITS: u32 = X_BITS;
    const NO_THRESHOLD: &'static str = "a split reads a characteristic of one value";
    const THRESHOLD_OUT_OF_RANGE: &'static str = "a split's threshold is out of its characteristic's range";

    fn thresholds(x: usize) -> u64 {
        RANGES.get(x).map_or(0, |&(lo, hi)| (hi - lo) as u64)
    }

    fn level(values: &[i8; N_FEATURES], x: usize) -> i16 {
        i16::from(values[x]) - i16::from(RANGES[x].0)
    }
}

/// A binary tree over Table 4's characteristics whose leaves hold `(DTZ − 3) / 2`.
pub type ValueTree = value_tree::ValueTree<Characteristics>;

/// A correction: the hard position at `place` (0-based, index order) has leaf value plus `delta`.
pub type Correction = value_tree::Correction;

/// A loaded DTZ model: immutable, so it may answer from many threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DtzModel {
    wdl: Model,
    embedded: Vec<u8>,
    tree: ValueTree,
    corrections: Vec<Correction>,
    /// |DTZ| per index (0: draw or illegal).
    depth: Vec<u8>,
}

/// Does the pawn side to move in `p` have a pawn move that keeps the win, by `wins` (the answers
/// for the lone king to move)? A promotion to a queen or a rook that wins at once counts.
pub fn winning_pawn_move(p: &Position, wins: impl Fn(&Position) -> bool) -> bool {
    let (wk, bk, wp) = p.squares();
    let Some(one) = wp.offset(0, 1) else { return false };
    if one == wk || one == bk {
        return false;
    }
    if one.rank() == 7 {
        return promotion_wins(wk, bk, one, false) || promotion_wins(wk, bk, one, true);
    }
    let step = |to: Square| Position::new(wk, bk, to, Color::Black).is_ok_and(|q| wins(&q));
    step(one) || (wp.rank() == 1 && one.offset(0, 1).is_some_and(|two| two != wk && two != bk && step(two)))
}

/// Does a promotion on `q` win at once, the lone king then to move? It does unless the lone king
/// can take the new piece (next to it and not guarded) or is stalemated. `diagonal`: a queen.
#[must_use]
pub fn promotion_wins(wk: Square, bk: Square, q: Square, diagonal: bool) -> bool {
    if bk.distance(q) == 1 && wk.distance(q) != 1 {
        return false;
    }
    let mut attacked = 0u64;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        if !diagonal && df != 0 && dr != 0 {
            continue;
        }
        let mut s = q;
        while let Some(n) = s.offset(df, dr) {
            attacked |= n.bit();
            if n == wk {
                break;
            }
            s = n;
        }
    }
    if attacked & bk.bit() != 0 {
        return true; // check: KQK and KRK are won
    }
    let steps = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    steps
        .iter()
        .any(|&(df, dr)| bk.offset(df, dr).is_some_and(|s| s.distance(wk) > 1 && attacked & s.bit() == 0))
}

/// Calls `f` with every position with the pawn side to move that `wins` (a bit per index, see
/// [`Model::wins`]) calls won, in index order, and whether it has a winning pawn move.
fn won_pawn_side(wins: &[u64], mut f: impl FnMut(Position, bool)) {
    Position::each(Color::White, |p| {
        if has_bit(wins, p.index()) {
            f(p, winning_pawn_move(&p, |q| has_bit(wins, q.index())));
        }
    });
}

/// The hard positions of a win/draw model: the positions with the pawn side to move that it calls
/// won and that have no winning pawn move, by index.
#[must_use]
pub fn hard_positions(wdl: &Model) -> Vec<u32> {
    let mut hard = Vec::new();
    won_pawn_side(&wdl.wins(), |p, pawn_move| {
        if !pawn_move {
            hard.push(p.index());
        }
    });
    hard
}

impl DtzModel {
    /// Put a model together and answer every position once: the win/draw answers are read once
    /// (a bit set), the pawn side's won positions walked once, then the lone king's.
    pub fn new(
        embedded: &[u8],
        tree: ValueTree,
        corrections: Vec<Correction>,
    ) -> Result<DtzModel, FormatError> {
        let wdl = Model::from_bytes(embedded)?;
        let wins = wdl.wins();
        let mut depth = alloc::vec![0u8; MAX_INDEX];
        let mut hard = Vec::new();
        won_pawn_side(&wins, |p, pawn_move| {
            if pawn_move {
                depth[p.index() as usize] = 1;
            } else {
                hard.push(p);
            }
        });
        let mut next = corrections.iter().peekable();
        for (place, p) in hard.iter().enumerate() {
            let mut v = i32::from(tree.value(&characteristics(p.coordinates(), true)));
            if let Some(c) = next.next_if(|c| c.place as usize == place) {
                v += i32::from(c.delta);
            }
            if v < 0 || 2 * v + 3 > MAX_DTZ as i32 {
                return Err(FormatError::Invalid("a hard position's DTZ is out of range"));
            }
            depth[p.index() as usize] = (2 * v + 3) as u8;
        }
        if next.next().is_some() {
            return Err(FormatError::Invalid("a correction names no hard position"));
        }
        // The lone king's DTZ is one more than its longest reply's, and must stay within the
        // format's limit too: a file whose hard positions hold 127 would give 128 here.
        let mut too_deep = false;
        Position::each(Color::Black, |p| {
            if has_bit(&wins, p.index()) {
                let mut longest = 0u8;
                p.lone_king_replies(|q| longest = longest.max(depth[q.index() as usize]));
                let d = longest.saturating_add(1);
                too_deep |= u32::from(d) > MAX_DTZ;
                depth[p.index() as usize] = d;
            }
        });
        drop(wins);
        if too_deep {
            return Err(FormatError::Invalid("a lone king's DTZ is out of range"));
        }
        Ok(DtzModel { wdl, embedded: embedded.to_vec(), tree, corrections, depth })
    }

    /// Decode a DTZ model file (format: `src/hybrid/format.md`, "The DTZ model").
    pub fn from_bytes(bytes: &[u8]) -> Result<DtzModel, FormatError> {
        let exact = |v| if v == DTZ_VERSION { Ok(()) } else { Err(FormatError::Version(v)) };
        let (body, ()) = open_envelope(bytes, DTZ_MAGIC, HEADER_LEN + CRC_LEN, exact)?;
        let n = usize::from(u16::from_le_bytes([body[9], body[10]]));
        let embedded = body.get(HEADER_LEN..HEADER_LEN + n).ok_or(FormatError::Truncated)?;
        let at = HEADER_LEN + n;
        let f = body.get(at..at + FIELDS_LEN).ok_or(FormatError::Truncated)?;
        let leaf_bits = u32::from(f[0]);
        let count = u32::from_le_bytes([f[1], f[2], f[3], 0]) as usize;
        let (kg, kd) = (u32::from(f[4]), u32::from(f[5]));
        if leaf_bits > MAX_LEAF_BITS || kg > crate::model::MAX_RICE || kd > crate::model::MAX_RICE {
            return Err(FormatError::Invalid("the leaf width or a Rice parameter is out of range"));
        }
        let mut r = BitReader::new(&body[at + FIELDS_LEN..]);
        let tree = ValueTree::read(&mut r, leaf_bits)?;
        let places = read_sorted(&mut r, count, kg, MAX_INDEX / 2)?;
        let mut corrections = Vec::with_capacity(count);
        for place in places {
            // A correction is never 0: the stored value is its zig-zag code less one.
            let delta = unzigzag(r.rice(kd)?.checked_add(1).ok_or(BitError::TooLarge)?);
            let delta = i8::try_from(delta).map_err(|_| FormatError::Stream(BitError::TooLarge))?;
            corrections.push(Correction { place, delta });
        }
        if !r.at_padded_end() {
            return Err(FormatError::Invalid("the bit stream does not end where the file does"));
        }
        DtzModel::new(embedded, tree, corrections)
    }

    /// The embedded win/draw model.
    #[must_use]
    pub fn wdl(&self) -> &Model {
        &self.wdl
    }

    /// The embedded win/draw model's file bytes.
    #[must_use]
    pub fn embedded(&self) -> &[u8] {
        &self.embedded
    }

    #[must_use]
    pub fn tree(&self) -> &ValueTree {
        &self.tree
    }

    #[must_use]
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// Syzygy's DTZ for `p`: plies to the next zeroing move, positive when the side to move wins,
    /// negative when it loses, 0 in a draw.
    #[inline]
    #[must_use]
    pub fn dtz(&self, p: &Position) -> i8 {
        // Every depth is at most MAX_DTZ = 127 (checked by `new`), so both conversions are exact.
        let d = i8::try_from(self.depth[p.index() as usize]).unwrap_or(i8::MAX);
        if p.white_to_move() { d } else { d.saturating_neg() }
    }

    /// DTZ of a position in FEN (the side to move's point of view, so any orientation agrees).
    pub fn dtz_fen(&self, fen: &str) -> Result<i8, FenError> {
        Ok(self.dtz(&Position::from_fen(fen)?))
    }
}
