//! The bitbase's answer for one position (`kpk.Probe`): the result, the depth to conversion and
//! every legal move's result, comparable, hashable and picklable.

use crate::bitbase::bitbase;
use kpk::chess::position::Oriented;
use kpk::play::{after, uci};
use kpk::{Color, Outcome};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

pub(crate) fn result_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
    }
}

/// The bitbase's answer for one position. Two answers are equal when their positions (in the
/// orientation given) are; equal answers hash alike.
#[pyclass(module = "kpk", name = "Probe", frozen, eq, hash, get_all)]
#[derive(PartialEq, Eq, Hash)]
pub struct ProbeAnswer {
    /// The position, as given.
    fen: String,
    /// `"win"` or `"draw"`, from the pawn side's point of view.
    result: &'static str,
    /// Plies to conversion (promotion to a safe queen or rook) for a win, else `None`.
    dtc: Option<u8>,
    /// `(uci, result, dtc)` for every legal move: the result and DTC of the position after it,
    /// from the pawn side's point of view, best first for the side to move.
    moves: Vec<(String, &'static str, Option<u8>)>,
}

#[pymethods]
impl ProbeAnswer {
    fn __repr__(&self) -> String {
        let dtc = self.dtc.map_or("None".to_string(), |d| d.to_string());
        format!(
            "Probe(fen={:?}, result={:?}, dtc={dtc}, moves=[{} moves])",
            self.fen,
            self.result,
            self.moves.len()
        )
    }

    /// The answer as a dict: `fen`, `result`, `dtc` and `moves` (a list of `(uci, result, dtc)`).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("fen", &self.fen)?;
        d.set_item("result", self.result)?;
        d.set_item("dtc", self.dtc)?;
        d.set_item("moves", self.moves.clone())?;
        Ok(d)
    }

    /// `moves` with python-chess's `chess.Move` in place of each UCI string (python-chess must be
    /// installed).
    fn chess_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let from_uci = chess_move_from_uci(py)?;
        self.moves
            .iter()
            .map(|(name, result, dtc)| {
                let mv = from_uci.call1((name,))?;
                PyTuple::new(py, [mv, result.into_pyobject(py)?.into_any(), dtc.into_pyobject(py)?])
            })
            .collect()
    }

    /// Pickled as its position: unpickling probes it again (the bitbase is a pure function).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py.import(intern!(py, "kpk._pickle"))?.getattr(intern!(py, "probe"))?;
        Ok((restore, (self.fen.clone(),)))
    }
}

/// python-chess's `chess.Move.from_uci`, or an `ImportError` saying python-chess is optional.
pub(crate) fn chess_move_from_uci(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let chess = py.import(intern!(py, "chess")).map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!(
            "moves as chess.Move need python-chess (pip install chess): {}",
            e.value(py)
        ))
    })?;
    chess.getattr(intern!(py, "Move"))?.getattr(intern!(py, "from_uci"))
}

/// Sort key of a move for the side to move, smaller better: the pawn side's quickest win, else a
/// draw; the lone king's draw, else its slowest loss (as `kpk probe` orders them).
fn rank(side: Color, outcome: Outcome, dtc: Option<u8>) -> i32 {
    let d = dtc.map_or(0, i32::from);
    match (side, outcome) {
        (Color::White, Outcome::Win) => d,
        (Color::White, Outcome::Draw) => 1000,
        (Color::Black, Outcome::Draw) => -1000,
        (Color::Black, Outcome::Win) => -d,
    }
}

pub(crate) fn probe(o: &Oriented) -> ProbeAnswer {
    let bb = bitbase();
    let p = o.position;
    let mut moves: Vec<_> = p
        .moves()
        .into_iter()
        .map(|mv| {
            let (outcome, dtc) = after(bb, &p, mv);
            (rank(p.side(), outcome, dtc), uci(o, mv), outcome, dtc)
        })
        .collect();
    moves.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    ProbeAnswer {
        fen: o.to_fen(),
        result: result_name(bb.outcome(&p)),
        dtc: bb.dtc(&p).map(|d| d.0),
        moves: moves.into_iter().map(|(_, name, o, d)| (name, result_name(o), d)).collect(),
    }
}
