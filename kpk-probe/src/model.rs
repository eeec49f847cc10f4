//! The model file: decoding (format versions 1, 2 and 3) and answering.

use crate::bits::{BitError, BitReader, crc32};
use crate::fen::FenError;
use crate::first_layer::FirstLayer;
use crate::input::{Input, SIDE_TO_MOVE};
use crate::net::{Layer, MAX_LAYERS, MAX_WIDTH, Net, NetError};
use crate::position::{MAX_INDEX, Outcome, Position};
use crate::square::Color;
use crate::table4::{N_FEATURES, characteristics};
use crate::tree::{Tree, TreeError};
use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

pub const MAGIC: &[u8; 4] = b"KPKH";
/// The format version of a file whose net and exceptions answer every legal position.
pub const VERSION: u8 = 1;
/// The format version of a file whose net and exceptions answer the positions with the pawn side
/// to move, the others by the one-ply rule ([`Coverage::PawnSideToMove`]).
pub const VERSION_PAWN_SIDE: u8 = 2;
/// The format version of a file whose decision tree and exceptions answer the positions with the
/// pawn side to move, the others by the one-ply rule (see [`crate::tree`]).
pub const VERSION_TREE: u8 = 3;
const CRC_LEN: usize = 4;
/// Magic, version, length.
const PREAMBLE_LEN: usize = 4 + 1 + 4;
const LAYER_HEADER_LEN: usize = 4;
const EXCEPTION_HEADER_LEN: usize = 4;
/// Bit of the exception header's parameter byte set when exceptions are numbered by confidence.
pub const CONFIDENCE_ORDER: u8 = 0x80;
/// Largest Rice parameter a file may use.
pub const MAX_RICE: u32 = 24;
/// Largest bias magnitude a file may hold.
pub const MAX_BIAS: i64 = 1 << 24;
/// Bytes of the feature mask: 33 bits.
const MASK_BYTES: usize = 5;

/// Parse the input function from the start of `bytes`: the function and the bytes used.
fn read_input(bytes: &[u8]) -> Result<(Input, usize), FormatError> {
    match bytes.first() {
        Some(0) => Ok((Input::Coordinates, 1)),
        Some(1) => {
            let m = bytes.get(1..1 + MASK_BYTES).ok_or(FormatError::Truncated)?;
            let mut le = [0u8; 8];
            le[..MASK_BYTES].copy_from_slice(m);
            let mask = u64::from_le_bytes(le);
            if mask == 0 || mask >> SIDE_TO_MOVE != 0 {
                return Err(FormatError::Invalid("the input mask names no input or one beyond x33"));
            }
            Ok((Input::Features { mask }, 1 + MASK_BYTES))
        }
        Some(_) => Err(FormatError::Invalid("unknown input function")),
        None => Err(FormatError::Truncated),
    }
}

/// Why a model file was refused. A corrupt or truncated file is an error, never an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// The file does not start with the magic of the kind expected (`KPKH` for a hybrid model,
    /// `KPKZ` for a DTZ model): what it starts with instead.
    BadMagic { expected: [u8; 4], found: [u8; 4] },
    /// A format version this reader does not know.
    Version(u8),
    /// The file is shorter than its fields, or than its header says.
    Truncated,
    /// The header's length is not the file's.
    Length { header: u32, actual: usize },
    /// The CRC-32 does not match.
    Checksum,
    /// A field is out of range or the fields do not fit together.
    Invalid(&'static str),
    /// The net's shapes, shifts or bounds.
    Net(NetError),
    /// The bit stream.
    Stream(BitError),
}

