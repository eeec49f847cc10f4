//! Reports generated from runs: the reproduction of Table 5 (`reports/REPRODUCTION.md`) and the
//! figures every report draws.

pub mod plot;
pub mod reproduction;
