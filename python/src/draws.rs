//! The draws of section 7's comparison (`kpk learners`): `kpk::learners::draws::training_draw`
//! owns them, and is bound here so that an estimator in Python trains on exactly the positions
//! the learners train on, tested on every other position of the side, with the declared seed.

use crate::value_error;
use kpk::dataset::Side;
use kpk::learners::draws::training_draw;
use pyo3::prelude::*;
use serde::Deserialize;

/// The declared design of the comparison, compiled in: only its seed is read here.
const DESIGN: &str = include_str!("../../experiments/learners_powered.toml");

/// The committed per-draw rows of the comparison (`reports/learners/draws.csv`) as the build
/// found them; empty where the comparison had not been run (see build.rs).
const COMMITTED: &str = include_str!(concat!(env!("OUT_DIR"), "/draws.csv"));

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
fn learners_draw(side: &str, n: usize, draw: usize) -> PyResult<Vec<usize>> {
    let side = match side {
        "wtm" => Side::Wtm,
        "btm" => Side::Btm,
        other => return Err(value_error(format!("side must be 'wtm' or 'btm', got {other:?}"))),
    };
    if n == 0 {
        return Err(value_error("n must be at least 1"));
    }
    Ok(training_draw(design_seed()?, side, n, draw))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(learners_draw, m)?)?;
    m.add("LEARNERS_SEED", design_seed()?)?;
    m.add("LEARNERS_DRAWS_CSV", COMMITTED)?;
    Ok(())
}
