//! The protocol around the answer: options, MultiPV, searchmoves, held answers, clocks and the
//! 50-move rule, and refused input.

use super::{DRAWN, WON, bestmove, model, perfect, timeless};
use crate::chess::bitbase::Bitbase;
use crate::chess::dtm::Tables;
use crate::chess::position::{KpkPosition, Oriented};
use crate::play::engine::messages::text;
use crate::play::engine::root::{FIFTY_MOVES, WIN_CP};
use crate::play::engine::{Engine, Reply};
use crate::play::uci;

/// The `info` lines of a reply that report a move (`multipv`).
fn pv_lines(r: &Reply) -> Vec<&String> {
    r.lines.iter().filter(|l| l.contains(" multipv ")).collect()
}

/// The value of `word` in an `info` line (`score` gives `cp 19991`'s `cp`).
fn field<'a>(line: &'a str, word: &str) -> &'a str {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|w| *w == word).unwrap_or_else(|| panic!("no {word} in {line}"));
    words[at + 1]
}

/// An `info` line's score on one scale, higher better for the side to move: `cp` as it is, a
/// mate in N beyond every `cp` (the quicker the higher), being mated below every `cp`.
fn score(line: &str) -> i64 {
    let n: i64 = field(line, field(line, "score")).parse().unwrap();
    match field(line, "score") {
        "cp" => n,
        _ if n > 0 => 1_000_000 - n,
        _ => -1_000_000 - n,
    }
}

/// `setoption name NAME value VALUE`'s reply.
fn set(e: &mut Engine, name: &str, value: &str) -> Reply {
    e.handle(&format!("setoption name {name} value {value}"))
}

#[test]
fn options_are_set_refused_when_unknown_or_out_of_range_and_names_ignore_case() {
    let mut e = perfect();
    for (name, value) in [
        ("Hash", "64"),
        ("threads", "1"),
        ("Move Overhead", "30"),
        ("MultiPV", "3"),
        ("UCI_ShowWDL", "true"),
        ("Ponder", "false"),
        ("UCI_Chess960", "true"),
        ("UCI_Chess960", "false"),
    ] {
        assert_eq!(set(&mut e, name, value), Reply::default(), "{name}");
    }
    assert_eq!((e.options.hash, e.options.move_overhead, e.options.multipv), (64, 30, 3));
    assert!(e.options.show_wdl && !e.options.chess960);
    let refused = [("Hash", "0"), ("MultiPV", "many"), ("Ponder", "yes"), ("Contempt", "10")];
    let mut replies: Vec<Reply> = refused.iter().map(|(name, value)| set(&mut e, name, value)).collect();
    replies.push(e.handle("setoption Hash 16"));
    for r in replies {
        assert_eq!(r.lines.len(), 1, "{r:?}");
        assert!(r.lines[0].starts_with("info string "), "{r:?}");
    }
    assert_eq!((e.options.hash, e.options.multipv), (64, 3));
}

#[test]
fn multipv_lists_every_root_move_best_first_with_its_exact_wdl() {
    let bb = Bitbase::generate();
    let o = Oriented::from_fen(WON).unwrap();
    for mut e in [perfect(), model()] {
        set(&mut e, "MultiPV", "256");
        set(&mut e, "UCI_ShowWDL", "true");
        e.handle(&format!("position fen {WON}"));
        let r = e.handle("go depth 10");
        let lines = pv_lines(&r);
        let moves = o.position.moves();
        assert_eq!(lines.len(), moves.len());
        assert_eq!(field(lines[0], "pv"), bestmove(&r));
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(field(line, "multipv"), (i + 1).to_string());
            let mv = moves.iter().find(|m| uci(&o, **m) == field(line, "pv")).expect("a legal move");
            let wins = crate::play::after(&bb, &o.position, *mv).0 == kpk_probe::Outcome::Win;
            let wdl = if wins { "1000" } else { "0" };
            assert_eq!(field(line, "wdl"), wdl, "{line}");
            assert_eq!(score(line) > 0, wins, "{line}");
            for word in ["depth", "nodes", "time"] {
                field(line, word).parse::<u64>().unwrap();
            }
        }
        // Best first: the scores never rise down the list.
        let cps: Vec<i64> = lines.iter().map(|l| score(l)).collect();
        assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{cps:?}");
    }
}

#[test]
fn searchmoves_limits_the_answer_to_the_moves_given() {
    let mut e = perfect();
    set(&mut e, "MultiPV", "5");
    e.handle(&format!("position fen {WON}"));
    let r = e.handle(&format!("go searchmoves {} wtime 1000", "e1d1 e1f2"));
    // The better of the two by distance to mate (the perfect player's order).
    let board: cozy_chess::Board = WON.parse().unwrap();
    let dtm = crate::chess::dtm::Tables::generate().moves(&board).unwrap();
    let of = |uci: &str| dtm.iter().find(|(m, _)| m.to_string() == uci).unwrap().1.preference();
    let best = if of("e1f2") < of("e1d1") { "e1f2" } else { "e1d1" };
    assert_eq!(bestmove(&r), best);
    let pvs: Vec<&str> = pv_lines(&r).iter().map(|l| field(l, "pv")).collect();
    assert_eq!(pvs.len(), 2);
    assert!(pvs.contains(&"e1f2"));
    let r = e.handle("go searchmoves a1a2");
    assert_eq!(bestmove(&r), "(none)");
    assert!(r.lines.iter().any(|l| l.starts_with("info string ")));
}

