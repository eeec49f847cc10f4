//! The match's numbers: [`MatchResults`], every number `reports/PLAY.md`,
//! `reports/play/results.csv` and the figures show (committed as `reports/play.json`;
//! [`super::pipeline`] computes it, [`crate::report::play`] renders it and computes nothing).

use crate::dataset::Side;
use crate::net::topology::Topology;
use crate::stats::Interval;
use serde::{Deserialize, Serialize};

/// Every number of the match report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResults {
    /// Won positions (both sides to move) and drawn positions with a legal move.
    pub won: usize,
    pub drawn: usize,
    /// Most plies of a match game.
    pub max_plies: usize,
    /// The play model's size in bytes.
    pub model_bytes: usize,
    /// Replicates of each trained evaluator and of the random mover.
    pub seeds: usize,
    /// How NN6 trained: wtm (on T3) then btm (on every btm position), over the seeds.
    pub nn6: [Nn6Training; 2],
    /// How the hybrid of each seed trained.
    pub hybrid: HybridTraining,
    pub depth_setup: DepthSetup,
    /// Every player, in the order they played, its seeds pooled.
    pub players: Vec<PlayerResult>,
    /// Plies beyond DTC compared over the games both players converted.
    pub excess: Vec<ExcessPair>,
    /// The bands of DTC and their won positions.
    pub bands: Vec<Band>,
    /// The depth nets' targets, and their accuracy per target by side to move.
    pub depth_targets: Vec<String>,
    pub depth_by_side: Vec<DepthSide>,
    /// The depth nets' accuracy by DTC: one row per DTC, one cell per target (means over seeds).
    pub depth_by_dtc: Vec<DepthDtc>,
    /// Section 2's claim on Cp and a q-ply search.
    pub cp: CpClaim,
    /// The games played on past a winning promotion to checkmate, over every player and seed.
    pub mate: MateSummary,
}

/// Every game of the match that a promotion won, played on to checkmate by DTM: the pawn side's
/// converted games (the Cp oracles' too) and the lone king's lost ones, and how many of each
/// ended in checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MateSummary {
    pub converted: usize,
    pub converted_mated: usize,
    pub lost: usize,
    pub lost_mated: usize,
}

/// One side's NN6 nets over the seeds: their weight seeds, training accuracy (%, mean and 95%
/// interval over seeds) and the fewest and most epochs run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Nn6Training {
    pub seeds: Vec<u64>,
    pub accuracy_pct: Interval,
    pub epochs: (usize, usize),
}

/// The hybrids the match trains, one per seed: the compress candidate they follow, and per seed
/// its weight seed, the float net's misclassified positions, the file's exceptions and bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HybridTraining {
    /// The compress config, its candidate's topology (none without a hybrid; written "" then),
    /// input set and whether the lone king's positions are answered by the one-ply rule.
    pub config: String,
    #[serde(with = "crate::net::topology::empty_for_none")]
    pub topology: Option<Topology>,
    pub inputs: String,
    pub lone_king_by_rule: bool,
    /// Epochs of every training stage and of the quantisation-aware fine-tuning.
    pub epochs: usize,
    pub qat_epochs: usize,
    pub seeds: Vec<u64>,
    pub float_errors: Vec<usize>,
    pub exceptions: Vec<usize>,
    pub bytes: Vec<usize>,
}

/// How the depth nets train (the constants of [`super::depth`]) and their seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthSetup {
    pub topology: Vec<usize>,
    pub optimiser: String,
    pub epochs: usize,
    pub seeds: Vec<u64>,
}

/// What a player is: the control, the model file, the random result-keeping mover, a win/draw
/// evaluator, an evaluator of depth to conversion, or a Cp oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Perfect,
    Model,
    Random,
    Evaluator,
    DepthEvaluator,
    Oracle,
}

impl PlayerKind {
    /// Does the player rank won positions by their depth, so that it can tell which lie in Cp?
    pub fn knows_depth(self) -> bool {
        matches!(self, PlayerKind::DepthEvaluator | PlayerKind::Oracle)
    }
}

