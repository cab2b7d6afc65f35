//! The text layout every chart kind shares: the picture's size and fonts,
//! text measurement, titles (sized or wrapped to fit), legends in rows
//! (what each key shows and where each entry goes), x labels thinned (or
//! wrapped) to fit, and the Okabe–Ito colours. Where plots go (the
//! plotting frame and the grid of panels) is [`super::frame`]'s; the marks
//! drawn in plots and legends, and so the drawing of legends and headers,
//! are [`super::marks`]'. This file imports neither.
//!
//! Text: plotters is built without its font features, so it estimates text
//! sizes from the number of characters and its SVG backend writes plain
//! `<text>` elements that the viewer sets in its own sans-serif font. No
//! font file is read at build or run time. Because the real text width is
//! only known to the viewer, the layout here estimates widths generously
//! ([`text_width`]) and leaves room around every label.
//!
//! Guarantees: every function is deterministic and pure but for the
//! elements it draws; sizes are in pixels.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The whole picture, in pixels.
pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The outcome of a drawing step.
pub(super) type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

/// Space around the whole picture, in pixels.
pub(super) const MARGIN: i32 = 12;
/// The font family every text names: the one `report::convert` embeds
/// for the PNG and PDF, so that a browser that has it draws the SVG alike,
/// and any sans-serif where it does not.
pub(super) const FONT: &str = "DejaVu Sans, sans-serif";
/// Font sizes in pixels (CSS `font-size`).
const TITLE_SIZE: f64 = 20.0;
pub(super) const LABEL_SIZE: f64 = 14.0;
pub(super) const AXIS_DESC_SIZE: f64 = 16.0;
/// The size of a caption's lines (regular type, under the title).
const CAPTION_SIZE: f64 = 14.0;
/// The smallest title size, for very long titles.
const MIN_TITLE_SIZE: f64 = 12.0;
/// The size of a title wrapped onto several lines.
const WRAPPED_TITLE_SIZE: f64 = 16.0;
/// Font size of the percentages inside stacked segments and of the tick
/// labels of panels, in pixels.
pub(super) const SMALL_SIZE: f64 = 12.0;
/// Height of one legend row, in pixels.
pub(super) const LEGEND_ROW: i32 = 22;
/// Width of a legend swatch, in pixels.
pub(super) const SWATCH: i32 = 26;
/// The least room, in pixels, between two neighbouring x labels.
pub(super) const LABEL_GAP: f64 = 6.0;

// The Okabe–Ito palette, whose colours stay distinguishable under the
// common colour-vision deficiencies (its eighth is black).
const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
const BLUISH_GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
const REDDISH_PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
const SKY_BLUE: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
const YELLOW: RGBColor = RGBColor(0xF0, 0xE4, 0x42);

/// The bars' fill.
pub(super) const BAR_FILL: RGBColor = SKY_BLUE;
/// The bars' outline and the z-score points.
pub(super) const BAR_EDGE: RGBColor = BLUE;
/// Colours of the overlaid series of a bar chart, in order; they repeat
/// after the last.
const OVERLAY_COLOURS: [RGBColor; 5] = [VERMILLION, BLUISH_GREEN, REDDISH_PURPLE, ORANGE, BLACK];
/// Colours in the order segments take them. Neighbours differ in hue and
/// lightness, so adjacent segments stay apart.
const PALETTE: [RGBColor; 8] = [
    BLUE,
    ORANGE,
    BLUISH_GREEN,
    REDDISH_PURPLE,
    SKY_BLUE,
    VERMILLION,
    YELLOW,
    BLACK,
];
/// Points beyond the critical value, and its line.
pub(super) const ALARM: RGBColor = VERMILLION;
/// Dark grey for error bars and the ±2 reference lines.
pub(super) const NOTE: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// The colour of a bar chart's series `index` (0 is the bars).
pub(super) fn colour(index: usize) -> RGBColor {
    match index {
        0 => BAR_EDGE,
        i => OVERLAY_COLOURS[(i - 1) % OVERLAY_COLOURS.len()],
    }
}

/// The colour of segment `index` of a stacked bar.
pub(super) fn segment_colour(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

// ---------------------------------------------------------------------------
// Text.

/// A plotters font of `px` pixels. Plotters sizes are nominal: its SVG
/// backend writes `size / 1.24` as the CSS `font-size`.
pub(super) fn font(px: f64) -> FontDesc<'static> {
    (FONT, px * 1.24).into_font()
}

