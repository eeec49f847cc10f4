//! The exact hybrid classifier (section 5.1's net plus its exception table), the play model, and
//! the nets `kpk run` saves. The committed models are compiled into the extension, so the wheel
//! ships them and loading them reads no file.

use crate::{oriented, oriented_many, value_error};
use kpk::chess::board::Square;
use kpk::chess::position::KpkPosition;
use kpk::net::model::SavedNet;
use kpk::train::OutputCoding;
use kpk::{Color, Outcome};
use numpy::{AllowTypeChange, PyArray1, PyArrayLike1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// The committed `models/kpk.hybrid` and `models/kpk-play.hybrid`, byte for byte.
const HYBRID_BYTES: &[u8] = include_bytes!("../../models/kpk.hybrid");
const PLAY_BYTES: &[u8] = include_bytes!("../../models/kpk-play.hybrid");

/// The exact win/draw classifier: a small integer net or decision tree and the positions it gets
/// wrong (section 5.1). `Hybrid()` loads the committed `models/kpk.hybrid` (a decision tree,
/// format version 3), shipped inside the package; `Hybrid(path)` a model file written by
/// `kpk learners --ship` or `kpk compress`.
#[pyclass(module = "kpk", frozen)]
pub struct Hybrid {
    inner: kpk::hybrid::Hybrid,
    path: String,
}

#[pymethods]
impl Hybrid {
    /// Load a model file written by `kpk learners --ship` or `kpk compress`; by default the
    /// committed `models/kpk.hybrid` shipped inside the package.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<Hybrid> {
        let (inner, path) = match path {
            Some(p) => (kpk::hybrid::Hybrid::load(&p), p.display().to_string()),
            None => (
                kpk::hybrid::Hybrid::from_bytes(HYBRID_BYTES, "models/kpk.hybrid"),
                "models/kpk.hybrid".into(),
            ),
        };
        Ok(Hybrid { inner: inner.map_err(value_error)?, path })
    }

    /// A bool array, True where the pawn side wins, for a sequence of FENs or boards.
    fn classify<'py>(
        &self,
        py: Python<'py>,
        fens: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let positions: Vec<KpkPosition> = oriented_many(py, fens)?.iter().map(|o| o.position).collect();
        Ok(PyArray1::from_vec(py, self.wins(py, &positions)))
    }

    /// The same from squares (0 = a1, 1 = b1, ..., 63 = h8), the pawn side White: int arrays
    /// `wk`, `bk`, `wp` and `black_to_move` (a bool array, or one bool for every position).
    fn classify_squares<'py>(
        &self,
        py: Python<'py>,
        wk: PyArrayLike1<'py, i64, AllowTypeChange>,
        bk: PyArrayLike1<'py, i64, AllowTypeChange>,
        wp: PyArrayLike1<'py, i64, AllowTypeChange>,
        black_to_move: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (wk, bk, wp) = (wk.as_array(), bk.as_array(), wp.as_array());
        let n = wk.len();
        if bk.len() != n || wp.len() != n {
            return Err(value_error(format!(
                "wk, bk and wp must have the same length, got {n}, {} and {}",
                bk.len(),
                wp.len()
            )));
        }
        let sides = sides(black_to_move, n)?;
        let mut positions = Vec::with_capacity(n);
        for i in 0..n {
            positions.push(squares_position(i, [wk[i], bk[i], wp[i]], sides(i))?);
        }
        Ok(PyArray1::from_vec(py, self.wins(py, &positions)))
    }

    fn __repr__(&self) -> String {
        let s = self.inner.sizes();
        format!("Hybrid({:?}: {} exceptions, {} bytes)", self.path, self.inner.exceptions().len(), s.total)
    }
}

impl Hybrid {
    fn wins(&self, py: Python<'_>, positions: &[KpkPosition]) -> Vec<bool> {
        py.detach(|| self.inner.classify_all(positions).iter().map(|a| a.outcome == Outcome::Win).collect())
    }
}

/// The side to move of each of `n` positions, from one bool or a bool array of length `n`.
fn sides(black_to_move: &Bound<'_, PyAny>, n: usize) -> PyResult<Box<dyn Fn(usize) -> Color>> {
    let side = |b: bool| if b { Color::Black } else { Color::White };
    if let Ok(b) = black_to_move.extract::<bool>() {
        return Ok(Box::new(move |_| side(b)));
    }
    let array: PyArrayLike1<'_, bool, AllowTypeChange> = black_to_move.extract()?;
    let v: Vec<bool> = array.as_array().iter().copied().collect();
    if v.len() != n {
        return Err(value_error(format!("black_to_move has {} values for {n} positions", v.len())));
    }
    Ok(Box::new(move |i| side(v[i])))
}

