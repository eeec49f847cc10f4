//! Experiments as data: a trial's TOML config, its validation into a checked [`Trial`](config::Trial), running
//! it, and writing its report folder `reports/<name>/`.
//!
//! Parsing happens in two steps (parse, then check once): serde reads the file into
//! [`TrialConfig`](config::TrialConfig), rejecting unknown keys and wrong types; [`TrialConfig::check`](config::TrialConfig::check) then validates
//! every value against the others (topology against the input and output codings, sets against
//! the side) and yields a [`Trial`](config::Trial) that cannot describe an impossible run.

pub mod chart;
pub mod config;
pub mod folder;
pub mod pipeline;
pub mod readings;
pub mod readings_intervals;
pub mod replicate;
pub mod rows;
pub mod run;
pub mod schedule;
pub mod sweep;
pub mod table6;

#[cfg(test)]
mod tests;

/// A small trial config for the unit tests: NN 32-10-10-1 on T1, tested on S1.
#[cfg(test)]
pub(crate) const FIXTURE: &str = include_str!("fixture.toml");

/// [`FIXTURE`] with `key` set to `value` (a TOML value), or left out if `value` is empty.
#[cfg(test)]
pub(crate) fn fixture_with(key: &str, value: &str) -> String {
    set_key(FIXTURE, key, value)
}

/// The config `text` with `key` set to `value`, or left out if `value` is empty.
#[cfg(test)]
pub(crate) fn set_key(text: &str, key: &str, value: &str) -> String {
    let mut out: Vec<String> = text
        .lines()
        .filter(|l| l.split_once('=').is_none_or(|(k, _)| k.trim() != key))
        .map(str::to_string)
        .collect();
    if !value.is_empty() {
        out.push(format!("{key} = {value}"));
    }
    out.join("\n")
}