/// Black text of `px` pixels whose anchor is at `(h, v)` of its box.
pub(super) fn ink(px: f64, h: HPos, v: VPos) -> TextStyle<'static> {
    font(px).color(&BLACK).pos(Pos::new(h, v))
}

/// A generous estimate of the width in pixels of `text` at `px` pixels:
/// 0.6 em per character, wider than the average sans-serif glyph, so that
/// estimated layouts do not overlap in the viewer's font.
pub(super) fn text_width(text: &str, px: f64) -> i32 {
    (0.6 * px * text.chars().count() as f64).ceil() as i32
}

/// The height in pixels of a line of text at `px` pixels.
pub(super) fn text_height(px: f64) -> i32 {
    (px * 1.2).ceil() as i32
}

/// The largest size from `largest` down to `smallest` at which `text` is
/// at most `room` pixels wide (`smallest` if none is).
pub(super) fn fitting_size(text: &str, room: i32, largest: f64, smallest: f64) -> f64 {
    let mut size = largest;
    while size > smallest && text_width(text, size) > room {
        size -= 1.0;
    }
    size
}

/// Draws `text` in bold at `px` pixels, centred on column `x` and hanging
/// from row `y`.
pub(super) fn draw_bold(root: &Area<'_>, text: &str, (x, y): (i32, i32), px: f64) -> Drawn {
    root.draw(&Text::new(
        text.to_string(),
        (x, y),
        font(px)
            .style(FontStyle::Bold)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

/// An axis description `room` pixels long as lines and their size: one
/// line as large as fits, from [`AXIS_DESC_SIZE`] down to [`SMALL_SIZE`];
/// else wrapped at [`SMALL_SIZE`] onto as few lines as it needs (a narrow
/// chart for print).
pub(super) fn description_lines(text: &str, room: i32) -> (Vec<String>, f64) {
    let size = fitting_size(text, room, AXIS_DESC_SIZE, SMALL_SIZE);
    if text_width(text, size) <= room {
        return (vec![text.to_string()], size);
    }
    (balanced_lines(text, room, SMALL_SIZE), SMALL_SIZE)
}

/// Draws the x axis description `text` centred between pixel columns
/// `left` and `right`, hanging from pixel row `y`, fitted to that width
/// (see [`description_lines`]).
pub(super) fn draw_x_description(
    root: &Area<'_>,
    text: &str,
    (left, right): (i32, i32),
    y: i32,
) -> Drawn {
    let (lines, size) = description_lines(text, right - left);
    for (i, line) in lines.into_iter().enumerate() {
        root.draw(&Text::new(
            line,
            ((left + right) / 2, y + i as i32 * text_height(size)),
            ink(size, HPos::Center, VPos::Top),
        ))?;
    }
    Ok(())
}

/// Draws the y axis description `text` reading upwards beside pixel rows
/// `top..bottom`, its first line centred on pixel column `x`, fitted to
/// that height (see [`description_lines`]); further lines go right of
/// the first.
pub(super) fn draw_y_description_fitted(
    root: &Area<'_>,
    text: &str,
    x: i32,
    (top, bottom): (i32, i32),
) -> Drawn {
    let (lines, size) = description_lines(text, bottom - top);
    for (i, line) in lines.iter().enumerate() {
        let at = (x + i as i32 * text_height(size), (top + bottom) / 2);
        draw_y_description(root, line, at, size)?;
    }
    Ok(())
}

/// Draws the y axis description `text` at `px` pixels, turned to read
/// upwards and centred at pixel `at`.
pub(super) fn draw_y_description(root: &Area<'_>, text: &str, at: (i32, i32), px: f64) -> Drawn {
    root.draw(&Text::new(
        text.to_string(),
        at,
        ink(px, HPos::Center, VPos::Center).transform(FontTransform::Rotate270),
    ))?;
    Ok(())
}

/// Whether text on `colour` reads better in black than in white, by the
/// WCAG contrast ratio of the two.
pub(super) fn dark_text_on(colour: RGBColor) -> bool {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let RGBColor(r, g, b) = colour;
    let luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    // Contrast with black (L + 0.05) / 0.05 against with white 1.05 / (L + 0.05).
    (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05)
}

// ---------------------------------------------------------------------------
// Titles and legends.

/// A chart's title, set in bold and centred at the top (its size and its
/// lines), and its caption under it in regular type.
pub(super) struct Title {
    pub(super) size: f64,
    pub(super) lines: Vec<String>,
    /// The caption's lines, at [`CAPTION_SIZE`].
    pub(super) caption: Vec<String>,
    /// The picture's width, in which the title is centred.
    pub(super) width: i32,
}

impl Title {
    /// `text` on one line in a picture `width` wide, as large as fits,
    /// down to [`MIN_TITLE_SIZE`] (then it may overflow).
    pub(super) fn one_line(text: &str, width: u32) -> Title {
        let width = width as i32;
        let room = width - 2 * MARGIN;
        Title {
            size: fitting_size(text, room, TITLE_SIZE, MIN_TITLE_SIZE),
            lines: vec![text.to_string()],
            caption: Vec::new(),
            width,
        }
    }

    /// `text` on one line as large as fits, down to
    /// [`WRAPPED_TITLE_SIZE`]; a longer title is wrapped at spaces, at that
    /// size, onto as few lines as it needs, of lengths as even as can be (a
    /// single word wider than the picture keeps a line of its own).
    pub(super) fn wrapped(text: &str, width: u32) -> Title {
        let one_line = Title::one_line(text, width);
        let room = one_line.width - 2 * MARGIN;
        if one_line.size >= WRAPPED_TITLE_SIZE && text_width(text, one_line.size) <= room {
            return one_line;
        }
        Title {
            size: WRAPPED_TITLE_SIZE,
            lines: balanced_lines(text, room, WRAPPED_TITLE_SIZE),
            ..one_line
        }
    }

    /// The title with `caption` under it, wrapped to the width; an empty
    /// caption adds nothing.
    pub(super) fn with_caption(mut self, caption: &str) -> Title {
        if !caption.is_empty() {
            self.caption = balanced_lines(caption, self.width - 2 * MARGIN, CAPTION_SIZE);
        }
        self
    }

    /// The pixel row just under the title and its caption, with room to
    /// spare.
    pub(super) fn bottom(&self) -> i32 {
        MARGIN
            + self.lines.len() as i32 * text_height(self.size)
            + self.caption.len() as i32 * text_height(CAPTION_SIZE)
            + 8
    }

    /// Draws the title's lines centred at the top, and the caption's under
    /// them.
    pub(super) fn draw(&self, root: &Area<'_>) -> Drawn {
        let centre = self.width / 2;
        for (i, line) in self.lines.iter().enumerate() {
            let y = MARGIN + i as i32 * text_height(self.size);
            draw_bold(root, line, (centre, y), self.size)?;
        }
        let top = MARGIN + self.lines.len() as i32 * text_height(self.size);
        for (i, line) in self.caption.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (centre, top + i as i32 * text_height(CAPTION_SIZE)),
                ink(CAPTION_SIZE, HPos::Center, VPos::Top),
            ))?;
        }
        Ok(())
    }
}