#[test]
fn go_infinite_answers_at_stop_whatever_came_between() {
    let mut e = perfect();
    e.handle(&format!("position fen {WON}"));
    let r = e.handle("go infinite");
    assert!(r.lines.iter().all(|l| !l.starts_with("bestmove")), "{r:?}");
    assert_eq!(e.handle("ucinewgame"), Reply::default());
    e.handle("position startpos");
    assert_eq!(e.handle("isready").lines, ["readyok"]);
    assert_eq!(e.handle("stop").lines, ["bestmove e2e4"]);
    assert_eq!(e.handle("stop"), Reply::default());
    // A `go` while one is held gives the held answer first; `ponderhit` ends a `go ponder`.
    e.handle(&format!("position fen {WON}"));
    e.handle("go ponder");
    e.handle(&format!("position fen {DRAWN}"));
    let r = e.handle("go infinite");
    assert_eq!(r.lines[0], "bestmove e2e4");
    let r = e.handle("ponderhit");
    assert_eq!(r.lines.len(), 1);
    assert!(r.lines[0].starts_with("bestmove "));
}

/// The reply the DTM tables choose after `mv` from `fen`, in UCI.
fn dtm_reply(tables: &Tables, fen: &str, mv: &str) -> String {
    let board: cozy_chess::Board = setup_after(fen, mv).parse().unwrap();
    tables.best_move(&board).map(|(reply, _)| reply.to_string()).expect("a reply")
}

#[test]
fn ponder_names_the_expected_reply() {
    let mut e = perfect();
    e.handle(&format!("position fen {WON}"));
    assert_eq!(bestmove(&e.handle("go")), "e2e4");
    set(&mut e, "Ponder", "true");
    let answer = bestmove(&e.handle("go")).to_string();
    let reply = answer.strip_prefix("e2e4 ponder ").expect("a ponder move");
    assert_eq!(reply, dtm_reply(&Tables::generate(), WON, "e2e4"));
}

/// Under the perfect player the ponder move comes from the DTM ordering, as the best move does:
/// after the best move, the tables' reply (the longest resistance, a draw kept, ties to the
/// lowest UCI text), in every 40th legal KPK position with a move, either side to move, and past
/// the promotion; the bitbase's DTC-perfect reply differs in some of them.
#[test]
fn the_perfect_players_ponder_move_is_the_dtm_tables_reply() {
    let (bb, tables) = (Bitbase::generate(), Tables::generate());
    let mut e = perfect();
    set(&mut e, "Ponder", "true");
    let (mut checked, mut unlike_dtc) = (0, 0);
    for p in KpkPosition::all().step_by(40).filter(|p| !p.moves().is_empty()) {
        let fen = p.to_fen();
        e.handle(&format!("position fen {fen}"));
        let answer = bestmove(&e.handle("go")).to_string();
        let Some((best, reply)) = answer.split_once(" ponder ") else {
            // No reply to expect: the best move mates or stalemates, or takes the game out of the
            // tables' reach.
            let board: cozy_chess::Board = setup_after(&fen, &answer).parse().unwrap();
            assert!(tables.best_move(&board).is_none(), "{fen}: {answer}");
            continue;
        };
        assert_eq!(reply, dtm_reply(&tables, &fen, best), "{fen}");
        checked += 1;
        // Past a promotion there is no KPK reply to compare.
        let Ok(next) = Oriented::from_fen(&setup_after(&fen, best)) else { continue };
        if let Some(dtc_reply) = crate::play::perfect_move(&bb, &next.position) {
            unlike_dtc += usize::from(uci(&next, dtc_reply) != reply);
        }
    }
    assert!(checked > 3000, "{checked}");
    assert!(unlike_dtc > 0, "no DTC reply differs");
    // Past the promotion, KQK.
    let kqk = "2k5/8/8/8/8/8/8/KQ6 w - - 0 1";
    e.handle(&format!("position fen {kqk}"));
    let answer = bestmove(&e.handle("go")).to_string();
    let (best, reply) = answer.split_once(" ponder ").expect("a ponder move");
    assert_eq!(reply, dtm_reply(&tables, kqk, best));
}

/// The FEN after `mv` from `fen`.
fn setup_after(fen: &str, mv: &str) -> String {
    let args = format!("fen {fen} moves {mv}");
    super::setup_of(&args.split(' ').collect::<Vec<_>>(), false).unwrap().board.to_string()
}

