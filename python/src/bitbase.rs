//! The bitbase and probing, the characteristics x1..x32 (Table 4) in the codings of section 4.2,
//! and the named sets of section 4.5, as NumPy arrays.

use crate::{oriented, oriented_many, value_error};
use kpk::chess::position::{KpkPosition, Oriented};
use kpk::dataset::Dataset;
use kpk::paper::coding::InputCoding;
use kpk::paper::features::features;
use kpk::play::{after, uci};
use kpk::{Color, Outcome};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rayon::prelude::*;
use std::sync::OnceLock;

/// A one-dimensional NumPy array and a float64 matrix, as returned to Python.
type Column<'py, T> = Bound<'py, PyArray1<T>>;
type Matrix<'py> = Bound<'py, PyArray2<f64>>;

/// The bitbase, generated once per process (it is a pure function of the rules of chess).
pub(crate) fn bitbase() -> &'static kpk::Bitbase {
    static BITBASE: OnceLock<kpk::Bitbase> = OnceLock::new();
    BITBASE.get_or_init(kpk::Bitbase::generate)
}

fn result_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
    }
}

/// The exact KPK bitbase: every legal position's result and depth to conversion (DTC).
#[pyclass(module = "kpk", frozen)]
pub struct Bitbase {
    bb: &'static kpk::Bitbase,
}

/// The bitbase's answer for one position.
#[pyclass(module = "kpk", name = "Probe", frozen, get_all)]
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

fn probe(bb: &kpk::Bitbase, o: &Oriented) -> ProbeAnswer {
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

#[pymethods]
impl Bitbase {
    /// Generate the bitbase by retrograde analysis (once per process; later calls share it).
    #[new]
    fn new(py: Python<'_>) -> Bitbase {
        Bitbase { bb: py.detach(bitbase) }
    }

    /// Probe one position (a FEN or a `chess.Board`): its result, DTC and every move's result.
    fn probe(&self, fen: &Bound<'_, PyAny>) -> PyResult<ProbeAnswer> {
        Ok(probe(self.bb, &oriented(fen)?))
    }

    /// Probe many positions: `(win, dtc)`, a bool array (True where the pawn side wins) and an
    /// int16 array of DTCs (-1 for a draw).
    fn probe_many<'py>(
        &self,
        py: Python<'py>,
        fens: &Bound<'py, PyAny>,
    ) -> PyResult<(Column<'py, bool>, Column<'py, i16>)> {
        let positions = oriented_many(py, fens)?;
        let bb = self.bb;
        let win: Vec<bool> = positions.iter().map(|o| bb.outcome(&o.position) == Outcome::Win).collect();
        let dtc: Vec<i16> =
            positions.iter().map(|o| bb.dtc(&o.position).map_or(-1, |d| i16::from(d.0))).collect();
        Ok((PyArray1::from_vec(py, win), PyArray1::from_vec(py, dtc)))
    }

    /// Number of legal positions (pawn on files a-d; e-h mirror them): 165,676.
    fn __len__(&self) -> usize {
        let c = self.bb.counts();
        c.positions(Color::White) + c.positions(Color::Black)
    }

    fn __repr__(&self) -> String {
        format!("Bitbase({} legal positions)", self.__len__())
    }
}

fn coding_of(name: &str) -> PyResult<InputCoding> {
    name.parse::<InputCoding>().map_err(value_error)
}

/// The inputs of `positions` in `coding`, one row each, as a float64 array.
fn inputs<'py>(py: Python<'py>, positions: &[KpkPosition], coding: InputCoding) -> PyResult<Matrix<'py>> {
    let width = coding.width();
    let mut data = vec![0.0; positions.len() * width];
    py.detach(|| {
        data.par_chunks_mut(width.max(1))
            .zip(positions)
            .for_each(|(row, p)| coding.encode(&features(p), row));
    });
    PyArray1::from_vec(py, data).reshape([positions.len(), width])
}

/// The characteristics x1..x32 of each position (Table 4), in `coding`: `natural` (32 columns),
/// `scaled`, `binary` or `onehot`; one float64 row per FEN, computed in the canonical orientation.
#[pyfunction(name = "features")]
#[pyo3(signature = (fens, coding = "natural"))]
fn features_of<'py>(py: Python<'py>, fens: &Bound<'py, PyAny>, coding: &str) -> PyResult<Matrix<'py>> {
    let coding = coding_of(coding)?;
    let positions: Vec<KpkPosition> = oriented_many(py, fens)?.iter().map(|o| o.position).collect();
    inputs(py, &positions, coding)
}

/// A named set of section 4.5 as `(X, y, fens)`: the inputs in `coding`, 1 for a win else 0
/// (int64), and each position's canonical FEN, in the order of `kpk dataset --set NAME`'s CSV.
#[pyfunction]
#[pyo3(signature = (name, coding = "natural", seed = kpk::dataset::DEFAULT_SEED))]
fn dataset<'py>(
    py: Python<'py>,
    name: &str,
    coding: &str,
    seed: u64,
) -> PyResult<(Matrix<'py>, Column<'py, i64>, Vec<String>)> {
    let coding = coding_of(coding)?;
    let ds = py.detach(|| Dataset::named(name, seed, bitbase())).map_err(value_error)?;
    let x = inputs(py, &ds.positions, coding)?;
    let y: Vec<i64> = ds.outcomes.iter().map(|&o| i64::from(o == Outcome::Win)).collect();
    let fens: Vec<String> = py.detach(|| ds.positions.par_iter().map(KpkPosition::to_fen).collect());
    Ok((x, PyArray1::from_vec(py, y), fens))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Bitbase>()?;
    m.add_class::<ProbeAnswer>()?;
    m.add_function(wrap_pyfunction!(features_of, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    // The names `dataset` and `features` accept, from the library's own lists.
    m.add("SETS", PyTuple::new(m.py(), kpk::dataset::SetName::ALL.map(|s| s.name()))?)?;
    m.add("CODINGS", PyTuple::new(m.py(), InputCoding::ALL.map(InputCoding::name))?)?;
    Ok(())
}
