//! The exact hybrid classifier: a small integer net plus the residual table of the positions it
//! gets wrong, checked first (the paper's section 5.1, "filing the positions a net misclassifies").
//!
//! A [`Hybrid`] answers every legal KPK position exactly as the bitbase does while storing far
//! less: the file (see [`format`](mod@format)) holds the quantised net ([`quant`]) and the Rice-coded exception
//! indices ([`exceptions`]). Answers are from the pawn side's point of view. In place of the net a
//! hybrid may hold a decision tree over Table 4's characteristics (section 7's rule induction;
//! format version 3, written by [`tree_file`]).

pub mod bits;
pub mod complete;
pub mod compress;
pub mod dtz;
pub mod exceptions;
pub mod format;
pub mod frontier;
pub mod inputs;
pub mod krk;
pub mod krk_query;
pub mod krk_sizes;
pub mod qat;
pub mod quant;
pub mod refine;
pub mod results;
pub mod sizes;
pub mod tree_file;
pub mod value_tree;

use crate::chess::bitbase::Bitbase;
use crate::chess::index::KpkIndex;
use crate::chess::position::KpkPosition;
use crate::error::{Error, Result};
use exceptions::ExceptionSet;
use inputs::InputFunction;
use kpk_probe::{Coverage, Outcome};
use quant::QuantNet;

/// Whether the net and the exceptions of a model of `coverage` answer `p` (the probe crate's
/// [`Coverage::covers`], for kpk's positions).
pub fn covers(coverage: Coverage, p: &KpkPosition) -> bool {
    coverage.covers(&inputs::probe_position(p))
}

/// Where `kpk query` looks for the model: the committed model, the smallest exact one (written by
/// `kpk learners --ship`).
pub const DEFAULT_MODEL: &str = "models/kpk.hybrid";
/// Where `kpk compress` writes its smallest exact net hybrid (format version 2).
pub const NET_MODEL: &str = "models/kpk-net.hybrid";
/// The committed [`DEFAULT_MODEL`], compiled into kpk: the model commands read when given no file,
/// so that they answer from any folder (tests/embedded_models.rs checks it is the file, byte for
/// byte).
pub const DEFAULT_MODEL_BYTES: &[u8] = include_bytes!("../../models/kpk.hybrid");
/// The committed [`NET_MODEL`], compiled into kpk likewise.
pub const NET_MODEL_BYTES: &[u8] = include_bytes!("../../models/kpk-net.hybrid");
use kpk_probe::model::Answer;
use rayon::prelude::*;

/// What a hybrid's exceptions correct: a quantised net or a decision tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Learner {
    Net(QuantNet),
    Tree(kpk_probe::tree::Tree),
}

/// Net (or tree) + exceptions; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hybrid {
    input: InputFunction,
    learner: Learner,
    exceptions: ExceptionSet,
    /// The same model as the probe crate holds it: every answer comes from the probe's code.
    probe: kpk_probe::Model,
}

/// Inputs are at most this wide.
const MAX_INPUTS: usize = 64;

impl Hybrid {
    /// Put a net and an exception table together; the net must take `input`'s width.
    pub fn new(input: InputFunction, net: QuantNet, exceptions: ExceptionSet) -> Result<Hybrid> {
        Hybrid::with_coverage(input, net, exceptions, Coverage::All)
    }

    /// Put a net and an exception table together for the positions `coverage` names; the
    /// exceptions must be such positions.
    pub fn with_coverage(
        input: InputFunction,
        net: QuantNet,
        exceptions: ExceptionSet,
        coverage: Coverage,
    ) -> Result<Hybrid> {
        if net.n_inputs() != input.width() || input.width() > MAX_INPUTS {
            return Err(Error::Model(format!(
                "the net takes {} inputs, its input function gives {}",
                net.n_inputs(),
                input.width()
            )));
        }
        net.check_bounds(input.bound())?;
        let probe = kpk_probe::Model::with_coverage(
            input.probe(),
            net.evaluator().clone(),
            exceptions.indices().to_vec(),
            coverage,
        )
        .map_err(|e| Error::Model(e.to_string()))?;
        Ok(Hybrid { input, learner: Learner::Net(net), exceptions, probe })
    }

