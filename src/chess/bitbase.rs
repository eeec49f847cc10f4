//! The exact KPK bitbase by retrograde analysis: outcome and depth to conversion (DTC).
//!
//! # The minimax rule
//!
//! DTC counts plies to the pawn's winning promotion with best play: the pawn side converts as
//! fast as it can, the defender delays as long as it can. A promotion played on White's move
//! counts as 1 ply, so wins with White to move have odd DTC (1…37) and wins with Black to move
//! even DTC (2…38).
//!
//! * **White to move** wins in ≤ d plies if some move reaches a Black-to-move position won in
//!   ≤ d − 1 plies, or (d ≥ 1) if the pawn promotes to a queen *or a rook* and wins at once: the
//!   new piece cannot be taken and Black is not stalemated (a queen can stalemate where a rook
//!   wins). Otherwise, if no move ever reaches a win, the position is drawn.
//! * **Black to move** is won in ≤ d plies if Black has a legal move and every legal move reaches
//!   a White-to-move position won in ≤ d − 1 plies. Taking an unguarded pawn is a draw; a
//!   stalemate (no legal move) is a draw. K+P cannot checkmate a lone king on this board, so
//!   "no move" is always stalemate; the exhaustive test in `tests/bitbase.rs` confirms it.
//!
//! # The computation
//!
//! Each (side, pawn, white king) triple owns one 64-bit word whose bit `bk` is set where that
//! position is won (see [`crate::chess::index`]). One ply of the fixpoint is a handful of word operations
//! per triple, in parallel over the 64 black-king squares:
//!
//! * White to move: `W(slot, wk) |= ⋃ B(slot, wk′) over king steps wk′ ∪ B(slot + 4, wk)` (push)
//!   `∪ B(slot + 8, wk) & ¬(square in front)` (double push) `∪ promotion wins` (d = 1 only);
//! * Black to move: `B(slot, wk) = legal & has-a-move & ¬neighbours(safe & ¬W(slot, wk))`, where
//!   `safe` are the squares the black king may step to (an unguarded pawn's square included:
//!   taking it is an escape because no won position has the black king there).
//!
//! Each ply adds the positions of exactly that depth; when a ply adds nothing, no later ply can.

use crate::chess::board::{KING_ATTACKS, WHITE_PAWN_ATTACKS, neighbours, squares};
use crate::chess::endgame::{self, Endgame, Exits, Solution, solve};
use crate::chess::index::{KpkIndex, SIDE_WORDS, WORDS, word};
use crate::chess::position::KpkPosition;
use crate::error::{Error, Result};
use kpk_probe::{Color, MAX_INDEX, Outcome, Square, position::pawn_square};
use std::path::Path;
use std::sync::OnceLock;

/// Depth to conversion in plies (1…38); see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dtc(pub u8);

/// The deepest DTC in KPK: 38 plies with Black to move (Table 1, set 2).
pub const MAX_DTC: u8 = 38;

/// Outcome and DTC of every KPK index, and (computed on first use) its DTZ.
#[derive(Clone)]
pub struct Bitbase {
    /// One bit per index: legal and won for the pawn side.
    win: Vec<u64>,
    /// One byte per index: the DTC of a won position, 0 for draws and illegal indices.
    dtc: Vec<u8>,
    /// One byte per index: |DTZ| of a won or lost position ([`crate::chess::dtz`]), 0 for draws
    /// and illegal indices; a second pass over `win`, run when first read.
    dtz: OnceLock<Vec<u8>>,
}

/// Two bitbases are equal when their outcomes and DTCs are (the DTZ follows from the outcomes).
impl PartialEq for Bitbase {
    fn eq(&self, other: &Bitbase) -> bool {
        self.win == other.win && self.dtc == other.dtc
    }
}

impl Eq for Bitbase {}

/// KPK as an [`Endgame`]: a placement is a (pawn slot, white king) pair, word `slot × 64 + wk`.
pub struct Kpk;

