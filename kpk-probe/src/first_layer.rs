//! The first layer's sums from tables built at load, so a query adds three rows instead of
//! computing the characteristics and a dot product per neuron.
//!
//! Each Table 4 characteristic reads only some of the pieces (checked on every placement by the
//! tests):
//!
//! | group | reads | characteristics |
//! |---|---|---|
//! | A | the pawn side's king, the pawn | x1, x2, x5, x6, x9, x10, x13, x14, x18, x19, x20, x27 |
//! | B | the lone king, the pawn | x3, x4, x11, x12, x21, x22, x23, x28, x29, x31 |
//! | C | the kings' offset (x7, x8), the side to move | x7, x8, x15, x16, x17, x24, x25, x26, x33 |
//!
//! x30 = x27 − x28 splits into A and B; x32 reads all three pieces and is added at query time
//! from x18 (A) and x31 (B). Neuron `i`'s sum `b_i + Σ_j w_ij · x_j` is therefore
//! `A[wk, pawn]_i + B[bk, pawn]_i + C[offset, side]_i + w_i,32 · x32`, the bias folded into A.
//! Integer addition is exact in any order, so the answer is the plain dot product's on every
//! machine. The tables take `(2 · 64 · 24 + 450) · n` 32-bit words for `n` first-layer neurons
//! (337 KB for 24) and are built once per model.

use crate::input::{Input, SIDE_TO_MOVE};
use crate::net::Layer;
use crate::position::Position;
use crate::table4::{X32_MARGIN, characteristics};
use alloc::vec;
use alloc::vec::Vec;

/// Which pieces characteristic `x` (1..=33) reads: its group, or how it splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    KingPawn,
    LoneKingPawn,
    Kings,
    /// x30 = x27 − x28.
    Split,
    /// x32.
    AllThree,
}

fn group(x: usize) -> Group {
    match x {
        1 | 2 | 5 | 6 | 9 | 10 | 13 | 14 | 18 | 19 | 20 | 27 => Group::KingPawn,
        3 | 4 | 11 | 12 | 21 | 22 | 23 | 28 | 29 | 31 => Group::LoneKingPawn,
        30 => Group::Split,
        32 => Group::AllThree,
        _ => Group::Kings, // 7, 8, 15, 16, 17, 24, 25, 26 and 33
    }
}

/// Pawn squares: files a–d (1–4), ranks 2–7.
const SLOTS: usize = 24;
/// King offsets −7..=7 on each axis, by side to move.
const OFFSETS: usize = 15 * 15 * 2;

/// The first layer as tables; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstLayer {
    n: usize,
    /// `[(slot · 64 + square) · n + i]` (the pawn's slot `(rank − 2) · 4 + file − 1` outermost, as
    /// positions are numbered, so neighbouring positions read neighbouring rows).
    king_pawn: Vec<i32>,
    lone_king_pawn: Vec<i32>,
    /// `[((dx + 7) · 15 + dy + 7) · 2 + side) · n + i]`, side 0 = the pawn side to move.
    kings: Vec<i32>,
    /// x31 by `slot · 64 + bk`, and x32's weight column (empty when x32 is not an input).
    x31: Vec<i8>,
    w32: Vec<i32>,
}

/// The inputs `input` writes for the given coordinates, as Table 4 numbers and values.
fn inputs(input: Input, coordinates: [i8; 6], white_to_move: bool) -> impl Iterator<Item = (usize, i32)> {
    let f = characteristics(coordinates, white_to_move);
    let side = i32::from(!white_to_move);
    xs(input).map(move |x| (x, if x == SIDE_TO_MOVE { side } else { i32::from(f[x - 1]) }))
}

/// The Table 4 numbers of the inputs, in column order (the coordinates are x1..x6 and x33).
fn xs(input: Input) -> impl Iterator<Item = usize> {
    let mask = match input {
        Input::Coordinates => 0b11_1111 | 1 << (SIDE_TO_MOVE - 1),
        Input::Features { mask } => mask,
    };
    (1..=SIDE_TO_MOVE).filter(move |x| mask >> (x - 1) & 1 == 1)
}

