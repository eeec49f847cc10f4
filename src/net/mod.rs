//! The paper's learner (section 3): the sigmoid MLP and its arithmetic, trained nets on disk, and
//! their export to formats other tools read.

pub mod export;
pub mod mlp;
pub mod model;
