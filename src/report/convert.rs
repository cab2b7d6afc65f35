//! A chart's SVG as PNG (for slides and web pages) and PDF (for LaTeX):
//! [`svg_to_png`] and [`svg_to_pdf`], pure functions from the SVG's text to
//! the file's bytes. The caller (`commands`) writes them.
//!
//! Text is set in DejaVu Sans (regular and bold), compiled into the binary
//! from `assets/fonts/` (its licence is beside it): no system font is ever
//! looked up, so a chart converts to the same bytes on every machine. The
//! charts name that family first in their `font-family`, so a browser that
//! has it draws the SVG alike.
//!
//! Guarantees: deterministic (the same SVG gives the same bytes, whatever
//! the thread or the run: the PNG has no timestamp chunk, and the PDF no
//! creation date, no document id and no font dictionaries, its text being
//! drawn as outlines, which every journal's production accepts and which
//! keeps the order of the PDF's objects fixed); no I/O.
//!
//! The converters need the cargo feature `figures` (on by default): a
//! build without it (the Python package's, unless asked) has the same SVG
//! charts, and refuses a PNG or PDF in one line that says how to get them.

#[cfg(feature = "figures")]
use std::sync::{Arc, OnceLock};

#[cfg(feature = "figures")]
use resvg::tiny_skia;
#[cfg(feature = "figures")]
use resvg::usvg;
#[cfg(feature = "figures")]
use usvg::fontdb;

use crate::error::{Error, Result};

/// The family every chart names first, the one font the converters know.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The PNG's resolution: 150 pixels per inch of the SVG's size (at the
/// CSS 96 user units per inch): sharp on slides and high-density screens,
/// at a quarter of 300 dpi's bytes (print takes the PDF, which is vector).
pub const PNG_DPI: f32 = 150.0;

/// CSS pixels per inch: how SVG user units map to physical sizes.
#[cfg(feature = "figures")]
const CSS_DPI: f32 = 96.0;

#[cfg(feature = "figures")]
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
#[cfg(feature = "figures")]
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// The files converted from every chart's SVG and written beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureCopy {
    /// A vector PDF, for LaTeX ([`svg_to_pdf`]).
    Pdf,
    /// A PNG at [`PNG_DPI`], for slides and pages ([`svg_to_png`]).
    Png,
}

impl FigureCopy {
    /// Both, in the order they are written and recorded.
    pub const ALL: [FigureCopy; 2] = [FigureCopy::Pdf, FigureCopy::Png];

    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            FigureCopy::Pdf => "pdf",
            FigureCopy::Png => "png",
        }
    }

    /// The file's bytes, converted from the chart's SVG.
    pub fn from_svg(self, svg: &str) -> Result<Vec<u8>> {
        match self {
            FigureCopy::Pdf => svg_to_pdf(svg),
            FigureCopy::Png => svg_to_png(svg),
        }
    }
}

/// The embedded fonts, loaded once; every generic family resolves to them.
#[cfg(feature = "figures")]
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut database = fontdb::Database::new();
            database.load_font_data(REGULAR.to_vec());
            database.load_font_data(BOLD.to_vec());
            database.set_sans_serif_family(FONT_FAMILY);
            database.set_serif_family(FONT_FAMILY);
            database.set_monospace_family(FONT_FAMILY);
            database.set_cursive_family(FONT_FAMILY);
            database.set_fantasy_family(FONT_FAMILY);
            Arc::new(database)
        })
        .clone()
}

/// The SVG parsed with the embedded fonts only; errors name `format`.
#[cfg(feature = "figures")]
fn tree(svg: &str, format: &str) -> Result<usvg::Tree> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| refused(format, e))
}

fn refused(format: &str, error: impl std::fmt::Display) -> Error {
    Error::invalid(
        "chart",
        format!("as {format}"),
        format!("cannot be made: {error}"),
    )
}

/// The SVG drawn as a PNG at [`PNG_DPI`] on a white ground (every chart
/// paints its own; this one shows through anything transparent), stored
/// as 8-bit RGB, compressed hard: charts are few colours on white, and
/// the files are committed.
///
/// Errors: an SVG that does not parse, or an empty picture.
#[cfg(feature = "figures")]
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>> {
    let tree = tree(svg, "png")?;
    let scale = PNG_DPI / CSS_DPI;
    let no_size = || refused("png", "the picture has no size");
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(no_size)?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(no_size)?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Opaque everywhere, so the premultiplied channels are the colours.
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
        .collect();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, size.width(), size.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    encoder.set_filter(png::FilterType::Paeth);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header().map_err(|e| refused("png", e))?;
    writer
        .write_image_data(&rgb)
        .map_err(|e| refused("png", e))?;
    writer.finish().map_err(|e| refused("png", e))?;
    Ok(bytes)
}

