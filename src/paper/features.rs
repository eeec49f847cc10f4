//! The 32 characteristics x1..x32 of Table 4 (section 4.1, Figure 2), computed level by level.
//!
//! The paper builds its characterisation as a lattice (Figure 2): level-0 characteristics are the
//! pieces' coordinates, and every later characteristic is a function of characteristics of lower
//! levels, its level being one more than the highest level it uses (section 4.1's rule
//! `c = f(c1, …, cn) ⇒ L(c) > L(ci)`, L minimised). [`features`] computes them in exactly that
//! order; [`FEATURES`] records, for each, the characteristics it is computed from, so the tests
//! can check both the level rule and that each value depends on nothing else.
//!
//! # Coordinates
//!
//! Files a–h are 1–8 and ranks 1–8, read in kpk's canonical orientation: the pawn is White's and
//! stands on files a–d (x5 ∈ [1, 4]), positions with the pawn on files e–h being mirrored first.
//!
//! # Readings where Table 4 is ambiguous (see docs/FEATURES.md for the measurements)
//!
//! * **x13** (`r(wP) = 8?`): constant 0 on legal positions, since the pawn is never on rank 8
//!   (section 4.1 says so: x13 "became redundant"). Its printed range `[-6, 6]` (size 13) is a
//!   slip copied from the row above; the legal range is `[0, 0]`. The printed range is kept for
//!   the binary coding only, because the paper's count of 92 binary inputs uses it.
//! * **x14**: `8 − x6`, except 5 for a pawn on rank 2 (its double step), so `[1, 5]`.
//! * **x17** (parity re 'opposition'): 1 when the kings' file difference x7 and rank difference
//!   x8 are both even, 0 counting as even and a negative difference having the parity of its
//!   magnitude. This is the classical rule that when both distances are even, the side *not* to
//!   move "has the opposition" (direct opposition: same file, one square between, x8 = ±2).
//! * **x25/x26** depend on the side to move, the only characteristics that do: White 'may have
//!   the opposition' (x25 = 1) when White is to move and x17 = 0, or Black is to move and
//!   x17 = 1; x26 is its complement. For a net that sees one side only (section 4.1: "It was not
//!   necessary to indicate which side had the move"), x25 is x17 or 1 − x17.
//! * **x32** (P can run and convert?), printed `x18 > 0 & x31 > 1 (btm, 2) ⇒ 1`, with the
//!   post-publication note that `x18 > 0` means the white king is not on the pawn's file. Read
//!   here as the rule of the square with its side-to-move threshold: **x31 > 1 with White to
//!   move and x31 > 2 with Black to move** ("(btm, 2)" naming Black's threshold: Black to move
//!   has a tempo more, so the king must be a move further away; [`X32_MARGIN`](kpk_probe::table4::X32_MARGIN)). Of the readings
//!   measured it is the only one that marks no draw for either side (32,655 wtm and 20,583 btm
//!   positions, all wins); reading 1 for both sides marks 544 btm draws, where the black king on
//!   rank 1 takes a pawn on rank 2. docs/FEATURES.md gives the counts for every reading tried.

use crate::chess::position::KpkPosition;
use kpk_probe::Color;

// The number of characteristics in Table 4 and x32's threshold on x31 by side to move
// (`kpk_probe::table4::X32_MARGIN`: x32 = 1 needs `x31 > X32_MARGIN[side]`) are the probe
// crate's; see the module documentation and docs/FEATURES.md for the reading and its measurements.
use kpk_probe::table4::N_FEATURES;

/// One row of Table 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureInfo {
    /// The input number, 1..=32 (`xi` in Table 4); its value is at index `x - 1` of [`features`].
    pub x: usize,
    /// Table 4's characteristic code, e.g. `c11`.
    pub code: &'static str,
    /// A short name from the paper's description, e.g. `fd(wK,bK)`.
    pub name: &'static str,
    /// The level in Figure 2's lattice, 0..=5.
    pub level: u8,
    /// Table 4's description.
    pub description: &'static str,
    /// Table 4's formula as printed.
    pub formula: &'static str,
    /// The characteristics (by x number) the formula uses; x25, x26 and x32 also use the side to
    /// move ([`FeatureInfo::uses_side`]).
    pub inputs: &'static [usize],
    /// Whether the value depends on the side to move.
    pub uses_side: bool,
    /// The range the characteristic takes over all 165,676 legal positions (both sides).
    pub range: (i8, i8),
    /// Table 4's printed range (x13's is a slip; see the module documentation).
    pub printed_range: (i8, i8),
}

