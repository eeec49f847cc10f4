//! What the net sees of a position: the input function (the paper's section 3 coordinates, or a
//! choice of Table 4's characteristics and the side to move) and its integer values.

use crate::position::Position;
use crate::table4::{BOUND, N_FEATURES, characteristics};

/// The side-to-move input's number (after Table 4's x1..x32).
pub const SIDE_TO_MOVE: usize = N_FEATURES + 1;

/// What the net sees of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Seven integers: x1..x6 (file and rank, 1-based, of the pawn side's king, the lone king and
    /// the pawn, canonical orientation) and the side to move (0 = the pawn side, 1 = the lone king).
    Coordinates,
    /// The chosen x of Table 4's x1..x32 and x33 = the side to move (0 = the pawn side, 1 = the
    /// lone king), in increasing x; bit `x − 1` of the mask is set when `x` is an input. Each
    /// input is the characteristic's natural integer value.
    Features { mask: u64 },
}

impl Input {
    /// Number of inputs.
    #[must_use]
    pub fn width(self) -> usize {
        match self {
            Input::Coordinates => 7,
            Input::Features { mask } => mask.count_ones() as usize,
        }
    }

    /// Largest magnitude of any input on a legal position (for the overflow proof).
    #[must_use]
    pub fn bound(self) -> i32 {
        BOUND
    }

    /// Write the inputs of `p` into `out[..width()]`.
    #[inline]
    pub fn write(self, p: &Position, out: &mut [i16]) {
        let side = i16::from(!p.white_to_move());
        match self {
            Input::Coordinates => {
                for (o, &c) in out.iter_mut().zip(&p.coordinates()) {
                    *o = i16::from(c);
                }
                out[6] = side;
            }
            Input::Features { mask } => {
                let f = characteristics(p.coordinates(), p.white_to_move());
                let mut rest = mask;
                let mut k = 0;
                while rest != 0 {
                    let x = rest.trailing_zeros() as usize; // x + 1 is the Table 4 number
                    out[k] = if x < N_FEATURES { i16::from(f[x]) } else { side };
                    k += 1;
                    rest &= rest - 1;
                }
            }
        }
    }
}
