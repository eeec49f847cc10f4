//! Board diagrams as SVG: the reports' position diagrams and the explorer page's board
//! (`kpk serve`) are drawn from the same pieces and square colours defined here.
//!
//! A diagram shows a position in the user's orientation (White at the bottom): the pawn side may
//! be Black and the pawn on any file, as the FEN gave it. Pieces are drawn as SVG paths (no font,
//! no external resource), so a diagram file displays the same everywhere; the coordinates and the
//! caption are text in the bundled DejaVu Sans's family with the generic sans-serif fallback.

use crate::chess::board::{Color, Square};
use crate::chess::position::{KpkPosition, Oriented, Transform};
use crate::error::Result;
use std::fmt::Write as _;
use std::path::Path;

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

/// Outline of each piece in a 100 × 100 box: the pawn a head on a collar and a flared body; the
/// king a cross over a crown of two lobes on a body. Drawn by hand for kpk.
const PAWN_PATHS: &[&str] = &[
    "M50 16a14 14 0 1 1 0 28a14 14 0 1 1 0-28z",
    "M34 48h32a4 4 0 0 1 0 8h-32a4 4 0 0 1 0-8z",
    "M41 56h18c2 10 8 18 14 24h-46c6-6 12-14 14-24z",
    "M22 80h56a3 3 0 0 1 3 3v5a3 3 0 0 1-3 3h-56a3 3 0 0 1-3-3v-5a3 3 0 0 1 3-3z",
];
const KING_PATHS: &[&str] = &[
    "M46 6h8v8h8v8h-8v10h-8v-10h-8v-8h8z",
    "M50 34c10 0 12 10 6 22h-12c-6-12-4-22 6-22z",
    "M50 60c8-16 30-20 34-6c3 10-6 18-12 26h-44c-6-8-15-16-12-26c4-14 26-10 34 6z",
    "M26 80h48a3 3 0 0 1 3 3v6a3 3 0 0 1-3 3h-48a3 3 0 0 1-3-3v-6a3 3 0 0 1 3-3z",
];

impl Piece {
    fn paths(self) -> &'static [&'static str] {
        match self {
            Piece::King => KING_PATHS,
            Piece::Pawn => PAWN_PATHS,
        }
    }

    /// The id of the piece's `<symbol>` in [`piece_defs`]: `piece-wK`, `piece-bP`, …
    pub fn symbol_id(self, color: Color) -> String {
        let c = if color == Color::White { 'w' } else { 'b' };
        let p = if self == Piece::King { 'K' } else { 'P' };
        format!("piece-{c}{p}")
    }
}

/// One `<g>` drawing a piece in a 100 × 100 box: White pieces light with a dark outline, Black
/// pieces dark with a light inner line so they stay visible on dark squares.
fn piece_body(piece: Piece, color: Color) -> String {
    let (fill, stroke) = if color == Color::White { ("#fafafa", "#1a1a1a") } else { ("#1a1a1a", "#1a1a1a") };
    let mut g =
        format!("<g fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"3.5\" stroke-linejoin=\"round\">");
    for d in piece.paths() {
        let _ = write!(g, "<path d=\"{d}\"/>");
    }
    if color == Color::Black {
        // A light line across the base picks a black piece out on a dark square.
        g.push_str("<path d=\"M28 85h44\" stroke=\"#e8e8e8\" stroke-width=\"2\" fill=\"none\"/>");
    }
    g.push_str("</g>");
    g
}

