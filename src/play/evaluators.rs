//! The evaluators of the match (section 6: "How successfully would the MLPs have played as White
//! (evaluating btm-positions) or Black (evaluating wtm-positions) against perfect play"): each is
//! a value of every legal position from the pawn side's point of view ([`Values`]).
//!
//! - **NN6**: Table 5's win/draw net 32-32-5-2 (trial 38's config, trained on T3) for wtm
//!   positions and the same config trained on every btm position for btm positions; the value is
//!   (y1 − y2 + 1)/2, the win output against the draw output.
//! - **hybrid net**: an exact hybrid's own quantised net alone: its output sum, positive for a win
//!   (its confidence), exceptions not consulted. The match trains the hybrid of each seed as
//!   `kpk compress` trains the candidate it ships as `models/kpk-net.hybrid` ([`HybridRecipe`](crate::hybrid::compress::HybridRecipe)).
//! - **hybrid**: the exact hybrid's answer (a win above every draw), the net's output breaking
//!   ties among positions of one result.
//! - **depth nets** ([`super::depth`]): a net's estimate of nearness to conversion.

use super::depth::DepthNets;
use super::results::PlayerKind;
use crate::chess::bitbase::Bitbase;
use crate::chess::position::KpkPosition;
use crate::chess::search::Values;
use crate::dataset::{SetName, Side};
use crate::error::Result;
use crate::experiment::{config::Trial, run::run_trial};
use crate::hybrid::Hybrid;
use crate::net::mlp::Mlp;
use crate::paper::coding::InputCoding;
use crate::paper::features::features;
use kpk_probe::{Color, Outcome};

/// The Table 5 trial whose config trains the NN6 evaluators: 32-32-5-2 on T3.
pub const NN6_TRIAL: &str = "experiments/table5/trial38.toml";

/// The compress config whose first candidate the match trains as the hybrid of each seed.
pub const HYBRID_CONFIG: &str = "experiments/compress.toml";

/// A win/draw net per side to move, with the input coding both were trained on, and each net's
/// training accuracy (%) and epochs run (wtm first).
pub struct SideNets {
    pub wtm: Mlp,
    pub btm: Mlp,
    pub coding: InputCoding,
    pub accuracy_pct: [f64; 2],
    pub epochs: [usize; 2],
}

/// Train NN6 for each side to move from `trial` (trial 38's config): as given on T3 for wtm, and
/// with side and training set `btm` for btm. Both run at once; each is seeded by the config.
pub fn train_nn6(trial: &Trial, bb: &Bitbase) -> Result<SideNets> {
    let mut btm = trial.config.clone();
    (btm.name, btm.side, btm.training_set, btm.testing_set) =
        (format!("{}_btm", btm.name), Side::Btm, SetName::Btm, None);
    let btm = btm.check()?;
    let (w, b) = rayon::join(|| run_trial(trial, bb, &mut |_| {}), || run_trial(&btm, bb, &mut |_| {}));
    let (w, b) = (w?, b?);
    Ok(SideNets {
        accuracy_pct: [w.summary.train_accuracy_pct, b.summary.train_accuracy_pct],
        epochs: [w.summary.epochs, b.summary.epochs],
        wtm: w.net,
        btm: b.net,
        coding: trial.config.input_coding,
    })
}

/// A win/draw net's value of `p`: the win output, or (y1 − y2 + 1)/2 with two outputs.
fn net_value(net: &Mlp, coding: InputCoding, p: &KpkPosition) -> f64 {
    let mut x = vec![0.0; coding.width()];
    coding.encode(&features(p), &mut x);
    let mut y = vec![0.0; net.n_outputs()];
    net.forward(&x, &mut y);
    if y.len() == 2 { (y[0] - y[1] + 1.0) / 2.0 } else { y[0] }
}

/// The NN6 evaluator's name in the report.
pub const NN6_NAME: &str = "NN6";