    /// A version-3 hybrid: `tree` over the characteristics of `mask` (x1..x32) answers the
    /// positions with the pawn side to move, corrected by `exceptions` (such positions), the
    /// others by the one-ply rule.
    pub fn tree(mask: u64, tree: kpk_probe::tree::Tree, exceptions: ExceptionSet) -> Result<Hybrid> {
        let probe = kpk_probe::Model::with_tree(mask, tree.clone(), exceptions.indices().to_vec())
            .map_err(|e| Error::Model(e.to_string()))?;
        let input = InputFunction::from_probe(probe.input());
        Ok(Hybrid { input, learner: Learner::Tree(tree), exceptions, probe })
    }

    /// The hybrid of `net` whose exceptions are every legal position where it disagrees with `bb`.
    pub fn build(input: InputFunction, net: QuantNet, bb: &Bitbase) -> Result<Hybrid> {
        let h = Hybrid::new(input, net.clone(), ExceptionSet::default())?;
        let wrong = h.net_errors(bb);
        Hybrid::new(input, net, ExceptionSet::new(wrong).expect("indices of legal positions are in range"))
    }

    /// Indices of the legal positions the net answers (see [`Hybrid::coverage`]) where it alone
    /// disagrees with `bb`.
    pub fn net_errors(&self, bb: &Bitbase) -> Vec<u32> {
        let legal: Vec<KpkPosition> = KpkPosition::all().filter(|p| covers(self.coverage(), p)).collect();
        let mut wrong: Vec<u32> = legal
            .par_iter()
            .filter(|p| self.net_outcome(p) != bb.outcome(p))
            .map(|p| KpkIndex::of(p).value() as u32)
            .collect();
        wrong.sort_unstable();
        wrong
    }

    pub fn input(&self) -> InputFunction {
        self.input
    }

    /// The net; an error for a hybrid that holds a tree.
    pub fn net(&self) -> Result<&QuantNet> {
        match &self.learner {
            Learner::Net(net) => Ok(net),
            Learner::Tree(_) => Err(Error::Model("the model holds a decision tree, not a net".into())),
        }
    }

    /// What the exceptions correct: the net or the tree.
    pub fn learner(&self) -> &Learner {
        &self.learner
    }

    pub fn exceptions(&self) -> &ExceptionSet {
        &self.exceptions
    }

    /// Which positions the net and the exceptions answer.
    pub fn coverage(&self) -> Coverage {
        self.probe.coverage()
    }

    /// The net's (or tree's) own answer.
    #[inline]
    pub fn net_outcome(&self, p: &KpkPosition) -> Outcome {
        if self.net_output(p) > 0 { Outcome::Win } else { Outcome::Draw }
    }

    /// The exact answer: the net's, flipped when the position is in the exception table.
    #[inline]
    pub fn classify(&self, p: &KpkPosition) -> Answer {
        self.probe.probe(&inputs::probe_position(p))
    }

    /// The exact answer for each of `positions`, the positions split across threads. Each answer
    /// is the single query's, so the result is the same on every machine and thread count.
    pub fn classify_all(&self, positions: &[KpkPosition]) -> Vec<Answer> {
        positions.par_chunks(4096).flat_map_iter(|c| c.iter().map(|p| self.classify(p))).collect()
    }

    /// The net's output accumulator for `p` (win iff > 0); its magnitude is the net's confidence.
    /// A tree's output is +1 for a win and −1 for a draw.
    #[inline]
    pub fn net_output(&self, p: &KpkPosition) -> i32 {
        self.probe.net_output(&inputs::probe_position(p))
    }

    /// The model as the probe crate holds it (for programs that answer many positions).
    pub fn probe(&self) -> &kpk_probe::Model {
        &self.probe
    }

    /// Every legal position's index, least confident first: ordered by the magnitude of the net's
    /// output, ties by index. A good net's mistakes crowd the front of this order, which is what
    /// the confidence-ordered exception coding exploits (see [`exceptions`]).
    pub fn confidence_order(&self) -> Result<Vec<u32>> {
        Ok(kpk_probe::model::confidence_order(self.input.probe(), self.net()?.evaluator(), self.coverage()))
    }

    /// Every legal position where the hybrid disagrees with `bb` (empty for a sound model).
    pub fn disagreements(&self, bb: &Bitbase) -> Vec<KpkPosition> {
        let legal: Vec<KpkPosition> = KpkPosition::all().collect();
        legal.into_par_iter().filter(|p| self.classify(p).outcome != bb.outcome(p)).collect()
    }
}
