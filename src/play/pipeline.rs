//! The match's pipeline: train the evaluators over several seeds, play every player against
//! perfect play ([`super::matches`]), and reduce the records to
//! [`MatchResults`] ([`super::analysis`]).

use super::analysis::{Played, analyse};
use super::depth::{self, DepthNets, DepthTarget};
use super::evaluators::{SideNets, cp_oracle, ladder, train_nn6, trained_ladders};
use super::game::Player;
use super::matches::{Record, pawn_side, record};
use super::mates::Mating;
use super::results::{DepthSetup, HybridTraining, MatchResults, Nn6Training, PlayerKind};
use crate::chess::bitbase::Bitbase;
use crate::chess::search::Values;
use crate::error::Result;
use crate::experiment::config::Trial;
use crate::experiment::replicate::{Replicates, SEED_STRIDE, variants};
use crate::hybrid::compress::{Candidate, HybridRecipe};
use crate::play::model::PlayModel;
use crate::stats::Interval;
use rayon::prelude::*;

/// Seeds (replicates) of every evaluator the match trains: NN6's weight seed is trial 38's plus
/// r · [`SEED_STRIDE`], the hybrid's its compress candidate's plus the same
/// ([`HybridRecipe::seed`]), the depth nets' [`depth::SEED`] plus the same, the random mover's
/// seed is the start position's index plus r · 2^32 (r = 0, 1, …).
pub const SEEDS: usize = 5;

/// What the Cp oracles know: the won positions of DTC ≤ k, for each k here.
pub const ORACLE_KNOWS: [u8; 3] = [1, 9, 19];

/// How big a match to play: the full one is [`MatchSetup::full`]; tests play smaller ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSetup {
    /// Replicates of every trained evaluator and of the random mover.
    pub seeds: usize,
    /// The deepest search below the move, in plies.
    pub max_q: u32,
    /// The depth nets' epochs ([`depth::EPOCHS`] in the full match).
    pub depth_epochs: usize,
}

impl MatchSetup {
    pub fn full(max_q: u32) -> MatchSetup {
        MatchSetup { seeds: SEEDS, max_q, depth_epochs: depth::EPOCHS }
    }
}

/// What one replicate trains: NN6 for each side and the depth nets, one per target.
struct Trained {
    nn6: SideNets,
    depth: Vec<DepthNets>,
}

/// Train every replicate's evaluators at once: NN6 from the variants of `nn6` (trial 38's config),
/// the hybrids from `hybrid`, the depth nets with their seeds. Each net is seeded by its
/// replicate, so the order in which the threads finish changes nothing.
fn train_all(
    nn6: &Trial,
    hybrid: &HybridRecipe,
    setup: &MatchSetup,
    bb: &Bitbase,
) -> Result<(Vec<Trained>, Vec<Candidate>)> {
    let reps = Replicates { seeds: setup.seeds, draws: 1, whole_set_seeds: setup.seeds };
    let variants = variants(nn6, reps)?;
    let (trained, hybrids) = rayon::join(
        || {
            variants
                .par_iter()
                .map(|(id, trial)| {
                    let seed = depth::SEED + id.seed_index as u64 * SEED_STRIDE;
                    let train = |t| DepthNets::train(bb, t, seed, setup.depth_epochs);
                    let (nets, (log, linear)) = rayon::join(
                        || train_nn6(trial, bb),
                        || rayon::join(|| train(DepthTarget::Log), || train(DepthTarget::Linear)),
                    );
                    Ok(Trained { nn6: nets?, depth: vec![log?, linear?] })
                })
                .collect::<Result<Vec<_>>>()
        },
        || hybrid.train(setup.seeds, bb),
    );
    Ok((trained?, hybrids?))
}

