//! `reports/DTZ.md`: the DTZ model's frontier (tree bytes against corrections), the chosen file
//! beside Syzygy's KPvK files, and the DTZ distribution, from a `kpk compress-dtz` run.

use crate::hybrid::value_tree::Candidate;
use crate::template::Engine;
use serde::Serialize;

const TEMPLATE: &str = include_str!("templates/dtz.md.j2");

/// Syzygy's KPvK files as distributed (bytes): the WDL table and the DTZ table, which stores one
/// side to move.
pub const SYZYGY_RTBW: usize = 7_824;
pub const SYZYGY_RTBZ: usize = 4_176;

/// One frontier row.
#[derive(Serialize)]
pub struct Row {
    pub c: f64,
    pub bytes: usize,
    pub leaves: usize,
    pub tree_bytes: u64,
    pub corrections: usize,
    pub correction_bytes: u64,
    pub wrong: usize,
    pub chosen: bool,
}

/// What the report is filled from.
#[derive(Serialize)]
pub struct DtzReport {
    pub rows: Vec<Row>,
    pub embedded: usize,
    pub hard: usize,
    pub chosen_bytes: usize,
    pub chosen_corrections: usize,
    pub rtbw: usize,
    pub rtbz: usize,
    /// `(side, dtz, positions)` over every legal position.
    pub histogram: Vec<(String, i32, usize)>,
    /// Positions where a stored python-chess dump disagrees, when one was given.
    pub syzygy_checked: Option<(usize, usize)>,
    /// The play model beside the DTZ model, when it was given.
    pub play: Option<PlayBeside>,
}

/// Whether the play model's moves give DTZ: how often its move is DTZ-optimal, and its bytes.
#[derive(Serialize)]
pub struct PlayBeside {
    /// Won positions with the pawn side to move.
    pub won: usize,
    /// Those where the play model's (DTC-optimal) move is also DTZ-optimal.
    pub dtz_optimal: usize,
    /// Those where DTZ equals DTC.
    pub dtz_is_dtc: usize,
    pub play_bytes: usize,
    /// The play model's bytes less its embedded win/draw model.
    pub play_moves_bytes: usize,
}

impl DtzReport {
    pub fn new(cands: &[Candidate], chosen: usize, embedded: usize, hard: usize) -> DtzReport {
        let rows = cands
            .iter()
            .enumerate()
            .map(|(i, c)| Row {
                c: c.c,
                bytes: c.bytes.len(),
                leaves: c.leaves,
                tree_bytes: c.tree_bits.div_ceil(8),
                corrections: c.corrections,
                correction_bytes: c.correction_bits.div_ceil(8),
                wrong: c.wrong,
                chosen: i == chosen,
            })
            .collect();
        DtzReport {
            rows,
            embedded,
            hard,
            chosen_bytes: cands[chosen].bytes.len(),
            chosen_corrections: cands[chosen].corrections,
            rtbw: SYZYGY_RTBW,
            rtbz: SYZYGY_RTBZ,
            histogram: Vec::new(),
            syzygy_checked: None,
            play: None,
        }
    }

    pub fn render(&self) -> crate::error::Result<String> {
        Engine::new()
            .template("dtz.md", TEMPLATE)
            .and_then(|e| e.render("dtz.md", self))
            .map_err(crate::error::Error::from)
    }
}