impl FeatureInfo {
    /// Number of values in the legal range.
    pub const fn range_size(&self) -> usize {
        (self.range.1 - self.range.0) as usize + 1
    }
    /// Number of values in the printed range (Table 4's `|Range|` column).
    pub const fn printed_range_size(&self) -> usize {
        (self.printed_range.1 - self.printed_range.0) as usize + 1
    }
}

#[allow(clippy::too_many_arguments)]
const fn row(
    x: usize,
    code: &'static str,
    name: &'static str,
    level: u8,
    description: &'static str,
    formula: &'static str,
    inputs: &'static [usize],
    range: (i8, i8),
    printed_range: (i8, i8),
) -> FeatureInfo {
    FeatureInfo { x, code, name, level, description, formula, inputs, uses_side: false, range, printed_range }
}

const fn with_side(info: FeatureInfo) -> FeatureInfo {
    FeatureInfo { uses_side: true, ..info }
}

/// Table 4, row by row. `range` is measured on the legal positions (the test
/// `tests/features.rs` recomputes it over every one); `printed_range` is as printed.
#[rustfmt::skip]
pub const FEATURES: [FeatureInfo; N_FEATURES] = [
    // Level 0: the pieces' coordinates (canonical orientation, files a-h = 1-8).
    row(1, "c01", "f(wK)", 0, "file of wK", "x1", &[], (1, 8), (1, 8)),
    row(2, "c02", "r(wK)", 0, "rank of wK", "x2", &[], (1, 8), (1, 8)),
    row(3, "c03", "f(bK)", 0, "file of bK", "x3", &[], (1, 8), (1, 8)),
    row(4, "c04", "r(bK)", 0, "rank of bK", "x4", &[], (1, 8), (1, 8)),
    row(5, "c05", "f(wP)", 0, "file of wP", "x5", &[], (1, 4), (1, 4)),
    row(6, "c06", "r(wP)", 0, "rank of wP", "x6", &[], (2, 7), (2, 7)),
    // Level 1: signed differences, and the pawn's distance to promotion.
    row(7, "c11", "fd(wK,bK)", 1, "wK-bK file difference", "x1 - x3", &[1, 3], (-7, 7), (-7, 7)),
    row(8, "c12", "rd(wK,bK)", 1, "wK-bK rank difference", "x2 - x4", &[2, 4], (-7, 7), (-7, 7)),
    row(9, "c13", "fd(wK,wP)", 1, "wK-wP file difference", "x1 - x5", &[1, 5], (-3, 7), (-3, 7)),
    row(10, "c14", "rd(wK,wP)", 1, "wK-wP rank difference", "x2 - x6", &[2, 6], (-6, 6), (-6, 6)),
    row(11, "c15", "fd(bK,wP)", 1, "bK-wP file difference", "x3 - x5", &[3, 5], (-3, 7), (-3, 7)),
    row(12, "c16", "rd(bK,wP)", 1, "bK-wP rank difference", "x4 - x6", &[4, 6], (-6, 6), (-6, 6)),
    row(13, "c17", "r(wP)=8?", 1, "pawn on rank 8?", "0; x6 = 8 => 1", &[6], (0, 0), (-6, 6)),
    row(14, "c18", "m(P,Qs)", 1, "no. of P-moves needed to convert P", "8 - x6; x6 = 2 => 5", &[6], (1, 5), (1, 5)),
    // Level 2: magnitudes, the opposition parity, 'behind' flags.
    row(15, "c21", "|fd(wK,bK)|", 2, "abs fd(wK, bK)", "|x7|", &[7], (0, 7), (0, 7)),
    row(16, "c22", "|rd(wK,bK)|", 2, "abs rd(wK, bK)", "|x8|", &[8], (0, 7), (0, 7)),
    row(17, "c23", "opp-parity", 2, "parity re 'opposition'", "0; x7 even & x8 even => 1", &[7, 8], (0, 1), (0, 1)),
    row(18, "c24", "|fd(wK,wP)|", 2, "abs fd(wK, wP)", "|x9|", &[9], (0, 7), (0, 7)),
    row(19, "c25", "|rd(wK,wP)|", 2, "abs rd(wK, wP)", "|x10|", &[10], (0, 6), (0, 6)),
    row(20, "c26", "wK-behind-wP?", 2, "wK behind wP?", "0; x10 < 0 => 1", &[10], (0, 1), (0, 1)),
    row(21, "c27", "|fd(bK,wP)|", 2, "abs fd(bK, wP)", "|x11|", &[11], (0, 7), (0, 7)),
    row(22, "c28", "|rd(bK,wP)|", 2, "abs rd(bK, wP)", "|x12|", &[12], (0, 6), (0, 6)),
    row(23, "c29", "bK-behind-wP?", 2, "bK behind wP?", "0; x12 < 0 => 1", &[12], (0, 1), (0, 1)),
    // Level 3: king-move distances and who may have the opposition.
    row(24, "c31", "d(wK,bK)", 3, "wK-bK 'distance'", "max(x15, x16)", &[15, 16], (2, 7), (2, 7)),
    with_side(row(25, "c32", "W-may-have-opp", 3, "White 'may have opposition'", "0; wtm/x17 = 0 or btm/x17 = 1 => 1", &[17], (0, 1), (0, 1))),
    with_side(row(26, "c33", "B-may-have-opp", 3, "Black 'may have opposition'", "0; wtm/x17 = 1 or btm/x17 = 0 => 1", &[17], (0, 1), (0, 1))),
    row(27, "c34", "d(wK,wP)", 3, "wK-wP 'distance'", "max(x18, x19)", &[18, 19], (1, 7), (1, 7)),
    row(28, "c35", "d(bK,wP)", 3, "bK-wP 'distance'", "max(x21, x22)", &[21, 22], (1, 7), (1, 7)),
    row(29, "c36", "d(bK,Qs)", 3, "'distance' bK to wP's queening square", "max(x21, |8 - x4|)", &[21, 4], (0, 7), (0, 7)),
    // Level 4: the race to the pawn and to the queening square.
    row(30, "c41", "d(wK,wP)-d(bK,wP)", 4, "d(wK, wP) - d(bK, wP)", "x27 - x28", &[27, 28], (-6, 6), (-6, 6)),
    row(31, "c42", "d(bK,Qs)-m(P,Qs)", 4, "d(bK, Qs) - m(P, Qs)", "x29 - x14", &[29, 14], (-5, 6), (-5, 6)),
    // Level 5: the rule of the square.
    with_side(row(32, "c51", "P-runs?", 5, "P can run and convert?", "x18 > 0 & x31 > 1 (btm, 2) => 1", &[18, 31], (0, 1), (0, 1))),
];

