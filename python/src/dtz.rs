//! Syzygy's DTZ from the DTZ model file alone (`kpk.DtzModel`): the committed
//! `models/kpk-dtz.hybrid` is compiled into the extension, so the wheel ships it. The probes take
//! the shape of python-chess's `chess.syzygy` (`probe_dtz`, `get_dtz`, `probe_wdl`, `get_wdl`),
//! values from the side to move's point of view; `dtz` answers a batch as a NumPy array.

use crate::bitbase::{get_or, kpk_board};
use crate::positions::{Errors, masked, oriented_many};
use crate::value_error;
use kpk::chess::position::Oriented;
use numpy::PyArray1;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;

/// The committed `models/kpk-dtz.hybrid`, byte for byte.
const DTZ_BYTES: &[u8] = include_bytes!("../../models/kpk-dtz.hybrid");

/// Syzygy's depth to zeroing from a DTZ model file alone (src/hybrid/format.md, "The DTZ
/// model"). `DtzModel()` loads the committed `models/kpk-dtz.hybrid`, shipped inside the package;
/// `DtzModel(path)` a file written by `kpk compress-dtz`.
#[pyclass(module = "kpk", frozen)]
pub struct DtzModel {
    inner: kpk_probe::DtzModel,
    bytes: Vec<u8>,
    path: String,
}

impl DtzModel {
    fn dtz_of(&self, o: &Oriented) -> i32 {
        i32::from(self.inner.dtz(o.position.core()))
    }
}

/// Syzygy's WDL from DTZ: 2 a win, 0 a draw, -2 a loss for the side to move.
fn wdl_of(dtz: i32) -> i32 {
    2 * dtz.signum()
}

#[pymethods]
impl DtzModel {
    /// Load a DTZ model file; by default the committed `models/kpk-dtz.hybrid` shipped inside
    /// the package.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<DtzModel> {
        let (bytes, name) = match path {
            Some(p) => (kpk::io::read(&p).map_err(value_error)?, p.display().to_string()),
            None => (DTZ_BYTES.to_vec(), "models/kpk-dtz.hybrid".to_string()),
        };
        DtzModel::_from_bytes(&bytes, name)
    }

    /// A DTZ model from a file's bytes (`name` names it in errors and `repr`).
    #[staticmethod]
    fn _from_bytes(data: &[u8], name: String) -> PyResult<DtzModel> {
        let inner = kpk_probe::DtzModel::from_bytes(data).map_err(|e| value_error(format!("{name}: {e}")))?;
        Ok(DtzModel { inner, bytes: data.to_vec(), path: name })
    }

    /// DTZ as `chess.syzygy`'s `probe_dtz`: plies to the next zeroing move (a pawn move or a
    /// capture), positive where the side to move wins, negative where it loses, 0 for a draw.
    /// `MissingTableError` (a `KeyError`) where the position is not KPK.
    fn probe_dtz(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(self.dtz_of(&kpk_board(board)?))
    }

    /// `probe_dtz`, or `default` where the position is not KPK (as `chess.syzygy`'s `get_dtz`).
    #[pyo3(signature = (board, default = None))]
    fn get_dtz(&self, board: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        get_or(board, default, |o| self.dtz_of(o))
    }

    /// Win-draw-loss from the embedded win/draw model, as `chess.syzygy`'s `probe_wdl`: 2 a win,
    /// 0 a draw, -2 a loss for the side to move. `MissingTableError` (a `KeyError`) where the position is not KPK.
    fn probe_wdl(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(wdl_of(self.dtz_of(&kpk_board(board)?)))
    }

    /// `probe_wdl`, or `default` where the position is not KPK.
    #[pyo3(signature = (board, default = None))]
    fn get_wdl(&self, board: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        get_or(board, default, |o| wdl_of(self.dtz_of(o)))
    }

    /// `probe_dtz` for a sequence of FENs or boards: an int8 array. `errors="mask"`: a masked
    /// array, masked at the items that are not KPK positions.
    #[pyo3(signature = (fens, *, errors = "raise"))]
    fn dtz<'py>(&self, fens: &Bound<'py, PyAny>, errors: &str) -> PyResult<Bound<'py, PyAny>> {
        let py = fens.py();
        let batch = oriented_many(py, fens, Errors::parse(errors)?)?;
        let dtz: Vec<i8> = batch.positions().iter().map(|p| self.inner.dtz(p.core())).collect();
        masked(py, PyArray1::from_vec(py, dtz).into_any(), batch.mask().as_deref())
    }

    /// Pickled as its model file's bytes.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = py.import(intern!(py, "kpk._pickle"))?.getattr(intern!(py, "dtz_model"))?;
        (f, (PyBytes::new(py, &self.bytes), &self.path)).into_pyobject(py).map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        format!(
            "DtzModel({:?}: {} bytes, {} embedded, {} corrections)",
            self.path,
            self.bytes.len(),
            self.inner.embedded().len(),
            self.inner.corrections().len()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DtzModel>()
}
