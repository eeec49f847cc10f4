//! How the 32 characteristics of Table 4 are presented to a network (section 4.2).
//!
//! The enum is the contract between the dataset, the trainer and saved nets: a trained net
//! records the coding it was trained with, so it knows its inputs.

use serde::{Deserialize, Serialize};

/// Input coding of the characteristics x1..x32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputCoding {
    /// The paper's choice: each input takes its raw value from Table 4's range.
    Natural,
    /// Each characteristic mapped linearly by its range to [0, 1].
    Scaled,
    /// Section 4.2: value minus range minimum, in ceil(log2 |range|) bits (92 inputs in all).
    Binary,
    /// One input per possible value.
    Onehot,
}
