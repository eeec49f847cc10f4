use super::*;
use crate::chess::position::KpkPosition;
use crate::play::model::PlayModel;
use crate::play::{is_perfect, uci};
use kpk_probe::Color;
use root::WIN_CP;
use setup::setup_of;

pub(super) const WON: &str = "8/8/8/8/8/8/4P3/4K2k w - - 0 1";
/// A game's start, whose moves lead out of KPK.
const STARTPOS: &str = "position startpos moves";
/// Moves played from the won position.
const WON_MOVES: &str = "position fen 8/8/8/8/8/8/4P3/4K2k w - - 0 1 moves";
pub(super) const DRAWN: &str = "8/8/8/8/8/1k6/1P6/1K6 w - - 0 1";

pub(super) fn perfect() -> Engine {
    Engine::new(Player::Perfect, Bitbase::generate())
}

pub(super) fn model() -> Engine {
    let bytes = crate::play::model::DEFAULT_PLAY_MODEL_BYTES;
    let model =
        PlayModel::from_bytes(bytes, "models/kpk-play.hybrid").expect("the committed play model loads");
    Engine::new(Player::Model(Box::new(model)), Bitbase::generate())
}

/// An `info` line with its time (milliseconds, which vary) replaced by `T`.
pub(super) fn timeless(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let kept = words.iter().enumerate().map(|(i, w)| if i > 0 && words[i - 1] == "time" { "T" } else { w });
    kept.collect::<Vec<_>>().join(" ")
}

pub(super) fn bestmove(reply: &Reply) -> &str {
    let last = reply.lines.last().expect("a reply");
    last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("no bestmove in {reply:?}"))
}

#[test]
fn the_handshake() {
    let mut e = perfect();
    let r = e.handle("uci");
    assert!(r.lines[0].starts_with("id name kpk "));
    assert_eq!(r.lines.last().unwrap(), "uciok");
    for name in ["Hash", "Threads", "MultiPV", "Move Overhead", "Ponder", "UCI_ShowWDL", "UCI_Chess960"] {
        assert!(r.lines.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}");
    }
    assert_eq!(e.handle("isready").lines, ["readyok"]);
    assert_eq!(e.handle("ucinewgame"), Reply::default());
    assert_eq!(e.handle("setoption name Hash value 64"), Reply::default());
    assert!(e.handle("quit").quit);
}

#[test]
fn unknown_tokens_before_a_command_are_skipped() {
    let mut e = perfect();
    assert_eq!(e.handle("joho isready").lines, ["readyok"]);
    let r = e.handle("hello world");
    assert_eq!(r.lines.len(), 1);
    assert!(r.lines[0].starts_with("info string unknown command"));
    assert_eq!(e.handle("   "), Reply::default());
}

/// Plays `fen` to its end or `plies`, the engine choosing every move, and checks each KPK move
/// is perfect; returns the moves.
fn self_play(e: &mut Engine, fen: &str, plies: usize) -> Vec<String> {
    let bb = Bitbase::generate();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let position = format!("position fen {fen} moves {}", moves.join(" "));
        assert_eq!(e.handle(&position), Reply::default(), "{position}");
        let board =
            setup_of(&position.split_ascii_whitespace().skip(1).collect::<Vec<_>>(), false).unwrap().board;
        let Ok(o) = Oriented::from_fen(&board.to_string()) else { break };
        let r = e.handle("go movetime 100");
        let mv = bestmove(&r).to_string();
        let kpk_move = o.position.moves().into_iter().find(|m| uci(&o, *m) == mv).expect("a KPK move");
        // `--perfect` plays for the quickest mate, the play model for the quickest conversion.
        let tables = &e.knowledge.tables;
        let dtm_best = |mv: &str| {
            let moves = tables.moves(&board).unwrap();
            let best = tables.best_move(&board).unwrap().1;
            moves.iter().any(|(m, d)| m.to_string() == mv && *d == best)
        };
        let perfect = e.knowledge.is_perfect();
        assert!(
            if perfect { dtm_best(&mv) } else { is_perfect(&bb, &o.position, kpk_move) },
            "{mv} in {board}"
        );
        moves.push(mv);
    }
    moves
}