/// `<defs>` with a `<symbol>` per piece and colour (ids from [`Piece::symbol_id`], viewBox
/// 0 0 100 100), for pages that place pieces with `<use href="#piece-wK">`.
pub fn piece_defs() -> String {
    let mut s = String::from("<defs>");
    for color in [Color::White, Color::Black] {
        for piece in [Piece::King, Piece::Pawn] {
            let _ = write!(
                s,
                "<symbol id=\"{}\" viewBox=\"0 0 100 100\">{}</symbol>",
                piece.symbol_id(color),
                piece_body(piece, color)
            );
        }
    }
    s.push_str("</defs>");
    s
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
    pub fn svg(&self) -> String {
        grid_svg(std::slice::from_ref(self), 1)
    }

    /// Draw into `out` with the top-left corner at (`x`, `y`).
    fn draw(&self, out: &mut String, x: u32, y: u32) {
        let board = 8 * SQUARE;
        let (bx, by) = (x + MARGIN, y);
        let _ = write!(out, "<g font-family=\"{FONT}\" font-size=\"11\" fill=\"#333\">");
        for sq in Square::ALL {
            let (sx, sy) = square_origin(sq, bx, by);
            let fill = if (sq.file() + sq.rank()) % 2 == 0 { DARK } else { LIGHT };
            let _ = write!(
                out,
                "<rect x=\"{sx}\" y=\"{sy}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
            );
        }
        for (sq, colour) in &self.tints {
            let (sx, sy) = square_origin(*sq, bx, by);
            let _ = write!(
                out,
                "<rect x=\"{sx}\" y=\"{sy}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{}\"/>",
                escape(colour)
            );
        }
        let _ = write!(
            out,
            "<rect x=\"{bx}\" y=\"{by}\" width=\"{board}\" height=\"{board}\" fill=\"none\" stroke=\"#555\"/>"
        );
        for i in 0..8u32 {
            let file = (b'a' + i as u8) as char;
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{file}</text>",
                bx + i * SQUARE + SQUARE / 2,
                by + board + 12
            );
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                x + MARGIN / 2,
                by + (7 - i) * SQUARE + SQUARE / 2 + 4,
                i + 1
            );
        }
        for (sq, color, piece) in &self.pieces {
            let (sx, sy) = square_origin(*sq, bx, by);
            let scale = f64::from(SQUARE) / 100.0;
            let _ = write!(
                out,
                "<g transform=\"translate({sx} {sy}) scale({scale})\">{}</g>",
                piece_body(*piece, *color)
            );
        }
        if let Some(side) = self.to_move {
            // The marker sits beside the bottom rank for White to move, the top rank for Black.
            let cy = if side == Color::White { by + board - 8 } else { by + 8 };
            let fill = if side == Color::White { "#fafafa" } else { "#1a1a1a" };
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{cy}\" r=\"5\" fill=\"{fill}\" stroke=\"#1a1a1a\" stroke-width=\"1.5\"/>",
                bx + board + 8
            );
        }
        if let Some(caption) = &self.caption {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\">{}</text>",
                bx + board / 2,
                by + board + MARGIN + 16,
                escape(caption)
            );
        }
        out.push_str("</g>");
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
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// One SVG document holding `diagrams` in rows of `columns` (at least 1), each cell the size of
/// the largest diagram.
pub fn grid_svg(diagrams: &[Diagram], columns: usize) -> String {
    let columns = columns.max(1);
    let (cw, ch) = diagrams.iter().map(Diagram::size).fold((0, 0), |(w, h), (a, b)| (w.max(a), h.max(b)));
    let (cw, ch) = (cw + 12, ch + 12);
    let rows = diagrams.len().div_ceil(columns).max(1) as u32;
    let cols = columns.min(diagrams.len().max(1)) as u32;
    let (w, h) = (cols * cw, rows * ch);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"
    );
    for (i, d) in diagrams.iter().enumerate() {
        let (c, r) = ((i % columns) as u32, (i / columns) as u32);
        d.draw(&mut out, c * cw + 6, r * ch + 6);
    }
    out.push_str("</svg>\n");
    out
}

/// Write `diagrams` as one SVG file at `path` (rows of `columns`) and its PNG rendering beside it,
/// through kpk's output policy.
pub fn write_diagrams(path: &Path, diagrams: &[Diagram], columns: usize) -> Result<()> {
    crate::figures::raster::write_svg_and_png(path, &grid_svg(diagrams, columns))
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
        let svg = d.svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(count(&svg, "<rect x="), 64 + 1, "64 squares and the frame");
        assert_eq!(count(&svg, "<g transform="), 3);
        assert!(!svg.contains("href"), "no external resource");
    }

    #[test]
    fn grids_escape_captions_and_defs_name_every_piece() {
        let p = KpkPosition::all().next().unwrap();
        let d = Diagram::canonical(&p).with_caption("a <b> & \"c\"");
        let svg = grid_svg(&[d.clone(), d.clone(), d], 2);
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