/// The masks the fixpoints start from, one word per (side, pawn, pawn side's king).
struct Masks {
    /// Legality, the lone king's step squares (an unguarded pawn's square included) and checks.
    solver: endgame::Masks,
    /// Per pawn-side word: the lone-king squares where a promotion wins at once.
    promotes: Vec<u64>,
}

impl Masks {
    fn new() -> Masks {
        let mut legal = vec![0u64; WORDS];
        let mut safe = vec![0u64; SIDE_WORDS];
        let mut checked = vec![0u64; SIDE_WORDS];
        let mut promotes = vec![0u64; SIDE_WORDS];
        for slot in 0..24 {
            let wp = pawn_square(slot);
            for wk in Square::ALL {
                let w = word(Color::White, slot, wk);
                legal[w] = legal_mask(Color::White, wp, wk);
                legal[word(Color::Black, slot, wk)] = legal_mask(Color::Black, wp, wk);
                safe[w] = !(KING_ATTACKS[wk.index()] | WHITE_PAWN_ATTACKS[wp.index()] | wk.bit());
                checked[w] = WHITE_PAWN_ATTACKS[wp.index()];
                if slot >= 20 {
                    promotes[w] = promotion_wins(wk, wp);
                }
            }
        }
        Masks { solver: endgame::Masks { legal, safe, checked }, promotes }
    }

    /// The DTZ pass ([`crate::chess::dtz`]) over the won-position bits.
    fn dtz(&self, win: &[u64]) -> Vec<u8> {
        crate::chess::dtz::generate(win, &self.solver.legal, &self.solver.safe, &self.promotes)
    }
}

impl Endgame for Kpk {
    const SIDE_WORDS: usize = SIDE_WORDS;

    fn masks(&self) -> endgame::Masks {
        Masks::new().solver
    }

    /// King steps, the push and the double push (not onto or through the lone king).
    #[inline]
    fn reach(&self, w: usize, lost: &[u64]) -> u64 {
        let (slot, wk) = (w / 64, w % 64);
        let one = pawn_square(slot).index() + 8;
        let mut reach = 0u64;
        for wk2 in squares(KING_ATTACKS[wk]) {
            reach |= lost[slot * 64 + wk2.index()];
        }
        if slot < 20 && wk != one {
            reach |= lost[w + 4 * 64];
            if slot < 4 && wk != one + 8 {
                reach |= lost[w + 8 * 64] & !(1u64 << one);
            }
        }
        reach
    }
}

/// Black-king squares that make the (side, pawn, wk) placement legal.
pub fn legal_mask(side: Color, wp: Square, wk: Square) -> u64 {
    if wk == wp {
        return 0;
    }
    let mut illegal = wk.bit() | wp.bit() | KING_ATTACKS[wk.index()];
    if side == Color::White {
        illegal |= WHITE_PAWN_ATTACKS[wp.index()];
    }
    !illegal
}

/// Black-king squares (White to move, pawn on rank 7) from which White wins by promoting to a
/// queen or a rook, Black then to move.
fn promotion_wins(wk: Square, wp: Square) -> u64 {
    let q = Square::new(wp.index() as u8 + 8).expect("rank 8");
    if wk == q {
        return 0; // the pawn is blocked by its own king
    }
    let guarded = KING_ATTACKS[wk.index()];
    // The black king takes the new piece if it stands next to it and the white king does not.
    let taken = if guarded & q.bit() != 0 { 0 } else { KING_ATTACKS[q.index()] };
    let wins = |attacks: u64| {
        let free = !(guarded | attacks | wk.bit());
        let stalemated = !attacks & !neighbours(free);
        !taken & !stalemated
    };
    let queen = crate::chess::board::slider_attacks(q, wk.bit(), true, true);
    let rook = crate::chess::board::slider_attacks(q, wk.bit(), true, false);
    (wins(queen) | wins(rook)) & !q.bit() & legal_mask(Color::White, wp, wk)
}

