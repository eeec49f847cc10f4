//! `kpk play`'s PGN read back by a strict parser written here from the PGN standard: tag pairs
//! `[Name "value"]`, a blank line, movetext of move numbers (`N.` before White's move, `N...` when
//! Black moves first), SAN moves, `{comments}` and the result token, which must equal the Result
//! tag. Each SAN move must name exactly one legal move in the position reached (destination in
//! the FEN's own squares, piece, promotion, and a `+` exactly when it gives check), and replaying
//! them must give the game's moves.

use kpk::chess::position::{After, KpkPosition, Move, Oriented};
use kpk::play::game::{Game, Player, play};
use kpk::play::pgn::to_pgn;
use kpk::{Bitbase, Color};
use kpk_probe::Transform;

/// Parse tag pairs; panics on anything not strictly `[Name "value"]`.
fn tags(text: &str) -> (Vec<(String, String)>, &str) {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(line_end) = rest.find('\n') {
        let line = &rest[..line_end];
        rest = &rest[line_end + 1..];
        if line.is_empty() {
            return (out, rest);
        }
        assert!(line.starts_with('[') && line.ends_with("\"]"), "bad tag line {line:?}");
        let (name, value) = line[1..line.len() - 2].split_once(" \"").expect("name and value");
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{name}");
        assert!(!value.contains('"') || value.contains("\\\""), "{value}");
        out.push((name.to_string(), value.to_string()));
    }
    panic!("no blank line after the tags");
}

/// Movetext tokens: comments whole, others split on whitespace.
fn tokens(movetext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = movetext.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '{' {
            let mut t = String::new();
            for c in chars.by_ref() {
                t.push(c);
                if c == '}' {
                    break;
                }
            }
            assert!(t.ends_with('}'), "unclosed comment");
            out.push(t);
        } else {
            let mut t = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '{' {
                    break;
                }
                t.push(c);
                chars.next();
            }
            out.push(t);
        }
    }
    out
}

/// The legal move of `p` (seen through `t`) that the SAN names; panics unless exactly one.
fn san_move(p: &KpkPosition, t: Transform, san: &str) -> Move {
    let (body, check) = match san.strip_suffix('+').or(san.strip_suffix('#')) {
        Some(b) => (b, true),
        None => (san, false),
    };
    let (body, promotion) = match body.split_once('=') {
        Some((b, piece)) => (b, Some(piece.to_string())),
        None => (body, None),
    };
    let king = body.starts_with('K');
    let square = body.trim_start_matches('K').trim_start_matches('x');
    assert_eq!(square.len(), 2, "{san}");
    let to = t.apply(square.parse().unwrap_or_else(|_| panic!("bad square in {san}")));
    let matching: Vec<Move> = p
        .moves()
        .into_iter()
        .filter(|mv| {
            let is_king = mv.from == p.wk() && p.side() == Color::White || p.side() == Color::Black;
            mv.to == to && is_king == king && mv.promotion.map(|x| x.letter().to_string()) == promotion
        })
        .collect();
    assert_eq!(matching.len(), 1, "{san} names {} moves", matching.len());
    let mv = matching[0];
    if let After::Position(next) = p.play(mv) {
        assert_eq!(next.in_check(), check, "{san}: check mark wrong");
    }
    mv
}

/// Parse `pgn` strictly and replay it; returns the moves.
fn parse(pgn: &str) -> Vec<Move> {
    let (tags, movetext) = tags(pgn);
    let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Event", "Site", "Date", "Round", "White", "Black", "Result", "SetUp", "FEN"]);
    let fen = &tags[8].1;
    let o = Oriented::from_fen(fen).unwrap();
    let (mut p, t) = (o.position, o.transform);
    let mut moves = Vec::new();
    let toks = tokens(movetext);
    let (result, body) = toks.split_last().unwrap();
    assert_eq!(result, &tags[6].1);
    assert!(["1-0", "0-1", "1/2-1/2", "*"].contains(&result.as_str()));
    let mut number = 1;
    let mut expect_number = true;
    for tok in body {
        if tok.starts_with('{') {
            continue;
        }
        let user_white = (p.side() == Color::White) != t.flip_colours;
        if expect_number {
            let want = if user_white { format!("{number}.") } else { format!("{number}...") };
            assert_eq!(tok, &want);
            expect_number = false;
            continue;
        }
        let mv = san_move(&p, t, tok);
        moves.push(mv);
        if !user_white {
            number += 1;
        }
        expect_number = !user_white;
        match p.play(mv) {
            After::Position(next) => p = next,
            _ => break,
        }
    }
    moves
}

fn games(bb: &Bitbase) -> Vec<Game> {
    let model = kpk::play::model::PlayModel::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/kpk-play.hybrid"
    )))
    .unwrap();
    // Evaluator players too, so that comments with values are parsed: the net hybrid one ply deep,
    // its net alone two plies deep.
    let net_hybrid = kpk::hybrid::Hybrid::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/models/kpk-net.hybrid"
    )))
    .unwrap();
    let hybrid = kpk::play::evaluators::hybrid_exact(&net_hybrid).unwrap().deepened();
    let net = kpk::play::evaluators::hybrid_net(&net_hybrid).unwrap().deepened().deepened();
    let mut out = Vec::new();
    let ts = [(false, false), (false, true), (true, false), (true, true)]
        .map(|(flip_colours, mirror_files)| Transform { flip_colours, mirror_files });
    for (n, p) in KpkPosition::all().enumerate().filter(|(n, _)| n % 211 == 0) {
        let t = ts[n % 4];
        let start = Oriented::from_fen(&p.to_fen_with(t)).unwrap();
        let (mut a, mut b) = match n % 5 {
            0 => (Player::Perfect(bb), Player::Perfect(bb)),
            1 => (Player::Model(&model), Player::random(bb, n as u64)),
            2 => (Player::random(bb, n as u64), Player::Model(&model)),
            3 => (Player::Search(&hybrid), Player::Search(&net)),
            _ => (Player::Search(&net), Player::Perfect(bb)),
        };
        out.push(play(bb, start, &mut a, &mut b, 100));
    }
    out
}

#[test]
fn every_pgn_round_trips_through_a_strict_parser() {
    let bb = Bitbase::generate();
    let games = games(&bb);
    assert!(games.len() > 700);
    assert!(games.iter().any(|g| to_pgn(g, "W", "B").contains("; value ")), "evaluator values in comments");
    for g in &games {
        let pgn = to_pgn(g, "W", "B");
        let moves = parse(&pgn);
        let played: Vec<Move> = g.plies.iter().map(|p| p.mv).collect();
        assert_eq!(moves, played, "{pgn}");
    }
}

#[test]
fn the_readme_game_is_what_kpk_play_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme.find("### A game").expect("a kpk play game in the README");
    let start = section + readme[section..].find("```text\n").expect("its movetext") + "```text\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let movetext = &readme[start..end];
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kpk"))
        .args(["play", "5k2/8/8/8/8/2P5/8/3K4 w - - 0 1", "--black", "model"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let pgn = String::from_utf8(out.stdout).unwrap();
    let (_, printed) = pgn.split_once("\n\n").expect("tags, a blank line, the movetext");
    assert_eq!(printed, movetext);
    // The game goes on past the promotion to mate.
    let words: Vec<&str> = movetext.split_whitespace().collect();
    assert!(words.windows(2).any(|w| w == ["c8=Q", "{DTC"]), "{movetext}");
    assert!(words.ends_with(&["Qc1#", "{DTM", "1", "->", "DTM", "0}", "{checkmate}", "1-0"]), "{movetext}");
}
