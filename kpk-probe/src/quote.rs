//! User input as an error message quotes it: one line, no raw control characters, bounded length.

use alloc::format;
use alloc::string::String;

/// The longest piece of user input an error message quotes, in characters.
pub const QUOTE_MAX: usize = 80;

/// User input as an error message quotes it: in single quotes, control characters escaped
/// (`\n`, `\u{1b}`), cut to [`QUOTE_MAX`] characters with `…` and the full length after a cut.
#[must_use]
pub fn quote(input: &str) -> String {
    let total = input.chars().count();
    let head: String = input.chars().take(QUOTE_MAX).collect();
    let mut out = format!("'{}'", escape_controls(&head));
    if total > QUOTE_MAX {
        out.push_str(&format!("… ({total} characters)"));
    }
    out
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`), so that no input reaches the
/// terminal raw through an error message.
#[must_use]
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
