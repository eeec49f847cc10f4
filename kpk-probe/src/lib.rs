//! Exact KPK win/draw answers from a kpk hybrid model file (`models/kpk.hybrid`): a small
//! integer net (format versions 1 and 2) or a decision tree over Table 4's characteristics
//! (version 3) plus the table of the positions it gets wrong.
//!
//! No dependencies, `no_std` with `alloc`, no global state: a [`Model`] is immutable once
//! loaded, so one model answers from any number of threads.
//!
//! ```
//! use kpk_probe::{Color, Model, Outcome, Probe, Square};
//! let model = Model::from_bytes(include_bytes!("../../models/kpk.hybrid")).unwrap();
//! // White: Kb3, Pb2; Black: Kg1; White to move. The pawn side wins.
//! let a = model.probe_fen("8/8/8/8/8/1K6/1P6/6k1 w - - 0 1").unwrap();
//! assert_eq!(a.outcome, Outcome::Win);
//! // The same by squares (a1 = 0, b1 = 1, …, h8 = 63).
//! let sq = |n| Square::new(n).unwrap();
//! let b = model.probe_squares(sq(17), sq(6), sq(9), Color::White, Color::White).unwrap();
//! assert_eq!(a, b);
//! ```
//!
//! Loading decodes the file and builds the net's first layer as tables (see [`first_layer`]):
//! `(2 · 64 · 24 + 450) · n` 32-bit words for `n` first-layer neurons, 337 KB for the committed
//! model's 24 (`kpk bench --what query` measures the load), and a 24 KB bit set of the exceptions. A query then
//! adds three table rows, runs the small upper layers and tests one bit; the answer is the plain
//! integer net's on every machine, since integer sums are exact in any order.
//!
//! A version-2 file ([`Coverage::PawnSideToMove`]) answers the positions with the lone king to
//! move by the one-ply rule over its other answers; loading computes those answers once (the net
//! on every position with the pawn side to move, then the rule), a 24 KB bit set, so such a query
//! is one bit.
//!
//! A version-3 file ([`tree`]) holds a decision tree in place of the net; loading answers every
//! legal position once (the tree on the positions with the pawn side to move, corrected by the
//! exceptions, then the one-ply rule), a 24 KB bit set, so every query is one bit.
//!
//! The KRK model ([`krk`], `models/krk.hybrid`) answers king and rook against king's distance to
//! mate for every legal position, both sides to move, from a value tree and its corrections.
//!
//! The crate is also kpk's chess core: squares and colours ([`square`]), legality, the canonical
//! orientation and the position numbering ([`position`]) and the FEN grammar ([`fen`]) are
//! defined here once, and kpk, this crate's C ABI and its answers share them.
//!
//! The file format is specified in the kpk crate's `src/hybrid/format.md` (printed in
//! `reports/COMPRESSION.md`), the position numbering in [`position`], the arithmetic in [`net`],
//! the bit stream in [`bits`] and the characteristics in [`table4`].
#![no_std]
#![forbid(unsafe_code)]
extern crate alloc;

pub mod bits;
pub mod dtz;
pub mod fen;
pub mod first_layer;
pub mod input;
pub mod krk;
pub mod lazy;
pub mod magic;
pub mod model;
pub mod net;
pub mod position;
pub mod probe;
pub mod quote;
pub mod square;
pub mod table4;
pub mod tree;
pub mod value_tree;

pub use dtz::DtzModel;
pub use fen::{FenError, Material};
pub use input::Input;
pub use lazy::Lazy;
pub use model::{Answer, Coverage, FormatError, Learner, Model, Source};
pub use position::{Illegal, MAX_INDEX, Outcome, Position, Transform};
pub use probe::Probe;
pub use square::{BadSquare, Color, Square};
