//! The explorer's JSON answers: `/api/probe` (a position, its moves, characteristics, the hybrid's
//! and each net's answer) and `/api/map` (every square of one king). Pure functions of the
//! request: no file is read or written per request.
//!
//! Results are from the pawn side's point of view, as everywhere in kpk; squares and moves are
//! named in the orientation of the FEN the user gave (the pawn of either colour, on any file).

use crate::chess::bitbase::Bitbase;
use crate::chess::position::{After, KpkPosition, Oriented};
use crate::chess::probe::probe;
use crate::error::{Error, Result};
use crate::hybrid::Hybrid;
use crate::net::mlp::{Mlp, Workspace};
use crate::net::model::SavedNet;
use crate::net::output::{Classification, OutputCoding};
use crate::paper::features::{FEATURES, features};
use kpk_probe::{Color, Outcome, Square};
use serde_json::{Map, Value, json};
use std::path::Path;

/// A trained net the explorer shows beside the bitbase.
pub struct LoadedNet {
    /// The name shown on the page: the file's stem, or its path when stems repeat.
    pub name: String,
    saved: SavedNet,
    mlp: Mlp,
}

impl LoadedNet {
    /// Load a saved net (`kpk run`'s `weights.json`). The explorer feeds it all 32
    /// characteristics, so a net reading a subset is refused.
    pub fn load(path: &Path, name: String) -> Result<LoadedNet> {
        let saved = SavedNet::load(path)?;
        if saved.features != SavedNet::all_features() {
            return Err(Error::Format {
                path: path.display().to_string(),
                message: "the explorer shows nets that read all 32 characteristics x1..x32 in order".into(),
            });
        }
        let mlp = saved.net()?;
        Ok(LoadedNet { name, saved, mlp })
    }

    /// The net's outputs and its reading of them at m = 0 (section 4.3; what Tables 5 and 6 count).
    fn answer(&self, p: &KpkPosition) -> (Vec<f64>, Classification) {
        let x = features(p);
        let mut input = vec![0.0; self.saved.input_coding.width()];
        self.saved.input_coding.encode(&x, &mut input);
        let mut ws = Workspace::new(&self.mlp);
        let y = self.mlp.forward_with(&mut ws, &input).to_vec();
        let class = self.saved.output_coding.without_margin().classify(&y);
        (y, class)
    }

    pub fn output_coding(&self) -> OutputCoding {
        self.saved.output_coding
    }
}

/// What the explorer knows: the bitbase (computed at start), optionally the hybrid model and nets.
pub struct Explorer {
    pub bitbase: Bitbase,
    pub hybrid: Option<Hybrid>,
    pub nets: Vec<LoadedNet>,
}

fn result_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
    }
}

fn class_name(c: Classification) -> &'static str {
    match c {
        Classification::Win => "win",
        Classification::Draw => "draw",
        Classification::Undecided => "undecided",
    }
}

/// The colour the pawn side plays in the user's orientation.
fn pawn_colour(o: &Oriented) -> Color {
    if o.transform.flip_colours { Color::Black } else { Color::White }
}

/// The side to move in the user's orientation.
fn user_side(o: &Oriented) -> Color {
    if o.transform.flip_colours { o.position.side().other() } else { o.position.side() }
}

fn colour_name(c: Color) -> &'static str {
    if c == Color::White { "white" } else { "black" }
}

impl Explorer {
    pub fn new(bitbase: Bitbase, hybrid: Option<Hybrid>, nets: Vec<LoadedNet>) -> Explorer {
        Explorer { bitbase, hybrid, nets }
    }

    /// `GET /api/probe?fen=FEN`. Errors are the CLI's message for the FEN. `perfect` is the move
    /// [`crate::play::perfect_move`] plays (what the page's play mode answers with).
    pub fn probe(&self, fen: &str) -> Result<Value> {
        let o = Oriented::from_fen(fen)?;
        let p = o.position;
        let answer = probe(&self.bitbase, &o);
        let moves: Vec<Value> = answer
            .moves
            .iter()
            .map(|m| {
                let (uci, next) = self.move_detail(&o, &m.name);
                json!({
                    "uci": uci, "san": m.name, "result": result_name(m.outcome), "dtc": m.dtc,
                    "best": m.best, "note": m.note, "fen": next,
                })
            })
            .collect();
        let x = features(&p);
        let feats: Map<String, Value> =
            FEATURES.iter().map(|f| (format!("x{}", f.x), json!(x[f.x - 1]))).collect();
        Ok(json!({
            "fen": o.to_fen(),
            "side": colour_name(user_side(&o)),
            "pawn_side": colour_name(pawn_colour(&o)),
            "result": result_name(answer.outcome),
            "dtc": answer.dtc,
            "moves": moves,
            "perfect": crate::play::perfect_move(&self.bitbase, &p).map(|mv| crate::play::uci(&o, mv)),
            "features": feats,
            "hybrid": self.hybrid_answer(&p),
            "nets": self.net_answers(&p),
        }))
    }