/// The 32 characteristics of a position: x1..x32 at indices 0..32.
///
/// Computed level by level as Figure 2 builds them, by [`kpk_probe::table4::characteristics`]
/// (the probe crate owns the arithmetic so that an embedded model computes exactly these values):
/// each line there is a row of Table 4 and uses only characteristics of lower levels (plus the side
/// to move for x25, x26 and x32).
#[inline]
pub fn features(p: &KpkPosition) -> [i8; N_FEATURES] {
    let c = |v: u8| v as i8 + 1;
    let coordinates = [
        c(p.wk().file()),
        c(p.wk().rank()),
        c(p.bk().file()),
        c(p.bk().rank()),
        c(p.wp().file()),
        c(p.wp().rank()),
    ];
    kpk_probe::table4::characteristics(coordinates, p.side() == Color::White)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::Oriented;

    fn of(fen: &str) -> [i8; N_FEATURES] {
        features(&Oriented::from_fen(fen).unwrap().position)
    }

    #[test]
    fn table_rows_are_numbered_in_order() {
        for (i, f) in FEATURES.iter().enumerate() {
            assert_eq!(f.x, i + 1);
            assert!(f.range.0 >= f.printed_range.0 && f.range.1 <= f.printed_range.1, "x{}", f.x);
        }
    }

    #[test]
    fn table1_position_3() {
        // wK d1, wP c3, bK f8, White to move (Table 1, set 3).
        let x = of("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
        assert_eq!(&x[..6], &[4, 1, 6, 8, 3, 3]);
        assert_eq!((x[6], x[7]), (-2, -7)); // x7, x8
        assert_eq!(x[13], 5); // x14: pawn on rank 3
        assert_eq!(x[16], 0); // x17: x8 = -7 is odd
        assert_eq!((x[24], x[25]), (1, 0)); // x25, x26: White to move, x17 = 0
        assert_eq!(x[28], 3); // x29 = max(|6-3|, |8-8|)
        assert_eq!(x[30], -2); // x31 = 3 - 5
        assert_eq!(x[31], 0);
    }

    #[test]
    fn mirrored_and_colour_flipped_fens_agree() {
        // The same position given with the pawn on the f-file, and with colours reversed.
        let a = of("5k2/8/8/8/8/2P5/8/3K4 w - - 0 1");
        let b = of("2k5/8/8/8/8/5P2/8/4K3 w - - 0 1");
        let c = of("3k4/8/2p5/8/8/8/8/5K2 b - - 0 1");
        assert_eq!(a, b);
        assert_eq!(a, c);
    }

    #[test]
    fn a_pawn_that_runs() {
        // wK h1, wP a5, bK h8, Black to move: the king is 7 from a8, the pawn 3 moves away.
        let x = of("7k/8/8/P7/8/8/8/7K b - - 0 1");
        assert_eq!(x[30], 4);
        assert_eq!(x[31], 1);
    }
}
