//! How the 32 characteristics of Table 4 are presented to a network (section 4.2).
//!
//! The enum is the contract between the dataset, the trainer and saved nets: a trained net
//! records the coding it was trained with, so it knows its inputs.
//!
//! | coding    | inputs | each characteristic xi becomes                                          |
//! |-----------|-------:|-------------------------------------------------------------------------|
//! | `natural` |     32 | its raw value (the paper's choice, section 4.2)                          |
//! | `scaled`  |     32 | `(xi − min) / (max − min)` over its **legal** range, so in [0, 1]        |
//! | `binary`  |     92 | `xi − min` of its **printed** range in ⌈log2 \|range\|⌉ bits, high bit first |
//! | `onehot`  |    237 | one input per value of its **legal** range, exactly one of them 1        |
//!
//! Why the ranges differ: `binary` uses Table 4's printed ranges because that is what the paper
//! counts ("The chosen characterisation would have required 92 binary inputs", section 4.2; and
//! 17 for c01–c06). The only printed range that is not the legal one is x13's `[-6, 6]`, a slip
//! for a flag that is constantly 0; it costs 4 always-identical bits, which we keep so the count
//! is the paper's. `scaled` and `onehot` use the legal ranges (measured over every legal
//! position, [`crate::paper::features::FeatureInfo::range`]): `scaled` then spans exactly [0, 1] on the
//! domain, and `onehot` has no input that is 0 on every position. x13's legal range has one
//! value, so it scales to the constant 0 and is one always-1 one-hot input.

use crate::error::{Error, Result};
use crate::paper::features::{FEATURES, FeatureInfo};
use kpk_probe::table4::N_FEATURES;
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

/// ⌈log2 n⌉: the bits needed to write `0..n`.
const fn bits_for(n: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < n {
        bits += 1;
    }
    bits
}

/// Bits of each characteristic in the binary coding (from the printed ranges).
pub const BINARY_BITS: [usize; N_FEATURES] = {
    let mut bits = [0; N_FEATURES];
    let mut i = 0;
    while i < N_FEATURES {
        bits[i] = bits_for(FEATURES[i].printed_range_size());
        i += 1;
    }
    bits
};

const fn sum(v: &[usize; N_FEATURES]) -> usize {
    let (mut total, mut i) = (0, 0);
    while i < N_FEATURES {
        total += v[i];
        i += 1;
    }
    total
}

/// Inputs of the one-hot group of each characteristic (its legal range size).
const ONEHOT_SIZES: [usize; N_FEATURES] = {
    let mut sizes = [0; N_FEATURES];
    let mut i = 0;
    while i < N_FEATURES {
        sizes[i] = FEATURES[i].range_size();
        i += 1;
    }
    sizes
};

/// Number of inputs of the binary coding: 92, as section 4.2 counts.
pub const BINARY_WIDTH: usize = sum(&BINARY_BITS);
/// Number of inputs of the one-hot coding.
pub const ONEHOT_WIDTH: usize = sum(&ONEHOT_SIZES);

// Runtime indexing goes through these `'static` references rather than the `const` arrays
// themselves, so no use can materialise a copy of a whole table.
static TABLE: &[FeatureInfo; N_FEATURES] = &FEATURES;
static BITS: &[usize; N_FEATURES] = &BINARY_BITS;
static SIZES: &[usize; N_FEATURES] = &ONEHOT_SIZES;

/// Why a binary or one-hot input is refused: each is a bit.
const NOT_A_BIT: &str = "not 0 or 1";

/// Why characteristic x(i + 1) = `v` has no input: its coding covers only Table 4's range.
fn outside(i: usize, v: impl std::fmt::Display) -> String {
    format!("x{} = {v} lies outside its range", i + 1)
}

impl InputCoding {
    /// Every coding, in the order of the table above.
    pub const ALL: [InputCoding; 4] =
        [InputCoding::Natural, InputCoding::Scaled, InputCoding::Binary, InputCoding::Onehot];