/// One player's match against perfect play, over its seeds (one for a player that nothing
/// random trains or moves: its numbers are exact over every position).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerResult {
    pub name: String,
    pub kind: PlayerKind,
    /// Plies of search below the move, for evaluators.
    pub q: Option<u32>,
    pub seeds: usize,
    /// As the pawn side: won positions, those converted (mean over seeds), % wins won.
    pub won: usize,
    pub converted: f64,
    pub wins_won: Interval,
    /// Plies beyond DTC over the player's own converted games, every seed: mean and maximum.
    pub excess_mean: f64,
    pub excess_max: usize,
    /// The largest p with every position of Cp converted, per seed.
    pub largest_p: Vec<usize>,
    /// As the lone king: drawn positions with a legal move, those held (mean), % draws held.
    pub drawn: usize,
    pub held: f64,
    pub draws_held: Interval,
    /// Won positions and % converted by DTC (the DTCs that have positions).
    pub by_dtc: Vec<DtcCount>,
    /// % converted in each band of DTC ([`MatchResults::bands`]), mean over seeds.
    pub by_band: Vec<Option<f64>>,
    /// Past the promotion, as the pawn side: converted games mated (mean over seeds), and over
    /// every seed's mated games the plies to mate, the starts' DTM and the plies to mate beyond
    /// it (means), % mated in exactly the start's DTM, and the fewest and most plies beyond it.
    pub mated: f64,
    pub to_mate: Option<ToMate>,
    /// As the lone king: lost games (drawn starts let slip, mean over seeds), and those mated.
    pub lost: f64,
    pub lost_mated: f64,
    /// Each seed's counts, from which `wins_won`, `draws_held` and section 2's p over seeds are
    /// computed (`reports/play/seeds.csv`).
    #[serde(default)]
    pub per_seed: Vec<SeedOutcome>,
}

/// A player's mated games: plies to mate against the starts' DTM.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToMate {
    pub plies_mean: f64,
    pub dtm_mean: f64,
    pub beyond_mean: f64,
    pub at_dtm_pct: f64,
    pub beyond_min: i32,
    pub beyond_max: i32,
}

/// One seed of a player: the counts behind its percentages over seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedOutcome {
    /// The replicate r = 0, 1, …: the r-th weight seed of each trained net, or the random mover's
    /// seed r.
    pub seed: usize,
    /// Won positions converted as the pawn side, and plies beyond DTC summed over those games.
    pub converted: usize,
    pub excess_sum: usize,
    /// Drawn positions held as the lone king.
    pub held: usize,
    /// The largest p with every position of Cp converted.
    pub largest_p: usize,
    /// Converted games that went on to checkmate, their plies to mate and their starts' DTM
    /// summed, and the lone king's lost games that went on to checkmate.
    pub mated: usize,
    pub mate_plies_sum: usize,
    pub dtm_sum: usize,
    pub lost_mated: usize,
}

/// Won positions of one DTC and the % a player converted (mean and interval over seeds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DtcCount {
    pub dtc: usize,
    pub positions: usize,
    pub pct: Interval,
}

/// Plies beyond DTC of `player` and of `reference` at the same q, over the start positions both
/// converted, seed r against seed r (a player of one seed against each of the reference's):
/// the common games (mean per seed), each side's mean over them, and the difference
/// player − reference with its 95% interval over seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExcessPair {
    pub player: String,
    pub reference: String,
    pub q: u32,
    pub games: f64,
    pub player_mean: f64,
    pub reference_mean: f64,
    pub difference: Interval,
}

/// A band of DTC, in plies, and its won positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub lo: usize,
    pub hi: usize,
    pub positions: usize,
}

/// A depth net pair's accuracy on one side to move, % of the won positions (over seeds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthSide {
    pub target: String,
    pub side: Side,
    pub positions: usize,
    pub exact: Interval,
    pub within1: Interval,
    pub within2: Interval,
}

/// The won positions of one DTC and each target's % exact and within ±2 plies (means over seeds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthDtc {
    pub dtc: usize,
    pub positions: usize,
    pub cells: Vec<(Option<f64>, Option<f64>)>,
}

/// Section 2's claim: an agent that wins all of Cp, with a q-ply search, wins all of Cp+q. Per
/// evaluator and seed, the largest p with all of Cp won at each q.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpClaim {
    /// The depths of search played, and those above 0.
    pub qs: Vec<u32>,
    pub searched: Vec<u32>,
    /// The longest win (plies): p + q's ceiling.
    pub longest: usize,
    pub rows: Vec<CpRow>,
}

/// One evaluator's p by q and seed, and whether the claim holds for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CpRow {
    pub name: String,
    /// The claim applies: the evaluator ranks won positions by depth (a depth net, an oracle). A
    /// win/draw evaluator gives every won position the same target, so its search cannot steer
    /// into Cp and its p tests nothing of the claim.
    pub applies: bool,
    pub seeds: usize,
    /// `p[i][r]`: p at `qs[i]` in seed r (empty: not played), and p's mean and 95% interval over
    /// seeds at `qs[i]`.
    pub p: Vec<Vec<usize>>,
    pub p_mean: Vec<Option<Interval>>,
    /// Seeds in which p at every q searched is at least p at q = 0 plus q (or the longest win).
    pub holds_in: usize,
    /// Where it falls short: seed, p, q and the p needed.
    pub short: Vec<CpShort>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpShort {
    pub seed: usize,
    pub p: usize,
    pub q: u32,
    pub need: usize,
}
