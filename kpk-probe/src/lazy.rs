//! Answers from a format-version-3 model (a decision tree and its exceptions) one position at a
//! time, without expanding the answer set: for small machines, where [`crate::Model`]'s 24 KB
//! bit set of answers (built at load) does not fit or takes too long to build.
//!
//! Loading checks the file as [`crate::Model::from_bytes`] does and fills a workspace the caller
//! owns ([`workspace_words`]): a table of fixed size ([`JUMP_LEVELS`]) and the exceptions, one
//! 32-bit word each. The tree is walked in the file's own bits. A split's left subtree follows it
//! at once; to go right a walk must skip the left subtree, which it reads node by node, except at
//! the splits nearest the root, whose right subtrees' offsets the table keeps. No allocation, no
//! global state; beyond the file and the workspace a query needs only its stack.
//!
//! A query with the pawn side to move walks the tree over Table 4's characteristics and flips its
//! class when the position is an exception (a binary search). With the lone king to move it
//! applies the one-ply rule of [`crate::Coverage::PawnSideToMove`]: a draw when the lone king can
//! take the pawn or has no move (stalemate), otherwise a win exactly when each of its at most 8
//! moves leads to a win, each answered by a tree walk.

use crate::model::{
    Answer, CONFIDENCE_ORDER, FormatError, MAGIC, MAX_RICE, Source, VERSION_TREE, open_envelope,
};
use crate::position::{MAX_INDEX, Outcome, Position};
use crate::table4::{N_FEATURES, characteristics};
use crate::tree::{MAX_DEPTH, RANGES, X_BITS, threshold_bits};

/// Bytes before the bit stream: magic, version, length, input function 1 and its 5-byte mask,
/// the exception header.
const HEADER_LEN: usize = 4 + 1 + 4 + 1 + 5 + 4;
/// The checksum's bytes at the end.
const CRC_LEN: usize = 4;

/// Levels of splits, from the root down, whose right subtrees' offsets loading keeps: a table
/// of `2^JUMP_LEVELS` words, whatever the tree's size.
pub const JUMP_LEVELS: u32 = 8;
const JUMPS: usize = 1 << JUMP_LEVELS;

/// Words of workspace a model file needs: the table, then one per exception (the count its
/// header gives).
#[must_use]
pub fn workspace_words(bytes: &[u8]) -> usize {
    JUMPS + bytes.get(15..18).map_or(0, |n| u32::from_le_bytes([n[0], n[1], n[2], 0]) as usize)
}

/// A loaded version-3 model answering lazily: the file's bit stream and the caller's workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lazy<'a> {
    /// The bit stream: the tree, then the exceptions' gaps.
    stream: &'a [u8],
    /// Words `1..JUMPS` (heap numbering: the root 1, a split `h`'s children `2h` and `2h + 1`):
    /// the bit offset of split `h`'s right subtree, where split `h` exists and its left child is
    /// a split (other words are never read); then the sorted exception indices.
    work: &'a [u32],
}

