//! Board diagrams as SVG: the reports' position diagrams and the explorer page's board
//! (`kpk serve`) are drawn from the same pieces and square colours defined here.
//!
//! A diagram shows a position in the user's orientation (White at the bottom): the pawn side may
//! be Black and the pawn on any file, as the FEN gave it. Pieces are drawn as SVG paths (no font,
//! no external resource), so a diagram file displays the same everywhere; the coordinates and the
//! caption are text in the bundled DejaVu Sans's family with the generic sans-serif fallback.

use crate::chess::position::{KpkPosition, Oriented};
use crate::error::{Error, Result};
use crate::template::{Engine, TemplateError};
use kpk_probe::{Color, Square, Transform};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::Path;
use std::sync::LazyLock;

/// Side of one square, in SVG user units.
pub const SQUARE: u32 = 40;
/// Width of the margin holding the file letters and rank numbers.
pub const MARGIN: u32 = 16;
/// Light and dark squares.
pub const LIGHT: &str = "#eed8b5";
pub const DARK: &str = "#b1865f";
/// The font family of every text in a diagram.
pub const FONT: &str = "DejaVu Sans, Verdana, sans-serif";

/// A chessman KPK has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    King,
    Pawn,
}

/// Outline of each piece in a 100 × 100 box, as SVG path data (`diagram.toml` beside this file).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Paths {
    king: Vec<String>,
    pawn: Vec<String>,
}

static PATHS: LazyLock<Paths> =
    LazyLock::new(|| toml::from_str(include_str!("diagram.toml")).expect("diagram.toml parses"));

/// The SVG templates in `templates/diagram/`: a piece (`piece.svg.j2`), the pieces as symbols
/// (`defs.svg.j2`) and a grid of diagrams (`grid.svg.j2`), with `xml` escaping text.
static ENGINE: LazyLock<std::result::Result<Engine, TemplateError>> = LazyLock::new(|| {
    Engine::new()
        .filter("xml", |s: String| escape(&s))
        .template("piece", include_str!("templates/diagram/piece.svg.j2"))?
        .template("defs", include_str!("templates/diagram/defs.svg.j2"))?
        .template("grid", include_str!("templates/diagram/grid.svg.j2"))
});

fn render(name: &str, context: &serde_json::Value) -> Result<String> {
    let engine = ENGINE.as_ref().map_err(|e| Error::from(e.clone()))?;
    Ok(engine.render(name, context)?)
}

impl Piece {
    /// The key of the piece's outline in `diagram.toml`.
    fn key(self) -> &'static str {
        match self {
            Piece::King => "king",
            Piece::Pawn => "pawn",
        }
    }

    /// The id of the piece's `<symbol>` in [`piece_defs`]: `piece-wK`, `piece-bP`, …
    pub fn symbol_id(self, color: Color) -> String {
        let c = if color == Color::White { 'w' } else { 'b' };
        let p = if self == Piece::King { 'K' } else { 'P' };
        format!("piece-{c}{p}")
    }
}

/// `<defs>` with a `<symbol>` per piece and colour (ids from [`Piece::symbol_id`], viewBox
/// 0 0 100 100), for pages that place pieces with `<use href="#piece-wK">`. It reads no input: the
/// templates and outlines are compiled in, and the tests below render them.
pub fn piece_defs() -> String {
    symbols().expect("the compiled-in piece templates render")
}

fn symbols() -> Result<String> {
    let symbols: Vec<_> = [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| {
            [Piece::King, Piece::Pawn].map(|piece| {
                json!({ "id": piece.symbol_id(color), "kind": piece.key(), "white": color == Color::White })
            })
        })
        .collect();
    let defs = render("defs", &json!({ "symbols": symbols, "paths": &*PATHS }))?;
    Ok(defs.trim_end().to_string())
}