/// Train the evaluators and play the match: NN6 from `nn6` (trial 38's config), the hybrid from
/// `hybrid` and the depth nets over `setup.seeds` seeds, the play model `model`, the Cp oracles,
/// each searched up to `setup.max_q` plies. `progress` hears each step.
pub fn run_match(
    model: &PlayModel,
    nn6: &Trial,
    hybrid: &HybridRecipe,
    setup: &MatchSetup,
    bb: &Bitbase,
    progress: &dyn Fn(&str),
) -> Result<MatchResults> {
    progress(&format!("training every net: {} seeds", setup.seeds));
    let (trained, hybrids) = train_all(nn6, hybrid, setup, bb)?;
    let accuracy: Vec<_> = DepthTarget::ALL
        .iter()
        .enumerate()
        .map(|(i, &t)| (t, trained.iter().map(|r| r.depth[i].accuracy(bb)).collect()))
        .collect();
    let ladders = trained
        .iter()
        .zip(&hybrids)
        .map(|(r, h)| trained_ladders(&r.nn6, &h.hybrid, &r.depth, setup.max_q))
        .collect::<Result<Vec<_>>>()?;
    let oracles = ORACLE_KNOWS
        .iter()
        .map(|&k| Ok(ladder(cp_oracle(bb, k)?, setup.max_q)))
        .collect::<Result<Vec<_>>>()?;
    progress("mate lines");
    let mating = Mating::generate(bb);
    let played = play_all((bb, &mating), model, &ladders, &oracles, setup.seeds, progress);
    let nn6_seeds: Vec<u64> = (0..setup.seeds).map(|r| nn6.config.seed + r as u64 * SEED_STRIDE).collect();
    let nn6 = [0, 1].map(|s| {
        let acc: Vec<f64> = trained.iter().map(|r| r.nn6.accuracy_pct[s]).collect();
        let epochs = trained.iter().map(|r| r.nn6.epochs[s]);
        Nn6Training {
            seeds: nn6_seeds.clone(),
            accuracy_pct: Interval::of_mean_pct(&acc).expect("at least one seed"),
            epochs: (epochs.clone().min().unwrap_or(0), epochs.max().unwrap_or(0)),
        }
    });
    let depth_seeds = (0..setup.seeds).map(|r| depth::SEED + r as u64 * SEED_STRIDE).collect();
    let depth_setup = DepthSetup {
        topology: depth::TOPOLOGY.to_vec(),
        optimiser: depth::optimiser().describe(),
        epochs: setup.depth_epochs,
        seeds: depth_seeds,
    };
    let hybrid = hybrid_training(hybrid, &hybrids);
    Ok(analyse(&played, &accuracy, model.to_bytes().len(), nn6, hybrid, depth_setup))
}

/// The hybrids' training as the report gives it: the recipe, and each seed's float errors,
/// exceptions and file.
fn hybrid_training(recipe: &HybridRecipe, hybrids: &[Candidate]) -> HybridTraining {
    HybridTraining {
        config: recipe.path.clone(),
        topology: hybrids.first().map(|c| c.topology.clone()),
        inputs: recipe.candidate.inputs.clone(),
        lone_king_by_rule: recipe.candidate.lone_king_by_rule,
        epochs: recipe.config.stages.iter().map(|s| s.epochs).sum(),
        qat_epochs: recipe.config.qat.as_ref().map_or(0, |q| q.epochs),
        seeds: hybrids.iter().map(|c| c.seed).collect(),
        float_errors: hybrids.iter().map(|c| c.float_errors).collect(),
        exceptions: hybrids.iter().map(|c| c.hybrid.exceptions().len()).collect(),
        bytes: hybrids.iter().map(|c| c.sizes.total).collect(),
    }
}

/// A family of evaluator players: its kind and, per replicate, its ladder of searches.
type Family<'v> = (PlayerKind, Vec<(usize, &'v Vec<Values>)>);

/// The match of every player against perfect play: perfect, the play model, the random
/// result-keeping mover (each seed), then each trained evaluator (`trained[r]`: replicate r's, in
/// [`trained_ladders`]' order) at each depth of search, each seed; and the Cp oracles as the
/// pawn side. Every converted game goes on to mate by `mating`.
pub fn play_all(
    (bb, mating): (&Bitbase, &Mating),
    model: &PlayModel,
    trained: &[Vec<(PlayerKind, Vec<Values>)>],
    oracles: &[Vec<Values>],
    seeds: usize,
    progress: &dyn Fn(&str),
) -> Played {
    let mut records = Vec::new();
    progress("match: perfect, model, random");
    records.push((PlayerKind::Perfect, record(bb, "perfect", (None, 0), mating, &|_| Player::Perfect(bb))));
    records.push((PlayerKind::Model, record(bb, "model", (None, 0), mating, &|_| Player::Model(model))));
    for r in 0..seeds {
        let make = move |index: u64| Player::random(bb, index + ((r as u64) << 32));
        records.push((PlayerKind::Random, record(bb, "random", (None, r), mating, &make)));
    }
    // trained[r] holds replicate r's evaluators, each of its kind, in the same order every seed.
    let evaluators = trained.first().map_or(0, Vec::len);
    let families: Vec<Family> = (0..evaluators)
        .map(|e| (trained[0][e].0, trained.iter().enumerate().map(|(r, l)| (r, &l[e].1)).collect()))
        .collect();
    for (kind, ladders) in &families {
        for q in 0..ladders.first().map_or(0, |(_, l)| l.len()) {
            let name = ladders[0].1[q].name();
            progress(&format!("match: {name}, q = {q}"));
            for &(r, ladder) in ladders {
                let values = &ladder[q];
                let at = (Some(values.depth()), r);
                let r = record(bb, values.name(), at, mating, &|_| Player::Search(values));
                records.push((*kind, r));
            }
        }
    }
    progress("match: the Cp oracles");
    let oracles = oracles
        .iter()
        .flatten()
        .map(|v| {
            let pawn = pawn_side(bb, mating, &|_| Player::Search(v));
            let (name, q) = (v.name().to_string(), Some(v.depth()));
            Record { name, q, replicate: 0, pawn, drawn: 0, held: 0, lost_mated: 0 }
        })
        .collect();
    Played { records, oracles }
}
