//! "The levers, measured one by one" in `reports/COMPRESSION.md`: what each way of shrinking the
//! exact hybrid is worth on the chosen model, every figure computed from the model and the run.
//! Quantisation-aware fine-tuning and the exceptions' confidence numbering are what the format and
//! `kpk compress` do; the one-ply rule and per-column Rice parameters are not in the format, so
//! their rows give the exact size a file would have with the same net (bits counted, no file
//! written).

use crate::Color as Side;
use crate::chess::index::KpkIndex;
use crate::chess::position::{KpkPosition, Outcome};
use crate::error::Result;
use crate::hybrid::bits::{best_rice, zigzag};
use crate::hybrid::compress::Candidate;
use crate::hybrid::{ExceptionOrder, ExceptionSet, Hybrid, covers};

/// Bits a per-column Rice parameter would take in a layer header (0..=24 fits 5 bits).
const RICE_PARAMETER_BITS: u64 = 5;

/// Positions the net answers that the rules settle at one ply, by kind, and the model's
/// exceptions among them.
struct OnePly {
    wins_at_once: usize,
    pawn_taken: usize,
    stalemates: usize,
    exceptions: Vec<u32>,
}

fn one_ply(model: &Hybrid) -> OnePly {
    let mut r = OnePly { wins_at_once: 0, pawn_taken: 0, stalemates: 0, exceptions: Vec::new() };
    for p in KpkPosition::all().filter(|p| covers(model.coverage(), p)) {
        let Some(outcome) = p.settled_at_one_ply() else { continue };
        match (outcome, p.moves().is_empty()) {
            (Outcome::Win, _) => r.wins_at_once += 1,
            (Outcome::Draw, true) => r.stalemates += 1,
            (Outcome::Draw, false) => r.pawn_taken += 1,
        }
        let i = KpkIndex::of(&p).value() as u32;
        if model.exceptions().contains(i) {
            r.exceptions.push(i);
        }
    }
    r
}

/// The first layer's weight bits with one Rice parameter for the layer (as stored) and with one per
/// input column, each column's parameter costing [`RICE_PARAMETER_BITS`].
fn first_layer_bits(model: &Hybrid) -> (u64, u64) {
    let l = &model.net().layers()[0];
    let column = |j: usize| (0..l.n_out).map(move |i| zigzag(l.weights[i * l.n_in + j].into()));
    let whole = best_rice((0..l.n_in).flat_map(column)).1;
    let per_column = (0..l.n_in).map(|j| RICE_PARAMETER_BITS + best_rice(column(j)).1).sum();
    (whole, per_column)
}

/// The levers table and a sentence on the levers not measured.
pub fn section(candidates: &[Candidate], model: &Hybrid) -> Result<String> {
    let best = &candidates[0];
    let total = model.sizes().total;
    let delta = |bytes: usize| format!("{:+}", bytes as i64 - total as i64);
    let mut t = String::from(
        "| lever | what is measured | file, bytes | against this model |\n|---|---|---:|---:|\n",
    );
    if let Some(q) = &best.qat {
        t += &format!(
            "| plain rounding | the same trained net rounded at the shifts that make the smallest file ({:?}), fine-tuned in integers | {} | {} |\n",
            q.plain_shifts,
            q.plain.total,
            delta(q.plain.total)
        );
        t += &format!(
            "| quantisation-aware fine-tuning: a coarser grid, so fewer bits per weight | tuned for shifts {:?} ({} rounded errors before, {} after, kept epoch {}), then as above{} | {} | {} |\n",
            q.target,
            q.tuned.errors_before,
            q.tuned.errors_after,
            q.tuned.epoch,
            if q.kept { "; **this model**" } else { "; not kept (plain rounding was smaller)" },
            total,
            delta(total)
        );
    }
    if best.lone_king_by_rule
        && let Some(joint) = candidates.iter().find(|c| !c.lone_king_by_rule)
    {
        t += &format!(
            "| the lone king's positions by the one-ply rule (format version 2) | the smallest candidate whose net answers both sides to move (format version 1): {}, seed {}; this model's net answers the {} positions with the pawn side to move, and a position with the lone king to move takes the rule's answer over them (computed at load) | {} | {} |\n",
            joint.topology,
            joint.seed,
            KpkPosition::all().filter(|p| covers(model.coverage(), p)).count(),
            joint.sizes.total,
            delta(joint.sizes.total)
        );
    }
    let confidence = model.to_bytes_in(ExceptionOrder::Confidence).1.total;
    t += &format!(
        "| exceptions numbered by the net's confidence | the same net and exceptions (loading then evaluates the net on every legal position) | {confidence} | {} |\n",
        delta(confidence)
    );
    let rules = one_ply(model);
    let rest: Vec<u32> =
        model.exceptions().indices().iter().copied().filter(|i| !rules.exceptions.contains(i)).collect();
    let ruled = Hybrid::with_coverage(
        model.input(),
        model.net().clone(),
        ExceptionSet::new(rest).expect("legal"),
        model.coverage(),
    )?;
    let by_side = |side: Side| {
        rules.exceptions.iter().filter(|&&i| KpkIndex::new(i).is_some_and(|k| k.side() == side)).count()
    };
    t += &format!(
        "| positions the net answers settled by a one-ply rule at probe time | {} positions: {} wins at once (the pawn side to move promotes and wins), {} where the lone king takes the pawn, {} stalemates; {} of the model's exceptions are among them ({} White to move, {} Black to move) and would leave the table | {} | {} |\n",
        rules.wins_at_once + rules.pawn_taken + rules.stalemates,
        rules.wins_at_once,
        rules.pawn_taken,
        rules.stalemates,
        rules.exceptions.len(),
        by_side(Side::White),
        by_side(Side::Black),
        ruled.sizes().total,
        delta(ruled.sizes().total)
    );
    let (whole, per_column) = first_layer_bits(model);
    let columns = total as i64 + (per_column as i64 - whole as i64).div_euclid(8);
    t += &format!(
        "| a Rice parameter per first-layer input column | the first layer's weights: {whole} bits under one parameter, {per_column} bits under one per column ({RICE_PARAMETER_BITS} bits each included) | {columns} | {:+} |\n",
        columns - total as i64
    );
    Ok(
        t + "\nPruning and input selection were not measured on this commit. Settling the net's own positions \
             by a one-ply rule and per-column parameters are not part of the format (their rows give the size \
             such a file would have with the same net, not a file kpk writes); the net was not retrained for \
             them. The one-ply rule for the lone king's positions is the format's version 2.\n",
    )
}
