//! What the stored net sees of a position: an input function computed by code, so it costs
//! nothing in the model file beyond the bytes that name it.

use crate::chess::position::KpkPosition;
use crate::paper::features::FEATURES;
use kpk_probe::table4::N_FEATURES;

/// The input number of the side to move (0 White, 1 Black), after Table 4's x1..x32.
pub const SIDE_TO_MOVE: usize = N_FEATURES + 1;

/// The input functions a model file may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFunction {
    /// Seven integers: file and rank (1-based) of the white king, the black king and the pawn,
    /// then the side to move (0 White, 1 Black): Table 4's level-0 x1..x6 plus the side to move.
    Coordinates,
    /// A chosen subset of Table 4's x1..x32 and x33 = the side to move, in increasing x order.
    /// Bit `x − 1` of the mask is set when `x` is an input.
    Features { mask: u64 },
}

/// Bytes of the feature mask in the file: 33 bits.
const MASK_BYTES: usize = 5;

impl InputFunction {
    /// The inputs `xs` (Table 4 numbers, 1..=33, any order, no repeats).
    pub fn features(xs: &[usize]) -> crate::Result<InputFunction> {
        let mut mask = 0u64;
        for &x in xs {
            if !(1..=SIDE_TO_MOVE).contains(&x) || mask >> (x - 1) & 1 == 1 {
                return Err(crate::Error::config(
                    "inputs",
                    format!(
                        "input x{x} is repeated or not in 1..={SIDE_TO_MOVE} (x{SIDE_TO_MOVE} = side to move)"
                    ),
                ));
            }
            mask |= 1 << (x - 1);
        }
        if mask == 0 {
            return Err(crate::Error::config("inputs", "a net needs at least one input"));
        }
        Ok(InputFunction::Features { mask })
    }

    /// The Table 4 numbers of the inputs in order (x33 = side to move).
    pub fn xs(self) -> Vec<usize> {
        match self {
            InputFunction::Coordinates => (1..=6).chain([SIDE_TO_MOVE]).collect(),
            InputFunction::Features { mask } => {
                (1..=SIDE_TO_MOVE).filter(|x| mask >> (x - 1) & 1 == 1).collect()
            }
        }
    }

    /// A readable name of input `j`, e.g. `x27` or `side to move`.
    pub fn name(self, j: usize) -> String {
        match self.xs().get(j) {
            Some(&SIDE_TO_MOVE) => "side to move".into(),
            Some(x) => format!("x{x}"),
            None => format!("input {j}"),
        }
    }

    /// The bytes that name this function in the model file: an id, then for
    /// [`InputFunction::Features`] the 33-bit mask in 5 bytes, little-endian.
    pub fn to_bytes(self) -> Vec<u8> {
        match self {
            InputFunction::Coordinates => vec![0],
            InputFunction::Features { mask } => {
                let mut b = vec![1];
                b.extend_from_slice(&mask.to_le_bytes()[..MASK_BYTES]);
                b
            }
        }
    }

    /// Parse [`InputFunction::to_bytes`] from the start of `bytes`: the function and the bytes used.
    pub fn from_bytes(bytes: &[u8]) -> Result<(InputFunction, usize), String> {
        match bytes.first() {
            Some(0) => Ok((InputFunction::Coordinates, 1)),
            Some(1) => {
                let m = bytes.get(1..1 + MASK_BYTES).ok_or_else(|| past_end("input mask"))?;
                let mut le = [0u8; 8];
                le[..MASK_BYTES].copy_from_slice(m);
                let mask = u64::from_le_bytes(le);
                if mask == 0 || mask >> SIDE_TO_MOVE != 0 {
                    return Err(format!("input mask {mask:#x} names no input or one beyond x{SIDE_TO_MOVE}"));
                }
                Ok((InputFunction::Features { mask }, 1 + MASK_BYTES))
            }
            Some(id) => Err(format!("unknown input function {id}")),
            None => Err(past_end("input function")),
        }
    }

    /// Number of inputs.
    pub fn width(self) -> usize {
        match self {
            InputFunction::Coordinates => 7,
            InputFunction::Features { mask } => mask.count_ones() as usize,
        }
    }

    /// Largest magnitude of any input on a legal position (for the overflow proof).
    pub fn bound(self) -> i32 {
        match self {
            InputFunction::Coordinates => 8,
            InputFunction::Features { .. } => FEATURES
                .iter()
                .map(|f| i32::from(f.range.0).abs().max(i32::from(f.range.1).abs()))
                .max()
                .unwrap_or(0)
                .max(1),
        }
    }

    /// Write the inputs of `p` into `out[..width()]` (the probe crate computes them).
    #[inline]
    pub fn write(self, p: &KpkPosition, out: &mut [i32]) {
        let mut x = [0i16; 64];
        let x = &mut x[..self.width()];
        self.probe().write(&probe_position(p), x);
        for (o, &v) in out.iter_mut().zip(x.iter()) {
            *o = i32::from(v);
        }
    }

    /// The same function as the probe crate names it.
    pub fn probe(self) -> kpk_probe::Input {
        match self {
            InputFunction::Coordinates => kpk_probe::Input::Coordinates,
            InputFunction::Features { mask } => kpk_probe::Input::Features { mask },
        }
    }

    /// The function the probe crate decoded.
    pub fn from_probe(input: kpk_probe::Input) -> InputFunction {
        match input {
            kpk_probe::Input::Coordinates => InputFunction::Coordinates,
            kpk_probe::Input::Features { mask } => InputFunction::Features { mask },
        }
    }
}

/// A legal position as the probe crate holds it.
#[inline]
pub fn probe_position(p: &KpkPosition) -> kpk_probe::Position {
    *p.core()
}

/// Why a file ends inside its input function: `what` runs past its end.
fn past_end(what: &str) -> String {
    format!("the {what} runs past the end of the file")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paper::features::features;
    use kpk_probe::Color;

    #[test]
    fn masks_round_trip_and_bad_ones_are_refused() {
        let f = InputFunction::features(&[33, 1, 27]).unwrap();
        assert_eq!(f.xs(), vec![1, 27, 33]);
        assert_eq!(f.width(), 3);
        let b = f.to_bytes();
        assert_eq!(InputFunction::from_bytes(&b), Ok((f, b.len())));
        assert!(InputFunction::from_bytes(&b[..3]).is_err());
        assert!(InputFunction::from_bytes(&[1, 0, 0, 0, 0, 0]).is_err());
        assert!(InputFunction::from_bytes(&[1, 0, 0, 0, 0, 2]).is_err()); // x34
        assert!(InputFunction::features(&[1, 1]).is_err());
        assert!(InputFunction::features(&[34]).is_err());
        assert_eq!(InputFunction::from_bytes(&[0]), Ok((InputFunction::Coordinates, 1)));
    }

    #[test]
    fn the_inputs_are_the_features_in_order_on_every_legal_position() {
        let f = InputFunction::features(&(1..=33).collect::<Vec<_>>()).unwrap();
        let bound = f.bound();
        let mut x = [0i32; 33];
        for p in KpkPosition::all() {
            f.write(&p, &mut x);
            let expected = features(&p);
            assert!(x[..32].iter().zip(expected).all(|(&a, b)| a == i32::from(b)));
            assert_eq!(x[32], i32::from(p.side() == Color::Black));
            assert!(x.iter().all(|v| v.abs() <= bound));
        }
    }
}
