//! A UCI engine for KPK: the protocol's state and replies, one input line at a time (`kpk uci`
//! reads the lines and prints the replies; docs/UCI.md describes what it answers).
//!
//! In a KPK position the engine lists every root move with its result ([`root`]): the play
//! model's move (or the bitbase's perfect move) first among the best, the halfmove clock applied
//! with the DTZ as Syzygy-aware engines apply the 50-move rule. `info` lines report the first
//! `MultiPV` moves, from the side to move's point of view: `cp 0` for a draw (a cursed win
//! included), and a win or loss as `cp` ±([`WIN_CP`](root::WIN_CP) − DTC) where the DTC is known (the bitbase),
//! ±[`WIN_CP`](root::WIN_CP) where only the result is (the play model). DTC counts plies to conversion, not to
//! mate, so no `score mate` is claimed in KPK. Any other legal position is played by a legal move
//! (scored by material) and said to be outside KPK in an `info string`; an illegal one, or one
//! with no legal move, gets `bestmove (none)`. Unknown or malformed input is answered by an
//! `info string` and otherwise ignored, as the protocol asks.

pub mod messages;
pub mod options;
pub mod root;
pub mod setup;

use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::position::Oriented;
use cozy_chess::Board;
use messages::text;
use options::Options;
use root::{Knowledge, Player, RootMove, Score, Wdl, balance};
use setup::{Setup, legal_moves, setup_of};
use std::time::Instant;

/// The engine: its tables, options, the position set by the last `position` command, and a
/// `bestmove` held back by `go infinite` (or `go ponder`) until `stop` or `ponderhit`.
pub struct Engine {
    knowledge: Knowledge,
    options: Options,
    setup: Option<Setup>,
    held: Option<String>,
}

/// What one input line asks of the caller: lines to print, and whether to quit.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub lines: Vec<String>,
    pub quit: bool,
}

impl Reply {
    fn say(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
    }
    fn info(&mut self, text: impl std::fmt::Display) {
        self.lines.push(format!("info string {}", kpk_probe::quote::escape_controls(&text.to_string())));
    }
}

/// The commands the engine knows; the first of them on a line starts the command (the protocol
/// skips unknown tokens before it).
const COMMANDS: [&str; 11] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "setoption",
    "register",
];

/// The words of `go` that take no value or one; `searchmoves` takes every move up to the next.
const GO_WORDS: [&str; 11] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

impl Engine {
    pub fn new(player: Player, bb: Bitbase) -> Engine {
        let dtz = kpk_probe::DtzModel::from_bytes(crate::hybrid::dtz::DEFAULT_DTZ_MODEL_BYTES)
            .expect("the committed DTZ model loads");
        Engine {
            knowledge: Knowledge { player, bb, dtz, tables: Tables::generate() },
            options: Options::default(),
            setup: None,
            held: None,
        }
    }