/// `text` wrapped at spaces at `px` pixels onto as few lines `room`
/// pixels wide as it needs, the measure narrowed as far as keeps that many
/// lines, so that the last line is not a stray word.
fn balanced_lines(text: &str, room: i32, px: f64) -> Vec<String> {
    let fewest = wrap(text, room, px).len();
    let mut measure = room;
    while measure > 0 && wrap(text, measure - 10, px).len() == fewest {
        measure -= 10;
    }
    wrap(text, measure, px)
}

/// `text` broken at spaces into lines at most `room` pixels wide at `px`
/// pixels, each as full as it can be.
fn wrap(text: &str, room: i32, px: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), px) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// What a legend key shows.
#[derive(Clone, Copy)]
pub(super) enum Key {
    /// A filled box, as a segment.
    Fill(RGBColor),
    /// A z-score point.
    Point(PointKind),
    /// A horizontal reference line.
    Line { colour: RGBColor, dashed: bool },
    /// A bar: sky blue, outlined in blue.
    Bar,
    /// The marker of a bar chart's overlay series `index` on a short line.
    Marker(usize),
    /// A grey error bar.
    ErrorBar,
}

/// How a z-score point is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PointKind {
    /// A filled blue circle.
    Plain,
    /// A hollow blue circle: the outcome was pooled for the test.
    Pooled,
    /// A vermillion triangle: beyond the critical value.
    Beyond,
}

/// A legend: its entries `(key, name)`, each entry's top-left pixel, and
/// its height.
pub(super) struct Legend {
    pub(super) entries: Vec<(Key, String)>,
    pub(super) at: Vec<(i32, i32)>,
    pub(super) height: i32,
}