    /// A move's UCI name in the user's orientation and the FEN after it (`None` when the move
    /// ends the game: a promotion or the pawn taken).
    fn move_detail(&self, o: &Oriented, san: &str) -> (String, Option<String>) {
        let p = o.position;
        let Some(mv) = p.moves().into_iter().find(|&mv| o.move_name(mv) == san) else {
            return (String::new(), None);
        };
        let t = o.transform;
        let uci = crate::play::uci(o, mv);
        // A king move or push leaves the pawn on its file and colour: the same transform applies.
        let next = match p.play(mv) {
            After::Position(next) => Some(Oriented { position: next, transform: t }.to_fen()),
            After::PawnCaptured | After::Promoted { .. } => None,
        };
        (uci, next)
    }

    fn hybrid_answer(&self, p: &KpkPosition) -> Value {
        match &self.hybrid {
            Some(h) => {
                let a = h.classify(p);
                json!({"result": result_name(a.outcome), "source": a.source.to_string()})
            }
            None => Value::Null,
        }
    }

    fn net_answers(&self, p: &KpkPosition) -> Vec<Value> {
        let truth = self.bitbase.outcome(p) == Outcome::Win;
        self.nets
            .iter()
            .map(|n| {
                let (y, class) = n.answer(p);
                json!({"name": n.name, "outputs": y, "class": class_name(class), "right": class.is_correct(truth)})
            })
            .collect()
    }

    /// `GET /api/map?fen=FEN`: keep the pawn, one king and the side to move of the FEN, and put
    /// the other king on each of the 64 squares in turn — the lone king (`lone_king`) and, the
    /// other way round, the pawn side's king (`pawn_king`). Each square: whether the position is
    /// legal, its result and DTC, the hybrid's answer and each net's class and whether it errs.
    pub fn map(&self, fen: &str) -> Result<Value> {
        let o = Oriented::from_fen(fen)?;
        let p = o.position;
        let lone = |sq: Square| KpkPosition::new(p.wk(), sq, p.wp(), p.side()).ok();
        let own = |sq: Square| KpkPosition::new(sq, p.bk(), p.wp(), p.side()).ok();
        Ok(json!({
            "fen": o.to_fen(),
            "nets": self.nets.iter().map(|n| n.name.clone()).collect::<Vec<_>>(),
            "lone_king": self.map_squares(&o, lone),
            "pawn_king": self.map_squares(&o, own),
        }))
    }

    /// One entry per square in the user's orientation, a1 first.
    fn map_squares(&self, o: &Oriented, place: impl Fn(Square) -> Option<KpkPosition>) -> Vec<Value> {
        Square::ALL
            .iter()
            .map(|&user_sq| {
                let name = user_sq.to_string();
                let Some(q) = place(o.transform.apply(user_sq)) else {
                    return json!({"square": name, "legal": false});
                };
                let truth = self.bitbase.outcome(&q);
                let hybrid = self.hybrid.as_ref().map(|h| {
                    let a = h.classify(&q);
                    json!({"result": result_name(a.outcome), "source": a.source.to_string(), "errs": a.outcome != truth})
                });
                let nets: Vec<Value> = self
                    .nets
                    .iter()
                    .map(|n| {
                        let (_, class) = n.answer(&q);
                        json!({"class": class_name(class), "errs": !class.is_correct(truth == Outcome::Win)})
                    })
                    .collect();
                json!({
                    "square": name, "legal": true, "result": result_name(truth),
                    "dtc": self.bitbase.dtc(&q).map(|d| d.0), "hybrid": hybrid, "nets": nets,
                })
            })
            .collect()
    }
}
