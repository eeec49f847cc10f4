//! "The levers, measured one by one" in `reports/COMPRESSION.md` (the template `templates/levers.md.j2`): what
//! each way of shrinking the exact hybrid is worth on the chosen model, every figure computed from
//! the model and the run ([`crate::hybrid::results::Levers`]). Quantisation-aware fine-tuning and
//! the exceptions' confidence numbering are what the format and `kpk compress` do; the one-ply
//! rule and per-column Rice parameters are not in the format, so their rows give the exact size a
//! file would have with the same net (bits counted, no file written).

use crate::hybrid::results::CompressionResults;

pub const TEMPLATE: &str = include_str!("templates/levers.md.j2");

/// The file's size with a Rice parameter per first-layer input column: the model's size plus the
/// bits saved or spent, in whole bytes (rounded down).
pub fn rice_total(results: &CompressionResults) -> i64 {
    let (whole, per_column) = results.levers.first_layer_bits;
    results.model.sizes.total as i64 + (per_column as i64 - whole as i64).div_euclid(8)
}