impl Legend {
    /// The entries laid out in rows from pixel row `top`, left to right,
    /// starting a new row where the next entry would pass the right margin
    /// of a picture `width` wide.
    /// A name wider than the picture is wrapped onto lines of its own
    /// (joined by `\n`), and its row is as tall as they need.
    pub(super) fn in_rows(mut entries: Vec<(Key, String)>, top: i32, width: i32) -> Legend {
        let right = width - MARGIN;
        let room = right - MARGIN - SWATCH - 8;
        let (mut x, mut y) = (MARGIN, top);
        let mut row_height = LEGEND_ROW;
        let mut at = Vec::with_capacity(entries.len());
        for (_, name) in &mut entries {
            if text_width(name, LABEL_SIZE) > room {
                *name = wrap(name, room, LABEL_SIZE).join("\n");
            }
            let widest = name.lines().map(|line| text_width(line, LABEL_SIZE)).max();
            let entry_width = SWATCH + 8 + widest.unwrap_or(0);
            let entry_height =
                LEGEND_ROW + (name.lines().count() as i32 - 1) * text_height(LABEL_SIZE);
            if x > MARGIN && x + entry_width > right {
                x = MARGIN;
                y += row_height;
                row_height = LEGEND_ROW;
            }
            at.push((x, y));
            row_height = row_height.max(entry_height);
            x += entry_width + 24;
        }
        Legend {
            entries,
            at,
            height: y + row_height - top,
        }
    }
}

/// A chart's title and, under it, its legend in rows: everything above
/// the plots.
pub(super) struct Header {
    pub(super) title: Title,
    pub(super) legend: Legend,
}

impl Header {
    /// `title` with the legend of `entries` in rows under it.
    pub(super) fn new(title: Title, entries: Vec<(Key, String)>) -> Header {
        let legend = Legend::in_rows(entries, title.bottom(), title.width);
        Header { title, legend }
    }

    /// The first pixel row under the header, with room to spare.
    pub(super) fn bottom(&self) -> i32 {
        self.title.bottom() + self.legend.height + 6
    }
}

// ---------------------------------------------------------------------------
// x labels.

/// The smallest step among 1, 2, 5, 10, 20, 50, ... at which every
/// `step`-th label, from the first, clears its shown neighbours by
/// [`LABEL_GAP`] when labels are `slot` pixels apart at `px` pixels.
pub(super) fn label_step(labels: &[String], slot: f64, px: f64) -> usize {
    let fits = |step: usize| {
        let shown: Vec<f64> = labels
            .iter()
            .step_by(step)
            .map(|label| f64::from(text_width(label, px)))
            .collect();
        shown
            .windows(2)
            .all(|pair| slot * step as f64 >= (pair[0] + pair[1]) / 2.0 + LABEL_GAP)
    };
    let mut decade = 1;
    loop {
        for step in [decade, 2 * decade, 5 * decade] {
            if step >= labels.len() || fits(step) {
                return step;
            }
        }
        decade *= 10;
    }
}

/// A plot's category labels under its x axis, laid out.
pub(super) struct XLabels {
    /// Every label as its lines.
    pub(super) lines: Vec<Vec<String>>,
    /// Every `step`-th label is shown...
    pub(super) step: usize,
    /// ... from this one.
    pub(super) first: usize,
    /// Whether the categories without a label get a short tick too (else
    /// only the labelled ones get one).
    pub(super) minor_ticks: bool,
}

impl XLabels {
    /// One-line labels `slot` pixels apart at `px` pixels: every one if
    /// they fit, else every `step`-th from the first (see [`label_step`]);
    /// every category gets a tick.
    pub(super) fn thinned(labels: &[String], slot: f64, px: f64) -> XLabels {
        XLabels {
            lines: labels.iter().map(|label| vec![label.clone()]).collect(),
            step: label_step(labels, slot, px),
            first: 0,
            minor_ticks: true,
        }
    }

    /// Whether label `index` is shown.
    pub(super) fn shown(&self, index: usize) -> bool {
        index >= self.first && (index - self.first).is_multiple_of(self.step)
    }