/// A position to draw, in the orientation the user sees: White at the bottom.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Diagram {
    /// The pieces: square, colour, piece.
    pub pieces: Vec<(Square, Color, Piece)>,
    /// The side to move, marked by a small disc beside the board; `None` draws no marker.
    pub to_move: Option<Color>,
    /// Squares tinted by a colour (CSS colour text), drawn over the square and under the pieces.
    pub tints: Vec<(Square, String)>,
    /// A line of text under the board.
    pub caption: Option<String>,
}

impl Diagram {
    /// The position as the FEN gave it (the pawn side's colour and the files as written).
    pub fn of(o: &Oriented) -> Diagram {
        Diagram::with_transform(&o.position, o.transform)
    }

    /// A canonical position (the pawn White's, on files a–d), as kpk stores it.
    pub fn canonical(p: &KpkPosition) -> Diagram {
        Diagram::with_transform(p, Transform::IDENTITY)
    }

    fn with_transform(p: &KpkPosition, t: Transform) -> Diagram {
        let (pawn_side, defender) =
            if t.flip_colours { (Color::Black, Color::White) } else { (Color::White, Color::Black) };
        let to_move = if p.side() == Color::White { pawn_side } else { defender };
        Diagram {
            pieces: vec![
                (t.apply(p.wk()), pawn_side, Piece::King),
                (t.apply(p.wp()), pawn_side, Piece::Pawn),
                (t.apply(p.bk()), defender, Piece::King),
            ],
            to_move: Some(to_move),
            tints: Vec::new(),
            caption: None,
        }
    }

    pub fn with_caption(mut self, caption: impl Into<String>) -> Diagram {
        self.caption = Some(caption.into());
        self
    }

    /// Width and height of one diagram in SVG units (board, margins, side-to-move marker, caption).
    pub fn size(&self) -> (u32, u32) {
        let caption = if self.caption.is_some() { 20 } else { 0 };
        (MARGIN + 8 * SQUARE + 14, 8 * SQUARE + MARGIN + 4 + caption)
    }

    /// A standalone SVG document of this diagram.
    pub fn svg(&self) -> Result<String> {
        grid_svg(std::slice::from_ref(self), 1)
    }

    /// What `grid.svg.j2` draws of this diagram with its top-left corner at (`x`, `y`).
    fn cell(&self, x: u32, y: u32) -> serde_json::Value {
        let board = 8 * SQUARE;
        let (bx, by) = (x + MARGIN, y);
        let squares: Vec<(u32, u32, &str)> = Square::ALL
            .iter()
            .map(|&sq| {
                let (sx, sy) = square_origin(sq, bx, by);
                (sx, sy, if (sq.file() + sq.rank()) % 2 == 0 { DARK } else { LIGHT })
            })
            .collect();
        let tints: Vec<(u32, u32, &str)> = self
            .tints
            .iter()
            .map(|(sq, colour)| {
                let (sx, sy) = square_origin(*sq, bx, by);
                (sx, sy, colour.as_str())
            })
            .collect();
        // Per i: the file letter under the board and the rank number beside it.
        let labels: Vec<(u32, u32, char, u32, u32, u32)> = (0..8u32)
            .map(|i| {
                let file = (b'a' + i as u8) as char;
                let rank_y = by + (7 - i) * SQUARE + SQUARE / 2 + 4;
                (bx + i * SQUARE + SQUARE / 2, by + board + 12, file, x + MARGIN / 2, rank_y, i + 1)
            })
            .collect();
        let pieces: Vec<(u32, u32, &str, bool)> = self
            .pieces
            .iter()
            .map(|(sq, color, piece)| {
                let (sx, sy) = square_origin(*sq, bx, by);
                (sx, sy, piece.key(), *color == Color::White)
            })
            .collect();
        // The marker sits beside the bottom rank for White to move, the top rank for Black.
        let marker = self.to_move.map(|side| {
            let cy = if side == Color::White { by + board - 8 } else { by + 8 };
            (bx + board + 8, cy, if side == Color::White { "#fafafa" } else { "#1a1a1a" })
        });
        let caption = self.caption.as_ref().map(|c| (bx + board / 2, by + board + MARGIN + 16, c));
        json!({
            "bx": bx, "by": by, "squares": squares, "tints": tints, "labels": labels,
            "pieces": pieces, "marker": marker, "caption": caption,
        })
    }
}

