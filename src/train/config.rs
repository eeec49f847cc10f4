//! What decides a training run besides the net and the data (sections 4.3–4.5): the output
//! coding and its reading, the error measure, the optimiser and [`TrainConfig`].

use crate::error::{Allowed, Error, Result};
use crate::net::output::OutputCoding;
use crate::train::keep::BestState;
use serde::{Deserialize, Serialize};

/// Which of section 4.5's two conditions end training. `max_epochs` always does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopRule {
    /// Either condition: the error measure within target for the last `window` epochs, or no gain
    /// in the correct count for `patience` epochs.
    #[default]
    Either,
    /// Only the error target held for the last `window` epochs.
    ErrorTarget,
    /// Only no gain in the correct count for `patience` epochs.
    NoImprovement,
    /// Both conditions at once: the error target held for the last `window` epochs and no gain
    /// for `patience` epochs. It never stops before any of the other readings with the same
    /// window and patience, so one run under it holds the history of all of them.
    Both,
}

impl StopRule {
    /// The name a config uses.
    pub fn name(self) -> &'static str {
        match self {
            StopRule::Either => "either",
            StopRule::ErrorTarget => "error_target",
            StopRule::NoImprovement => "no_improvement",
            StopRule::Both => "both",
        }
    }
}

/// The error measure the stopping rule and best-epoch choice use (section 4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorFunction {
    /// Mean |y − d| over training positions and outputs.
    E1,
    /// Max |y − d| over training positions and outputs.
    E2,
}

/// Learning-rate annealing (section 6 asks whether it would have helped; the paper used none).
/// η_t is the rate used during epoch t (t from 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Anneal {
    /// η_t = η.
    #[default]
    None,
    /// η_t = η · factor^(t−1), 0 < factor ≤ 1.
    Exponential { factor: f64 },
    /// η_t = η / (1 + (t−1)/epochs): halves after `epochs` epochs, then decays like 1/t.
    Inverse { epochs: f64 },
}

impl Anneal {
    /// The learning rate for epoch `epoch` (from 1) given the base rate.
    pub fn rate(self, base: f64, epoch: usize) -> f64 {
        let t = (epoch.max(1) - 1) as f64;
        match self {
            Anneal::None => base,
            Anneal::Exponential { factor } => base * factor.powf(t),
            Anneal::Inverse { epochs } => base / (1.0 + t / epochs),
        }
    }
}

fn default_beta1() -> f64 {
    0.9
}
fn default_beta2() -> f64 {
    0.999
}
fn default_epsilon() -> f64 {
    1e-8
}

/// The weight-update procedure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Optimiser {
    /// Section 4.5: weights updated after every position, positions in one fixed order. `momentum`
    /// μ ∈ [0, 1) (0 = the paper); `reshuffle` draws a new order each epoch instead.
    Online {
        learning_rate: f64,
        #[serde(default)]
        momentum: f64,
        #[serde(default)]
        anneal: Anneal,
        #[serde(default)]
        reshuffle: bool,
    },
    /// Minibatch Adam (Kingma & Ba 2015) on the batch-mean squared error, the order reshuffled
    /// every epoch, the last batch possibly short.
    Adam {
        learning_rate: f64,
        batch_size: usize,
        #[serde(default = "default_beta1")]
        beta1: f64,
        #[serde(default = "default_beta2")]
        beta2: f64,
        #[serde(default = "default_epsilon")]
        epsilon: f64,
    },
}

impl Optimiser {
    /// Online backpropagation as section 4.5 ran it: no momentum, no annealing, one fixed order.
    pub fn online(learning_rate: f64) -> Optimiser {
        Optimiser::Online { learning_rate, momentum: 0.0, anneal: Anneal::None, reshuffle: false }
    }

    /// Adam with Kingma and Ba's β1, β2 and ε.
    pub fn adam(learning_rate: f64, batch_size: usize) -> Optimiser {
        Optimiser::Adam {
            learning_rate,
            batch_size,
            beta1: default_beta1(),
            beta2: default_beta2(),
            epsilon: default_epsilon(),
        }
    }

    /// The optimiser in words, for reports: "online descent (rate 0.03, one fixed order)",
    /// "Adam (rate 0.003, batches of 256)". Zero momentum, no annealing and Kingma and Ba's β1, β2
    /// and ε go unsaid.
    pub fn describe(&self) -> String {
        match *self {
            Optimiser::Online { learning_rate, momentum, anneal, reshuffle } => {
                let mut parts = vec![format!("rate {learning_rate}")];
                if momentum > 0.0 {
                    parts.push(format!("momentum {momentum}"));
                }
                match anneal {
                    Anneal::None => {}
                    Anneal::Exponential { factor } => parts.push(format!("rate × {factor}^(epoch − 1)")),
                    Anneal::Inverse { epochs } => parts.push(format!("rate / (1 + (epoch − 1)/{epochs})")),
                }
                parts.push(if reshuffle { "order reshuffled each epoch" } else { "one fixed order" }.into());
                format!("online descent ({})", parts.join(", "))
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                let mut parts = vec![format!("rate {learning_rate}"), format!("batches of {batch_size}")];
                for (name, v, default) in [
                    ("β1", beta1, default_beta1()),
                    ("β2", beta2, default_beta2()),
                    ("ε", epsilon, default_epsilon()),
                ] {
                    if v != default {
                        parts.push(format!("{name} {v}"));
                    }
                }
                format!("Adam ({})", parts.join(", "))
            }
        }
    }
}

