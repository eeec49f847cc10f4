//! "The levers, measured one by one" in `reports/COMPRESSION.md`: what each way of shrinking the
//! exact hybrid is worth on the chosen model, every figure computed from the model and the run
//! ([`crate::hybrid::results::Levers`]).
//! Quantisation-aware fine-tuning and the exceptions' confidence numbering are what the format and
//! `kpk compress` do; the one-ply rule and per-column Rice parameters are not in the format, so
//! their rows give the exact size a file would have with the same net (bits counted, no file
//! written).

use crate::hybrid::results::{CompressionResults, RICE_PARAMETER_BITS};

/// The levers table and a sentence on the levers not measured.
pub fn section(results: &CompressionResults) -> String {
    let (candidates, best, levers) = (&results.candidates, &results.candidates[0], &results.levers);
    let total = results.model.sizes.total;
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
            q.errors_before,
            q.errors_after,
            q.epoch,
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
            results.answered,
            joint.sizes.total,
            delta(joint.sizes.total)
        );
    }
    let confidence = results.model.confidence.total;
    t += &format!(
        "| exceptions numbered by the net's confidence | the same net and exceptions (loading then evaluates the net on every legal position) | {confidence} | {} |\n",
        delta(confidence)
    );
    t += &format!(
        "| positions the net answers settled by a one-ply rule at probe time | {} positions: {} wins at once (the pawn side to move promotes and wins), {} where the lone king takes the pawn, {} stalemates; {} of the model's exceptions are among them ({} White to move, {} Black to move) and would leave the table | {} | {} |\n",
        levers.wins_at_once + levers.pawn_taken + levers.stalemates,
        levers.wins_at_once,
        levers.pawn_taken,
        levers.stalemates,
        levers.ruled_exceptions[0] + levers.ruled_exceptions[1],
        levers.ruled_exceptions[0],
        levers.ruled_exceptions[1],
        levers.ruled_total,
        delta(levers.ruled_total)
    );
    let (whole, per_column) = levers.first_layer_bits;
    let columns = total as i64 + (per_column as i64 - whole as i64).div_euclid(8);
    t += &format!(
        "| a Rice parameter per first-layer input column | the first layer's weights: {whole} bits under one parameter, {per_column} bits under one per column ({RICE_PARAMETER_BITS} bits each included) | {columns} | {:+} |\n",
        columns - total as i64
    );
    t + "\nPruning and input selection were not measured on this commit. Settling the net's own positions \
             by a one-ply rule and per-column parameters are not part of the format (their rows give the size \
             such a file would have with the same net, not a file kpk writes); the net was not retrained for \
             them. The one-ply rule for the lone king's positions is the format's version 2.\n"
}
