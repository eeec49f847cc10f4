//! The paper's learner (section 3): the sigmoid MLP and its arithmetic, trained nets on disk, and
//! their export to formats other tools read.

mod backprop;
pub mod batch;
pub mod export;
pub(crate) mod kernels;
pub mod mlp;
pub mod model;
pub mod output;
pub(crate) mod simd;
pub mod sweep;
pub mod topology;
