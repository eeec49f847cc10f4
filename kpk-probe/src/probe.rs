//! One interface for every way of answering win/draw ([`Probe`]): the expanded [`Model`] and the
//! lazy path ([`crate::Lazy`]) answer a canonical position, and the other ways of asking are
//! written once here.

use crate::model::{Answer, Model};
use crate::position::{Illegal, Position};
use crate::square::{Color, Square};

/// What answers win/draw for a canonical position: the expanded [`Model`] and the lazy path
/// ([`crate::Lazy`]); the other ways of asking are written once here.
pub trait Probe {
    /// The exact answer for `p`, from the pawn side's point of view.
    fn probe(&self, p: &Position) -> Answer;

    /// The answer for a white king, a black king and a pawn of `pawn_color` on the given
    /// squares, `side_to_move` to play; from the pawn side's point of view.
    fn probe_squares(
        &self,
        white_king: Square,
        black_king: Square,
        pawn: Square,
        pawn_color: Color,
        side_to_move: Color,
    ) -> Result<Answer, Illegal> {
        Ok(self.probe(&Position::oriented(white_king, black_king, pawn, pawn_color, side_to_move)?.0))
    }
}

impl Probe for Model {
    fn probe(&self, p: &Position) -> Answer {
        Model::probe(self, p)
    }
}
