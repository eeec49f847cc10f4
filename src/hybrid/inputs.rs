//! What the stored net sees of a position: an input function computed by code, so it costs
//! nothing in the model file beyond the byte (and mask) that names it.

use crate::board::Color;
use crate::position::KpkPosition;

/// The input functions a model file may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFunction {
    /// Seven integers: file and rank (1-based) of the white king, the black king and the pawn,
    /// then the side to move (0 White, 1 Black). These are Table 4's level-0 characteristics
    /// x1..x6 plus the side to move.
    Coordinates,
}

impl InputFunction {
    /// The byte that names this function in the model file.
    pub fn id(self) -> u8 {
        match self {
            InputFunction::Coordinates => 0,
        }
    }

    pub fn from_id(id: u8) -> Option<InputFunction> {
        match id {
            0 => Some(InputFunction::Coordinates),
            _ => None,
        }
    }

    /// Number of inputs.
    pub fn width(self) -> usize {
        match self {
            InputFunction::Coordinates => 7,
        }
    }

    /// Largest magnitude of any input on a legal position (for the overflow proof).
    pub fn bound(self) -> i32 {
        match self {
            InputFunction::Coordinates => 8,
        }
    }

    /// Write the inputs of `p` into `out[..width()]`.
    #[inline]
    pub fn write(self, p: &KpkPosition, out: &mut [i32]) {
        match self {
            InputFunction::Coordinates => {
                let c = |v: u8| i32::from(v) + 1;
                out[..7].copy_from_slice(&[
                    c(p.wk().file()),
                    c(p.wk().rank()),
                    c(p.bk().file()),
                    c(p.bk().rank()),
                    c(p.wp().file()),
                    c(p.wp().rank()),
                    i32::from(p.side() == Color::Black),
                ]);
            }
        }
    }
}
