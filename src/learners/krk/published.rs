//! What published work reports on the UCI KRK set (`data/published/krk.csv`), shown beside kpk's
//! curves: each figure with its source and how its protocol differs from the declared design.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One published figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// Authors, year and venue, as cited.
    pub source: String,
    /// The learner as the source names it.
    pub learner: String,
    /// Testing accuracy in % over the 18 classes.
    pub accuracy: f64,
    /// Rows trained on per fit, where the protocol fixes it (10-fold cross-validation: 9/10 of
    /// the set), else empty.
    pub train_rows: Option<usize>,
    /// The protocol: split, cross-validation, repetitions.
    pub protocol: String,
    /// The inputs the learner saw (the UCI file's six coordinates, or more).
    pub inputs: String,
    /// Where in the source the figure stands (table, page).
    #[serde(rename = "where")]
    pub at: String,
}

/// The committed file's figures, in its order.
pub fn load(path: &Path) -> Result<Vec<Published>> {
    let text = crate::io::read_config(path)?;
    let bad = |e: csv::Error| Error::Format { path: path.display().to_string(), message: e.to_string() };
    let rows = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<std::result::Result<Vec<Published>, _>>()
        .map_err(bad)?;
    if let Some(r) = rows.iter().find(|r| !(0.0..=100.0).contains(&r.accuracy)) {
        return Err(Error::Format {
            path: path.display().to_string(),
            message: format!("{}: accuracy {} out of range", r.source, r.accuracy),
        });
    }
    Ok(rows)
}
