//! `kpk._kpk`: the kpk library for Python (PyO3, abi3), wrapped by the `kpk` package.
//!
//! Positions come in as FEN strings, python-chess boards (read from their bitboards) or any object
//! with a `fen()` method, with the pawn of either colour on any file; answers are from the pawn
//! side's point of view, as everywhere in kpk, except the Syzygy-shaped probes, which answer from
//! the side to move's as python-chess's `chess.syzygy` does. Bad input raises `ValueError`
//! carrying kpk's one-line message; no code path here panics on user input.
//!
//! - `positions`: FENs and boards in, one or a batch, bad items raised or masked;
//! - `bitbase`: the exact bitbase, probing (`probe`: `Probe` answers) and the Syzygy-shaped probes;
//! - `dataset`: the paper's characteristics (Table 4) and sets (section 4.5) as NumPy arrays;
//! - `dtz`: Syzygy's DTZ from the DTZ model file alone (`DtzModel`);
//! - `models`: the exact hybrid of section 5.1, the play model and `kpk run`'s saved nets;

mod bitbase;
mod dataset;
mod draws;
mod dtz;
mod models;
mod positions;
mod probe;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A `ValueError` with kpk's one-line message (control characters escaped, as the CLI prints it).
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(kpk_probe::quote::escape_controls(&message.to_string()))
}

/// The compiled part of the `kpk` package; import `kpk` instead.
#[pymodule]
fn _kpk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    bitbase::register(m)?;
    dataset::register(m)?;
    draws::register(m)?;
    dtz::register(m)?;
    models::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