impl From<TreeError> for FormatError {
    fn from(e: TreeError) -> FormatError {
        match e {
            TreeError::Invalid(what) => FormatError::Invalid(what),
            TreeError::Stream(e) => FormatError::Stream(e),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::BadMagic { expected, found } => f.write_str(&crate::magic::not_a(expected, found)),
            FormatError::Version(v) => {
                write!(
                    f,
                    "unsupported model format version {v}, expected {VERSION}, {VERSION_PAWN_SIDE} or {VERSION_TREE}"
                )
            }
            FormatError::Truncated => f.write_str("truncated: a field runs past the end of the file"),
            FormatError::Length { header, actual } => {
                write!(f, "file is {actual} bytes but its header says {header}: truncated or padded")
            }
            FormatError::Checksum => f.write_str("checksum mismatch: the file is corrupt"),
            FormatError::Invalid(what) => f.write_str(what),
            FormatError::Net(e) => write!(f, "net: {e}"),
            FormatError::Stream(e) => write!(f, "bit stream: {e}"),
        }
    }
}

impl From<BitError> for FormatError {
    fn from(e: BitError) -> Self {
        FormatError::Stream(e)
    }
}

/// Which positions the net and the exception table answer; the format version says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Version 1: every legal position.
    All,
    /// Version 2: the positions with the pawn side to move. A position with the lone king to move
    /// is answered by the rules one ply ahead: a draw when the lone king can take the pawn or has
    /// no move (stalemate), otherwise a win exactly when every move of the lone king leads to a
    /// position the model answers as a win. The exceptions name positions with the pawn side to
    /// move only.
    PawnSideToMove,
}

impl Coverage {
    /// Whether the net and the exceptions answer `p`.
    #[must_use]
    pub fn covers(self, p: &Position) -> bool {
        self == Coverage::All || p.white_to_move()
    }

    /// The format version that stores a model of this coverage.
    #[must_use]
    pub fn version(self) -> u8 {
        match self {
            Coverage::All => VERSION,
            Coverage::PawnSideToMove => VERSION_PAWN_SIDE,
        }
    }
}

/// Which part of the model gave an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The net's answer, not overruled.
    Net,
    /// The decision tree's answer (format version 3), not overruled.
    Tree,
    /// The position is in the exception table: the answer is the opposite of the net's (or the
    /// tree's).
    Exception,
    /// The lone king is to move in a version-2 model: the one-ply rule over the model's answers
    /// (see [`Coverage::PawnSideToMove`]).
    Rule,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Net => "net",
            Source::Tree => "tree",
            Source::Exception => "exception",
            Source::Rule => "rule",
        })
    }
}

/// An answer and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub outcome: Outcome,
    pub source: Source,
}

/// What answers the positions a model covers before the exceptions: a net (format versions 1
/// and 2) or a decision tree (version 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Learner {
    /// The integer net and its first layer as tables (built at load; see [`crate::first_layer`]).
    Net {
        net: Net,
        first: FirstLayer,
    },
    Tree(Tree),
}

/// A loaded model: the net or tree, its input function and the exception table. Immutable once
/// loaded, so one model may answer from many threads at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    input: Input,
    learner: Learner,
    /// Sorted position indices where the learner's answer is wrong.
    exceptions: Vec<u32>,
    /// Bit `i` set iff index `i` is an exception.
    flipped: Vec<u64>,
    coverage: Coverage,
    /// Answers computed at load, bit `i` set iff the position at index `i` is a win: for a
    /// version-2 net the positions with the lone king to move (by the one-ply rule); for a tree
    /// every legal position (the tree corrected by the exceptions, then the rule); empty for a
    /// version-1 net.
    by_rule: Vec<u64>,
}

impl Model {
    /// Put a model together; `exceptions` are position indices (any order, duplicates merged),
    /// each of a legal position.
    pub fn new(input: Input, net: Net, exceptions: Vec<u32>) -> Result<Model, FormatError> {
        Model::with_coverage(input, net, exceptions, Coverage::All)
    }

    /// Put a model of the given coverage together; the exceptions must be positions it covers.
    /// A [`Coverage::PawnSideToMove`] model answers every position with the pawn side to move
    /// once here, then every position with the lone king to move by the rule.
    pub fn with_coverage(
        input: Input,
        net: Net,
        exceptions: Vec<u32>,
        coverage: Coverage,
    ) -> Result<Model, FormatError> {
        if net.n_inputs() != input.width() {
            return Err(FormatError::Invalid("the net's input width is not its input function's"));
        }
        let first = FirstLayer::new(input, &net.layers()[0]);
        Model::assemble(input, Learner::Net { net, first }, exceptions, coverage)
    }