impl FirstLayer {
    /// The tables of `layer` (the first layer of a net reading `input`).
    #[must_use]
    pub fn new(input: Input, layer: &Layer) -> FirstLayer {
        let n = layer.n_out;
        // weight[x · n + i]: neuron i's weight on characteristic x (0 when x is not an input).
        let mut weight = vec![0i32; (SIDE_TO_MOVE + 1) * n];
        for (j, x) in xs(input).enumerate() {
            for i in 0..n {
                weight[x * n + i] = i32::from(layer.weights[i * layer.n_in + j]);
            }
        }
        let weight = |i: usize, x: usize| weight[x * n + i];
        // Σ_j w_ij · v_j over the inputs of `keep`, for the pieces on `coordinates`.
        let sum = |out: &mut [i32], coordinates: [i8; 6], wtm: bool, keep: &dyn Fn(usize) -> Option<i32>| {
            for (x, v) in inputs(input, coordinates, wtm) {
                if let Some(sign) = keep(x) {
                    for (i, o) in out.iter_mut().enumerate() {
                        *o += sign * weight(i, x) * v;
                    }
                }
            }
        };
        let (mut king_pawn, mut lone_king_pawn) = (vec![0; 64 * SLOTS * n], vec![0; 64 * SLOTS * n]);
        let mut x31 = vec![0i8; 64 * SLOTS];
        for sq in 0..64 {
            let (f, r) = ((sq % 8 + 1) as i8, (sq / 8 + 1) as i8);
            for slot in 0..SLOTS {
                let (pf, pr) = ((slot % 4 + 1) as i8, (slot / 4 + 2) as i8);
                let row = (slot * 64 + sq) * n;
                // The piece outside the group stands anywhere: its characteristics are not read.
                let a = &mut king_pawn[row..row + n];
                a.copy_from_slice(&layer.biases);
                sum(a, [f, r, 1, 1, pf, pr], true, &|x| (group(x) == Group::KingPawn).then_some(1));
                let b = &mut lone_king_pawn[row..row + n];
                sum(b, [1, 1, f, r, pf, pr], true, &|x| (group(x) == Group::LoneKingPawn).then_some(1));
                // x30 = x27 − x28: w · x27 goes to A, −w · x28 to B.
                let x27 = i32::from(characteristics([f, r, 1, 1, pf, pr], true)[26]);
                let x28 = i32::from(characteristics([1, 1, f, r, pf, pr], true)[27]);
                for i in 0..n {
                    king_pawn[row + i] += weight(i, 30) * x27;
                    lone_king_pawn[row + i] -= weight(i, 30) * x28;
                }
                x31[slot * 64 + sq] = characteristics([1, 1, f, r, pf, pr], true)[30];
            }
        }
        let mut kings = vec![0; OFFSETS * n];
        for (k, out) in kings.chunks_exact_mut(n).enumerate() {
            let (dx, dy, side) = ((k / 30) as i8 - 7, (k / 2 % 15) as i8 - 7, k % 2);
            // Kings with the offset (x7, x8) = (dx, dy) on the board.
            let (x3, x4) = (1 + (-dx).max(0), 1 + (-dy).max(0));
            sum(out, [x3 + dx, x4 + dy, x3, x4, 1, 2], side == 0, &|x| {
                (group(x) == Group::Kings).then_some(1)
            });
        }
        let w32 =
            if xs(input).any(|x| x == 32) { (0..n).map(|i| weight(i, 32)).collect() } else { Vec::new() };
        FirstLayer { n, king_pawn, lone_king_pawn, kings, x31, w32 }
    }

