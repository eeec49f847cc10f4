//! `kpk._kpk`: the kpk library for Python (PyO3, abi3), wrapped by the `kpk` package.
//!
//! Positions come in as FEN strings or as any object with a `fen()` method (a python-chess
//! `chess.Board`), with the pawn of either colour on any file; answers are from the pawn side's
//! point of view, as everywhere in kpk. Bad input raises `ValueError` carrying kpk's one-line
//! message; no code path here panics on user input.
//!
//! - `bitbase`: the exact bitbase, probing, the paper's characteristics (Table 4) and sets (4.5);
//! - `models`: the exact hybrid of section 5.1, the play model and `kpk run`'s saved nets.

mod bitbase;
mod models;

use kpk::chess::position::Oriented;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;

/// A `ValueError` with kpk's one-line message (control characters escaped, as the CLI prints it).
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(kpk::error::escape_controls(&message.to_string()))
}

/// The FEN of `obj`: a `str`, or whatever its `fen()` method returns (a `chess.Board`).
fn fen_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if obj.hasattr("fen")? {
        return obj.call_method0("fen")?.extract::<String>();
    }
    Err(PyTypeError::new_err(format!(
        "expected a FEN string or a board with a fen() method, got {}",
        obj.get_type().name()?
    )))
}

/// One position as the user wrote it.
pub(crate) fn oriented(obj: &Bound<'_, PyAny>) -> PyResult<Oriented> {
    Oriented::from_fen(&fen_text(obj)?).map_err(value_error)
}

/// The positions of a sequence of FENs or boards (a single FEN or board counts as a sequence of
/// one). The first bad one raises `ValueError` naming its place: `fens[17]: bad FEN …`.
pub(crate) fn oriented_many(py: Python<'_>, fens: &Bound<'_, PyAny>) -> PyResult<Vec<Oriented>> {
    let texts: Vec<String> = if fens.is_instance_of::<PyString>() || fens.hasattr("fen")? {
        vec![fen_text(fens)?]
    } else {
        let mut texts = Vec::with_capacity(fens.len().unwrap_or(0));
        for (i, item) in fens.try_iter()?.enumerate() {
            texts.push(fen_text(&item?).map_err(|e| at(py, i, e))?);
        }
        texts
    };
    let parsed: Vec<_> = py.detach(|| texts.par_iter().map(|t| Oriented::from_fen(t)).collect());
    parsed
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| value_error(format!("fens[{i}]: {e}"))))
        .collect()
}

/// `err` with the place of the item that caused it prefixed to its message.
fn at(py: Python<'_>, i: usize, err: PyErr) -> PyErr {
    let message = err.value(py).to_string();
    if err.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(format!("fens[{i}]: {message}"))
    } else {
        value_error(format!("fens[{i}]: {message}"))
    }
}

/// The compiled part of the `kpk` package; import `kpk` instead.
#[pymodule]
fn _kpk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    bitbase::register(m)?;
    models::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
