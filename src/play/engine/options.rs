//! The engine's UCI options: what `uci` declares and `setoption` sets (docs/UCI.md says what each
//! changes). Names are matched without regard to case, as the protocol asks.

use super::messages::text;

/// An option's kind and range, as `uci` declares it.
enum Kind {
    Spin { default: u32, min: u32, max: u32 },
    Check { default: bool },
}

/// The declared options, in the order `uci` lists them.
const DECLARED: [(&str, Kind); 7] = [
    ("Hash", Kind::Spin { default: 16, min: 1, max: 33_554_432 }),
    ("Threads", Kind::Spin { default: 1, min: 1, max: 1024 }),
    ("MultiPV", Kind::Spin { default: 1, min: 1, max: 256 }),
    ("Move Overhead", Kind::Spin { default: 10, min: 0, max: 5000 }),
    ("Ponder", Kind::Check { default: false }),
    ("UCI_ShowWDL", Kind::Check { default: false }),
    ("UCI_Chess960", Kind::Check { default: false }),
];

/// The options' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Megabytes for a hash table: kept, though the engine looks results up and needs none.
    pub hash: u32,
    /// Search threads: kept, though one thread answers at once.
    pub threads: u32,
    /// How many root moves `go` reports, best first.
    pub multipv: u32,
    /// Milliseconds kept back from the clock for communication: kept, as answers are immediate.
    pub move_overhead: u32,
    /// Whether `bestmove` names the reply the engine expects (`ponder`).
    pub ponder: bool,
    /// Whether `info` lines carry the `wdl` triple.
    pub show_wdl: bool,
    /// Whether moves are read and written in Chess960's castling notation (king takes rook).
    pub chess960: bool,
}

impl Default for Options {
    fn default() -> Options {
        let spin = |i: usize| match DECLARED[i].1 {
            Kind::Spin { default, .. } => default,
            Kind::Check { .. } => unreachable!("a spin option"),
        };
        Options {
            hash: spin(0),
            threads: spin(1),
            multipv: spin(2),
            move_overhead: spin(3),
            ponder: false,
            show_wdl: false,
            chess960: false,
        }
    }
}

/// The `option` lines of the reply to `uci`.
pub fn declarations() -> Vec<String> {
    DECLARED
        .iter()
        .map(|(name, kind)| {
            let kind = match kind {
                Kind::Spin { default, min, max } => format!("spin default {default} min {min} max {max}"),
                Kind::Check { default } => format!("check default {default}"),
            };
            format!("option name {name} type {kind}")
        })
        .collect()
}

impl Options {
    /// `setoption name NAME [value VALUE]`'s arguments applied, or why they are refused (the
    /// option keeps its value).
    pub fn set(&mut self, args: &[&str]) -> Result<(), String> {
        let at_value = args.iter().position(|a| a.eq_ignore_ascii_case("value")).unwrap_or(args.len());
        let name = match args.first() {
            Some(first) if first.eq_ignore_ascii_case("name") => args[1..at_value].join(" "),
            _ => return Err(text("setoption", &[])),
        };
        let value = args.get(at_value + 1..).unwrap_or(&[]).join(" ");
        let Some(i) = DECLARED.iter().position(|(n, _)| n.eq_ignore_ascii_case(&name)) else {
            return Err(text("no_option", &[("name", &kpk_probe::quote::quote(&name))]));
        };
        let bad =
            || text("option_value", &[("name", &DECLARED[i].0), ("value", &kpk_probe::quote::quote(&value))]);
        match DECLARED[i].1 {
            Kind::Spin { min, max, .. } => {
                let v: u32 = value.parse().ok().filter(|v| (min..=max).contains(v)).ok_or_else(bad)?;
                *[&mut self.hash, &mut self.threads, &mut self.multipv, &mut self.move_overhead][i] = v;
            }
            Kind::Check { .. } => {
                let v = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad()),
                };
                *[&mut self.ponder, &mut self.show_wdl, &mut self.chess960][i - 4] = v;
            }
        }
        Ok(())
    }
}
