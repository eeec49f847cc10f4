//! docs/MODEL_FORMATS.md's play model, written again from its text alone: the fifteen features of the
//! position after a move, the regime, the move-generation order that breaks ties and the rule
//! for a winning promotion, checked against kpk's on every move of every legal position with the
//! pawn side to move.

use kpk::Color;
use kpk::chess::position::Move;
use kpk::chess::position::{After, KpkPosition};
use kpk::play::propose::{features, regime};

type Sq = (i32, i32);

fn at(s: kpk::Square) -> Sq {
    (i32::from(s.file()), i32::from(s.rank()))
}

/// `d(a, b) = max(abs(f_a − f_b), abs(r_a − r_b))`.
fn d(a: Sq, b: Sq) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// The table "The fifteen features" of docs/MODEL_FORMATS.md.
fn spec_features(king: Sq, lone: Sq, pawn: Sq) -> [i32; 15] {
    let (front, queening) = ((pawn.0, pawn.1 + 1), (pawn.0, 7));
    let rook = pawn.0 == 0 || pawn.0 == 7;
    let files = (king.0 - lone.0).abs();
    [
        7 - pawn.1,
        d(king, front),
        d(king, queening),
        -d(lone, queening),
        -d(lone, pawn),
        -(king.1 - pawn.1).clamp(-2, 2),
        d(king, pawn),
        -d(lone, front),
        (d(lone, queening) - (7 - pawn.1)).clamp(-2, 2),
        i32::from(king.0 == lone.0 && lone.1 == king.1 + 2),
        (king.0 - pawn.0).abs(),
        i32::from(files == (king.1 - lone.1).abs() && files % 2 == 0),
        if rook { d(king, queening) } else { 0 },
        i32::from(king.1 == pawn.1 + 1 && (king.0 - pawn.0).abs() == 1),
        i32::from(pawn.1 == 1),
    ]
}

/// "Move-generation order": the king's targets by increasing square number, then the pawn's
/// step (or its four promotions, queen first), then its double step. As (to square, promotion).
fn spec_order(king: Sq, lone: Sq, pawn: Sq) -> Vec<(i32, Option<char>)> {
    let index = |s: Sq| s.1 * 8 + s.0;
    let mut out: Vec<(i32, Option<char>)> = (0..64)
        .map(|i| (i % 8, i / 8))
        .filter(|&t| d(t, king) == 1 && d(t, lone) > 1 && t != pawn)
        .map(|t| (index(t), None))
        .collect();
    let one = (pawn.0, pawn.1 + 1);
    let free = |s: Sq| s != king && s != lone;
    if free(one) {
        if one.1 == 7 {
            out.extend(['q', 'r', 'b', 'n'].map(|p| (index(one), Some(p))));
        } else {
            out.push((index(one), None));
            let two = (pawn.0, pawn.1 + 2);
            if pawn.1 == 1 && free(two) {
                out.push((index(two), None));
            }
        }
    }
    out
}

/// "A promotion wins": a queen or a rook on `q`, not taken at once, unless the lone king is
/// stalemated; the piece's lines stop at the pawn side's king and pass through the lone king.
fn spec_promotion_wins(king: Sq, lone: Sq, q: Sq, piece: char) -> bool {
    let lines: &[(i32, i32)] = match piece {
        'q' => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
        'r' => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
        _ => return false,
    };
    if d(lone, q) == 1 && d(king, q) != 1 {
        return false;
    }
    let attacked = |t: Sq| {
        lines.iter().any(|&(df, dr)| {
            let mut at = (q.0 + df, q.1 + dr);
            while (0..8).contains(&at.0) && (0..8).contains(&at.1) {
                if at == t {
                    return true;
                }
                if at == king {
                    return false;
                }
                at = (at.0 + df, at.1 + dr);
            }
            false
        })
    };
    let escapes = (0..64)
        .map(|i| (i % 8, i / 8))
        .filter(|&t| d(t, lone) == 1 && d(t, king) > 1 && t != king && !attacked(t))
        .count();
    attacked(lone) || escapes > 0
}

fn as_spec(mv: &Move) -> (i32, Option<char>) {
    (mv.to.index() as i32, mv.promotion.map(|p| p.letter().to_ascii_lowercase()))
}

#[test]
fn the_documented_features_regime_and_move_order_are_kpks_on_every_move() {
    let mut moves = 0;
    for p in KpkPosition::all().filter(|p| p.side() == Color::White) {
        let (king, lone, pawn) = (at(p.wk()), at(p.bk()), at(p.wp()));
        let generated: Vec<(i32, Option<char>)> = p.moves().iter().map(as_spec).collect();
        assert_eq!(generated, spec_order(king, lone, pawn), "{}", p.to_fen());
        let rook = usize::from(pawn.0 == 0 || pawn.0 == 7);
        assert_eq!(regime(&p), 3 * rook + usize::from(pawn.1 >= 3) + usize::from(pawn.1 >= 5));
        for mv in p.moves() {
            match p.play(mv) {
                After::Position(s) => {
                    assert_eq!(
                        features(&s),
                        spec_features(at(s.wk()), at(s.bk()), at(s.wp())),
                        "{}",
                        s.to_fen()
                    );
                    moves += 1;
                }
                After::Promoted { outcome, .. } => {
                    let (_, piece) = as_spec(&mv);
                    let wins = spec_promotion_wins(king, lone, at(mv.to), piece.expect("a promotion"));
                    assert_eq!(wins, outcome == kpk::Outcome::Win, "{} {mv:?}", p.to_fen());
                }
                After::PawnCaptured => unreachable!("the pawn side to move"),
            }
        }
    }
    assert!(moves > 400_000, "{moves} moves checked");
}