/// The SVG as a one-page vector PDF of the SVG's physical size (96 user
/// units to the inch), text drawn as outlines in the embedded font.
///
/// Errors: an SVG that does not parse, or one svg2pdf cannot convert.
#[cfg(feature = "figures")]
pub fn svg_to_pdf(svg: &str) -> Result<Vec<u8>> {
    let tree = tree(svg, "pdf")?;
    let conversion = svg2pdf::ConversionOptions {
        embed_text: false,
        ..svg2pdf::ConversionOptions::default()
    };
    let page = svg2pdf::PageOptions { dpi: CSS_DPI };
    svg2pdf::to_pdf(&tree, conversion, page).map_err(|e| refused("pdf", e))
}

/// Without the `figures` feature: the refusal, for any SVG.
#[cfg(not(feature = "figures"))]
pub fn svg_to_png(_svg: &str) -> Result<Vec<u8>> {
    Err(without_figures("png"))
}

/// Without the `figures` feature: the refusal, for any SVG.
#[cfg(not(feature = "figures"))]
pub fn svg_to_pdf(_svg: &str) -> Result<Vec<u8>> {
    Err(without_figures("pdf"))
}

#[cfg(not(feature = "figures"))]
fn without_figures(format: &str) -> Error {
    refused(
        format,
        "this deckodds was built without the `figures` feature; write the chart as .svg, or build with it (the default of `cargo build`; for the Python package, pip install with MATURIN_PEP517_ARGS=\"--features figures\")",
    )
}

#[cfg(all(test, feature = "figures"))]
mod tests {
    use super::*;

    /// A small picture: a white ground, a blue bar and a bold title.
    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="1in" viewBox="0 0 192 96" font-family="DejaVu Sans, sans-serif"><title>a bar</title><desc>one bar</desc><rect width="192" height="96" fill="#FFFFFF"/><rect x="20" y="40" width="40" height="50" fill="#0072B2"/><text x="96" y="20" font-size="12" font-weight="bold" text-anchor="middle">P(win) = 0.70 %</text></svg>"##;

    /// The decoded PNG: width, height and RGBA pixels.
    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let pixmap = tiny_skia::Pixmap::decode_png(png).unwrap();
        (pixmap.width(), pixmap.height(), pixmap.data().to_vec())
    }

    #[test]
    fn png_is_the_svg_at_150_dpi() {
        let png = svg_to_png(SVG).unwrap();
        let (width, height, pixels) = decode(&png);
        assert_eq!((width, height), (300, 150));
        // The bar is blue where it is drawn, the ground white elsewhere.
        let at = |x: u32, y: u32| {
            let i = 4 * (y * width + x) as usize;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        let scale = PNG_DPI / CSS_DPI;
        let pixel = |x: f32, y: f32| at((x * scale) as u32, (y * scale) as u32);
        assert_eq!(pixel(40.0, 60.0), [0x00, 0x72, 0xB2]);
        assert_eq!(pixel(150.0, 80.0), [0xFF, 0xFF, 0xFF]);
        // The title's glyphs ink the band it sits in.
        let inked = (0..width)
            .flat_map(|x| (8..30).map(move |y| (x, y)))
            .filter(|&(x, y)| at(x, y)[0] < 0x80)
            .count();
        assert!(inked > 50, "{inked}");
        assert_eq!(png, svg_to_png(SVG).unwrap());
    }

    #[test]
    fn pdf_is_one_page_of_the_svg_size_without_dates() {
        let pdf = svg_to_pdf(SVG).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&pdf);
        // 2 in by 1 in is 144 by 72 points.
        assert!(text.contains("/MediaBox [0 0 144 72]"), "{text}");
        assert!(!text.contains("/CreationDate") && !text.contains("/ModDate"));
        assert!(!text.contains("/FontFile"), "text is drawn as outlines");
        assert_eq!(pdf, svg_to_pdf(SVG).unwrap());
    }

    #[test]
    fn renders_agree_across_threads() {
        let here = (svg_to_png(SVG).unwrap(), svg_to_pdf(SVG).unwrap());
        let there = std::thread::spawn(|| (svg_to_png(SVG).unwrap(), svg_to_pdf(SVG).unwrap()))
            .join()
            .unwrap();
        assert!(here == there);
    }

    #[test]
    fn bad_svg_is_refused_in_one_line() {
        for convert in [svg_to_png, svg_to_pdf] {
            let message = convert("<svg").unwrap_err().to_string();
            assert!(message.starts_with("chart as "), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }
}

#[cfg(all(test, not(feature = "figures")))]
mod tests_without_figures {
    use super::*;

    #[test]
    fn png_and_pdf_are_refused_in_one_line_that_says_how_to_get_them() {
        for convert in [svg_to_png, svg_to_pdf] {
            let message = convert("<svg/>").unwrap_err().to_string();
            assert!(message.starts_with("chart as "), "{message}");
            assert!(message.contains("`figures` feature"), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