    /// Put a version-3 model together: a tree over the characteristics in `mask` (x1..x32 only)
    /// answers the positions with the pawn side to move, corrected by `exceptions` (indices of
    /// such positions), the others by the one-ply rule. Every answer is computed here, once.
    pub fn with_tree(mask: u64, tree: Tree, exceptions: Vec<u32>) -> Result<Model, FormatError> {
        if mask == 0 || mask >> N_FEATURES != 0 {
            return Err(FormatError::Invalid(
                "a tree's input mask must name some of x1..x32 and nothing else",
            ));
        }
        if tree.reads() & !mask != 0 {
            return Err(FormatError::Invalid("a split reads a characteristic outside the input mask"));
        }
        Model::assemble(Input::Features { mask }, Learner::Tree(tree), exceptions, Coverage::PawnSideToMove)
    }

    fn assemble(
        input: Input,
        learner: Learner,
        mut exceptions: Vec<u32>,
        coverage: Coverage,
    ) -> Result<Model, FormatError> {
        exceptions.sort_unstable();
        exceptions.dedup();
        if exceptions.iter().any(|&i| Position::from_index(i).is_none_or(|p| !coverage.covers(&p))) {
            return Err(FormatError::Invalid("an exception names no legal position the model covers"));
        }
        let mut flipped = alloc::vec![0u64; MAX_INDEX.div_ceil(64)];
        for &i in &exceptions {
            flipped[i as usize / 64] |= 1 << (i % 64);
        }
        let mut model = Model { input, learner, exceptions, flipped, coverage, by_rule: Vec::new() };
        if coverage == Coverage::PawnSideToMove {
            model.by_rule = model.rule_answers();
        }
        Ok(model)
    }

    /// The one-ply rule's answer for every position with the lone king to move, as a bit set
    /// over the indices, from the model's answers for the pawn side to move (for a tree, those
    /// answers are in the set too).
    fn rule_answers(&self) -> Vec<u64> {
        let words = MAX_INDEX.div_ceil(64);
        let mut pawn_side_wins = alloc::vec![0u64; words];
        Position::each(Color::White, |p| {
            if self.covered(&p).outcome == Outcome::Win {
                set_bit(&mut pawn_side_wins, p.index());
            }
        });
        let mut by_rule = if matches!(self.learner, Learner::Tree(_)) {
            pawn_side_wins.clone()
        } else {
            alloc::vec![0u64; words]
        };
        Position::each(Color::Black, |p| {
            let (mut replies, mut all_win) = (0, true);
            let takes = p.lone_king_replies(|q| {
                replies += 1;
                all_win &= has_bit(&pawn_side_wins, q.index());
            });
            if !takes && replies > 0 && all_win {
                set_bit(&mut by_rule, p.index());
            }
        });
        by_rule
    }

