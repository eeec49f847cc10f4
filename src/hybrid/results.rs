//! `kpk compress`'s analysis: every number `reports/COMPRESSION.md` and its figures show, taken
//! from the run's candidates, the chosen model and the frontier ([`CompressionResults`],
//! committed as `reports/compression.json`). [`crate::report::compression`] renders it and
//! evaluates no net.

use super::bits::best_rice;
use super::compress::{Candidate, CompressConfig, compress};
use super::frontier::FrontierRow;
use super::{Hybrid, covers};
use crate::Color as Side;
use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::KpkPosition;
use crate::error::Result;
use crate::hybrid::{exceptions::ExceptionSet, format::ExceptionOrder, sizes::Sizes};
use crate::net::topology::Topology;
use kpk_probe::Outcome;
use kpk_probe::bits::zigzag;
use serde::{Deserialize, Serialize};

/// Bits a per-column Rice parameter would take in a layer header (0..=24 fits 5 bits).
pub const RICE_PARAMETER_BITS: u64 = 5;

/// Every number of the compression report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompressionResults {
    /// The config as given on the command line, and as read.
    pub config_path: String,
    pub config: CompressConfig,
    /// Legal positions, and those the chosen model's net answers.
    pub legal: usize,
    pub answered: usize,
    pub model: ModelFacts,
    /// Every candidate, the chosen one first.
    pub candidates: Vec<CandidateRow>,
    pub levers: Levers,
    /// The frontier's nets, if measured.
    pub frontier: Option<Vec<FrontierRow>>,
}

/// The chosen model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelFacts {
    pub topology: Topology,
    pub parameters: usize,
    /// Table 4 numbers of its inputs.
    pub inputs: Vec<usize>,
    /// Whether its net answers the positions with the pawn side to move only (format version 2).
    pub pawn_side_only: bool,
    pub sizes: Sizes,
    /// Its exceptions, White to move and Black to move.
    pub exceptions_by_side: [usize; 2],
    /// The file's sizes with the exceptions numbered by the net's confidence.
    pub confidence: Sizes,
    /// Each exception's index and the net's wrong answer (a win?), in index order.
    pub exceptions: Vec<(u32, bool)>,
}

/// One candidate net.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateRow {
    pub topology: Topology,
    pub inputs: String,
    pub lone_king_by_rule: bool,
    pub seed: u64,
    pub parameters: usize,
    pub float_errors: usize,
    /// Errors just after rounding, and the exceptions after the integer fine-tuning.
    pub rounded_errors: usize,
    pub exceptions: usize,
    pub sizes: Sizes,
    pub shifts: Vec<i8>,
    pub qat: Option<QatFacts>,
}

/// A candidate's quantisation-aware fine-tuning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QatFacts {
    pub target: Vec<i8>,
    pub errors_before: usize,
    pub errors_after: usize,
    pub epoch: usize,
    pub plain: Sizes,
    pub plain_shifts: Vec<i8>,
    pub kept: bool,
}

/// What the levers not in the format would give on the chosen model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Levers {
    /// Positions the net answers that the rules settle at one ply, by kind.
    pub wins_at_once: usize,
    pub pawn_taken: usize,
    pub stalemates: usize,
    /// The model's exceptions among them, White to move and Black to move.
    pub ruled_exceptions: [usize; 2],
    /// The file without those exceptions.
    pub ruled_total: usize,
    /// The first layer's weight bits under one Rice parameter, and under one per column.
    pub first_layer_bits: (u64, u64),
}

fn candidate(c: &Candidate) -> CandidateRow {
    CandidateRow {
        topology: c.topology.clone(),
        inputs: c.inputs.clone(),
        lone_king_by_rule: c.lone_king_by_rule,
        seed: c.seed,
        parameters: c.parameters,
        float_errors: c.float_errors,
        rounded_errors: c.refined.errors_before,
        exceptions: c.hybrid.exceptions().len(),
        sizes: c.sizes,
        shifts: c.shifts.clone(),
        qat: c.qat.as_ref().map(|q| QatFacts {
            target: q.target.clone(),
            errors_before: q.tuned.errors_before,
            errors_after: q.tuned.errors_after,
            epoch: q.tuned.epoch,
            plain: q.plain,
            plain_shifts: q.plain_shifts.clone(),
            kept: q.kept,
        }),
    }
}