/// The NN6 evaluator: each side's net on its side's positions.
pub fn nn6(nets: &SideNets) -> Result<Values> {
    Values::new(NN6_NAME, |p| {
        let net = if p.side() == Color::White { &nets.wtm } else { &nets.btm };
        net_value(net, nets.coding, p)
    })
}

/// The hybrid net's name in the report.
pub const HYBRID_NET_NAME: &str = "hybrid net";

/// The hybrid's quantised net alone: its output sum (win iff positive).
pub fn hybrid_net(hybrid: &Hybrid) -> Result<Values> {
    Values::new(HYBRID_NET_NAME, |p| f64::from(hybrid.net_output(p)))
}

/// The exact hybrid's name in the report.
pub const HYBRID_NAME: &str = "hybrid";

/// The exact hybrid, the net's output breaking ties: a won position is worth 1, a drawn one −1,
/// plus the net's output sum clamped to ±2^16 and divided by 2^17 (so within ±½, and the result
/// decides; `models/kpk-net.hybrid`'s sums lie in −27,834..38,211, so none of its is clamped).
pub fn hybrid_exact(hybrid: &Hybrid) -> Result<Values> {
    const CLAMP: i32 = 1 << 16;
    Values::new(HYBRID_NAME, |p| {
        let win = hybrid.classify(p).outcome == Outcome::Win;
        f64::from(hybrid.net_output(p).clamp(-CLAMP, CLAMP)) / f64::from(2 * CLAMP)
            + if win { 1.0 } else { -1.0 }
    })
}

/// Section 2's agent for Cp, which knows the won positions of DTC ≤ `k` and their depth and
/// nothing else: such a position is worth 1 − DTC/100, every other (a longer win or a draw) 0.
/// Its one-ply player wins all of C(k + 1) by construction; with q plies of search below the move
/// the claim is that it wins all of C(k + 1 + q).
pub fn cp_oracle(bb: &Bitbase, k: u8) -> Result<Values> {
    Values::new(format!("Cp oracle, k = {k}"), |p| match bb.dtc(p) {
        Some(d) if d.0 <= k => 1.0 - f64::from(d.0) / 100.0,
        _ => 0.0,
    })
}

/// `v` with 0, 1, …, `max_q` plies of search below the move.
pub fn ladder(v: Values, max_q: u32) -> Vec<Values> {
    let mut ladder = vec![v];
    for _ in 0..max_q {
        let deeper = ladder.last().expect("not empty").deepened();
        ladder.push(deeper);
    }
    ladder
}

/// The evaluators trained in one replicate, each of its kind and with 0, 1, …, `max_q` plies of
/// search below the move: NN6, the hybrid's net, the hybrid, then each depth net.
pub fn trained_ladders(
    nets: &SideNets,
    hybrid: &Hybrid,
    depth: &[DepthNets],
    max_q: u32,
) -> Result<Vec<(PlayerKind, Vec<Values>)>> {
    let mut evaluators = vec![
        (PlayerKind::Evaluator, nn6(nets)?),
        (PlayerKind::Evaluator, hybrid_net(hybrid)?),
        (PlayerKind::Evaluator, hybrid_exact(hybrid)?),
    ];
    for d in depth {
        evaluators.push((PlayerKind::DepthEvaluator, d.values()?));
    }
    Ok(evaluators.into_iter().map(|(kind, v)| (kind, ladder(v, max_q))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::after;

    #[test]
    fn the_hybrid_evaluator_never_throws_a_result_away_in_one_move() {
        let bb = Bitbase::generate();
        let hybrid =
            Hybrid::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/models/kpk-net.hybrid")))
                .unwrap();
        let values = hybrid_exact(&hybrid).unwrap();
        for p in KpkPosition::all() {
            let must = matches!(
                (p.side(), bb.outcome(&p)),
                (Color::White, Outcome::Win) | (Color::Black, Outcome::Draw)
            );
            if let (true, Some((mv, _))) = (must, values.best(&p)) {
                assert_eq!(after(&bb, &p, mv).0, bb.outcome(&p), "{} plays {mv:?}", p.to_fen());
            }
        }
    }
}
