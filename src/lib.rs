//! # kpk
//!
//! King and pawn versus king (KPK) learned by neural networks: a reproduction of Haworth &
//! Velliste, *Chess Endgames and Neural Networks*, ICCA Journal 21(4), 1998, and beyond.
//!
//! Data flows one way through the modules:
//!
//! ```text
//! board ─► position ─► index ─► bitbase        retrograde analysis: outcome + depth to conversion
//!             │                    │            (probe: a position and every move's result)
//!             └─► features ─► coding ─► dataset        Table 4's x1..x32, section 4.2's codings,
//!                                          │           section 4.5's sets T1..T5, S1, S2
//!                          mlp ◄─ train ◄──┘           section 3's net, section 4.5's trainer
//!                           │                          (model: trained nets as checked JSON)
//!          experiment ─► report, plot, export          Table 5's trials, REPRODUCTION.md
//!                           │
//!                        hybrid                        net + residual exceptions, exact (section 5.1)
//! ```
//!
//! `paper` holds the paper's reference tables; `io` atomic writes and CRC-32; `error` the typed
//! errors. The library never prints; the `kpk` binary (`src/cli/`) is the only place that does.

pub mod bitbase;
pub mod board;
pub mod coding;
pub mod dataset;
pub mod error;
pub mod experiment;
pub mod export;
pub mod features;
pub mod hybrid;
pub mod index;
pub mod io;
pub mod mlp;
pub mod model;
pub mod paper;
pub mod plot;
pub mod position;
pub mod probe;
pub mod report;
pub mod train;

pub use bitbase::{Bitbase, Dtc};
pub use board::{Color, Square};
pub use error::{Error, Result};
pub use index::KpkIndex;
pub use position::{KpkPosition, Oriented, Outcome};
