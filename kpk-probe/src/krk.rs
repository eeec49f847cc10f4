//! The KRK model file (`models/krk.hybrid`): the distance to mate (DTM) of every legal KRK
//! position from a value tree over a few features of the position and the corrections where the
//! tree is wrong (the hybrid idea of Haworth & Velliste's section 5.1 applied to a depth). The
//! kpk crate's `docs/MODEL_FORMATS.md` ("The KRK model") specifies it.
//!
//! The file answers the positions with White (the rook's side) to move, one per class of the
//! board's eight symmetries; every other position is turned into one of those, and a position
//! with Black to move is answered one ply ahead, from its king moves:
//!
//! * Black can take the rook (next to the black king, not next to the white king): a draw;
//! * Black has no move: checkmated when in check (DTM 0), else stalemated (a draw);
//! * some move reaches a drawn position: a draw;
//! * else Black is mated in `1 + max` plies over its moves of White's DTM.
//!
//! Loading answers every stored position once (a byte each, 40 KB), so a query with White to
//! move is a lookup and one with Black to move at most eight.

use crate::bits::{BitReader, unzigzag};
use crate::model::{FormatError, open_envelope, read_sorted};
use crate::square::Square;
use crate::value_tree::{self, FeatureSet};
use alloc::vec;
use alloc::vec::Vec;

pub const KRK_MAGIC: &[u8; 4] = b"KRKD";
pub const KRK_VERSION: u8 = 1;
/// Magic, version, length; leaf bits, correction count (3), two Rice parameters; checksum.
const FIXED_LEN: usize = 4 + 1 + 4 + 1 + 3 + 2 + 4;
const HEADER_LEN: usize = 4 + 1 + 4;
/// The largest leaf width (bits) a file may use, and so the largest value a position may hold.
pub const MAX_LEAF_BITS: u32 = 6;
/// Bits of a split's feature number.
pub const FEATURE_BITS: u32 = 5;

/// The white king's squares of the stored positions: the triangle a1-d1-d4, in square order.
pub const TRIANGLE: [u8; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// The features a split may read, by number, and the greatest value of each (the least is 0).
pub const N_FEATURES: usize = 20;
pub const FEATURE_MAX: [u8; N_FEATURES] = [7, 7, 7, 7, 7, 7, 3, 6, 7, 14, 64, 16, 7, 7, 7, 7, 14, 14, 14, 14];

fn file(s: u8) -> i8 {
    (s % 8) as i8
}
fn rank(s: u8) -> i8 {
    (s / 8) as i8
}

/// How far the black king is confined on one line by the rook's line: the files (or ranks) on
/// its side of the rook, 8 when it stands on the rook's line.
fn confined(rook: i8, king: i8) -> i8 {
    match king.cmp(&rook) {
        core::cmp::Ordering::Less => rook,
        core::cmp::Ordering::Greater => 7 - rook,
        core::cmp::Ordering::Equal => 8,
    }
}

/// The features of a placement (white king, rook, black king; a1 = 0 … h8 = 63), each in
/// `0..=FEATURE_MAX`. The format specifies them (docs/MODEL_FORMATS.md, "The KRK model").
#[must_use]
pub fn features(wk: u8, wr: u8, bk: u8) -> [u8; N_FEATURES] {
    let (kf, kr, rf, rr, bf, br) = (file(wk), rank(wk), file(wr), rank(wr), file(bk), rank(bk));
    let cheb = |a: u8, b: u8| (file(a) - file(b)).abs().max((rank(a) - rank(b)).abs());
    let edge = |v: i8| v.min(7 - v);
    let (w, h) = (confined(rf, bf), confined(rr, br));
    let f = [
        kf,
        kr,
        rf,
        rr,
        bf,
        br,
        edge(bf).min(edge(br)),
        edge(bf) + edge(br),
        cheb(wk, bk),
        (kf - bf).abs() + (kr - br).abs(),
        w * h,
        w + h,
        cheb(wr, bk),
        cheb(wr, wk),
        (kf - bf).abs(),
        (kr - br).abs(),
        rf - bf + 7,
        rr - br + 7,
        kf - bf + 7,
        kr - br + 7,
    ];
    f.map(|v| v as u8)
}

/// The squares the rook on `wr` attacks, its lines stopped by the white king only (the black
/// king never shields a square behind it from the rook).
#[must_use]
pub fn rook_attacks(wr: u8, wk: u8) -> u64 {
    let mut bits = 0;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut s = Square::new(wr).and_then(|s| s.offset(df, dr));
        while let Some(sq) = s {
            bits |= sq.bit();
            if sq.number() == wk {
                break;
            }
            s = sq.offset(df, dr);
        }
    }
    bits
}

