//! The exact hybrid classifier (section 5.1's net plus its exception table), the play model, and
//! the nets `kpk run` saves. The committed models are compiled into the extension, so the wheel
//! ships them and loading them reads no file. A model pickles as its file's bytes.

use crate::positions::{Errors, masked, oriented, oriented_many};
use crate::probe::chess_move_from_uci;
use crate::value_error;
use kpk::chess::position::KpkPosition;
use kpk::net::model::SavedNet;
use kpk::net::output::OutputCoding;
use kpk::{Color, Outcome};
use kpk_probe::Square;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict};
use std::path::PathBuf;

/// The committed `models/kpk.hybrid` and `models/kpk-play.hybrid`, byte for byte.
const HYBRID_BYTES: &[u8] = include_bytes!("../../models/kpk.hybrid");
const PLAY_BYTES: &[u8] = include_bytes!("../../models/kpk-play.hybrid");

/// A model file's bytes and the name its errors and `repr` use: the file's, or the committed
/// model's when none is given.
fn model_file(path: Option<PathBuf>, committed: &'static [u8], name: &str) -> PyResult<(Vec<u8>, String)> {
    match path {
        Some(p) => Ok((kpk::io::read(&p).map_err(value_error)?, p.display().to_string())),
        None => Ok((committed.to_vec(), name.to_string())),
    }
}

/// `(restore, (bytes, name))` for `__reduce__`: `kpk._pickle`'s `restore` rebuilds the model.
fn reduce<'py>(py: Python<'py>, restore: &str, bytes: &[u8], name: &str) -> PyResult<Bound<'py, PyAny>> {
    let f = py.import(intern!(py, "kpk._pickle"))?.getattr(restore)?;
    (f, (PyBytes::new(py, bytes), name)).into_pyobject(py).map(Bound::into_any)
}

/// The exact win/draw classifier: a small integer net or decision tree and the positions it gets
/// wrong (section 5.1). `Hybrid()` loads the committed `models/kpk.hybrid` (a decision tree,
/// format version 3), shipped inside the package; `Hybrid(path)` a model file written by
/// `kpk learners --ship` or `kpk compress`.
#[pyclass(module = "kpk", frozen)]
pub struct Hybrid {
    inner: kpk::hybrid::Hybrid,
    bytes: Vec<u8>,
    path: String,
}

