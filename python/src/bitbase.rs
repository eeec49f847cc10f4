//! The exact bitbase: probing one position (a `Probe`) or many (NumPy arrays), and the
//! Syzygy-shaped probes of python-chess's `chess.syzygy` (values from the side to move's point
//! of view; docs/PYTHON.md relates them to Syzygy's).

use crate::positions::{Errors, masked, oriented, oriented_many, read_kpk};
use crate::probe::{ProbeAnswer, probe};
use kpk::chess::position::Oriented;
use kpk::{Color, Outcome};
use numpy::PyArray1;
use pyo3::exceptions::PyKeyError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};
use std::sync::OnceLock;

/// The bitbase, generated once per process (it is a pure function of the rules of chess).
pub(crate) fn bitbase() -> &'static kpk::Bitbase {
    static BITBASE: OnceLock<kpk::Bitbase> = OnceLock::new();
    BITBASE.get_or_init(kpk::Bitbase::generate)
}

/// The exact KPK bitbase: every legal position's result and depth to conversion (DTC).
#[pyclass(module = "kpk", frozen)]
pub struct Bitbase {
    bb: &'static kpk::Bitbase,
}

/// Win-draw-loss of `o` from the side to move's point of view, as Syzygy's WDL: 2 a win, 0 a
/// draw, -2 a loss (KPK has no win or loss that the fifty-move rule spoils, Syzygy's 1 and -1).
fn wdl(bb: &kpk::Bitbase, o: &Oriented) -> i32 {
    let p = o.position;
    match (bb.outcome(&p), p.side()) {
        (Outcome::Draw, _) => 0,
        (Outcome::Win, Color::White) => 2,
        (Outcome::Win, Color::Black) => -2,
    }
}

/// Plies to conversion from the side to move's point of view: positive where it wins, negative
/// where it loses, 0 for a draw.
fn dtc(bb: &kpk::Bitbase, o: &Oriented) -> i32 {
    let p = o.position;
    let d = bb.dtc(&p).map_or(0, |d| i32::from(d.0));
    if p.side() == Color::White { d } else { -d }
}

/// DTZ ([`kpk::Bitbase::dtz`]): plies to the next zeroing move from the side to move's point of
/// view, positive where it wins, negative where it loses, 0 for a draw.
fn dtz(bb: &kpk::Bitbase, o: &Oriented) -> i32 {
    i32::from(bb.dtz(&o.position))
}

/// The DTM tables, generated once per process.
fn dtm_tables() -> &'static kpk::chess::dtm::Tables {
    static TABLES: OnceLock<kpk::chess::dtm::Tables> = OnceLock::new();
    TABLES.get_or_init(kpk::chess::dtm::Tables::generate)
}

/// The position of `board` for a Syzygy-shaped probe: `chess.syzygy.MissingTableError` (a
/// `KeyError`; `kpk.syzygy`'s own where python-chess is not installed) where its material is not
/// KPK, as `chess.syzygy` raises for a table it does not have; `KeyError` for a board of a variant
/// or with castling rights.
pub(crate) fn kpk_board(board: &Bound<'_, PyAny>) -> PyResult<Oriented> {
    match read_kpk(board)? {
        Some(o) => Ok(o),
        None => {
            let py = board.py();
            let missing = py.import(intern!(py, "kpk.syzygy"))?.getattr(intern!(py, "MissingTableError"))?;
            Err(PyErr::from_value(missing.call1(("no KPvK position: kpk holds the table KPvK only",))?))
        }
    }
}

/// A Syzygy-shaped `get_*` probe: `value` of `board`'s position, or `default` where the probe
/// would raise `KeyError` (not KPK, a variant, castling rights), as `chess.syzygy`'s `get_wdl`
/// and `get_dtz`.
pub(crate) fn get_or(
    board: &Bound<'_, PyAny>,
    default: Option<Py<PyAny>>,
    value: impl Fn(&Oriented) -> i32,
) -> PyResult<Option<Py<PyAny>>> {
    match read_kpk(board) {
        Ok(Some(o)) => Ok(Some(value(&o).into_pyobject(board.py())?.into_any().unbind())),
        Ok(None) => Ok(default),
        Err(e) if e.is_instance_of::<PyKeyError>(board.py()) => Ok(default),
        Err(e) => Err(e),
    }
}

#[pymethods]
impl Bitbase {
    /// Generate the bitbase by retrograde analysis (once per process; later calls share it).
    #[new]
    fn new(py: Python<'_>) -> Bitbase {
        Bitbase { bb: py.detach(bitbase) }
    }

