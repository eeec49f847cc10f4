//! The domain in numbers (section 2): kpk's exact counts from the bitbase for the paper's Table 2
//! (counts of positions, by source) and Table 3 (wins converted in exactly p plies).

use crate::chess::bitbase::{Bitbase, MAX_DTC};
use crate::paper::table2::{self, Figure, RowKey};
use serde::{Deserialize, Serialize};

/// kpk's exact counts beside the paper's Tables 2 and 3.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Domain {
    /// kpk's value for each row of Table 2 that kpk counts (serialised by the row's name).
    pub table2: Vec<(RowKey, f64)>,
    /// Table 3, p = 1 ..= 38.
    pub table3: Vec<Table3Row>,
}

impl Domain {
    /// kpk's value for a row of the paper's Table 2, where kpk counts that figure.
    pub fn ours(&self, row: RowKey) -> Option<f64> {
        self.table2.iter().find(|&&(r, _)| r == row).map(|&(_, v)| v)
    }
}

/// One row of Table 3 for both sides to move ([wtm, btm]): the won positions converted in exactly
/// `p` plies with best play (Np), and the % of all wins not converted within `p` plies (Rp).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table3Row {
    pub p: usize,
    pub converted: [usize; 2],
    pub remaining_pct: [f64; 2],
}

/// Table 3 for p = 1 ..= 38 (the deepest win), both sides to move.
pub fn table3(bb: &Bitbase) -> Vec<Table3Row> {
    let n = bb.dtc_histogram();
    let wins = [n[0].iter().sum::<usize>(), n[1].iter().sum::<usize>()];
    let mut done = [0usize; 2];
    (1..=MAX_DTC as usize)
        .map(|p| {
            let mut remaining_pct = [0.0; 2];
            for s in 0..2 {
                done[s] += n[s][p];
                remaining_pct[s] = 100.0 * (wins[s] - done[s]) as f64 / wins[s] as f64;
            }
            Table3Row { p, converted: [n[0][p], n[1][p]], remaining_pct }
        })
        .collect()
}

/// kpk's side of Tables 2 and 3, counted on the bitbase.
pub fn analyse(bb: &Bitbase) -> Domain {
    let table2 = table2::table2().rows.iter().filter_map(|r| Some((r.key, count(bb, r.key)?))).collect();
    Domain { table2, table3: table3(bb) }
}

/// kpk's value for a row of the paper's Table 2, where kpk counts that figure.
fn count(bb: &Bitbase, row: RowKey) -> Option<f64> {
    let c = bb.counts();
    let side = row.side;
    Some(match row.figure {
        Figure::Positions => c.positions(side) as f64,
        Figure::Wins => c.wins(side) as f64,
        Figure::WinsPct => (1000.0 * c.wins(side) as f64 / c.positions(side) as f64).round() / 10.0,
        Figure::Draws => c.draws(side) as f64,
        Figure::WinsByRunningThePawn => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpk_probe::Color;

    #[test]
    fn table3_counts_every_win_once_and_ends_at_the_deepest() {
        let bb = Bitbase::generate();
        let rows = table3(&bb);
        let c = bb.counts();
        for (s, side) in [Color::White, Color::Black].into_iter().enumerate() {
            assert_eq!(rows.iter().map(|r| r.converted[s]).sum::<usize>(), c.wins(side));
            assert_eq!(rows.last().unwrap().remaining_pct[s], 0.0);
        }
        // Wins convert in an odd number of plies with White to move, an even one with Black.
        assert!(rows.iter().all(|r| r.converted[r.p % 2] == 0));
        // The deepest wins are Table 1's positions 1 and 2: 37 plies wtm, 38 btm.
        assert!(rows[36].converted[0] > 0 && rows[37].converted[1] > 0);
    }
}
