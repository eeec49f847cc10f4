//! The engine's `info string` texts, kept as text in `messages.txt` (one `key = text` a line),
//! filled in by [`text`].

use std::fmt::Display;

const TEXTS: &str = include_str!("messages.txt");

/// The text of `key` with each `{name}` of `args` filled in (the key itself if there is no such
/// text: a test checks that every key the engine uses has one).
pub fn text(key: &str, args: &[(&str, &dyn Display)]) -> String {
    let found = TEXTS.lines().find_map(|l| l.strip_prefix(key)?.strip_prefix(" = "));
    let mut out = found.unwrap_or(key).to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_the_engine_uses_has_a_text_and_every_text_is_used() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/play/engine");
        let sources: String = ["../engine.rs", "setup.rs", "options.rs", "root.rs"]
            .iter()
            .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
            .collect();
        let used: Vec<&str> = sources.split("text(\"").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
        let keys: Vec<&str> =
            TEXTS.lines().filter(|l| !l.starts_with('#')).map(|l| l.split(" = ").next().unwrap()).collect();
        for key in &used {
            assert!(keys.contains(key), "{key} has no text in messages.txt");
        }
        for key in &keys {
            assert!(used.contains(key), "{key} of messages.txt is not used");
        }
        assert!(text("kings", &[("side", &"White"), ("n", &2)]).starts_with("White has 2 kings"));
    }
}