/// Position `i` of `classify_squares`, or kpk's reason it is not a legal one.
fn squares_position(i: usize, squares: [i64; 3], side: Color) -> PyResult<KpkPosition> {
    let square = |v: i64| {
        u8::try_from(v)
            .ok()
            .and_then(Square::new)
            .ok_or_else(|| value_error(format!("position {i}: square {v} is not one of 0 (a1) to 63 (h8)")))
    };
    let [wk, bk, wp] = [square(squares[0])?, square(squares[1])?, square(squares[2])?];
    KpkPosition::new(wk, bk, wp, side).map_err(|e| {
        let to_move = if side == Color::White { "White" } else { "Black" };
        value_error(format!("position {i} (K{wk} k{bk} P{wp}, {to_move} to move): illegal: {e}"))
    })
}

/// The play model: the hybrid plus a move proposer and its exceptions, playing perfectly.
/// `PlayModel()` loads the committed `models/kpk-play.hybrid`, shipped inside the package.
#[pyclass(module = "kpk", frozen)]
pub struct PlayModel {
    inner: kpk::play::PlayModel,
}

#[pymethods]
impl PlayModel {
    /// Load a play model written by `kpk compress-play`; by default the committed
    /// `models/kpk-play.hybrid` shipped inside the package.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<PlayModel> {
        let inner = match path {
            Some(p) => kpk::play::PlayModel::load(&p),
            None => kpk::play::PlayModel::from_bytes(PLAY_BYTES, "models/kpk-play.hybrid"),
        };
        Ok(PlayModel { inner: inner.map_err(value_error)? })
    }

    /// The model's move in UCI (`e2e4`, `b7b8q`) in the position's own orientation, or `"-"`
    /// when the side to move has no legal move.
    fn best_move(&self, fen: &Bound<'_, PyAny>) -> PyResult<String> {
        let o = oriented(fen)?;
        Ok(self.inner.best_move(&o.position).map_or("-".to_string(), |mv| kpk::play::uci(&o, mv)))
    }
}

/// A net saved by `kpk run` (`weights.json`) as a dict of NumPy arrays and its description.
///
/// Keys: `weights` (one `(outputs, inputs)` float64 array per layer), `biases` (one `(outputs,)`
/// array per layer), `topology`, `slope`, `input_coding`, `features` (the characteristics the
/// inputs are made from, "x1" ...), `output_coding` ("one" or "two"), `margin` (None for "one")
/// and `seed`. Each layer computes `1 / (1 + exp(-slope * (W @ a + b)))` (section 3).
#[pyfunction]
fn load_net<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let saved = SavedNet::load(&path).map_err(value_error)?;
    let mut weights = Vec::new();
    let mut biases = Vec::new();
    for layer in &saved.layers {
        let rows = layer.len();
        let cols = layer.first().map_or(0, |r| r.len().saturating_sub(1));
        let w: Vec<f64> = layer.iter().flat_map(|r| r.iter().skip(1).copied()).collect();
        let b: Vec<f64> = layer.iter().map(|r| r.first().copied().unwrap_or(0.0)).collect();
        weights.push(PyArray1::from_vec(py, w).reshape([rows, cols])?);
        biases.push(PyArray1::from_vec(py, b));
    }
    let (kind, margin) = match saved.output_coding {
        OutputCoding::One => ("one", None),
        OutputCoding::Two { margin } => ("two", Some(margin)),
    };
    let d = PyDict::new(py);
    d.set_item("topology", saved.topology.clone())?;
    d.set_item("slope", saved.slope)?;
    d.set_item("input_coding", saved.input_coding.name())?;
    d.set_item("features", saved.features.clone())?;
    d.set_item("output_coding", kind)?;
    d.set_item("margin", margin)?;
    d.set_item("seed", saved.seed)?;
    d.set_item("weights", weights)?;
    d.set_item("biases", biases)?;
    Ok(d)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Hybrid>()?;
    m.add_class::<PlayModel>()?;
    m.add_function(wrap_pyfunction!(load_net, m)?)?;
    Ok(())
}