/// Whether two squares are a king's move apart.
fn adjacent(a: u8, b: u8) -> bool {
    a != b && (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

/// A legal placement: three distinct squares, the kings not adjacent and, with White to move,
/// the black king not in check.
#[must_use]
pub fn is_legal(wk: u8, wr: u8, bk: u8, white_to_move: bool) -> bool {
    let on_board = wk < 64 && wr < 64 && bk < 64;
    on_board
        && wk != wr
        && wk != bk
        && wr != bk
        && !adjacent(wk, bk)
        && !(white_to_move && rook_attacks(wr, wk) >> bk & 1 == 1)
}

/// Whether a placement is its class's representative under the eight symmetries: the white
/// king in the triangle a1-d1-d4; on the a1-d4 diagonal, the black king on or below the a1-h8
/// diagonal; both kings on it, the rook on or below it too (the UCI data set's rule).
#[must_use]
pub fn is_canonical(wk: u8, wr: u8, bk: u8) -> bool {
    let (below, on) = (|s: u8| rank(s) < file(s), |s: u8| rank(s) == file(s));
    file(wk) <= 3 && (below(wk) || on(wk) && (below(bk) || on(bk) && (below(wr) || on(wr))))
}

/// Symmetry `t` (0..8) of a square: bit 0 mirrors the files, bit 1 flips the ranks, bit 2 then
/// swaps file and rank (the reflection in the a1-h8 diagonal).
#[must_use]
pub fn transform(t: u8, s: u8) -> u8 {
    let (mut f, mut r) = (s % 8, s / 8);
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        core::mem::swap(&mut f, &mut r);
    }
    r * 8 + f
}

/// The representative of a placement's class ([`is_canonical`]): the first of the eight
/// symmetries, in order 0..8, that gives one.
#[must_use]
pub fn canonical(wk: u8, wr: u8, bk: u8) -> (u8, u8, u8) {
    (0..8)
        .map(|t| (transform(t, wk), transform(t, wr), transform(t, bk)))
        .find(|&(k, r, b)| is_canonical(k, r, b))
        .unwrap_or((wk, wr, bk))
}

/// Every stored position, in the file's order (its "place"): legal with White to move and
/// canonical, by white king, then rook, then black king (a1 = 0 … h8 = 63).
#[must_use]
pub fn stored_positions() -> Vec<[u8; 3]> {
    let mut out = Vec::new();
    for wk in TRIANGLE {
        for wr in 0..64 {
            for bk in 0..64 {
                if is_legal(wk, wr, bk, true) && is_canonical(wk, wr, bk) {
                    out.push([wk, wr, bk]);
                }
            }
        }
    }
    out
}

/// Where a stored position's value lives in [`KrkModel`]'s table.
fn slot(wk: u8, wr: u8, bk: u8) -> usize {
    let k = TRIANGLE.iter().position(|&s| s == wk).unwrap_or(0);
    (k * 64 + usize::from(wr)) * 64 + usize::from(bk)
}

/// The KRK [`features`] as the value tree reads them: a split names one in [`FEATURE_BITS`] bits
/// and a threshold `t < FEATURE_MAX[x]` in [`FeatureSet::threshold_bits`] bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KrkFeatures;

impl FeatureSet for KrkFeatures {
    type Values = [u8; N_FEATURES];
    const INDEX_BITS: u32 = FEATURE_BITS;
    const NO_THRESHOLD: &'static str = "a split reads no KRK feature";
    const THRESHOLD_OUT_OF_RANGE: &'static str = "a split's threshold is out of its feature's range";

    fn thresholds(x: usize) -> u64 {
        FEATURE_MAX.get(x).map_or(0, |&max| u64::from(max))
    }

    fn level(values: &[u8; N_FEATURES], x: usize) -> i16 {
        i16::from(values[x])
    }
}

/// A binary tree over [`features`] whose leaves hold White's distance to mate in moves (0 for
/// a draw).
pub type ValueTree = value_tree::ValueTree<KrkFeatures>;

/// A correction: the stored position at `place` holds its leaf's value plus `delta`.
pub type Correction = value_tree::Correction;

/// Which part of the model gave an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KrkSource {
    /// The tree's leaf (White to move).
    Tree,
    /// A corrected leaf (White to move).
    Correction,
    /// The one-ply rule (Black to move).
    Rule,
}

/// A DTM answer from the side to move's point of view, as python-chess's Gaviota convention
/// signs it: `wdl` 1 when it mates, −1 when it is mated (or already checkmated), 0 a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KrkAnswer {
    pub wdl: i8,
    /// Plies to mate; 0 in a draw or a checkmate.
    pub plies: u32,
    pub source: KrkSource,
}

impl KrkAnswer {
    /// Signed plies: positive when the side to move mates, negative when it is mated.
    #[must_use]
    pub fn signed(&self) -> i32 {
        i32::from(self.wdl) * self.plies as i32
    }
}

/// A loaded KRK model: immutable, so it may answer from many threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KrkModel {
    tree: ValueTree,
    corrections: Vec<Correction>,
    /// White's DTM in moves (0 a draw) of each stored position, at [`slot`]; bit 7 marks a
    /// corrected one.
    table: Vec<u8>,
}

