//! A UCI engine for KPK: the protocol's state and replies, one input line at a time (`kpk uci`
//! reads the lines and prints the replies; docs/UCI.md describes what it answers).
//!
//! In a KPK position the engine plays the play model's move (or the bitbase's perfect move) and
//! reports the result it knows as `info score`, from the side to move's point of view: `cp 0`
//! for a draw, and a win or loss as `cp` ±([`WIN_CP`] − DTC) where the DTC is known (the
//! bitbase), ±[`WIN_CP`] where only the result is (the play model). DTC counts plies to
//! conversion, not to mate, so no `score mate` is claimed. Any other position is played by a
//! legal move and said to be outside KPK in an `info string`; a position with no legal move (or
//! none set) gets `bestmove 0000`. Unknown or malformed input is answered by an `info string` and
//! otherwise ignored, as the protocol asks.

use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::position::Oriented;
use crate::play::{model::PlayModel, perfect_move, uci};
use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{Board, Move};
use kpk_probe::{Color, Outcome};

/// The size of a win in `info score cp` (a loss is its negative); the DTC is taken off it where
/// known, so a quicker win scores higher.
pub const WIN_CP: i32 = 20_000;

/// Who chooses the moves of KPK positions.
pub enum Player {
    /// The play model file (the hybrid plus its move proposer): knows results, not DTCs.
    Model(Box<PlayModel>),
    /// The bitbase: perfect moves, results and DTCs.
    Perfect,
}

/// The engine: the position set by the last `position` command and a `bestmove` held back by
/// `go infinite` (or `go ponder`) until `stop`.
pub struct Engine {
    player: Player,
    bb: Bitbase,
    /// Distance to mate: the moves after promotion, and every move under `--perfect`.
    tables: Tables,
    board: Option<Board>,
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

impl Engine {
    pub fn new(player: Player, bb: Bitbase) -> Engine {
        Engine { player, bb, tables: Tables::generate(), board: None, held: None }
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
                reply.say("uciok");
            }
            "isready" => reply.say("readyok"),
            "ucinewgame" => self.held = None,
            "position" => self.position(args, &mut reply),
            "go" => self.go(args, &mut reply),
            "stop" | "ponderhit" => reply.lines.extend(self.held.take()),
            "quit" => reply.quit = true,
            // No options, no registration, no debugging output: accepted and ignored.
            _ => {}
        }
        reply
    }

    /// `position startpos|fen FEN [moves M...]`: the position after the moves, or none (with an
    /// `info string` saying why) where the command is malformed.
    fn position(&mut self, args: &[&str], reply: &mut Reply) {
        self.held = None;
        self.board = match board_of(args) {
            Ok(board) => Some(board),
            Err(why) => {
                reply.info(why);
                None
            }
        };
    }

    /// `go [limits]`: the move at once; held back until `stop` under `infinite` or `ponder`.
    fn go(&mut self, args: &[&str], reply: &mut Reply) {
        let bestmove = match &self.board {
            None => {
                reply.info("no position set");
                "bestmove 0000".to_string()
            }
            Some(board) => format!("bestmove {}", self.choose(board, reply)),
        };
        if args.iter().any(|a| *a == "infinite" || *a == "ponder") {
            self.held = Some(bestmove);
        } else {
            reply.say(bestmove);
        }
    }

    /// The move for `board` in UCI (`0000` for none), with the `info` lines that go before it.
    fn choose(&self, board: &Board, reply: &mut Reply) -> String {
        let moves = legal_moves(board);
        if moves.is_empty() {
            reply.info("no legal move");
            return "0000".to_string();
        }
        // Past promotion, and under `--perfect` throughout, the distance to mate decides.
        let oriented = Oriented::from_fen(&board.to_string());
        if matches!(self.player, Player::Perfect) || oriented.is_err() {
            if let Some(mv) = self.mate_move(board, reply) {
                return mv;
            }
        }
        match oriented {
            Ok(o) => self.kpk_move(&o, board, reply),
            Err(e) => {
                reply.info(format!("not KPK ({e}): a legal move"));
                moves[0].clone()
            }
        }
    }

    /// The DTM-optimal move where the tables know the position, after `info score mate N` (UCI's
    /// N: moves, negative when the side to move is mated), or `cp 0` in a draw.
    fn mate_move(&self, board: &Board, reply: &mut Reply) -> Option<String> {
        let (mv, d) = crate::play::dtm_move(&self.tables, board)?;
        let score = d.uci_mate().map_or("cp 0".to_string(), |n| format!("mate {n}"));
        reply.say(format!("info depth 1 score {score} pv {mv}"));
        reply.info(format!("DTM {} plies", d.signed()));
        Some(mv)
    }

    /// The player's move in a KPK position, after its `info score`.
    fn kpk_move(&self, o: &Oriented, board: &Board, reply: &mut Reply) -> String {
        let p = o.position;
        let (mv, outcome, dtc) = match &self.player {
            Player::Model(model) => (model.best_move(&p), model.hybrid().classify(&p).outcome, None),
            Player::Perfect => {
                (perfect_move(&self.bb, &p), self.bb.outcome(&p), self.bb.dtc(&p).map(|d| d.0))
            }
        };
        let name = mv.map(|mv| uci(o, mv)).filter(|m| legal_moves(board).contains(m));
        let Some(name) = name else {
            reply.info("the player has no move here");
            return legal_moves(board)[0].clone();
        };
        let cp = score_cp(outcome, dtc, p.side());
        reply.say(format!("info depth 1 score cp {cp} pv {name}"));
        let result = match (outcome, dtc) {
            (Outcome::Draw, _) => "KPK: draw".to_string(),
            (Outcome::Win, Some(d)) => format!("KPK: pawn side wins, DTC {d}"),
            (Outcome::Win, None) => "KPK: pawn side wins".to_string(),
        };
        reply.info(result);
        name
    }
}