    /// The engine's answer to one line of input.
    pub fn handle(&mut self, line: &str) -> Reply {
        let mut reply = Reply::default();
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            if !tokens.is_empty() {
                reply.info(format!("unknown command: {}", kpk_probe::quote::quote(line.trim())));
            }
            return reply;
        };
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => {
                reply.say(format!("id name kpk {}", env!("CARGO_PKG_VERSION")));
                reply.say("id author kpk");
                reply.lines.extend(options::declarations());
                reply.say("uciok");
            }
            "isready" => reply.say("readyok"),
            // A held answer stays held: `stop` still gives it after a new game or position.
            "ucinewgame" => self.setup = None,
            "position" => self.position(args, &mut reply),
            "go" => self.go(args, &mut reply),
            "stop" | "ponderhit" => reply.lines.extend(self.held.take()),
            "quit" => {
                reply.lines.extend(self.held.take());
                reply.quit = true;
            }
            "setoption" => {
                if let Err(why) = self.options.set(args) {
                    reply.info(why);
                }
            }
            // No registration, no debugging output: accepted and ignored.
            _ => {}
        }
        reply
    }

    /// The reply to an input line too long to read whole: refused, and the position cleared, so
    /// that no `go` answers for the position before it.
    pub fn refuse_long_line(&mut self, limit: usize) -> Reply {
        let mut reply = Reply::default();
        self.setup = None;
        reply.info(text("long_line", &[("limit", &limit)]));
        reply
    }

    /// `position startpos|fen FEN [moves M...]`: the position after the moves, or none (with an
    /// `info string` saying why) where the command is malformed or the position illegal.
    fn position(&mut self, args: &[&str], reply: &mut Reply) {
        self.setup = match setup_of(args, self.options.chess960) {
            Ok(setup) => Some(setup),
            Err(why) => {
                reply.info(why);
                None
            }
        };
    }

    /// `go [limits]`: the answer at once (a held one first); held back until `stop` under
    /// `infinite` or `ponder`.
    fn go(&mut self, args: &[&str], reply: &mut Reply) {
        reply.lines.extend(self.held.take());
        let searchmoves = searchmoves(args);
        let bestmove = match self.setup.clone() {
            None => {
                reply.info(text("no_position", &[]));
                reply.say("info depth 0 nodes 0 time 0");
                "bestmove (none)".to_string()
            }
            Some(setup) => self.answer(&setup, searchmoves.as_deref(), reply),
        };
        if args.iter().any(|a| *a == "infinite" || *a == "ponder") {
            self.held = Some(bestmove);
        } else {
            reply.say(bestmove);
        }
    }

    /// The `info` lines and the `bestmove` line for `setup`.
    fn answer(&self, setup: &Setup, searchmoves: Option<&[&str]>, reply: &mut Reply) -> String {
        let started = Instant::now();
        let mut moves = self.root_moves(setup, reply);
        if let Some(only) = searchmoves {
            moves.retain(|m| only.contains(&m.uci.as_str()));
            if moves.is_empty() {
                reply.info(text("no_searchmove", &[]));
            }
        }
        let Some(best) = moves.first() else {
            let board = &setup.board;
            let mated = legal_moves(board, false).is_empty() && !board.checkers().is_empty();
            let score = if mated { Score::Mate(0) } else { Score::Cp(0) };
            let time = started.elapsed().as_millis();
            reply.say(info(&[("depth", &0), ("nodes", &1), ("time", &time), ("score", &score)]));
            return "bestmove (none)".to_string();
        };
        let nodes = moves.len() + 1;
        let time = started.elapsed().as_millis();
        for (i, m) in moves.iter().take(self.options.multipv as usize).enumerate() {
            let seldepth = 1 + usize::from(m.ponder.is_some());
            let (rank, score) = (i + 1, m.score);
            let mut fields: Vec<(&str, &dyn std::fmt::Display)> =
                vec![("depth", &1), ("seldepth", &seldepth), ("multipv", &rank), ("score", &score)];
            let wdl = m
                .wdl
                .filter(|_| self.options.show_wdl)
                .map(|w| w.per_mille().map(|n| n.to_string()).join(" "));
            if let Some(wdl) = &wdl {
                fields.push(("wdl", wdl));
            }
            let pv = [Some(&m.uci), m.ponder.as_ref()]
                .into_iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            fields.extend([("nodes", &nodes as &dyn std::fmt::Display), ("time", &time), ("pv", &pv)]);
            reply.say(info(&fields));
        }
        if let Some(why) = describe(best, setup.halfmove) {
            reply.info(why);
        }
        match (&best.ponder, self.options.ponder) {
            (Some(ponder), true) => format!("bestmove {} ponder {ponder}", best.uci),
            _ => format!("bestmove {}", best.uci),
        }
    }

    /// Every legal move of the setup's position with its result, best first (empty where there
    /// is none); a position outside KPK is said so in an `info string`, its moves scored by
    /// material.
    fn root_moves(&self, setup: &Setup, reply: &mut Reply) -> Vec<RootMove> {
        let board = &setup.board;
        let chess960 = self.options.chess960;
        match Oriented::from_fen(&board.to_string()) {
            Ok(o) if self.knowledge.is_perfect() => {
                self.knowledge.by_dtm(board, self.knowledge.kpk_root_moves(&o, setup.halfmove))
            }
            Ok(o) => self.knowledge.kpk_root_moves(&o, setup.halfmove),
            // Past promotion the distance to mate decides.
            Err(e) => self.knowledge.dtm_root_moves(board).unwrap_or_else(|| {
                let moves = legal_moves(board, chess960);
                if !moves.is_empty() {
                    reply.info(text("not_kpk", &[("why", &e)]));
                }
                outside_kpk(board, moves)
            }),
        }
    }
}

/// An `info` line of the words and values given.
fn info(fields: &[(&str, &dyn std::fmt::Display)]) -> String {
    fields.iter().fold("info".to_string(), |line, (word, value)| format!("{line} {word} {value}"))
}

/// The moves listed after `go searchmoves`, if the word is there.
fn searchmoves<'a>(args: &[&'a str]) -> Option<Vec<&'a str>> {
    let at = args.iter().position(|a| *a == "searchmoves")?;
    Some(args[at + 1..].iter().take_while(|a| !GO_WORDS.contains(a) && **a != "infinite").copied().collect())
}

/// The moves of a position outside KPK, each scored by the material balance after it from the
/// mover's point of view, best first (ties in UCI order).
fn outside_kpk(board: &Board, moves: Vec<(cozy_chess::Move, String)>) -> Vec<RootMove> {
    let side = board.side_to_move();
    let mut list: Vec<RootMove> = moves
        .into_iter()
        .map(|(mv, uci)| {
            let mut next = board.clone();
            next.play_unchecked(mv);
            let score = Score::Cp(balance(&next, side));
            RootMove { uci, wdl: None, score, dtc: None, dtz: None, ponder: None, dtm: None }
        })
        .collect();
    list.sort_by_key(|m| {
        std::cmp::Reverse(match m.score {
            Score::Cp(cp) => cp,
            Score::Mate(_) => 0,
        })
    });
    list
}

/// The `info string` that says in words what the best move's result is, in KPK.
fn describe(best: &RootMove, halfmove: u32) -> Option<String> {
    let wdl = best.wdl?;
    if let Some(dtm) = best.dtm {
        return Some(text("dtm", &[("dtm", &dtm.signed())]));
    }
    let dtz = best.dtz.unwrap_or(0);
    let clocks: [(&str, &dyn std::fmt::Display); 2] = [("dtz", &dtz), ("halfmove", &halfmove)];
    Some(match (wdl, best.dtc) {
        (Wdl::Draw, _) => text("draw", &[]),
        (Wdl::Win, Some(d)) => text("wins_dtc", &[("dtc", &d)]),
        (Wdl::Loss, Some(d)) => text("loses_dtc", &[("dtc", &d)]),
        (Wdl::Win, None) => text("wins", &[]),
        (Wdl::Loss, None) => text("loses", &[]),
        (Wdl::CursedWin, _) => text("cursed", &clocks),
        (Wdl::BlessedLoss, _) => text("blessed", &clocks),
    })
}

#[cfg(test)]
mod tests;