    /// Probe one position (a FEN or a `chess.Board`): its result, DTC and every move's result.
    fn probe(&self, fen: &Bound<'_, PyAny>) -> PyResult<ProbeAnswer> {
        Ok(probe(&oriented(fen)?))
    }

    /// Probe many positions: `(win, dtc)`, a bool array (True where the pawn side wins) and an
    /// int16 array of DTCs (-1 for a draw). `errors="mask"`: masked arrays, masked at bad items.
    #[pyo3(signature = (fens, *, errors = "raise"))]
    fn probe_many<'py>(
        &self,
        py: Python<'py>,
        fens: &Bound<'py, PyAny>,
        errors: &str,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let batch = oriented_many(py, fens, Errors::parse(errors)?)?;
        let positions = batch.positions();
        let bb = self.bb;
        let win: Vec<bool> = positions.iter().map(|p| bb.outcome(p) == Outcome::Win).collect();
        let dtc: Vec<i16> = positions.iter().map(|p| bb.dtc(p).map_or(-1, |d| i16::from(d.0))).collect();
        let mask = batch.mask();
        let win = masked(py, PyArray1::from_vec(py, win).into_any(), mask.as_deref())?;
        let dtc = masked(py, PyArray1::from_vec(py, dtc).into_any(), mask.as_deref())?;
        PyTuple::new(py, [win, dtc])
    }

    /// Win-draw-loss from the side to move's point of view, as `chess.syzygy`'s `probe_wdl`:
    /// 2 a win, 0 a draw, -2 a loss. `MissingTableError` (a `KeyError`) where the position is not KPK.
    fn probe_wdl(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(wdl(self.bb, &kpk_board(board)?))
    }

    /// Plies to conversion (promotion to a queen or rook that wins) from the side to move's
    /// point of view: positive where it wins, negative where it loses, 0 for a draw. `KeyError`
    /// where the position is not KPK.
    fn probe_dtc(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(dtc(self.bb, &kpk_board(board)?))
    }

    /// DTZ as `chess.syzygy`'s `probe_dtz`: plies to the next zeroing move (a pawn move or a
    /// capture) from the side to move's point of view, positive where it wins, negative where it
    /// loses, 0 for a draw. `MissingTableError` (a `KeyError`) where the position is not KPK.
    fn probe_dtz(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(dtz(self.bb, &kpk_board(board)?))
    }

    /// DTM as python-chess's Gaviota `probe_dtm`: plies to mate from the side to move's point of
    /// view, positive where it mates, negative where it is mated, 0 for a draw or a checkmate;
    /// KPK through promotion, KQK, KRK (and the drawn KBK, KNK), either colour strong. `KeyError`
    /// for other material.
    fn probe_dtm(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let fen: String = match board.extract::<String>() {
            Ok(fen) => fen,
            Err(_) => {
                if let Some(r) = crate::positions::refusal(board)? {
                    return Err(PyKeyError::new_err(r.to_string()));
                }
                board.call_method0("fen")?.extract()?
            }
        };
        match dtm_tables().probe_fen(&fen) {
            Some(dtm) => Ok(dtm.signed()),
            None => {
                let py = board.py();
                let missing =
                    py.import(intern!(py, "kpk.syzygy"))?.getattr(intern!(py, "MissingTableError"))?;
                Err(PyErr::from_value(missing.call1(("not a KPK, KQK, KRK, KBK or KNK position",))?))
            }
        }
    }

    /// `probe_wdl`, or `default` where the position is not KPK (as `chess.syzygy`'s `get_wdl`).
    #[pyo3(signature = (board, default = None))]
    fn get_wdl(&self, board: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        get_or(board, default, |o| wdl(self.bb, o))
    }

    /// `probe_dtc`, or `default` where the position is not KPK.
    #[pyo3(signature = (board, default = None))]
    fn get_dtc(&self, board: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        get_or(board, default, |o| dtc(self.bb, o))
    }

    /// `probe_dtz`, or `default` where the position is not KPK (as `chess.syzygy`'s `get_dtz`).
    #[pyo3(signature = (board, default = None))]
    fn get_dtz(&self, board: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        get_or(board, default, |o| dtz(self.bb, o))
    }

    /// Number of legal positions (pawn on files a-d; e-h mirror them): 165,676.
    fn __len__(&self) -> usize {
        let c = self.bb.counts();
        c.positions(Color::White) + c.positions(Color::Black)
    }

    fn __repr__(&self) -> String {
        format!("Bitbase({} legal positions)", self.__len__())
    }

    /// Pickled as nothing: unpickling generates (or shares) the bitbase again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, ()) {
        (slf.get_type(), ())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bitbase>()?;
    m.add_class::<ProbeAnswer>()?;
    Ok(())
}
