//! The characteristics x1..x32 (Table 4) in the codings of section 4.2, and the named sets of
//! section 4.5, as NumPy arrays of the dtype asked for.

use crate::bitbase::bitbase;
use crate::positions::{Errors, masked, oriented_many};
use crate::value_error;
use kpk::Outcome;
use kpk::chess::position::KpkPosition;
use kpk::dataset::Dataset;
use kpk::paper::coding::{BINARY_BITS, InputCoding};
use kpk::paper::features::{FEATURES, features};
use numpy::{Element, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyTuple};
use rayon::prelude::*;

/// A one-dimensional NumPy array, as returned to Python.
type Column<'py, T> = Bound<'py, PyArray1<T>>;

fn coding_of(name: &str) -> PyResult<InputCoding> {
    name.parse::<InputCoding>().map_err(|e| value_error(format!("coding: {e}")))
}

/// The element types an input matrix can be made of. Integer types hold every coding but
/// `scaled`, whose values are fractions.
#[derive(Clone, Copy)]
enum Dtype {
    F64,
    F32,
    I8,
    I16,
    I32,
    I64,
}

impl Dtype {
    /// The dtype NumPy names `dtype` (anything `numpy.dtype()` takes).
    fn of(py: Python<'_>, dtype: &Bound<'_, PyAny>, coding: InputCoding) -> PyResult<Dtype> {
        let name: String =
            py.import("numpy")?.getattr("dtype")?.call1((dtype,))?.getattr("name")?.extract()?;
        let d = match name.as_str() {
            "float64" => Dtype::F64,
            "float32" => Dtype::F32,
            "int8" => Dtype::I8,
            "int16" => Dtype::I16,
            "int32" => Dtype::I32,
            "int64" => Dtype::I64,
            _ => {
                return Err(value_error(format!(
                    "dtype must be float64, float32, int8, int16, int32 or int64, got {name}"
                )));
            }
        };
        if coding == InputCoding::Scaled && !matches!(d, Dtype::F64 | Dtype::F32) {
            return Err(value_error(format!(
                "dtype {name} cannot hold the scaled coding's fractions: use float64 or float32"
            )));
        }
        Ok(d)
    }
}

/// The inputs of `positions` in `coding`, one row each, as an array of `T`.
fn matrix<'py, T: Element + Copy + Send + Default>(
    py: Python<'py>,
    positions: &[KpkPosition],
    coding: InputCoding,
    convert: fn(f64) -> T,
) -> PyResult<Bound<'py, PyAny>> {
    let width = coding.width();
    let mut data = vec![T::default(); positions.len() * width];
    py.detach(|| {
        data.par_chunks_mut(width.max(1)).zip(positions).for_each_init(
            || vec![0.0; width],
            |values, (row, p)| {
                coding.encode(&features(p), values);
                for (o, &v) in row.iter_mut().zip(values.iter()) {
                    *o = convert(v);
                }
            },
        );
    });
    Ok(PyArray1::from_vec(py, data).reshape([positions.len(), width])?.into_any())
}

/// The inputs of `positions` in `coding` as an array of `dtype`. The integer types hold every
/// value exactly: natural values lie in [-7, 8], the other integer codings' in {0, 1}.
fn inputs<'py>(
    py: Python<'py>,
    positions: &[KpkPosition],
    coding: InputCoding,
    dtype: Dtype,
) -> PyResult<Bound<'py, PyAny>> {
    match dtype {
        Dtype::F64 => matrix(py, positions, coding, |v| v),
        Dtype::F32 => matrix(py, positions, coding, |v| v as f32),
        Dtype::I8 => matrix(py, positions, coding, |v| v as i8),
        Dtype::I16 => matrix(py, positions, coding, |v| v as i16),
        Dtype::I32 => matrix(py, positions, coding, |v| v as i32),
        Dtype::I64 => matrix(py, positions, coding, |v| v as i64),
    }
}