impl<'a> Lazy<'a> {
    /// Check a version-3 model file and fill `work` (at least [`workspace_words`] words); a file
    /// of another version is refused.
    pub fn load(bytes: &'a [u8], work: &'a mut [u32]) -> Result<Lazy<'a>, FormatError> {
        let (mask, words, ke) = check_header(bytes)?;
        let work =
            work.get_mut(..words).ok_or(FormatError::Invalid("the workspace is too small for the model"))?;
        let mut lazy = Lazy { stream: &bytes[HEADER_LEN..bytes.len() - CRC_LEN], work: &[] };
        let (jumps, exceptions) = work.split_at_mut(JUMPS);
        let (tree_end, _) = lazy.read_subtree(0, 0, 1, None, mask, jumps).map_err(Refusal::error)?;
        let end = lazy.read_exceptions(tree_end, ke, exceptions).map_err(Refusal::error)?;
        let bits = lazy.stream.len() * 8;
        if end > bits || bits - end >= 8 || lazy.bits(end, (bits - end) as u32) != 0 {
            return Err(FormatError::Invalid("the bit stream does not end where the file does"));
        }
        lazy.work = work;
        Ok(lazy)
    }

    /// The sorted exception indices.
    #[must_use]
    pub fn exceptions(&self) -> &[u32] {
        self.work.get(JUMPS..).unwrap_or_default()
    }

    /// The exact answer for `p`, the same as [`crate::Model::probe`] gives from the same file.
    #[must_use]
    pub fn probe(&self, p: &Position) -> Answer {
        if p.white_to_move() { self.covered(p) } else { self.one_ply(p) }
    }

    /// The one-ply rule for `p`, the lone king to move. (Not inlined, here and in this module's
    /// other steps, so that a small build's symbols show the code each step takes.)
    #[inline(never)]
    fn one_ply(&self, p: &Position) -> Answer {
        let (mut replies, mut all_win) = (false, true);
        let takes = p.lone_king_replies(|q| {
            replies = true;
            all_win = all_win && self.covered(&q).outcome == Outcome::Win;
        });
        let win = !takes && replies && all_win;
        Answer { outcome: if win { Outcome::Win } else { Outcome::Draw }, source: Source::Rule }
    }

    /// The tree's class for `p` (the pawn side to move), flipped when `p` is an exception.
    fn covered(&self, p: &Position) -> Answer {
        let tree = self.walk(&features(p));
        let flipped = self.is_exception(p.index());
        let outcome = if tree != flipped { Outcome::Win } else { Outcome::Draw };
        Answer { outcome, source: if flipped { Source::Exception } else { Source::Tree } }
    }

    /// Whether the position at `index` is an exception: a binary search.
    #[inline(never)]
    fn is_exception(&self, index: u32) -> bool {
        self.exceptions().binary_search(&index).is_ok()
    }

    /// `n ≤ 9` bits of the stream from bit `at`, the first read the least significant; bits
    /// past the end read as 0 (loading refuses a stream whose reading runs past its end).
    fn peek(&self, at: usize, n: u32) -> u32 {
        let byte = |i: usize| u32::from(self.stream.get(i).copied().unwrap_or(0));
        (byte(at / 8) | byte(at / 8 + 1) << 8) >> (at % 8) & ((1 << n) - 1)
    }

    /// `n ≤ 32` bits from bit `at`, as [`Lazy::peek`] reads them.
    fn bits(&self, at: usize, n: u32) -> u32 {
        (0..n).fold(0, |v, i| v | self.peek(at + i as usize, 1) << i)
    }

    /// The split at bit `at`: its characteristic (0-based), its threshold and where its left
    /// subtree starts.
    fn split(&self, at: usize) -> (usize, u32, usize) {
        let x = self.peek(at + 1, X_BITS) as usize % N_FEATURES;
        let n = threshold_bits(x);
        (x, self.peek(at + 1 + X_BITS as usize, n), at + 1 + X_BITS as usize + n as usize)
    }

    /// Walk the tree from the root to a leaf: `true` for a win.
    #[inline(never)]
    fn walk(&self, f: &[i8; N_FEATURES]) -> bool {
        let (mut at, mut h, mut sibling) = (0, 1, None);
        loop {
            if self.peek(at, 1) == 0 {
                return sibling.map_or(self.peek(at + 1, 1) == 1, |left: bool| !left);
            }
            let (x, t, left) = self.split(at);
            if i32::from(f[x]) - i32::from(RANGES[x].0) <= t as i32 {
                (at, h, sibling) = (left, child(h, 0), None);
                continue;
            }
            // The right subtree: right after a leaf on the left (whose class the right one,
            // if a leaf, does not repeat), else where the table or a skip says.
            if self.peek(left, 1) == 0 {
                (at, sibling) = (left + 2, Some(self.peek(left + 1, 1) == 1));
            } else {
                at = match self.work.get(h) {
                    Some(&jump) if h < JUMPS => jump as usize,
                    _ => self.skip(left),
                };
                sibling = None;
            }
            h = child(h, 1);
        }
    }

    /// Where the subtree at bit `at` (a split, a left child) ends: its nodes read one by one. A
    /// leaf right after a leaf that follows a split is that leaf's right sibling, and stores no
    /// class.
    #[inline(never)]
    fn skip(&self, mut at: usize) -> usize {
        let (mut open, mut after_split, mut implied) = (1u32, false, false);
        while open > 0 {
            if self.peek(at, 1) == 1 {
                at = self.split(at).2;
                (open, after_split, implied) = (open + 1, true, false);
            } else {
                at += if implied { 1 } else { 2 };
                (open, implied, after_split) = (open - 1, after_split, false);
            }
        }
        at
    }

    /// Read and check the subtree at bit `at` (the layout and the checks of [`crate::tree`]), at
    /// depth `depth` and heap number `h`, writing the right subtrees' offsets of splits numbered
    /// below [`JUMPS`] into `jumps`; `sibling` is the class of its left sibling when that is a
    /// leaf. Where it ends, and its class when it is a leaf.
    fn read_subtree(
        &self,
        at: usize,
        depth: usize,
        h: usize,
        sibling: Option<bool>,
        mask: u32,
        jumps: &mut [u32],
    ) -> Result<(usize, Option<bool>), Refusal> {
        if depth > MAX_DEPTH {
            return Err(Refusal::TooDeep);
        }
        if self.peek(at, 1) == 0 {
            return Ok(match sibling {
                Some(other) => (at + 1, Some(!other)),
                None => (at + 2, Some(self.peek(at + 1, 1) == 1)),
            });
        }
        let (x, t, left) = self.split(at);
        if mask >> x & 1 == 0 {
            return Err(Refusal::OutsideMask);
        }
        if t >= (RANGES[x].1 - RANGES[x].0) as u32 {
            return Err(Refusal::Threshold);
        }
        let (right, class) = self.read_subtree(left, depth + 1, child(h, 0), None, mask, jumps)?;
        if let Some(jump) = jumps.get_mut(h) {
            *jump = right as u32;
        }
        let (end, _) = self.read_subtree(right, depth + 1, child(h, 1), class, mask, jumps)?;
        Ok((end, None))
    }

    /// The exceptions' Rice-coded gaps (parameter `k`) from bit `at` into `out`: each the index
    /// of a legal position with the pawn side to move, in increasing order. Where they end.
    #[inline(never)]
    fn read_exceptions(&self, mut at: usize, k: u32, out: &mut [u32]) -> Result<usize, Refusal> {
        // Every sum stays below 2^32: the quotient stops once past MAX_INDEX >> k, and k ≤ 24.
        let mut next = 0; // smallest value the next one may take
        for slot in out {
            let mut gap = 0u32;
            while self.peek(at, 1) == 1 && gap <= MAX_INDEX as u32 >> k {
                (gap, at) = (gap + 1, at + 1);
            }
            let e = next + (gap << k | self.bits(at + 1, k));
            at += 1 + k as usize;
            if e >= MAX_INDEX as u32 / 2 {
                return Err(Refusal::OutOfRange);
            }
            if Position::from_index(e).is_none() {
                return Err(Refusal::NotCovered);
            }
            *slot = e;
            next = e + 1;
        }
        Ok(at)
    }
}