#[pymethods]
impl Hybrid {
    /// Load a model file written by `kpk learners --ship` or `kpk compress`; by default the
    /// committed `models/kpk.hybrid` shipped inside the package.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<Hybrid> {
        let (bytes, path) = model_file(path, HYBRID_BYTES, "models/kpk.hybrid")?;
        Hybrid::from_bytes(bytes, path)
    }

    /// A model from a file's bytes (`name` names it in errors and `repr`).
    #[staticmethod]
    fn _from_bytes(data: &[u8], name: String) -> PyResult<Hybrid> {
        Hybrid::from_bytes(data.to_vec(), name)
    }

    /// A bool array, True where the pawn side wins, for a sequence of FENs or boards.
    /// `errors="mask"`: a masked array, masked at the items that are not KPK positions.
    #[pyo3(signature = (fens, *, errors = "raise"))]
    fn classify<'py>(
        &self,
        py: Python<'py>,
        fens: &Bound<'py, PyAny>,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let batch = oriented_many(py, fens, Errors::parse(errors)?)?;
        let wins = PyArray1::from_vec(py, self.wins(py, &batch.positions())).into_any();
        masked(py, wins, batch.mask().as_deref())
    }

    /// The same from squares (0 = a1, 1 = b1, ..., 63 = h8), the pawn side White: integer arrays
    /// `wk`, `bk`, `wp` and `black_to_move` (a bool array, or one bool for every position).
    /// `errors="mask"`: a masked array, masked at the illegal positions.
    #[pyo3(signature = (wk, bk, wp, black_to_move, *, errors = "raise"))]
    fn classify_squares<'py>(
        &self,
        py: Python<'py>,
        wk: &Bound<'py, PyAny>,
        bk: &Bound<'py, PyAny>,
        wp: &Bound<'py, PyAny>,
        black_to_move: &Bound<'py, PyAny>,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let errors = Errors::parse(errors)?;
        let (wk, bk, wp) =
            (squares_arg(py, "wk", wk)?, squares_arg(py, "bk", bk)?, squares_arg(py, "wp", wp)?);
        let n = wk.len();
        if bk.len() != n || wp.len() != n {
            return Err(value_error(format!(
                "wk, bk and wp must have the same length, got {n}, {} and {}",
                bk.len(),
                wp.len()
            )));
        }
        let sides = sides(py, black_to_move, n)?;
        let stand_in = KpkPosition::all().next().expect("KPK has legal positions");
        let mut positions = Vec::with_capacity(n);
        let mut bad = vec![false; n];
        for i in 0..n {
            match squares_position(i, [wk[i], bk[i], wp[i]], sides(i)) {
                Ok(p) => positions.push(p),
                Err(_) if errors == Errors::Mask => {
                    positions.push(stand_in);
                    bad[i] = true;
                }
                Err(e) => return Err(e),
            }
        }
        let wins = PyArray1::from_vec(py, self.wins(py, &positions)).into_any();
        masked(py, wins, (errors == Errors::Mask).then_some(bad.as_slice()))
    }

    /// Pickled as its model file's bytes.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        reduce(py, "hybrid", &self.bytes, &self.path)
    }

    fn __repr__(&self) -> String {
        let s = self.inner.sizes();
        format!("Hybrid({:?}: {} exceptions, {} bytes)", self.path, self.inner.exceptions().len(), s.total)
    }
}

impl Hybrid {
    fn from_bytes(bytes: Vec<u8>, path: String) -> PyResult<Hybrid> {
        let inner = kpk::hybrid::Hybrid::from_bytes(&bytes, &path).map_err(value_error)?;
        Ok(Hybrid { inner, bytes, path })
    }

    fn wins(&self, py: Python<'_>, positions: &[KpkPosition]) -> Vec<bool> {
        py.detach(|| self.inner.classify_all(positions).iter().map(|a| a.outcome == Outcome::Win).collect())
    }
}

/// A one-dimensional array of squares from argument `name`: integers only (a float is refused,
/// never truncated).
fn squares_arg(py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let numpy = py.import(intern!(py, "numpy"))?;
    let array = numpy.getattr(intern!(py, "asarray"))?.call1((value,)).map_err(|e| {
        PyTypeError::new_err(format!("{name} must be an array of integer squares: {}", e.value(py)))
    })?;
    let dtype = array.getattr(intern!(py, "dtype"))?;
    let kind: String = dtype.getattr(intern!(py, "kind"))?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "{name} must hold integer squares (0 = a1 ... 63 = h8), got an array of {}",
            dtype.str()?
        )));
    }
    let ndim: usize = array.getattr(intern!(py, "ndim"))?.extract()?;
    if ndim != 1 {
        return Err(value_error(format!("{name} must be one-dimensional, got {ndim} dimensions")));
    }
    let array = array.call_method1(intern!(py, "astype"), (numpy.getattr(intern!(py, "int64"))?,))?;
    let array: PyReadonlyArray1<'_, i64> = array.extract()?;
    Ok(array.as_array().to_vec())
}