    /// Bit `i` set iff index `i` names a legal position the model answers as a win: for a tree
    /// the set computed at load, for a net every legal position answered here.
    #[must_use]
    pub fn wins(&self) -> Cow<'_, [u64]> {
        if matches!(self.learner, Learner::Tree(_)) {
            return Cow::Borrowed(&self.by_rule);
        }
        let mut wins = alloc::vec![0u64; MAX_INDEX.div_ceil(64)];
        for side in [Color::White, Color::Black] {
            Position::each(side, |p| {
                if self.probe(&p).outcome == Outcome::Win {
                    set_bit(&mut wins, p.index());
                }
            });
        }
        Cow::Owned(wins)
    }

    /// Decode a model file (format version 1, 2 or 3; see the crate documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, FormatError> {
        let (body, coverage) = check_envelope(bytes)?;
        if bytes[4] == VERSION_TREE {
            return from_tree_body(body);
        }
        let (input, used) = read_input(&body[PREAMBLE_LEN..])?;
        let layers_at = PREAMBLE_LEN + used + 1;
        let n_layers = *body.get(layers_at - 1).ok_or(FormatError::Truncated)? as usize;
        if !(1..=MAX_LAYERS).contains(&n_layers) {
            return Err(FormatError::Net(NetError::LayerCount));
        }
        let headers_end = layers_at + LAYER_HEADER_LEN * n_layers + EXCEPTION_HEADER_LEN;
        let headers = body.get(layers_at..headers_end).ok_or(FormatError::Truncated)?;
        let (layer_headers, e) = headers.split_at(LAYER_HEADER_LEN * n_layers);
        let n_exceptions = u32::from_le_bytes([e[0], e[1], e[2], 0]) as usize;
        let ke = u32::from(e[3] & !CONFIDENCE_ORDER);
        let by_confidence = e[3] & CONFIDENCE_ORDER != 0;

        let mut r = BitReader::new(&body[headers_end..]);
        let mut layers = Vec::with_capacity(n_layers);
        let mut n_in = input.width();
        for h in layer_headers.chunks_exact(LAYER_HEADER_LEN) {
            let (n_out, shift, kw, kb) = (h[0] as usize + 1, h[1] as i8, u32::from(h[2]), u32::from(h[3]));
            if kw > MAX_RICE || kb > MAX_RICE || n_out > MAX_WIDTH {
                return Err(FormatError::Invalid("a layer's width or Rice parameter is out of range"));
            }
            let weights = read_values(&mut r, n_out * n_in, kw, i64::from(i16::MAX))?;
            let biases = read_values(&mut r, n_out, kb, MAX_BIAS)?;
            let weights = weights.into_iter().map(|w| w as i16).collect();
            layers.push(Layer { n_in, n_out, shift, weights, biases });
            n_in = n_out;
        }
        let net = Net::new(layers, input.bound()).map_err(FormatError::Net)?;
        if ke > MAX_RICE {
            return Err(FormatError::Invalid("the exceptions' Rice parameter is out of range"));
        }
        let exceptions = if by_confidence {
            let order = confidence_order(input, &net, coverage);
            let ranks = read_sorted(&mut r, n_exceptions, ke, order.len())?;
            ranks.iter().map(|&rank| order[rank as usize]).collect()
        } else {
            read_sorted(&mut r, n_exceptions, ke, MAX_INDEX)?
        };
        if !r.at_padded_end() {
            return Err(FormatError::Invalid("the bit stream does not end where the file does"));
        }
        Model::with_coverage(input, net, exceptions, coverage)
    }

    #[must_use]
    pub fn input(&self) -> Input {
        self.input
    }

    /// Which positions the net and the exceptions answer.
    #[must_use]
    pub fn coverage(&self) -> Coverage {
        self.coverage
    }

    /// The format version that stores this model.
    #[must_use]
    pub fn version(&self) -> u8 {
        match self.learner {
            Learner::Tree(_) => VERSION_TREE,
            Learner::Net { .. } => self.coverage.version(),
        }
    }

    /// What answers before the exceptions: the net or the tree.
    #[must_use]
    pub fn learner(&self) -> &Learner {
        &self.learner
    }

    /// The net, if the model holds one (versions 1 and 2).
    #[must_use]
    pub fn net(&self) -> Option<&Net> {
        match &self.learner {
            Learner::Net { net, .. } => Some(net),
            Learner::Tree(_) => None,
        }
    }

    /// The exception table: sorted position indices.
    #[must_use]
    pub fn exceptions(&self) -> &[u32] {
        &self.exceptions
    }

    /// The learner's output for `p`, win iff > 0: the net's output accumulator, whose magnitude
    /// is the net's confidence; a tree's class as +1 (win) or −1 (draw).
    #[inline]
    #[must_use]
    pub fn net_output(&self, p: &Position) -> i32 {
        match &self.learner {
            Learner::Net { net, first } => {
                let mut acc = [0i32; MAX_WIDTH];
                first.sums(p, &mut acc);
                net.forward_from_first(&acc[..net.layers()[0].n_out], |_, _, _| {})
            }
            Learner::Tree(tree) => {
                if tree.answer(&characteristics(p.coordinates(), p.white_to_move())) {
                    1
                } else {
                    -1
                }
            }
        }
    }

    /// The exact answer for `p`: the net's, flipped when `p` is an exception; in a version-2
    /// model a position with the lone king to move by the one-ply rule.
    #[inline]
    #[must_use]
    pub fn probe(&self, p: &Position) -> Answer {
        let tree = matches!(self.learner, Learner::Tree(_));
        if tree || !self.coverage.covers(p) {
            let i = p.index() as usize;
            let win = self.by_rule[i / 64] >> (i % 64) & 1 == 1;
            let source = match (self.coverage.covers(p), self.flipped[i / 64] >> (i % 64) & 1 == 1) {
                (false, _) => Source::Rule,
                (true, true) => Source::Exception,
                (true, false) => Source::Tree,
            };
            return Answer { outcome: if win { Outcome::Win } else { Outcome::Draw }, source };
        }
        self.covered(p)
    }

    /// The net's answer for `p`, flipped when `p` is an exception.
    #[inline]
    fn covered(&self, p: &Position) -> Answer {
        let net = if self.net_output(p) > 0 { Outcome::Win } else { Outcome::Draw };
        let i = p.index();
        if self.flipped[i as usize / 64] >> (i % 64) & 1 == 1 {
            let outcome = match net {
                Outcome::Win => Outcome::Draw,
                Outcome::Draw => Outcome::Win,
            };
            Answer { outcome, source: Source::Exception }
        } else {
            let source = if matches!(self.learner, Learner::Tree(_)) { Source::Tree } else { Source::Net };
            Answer { outcome: net, source }
        }
    }

    /// The answer for a position in FEN, from the pawn side's point of view.
    pub fn probe_fen(&self, fen: &str) -> Result<Answer, FenError> {
        Ok(self.probe(&Position::from_fen(fen)?))
    }
}

