//! Many nets trained at once on one core: online backpropagation for a queue of independent nets
//! of one shape, [`LANES`] at a time across vector lanes ([`Lockstep`]). Each net keeps its own
//! weights, training and testing sets, presentation order, learning-rate schedule and stopping
//! rule (section 4.5); a net that stops leaves its lane to the next net of the queue.
//!
//! Every net's arithmetic is the single-net trainer's, operation for operation ([`Lockstep`]'s
//! module docs), and its epochs are measured, kept and stopped by the same code as [`train`]'s, so
//! each net's [`TrainResult`] is the one [`train`] returns for it, bit for bit.
//!
//! [`train`]: super::train

use super::config::{Anneal, Optimiser, TrainConfig};
use super::measure::Measure;
use super::{Prepared, Progress, StopReason, TrainData, TrainResult};
use crate::error::{Error, Result};
use crate::net::lockstep::{LANES, Lane, Lockstep};
use crate::net::mlp::{Mlp, Workspace};
use ndarray::Array2;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// What decides whether two nets can share a group: their layer widths, sigmoid slope (its bits),
/// skip-layer connections, and whether they train with momentum. Only online backpropagation
/// trains in lockstep.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKey {
    topology: Vec<usize>,
    slope_bits: u64,
    skip: bool,
    momentum: bool,
}

impl GroupKey {
    /// The group of a net of these widths, slope and connections trained with `optimiser`, or
    /// `None` if the optimiser is not online backpropagation.
    pub fn of(topology: &[usize], slope: f64, skip: bool, optimiser: Optimiser) -> Option<GroupKey> {
        match optimiser {
            Optimiser::Online { momentum, .. } => Some(GroupKey {
                topology: topology.to_vec(),
                slope_bits: slope.to_bits(),
                skip,
                momentum: momentum > 0.0,
            }),
            Optimiser::Adam { .. } => None,
        }
    }
}

/// A net to train in a lane: its initial weights, copies of its sets, and its config.
pub struct LaneJob {
    net: Mlp,
    train: Prepared<'static>,
    test: Option<Prepared<'static>>,
    cfg: TrainConfig,
}

impl LaneJob {
    /// Checked as [`super::train`] checks its arguments, with the same errors; also errors if the
    /// config's optimiser is not online backpropagation.
    pub fn new(net: Mlp, train: &TrainData, test: Option<&TrainData>, cfg: &TrainConfig) -> Result<LaneJob> {
        cfg.validate()?;
        cfg.output.check_width(net.n_outputs())?;
        if !matches!(cfg.optimiser, Optimiser::Online { .. }) {
            return Err(Error::Internal("lockstep trains online only".into()));
        }
        let data = Prepared::new(train, &net, cfg.output, "training")?.into_owned();
        let test = test.map(|t| Prepared::new(t, &net, cfg.output, "testing")).transpose()?;
        Ok(LaneJob { train: data, test: test.map(Prepared::into_owned), net, cfg: cfg.clone() })
    }

    /// The group the net trains in.
    pub fn key(&self) -> GroupKey {
        GroupKey::of(self.net.topology(), self.net.slope(), self.net.has_skip(), self.cfg.optimiser)
            .expect("online by construction")
    }
}

/// Train every job `next` hands out, [`LANES`] at a time, calling `done` with each one's tag and
/// result as it finishes (in the order they finish). `next` gives a job or the error of preparing
/// one; every job must be of one [`GroupKey`] (a job of another is answered with an error).
/// When one net is left and the queue is empty, it finishes on the single-net path.
pub fn train_lockstep<T>(
    mut next: impl FnMut() -> Option<(T, Result<LaneJob>)>,
    mut done: impl FnMut(T, Result<TrainResult>),
) {
    let mut lanes: Vec<Option<LaneRun<T>>> = (0..LANES).map(|_| None).collect();
    let mut group: Option<(GroupKey, Lockstep)> = None;
    let mut queue_empty = false;
    loop {
        for (k, lane) in lanes.iter_mut().enumerate() {
            while lane.is_none() && !queue_empty {
                match next() {
                    None => queue_empty = true,
                    Some((tag, Err(e))) => done(tag, Err(e)),
                    Some((tag, Ok(job))) => {
                        let (key, g) = group
                            .get_or_insert_with(|| (job.key(), Lockstep::new(&job.net, job.key().momentum)));
                        if job.key() != *key {
                            done(tag, Err(Error::Internal("net of another group".into())));
                            continue;
                        }
                        g.load(k, &job.net);
                        *lane = Some(LaneRun::new(tag, job));
                    }
                }
            }
        }
        let active = lanes.iter().filter(|l| l.is_some()).count();
        let Some((_, g)) = group.as_mut() else { return };
        if active == 0 {
            return;
        }
        if active == 1 && queue_empty {
            let (k, lane) =
                lanes.iter_mut().enumerate().find_map(|(k, l)| l.take().map(|l| (k, l))).expect("one lane");
            let (tag, result) = lane.solo(g, k);
            done(tag, result);
            return;
        }
        run_to_an_epoch_end(g, &mut lanes);
        for (k, slot) in lanes.iter_mut().enumerate() {
            let Some(lane) = slot.as_mut() else { continue };
            if lane.pos < lane.order.len() {
                continue;
            }
            g.store(k, &mut lane.state);
            if let Some(result) = lane.end_epoch() {
                let lane = slot.take().expect("the lane is running");
                done(lane.tag, result.map(|reason| lane.progress.finish(lane.epoch, reason)));
            }
        }
    }
}