/// The characteristics x1..x32 of each position (Table 4), in `coding`: `natural` (32 columns),
/// `scaled`, `binary` or `onehot`; one row per FEN, computed in the canonical orientation.
#[pyfunction(name = "features")]
#[pyo3(signature = (fens, coding = "natural", *, dtype = None, errors = "raise"))]
fn features_of<'py>(
    py: Python<'py>,
    fens: &Bound<'py, PyAny>,
    coding: &str,
    dtype: Option<&Bound<'py, PyAny>>,
    errors: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let coding = coding_of(coding)?;
    let dtype = dtype.map_or(Ok(Dtype::F64), |d| Dtype::of(py, d, coding))?;
    let batch = oriented_many(py, fens, Errors::parse(errors)?)?;
    let x = inputs(py, &batch.positions(), coding, dtype)?;
    masked(py, x, batch.mask().as_deref())
}

/// `seed` as a `u64`, or an error naming it.
fn seed_of(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if !seed.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("seed must be an int, got {}", seed.get_type().name()?)));
    }
    seed.extract::<u64>()
        .map_err(|_| value_error(format!("seed must be an integer from 0 to 2**64 - 1, got {seed}")))
}

/// A named set of section 4.5 as `(X, y, fens)`: the inputs in `coding`, 1 for a win else 0
/// (int64), and each position's canonical FEN, in the order of `kpk dataset --set NAME`'s CSV.
#[pyfunction]
#[pyo3(signature = (name, coding = "natural", seed = None, *, dtype = None))]
#[pyo3(text_signature = "(name, coding='natural', seed=1998, *, dtype=None)")]
fn dataset<'py>(
    py: Python<'py>,
    name: &str,
    coding: &str,
    seed: Option<&Bound<'py, PyAny>>,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, Column<'py, i64>, Vec<String>)> {
    let coding = coding_of(coding)?;
    let seed = seed.map_or(Ok(kpk::dataset::DEFAULT_SEED), seed_of)?;
    let dtype = dtype.map_or(Ok(Dtype::F64), |d| Dtype::of(py, d, coding))?;
    let ds =
        py.detach(|| Dataset::named(name, seed, bitbase())).map_err(|e| value_error(format!("name: {e}")))?;
    let x = inputs(py, &ds.positions, coding, dtype)?;
    let y: Vec<i64> = ds.outcomes.iter().map(|&o| i64::from(o == Outcome::Win)).collect();
    let fens: Vec<String> = py.detach(|| ds.positions.par_iter().map(KpkPosition::to_fen).collect());
    Ok((x, PyArray1::from_vec(py, y), fens))
}

/// Table 4, one dict per characteristic: `x`, `code`, `name` (the short name), `level`,
/// `description`, `formula`, `range` (over the legal positions), `printed_range` and
/// `binary_bits` (its width in the binary coding).
fn table4(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let rows = FEATURES.iter().zip(BINARY_BITS).map(|(f, bits)| {
        let d = PyDict::new(py);
        d.set_item("x", f.x)?;
        d.set_item("code", f.code)?;
        d.set_item("name", f.name)?;
        d.set_item("level", f.level)?;
        d.set_item("description", f.description)?;
        d.set_item("formula", f.formula)?;
        d.set_item("range", f.range)?;
        d.set_item("printed_range", f.printed_range)?;
        d.set_item("binary_bits", bits)?;
        Ok(d)
    });
    PyTuple::new(py, rows.collect::<PyResult<Vec<_>>>()?)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(features_of, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    // The names `dataset` and `features` accept, from the library's own lists.
    m.add("SETS", PyTuple::new(m.py(), kpk::dataset::SetName::ALL.map(|s| s.name()))?)?;
    m.add("CODINGS", PyTuple::new(m.py(), InputCoding::ALL.map(InputCoding::name))?)?;
    m.add("TABLE4", table4(m.py())?)?;
    Ok(())
}
