//! Depth nets: section 6 asks "How would MLPs have performed if tested on position value and depth
//! instead of just value?". A depth net predicts the depth to conversion (DTC, plies) of a won
//! position through a target that falls with DTC; one net per side to move is trained on every
//! position of its side, a drawn position at the target's value for no conversion (0), so that as
//! an evaluator it also ranks draws below wins.
//!
//! Two targets: the paper's suggestion 1 − ln(d + 4)/4 (section 6), which spends its range on short
//! wins, and ours, 1 − d/50, linear in DTC (KPK's longest win is 38 plies; both reach 0 near
//! d = 50). A prediction y is read back as the DTC whose target is y, rounded to a whole ply.

use crate::chess::bitbase::{Bitbase, MAX_DTC};
use crate::chess::position::KpkPosition;
use crate::chess::search::Values;
use crate::error::Result;
use crate::net::mlp::Mlp;
use crate::paper::coding::InputCoding;
use crate::paper::features::features;
use crate::train::{config::Optimiser, values::fit_values};
use kpk_probe::Color;
use ndarray::Array2;

/// The depth nets' topology (NN5's size, 3,433 weights), epochs, first seed and learning rate
/// (ours). Replicate r of the match trains with seed `SEED + r · SEED_STRIDE`, as Table 5's
/// replicates do ([`crate::experiment::replicate`]).
pub const TOPOLOGY: [usize; 4] = [32, 64, 20, 1];
pub const EPOCHS: usize = 100;
pub const SEED: u64 = 6;
pub const LEARNING_RATE: f64 = 0.03;

/// The optimiser that trains the depth nets, and that the match's report describes: the paper's
/// online descent (section 4.5), whose arithmetic is the same on every machine, so the report is
/// too.
pub fn optimiser() -> Optimiser {
    Optimiser::online(LEARNING_RATE)
}

/// How DTC becomes a net's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthTarget {
    /// 1 − ln(d + 4)/4: section 6's suggestion.
    Log,
    /// 1 − d/50: ours.
    Linear,
}

impl DepthTarget {
    pub const ALL: [DepthTarget; 2] = [DepthTarget::Log, DepthTarget::Linear];

    pub fn name(self) -> &'static str {
        match self {
            DepthTarget::Log => "1 − ln(d + 4)/4",
            DepthTarget::Linear => "1 − d/50",
        }
    }

    /// The target of a won position of DTC `d`, or of a drawn one (`None`): 0.
    pub fn target(self, dtc: Option<u8>) -> f64 {
        let Some(d) = dtc.map(f64::from) else { return 0.0 };
        match self {
            DepthTarget::Log => 1.0 - (d + 4.0).ln() / 4.0,
            DepthTarget::Linear => 1.0 - d / 50.0,
        }
    }

    /// The DTC whose target is `y`, rounded to a whole ply.
    pub fn decode(self, y: f64) -> i32 {
        let d = match self {
            DepthTarget::Log => (4.0 * (1.0 - y)).exp() - 4.0,
            DepthTarget::Linear => 50.0 * (1.0 - y),
        };
        d.round() as i32
    }
}

/// A depth net per side to move, for one target.
pub struct DepthNets {
    pub target: DepthTarget,
    wtm: Mlp,
    btm: Mlp,
}

/// The natural inputs of a side's positions and their targets.
fn side_data(bb: &Bitbase, side: Color, target: DepthTarget) -> (Array2<f64>, Vec<f64>) {
    let positions: Vec<KpkPosition> = KpkPosition::all().filter(|p| p.side() == side).collect();
    let coding = InputCoding::Natural;
    let mut inputs = Array2::zeros((positions.len(), coding.width()));
    for (row, p) in inputs.rows_mut().into_iter().zip(&positions) {
        coding
            .encode(&features(p), row.into_slice().expect("rows of a standard-layout array are contiguous"));
    }
    let targets = positions.iter().map(|p| target.target(bb.dtc(p).map(|d| d.0))).collect();
    (inputs, targets)
}

impl DepthNets {
    /// Train both sides' nets for `target` (at once) with `seed` for `epochs` epochs ([`SEED`] and
    /// [`EPOCHS`] in the match's first replicate).
    pub fn train(bb: &Bitbase, target: DepthTarget, seed: u64, epochs: usize) -> Result<DepthNets> {
        let fit = |side: Color| -> Result<Mlp> {
            let (inputs, targets) = side_data(bb, side, target);
            let net = Mlp::new(&TOPOLOGY, 1.0, seed)?;
            Ok(fit_values(net, inputs.view(), &targets, optimiser(), epochs, seed)?.0)
        };
        let (wtm, btm) = rayon::join(|| fit(Color::White), || fit(Color::Black));
        Ok(DepthNets { target, wtm: wtm?, btm: btm? })
    }

    /// The net's output for `p` (higher: nearer conversion).
    pub fn output(&self, p: &KpkPosition) -> f64 {
        let net = if p.side() == Color::White { &self.wtm } else { &self.btm };
        let coding = InputCoding::Natural;
        let mut x = vec![0.0; coding.width()];
        coding.encode(&features(p), &mut x);
        let mut y = [0.0];
        net.forward(&x, &mut y);
        y[0]
    }

    /// The evaluator: the net's output.
    pub fn values(&self) -> Result<Values> {
        Values::new(format!("depth net {}", self.target.name()), |p| self.output(p))
    }

    /// How close the predicted DTC comes on every won position: by side (wtm, btm) and by DTC.
    pub fn accuracy(&self, bb: &Bitbase) -> DepthAccuracy {
        let mut a = DepthAccuracy {
            by_side: [Tally::default(); 2],
            by_dtc: vec![Tally::default(); MAX_DTC as usize + 1],
        };
        for p in KpkPosition::all() {
            let Some(d) = bb.dtc(&p).map(|d| d.0) else { continue };
            let error = (self.target.decode(self.output(&p)) - i32::from(d)).unsigned_abs();
            a.by_side[usize::from(p.side() == Color::Black)].add(error);
            a.by_dtc[usize::from(d)].add(error);
        }
        a
    }
}

/// Won positions, and how many had their DTC predicted exactly, within ±1 and within ±2 plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub positions: usize,
    pub exact: usize,
    pub within1: usize,
    pub within2: usize,
}

impl Tally {
    fn add(&mut self, error: u32) {
        self.positions += 1;
        self.exact += usize::from(error == 0);
        self.within1 += usize::from(error <= 1);
        self.within2 += usize::from(error <= 2);
    }
}

/// A depth net pair's accuracy: `by_side[0]` wtm, `[1]` btm; `by_dtc[d]` the won positions of DTC d.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthAccuracy {
    pub by_side: [Tally; 2],
    pub by_dtc: Vec<Tally>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_fall_with_depth_and_decode_back() {
        for t in DepthTarget::ALL {
            for d in 1..=MAX_DTC {
                let y = t.target(Some(d));
                assert!(y > t.target(Some(d + 1)) && y > t.target(None), "{t:?} {d}");
                assert_eq!(t.decode(y), i32::from(d), "{t:?} {d}");
            }
        }
        assert_eq!(DepthTarget::Log.target(Some(0)), 1.0 - 4f64.ln() / 4.0);
    }
}
