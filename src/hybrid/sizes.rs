//! Where the bytes of a model file go (src/hybrid/format.md): every format version counts them
//! alike, so the reports compare a net's file with a tree's.

/// Where the bytes of a model file go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sizes {
    /// The net: its layer headers and its coded weights and biases (bits rounded up).
    pub net: usize,
    /// The exception table: its count, parameter and coded gaps (bits rounded up).
    pub exceptions: usize,
    /// Magic, version, length, input function, layer count, padding and checksum.
    pub overhead: usize,
    /// The file length: `net + exceptions + overhead`.
    pub total: usize,
}
