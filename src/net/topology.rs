//! A net's layer widths, inputs first, as configs write them: "32-10-10-1" (Table 5's notation).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The most weights (with biases) a configured net may have: 10 million, 80 MB of f64 for the
/// weights, well above any net the paper or kpk's studies train, and far below what would exhaust
/// memory once the optimiser's buffers are added.
pub const MAX_WEIGHTS: usize = 10_000_000;

/// Layer widths, inputs first: at least two layers, none empty, at most [`MAX_WEIGHTS`] weights.
/// Parsed once from "32-10-10-1"; written back the same way.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Topology(Vec<usize>);

impl Topology {
    /// Check layer widths: at least an input and an output layer, none of width 0, and at most
    /// [`MAX_WEIGHTS`] weights (counted without overflow, before anything is allocated).
    pub fn new(widths: Vec<usize>) -> Result<Topology> {
        let text = || widths.iter().map(usize::to_string).collect::<Vec<_>>().join("-");
        if widths.len() < 2 {
            return Err(Error::Topology {
                text: text(),
                reason: "needs at least an input and an output layer".into(),
            });
        }
        if widths.contains(&0) {
            return Err(Error::Topology { text: text(), reason: "has a layer of width 0".into() });
        }
        let weights = widths.windows(2).try_fold(0usize, |sum, w| {
            w[0].checked_add(1).and_then(|fan_in| fan_in.checked_mul(w[1])).and_then(|n| sum.checked_add(n))
        });
        match weights {
            Some(n) if n <= MAX_WEIGHTS => Ok(Topology(widths)),
            _ => Err(Error::Topology {
                text: text(),
                reason: format!(
                    "has more than {MAX_WEIGHTS} weights, the most kpk trains (a net of Table 5 has at most 4,521)"
                ),
            }),
        }
    }

    /// The widths, inputs first.
    pub fn widths(&self) -> &[usize] {
        &self.0
    }

    /// Input neurons.
    pub fn inputs(&self) -> usize {
        self.0[0]
    }

    /// Output neurons.
    pub fn outputs(&self) -> usize {
        *self.0.last().expect("at least two layers")
    }

    /// Weights, biases included (Table 5's "# wts."): the sum over layers of (n_in + 1) · n_out.
    pub fn weight_count(&self) -> usize {
        self.0.windows(2).map(|w| (w[0] + 1) * w[1]).sum()
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths: Vec<String> = self.0.iter().map(usize::to_string).collect();
        f.pad(&widths.join("-"))
    }
}

impl FromStr for Topology {
    type Err = Error;

    /// "32-10-10-1": positive widths joined by '-'.
    fn from_str(s: &str) -> Result<Topology> {
        let widths = s
            .split('-')
            .map(|w| w.trim().parse::<usize>().ok().filter(|&n| n > 0))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| Error::Topology {
                text: s.to_string(),
                reason: "is not positive layer widths joined by '-', e.g. \"32-10-10-1\"".into(),
            })?;
        Topology::new(widths)
    }
}

impl Serialize for Topology {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Topology {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Topology, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// An optional topology as text, the empty string for none: a field that always has a text
/// cell, `#[serde(with = "crate::net::topology::empty_for_none")]`.
pub mod empty_for_none {
    use super::Topology;
    use serde::{Deserialize, Deserializer, Serializer};

    /// The topology's text, or "".
    pub fn serialize<S: Serializer>(t: &Option<Topology>, s: S) -> std::result::Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.collect_str(t),
            None => s.serialize_str(""),
        }
    }

    /// None from "", else the topology the text writes.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Topology>, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() { Ok(None) } else { text.parse().map(Some).map_err(serde::de::Error::custom) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table5s_weight_counts_follow_from_its_topologies() {
        for r in crate::paper::tables::table5() {
            let t: Topology = r.topology.parse().unwrap();
            assert_eq!(t.weight_count(), r.weights, "trial {}", r.trial);
        }
    }

    #[test]
    fn parses_checks_and_writes_back() {
        let t: Topology = "32-32-5-2".parse().unwrap();
        assert_eq!(t.widths(), [32, 32, 5, 2]);
        assert_eq!((t.inputs(), t.outputs(), t.weight_count()), (32, 2, 1233)); // NN6 of Table 5
        assert_eq!(t.to_string(), "32-32-5-2");
        assert_eq!(format!("[{t:<11}]"), "[32-32-5-2  ]");
        for bad in ["32", "32-0-1", "32-x-1", "", "-1"] {
            let err = bad.parse::<Topology>().unwrap_err().to_string();
            assert!(err.contains(&format!("'{bad}'")), "{bad}: {err}");
        }
        let huge = "4000-4000-1".parse::<Topology>().unwrap_err().to_string();
        assert!(huge.contains("more than 10000000 weights"), "{huge}");
        assert!(format!("{}-1", usize::MAX).parse::<Topology>().is_err());
    }

    #[test]
    fn an_optional_topology_is_its_text_or_empty() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Net {
            #[serde(with = "empty_for_none")]
            topology: Option<Topology>,
        }
        for (net, json) in [
            (Net { topology: Some("23-20-5-1".parse().unwrap()) }, r#"{"topology":"23-20-5-1"}"#),
            (Net { topology: None }, r#"{"topology":""}"#),
        ] {
            assert_eq!(serde_json::to_string(&net).unwrap(), json);
            assert_eq!(serde_json::from_str::<Net>(json).unwrap(), net);
        }
        assert!(serde_json::from_str::<Net>(r#"{"topology":"32-0-1"}"#).is_err());
    }
}