    /// The coding's name as configs and saved nets spell it.
    pub fn name(self) -> &'static str {
        match self {
            InputCoding::Natural => "natural",
            InputCoding::Scaled => "scaled",
            InputCoding::Binary => "binary",
            InputCoding::Onehot => "onehot",
        }
    }

    /// Number of network inputs.
    pub const fn width(self) -> usize {
        match self {
            InputCoding::Natural | InputCoding::Scaled => N_FEATURES,
            InputCoding::Binary => BINARY_WIDTH,
            InputCoding::Onehot => ONEHOT_WIDTH,
        }
    }

    /// Write the network inputs for characteristics `x` (as [`crate::paper::features::features`]
    /// returns them) into `out`, which must hold exactly [`InputCoding::width`] values.
    ///
    /// # Panics
    /// If `out` has the wrong length, or a value lies outside the range the coding covers
    /// (impossible for the characteristics of a legal position).
    pub fn encode(self, x: &[i8; N_FEATURES], out: &mut [f64]) {
        assert_eq!(out.len(), self.width(), "{} coding writes {} inputs", self.name(), self.width());
        let outside = |i: usize, v: i8| -> ! { panic!("{}", outside(i, v)) };
        match self {
            InputCoding::Natural => {
                for (o, &v) in out.iter_mut().zip(x) {
                    *o = f64::from(v);
                }
            }
            InputCoding::Scaled => {
                for (i, (o, &v)) in out.iter_mut().zip(x).enumerate() {
                    let (lo, hi) = TABLE[i].range;
                    if v < lo || v > hi {
                        outside(i, v);
                    }
                    // A constant characteristic (x13) scales to 0.
                    *o = if hi > lo { f64::from(v - lo) / f64::from(hi - lo) } else { 0.0 };
                }
            }
            InputCoding::Binary => {
                let mut at = 0;
                for (i, &v) in x.iter().enumerate() {
                    let bits = BITS[i];
                    let u = i16::from(v) - i16::from(TABLE[i].printed_range.0);
                    if u < 0 || u >= 1 << bits {
                        outside(i, v);
                    }
                    for (b, o) in out[at..at + bits].iter_mut().enumerate() {
                        *o = f64::from((u >> (bits - 1 - b)) & 1);
                    }
                    at += bits;
                }
            }
            InputCoding::Onehot => {
                out.fill(0.0);
                let mut at = 0;
                for (i, &v) in x.iter().enumerate() {
                    let k = i16::from(v) - i16::from(TABLE[i].range.0);
                    if k < 0 || k as usize >= SIZES[i] {
                        outside(i, v);
                    }
                    out[at + k as usize] = 1.0;
                    at += SIZES[i];
                }
            }
        }
    }

    /// Recover the characteristics from network inputs written by [`InputCoding::encode`].
    /// Errors name the first input that no encoding could have produced.
    pub fn decode(self, input: &[f64]) -> Result<[i8; N_FEATURES]> {
        if input.len() != self.width() {
            return Err(Error::Shape(format!(
                "{} coding has {} inputs, got {}",
                self.name(),
                self.width(),
                input.len()
            )));
        }
        let bad = |at: usize, what: &str| {
            Error::Shape(format!("{} input {at} = {}: {what}", self.name(), input[at]))
        };
        // An integer within i8, allowing for the rounding of the scaled coding.
        let integral = |v: f64| -> Option<i8> {
            let r = v.round();
            ((v - r).abs() < 1e-9 && (-128.0..=127.0).contains(&r)).then_some(r as i8)
        };
        let mut x = [0i8; N_FEATURES];
        match self {
            InputCoding::Natural => {
                for (i, &v) in input.iter().enumerate() {
                    x[i] = integral(v).ok_or_else(|| bad(i, "not a characteristic value"))?;
                }
            }
            InputCoding::Scaled => {
                for (i, &v) in input.iter().enumerate() {
                    let (lo, hi) = TABLE[i].range;
                    // A constant characteristic was written as 0.
                    let k = integral(v * f64::from(hi - lo))
                        .filter(|_| (0.0..=1.0).contains(&v) && (hi > lo || v == 0.0))
                        .ok_or_else(|| bad(i, "not a characteristic value"))?;
                    x[i] = lo + k;
                }
            }
            InputCoding::Binary => {
                let mut at = 0;
                for (i, xi) in x.iter_mut().enumerate() {
                    let mut u: i16 = 0;
                    for (b, &v) in input.iter().enumerate().skip(at).take(BITS[i]) {
                        let bit = if v == 0.0 {
                            0
                        } else if v == 1.0 {
                            1
                        } else {
                            return Err(bad(b, NOT_A_BIT));
                        };
                        u = u << 1 | bit;
                    }
                    let v = i16::from(TABLE[i].printed_range.0) + u;
                    if v > i16::from(TABLE[i].printed_range.1) {
                        return Err(bad(at, &outside(i, v)));
                    }
                    *xi = v as i8;
                    at += BITS[i];
                }
            }
            InputCoding::Onehot => {
                let mut at = 0;
                for (i, xi) in x.iter_mut().enumerate() {
                    let group = &input[at..at + SIZES[i]];
                    if let Some(j) = group.iter().position(|&v| v != 0.0 && v != 1.0) {
                        return Err(bad(at + j, NOT_A_BIT));
                    }
                    let mut ones = group.iter().enumerate().filter(|(_, v)| **v == 1.0);
                    match (ones.next(), ones.next()) {
                        (Some((k, _)), None) => *xi = TABLE[i].range.0 + k as i8,
                        _ => return Err(bad(at, &format!("x{}'s group needs exactly one 1", i + 1))),
                    }
                    at += SIZES[i];
                }
            }
        }
        Ok(x)
    }

    /// A name for each input: `x7` (natural, scaled), `x7.b3` (binary: bit worth 2^3, high bit
    /// first) or `x7=-7` (one-hot).
    pub fn input_names(self) -> Vec<String> {
        let mut names = Vec::with_capacity(self.width());
        for (i, f) in FEATURES.iter().enumerate() {
            match self {
                InputCoding::Natural | InputCoding::Scaled => names.push(format!("x{}", f.x)),
                InputCoding::Binary => {
                    names.extend((0..BITS[i]).rev().map(|b| format!("x{}.b{b}", f.x)));
                }
                InputCoding::Onehot => {
                    names.extend((f.range.0..=f.range.1).map(|v| format!("x{}={v}", f.x)));
                }
            }
        }
        names
    }
}