#[test]
fn a_won_position_is_played_to_promotion_perfectly_by_both_players() {
    for mut e in [perfect(), model()] {
        let moves = self_play(&mut e, WON, 60);
        let last = moves.last().unwrap();
        // White promotes within the DTC of the start (and the game goes on outside KPK).
        assert!(moves.iter().any(|m| m.len() == 5 && m.ends_with('q')), "{moves:?} ({last})");
    }
}

#[test]
fn a_drawn_position_is_held() {
    for mut e in [perfect(), model()] {
        let moves = self_play(&mut e, DRAWN, 40);
        assert!(moves.len() >= 2, "{moves:?}");
    }
}

#[test]
fn the_score_is_the_known_result_from_the_side_to_moves_view() {
    let bb = Bitbase::generate();
    let o = Oriented::from_fen(WON).unwrap();
    let d = bb.dtc(&o.position).unwrap().0;
    let mut e = perfect();
    e.handle(&format!("position fen {WON}"));
    let r = e.handle("go depth 3");
    // `--perfect` knows the distance to mate: UCI's moves to mate.
    let tables = Tables::generate();
    let dtm = tables.kpk_dtm(&o.position).plies as i32;
    assert!(dtm > i32::from(d));
    let best = bestmove(&r);
    let head =
        info(&[("depth", &1), ("seldepth", &2), ("multipv", &1), ("score", &Score::Mate((dtm + 1) / 2))]);
    let tail = info(&[("nodes", &7), ("time", &"T"), ("pv", &best)]);
    assert!(timeless(&r.lines[0]).starts_with(&format!("{head}{} ", &tail[4..])), "{r:?}");
    // The lone king to move in a lost position: the negative.
    let lost = "8/8/8/8/8/8/4P3/4K2k b - - 0 1";
    e.handle(&format!("position fen {lost}"));
    let r = e.handle("go");
    let dtm = tables.kpk_dtm(&Oriented::from_fen(lost).unwrap().position).plies as i32;
    assert!(r.lines[0].contains(&format!(" score mate {} ", -dtm / 2)), "{r:?}");
    // The play model knows the result and the DTC-less score.
    let mut m = model();
    m.handle(&format!("position fen {lost}"));
    assert!(m.handle("go").lines[0].contains(&format!(" score cp {} ", -WIN_CP)));
    // A draw, and the play model's win without a DTC.
    e.handle(&format!("position fen {DRAWN}"));
    assert!(e.handle("go wtime 1000 btime 1000").lines[0].contains("score cp 0 "));
    let mut m = model();
    m.handle(&format!("position fen {WON}"));
    assert!(m.handle("go").lines[0].contains(&format!("score cp {WIN_CP} ")));
}