/// Whether bit `i` of a bit set over the indices is set.
#[inline]
#[must_use]
pub fn has_bit(set: &[u64], i: u32) -> bool {
    set[i as usize / 64] >> (i % 64) & 1 == 1
}

fn set_bit(set: &mut [u64], i: u32) {
    set[i as usize / 64] |= 1 << (i % 64);
}

/// Check magic, version, length and checksum; the bytes before the checksum and the coverage the
/// version gives.
fn check_envelope(bytes: &[u8]) -> Result<(&[u8], Coverage), FormatError> {
    open_envelope(bytes, MAGIC, PREAMBLE_LEN + 2 + CRC_LEN, |v| match v {
        VERSION => Ok(Coverage::All),
        VERSION_PAWN_SIDE | VERSION_TREE => Ok(Coverage::PawnSideToMove),
        v => Err(FormatError::Version(v)),
    })
}

/// The envelope every kpk model file shares (format.md): a 4-byte magic, a version byte, the
/// file's length (u32, little-endian) and, last, the CRC-32 of every byte before it. Checked in
/// that order, after a file shorter than `min_len` is refused as truncated; `version` accepts the
/// reader's versions. The bytes before the checksum, and what `version` made of its byte.
pub(crate) fn open_envelope<'a, V>(
    bytes: &'a [u8],
    magic: &[u8; 4],
    min_len: usize,
    version: impl FnOnce(u8) -> Result<V, FormatError>,
) -> Result<(&'a [u8], V), FormatError> {
    if bytes.len() < 4 || &bytes[..4] != magic {
        let mut found = [0; 4];
        found[..bytes.len().min(4)].copy_from_slice(&bytes[..bytes.len().min(4)]);
        return Err(FormatError::BadMagic { expected: *magic, found });
    }
    if bytes.len() < min_len {
        return Err(FormatError::Truncated);
    }
    let v = version(bytes[4])?;
    let header = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]);
    if header as usize != bytes.len() {
        return Err(FormatError::Length { header, actual: bytes.len() });
    }
    let (body, crc) = bytes.split_at(bytes.len() - CRC_LEN);
    if crc32(body) != u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]) {
        return Err(FormatError::Checksum);
    }
    Ok((body, v))
}

