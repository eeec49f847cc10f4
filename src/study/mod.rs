//! Studies: section 6's open questions (and section 2's "walk before run") answered with
//! replicated runs. A study is a base trial config, a grid of settings overriding some of its
//! keys, and replicates of each setting; its report is one row per setting with the replicates'
//! mean and 95% interval ([`crate::analysis::studies`] writes it).

pub mod config;
pub mod contrasts;
pub mod custom;
pub mod replicate;
pub mod results;
pub mod run;
mod validation;
