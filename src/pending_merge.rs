//! Temporary stand-ins for the `features` branch's API (notes/api.md), so the experiments
//! branch builds before that branch lands. Deleted when `main` brings the real ones.

use crate::coding::InputCoding;

impl InputCoding {
    /// Number of network inputs this coding produces.
    pub fn width(self) -> usize {
        match self {
            InputCoding::Natural | InputCoding::Scaled => 32,
            InputCoding::Binary => 92,
            InputCoding::Onehot => 180,
        }
    }
}