#[test]
fn every_legal_fen_is_taken_clocks_included() {
    let mut e = perfect();
    for fen in [
        "8/8/8/8/8/8/4P3/4K2k w - - 101 1",
        "8/8/8/8/8/8/4P3/4K2k w - - 0 0",
        "8/8/8/8/8/8/4P3/4K2k w - - 250 400",
    ] {
        assert_eq!(e.handle(&format!("position fen {fen}")), Reply::default(), "{fen}");
        assert_eq!(bestmove(&e.handle("go")), "e2e4", "{fen}");
    }
}

#[test]
fn illegal_positions_say_why_and_answer_none() {
    let mut e = perfect();
    for (fen, why) in [
        ("8/8/8/8/8/8/3kP3/4K3 w - - 0 1", text("adjacent", &[])),
        ("8/8/8/8/8/8/4P3/4KK1k w - - 0 1", text("kings", &[("side", &"White"), ("n", &2)])),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", text("kings", &[("side", &"Black"), ("n", &0)])),
        ("4P3/8/8/8/8/8/8/4K2k w - - 0 1", text("pawn_rank", &[])),
        ("8/8/8/8/8/8/4P3/4K1Qk w - - 0 1", text("in_check", &[])),
        ("8/8/8/8/8/8/4P3/4K2k w - e3 0 1", text("en_passant", &[("square", &"e3")])),
        ("8/8/8/8/8/8/4P3/4K2k x - - 0 1", text("side", &[("side", &"x")])),
        ("8/8/8/8/8/8/4P3/4K2k w - - x 1", text("halfmove", &[])),
    ] {
        let r = e.handle(&format!("position fen {fen}"));
        assert_eq!(r.lines.len(), 1, "{fen}: {r:?}");
        assert!(r.lines[0].starts_with("info string bad FEN") && r.lines[0].ends_with(&why), "{fen}: {r:?}");
        assert_eq!(bestmove(&e.handle("go")), "(none)");
    }
}

#[test]
fn the_halfmove_clock_turns_a_win_beyond_the_fifty_moves_into_a_draw() {
    let bb = Bitbase::generate();
    for mut e in [perfect(), model()] {
        set(&mut e, "UCI_ShowWDL", "true");
        set(&mut e, "MultiPV", "256");
        // Every won position with White to move and DTZ above 1 (the pawn move is not at once),
        // one in 61: at the clock where its DTZ just fits, still a win; one ply later, cursed.
        let won = KpkPosition::all().filter(|p| p.side() == kpk_probe::Color::White && bb.dtz(p) > 1);
        for p in won.step_by(61) {
            let z = bb.dtz(&p) as u32;
            for (clock, wins) in [(FIFTY_MOVES - z, true), (FIFTY_MOVES - z + 1, false)] {
                e.handle(&format!("position fen {} - - {clock} 1", &p.to_fen()[..p.to_fen().len() - 8]));
                let r = e.handle("go");
                let first = pv_lines(&r)[0];
                let expected = if wins { "wdl 1000 0 0" } else { "wdl 0 1000 0" };
                assert!(first.contains(expected), "{} at clock {clock}: {first}", p.to_fen());
                assert_eq!(score(first) > i64::from(WIN_CP / 2), wins);
                // Even cursed, the best move is one of the winning moves ignoring the rule.
                let o = Oriented { position: p, transform: Default::default() };
                let mv = p.moves().into_iter().find(|m| uci(&o, *m) == bestmove(&r)).unwrap();
                assert_eq!(crate::play::after(&bb, &p, mv).0, kpk_probe::Outcome::Win);
            }
        }
    }
}

#[test]
fn an_over_long_line_is_refused_and_clears_the_position() {
    let mut e = perfect();
    e.handle(&format!("position fen {WON}"));
    let r = e.refuse_long_line(65536);
    assert_eq!(r.lines.len(), 1);
    assert_eq!(r.lines[0], format!("info string {}", text("long_line", &[("limit", &65536)])));
    assert_eq!(bestmove(&e.handle("go")), "(none)");
}

#[test]
fn every_answer_has_depth_nodes_time_and_score() {
    let mut e: Engine = model();
    for position in [
        format!("position fen {WON}"),
        format!("position fen {DRAWN}"),
        "position startpos moves e2e4".to_string(),
        "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".to_string(),
    ] {
        e.handle(&position);
        let r = e.handle("go movetime 50");
        let info = r.lines.iter().find(|l| l.starts_with("info depth")).expect("an info line");
        let line = timeless(info);
        for word in ["depth", "nodes", "time", "score"] {
            field(&line, word);
        }
    }
}

#[test]
fn chess960_castling_notation_is_accepted() {
    let mut e = perfect();
    set(&mut e, "UCI_Chess960", "true");
    // King takes rook: Chess960's castling (here from a standard setup, in X-FEN).
    let r = e.handle(&format!("position fen {} moves e1h1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    assert_eq!(r, Reply::default());
    assert!(!bestmove(&e.handle("go")).is_empty());
}