fn by_side(indices: impl Iterator<Item = u32>) -> [usize; 2] {
    let mut n = [0; 2];
    for i in indices.filter_map(KpkIndex::new) {
        n[usize::from(i.side() == Side::Black)] += 1;
    }
    n
}

/// The one-ply rule and per-column Rice parameters on `model` (the levers the format lacks).
fn levers(model: &Hybrid) -> Result<Levers> {
    let (mut wins_at_once, mut pawn_taken, mut stalemates, mut ruled) = (0, 0, 0, Vec::new());
    for p in KpkPosition::all().filter(|p| covers(model.coverage(), p)) {
        let Some(outcome) = p.settled_at_one_ply() else { continue };
        match (outcome, p.moves().is_empty()) {
            (Outcome::Win, _) => wins_at_once += 1,
            (Outcome::Draw, true) => stalemates += 1,
            (Outcome::Draw, false) => pawn_taken += 1,
        }
        let i = KpkIndex::of(&p).value() as u32;
        if model.exceptions().contains(i) {
            ruled.push(i);
        }
    }
    let rest: Vec<u32> =
        model.exceptions().indices().iter().copied().filter(|i| !ruled.contains(i)).collect();
    let without = Hybrid::with_coverage(
        model.input(),
        model.net()?.clone(),
        ExceptionSet::new(rest).expect("legal"),
        model.coverage(),
    )?;
    let l = &model.net()?.layers()[0];
    let column = |j: usize| (0..l.n_out).map(move |i| zigzag(l.weights[i * l.n_in + j].into()));
    let whole = best_rice((0..l.n_in).flat_map(column)).1;
    let per_column = (0..l.n_in).map(|j| RICE_PARAMETER_BITS + best_rice(column(j)).1).sum();
    Ok(Levers {
        wins_at_once,
        pawn_taken,
        stalemates,
        ruled_exceptions: by_side(ruled.iter().copied()),
        ruled_total: without.sizes().total,
        first_layer_bits: (whole, per_column),
    })
}

/// Every number of the report from the run: the config (as given at `config_path`), the
/// candidates (the chosen one first), the frontier if measured, and the chosen model as written.
pub fn analyse(
    config_path: &str,
    cfg: &CompressConfig,
    candidates: &[Candidate],
    frontier: Option<&[FrontierRow]>,
    model: &Hybrid,
) -> Result<CompressionResults> {
    let indices = model.exceptions().indices();
    let net = model.net()?;
    Ok(CompressionResults {
        config_path: config_path.to_string(),
        config: cfg.clone(),
        legal: KpkPosition::all().count(),
        answered: KpkPosition::all().filter(|p| covers(model.coverage(), p)).count(),
        model: ModelFacts {
            topology: net.topology()?,
            parameters: net.parameter_count(),
            inputs: model.input().xs(),
            pawn_side_only: model.coverage() != kpk_probe::Coverage::All,
            sizes: model.sizes(),
            exceptions_by_side: by_side(indices.iter().copied()),
            confidence: model.to_bytes_in(ExceptionOrder::Confidence).1,
            exceptions: indices
                .iter()
                .filter_map(|&i| Some((i, model.net_outcome(&KpkIndex::new(i)?.position()?) == Outcome::Win)))
                .collect(),
        },
        candidates: candidates.iter().map(candidate).collect(),
        levers: levers(model)?,
        frontier: frontier.map(<[FrontierRow]>::to_vec),
    })
}

/// Where the report's frontier comes from.
pub enum Frontier {
    /// Measured in this run (`kpk compress --frontier`).
    Measure,
    /// The rows an earlier run measured, checked against the config.
    Earlier(Vec<FrontierRow>),
    /// None: the config names none, or it was never measured.
    None,
}

/// `kpk compress`'s pipeline: train, quantise and complete every candidate of `cfg` (the
/// smallest exact file first), and measure or take the frontier. `progress` hears each step.
pub fn run(
    cfg: &CompressConfig,
    frontier: Frontier,
    bb: &Bitbase,
    progress: super::compress::Progress,
) -> Result<(Vec<Candidate>, Option<Vec<FrontierRow>>)> {
    let candidates = compress(cfg, bb, progress)?;
    let rows = match frontier {
        Frontier::Measure => Some(super::frontier::measure(cfg, bb, progress)?),
        Frontier::Earlier(rows) => Some(rows),
        Frontier::None => None,
    };
    Ok((candidates, rows))
}
