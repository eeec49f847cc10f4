//! SVG figures rendered to PNG with resvg, so every diagram figure exists in both formats (the
//! project's rule for figures). The only font is the bundled DejaVu Sans, loaded from the binary
//! and named as every generic family: rendering reads no system font, file or network.

use crate::error::{Error, Result};
use crate::output::FileOut;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The font database every rendering uses: the bundled DejaVu Sans alone.
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(super::plot::FONT.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// `svg` rendered at one pixel per SVG unit, as the PNG bytes of the file `png` (named in an
/// error, as a chart that plotters fails to draw is).
pub fn svg_to_png(svg: &str, png: &Path) -> Result<Vec<u8>> {
    let fail = |what: &str, e: &dyn std::fmt::Display| Error::Format {
        path: png.display().to_string(),
        message: format!("rendering SVG to PNG: {what}: {e}"),
    };
    let options = resvg::usvg::Options { fontdb: fonts(), ..resvg::usvg::Options::default() };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|e| fail("parse", &e))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| fail("size", &format!("{} × {}", size.width(), size.height())))?;
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| fail("encode", &e))
}

/// Write `svg` at `path` (a `.svg` file) and its rendering beside it with the extension `.png`,
/// both through kpk's output policy. The PNG is rendered before either file is written.
pub fn write_svg_and_png(path: &Path, svg: &str) -> Result<()> {
    let png = svg_to_png(svg, &path.with_extension("png"))?;
    FileOut::check_in_own_folder(path)?.write(svg.as_bytes())?;
    FileOut::check_in_own_folder(&path.with_extension("png"))?.write(&png)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(png: &[u8], x: u32, y: u32) -> [u8; 4] {
        let p = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
        let c = p.pixel(x, y).unwrap().demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    #[test]
    fn a_rendering_has_the_svg_size_its_colours_and_drawn_text() {
        let plain = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"60\" height=\"30\">\
                     <rect width=\"60\" height=\"30\" fill=\"#ffffff\"/>\
                     <rect x=\"40\" width=\"20\" height=\"30\" fill=\"#ff0000\"/></svg>";
        let png = svg_to_png(plain, Path::new("t.png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert_eq!(pixel(&png, 50, 15), [255, 0, 0, 255]);
        assert_eq!(pixel(&png, 10, 15), [255, 255, 255, 255]);
        // Text renders with the bundled font: the same SVG with a caption differs in its pixels.
        let text = plain.replace(
            "</svg>",
            "<text x=\"2\" y=\"25\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"24\">W</text></svg>",
        );
        let with_text = svg_to_png(&text, Path::new("t.png")).unwrap();
        let dark =
            (0..40).flat_map(|x| (0..30).map(move |y| (x, y))).any(|(x, y)| pixel(&with_text, x, y)[0] < 128);
        assert!(dark, "the caption's glyph is drawn");
    }
}
