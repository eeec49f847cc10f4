//! The draws of section 7's comparison (`kpk learners`): `kpk::learners::draws::training_draw`
//! owns them, and is bound here so that an estimator in Python trains on exactly the positions
//! the learners train on, tested on every other position of the side, with the declared seed.

use crate::bitbase::bitbase;
use crate::value_error;
use kpk::dataset::Side;
use kpk::learners::InputSet;
use kpk::learners::curves::refit;
use kpk::learners::draws::training_draw;
use pyo3::prelude::*;
use serde::Deserialize;

/// The declared design of the comparison, compiled in: only its seed is read here.
const DESIGN: &str = include_str!("../../experiments/learners_powered.toml");

/// The committed per-draw rows of the comparison (`reports/learners/draws.csv`) as the build
/// found them; empty where the comparison had not been run (see build.rs).
const COMMITTED: &str = include_str!(concat!(env!("OUT_DIR"), "/draws.csv"));

/// The commit that declared the design (`declared_in` of the committed `reports/learners.json`),
/// as the build found it; empty where the comparison had not been run (see build.rs).
const DECLARED_IN: &str = include_str!(concat!(env!("OUT_DIR"), "/declared_in.txt"));

#[derive(Deserialize)]
struct Seed {
    seed: u64,
}

fn design_seed() -> PyResult<u64> {
    toml::from_str::<Seed>(DESIGN).map(|s| s.seed).map_err(|e| value_error(format!("the design: {e}")))
}

/// The training positions of draw `draw` of `n` positions of `side` (`"wtm"` or `"btm"`): indices
/// into `kpk.dataset(side)`'s rows, ascending; the testing positions are all the others.
#[pyfunction]
fn learners_draw(side: &str, n: i64, draw: i64) -> PyResult<Vec<usize>> {
    let side = side_of(side)?;
    let n = usize::try_from(n).ok().filter(|&n| n >= 1);
    let n = n.ok_or_else(|| value_error("n must be at least 1"))?;
    let draw = usize::try_from(draw).map_err(|_| value_error("draw must be at least 0"))?;
    Ok(training_draw(design_seed()?, side, n, draw))
}

/// The side a Python argument names.
fn side_of(side: &str) -> PyResult<Side> {
    match side {
        "wtm" => Ok(Side::Wtm),
        "btm" => Ok(Side::Btm),
        other => Err(value_error(format!("side must be 'wtm' or 'btm', got {other:?}"))),
    }
}

/// Fit kpk's seedless learner `learner` (`rule_list`, `tree`, `naive_bayes` or `logistic`) on the
/// positions `train` of `side` (indices into `kpk.dataset(side)`'s rows, distinct) with `inputs`
/// (`"x1..x32"` or `"x1..x6"`), tested on every other position of the side, by the code that
/// wrote `reports/learners/draws.csv`: `(train_pct, test_pct, test_n)`. On a draw of the
/// comparison it gives that draw's committed row.
#[pyfunction]
fn learners_refit(
    py: Python<'_>,
    learner: &str,
    side: &str,
    train: Vec<usize>,
    inputs: &str,
) -> PyResult<(f64, f64, usize)> {
    let side = side_of(side)?;
    let inputs = match inputs {
        "x1..x32" => InputSet::All,
        "x1..x6" => InputSet::Coordinates,
        other => return Err(value_error(format!("inputs must be 'x1..x32' or 'x1..x6', got {other:?}"))),
    };
    let mut sorted = train.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(value_error("train: the indices must be distinct"));
    }
    let fit = py
        .detach(|| refit(learner, side, &train, inputs, bitbase()))
        .map_err(|e| value_error(format!("learners_refit: {e}")))?;
    Ok((fit.train_pct, fit.test_pct, fit.test_n))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(learners_draw, m)?)?;
    m.add_function(wrap_pyfunction!(learners_refit, m)?)?;
    m.add("LEARNERS_SEED", design_seed()?)?;
    m.add("LEARNERS_DRAWS_CSV", COMMITTED)?;
    m.add("LEARNERS_DESIGN_COMMIT", (!DECLARED_IN.is_empty()).then_some(DECLARED_IN))?;
    Ok(())
}