impl std::fmt::Display for InputCoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputCoding {
    type Err = Error;
    fn from_str(s: &str) -> Result<InputCoding> {
        InputCoding::ALL.into_iter().find(|c| c.name() == s).ok_or_else(|| Error::UnknownName {
            what: "input coding",
            given: s.to_string(),
            allowed: InputCoding::ALL.map(InputCoding::name).join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_the_papers_counts() {
        // Section 4.2: 92 binary inputs in all, 17 for c01-c06.
        assert_eq!(InputCoding::Binary.width(), 92);
        assert_eq!(BINARY_BITS[..6].iter().sum::<usize>(), 17);
        assert_eq!(BINARY_BITS[6], 4); // "c11 (x7) represented by 4 binary inputs covering 0-14"
        assert_eq!(BINARY_BITS[12], 4); // x13's printed size 13 still costs 4 bits
        for c in InputCoding::ALL {
            assert_eq!(c.input_names().len(), c.width(), "{c}");
        }
    }

    #[test]
    fn decode_rejects_what_encode_cannot_produce() {
        assert!(InputCoding::Natural.decode(&[0.0; 31]).is_err());
        let mut bits = vec![0.0; 92];
        bits[0] = 0.5;
        assert!(InputCoding::Binary.decode(&bits).is_err());
        // x1's 3 bits all zero is x1 = 1, fine; x6's 3 bits = 7 gives x6 = 9 > 7.
        let mut bits = vec![0.0; 92];
        bits[14..17].fill(1.0);
        assert!(InputCoding::Binary.decode(&bits).is_err());
        assert!(InputCoding::Onehot.decode(&vec![0.0; ONEHOT_WIDTH]).is_err());
        assert_eq!("binary".parse::<InputCoding>().unwrap(), InputCoding::Binary);
        assert!("bits".parse::<InputCoding>().is_err());
    }
}
