//! # kpk
//!
//! King and pawn versus king (KPK) learned by neural networks: a reproduction of Haworth &
//! Velliste, *Chess Endgames and Neural Networks*, ICCA Journal 21(4), 1998, and beyond.
//!
//! Data flows one way through the modules, each folder one stage:
//!
//! ```text
//! chess/    board ─► position ─► index ─► bitbase     retrograde analysis: outcome + depth to
//!                       │                    │         conversion (probe: every move's result)
//! paper/                └─► features ─► coding         Table 4's x1..x32, section 4.2's codings
//!                                          │           (tables: the paper's reference numbers)
//! dataset                               dataset        section 4.5's sets T1..T5, S1, S2
//!                                          │
//! net/      mlp (model, export) ◄── train/ ◄┘          section 3's net, section 4.5's trainer
//!                 │                   │
//! experiment/     └──► experiment ◄───┘                Table 5's trials as TOML configs → runs
//!                          │
//! analysis/                ├─► reproduction ─► report/reproduction   REPRODUCTION.md: Tables 2,
//!                          │   (domain, table5, section51, gap)        3, 5, 6, Figure 3
//! study/                   └─► study ─► analysis/studies ─► report/studies   section 6's
//!                                                                questions: STUDIES.md
//!
//! hybrid/   net + residual exceptions, exact ─► report/compression   uses paper/, net/, train/,
//!                                                                    experiment/ (config parsing)
//! learners/ section 7's learners, the shipped tree ─► LEARNERS.md    uses experiment/, hybrid/
//! play/     players, matches, the play model ─► report/play          uses hybrid/, chess/, and
//!                                                  experiment/, net/, train/ to train its evaluators
//! serve/    the explorer on 127.0.0.1         uses chess/, paper/, net/, train/, hybrid/, play/,
//!                                             report/diagram
//!
//! analysis/ a report's run and analysis into typed results (`analysis::Analysis`) ─► report/
//! report/   the driver (`report::driver::drive`), rendering: templates, figures ◄── analysis/
//! ```
//!
//! Every report goes through one driver (`report::driver`): an `analysis::Analysis` writes typed
//! results as committed JSON, its `report::driver::Report` renders them by templates
//! (`report/templates/`). docs/ARCHITECTURE.md maps the stages and where new
//! work goes.
//!
//! Tools below every stage: `stats` (intervals, paired and clustered contrasts, Holm), `figures`
//! (charts and SVG to PNG with the bundled font), `io` (file reads), `output` (the
//! output policy: what kpk may replace, atomic writes, temporaries) and `error` (typed errors). The library never prints; the
//! `kpk` binary (`src/cli/`) is the only place that does.

pub mod analysis;
pub mod chess;
pub mod dataset;
pub mod error;
pub mod experiment;
pub mod figures;
pub mod hybrid;
pub mod io;
pub mod learners;
pub mod net;
pub mod output;
pub mod paper;
pub mod play;
pub mod report;
#[doc(hidden)]
pub mod scratch;
pub mod serve;
pub mod stats;
pub mod study;
pub mod template;
pub mod train;

pub use chess::bitbase::{Bitbase, Dtc};
pub use chess::index::KpkIndex;
pub use chess::position::{KpkPosition, Oriented};
pub use error::{Error, Result};
pub use kpk_probe::{Color, Outcome, Square};
