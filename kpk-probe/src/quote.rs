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

/// Whether `c` is a Unicode noncharacter (U+FDD0..U+FDEF, and the last two code points of every
/// plane, U+FFFE and U+FFFF among them), which XML 1.0 text may not hold.
#[must_use]
pub fn is_noncharacter(c: char) -> bool {
    ('\u{FDD0}'..='\u{FDEF}').contains(&c) || (c as u32) & 0xFFFE == 0xFFFE
}

/// `text` with its control characters and noncharacters escaped (`\n`, `\u{1b}`, `\u{fffe}`), so
/// that no input reaches the terminal raw through an error message, nor a figure's XML text.
#[must_use]
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || is_noncharacter(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
