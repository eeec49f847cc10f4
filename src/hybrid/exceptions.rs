//! The residual exception table (section 5.1 of the paper): the sorted set of position indices
//! where the stored net's answer is wrong, coded as Rice-coded gaps.
//!
#![doc = include_str!("exceptions.md")]

use super::bits::{BitWriter, best_rice, rice_len};
use kpk_probe::MAX_INDEX;
use kpk_probe::bits::{BitError, BitReader};

/// How the table is coded and searched (also printed in reports/COMPRESSION.md).
pub const CODING_DOC: &str = include_str!("exceptions.md");

/// A set of position indices, every one below [`MAX_INDEX`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExceptionSet {
    sorted: Vec<u32>,
}

impl ExceptionSet {
    /// The set of `indices` (any order, duplicates merged). `None` if one is out of range.
    pub fn new(mut indices: Vec<u32>) -> Option<ExceptionSet> {
        indices.sort_unstable();
        indices.dedup();
        indices.last().is_none_or(|&i| (i as usize) < MAX_INDEX).then_some(ExceptionSet { sorted: indices })
    }

    #[inline]
    pub fn contains(&self, index: u32) -> bool {
        self.sorted.binary_search(&index).is_ok()
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// The indices in increasing order.
    pub fn indices(&self) -> &[u32] {
        &self.sorted
    }

    fn gaps(&self) -> impl Iterator<Item = u64> + Clone + '_ {
        gaps(&self.sorted)
    }

    /// The Rice parameter that codes this set in the fewest bits, and that number of bits.
    pub fn best_parameter(&self) -> (u32, u64) {
        best_rice(self.gaps())
    }

    /// Payload bits with Rice parameter `k`.
    pub fn coded_bits(&self, k: u32) -> u64 {
        self.gaps().map(|g| rice_len(g, k)).sum()
    }

    /// Append the Rice-coded gaps with parameter `k`.
    pub fn write(&self, w: &mut BitWriter, k: u32) {
        write_sorted(&self.sorted, w, k);
    }

    /// Read `count` gaps coded with parameter `k`; rejects indices beyond [`MAX_INDEX`].
    pub fn read(r: &mut BitReader, count: usize, k: u32) -> Result<ExceptionSet, BitError> {
        Ok(ExceptionSet { sorted: read_sorted(r, count, k, MAX_INDEX)? })
    }
}

/// The gaps of sorted distinct values: the first value, then each difference minus one.
pub fn gaps(sorted: &[u32]) -> impl Iterator<Item = u64> + Clone + '_ {
    let previous = std::iter::once(None).chain(sorted.iter().map(Some));
    sorted.iter().zip(previous).map(|(&e, p)| match p {
        None => u64::from(e),
        Some(&p) => u64::from(e - p - 1),
    })
}

/// Append the Rice-coded gaps of sorted distinct values.
pub fn write_sorted(sorted: &[u32], w: &mut BitWriter, k: u32) {
    for g in gaps(sorted) {
        w.rice(g, k);
    }
}

// Reading them back, `count` sorted distinct values below `universe`, is the probe crate's.
use kpk_probe::model::read_sorted;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn round_trip(set: &ExceptionSet) {
        let (k, bits) = set.best_parameter();
        let mut w = BitWriter::new();
        set.write(&mut w, k);
        assert_eq!(w.len() as u64, bits);
        assert_eq!(set.coded_bits(k), bits);
        let bytes = w.into_bytes();
        let mut r = BitReader::new(&bytes);
        let back = ExceptionSet::read(&mut r, set.len(), k).unwrap();
        assert!(r.at_padded_end());
        assert_eq!(&back, set);
    }

    #[test]
    fn round_trips_empty_full_edges_and_random_sets() {
        round_trip(&ExceptionSet::default());
        round_trip(&ExceptionSet::new(vec![0]).unwrap());
        round_trip(&ExceptionSet::new(vec![MAX_INDEX as u32 - 1]).unwrap());
        round_trip(&ExceptionSet::new(vec![0, 1, 2, MAX_INDEX as u32 - 1]).unwrap());
        round_trip(&ExceptionSet::new((0..MAX_INDEX as u32).collect()).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for n in [1usize, 10, 100, 1000, 20_000] {
            let v: Vec<u32> = (0..n).map(|_| rng.random_range(0..MAX_INDEX as u32)).collect();
            round_trip(&ExceptionSet::new(v).unwrap());
        }
    }

    #[test]
    fn membership_is_exact_on_every_index() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let v: Vec<u32> = (0..3000).map(|_| rng.random_range(0..MAX_INDEX as u32)).collect();
        let set = ExceptionSet::new(v.clone()).unwrap();
        let mut member = vec![false; MAX_INDEX];
        for &i in &v {
            member[i as usize] = true;
        }
        for (i, &m) in member.iter().enumerate() {
            assert_eq!(set.contains(i as u32), m, "index {i}");
        }
    }

    #[test]
    fn rejects_out_of_range_indices() {
        assert!(ExceptionSet::new(vec![MAX_INDEX as u32]).is_none());
        // A gap that runs past the last index is corrupt.
        let mut w = BitWriter::new();
        w.rice(MAX_INDEX as u64, 17);
        let bytes = w.into_bytes();
        assert_eq!(ExceptionSet::read(&mut BitReader::new(&bytes), 1, 17), Err(BitError::TooLarge));
    }

    #[test]
    fn rice_beats_elias_fano_at_typical_density() {
        // 200 random exceptions: Elias–Fano needs n(2 + ⌈log₂(U/n)⌉) bits.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let v: Vec<u32> = (0..200).map(|_| rng.random_range(0..MAX_INDEX as u32)).collect();
        let set = ExceptionSet::new(v).unwrap();
        let n = set.len() as f64;
        let elias_fano = n * (2.0 + (MAX_INDEX as f64 / n).log2().ceil());
        assert!((set.best_parameter().1 as f64) < elias_fano);
    }
}