/// The score from the side to move's point of view (see the module documentation); `side` is
/// the side to move in the canonical orientation, where the pawn side is White.
pub fn score_cp(outcome: Outcome, dtc: Option<u8>, side: Color) -> i32 {
    let win = WIN_CP - dtc.map_or(0, i32::from);
    match (outcome, side) {
        (Outcome::Draw, _) => 0,
        (Outcome::Win, Color::White) => win,
        (Outcome::Win, Color::Black) => -win,
    }
}

/// Every legal move of `board` in UCI, sorted (the first is the reply outside KPK).
pub fn legal_moves(board: &Board) -> Vec<String> {
    let mut moves = Vec::new();
    board.generate_moves(|list| {
        moves.extend(list.into_iter().map(|mv: Move| display_uci_move(board, mv).to_string()));
        false
    });
    moves.sort();
    moves
}

/// The board a `position` command's arguments describe, or why they describe none.
fn board_of(args: &[&str]) -> Result<Board, String> {
    let at_moves = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
    let (setup, moves) = (&args[..at_moves], args.get(at_moves + 1..).unwrap_or(&[]));
    let mut board = match setup {
        ["startpos"] => Board::default(),
        ["fen", fields @ ..] if (2..=6).contains(&fields.len()) => {
            // Missing trailing fields take FEN's defaults, as kpk's own reader allows.
            let defaults = ["-", "-", "0", "1"];
            let mut full: Vec<&str> = fields.to_vec();
            full.extend(&defaults[fields.len() - 2..]);
            let fen = full.join(" ");
            Board::from_fen(&fen, false)
                .map_err(|e| format!("bad FEN {}: {e:?}", kpk_probe::quote::quote(&fen)))?
        }
        _ => return Err("position needs startpos or fen FEN".to_string()),
    };
    for (i, text) in moves.iter().enumerate() {
        let legal = parse_uci_move(&board, text).ok().filter(|mv| board.is_legal(*mv));
        match legal {
            Some(mv) => board.play_unchecked(mv),
            None => return Err(format!("move {} ({text}) is not legal: no position set", i + 1)),
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests;
