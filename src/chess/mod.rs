//! The chess core: squares and attacks, KPK positions and FEN, the dense index over every legal
//! position, the exact bitbase by retrograde analysis, probing a position's moves, and searching
//! them over an evaluator's values.
//!
//! Nothing here knows about the paper or about networks; everything above stands on it.

pub mod bitbase;
pub mod board;
pub mod dtm;
pub mod dtz;
pub mod endgame;
pub mod index;
pub mod pawnless;
pub mod position;
pub mod probe;
pub mod search;