/// Step every lane until the first of them reaches the end of its epoch. Idle lanes are stepped
/// with learning rate and momentum 0 on zeros, which leaves their weights as they are.
fn run_to_an_epoch_end<T>(g: &mut Lockstep, lanes: &mut [Option<LaneRun<T>>]) {
    let steps = lanes.iter().flatten().map(|l| l.order.len() - l.pos).min().expect("a lane is running");
    let widths = lanes.iter().flatten().next().map(|l| (l.job.net.n_inputs(), l.job.net.n_outputs()));
    let (n, o) = widths.expect("a lane is running");
    let (zeros_x, zeros_d) = (vec![0.0; n], vec![0.0; o]);
    let eta: Lane = std::array::from_fn(|k| lanes[k].as_ref().map_or(0.0, |l| l.eta));
    let mu: Lane = std::array::from_fn(|k| lanes[k].as_ref().map_or(0.0, |l| l.mu));
    for _ in 0..steps {
        let mut x: [&[f64]; LANES] = [&zeros_x; LANES];
        let mut d: [&[f64]; LANES] = [&zeros_d; LANES];
        for (k, lane) in lanes.iter().enumerate() {
            if let Some(l) = lane {
                let i = l.order[l.pos] as usize;
                x[k] = &l.job.train.rows()[i * n..(i + 1) * n];
                d[k] = &l.job.train.targets[i * o..(i + 1) * o];
            }
        }
        g.step(x, d, eta, mu);
        for l in lanes.iter_mut().flatten() {
            l.pos += 1;
        }
    }
}

/// A net training in a lane: its job, the state of its epochs and its record so far.
struct LaneRun<T> {
    tag: T,
    job: LaneJob,
    order: Vec<u32>,
    rng: ChaCha8Rng,
    /// The epoch being trained, from 1, and the next position of its order.
    epoch: usize,
    pos: usize,
    /// This epoch's learning rate and the momentum.
    eta: f64,
    mu: f64,
    measure: Measure,
    progress: Progress,
    /// The end-of-epoch state being measured.
    state: Mlp,
}

impl<T> LaneRun<T> {
    /// Epoch 1 of `job`, in the order [`super::train_on`] draws.
    fn new(tag: T, job: LaneJob) -> LaneRun<T> {
        let mut rng = ChaCha8Rng::seed_from_u64(job.cfg.seed);
        let mut order: Vec<u32> = (0..job.train.len() as u32).collect();
        order.shuffle(&mut rng);
        let progress = Progress::new(&job.cfg, Instant::now());
        let state = job.net.clone();
        let mut lane = LaneRun {
            tag,
            job,
            order,
            rng,
            epoch: 1,
            pos: 0,
            eta: 0.0,
            mu: 0.0,
            measure: Measure::new(),
            progress,
            state,
        };
        lane.set_rates();
        lane
    }

    fn online(&self) -> (f64, f64, Anneal, bool) {
        match self.job.cfg.optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, reshuffle } => {
                (learning_rate, momentum, anneal, reshuffle)
            }
            Optimiser::Adam { .. } => unreachable!("online by construction"),
        }
    }

    fn set_rates(&mut self) {
        let (learning_rate, momentum, anneal, _) = self.online();
        self.eta = anneal.rate(learning_rate, self.epoch);
        self.mu = momentum;
    }

    /// Measure and record the end-of-epoch `state` (section 4.5); if training goes on, start the
    /// next epoch (a new order if the config reshuffles, the epoch's learning rate). Returns the
    /// stop reason, or the error, once training has ended.
    fn end_epoch(&mut self) -> Option<Result<StopReason>> {
        let LaneJob { train, test, cfg, .. } = &self.job;
        let measured = self.measure.here(&self.state, train, test.as_ref(), cfg.output);
        match self.progress.record(self.epoch, &mut self.state, measured, train, cfg, &mut |_| {}) {
            Err(e) => return Some(Err(e)),
            Ok(Some(reason)) => return Some(Ok(reason)),
            Ok(None) => {}
        }
        self.epoch += 1;
        self.pos = 0;
        if self.online().3 {
            self.order.shuffle(&mut self.rng);
        }
        self.set_rates();
        None
    }

    /// Train on alone from where lane `k` of `g` is, one position at a time ([`Mlp::sgd_step`]).
    fn solo(mut self, g: &Lockstep, k: usize) -> (T, Result<TrainResult>) {
        let mut net = self.job.net.clone();
        g.store(k, &mut net);
        let mut velocity: Vec<Array2<f64>> = net.layers().iter().map(|w| Array2::zeros(w.dim())).collect();
        if g.has_momentum() {
            g.store_velocity(k, &mut velocity);
        }
        let mut ws = Workspace::new(&net);
        let (n, o) = (net.n_inputs(), net.n_outputs());
        loop {
            let rows = self.job.train.rows();
            for &i in &self.order[self.pos..] {
                let i = i as usize;
                let m = g.has_momentum().then_some((self.mu, velocity.as_mut_slice()));
                net.sgd_step(
                    &mut ws,
                    &rows[i * n..(i + 1) * n],
                    &self.job.train.targets[i * o..(i + 1) * o],
                    self.eta,
                    m,
                );
            }
            self.pos = self.order.len();
            self.state.clone_from(&net);
            if let Some(result) = self.end_epoch() {
                let epoch = self.epoch;
                return (self.tag, result.map(|reason| self.progress.finish(epoch, reason)));
            }
        }
    }
}

#[cfg(test)]
mod tests;
