//! The end-of-epoch measurement of section 4.5 (E1, E2 and the correct count, "at the end of an
//! epoch", section 4.3) over every position of a set: on the calling thread, or as tasks of the
//! current rayon pool that other threads take up while the calling thread trains on.

use super::Prepared;
use crate::net::mlp::Mlp;
use crate::net::output::{Classification, OutputCoding};
use crate::net::sweep::Sweep;

/// Positions per measurement task: about a millisecond of work for 32-64-20-1, so an idle thread
/// finds work often and the calling thread, once it has finished training, waits at most that long.
const CHUNK: usize = 2048;

/// End-of-epoch measurements over one set.
pub(super) struct Evaluation {
    pub(super) e1: f64,
    pub(super) e2: f64,
    pub(super) correct: usize,
    pub(super) misclassified: usize,
    pub(super) undecided: usize,
    pub(super) correct_m0: usize,
}

/// Buffers of the end-of-epoch measurement: the [`Sweep`]s of the forward passes (one for the
/// calling thread's pass, one per task), and the outputs of every position of the training and
/// testing sets when tasks compute them.
#[derive(Default)]
pub(super) struct Measure {
    sweeps: Vec<Sweep>,
    train_ys: Vec<f64>,
    test_ys: Vec<f64>,
}

impl Measure {
    pub(super) fn new() -> Measure {
        Measure::default()
    }

    /// Start computing the outputs of `net` on every position of `train` and `test` as tasks of
    /// `scope`, in runs of [`CHUNK`] positions; [`Measure::tally`] reads them once the scope has
    /// ended. Each output is the single-position pass's ([`Mlp::forward_each`]), whatever thread
    /// computes it.
    pub(super) fn spawn<'s>(
        &'s mut self,
        scope: &rayon::Scope<'s>,
        net: &'s Mlp,
        train: &'s Prepared,
        test: Option<&'s Prepared>,
    ) {
        let rows = [Some(train.rows()), test.map(Prepared::rows)];
        let width = net.n_inputs();
        let chunks: usize = rows.iter().flatten().map(|r| (r.len() / width).div_ceil(CHUNK)).sum();
        if self.sweeps.len() < chunks {
            self.sweeps.resize_with(chunks, Sweep::new);
        }
        let o = net.n_outputs();
        let mut sweeps = self.sweeps.iter_mut();
        for (rows, ys) in rows.into_iter().zip([&mut self.train_ys, &mut self.test_ys]) {
            let Some(rows) = rows else { continue };
            ys.resize(rows.len() / width * o, 0.0);
            for (rows, ys) in rows.chunks(CHUNK * width).zip(ys.chunks_mut(CHUNK * o)) {
                let sweep = sweeps.next().expect("a sweep per chunk");
                scope.spawn(move |_| {
                    net.forward_each(sweep, rows, |i, y| ys[i * o..(i + 1) * o].copy_from_slice(y));
                });
            }
        }
    }

    /// The measurements from the outputs [`Measure::spawn`] computed, the training set's, then the
    /// testing accuracy (correct positions, in %) if a testing set is given.
    pub(super) fn tally(&self, train: &Prepared, test: Option<&Prepared>, output: OutputCoding) -> Measured {
        let of = |set: &Prepared, ys: &[f64]| {
            let mut t = Tally::new(set, output);
            for (i, y) in ys.chunks_exact(output.width()).enumerate() {
                t.add(i, y);
            }
            t.finish()
        };
        let ev = of(train, &self.train_ys);
        let test_accuracy_pct = test.map(|t| of(t, &self.test_ys).accuracy_pct(t));
        (ev, test_accuracy_pct)
    }

    /// The measurements of `net` computed on the calling thread, one block of positions at a time
    /// ([`Mlp::forward_each`]); the same as [`Measure::spawn`] then [`Measure::tally`].
    pub(super) fn here(
        &mut self,
        net: &Mlp,
        train: &Prepared,
        test: Option<&Prepared>,
        output: OutputCoding,
    ) -> Measured {
        if self.sweeps.is_empty() {
            self.sweeps.push(Sweep::new());
        }
        let sweep = &mut self.sweeps[0];
        let mut of = |set: &Prepared| {
            let mut t = Tally::new(set, output);
            net.forward_each(sweep, set.rows(), |i, y| t.add(i, y));
            t.finish()
        };
        let ev = of(train);
        let test_accuracy_pct = test.map(|t| of(t).accuracy_pct(t));
        (ev, test_accuracy_pct)
    }
}

/// One epoch's measurements over the training set, and the testing accuracy in % if tested.
pub(super) type Measured = (Evaluation, Option<f64>);

impl Evaluation {
    /// The % of `set`'s positions classified correctly at the config's margin (section 4.3).
    pub(super) fn accuracy_pct(&self, set: &Prepared) -> f64 {
        100.0 * self.correct as f64 / set.len() as f64
    }
}

/// The running sums of section 4.5's measures over a set's positions, taken in position order so
/// that E1's sum is the same bits however the outputs were computed.
struct Tally<'a> {
    targets: &'a [f64],
    wins: &'a [bool],
    output: OutputCoding,
    plain: OutputCoding,
    sum: f64,
    max: f64,
    correct: usize,
    misclassified: usize,
    undecided: usize,
    correct_m0: usize,
}

impl<'a> Tally<'a> {
    fn new(set: &'a Prepared, output: OutputCoding) -> Tally<'a> {
        let plain = output.without_margin();
        Tally {
            targets: &set.targets,
            wins: &set.wins,
            output,
            plain,
            sum: 0.0,
            max: 0.0,
            correct: 0,
            misclassified: 0,
            undecided: 0,
            correct_m0: 0,
        }
    }

    /// Position `i`'s outputs `y`: E1 sums |y − d| over positions and outputs, E2 is its maximum
    /// (section 4.5); the classification is section 4.3's at the config's margin and at m = 0.
    #[inline(always)]
    fn add(&mut self, i: usize, y: &[f64]) {
        let o = self.output.width();
        let (d, win) = (&self.targets[i * o..(i + 1) * o], self.wins[i]);
        for (y, d) in y.iter().zip(d) {
            let e = (y - d).abs();
            self.sum += e;
            self.max = self.max.max(e);
        }
        match self.output.classify(y) {
            Classification::Undecided => self.undecided += 1,
            c if c.is_correct(win) => self.correct += 1,
            _ => self.misclassified += 1,
        }
        self.correct_m0 += usize::from(self.plain.classify(y).is_correct(win));
    }

    fn finish(self) -> Evaluation {
        Evaluation {
            e1: self.sum / (self.wins.len() * self.output.width()) as f64,
            e2: self.max,
            correct: self.correct,
            misclassified: self.misclassified,
            undecided: self.undecided,
            correct_m0: self.correct_m0,
        }
    }
}
