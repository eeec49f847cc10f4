//! Section 4.3's output coding: how a position's outcome becomes target outputs, and how a net's
//! outputs read as a verdict. The net owns its reading; the trainer uses it.

use crate::error::{Allowed, Error, Result};
use crate::net::mlp::{Mlp, Workspace};
use serde::{Deserialize, Serialize};

/// How targets are coded and outputs read (section 4.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum OutputCoding {
    /// One output, target 1 for a win and 0 for a draw; y ≥ 0.5 reads as a win, else a draw.
    One,
    /// Two outputs, targets (1, 0) for a win and (0, 1) for a draw; y1 ≥ 0.5 + m and y2 < 0.5 − m
    /// reads as a win, y1 < 0.5 − m and y2 ≥ 0.5 + m as a draw, anything else as undecided. The
    /// paper uses m = 0 and m = 0.4 (trials 38–41 stop on m = 0.4).
    Two { margin: f64 },
}

impl OutputCoding {
    /// Section 4.3's plain reading of the same outputs (m = 0): what Tables 5 and 6 count.
    pub fn without_margin(self) -> OutputCoding {
        match self {
            OutputCoding::One => OutputCoding::One,
            OutputCoding::Two { .. } => OutputCoding::Two { margin: 0.0 },
        }
    }

    /// Number of output neurons.
    pub fn width(self) -> usize {
        match self {
            OutputCoding::One => 1,
            OutputCoding::Two { .. } => 2,
        }
    }

    /// Target outputs for a position: a win is (1) or (1, 0), a draw (0) or (0, 1).
    pub fn target(self, win: bool, out: &mut [f64]) {
        let w = if win { 1.0 } else { 0.0 };
        match self {
            OutputCoding::One => out[0] = w,
            OutputCoding::Two { .. } => {
                out[0] = w;
                out[1] = 1.0 - w;
            }
        }
    }

    /// Read outputs as a classification (section 4.3).
    pub fn classify(self, y: &[f64]) -> Classification {
        match self {
            OutputCoding::One => {
                if y[0] >= 0.5 {
                    Classification::Win
                } else {
                    Classification::Draw
                }
            }
            OutputCoding::Two { margin: m } => {
                if y[0] >= 0.5 + m && y[1] < 0.5 - m {
                    Classification::Win
                } else if y[0] < 0.5 - m && y[1] >= 0.5 + m {
                    Classification::Draw
                } else {
                    Classification::Undecided
                }
            }
        }
    }

    /// A net with `outputs` outputs fits this coding (one or two, section 4.3).
    pub fn check_width(self, outputs: usize) -> Result<()> {
        let (by, needs) = (format!("output coding {self:?}"), self.width());
        if outputs == needs { Ok(()) } else { Err(Error::OutputWidth { net: outputs, by, needs }) }
    }

    /// Section 4.3's margin m lies in [0, 0.5): at 0.5 nothing would read as a win or a draw.
    /// The one statement of the rule, checked where a coding enters kpk (a trial config, a saved
    /// net, a [`crate::train::config::TrainConfig`]).
    pub fn validate(self) -> Result<()> {
        match self {
            OutputCoding::One => Ok(()),
            OutputCoding::Two { margin } => MARGIN.check_key("margin", margin).map(|_| ()),
        }
    }
}

/// Section 4.3's margins m: [0, 0.5).
pub const MARGIN: Allowed = Allowed::new(0.0, true, 0.5, false);

/// A net's verdict on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Classification {
    Win,
    Draw,
    /// Only with two outputs: neither reading holds (counted as not correct).
    Undecided,
}

impl Classification {
    /// Whether the verdict is right for a position whose true outcome is a win (`true`) or a draw.
    pub fn is_correct(self, win: bool) -> bool {
        matches!((self, win), (Classification::Win, true) | (Classification::Draw, false))
    }
}

/// Classify one input row (allocates a workspace; loops should use [`OutputCoding::classify`] on
/// [`Mlp::forward_with`]'s outputs).
pub fn classify(net: &Mlp, output: OutputCoding, input: &[f64]) -> Classification {
    let mut ws = Workspace::new(net);
    output.classify(net.forward_with(&mut ws, input))
}
