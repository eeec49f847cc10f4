//! The paper's learner (section 3): the sigmoid MLP and its arithmetic, trained nets on disk, and
//! their export to formats other tools read.

mod backprop;
pub mod batch;
pub mod export;
pub(crate) mod kernels;
pub mod lockstep;
pub mod mlp;
pub mod model;
pub mod output;
pub(crate) mod simd;
pub mod sweep;
pub mod topology;

use ndarray::{ArrayBase, Data, DataMut, Dimension};

/// Why [`values`] and [`values_mut`] cannot fail: kpk keeps every weight layer, gradient and batch
/// array in standard (row-major) layout (`Mlp::from_layers` copies any other layout into it).
const STANDARD_LAYOUT: &str = "kpk keeps its arrays in standard layout";

/// The contiguous values of an array kpk keeps in standard layout, for the kernels' slices.
pub(crate) fn values<S: Data<Elem = f64>, D: Dimension>(a: &ArrayBase<S, D>) -> &[f64] {
    a.as_slice().expect(STANDARD_LAYOUT)
}

/// As [`values`], to write.
pub(crate) fn values_mut<S: DataMut<Elem = f64>, D: Dimension>(a: &mut ArrayBase<S, D>) -> &mut [f64] {
    a.as_slice_mut().expect(STANDARD_LAYOUT)
}