#[test]
fn positions_outside_kpk_get_a_legal_move_and_an_info_string() {
    let mut e = perfect();
    e.handle(&format!("{STARTPOS} e2e4 e7e5"));
    let r = e.handle("go");
    assert!(r.lines[0].starts_with("info string not KPK"), "{r:?}");
    let board = setup_of(&["startpos", "moves", "e2e4", "e7e5"], false).unwrap().board;
    assert!(legal_moves(&board, false).iter().any(|m| m.1 == bestmove(&r)));
    // After a promotion: king and queen against king.
    e.handle(&format!("{WON_MOVES} e2e4"));
    assert!(!bestmove(&e.handle("go")).is_empty());
    // Checkmate and stalemate: no move, and the score Stockfish gives.
    e.handle("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let r = e.handle("go");
    assert_eq!(
        r.lines.iter().map(|l| timeless(l)).collect::<Vec<_>>(),
        [
            info(&[("depth", &0), ("nodes", &1), ("time", &"T"), ("score", &Score::Mate(0))]),
            "bestmove (none)".into()
        ]
    );
    e.handle("position fen k7/P7/1K6/8/8/8/8/8 b - - 0 1");
    let r = e.handle("go");
    assert_eq!(
        r.lines.iter().map(|l| timeless(l)).collect::<Vec<_>>(),
        [
            info(&[("depth", &0), ("nodes", &1), ("time", &"T"), ("score", &Score::Cp(0))]),
            "bestmove (none)".into()
        ]
    );
}

#[test]
fn bad_positions_leave_none_and_go_answers_none() {
    let mut e = perfect();
    for bad in [
        "position",
        "position fen",
        "position fen 8/8 w",
        "position fen 8/8/8/8/8/8/4P3/4K2k x",
        &format!("{WON_MOVES} e2e5"),
        &format!("{WON_MOVES} zz"),
        &format!("{STARTPOS} e2e4 e2e4"),
        "position sideways",
        "position fen \u{1b}[31m w",
    ] {
        e.handle(&format!("position fen {WON}"));
        let r = e.handle(bad);
        assert_eq!(r.lines.len(), 1, "{bad}: {r:?}");
        assert!(r.lines[0].starts_with("info string "), "{bad}");
        assert!(!r.lines[0].contains('\u{1b}'));
        assert_eq!(bestmove(&e.handle("go")), "(none)", "{bad}");
    }
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = perfect();
    e.handle(&format!("position fen {WON}"));
    let r = e.handle("go infinite");
    assert!(r.lines.iter().all(|l| !l.starts_with("bestmove")), "{r:?}");
    let stop = e.handle("stop");
    assert_eq!(stop.lines.len(), 1);
    assert!(stop.lines[0].starts_with("bestmove "));
    assert_eq!(e.handle("stop"), Reply::default());
}

#[test]
fn every_won_white_to_move_position_gets_a_dtm_optimal_move_under_perfect() {
    let bb = Bitbase::generate();
    let tables = Tables::generate();
    let e = perfect();
    for p in KpkPosition::all().filter(|p| p.side() == Color::White && bb.dtc(p).is_some()).step_by(97) {
        let o = Oriented { position: p, transform: Default::default() };
        let fen = format!("fen {}", p.to_fen());
        let setup = setup_of(&fen.split(' ').collect::<Vec<_>>(), false).unwrap();
        let mut reply = Reply::default();
        let mv = e.answer(&setup, None, &mut reply);
        let mv = mv.strip_prefix("bestmove ").unwrap();
        let m = p.moves().into_iter().find(|m| uci(&o, *m) == mv).unwrap();
        assert_eq!(tables.after_move(&p, m).plies + 1, tables.kpk_dtm(&p).plies, "{}", p.to_fen());
    }
}

#[path = "protocol_tests.rs"]
mod protocol_tests;

/// Plays `fen` with the engine choosing every move until no move is legal; the final position.
fn play_out(e: &mut Engine, fen: &str) -> (Board, usize) {
    let mut moves: Vec<String> = Vec::new();
    loop {
        let position = format!("position fen {fen} moves {}", moves.join(" "));
        e.handle(&position);
        let board =
            setup_of(&position.split_ascii_whitespace().skip(1).collect::<Vec<_>>(), false).unwrap().board;
        let mv = bestmove(&e.handle("go")).to_string();
        if mv == "(none)" || moves.len() > 200 {
            return (board, moves.len());
        }
        moves.push(mv);
    }
}

#[test]
fn won_games_end_in_checkmate_and_perfect_play_in_exactly_the_dtm() {
    let tables = Tables::generate();
    let dtm = tables.kpk_dtm(&Oriented::from_fen(WON).unwrap().position).plies as usize;
    let (end, plies) = play_out(&mut perfect(), WON);
    assert_eq!(end.status(), cozy_chess::GameStatus::Won, "{end}");
    assert_eq!(plies, dtm);
    let (end, _) = play_out(&mut model(), WON);
    assert_eq!(end.status(), cozy_chess::GameStatus::Won, "{end}");
}