impl Bitbase {
    /// Compute the outcomes and DTCs by retrograde analysis (under a millisecond; see
    /// `kpk bench`); the DTZ is a second pass, run on the first call that reads it.
    pub fn generate() -> Bitbase {
        let masks = Masks::new();
        let mut exits = Exits::default();
        for (w, &bits) in masks.promotes.iter().enumerate() {
            exits.add(1, w, bits);
        }
        let Solution { win, depth } = solve(&Kpk, &masks.solver, &exits);
        Bitbase { win, dtc: depth, dtz: OnceLock::new() }
    }

    /// Outcome of a legal position, from the pawn side's point of view.
    pub fn outcome(&self, p: &KpkPosition) -> Outcome {
        self.outcome_at(KpkIndex::of(p))
    }

    /// Outcome at an index (illegal indices read as draws).
    pub fn outcome_at(&self, i: KpkIndex) -> Outcome {
        if self.win[i.value() / 64] >> (i.value() % 64) & 1 == 1 { Outcome::Win } else { Outcome::Draw }
    }

    /// DTC of a legal position: `Some` for wins, `None` for draws.
    pub fn dtc(&self, p: &KpkPosition) -> Option<Dtc> {
        self.dtc_at(KpkIndex::of(p))
    }

    pub fn dtc_at(&self, i: KpkIndex) -> Option<Dtc> {
        match self.dtc[i.value()] {
            0 => None,
            d => Some(Dtc(d)),
        }
    }

    /// DTZ of a legal position ([`crate::chess::dtz`]): plies to the next zeroing move, positive
    /// when the side to move wins, negative when it loses, 0 in a draw.
    pub fn dtz(&self, p: &KpkPosition) -> i8 {
        self.dtz_at(KpkIndex::of(p))
    }

    /// DTZ at an index (0 for draws and illegal indices).
    pub fn dtz_at(&self, i: KpkIndex) -> i8 {
        let d = self.dtz.get_or_init(|| Masks::new().dtz(&self.win))[i.value()] as i8;
        if i.side() == Color::White { d } else { -d }
    }

    /// The won-position bits, one per index (24,576 bytes).
    pub fn win_bits(&self) -> &[u64] {
        &self.win
    }

