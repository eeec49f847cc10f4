//! `reports/PLAY.md`: the match of every player against perfect play (prose in `play.md`).

use crate::chess::bitbase::Bitbase;
use crate::play::PlayModel;
use crate::play::game::Player;
use crate::play::matches::{MAX_PLIES, PawnSide, lone_king, pawn_side};

const TEMPLATE: &str = include_str!("play.md");

fn pct(a: usize, b: usize) -> String {
    if b == 0 { "-".into() } else { format!("{:.2}", 100.0 * a as f64 / b as f64) }
}

/// The report's text for the match of `model` and the other players, all against perfect play.
pub fn render(bb: &Bitbase, model: &PlayModel) -> String {
    type Make<'a> = Box<dyn Fn(u64) -> Player<'a> + Sync + 'a>;
    let players: Vec<(&str, Make)> = vec![
        ("perfect", Box::new(|_| Player::Perfect(bb))),
        ("model", Box::new(|_| Player::Model(model))),
        ("random", Box::new(|seed| Player::random(bb, seed))),
    ];
    let mut pawn_rows = Vec::new();
    let mut king_rows = Vec::new();
    let mut random_side: Option<PawnSide> = None;
    let (mut won, mut drawn) = (0, 0);
    for (name, make) in &players {
        let s = pawn_side(bb, make.as_ref());
        let (n, c) = s.total();
        won = n;
        let mean = if c == 0 { 0.0 } else { s.excess_sum as f64 / c as f64 };
        pawn_rows.push(format!(
            "| {name} | {n} | {c} | {} | {mean:.2} | {} | {} |",
            pct(c, n),
            s.excess_max,
            s.largest_p()
        ));
        let (d, held) = lone_king(bb, make.as_ref());
        drawn = d;
        king_rows.push(format!("| {name} | {d} | {held} | {} |", pct(held, d)));
        if *name == "random" {
            random_side = Some(s);
        }
    }
    let r = random_side.expect("random is a player");
    let dtc_rows: Vec<String> = (1..r.positions.len())
        .filter(|&d| r.positions[d] > 0)
        .map(|d| {
            format!(
                "| {d} | {} | {} | {} |",
                r.positions[d],
                r.converted[d],
                pct(r.converted[d], r.positions[d])
            )
        })
        .collect();
    crate::report::template::fill(
        TEMPLATE,
        &[
            ("won", won.to_string()),
            ("drawn", drawn.to_string()),
            ("max_plies", MAX_PLIES.to_string()),
            ("model_bytes", model.to_bytes().len().to_string()),
            ("pawn_rows", pawn_rows.join("\n")),
            ("king_rows", king_rows.join("\n")),
            ("dtc_rows", dtc_rows.join("\n")),
        ],
    )
}
