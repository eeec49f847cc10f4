//! A game as PGN (the PGN standard's export format): the seven-tag roster, `SetUp` and `FEN` for
//! the start position, SAN moves in the FEN's own orientation with `+`/`#`, a comment per move
//! giving the depth to conversion before and after it (and the value a player's evaluator gave
//! the move, for players that evaluate), and the result. A game played on to mate gives, past
//! the promotion, the distance to mate (DTM) before and after each move.

use super::game::{End, Game};
use super::mating::{MatePly, MatedGame};
use crate::chess::position::Oriented;
use kpk_probe::Color;

/// Movetext lines are wrapped before this many characters.
const LINE: usize = 79;

fn dtc_text(d: Option<u8>) -> String {
    d.map_or_else(|| "draw".to_string(), |d| format!("DTC {d}"))
}

/// The evaluator's value of a move in a comment: the rules' values of what ends a game in words.
fn value_text(v: f64) -> String {
    use crate::chess::search::{DRAW, WIN};
    if v >= WIN / 2.0 {
        "; value: a winning promotion".into()
    } else if v <= DRAW / 2.0 {
        "; value: a draw by the rules".into()
    } else {
        format!("; value {v:.4}")
    }
}

/// The game's result token: the pawn side wins a converted game, a finished game that was not
/// converted is drawn, a game stopped by the ply limit is unfinished (`*`).
pub fn result(g: &Game) -> &'static str {
    let pawn_is_white = !g.start.transform.flip_colours;
    match g.end {
        End::Converted if pawn_is_white => "1-0",
        End::Converted => "0-1",
        End::PlyLimit => "*",
        _ => "1/2-1/2",
    }
}

fn ending(end: End) -> &'static str {
    match end {
        End::Converted => "the pawn promoted and wins",
        End::PromotedToDraw => "the pawn promoted but the result is a draw",
        End::PawnTaken => "the lone king took the pawn",
        End::Stalemate => "stalemate",
        End::Repetition => "a position repeated",
        End::PlyLimit => "the ply limit",
    }
}

/// The PGN text of `g`, with `white` and `black` naming the players of the FEN's colours.
pub fn to_pgn(g: &Game, white: &str, black: &str) -> String {
    write(g, &[], ending(g.end), white, black)
}

/// The PGN text of a game played on to mate: past the promotion each comment gives the DTM
/// before and after the move, in plies.
pub fn to_pgn_mated(m: &MatedGame, white: &str, black: &str) -> String {
    let end = if m.mated { "checkmate" } else { ending(m.game.end) };
    write(&m.game, &m.mating, end, white, black)
}

fn write(g: &Game, mating: &[MatePly], end: &str, white: &str, black: &str) -> String {
    let res = result(g);
    let mut out = String::new();
    for (tag, value) in [
        ("Event", "kpk play"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "-"),
        ("White", white),
        ("Black", black),
        ("Result", res),
        ("SetUp", "1"),
        ("FEN", &g.start.to_fen()),
    ] {
        out.push_str(&format!("[{tag} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
    }
    out.push('\n');
    let flip = g.start.transform.flip_colours;
    let mut tokens = Vec::new();
    let mut number = 1;
    for (n, ply) in g.plies.iter().enumerate() {
        let white_moves = (ply.mover == Color::White) != flip;
        if white_moves {
            tokens.push(format!("{number}."));
        } else if n == 0 {
            tokens.push(format!("{number}..."));
        }
        let o = Oriented { position: ply.before, transform: g.start.transform };
        let suffix = if ply.mate {
            "#"
        } else if ply.check {
            "+"
        } else {
            ""
        };
        tokens.push(format!("{}{suffix}", o.move_name(ply.mv)));
        let value = ply.value.map_or(String::new(), value_text);
        tokens.push(format!("{{{} -> {}{value}}}", dtc_text(ply.dtc_before), dtc_text(ply.dtc_after)));
        if !white_moves {
            number += 1;
        }
    }
    for ply in mating {
        if ply.white {
            tokens.push(format!("{number}."));
        }
        tokens.push(ply.san.clone());
        tokens.push(format!("{{DTM {} -> DTM {}}}", ply.dtm_before, ply.dtm_after));
        if !ply.white {
            number += 1;
        }
    }
    tokens.push(format!("{{{end}}}"));
    tokens.push(res.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