    /// Counts by side to move and pawn file (the paper's Table 2).
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for p in KpkPosition::all() {
            let s = usize::from(p.side() == Color::Black);
            let f = p.wp().file() as usize;
            let won = usize::from(self.outcome(&p) == Outcome::Win);
            c.positions[s][f] += 1;
            c.wins[s][f] += won;
        }
        c
    }

    /// `n[side][p]`: won positions converted in exactly `p` plies (the paper's Table 3, Np).
    pub fn dtc_histogram(&self) -> [[usize; MAX_DTC as usize + 1]; 2] {
        let mut n = [[0usize; MAX_DTC as usize + 1]; 2];
        for (i, &d) in self.dtc.iter().enumerate() {
            if d > 0 {
                n[usize::from(i >= MAX_INDEX / 2)][d as usize] += 1;
            }
        }
        n
    }

    // ---- file format -------------------------------------------------------------------------

    /// The bitbase file (`kpk bitbase --out`), all integers little-endian:
    ///
    /// | offset  | bytes   | field                                                         |
    /// |---------|---------|---------------------------------------------------------------|
    /// | 0       | 4       | magic `KPKB`                                                  |
    /// | 4       | 2       | format version, 1                                             |
    /// | 6       | 2       | reserved, 0                                                   |
    /// | 8       | 4       | number of indices, 196,608                                    |
    /// | 12      | 196,608 | DTC byte per [`KpkIndex`]: 0 = draw or illegal, else DTC ply  |
    /// | 196,620 | 4       | CRC-32 (IEEE) of bytes 0..196,620                             |
    ///
    /// The outcome bit of an index is `DTC > 0`. Loading checks every field, the checksum, and
    /// that wins stand only on legal indices with DTC of the right parity (odd with White to move).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&(MAX_INDEX as u32).to_le_bytes());
        out.extend_from_slice(&self.dtc);
        let crc = kpk_probe::bits::crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Parse a bitbase file; `path` only names the file in errors.
    pub fn from_bytes(bytes: &[u8], path: &str) -> Result<Bitbase> {
        let bad = |message: String| Error::Format { path: path.to_string(), message };
        if bytes.len() < 12 || &bytes[..4] != MAGIC {
            return Err(bad(kpk_probe::magic::not_a(MAGIC, bytes)));
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != VERSION {
            return Err(bad(format!("unsupported bitbase format version {version}, expected {VERSION}")));
        }
        if bytes.len() != FILE_LEN {
            return Err(bad(format!(
                "file is {} bytes, expected {FILE_LEN} (truncated or padded)",
                bytes.len()
            )));
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if count as usize != MAX_INDEX {
            return Err(bad(format!("index count {count}, expected {MAX_INDEX}")));
        }
        let stored = u32::from_le_bytes(bytes[FILE_LEN - 4..].try_into().expect("4 bytes"));
        if kpk_probe::bits::crc32(&bytes[..FILE_LEN - 4]) != stored {
            return Err(bad("checksum mismatch: the file is corrupt".into()));
        }
        let dtc = bytes[12..FILE_LEN - 4].to_vec();
        let mut win = vec![0u64; WORDS];
        for i in KpkIndex::all() {
            let d = dtc[i.value()];
            if d == 0 {
                continue;
            }
            let parity_ok = (d % 2 == 1) == (i.side() == Color::White);
            if d > MAX_DTC || !parity_ok || i.position().is_none() {
                return Err(bad(format!("index {} holds an impossible DTC {d}", i.value())));
            }
            win[i.value() / 64] |= 1 << (i.value() % 64);
        }
        Ok(Bitbase { win, dtc, dtz: OnceLock::new() })
    }

    /// Load a bitbase file written by [`Bitbase::save`].
    pub fn load(path: &Path) -> Result<Bitbase> {
        Bitbase::from_bytes(&crate::io::read(path)?, &path.display().to_string())
    }

    /// Write the bitbase file atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::output::write_file(path, &self.to_bytes())
    }
}

const MAGIC: &[u8; 4] = b"KPKB";
const VERSION: u16 = 1;
const FILE_LEN: usize = 12 + MAX_INDEX + 4;

/// Legal positions and wins by side to move (`[0]` White, `[1]` Black) and pawn file a–d.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub positions: [[usize; 4]; 2],
    pub wins: [[usize; 4]; 2],
}

impl Counts {
    pub fn positions(&self, side: Color) -> usize {
        self.positions[usize::from(side == Color::Black)].iter().sum()
    }
    pub fn wins(&self, side: Color) -> usize {
        self.wins[usize::from(side == Color::Black)].iter().sum()
    }
    pub fn draws(&self, side: Color) -> usize {
        self.positions(side) - self.wins(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_of_a_corner_and_a_centre_square() {
        let a1: Square = "a1".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(neighbours(a1.bit()), KING_ATTACKS[a1.index()]);
        assert_eq!(neighbours(e4.bit()), KING_ATTACKS[e4.index()]);
        for sq in Square::ALL {
            assert_eq!(neighbours(sq.bit()), KING_ATTACKS[sq.index()], "{sq}");
        }
    }

    #[test]
    fn file_round_trip() {
        // Damaged files: tests/bitbase.rs.
        let bb = Bitbase::generate();
        let bytes = bb.to_bytes();
        assert!(Bitbase::from_bytes(&bytes, "x").unwrap() == bb);
        assert!(Bitbase::from_bytes(b"nope", "x").is_err());
    }
}
