//! The bytes primary, measured fairly: the exact tree kpk ships ([`super::ship`], a file exact on
//! every legal position) against the quantised net hybrid of `kpk compress` (also a file exact on
//! every legal position), over the hybrid's seeds. The hybrid is `experiments/compress.toml`'s
//! first candidate, the net `kpk compress` chooses, trained per seed as `kpk match` trains it:
//! replicate r's seed is the candidate's own plus r · [`SEED_STRIDE`] (seed 4 is
//! `models/kpk-net.hybrid`'s). No seed enters CART, so the tree's size is one number for every
//! seed; the float MLP's exact model is context, not the comparator.

use crate::chess::bitbase::Bitbase;
use crate::error::{Error, Result};
use crate::experiment::replicate::SEED_STRIDE;
use crate::hybrid::compress::{CandidateSpec, CompressConfig, train_all};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The two files' sizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sizes {
    /// The shipped tree's setting and file bytes.
    pub tree_setting: String,
    pub tree_bytes: u64,
    /// The hybrid's net, its seeds and each seed's file bytes and exceptions.
    pub hybrid_net: String,
    pub hybrid_seeds: Vec<u64>,
    pub hybrid_bytes: Vec<u64>,
    pub hybrid_exceptions: Vec<usize>,
}

/// The shipped tree and `seeds` hybrids from the compress config at `compress`.
pub fn measure(compress: &Path, seeds: usize, bb: &Bitbase) -> Result<Sizes> {
    let (bytes, trees) = super::ship::ship(bb)?;
    let cfg = CompressConfig::load(compress)?;
    cfg.validate()?;
    let first = cfg.candidates.first().cloned().ok_or_else(|| {
        Error::config("candidates", "the hybrid's config lists no candidate").in_file(compress)
    })?;
    let base = first.seed.unwrap_or(cfg.seed);
    let specs: Vec<CandidateSpec> = (0..seeds as u64)
        .map(|r| CandidateSpec { seed: Some(base.wrapping_add(r * SEED_STRIDE)), ..first.clone() })
        .collect();
    let hybrids = train_all(&cfg, &specs, bb, &|_| {})?;
    Ok(Sizes {
        tree_setting: trees[0].setting.clone(),
        tree_bytes: bytes.len() as u64,
        hybrid_net: hybrids.first().map_or_else(String::new, |c| format!("{} ({})", c.topology, c.inputs)),
        hybrid_seeds: hybrids.iter().map(|c| c.seed).collect(),
        hybrid_bytes: hybrids.iter().map(|c| c.sizes.total as u64).collect(),
        hybrid_exceptions: hybrids.iter().map(|c| c.hybrid.exceptions().len()).collect(),
    })
}
