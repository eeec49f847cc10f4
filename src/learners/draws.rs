//! The comparison's draws: which positions of a side a learner trains on in draw `d` of size `n`,
//! and the positions it is tested on (every other position of that side). One function owns the
//! draw, so every learner of the comparison, and anything else that wants to be compared with
//! them (a Python estimator through `kpk.benchmark`), trains on exactly the same positions.

use super::Samples;
use crate::chess::bitbase::Bitbase;
use crate::dataset::{Dataset, SetName, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The set of every legal position of `side` (wtm or btm), in index order.
pub fn side_set(side: Side) -> SetName {
    if side == Side::Btm { SetName::Btm } else { SetName::Wtm }
}

/// The training positions of draw `draw` of `n` positions of `side`, as indices into the side's
/// legal positions in index order (`Dataset::of(SetName::Wtm | SetName::Btm, _, bb).positions`;
/// 81,664 wtm, 84,012 btm), ascending and distinct. The draw is the first `n` of a partial
/// Fisher–Yates shuffle by ChaCha8 seeded from the 32 bytes of (`seed`, side, `n`, `draw`), each
/// little-endian u64 (wtm 0, btm 1), so draws of different sizes and indices are independent and
/// the same arguments give the same positions on every machine. `n` above the side's size takes
/// every position. `seed` is the declaration's (`experiments/learners_powered.toml`).
pub fn training_draw(seed: u64, side: Side, n: usize, draw: usize) -> Vec<usize> {
    let words = [seed, u64::from(side == Side::Btm), n as u64, draw as u64];
    let mut pool = shuffled(&mut ChaCha8Rng::from_seed(chacha_key(words)), side_set(side).size(), n);
    pool.sort_unstable();
    pool
}

/// ChaCha8's 32-byte seed from four words, each little-endian u64 in order: the key of every
/// seeded draw of section 7's learners (a draw, a fold split, a learner's seed).
pub fn chacha_key(words: [u64; 4]) -> [u8; 32] {
    let mut key = [0u8; 32];
    for (i, v) in words.into_iter().enumerate() {
        key[8 * i..8 * i + 8].copy_from_slice(&v.to_le_bytes());
    }
    key
}

/// The first `k` (at most `size`) of a partial Fisher–Yates shuffle of 0..size, in shuffled
/// order: for i from 0 to k − 1, j uniform in i..size (`rng.random_range`), swap i and j.
pub fn shuffled(rng: &mut ChaCha8Rng, size: usize, k: usize) -> Vec<usize> {
    let k = k.min(size);
    let mut pool: Vec<usize> = (0..size).collect();
    for i in 0..k {
        let j = rng.random_range(i..size);
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

/// A side's positions as learners see them, split by a draw.
pub struct Split {
    pub train: Samples,
    pub test: Samples,
}

/// Every position of a side once, for splitting by draws.
pub struct SidePositions {
    pub side: Side,
    pub all: Samples,
}

impl SidePositions {
    pub fn new(side: Side, bb: &Bitbase) -> SidePositions {
        SidePositions { side, all: Samples::of(&Dataset::of(side_set(side), 0, bb)) }
    }

    /// The draw's training positions and the rest as the testing positions.
    pub fn split(&self, train: &[usize]) -> Split {
        let mut in_train = vec![false; self.all.len()];
        for &i in train {
            in_train[i] = true;
        }
        let pick = |keep: bool| {
            let idx = (0..self.all.len()).filter(|&i| in_train[i] == keep);
            let mut s = Samples::default();
            for i in idx {
                s.rows.push(self.all.rows[i]);
                s.wins.push(self.all.wins[i]);
                s.dtc.push(self.all.dtc[i]);
            }
            s
        };
        Split { train: pick(true), test: pick(false) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_is_fixed_by_its_arguments_distinct_sorted_and_within_the_side() {
        let a = training_draw(7, Side::Wtm, 125, 0);
        assert_eq!(a, training_draw(7, Side::Wtm, 125, 0));
        assert_eq!(a.len(), 125);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&i| i < 81_664));
        for other in [
            training_draw(8, Side::Wtm, 125, 0),
            training_draw(7, Side::Btm, 125, 0),
            training_draw(7, Side::Wtm, 125, 1),
        ] {
            assert_ne!(a, other);
        }
        assert_eq!(training_draw(1, Side::Btm, 100_000, 0).len(), 84_012);
    }
}