const CORRECTED: u8 = 0x80;

impl KrkModel {
    /// Decode a model file; every check of the format is made here.
    pub fn from_bytes(bytes: &[u8]) -> Result<KrkModel, FormatError> {
        let version = |v| if v == KRK_VERSION { Ok(v) } else { Err(FormatError::Version(v)) };
        let (body, _) = open_envelope(bytes, KRK_MAGIC, FIXED_LEN, version)?;
        let fields = &body[HEADER_LEN..];
        let leaf_bits = u32::from(fields[0]);
        if !(1..=MAX_LEAF_BITS).contains(&leaf_bits) {
            return Err(FormatError::Invalid("the leaf width is outside 1..=6 bits"));
        }
        let n = u32::from_le_bytes([fields[1], fields[2], fields[3], 0]) as usize;
        let (kg, kd) = (u32::from(fields[4]), u32::from(fields[5]));
        if kg > crate::model::MAX_RICE || kd > crate::model::MAX_RICE {
            return Err(FormatError::Invalid("a Rice parameter above 24"));
        }
        let mut r = BitReader::new(&fields[6..]);
        let tree = ValueTree::read(&mut r, leaf_bits)?;
        let stored = stored_positions();
        let places = read_sorted(&mut r, n, kg, stored.len())?;
        let mut corrections = Vec::with_capacity(n);
        for place in places {
            let delta = unzigzag(r.rice(kd)? + 1);
            let delta = i8::try_from(delta).map_err(|_| FormatError::Invalid("a correction out of range"))?;
            corrections.push(Correction { place, delta });
        }
        if !r.at_padded_end() {
            return Err(FormatError::Invalid("bytes after the bit stream, or a padding bit set"));
        }
        let mut table = vec![0u8; TRIANGLE.len() * 64 * 64];
        let mut next = corrections.iter().peekable();
        let most = (1i16 << leaf_bits) - 1;
        for (place, &[wk, wr, bk]) in stored.iter().enumerate() {
            let mut v = i16::from(tree.value(&features(wk, wr, bk)));
            if let Some(c) = next.next_if(|c| c.place as usize == place) {
                v += i16::from(c.delta);
                if !(0..=most).contains(&v) {
                    return Err(FormatError::Invalid("a corrected value outside the leaf width's range"));
                }
                table[slot(wk, wr, bk)] = CORRECTED;
            }
            table[slot(wk, wr, bk)] |= v as u8;
        }
        Ok(KrkModel { tree, corrections, table })
    }

    #[must_use]
    pub fn tree(&self) -> &ValueTree {
        &self.tree
    }

    #[must_use]
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    /// White's DTM in moves (0 a draw) of a legal White-to-move placement, and whether a
    /// correction gave it.
    fn white(&self, wk: u8, wr: u8, bk: u8) -> (u8, bool) {
        let (k, r, b) = canonical(wk, wr, bk);
        let v = self.table[slot(k, r, b)];
        (v & !CORRECTED, v & CORRECTED != 0)
    }

    /// The DTM of a KRK placement with White holding the rook (a1 = 0 … h8 = 63); `None` when it
    /// is not legal ([`is_legal`]).
    #[must_use]
    pub fn dtm(&self, wk: u8, wr: u8, bk: u8, white_to_move: bool) -> Option<KrkAnswer> {
        if !is_legal(wk, wr, bk, white_to_move) {
            return None;
        }
        if white_to_move {
            let (v, corrected) = self.white(wk, wr, bk);
            let source = if corrected { KrkSource::Correction } else { KrkSource::Tree };
            let (wdl, plies) = if v == 0 { (0, 0) } else { (1, 2 * u32::from(v) - 1) };
            return Some(KrkAnswer { wdl, plies, source });
        }
        Some(self.black(wk, wr, bk))
    }

    /// The one-ply rule for Black to move (module documentation).
    fn black(&self, wk: u8, wr: u8, bk: u8) -> KrkAnswer {
        let rule = |wdl, plies| KrkAnswer { wdl, plies, source: KrkSource::Rule };
        let attacked = rook_attacks(wr, wk);
        let mut longest = None;
        for (df, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let Some(to) = Square::new(bk).and_then(|s| s.offset(df, dr)).map(Square::number) else {
                continue;
            };
            if to == wk || adjacent(to, wk) {
                continue;
            }
            if to == wr {
                return rule(0, 0); // the rook, unguarded, is taken
            }
            if attacked >> to & 1 == 1 {
                continue;
            }
            match self.white(wk, wr, to).0 {
                0 => return rule(0, 0),
                v => longest = longest.max(Some(u32::from(v))),
            }
        }
        match longest {
            Some(v) => rule(-1, 2 * v),
            None if attacked >> bk & 1 == 1 => rule(-1, 0),
            None => rule(0, 0),
        }
    }
}
