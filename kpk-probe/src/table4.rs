//! The 32 characteristics x1..x32 of Haworth & Velliste's Table 4 (section 4.1, Figure 2),
//! computed level by level from the pieces' coordinates. The kpk crate's `paper::features`
//! documents each row and the readings taken where the table is ambiguous; this is the one place
//! the arithmetic lives.
//!
//! Coordinates are 1-based (files a–h = 1–8, ranks 1–8) in the canonical orientation: the pawn is
//! White's, moves up the board and stands on files a–d.

/// Number of characteristics in Table 4.
pub const N_FEATURES: usize = 32;

/// x32's threshold on x31 by side to move (White, Black): x32 = 1 needs `x31 > X32_MARGIN[side]`
/// (the rule of the square; Black to move has a tempo more).
pub const X32_MARGIN: [i8; 2] = [1, 2];

/// x1..x32 at indices 0..32, from the 1-based coordinates `[x1, …, x6]` = file and rank of the
/// white king, the black king and the pawn, and whether White is to move.
///
/// Each line is a row of Table 4 and uses only characteristics of lower levels (plus the side to
/// move for x25, x26 and x32).
#[inline]
#[must_use]
pub fn characteristics(coordinates: [i8; 6], white_to_move: bool) -> [i8; N_FEATURES] {
    // x[i] is Table 4's xi (x[0] unused), so each line reads as the table does.
    let mut x = [0i8; N_FEATURES + 1];
    let wtm = white_to_move;

    // Level 0 (c01-c06): files a-h = 1-8, ranks 1-8, pawn on files a-d.
    x[1..=6].copy_from_slice(&coordinates);

    // Level 1 (c11-c18).
    x[7] = x[1] - x[3];
    x[8] = x[2] - x[4];
    x[9] = x[1] - x[5];
    x[10] = x[2] - x[6];
    x[11] = x[3] - x[5];
    x[12] = x[4] - x[6];
    x[13] = i8::from(x[6] == 8); // never on legal positions: the pawn stands on ranks 2-7
    x[14] = if x[6] == 2 { 5 } else { 8 - x[6] }; // the double step saves a move from rank 2

    // Level 2 (c21-c29).
    x[15] = x[7].abs();
    x[16] = x[8].abs();
    x[17] = i8::from(x[7] % 2 == 0 && x[8] % 2 == 0); // Rust's % keeps the sign: -2 % 2 == 0
    x[18] = x[9].abs();
    x[19] = x[10].abs();
    x[20] = i8::from(x[10] < 0);
    x[21] = x[11].abs();
    x[22] = x[12].abs();
    x[23] = i8::from(x[12] < 0);

    // Level 3 (c31-c36). With both differences even the side *not* to move has the opposition.
    x[24] = x[15].max(x[16]);
    x[25] = i8::from((wtm && x[17] == 0) || (!wtm && x[17] == 1));
    x[26] = i8::from((wtm && x[17] == 1) || (!wtm && x[17] == 0));
    x[27] = x[18].max(x[19]);
    x[28] = x[21].max(x[22]);
    x[29] = x[21].max((8 - x[4]).abs());

    // Level 4 (c41-c42).
    x[30] = x[27] - x[28];
    x[31] = x[29] - x[14];

    // Level 5 (c51): the white king off the pawn's file and the black king outside the square.
    x[32] = i8::from(x[18] > 0 && x[31] > X32_MARGIN[usize::from(!wtm)]);

    let mut out = [0i8; N_FEATURES];
    out.copy_from_slice(&x[1..]);
    out
}

/// Largest magnitude any characteristic takes on a legal position (x7 and x8 reach ±7, the
/// coordinates 8).
pub const BOUND: i32 = 8;