    /// The first layer's sums for `p` into `acc[..n]`.
    #[inline]
    pub fn sums(&self, p: &Position, acc: &mut [i32]) {
        let (wk, bk, wp) = p.squares();
        let (wk, bk, wp) = (wk.index(), bk.index(), wp.index());
        let slot = (wp / 8 - 1) * 4 + wp % 8;
        let side = usize::from(!p.white_to_move());
        let (dx, dy) = ((wk % 8) as isize - (bk % 8) as isize, (wk / 8) as isize - (bk / 8) as isize);
        let k = (((dx + 7) * 15 + dy + 7) * 2) as usize + side;
        let n = self.n;
        let a = &self.king_pawn[(slot * 64 + wk) * n..][..n];
        let b = &self.lone_king_pawn[(slot * 64 + bk) * n..][..n];
        let c = &self.kings[k * n..][..n];
        for (((o, &a), &b), &c) in acc[..n].iter_mut().zip(a).zip(b).zip(c) {
            *o = a + b + c;
        }
        if !self.w32.is_empty() && wk % 8 != wp % 8 && self.x31[slot * 64 + bk] > X32_MARGIN[side] {
            for (o, &w) in acc[..n].iter_mut().zip(&self.w32) {
                *o += w;
            }
        }
    }
}

/// The first layer's sums the plain way (the reference the tables must equal).
#[cfg(test)]
fn plain(input: Input, layer: &Layer, p: &Position, acc: &mut [i32]) {
    let mut x = [0i16; crate::net::MAX_WIDTH];
    input.write(p, &mut x[..input.width()]);
    for (i, o) in acc[..layer.n_out].iter_mut().enumerate() {
        let row = &layer.weights[i * layer.n_in..(i + 1) * layer.n_in];
        *o = layer.biases[i] + row.iter().zip(&x).map(|(&w, &v)| i32::from(w) * i32::from(v)).sum::<i32>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table4::N_FEATURES;

    /// Each characteristic reads only its group's pieces, on every placement of coordinates.
    #[test]
    fn each_characteristic_reads_only_its_groups_pieces() {
        let c = |i: usize| (i % 8 + 1) as i8;
        for code in 0..8usize.pow(6) {
            let k: [i8; 6] = core::array::from_fn(|d| c(code / 8usize.pow(d as u32)));
            for wtm in [true, false] {
                let f = characteristics(k, wtm);
                let moved_bk = characteristics([k[0], k[1], 5, 7, k[4], k[5]], !wtm);
                let moved_wk = characteristics([3, 2, k[2], k[3], k[4], k[5]], !wtm);
                let (dx, dy) = (k[0] - k[2], k[1] - k[3]);
                let (x3, x4) = (1 + (-dx).max(0), 1 + (-dy).max(0));
                let moved_all = characteristics([x3 + dx, x4 + dy, x3, x4, 2, 5], wtm);
                for x in 1..=N_FEATURES {
                    let same = match group(x) {
                        Group::KingPawn => f[x - 1] == moved_bk[x - 1],
                        Group::LoneKingPawn => f[x - 1] == moved_wk[x - 1],
                        Group::Kings => f[x - 1] == moved_all[x - 1],
                        Group::Split => f[29] == f[26] - f[27],
                        Group::AllThree => {
                            f[31] == i8::from(f[17] > 0 && f[30] > X32_MARGIN[usize::from(!wtm)])
                        }
                    };
                    assert!(same, "x{x} at {k:?}, white to move {wtm}");
                }
            }
        }
    }

    /// The tables give the plain sums on every legal position, for every input function.
    #[test]
    fn the_tables_give_the_plain_sums_on_every_legal_position() {
        let all = (1u64 << SIDE_TO_MOVE) - 1;
        let inputs =
            [Input::Coordinates, Input::Features { mask: all }, Input::Features { mask: 1 << 31 | 1 << 29 }];
        for input in inputs {
            let w = input.width();
            let weights = (0..w * 5).map(|i| ((i * 37 + 11) % 29) as i16 - 14).collect();
            let layer = Layer { n_in: w, n_out: 5, shift: 0, weights, biases: vec![3, -7, 0, 120, -5] };
            let t = FirstLayer::new(input, &layer);
            let (mut a, mut b) = ([0i32; 5], [0i32; 5]);
            for p in Position::all() {
                t.sums(&p, &mut a);
                plain(input, &layer, &p, &mut b);
                assert_eq!(a, b, "{input:?} at {}", p.index());
            }
        }
    }
}