/// The top-left corner of a square on a board whose top-left corner is (`bx`, `by`).
fn square_origin(sq: Square, bx: u32, by: u32) -> (u32, u32) {
    (bx + u32::from(sq.file()) * SQUARE, by + (7 - u32::from(sq.rank())) * SQUARE)
}

/// Text escaped for SVG/XML character data and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c if c.is_control() || kpk_probe::quote::is_noncharacter(c) => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// One SVG document holding `diagrams` in rows of `columns` (at least 1), each cell the size of
/// the largest diagram.
pub fn grid_svg(diagrams: &[Diagram], columns: usize) -> Result<String> {
    let columns = columns.max(1);
    let (cw, ch) = diagrams.iter().map(Diagram::size).fold((0, 0), |(w, h), (a, b)| (w.max(a), h.max(b)));
    let (cw, ch) = (cw + 12, ch + 12);
    let rows = diagrams.len().div_ceil(columns).max(1) as u32;
    let cols = columns.min(diagrams.len().max(1)) as u32;
    let cells: Vec<_> = diagrams
        .iter()
        .enumerate()
        .map(|(i, d)| d.cell((i % columns) as u32 * cw + 6, (i / columns) as u32 * ch + 6))
        .collect();
    let context = json!({
        "w": cols * cw, "h": rows * ch, "font": FONT, "square": SQUARE, "board": 8 * SQUARE,
        "scale": (f64::from(SQUARE) / 100.0).to_string(), "paths": &*PATHS, "cells": cells,
    });
    render("grid", &context)
}

/// Write `diagrams` as one SVG file at `path` (rows of `columns`) and its PNG rendering beside it,
/// through kpk's output policy.
pub fn write_diagrams(path: &Path, diagrams: &[Diagram], columns: usize) -> Result<()> {
    crate::figures::raster::write_svg_and_png(path, &grid_svg(diagrams, columns)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    #[test]
    fn a_diagram_has_64_squares_three_pieces_and_the_user_orientation() {
        // Black has the pawn on the f-file: kpk's canonical position is mirrored and colour-flipped,
        // the diagram shows it as written.
        let o = Oriented::from_fen("8/8/8/8/8/2K5/5p2/5k2 w - - 0 1").unwrap();
        let d = Diagram::of(&o);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let mut pieces = d.pieces.clone();
        pieces.sort_by_key(|p| p.0);
        assert_eq!(
            pieces,
            vec![
                (sq("f1"), Color::Black, Piece::King),
                (sq("f2"), Color::Black, Piece::Pawn),
                (sq("c3"), Color::White, Piece::King)
            ]
        );
        assert_eq!(d.to_move, Some(Color::White));
        let svg = d.svg().unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(count(&svg, "<rect x="), 64 + 1, "64 squares and the frame");
        assert_eq!(count(&svg, "<g transform="), 3);
        assert!(!svg.contains("href"), "no external resource");
    }

    #[test]
    fn grids_escape_captions_and_defs_name_every_piece() {
        let p = KpkPosition::all().next().unwrap();
        let d = Diagram::canonical(&p).with_caption("a <b> & \"c\"");
        let svg = grid_svg(&[d.clone(), d.clone(), d], 2).unwrap();
        assert_eq!(count(&svg, "&lt;b&gt; &amp; &quot;c&quot;"), 3);
        assert!(!svg.contains("<b>"));
        let (w, h) = Diagram::canonical(&p).with_caption("x").size();
        assert!(svg.contains(&format!("width=\"{}\" height=\"{}\"", 2 * (w + 12), 2 * (h + 12))));
        let defs = piece_defs();
        for id in ["piece-wK", "piece-wP", "piece-bK", "piece-bP"] {
            assert!(defs.contains(&format!("id=\"{id}\"")), "{id}");
        }
    }
}