/// The paper's online learning rate as chosen for kpk (the paper does not state η): see
/// docs/TRAINER.md for the experiment behind it.
pub const DEFAULT_LEARNING_RATE: f64 = 0.1;

/// Everything that decides a training run besides the net and the data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    pub error_function: ErrorFunction,
    /// The error target E (the paper: 0.05, 0.10, 0.15).
    pub error_target: f64,
    pub output: OutputCoding,
    pub optimiser: Optimiser,
    pub max_epochs: usize,
    /// Epochs the stopping rule looks back over (section 4.5: 20).
    #[serde(default = "default_window")]
    pub window: usize,
    /// Seeds the presentation order (not the weights: those come from the net's own seed).
    pub seed: u64,
    /// Which end-of-epoch state is the result (see [`BestState`] for the default and why).
    #[serde(default)]
    pub best: BestState,
    /// Which of section 4.5's two stopping conditions end training (see [`StopRule`]).
    #[serde(default)]
    pub stop: StopRule,
    /// Epochs without a gain in the correct count before the no-improvement condition stops
    /// training; `None`: the same as `window` (the paper's one 20-epoch look-back).
    #[serde(default)]
    pub patience: Option<usize>,
}

/// The most epochs a training may be given (and the longest window or patience): far beyond
/// the paper's longest run, 6,285 epochs (Table 5, trial 39).
pub const MAX_EPOCHS: usize = 1_000_000;

/// The largest Adam batch a config may ask for: above the 165,676 legal positions, so a batch can
/// hold a whole set (the trainer itself takes any size, a batch larger than the set being the set).
pub const MAX_BATCH_SIZE: usize = 1 << 18;

/// Section 4.5's look-back: "for the last 20 epochs of training".
pub const DEFAULT_WINDOW: usize = 20;

/// The serde default of a window (a function, as serde asks).
pub fn default_window() -> usize {
    DEFAULT_WINDOW
}

impl Default for TrainConfig {
    /// The paper's setting for its larger nets: E2 with target 0.10, one output, online
    /// backpropagation without momentum or annealing in a fixed order, window 20.
    fn default() -> TrainConfig {
        TrainConfig {
            error_function: ErrorFunction::E2,
            error_target: 0.10,
            output: OutputCoding::One,
            optimiser: Optimiser::online(DEFAULT_LEARNING_RATE),
            max_epochs: 2000,
            window: 20,
            seed: 0,
            best: BestState::default(),
            stop: StopRule::Either,
            patience: None,
        }
    }
}

impl TrainConfig {
    /// Check every value once, with a message naming the bad one.
    pub fn validate(&self) -> Result<()> {
        let bad = |key: &str, m: String| Err(Error::config(key, m));
        Allowed::NON_NEGATIVE.check_key("error_target", self.error_target)?;
        self.output.validate()?;
        for (key, n) in [("max_epochs", self.max_epochs), ("window", self.window)] {
            if !(1..=MAX_EPOCHS).contains(&n) {
                return bad(key, format!("{n} is outside 1..={MAX_EPOCHS}"));
            }
        }
        if let Some(p) = self.patience
            && !(1..=MAX_EPOCHS).contains(&p)
        {
            return bad("patience", format!("{p} is outside 1..={MAX_EPOCHS}"));
        }
        match self.optimiser {
            Optimiser::Online { learning_rate, momentum, anneal, .. } => {
                Allowed::POSITIVE.check_key("learning_rate", learning_rate)?;
                Allowed::FRACTION.check_key("momentum", momentum)?;
                match anneal {
                    Anneal::None => {}
                    Anneal::Exponential { factor } => {
                        Allowed::FACTOR.check_key("anneal.factor", factor)?;
                    }
                    Anneal::Inverse { epochs } => {
                        Allowed::POSITIVE.check_key("anneal.epochs", epochs)?;
                    }
                }
            }
            Optimiser::Adam { learning_rate, batch_size, beta1, beta2, epsilon } => {
                Allowed::POSITIVE.check_key("learning_rate", learning_rate)?;
                Allowed::POSITIVE.check_key("epsilon", epsilon)?;
                if batch_size == 0 {
                    return bad("batch_size", "must be at least 1".into());
                }
                Allowed::FRACTION.check_key("beta1", beta1)?;
                Allowed::FRACTION.check_key("beta2", beta2)?;
            }
        }
        Ok(())
    }

    /// The configured error measure (E1 or E2) of one epoch.
    pub fn measure(&self, e1: f64, e2: f64) -> f64 {
        match self.error_function {
            ErrorFunction::E1 => e1,
            ErrorFunction::E2 => e2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optimisers_are_described_by_their_settings() {
        assert_eq!(Optimiser::online(0.03).describe(), "online descent (rate 0.03, one fixed order)");
        let online = Optimiser::Online {
            learning_rate: 0.1,
            momentum: 0.5,
            anneal: Anneal::Exponential { factor: 0.99 },
            reshuffle: true,
        };
        assert_eq!(
            online.describe(),
            "online descent (rate 0.1, momentum 0.5, rate × 0.99^(epoch − 1), order reshuffled each epoch)"
        );
        assert_eq!(Optimiser::adam(0.003, 256).describe(), "Adam (rate 0.003, batches of 256)");
        let Optimiser::Adam { learning_rate, batch_size, beta1, epsilon, .. } = Optimiser::adam(0.01, 32)
        else {
            unreachable!()
        };
        let adam = Optimiser::Adam { learning_rate, batch_size, beta1, beta2: 0.99, epsilon };
        assert_eq!(adam.describe(), "Adam (rate 0.01, batches of 32, β2 0.99)");
    }
}