    /// Draws the labels at pixel columns `xs` hanging from pixel row `y`
    /// at `px` pixels, each line under the last, with a tick mark above
    /// each: a longer one for the labelled categories.
    pub(super) fn draw(&self, root: &Area<'_>, xs: &[i32], y: i32, px: f64) -> Drawn {
        let tick_font = ink(px, HPos::Center, VPos::Top);
        for (i, (label, &x)) in self.lines.iter().zip(xs).enumerate() {
            let shown = self.shown(i);
            if shown || self.minor_ticks {
                let length = if shown { 5 } else { 3 };
                root.draw(&PathElement::new(
                    vec![(x, y), (x, y + length)],
                    BLACK.stroke_width(1),
                ))?;
            }
            if shown {
                for (k, line) in label.iter().enumerate() {
                    let at = (x, y + 8 + k as i32 * text_height(px));
                    root.draw(&Text::new(line.clone(), at, tick_font.clone()))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_steps_are_one_two_five() {
        let labels = |n: usize| (0..n).map(|i| i.to_string()).collect::<Vec<_>>();
        // Two-digit labels at 12 px are 15 px wide and need 21 px apart.
        assert_eq!(label_step(&labels(53), 21.0, 12.0), 1);
        assert_eq!(label_step(&labels(53), 15.0, 12.0), 2);
        assert_eq!(label_step(&labels(53), 5.0, 12.0), 5);
        assert_eq!(label_step(&labels(100), 2.0, 12.0), 20);
        assert_eq!(label_step(&labels(1), 0.5, 12.0), 1);
        assert_eq!(label_step(&[], 10.0, 12.0), 1);
    }

    #[test]
    fn long_titles_wrap() {
        let Title { size, lines, .. } = Title::wrapped(&"word ".repeat(60), 900);
        assert_eq!(size, WRAPPED_TITLE_SIZE);
        assert_eq!(lines.len(), 4, "{lines:?}");
        let room = 900 - 2 * MARGIN;
        assert!(lines.iter().all(|l| text_width(l, size) <= room));
        // Balanced: no stray last word.
        let Title { lines, .. } =
            Title::wrapped(&format!("{} end", "word ".repeat(21).trim()), 900);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].len() > 40, "{lines:?}");
        let Title { lines, .. } = Title::wrapped("short", 900);
        assert_eq!(lines, ["short"]);
    }

    #[test]
    fn captions_legends_and_descriptions_fit_a_narrow_picture() {
        // A caption wraps to the width, under the title.
        let caption = "decks 6, soft17 stand, hole_card peek, blackjack_pays 3:2, double any";
        let title = Title::wrapped("Value per round", 378).with_caption(caption);
        assert_eq!(title.lines, ["Value per round"]);
        assert!(title.caption.len() >= 2, "{:?}", title.caption);
        assert!(
            title
                .caption
                .iter()
                .all(|line| text_width(line, CAPTION_SIZE) <= 378 - 2 * MARGIN)
        );
        assert_eq!(title.caption.join(" "), caption);
        let bare = Title::wrapped("Value per round", 378);
        assert_eq!(
            title.bottom() - bare.bottom(),
            title.caption.len() as i32 * text_height(CAPTION_SIZE)
        );
        assert_eq!(Title::wrapped("t", 378).with_caption("").caption.len(), 0);

        // A legend entry wider than the picture wraps, and its row grows.
        let long = "all rounds: -0.56 % (95% interval -0.79 to -0.34 %)".to_string();
        let legend = Legend::in_rows(vec![(Key::Bar, long.clone())], 100, 378);
        let lines: Vec<&str> = legend.entries[0].1.lines().collect();
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), long);
        assert!(legend.height > LEGEND_ROW);
        let short = Legend::in_rows(vec![(Key::Bar, "mean".to_string())], 100, 378);
        assert_eq!(short.height, LEGEND_ROW);

        // An axis description shrinks, then wraps.
        let text = "true count (running count per deck left to deal, rounded down)";
        assert_eq!(
            description_lines(text, 900),
            (vec![text.to_string()], AXIS_DESC_SIZE)
        );
        let (lines, size) = description_lines(text, 300);
        assert_eq!(size, SMALL_SIZE);
        assert!(lines.len() >= 2 && lines.iter().all(|l| text_width(l, size) <= 300));
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn text_colour_follows_contrast() {
        assert!(!dark_text_on(RGBColor(0x00, 0x72, 0xB2)));
        assert!(!dark_text_on(RGBColor(0, 0, 0)));
        assert!(dark_text_on(RGBColor(0xF0, 0xE4, 0x42)));
        assert!(dark_text_on(RGBColor(0xE6, 0x9F, 0x00)));
    }
}