/// The fields of a version-3 file after magic, version and length (`body`: the file less its
/// checksum): input function 1 and its mask, the exception header, then the tree and the
/// exception gaps in one bit stream.
fn from_tree_body(body: &[u8]) -> Result<Model, FormatError> {
    let (input, used) = read_input(&body[PREAMBLE_LEN..])?;
    let Input::Features { mask } = input else {
        return Err(FormatError::Invalid("a version-3 file's input function must be 1 (characteristics)"));
    };
    let at = PREAMBLE_LEN + used;
    let e = body.get(at..at + EXCEPTION_HEADER_LEN).ok_or(FormatError::Truncated)?;
    let n_exceptions = u32::from_le_bytes([e[0], e[1], e[2], 0]) as usize;
    if e[3] & CONFIDENCE_ORDER != 0 {
        return Err(FormatError::Invalid("a version-3 file numbers its exceptions by index (bit 7 clear)"));
    }
    let ke = u32::from(e[3]);
    if ke > MAX_RICE {
        return Err(FormatError::Invalid("the exceptions' Rice parameter is out of range"));
    }
    let mut r = BitReader::new(&body[at + EXCEPTION_HEADER_LEN..]);
    if mask >> N_FEATURES != 0 {
        return Err(FormatError::Invalid("a tree's input mask must name some of x1..x32 and nothing else"));
    }
    let tree = Tree::read(&mut r, mask)?;
    let exceptions = read_sorted(&mut r, n_exceptions, ke, MAX_INDEX / 2)?;
    if !r.at_padded_end() {
        return Err(FormatError::Invalid("the bit stream does not end where the file does"));
    }
    Model::with_tree(mask, tree, exceptions)
}

/// `count` zig-zag Rice-coded values with parameter `k`, each of magnitude at most `limit`.
fn read_values(r: &mut BitReader, count: usize, k: u32, limit: i64) -> Result<Vec<i32>, FormatError> {
    (0..count)
        .map(|_| {
            let v = r.rice_signed(k)?;
            if v.abs() > limit {
                return Err(FormatError::Stream(BitError::TooLarge));
            }
            Ok(v as i32)
        })
        .collect()
}

/// `count` sorted distinct values below `universe`, stored as Rice-coded gaps: the first value,
/// then each difference minus one.
pub fn read_sorted(r: &mut BitReader, count: usize, k: u32, universe: usize) -> Result<Vec<u32>, BitError> {
    if count > universe {
        return Err(BitError::TooLarge);
    }
    let mut sorted = Vec::with_capacity(count);
    let mut next = 0u64; // smallest value the next one may take
    for _ in 0..count {
        let e = next + r.rice(k)?;
        if e >= universe as u64 {
            return Err(BitError::TooLarge);
        }
        sorted.push(e as u32);
        next = e + 1;
    }
    Ok(sorted)
}

/// The index of every legal position `coverage` covers, least confident first: ordered by the
/// magnitude of the net's output, ties by index.
#[must_use]
pub fn confidence_order(input: Input, net: &Net, coverage: Coverage) -> Vec<u32> {
    let mut keyed: Vec<(u32, u32)> = (0..MAX_INDEX as u32)
        .filter_map(|i| Position::from_index(i).filter(|p| coverage.covers(p)).map(|p| (i, p)))
        .map(|(i, p)| {
            let mut x = [0i16; MAX_WIDTH];
            let x = &mut x[..input.width()];
            input.write(&p, x);
            (net.output(x).unsigned_abs(), i)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}