impl crate::probe::Probe for Lazy<'_> {
    fn probe(&self, p: &Position) -> Answer {
        Lazy::probe(self, p)
    }
}

/// Why the bits after the header were refused; [`Lazy::load`] names it as a [`FormatError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    TooDeep,
    OutsideMask,
    Threshold,
    OutOfRange,
    NotCovered,
}

impl Refusal {
    #[inline(always)]
    fn error(self) -> FormatError {
        FormatError::Invalid(match self {
            Refusal::TooDeep => "the tree is deeper than 64 levels",
            Refusal::OutsideMask => "a split reads a characteristic outside the input mask",
            Refusal::Threshold => "a split's threshold is out of its characteristic's range",
            Refusal::OutOfRange => "an exception's index is out of range",
            Refusal::NotCovered => "an exception names no legal position the model covers",
        })
    }
}

/// The heap number of split `h`'s left (`side` 0) or right (1) child, or [`JUMPS`] for every
/// node below the table's levels.
fn child(h: usize, side: usize) -> usize {
    if h < JUMPS { 2 * h + side } else { JUMPS }
}

/// Table 4's characteristics of `p` with the pawn side to move.
#[inline(never)]
fn features(p: &Position) -> [i8; N_FEATURES] {
    characteristics(p.coordinates(), true)
}

/// Magic, version, length, checksum, the input function and the exception header: the input
/// mask, the workspace's words and the exceptions' Rice parameter.
fn check_header(bytes: &[u8]) -> Result<(u32, usize, u32), FormatError> {
    let exact = |v| if v == VERSION_TREE { Ok(()) } else { Err(FormatError::Version(v)) };
    let (body, ()) = open_envelope(bytes, MAGIC, HEADER_LEN + CRC_LEN, exact)?;
    if body[9] != 1 {
        return Err(FormatError::Invalid("a version-3 file's input function must be 1 (characteristics)"));
    }
    let mask = u64::from_le_bytes([body[10], body[11], body[12], body[13], body[14], 0, 0, 0]);
    if mask == 0 || mask >> N_FEATURES != 0 {
        return Err(FormatError::Invalid("a tree's input mask must name some of x1..x32 and nothing else"));
    }
    let ke = u32::from(body[18]);
    if ke & u32::from(CONFIDENCE_ORDER) != 0 || ke > MAX_RICE {
        return Err(FormatError::Invalid("the exceptions' header is not a version-3 one"));
    }
    Ok((mask as u32, workspace_words(bytes), ke))
}

#[cfg(test)]
mod tests;