/// The side to move of each of `n` positions, from one bool or a bool array of length `n`.
fn sides(
    py: Python<'_>,
    black_to_move: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<Box<dyn Fn(usize) -> Color>> {
    let side = |b: bool| if b { Color::Black } else { Color::White };
    if let Ok(b) = black_to_move.cast::<PyBool>() {
        let b = b.is_true();
        return Ok(Box::new(move |_| side(b)));
    }
    let numpy = py.import(intern!(py, "numpy"))?;
    let array = numpy.getattr(intern!(py, "asarray"))?.call1((black_to_move,))?;
    let kind: String = array.getattr(intern!(py, "dtype"))?.getattr(intern!(py, "kind"))?.extract()?;
    let ndim: usize = array.getattr(intern!(py, "ndim"))?.extract()?;
    if kind != "b" || ndim != 1 {
        return Err(PyTypeError::new_err(format!(
            "black_to_move must be a bool or a one-dimensional bool array, got {}",
            black_to_move.get_type().name()?
        )));
    }
    let array: PyReadonlyArray1<'_, bool> = array.extract()?;
    let v: Vec<bool> = array.as_array().to_vec();
    if v.len() != n {
        return Err(value_error(format!("black_to_move has {} values for {n} positions", v.len())));
    }
    Ok(Box::new(move |i| side(v[i])))
}

/// Position `i` of `classify_squares`, or kpk's reason it is not a legal one.
fn squares_position(i: usize, squares: [i64; 3], side: Color) -> PyResult<KpkPosition> {
    let names = ["wk", "bk", "wp"];
    let square = |k: usize| {
        let v = squares[k];
        u8::try_from(v).ok().and_then(Square::new).ok_or_else(|| {
            value_error(format!(
                "position {i}: {}[{i}] = {v} is not a square from 0 (a1) to 63 (h8)",
                names[k]
            ))
        })
    };
    let [wk, bk, wp] = [square(0)?, square(1)?, square(2)?];
    KpkPosition::new(wk, bk, wp, side).map_err(|e| {
        let to_move = if side == Color::White { "White" } else { "Black" };
        value_error(format!("position {i} (K{wk} k{bk} P{wp}, {to_move} to move): illegal: {e}"))
    })
}

/// The play model: the hybrid plus a move proposer and its exceptions, playing perfectly.
/// `PlayModel()` loads the committed `models/kpk-play.hybrid`, shipped inside the package.
#[pyclass(module = "kpk", frozen)]
pub struct PlayModel {
    inner: kpk::play::model::PlayModel,
    bytes: Vec<u8>,
    path: String,
}

#[pymethods]
impl PlayModel {
    /// Load a play model written by `kpk compress-play`; by default the committed
    /// `models/kpk-play.hybrid` shipped inside the package.
    #[new]
    #[pyo3(signature = (path = None))]
    fn new(path: Option<PathBuf>) -> PyResult<PlayModel> {
        let (bytes, path) = model_file(path, PLAY_BYTES, "models/kpk-play.hybrid")?;
        PlayModel::_from_bytes(&bytes, path)
    }

    /// A play model from a file's bytes (`name` names it in errors and `repr`).
    #[staticmethod]
    fn _from_bytes(data: &[u8], name: String) -> PyResult<PlayModel> {
        let inner = kpk::play::model::PlayModel::from_bytes(data, &name).map_err(value_error)?;
        Ok(PlayModel { inner, bytes: data.to_vec(), path: name })
    }

    /// The model's move in UCI (`e2e4`, `b7b8q`) in the position's own orientation, or `"-"`
    /// when the side to move has no legal move. `as_move=True`: a python-chess `chess.Move`, or
    /// `None` when there is no legal move.
    #[pyo3(signature = (fen, *, as_move = false))]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        fen: &Bound<'py, PyAny>,
        as_move: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let o = oriented(fen)?;
        let mv = self.inner.best_move(&o.position).map(|mv| kpk::play::uci(&o, mv));
        match (mv, as_move) {
            (Some(mv), true) => chess_move_from_uci(py)?.call1((mv,)),
            (None, true) => Ok(py.None().into_bound(py)),
            (mv, false) => Ok(mv.unwrap_or_else(|| "-".to_string()).into_pyobject(py)?.into_any()),
        }
    }

    /// Pickled as its model file's bytes.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        reduce(py, "play_model", &self.bytes, &self.path)
    }

    fn __repr__(&self) -> String {
        format!("PlayModel({:?}, {} bytes)", self.path, self.bytes.len())
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
