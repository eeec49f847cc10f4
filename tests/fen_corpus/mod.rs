//! A fixed corpus of strings to read as FENs, for the tests that every reader of a FEN gives the
//! same verdict (tests/fen_verdicts.rs; the C ABI's in kpk-probe-c/src/tests.rs).
//!
//! Shared by path between the two crates, so it depends on nothing: its generator is SplitMix64,
//! seeded here, so the corpus is the same bytes on every run and machine. Most strings start as a
//! FEN of king and pawn against king (random squares, so legal and illegal positions, and
//! optional trailing fields) and then take a few mutations that aim at the grammar's corners: a
//! byte inserted, dropped, replaced or swapped; a rank of many eights (the overflow that a u8
//! file counter once had); a field from a list of near misses (`²`, `+1`, `e4`, a no-break space);
//! the rest are random bytes. Some are not UTF-8 and some hold a NUL byte.
#![allow(dead_code)]

/// The corpus's seed.
pub const SEED: u64 = 0x4b50_4b5f_4645_4e21;
/// Its size.
pub const SIZE: usize = 3_000;

/// SplitMix64 (Steele, Lea and Flood 2014): small and seedable.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Pieces and characters a mutation inserts: FEN's own, its near misses, separators ASCII and not.
const INSERTS: &[&str] = &[
    "K", "k", "P", "p", "Q", "n", "1", "2", "7", "8", "9", "0", "/", " ", " ", "\t", "\n", "\r", "\x0b",
    "\x0c", "-", "+", "w", "b", "e", "3", "6", "²", "٣", "\u{a0}", "\u{2003}", "\u{85}", "é", "\0",
];

/// Fields a mutation appends or puts in place of another.
const FIELDS: &[&str] = &[
    "-",
    "w",
    "b",
    "W",
    "KQ",
    "e3",
    "h6",
    "e4",
    "a9",
    "i3",
    "0",
    "1",
    "12",
    "+1",
    "-1",
    "²",
    "٣",
    "1.5",
    "99999999999999999999",
    "4294967296",
    "00",
    "0x1",
    "1 2",
    "- - 0 1",
    "\u{a0}",
];

/// The FEN of a white king, a black king and a pawn on random squares (perhaps shared or illegal),
/// with 0 to 4 of the fields after the side to move.
pub fn random_kpk(rng: &mut SplitMix) -> String {
    let mut board = [' '; 64];
    let pawn = if rng.below(2) == 0 { 'P' } else { 'p' };
    for piece in ['K', 'k', pawn] {
        board[rng.below(64)] = piece;
    }
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                ' ' => empty += 1,
                c => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                    }
                    empty = 0;
                    text.push(c);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let rest = ["-", "-", "0", "1"];
    let mut fen = format!("{} {side}", ranks.join("/"));
    for field in &rest[..rng.below(5)] {
        fen.push(' ');
        fen.push_str(field);
    }
    fen
}

/// One mutation of `s`, aimed at the grammar's corners.
pub fn mutate(rng: &mut SplitMix, s: &mut Vec<u8>) {
    let at = |rng: &mut SplitMix, s: &Vec<u8>| rng.below(s.len() + 1);
    match rng.below(8) {
        0 => {
            let i = at(rng, s);
            let text = rng.pick(INSERTS).as_bytes();
            s.splice(i..i, text.iter().copied());
        }
        1 if !s.is_empty() => {
            let i = rng.below(s.len());
            s.remove(i);
        }
        2 if !s.is_empty() => {
            let i = rng.below(s.len());
            s[i] = *rng.pick(b"KkPpQqRrBbNn123456780 9/-wbx\t");
        }
        3 if s.len() > 1 => {
            let (i, j) = (rng.below(s.len()), rng.below(s.len()));
            s.swap(i, j);
        }
        4 => {
            // A rank of many eights in place of the first rank.
            let eights = "8".repeat(*rng.pick(&[0, 2, 9, 31, 32, 33, 34, 64, 300]));
            let end = s.iter().position(|&b| b == b'/').unwrap_or(0);
            s.splice(..end, eights.bytes());
        }
        5 => {
            let text = String::from_utf8_lossy(s).into_owned();
            let mut fields: Vec<&str> = text.split(' ').collect();
            let field = *rng.pick(FIELDS);
            let i = rng.below(fields.len() + 1);
            if i < fields.len() && rng.below(2) == 0 {
                fields[i] = field;
            } else {
                fields.insert(i.min(fields.len()), field);
            }
            *s = fields.join(" ").into_bytes();
        }
        6 => {
            let sep = rng.pick(&[" ", "  ", "\t", "\n", "\r\n", "\x0c", "\x0b", "\u{a0}", "\u{3000}"]);
            let text = String::from_utf8_lossy(s).replacen(' ', sep, 1 + rng.below(3));
            *s = text.into_bytes();
        }
        _ => {
            let i = at(rng, s);
            let j = i + rng.below(s.len() - i + 1);
            let copy = s[i..j].to_vec();
            s.splice(j..j, copy);
        }
    }
}

/// A FEN of a random placement with all six fields, one of the five after the placement (side,
/// castling, en passant, the counters) replaced by a near miss.
pub fn near_miss(rng: &mut SplitMix) -> String {
    let fen = random_kpk(rng);
    let mut fields: Vec<&str> = fen.split(' ').take(2).chain(["-", "-", "0", "1"]).collect();
    fields[1 + rng.below(5)] = *rng.pick(FIELDS);
    fields.join(" ")
}

/// The corpus: [`SIZE`] byte strings from [`SEED`].
pub fn corpus() -> Vec<Vec<u8>> {
    let mut rng = SplitMix::new(SEED);
    (0..SIZE)
        .map(|n| match n % 10 {
            // Random bytes, and random text from FEN's alphabet.
            0 => (0..rng.below(40)).map(|_| rng.next() as u8).collect(),
            1 => (0..rng.below(40)).flat_map(|_| rng.pick(INSERTS).bytes()).collect(),
            // FENs of random placements, as they are and mutated once to thrice.
            2 | 3 => random_kpk(&mut rng).into_bytes(),
            4 => near_miss(&mut rng).into_bytes(),
            _ => {
                let mut s = random_kpk(&mut rng).into_bytes();
                for _ in 0..1 + rng.below(3) {
                    mutate(&mut rng, &mut s);
                }
                s
            }
        })
        .collect()
}
