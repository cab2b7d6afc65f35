//! SVG charts of results:
//!
//! - [`BarChart`] ([`render_svg`]): one distribution as bars, any others (a
//!   published table, another shuffle) overlaid as markers on top, and 95%
//!   intervals as error bars;
//! - [`StackedBarChart`] ([`render_stacked_svg`]): several distributions
//!   over the same outcomes (the dealer's final hand for each upcard), one
//!   bar per distribution split into its outcomes;
//! - [`ZScorePlot`] ([`render_z_scores_svg`]): the per-outcome z-scores of
//!   a comparison, one panel per compared distribution, against reference
//!   lines at 0, ±2 and the critical value;
//! - [`PanelChart`] ([`render_panels_svg`]): small multiples, several
//!   distributions of one report (cards left for each K, passes, ...), one
//!   bar panel each with its own y scale, in a grid of two columns.
//!
//! Like the rest of the report layer this only builds a string; the caller
//! decides where it goes.
//!
//! Text: plotters is built without its font features, so it estimates text
//! sizes from the number of characters and its SVG backend writes plain
//! `<text>` elements that the viewer sets in its own sans-serif font. No
//! font file is read at build or run time. Because the real text width is
//! only known to the viewer, the layout here estimates widths generously
//! ([`text_width`]) and leaves room around every label.
//!
//! Colours are from the Okabe–Ito palette, which stays distinguishable under
//! the common colour-vision deficiencies; overlaid series also differ in
//! marker shape, so the chart reads in grey too.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::{Error, Result};

/// One series of bars (or markers) over the chart's categories.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry, e.g. `deckodds, uniform shuffle (1,000,000 games)`.
    pub name: String,
    /// Probabilities in `[0, 1]`, one per category.
    pub values: Vec<f64>,
    /// Optional 95% intervals `(low, high)`, one per category, drawn as
    /// error bars.
    pub intervals: Option<Vec<(f64, f64)>>,
}

/// A bar chart: the first series as bars, any further series overlaid as
/// markers (a short line across the bar plus a symbol) so that they stay
/// visible on top.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// The title above the chart.
    pub title: String,
    /// The x axis description, e.g. `cards left`.
    pub x_label: String,
    /// The y axis description, e.g. `percent of games`.
    pub y_label: String,
    /// Category labels along the x axis, e.g. `0`, `2`, ..., `52`.
    pub categories: Vec<String>,
    /// The series; the first is drawn as bars.
    pub series: Vec<Series>,
}

/// One segment of every bar of a [`StackedBarChart`], e.g. "the dealer
/// busts".
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// The legend entry, e.g. `bust`.
    pub name: String,
    /// Probabilities in `[0, 1]`, one per category.
    pub values: Vec<f64>,
}

/// A stacked bar chart: one bar per category (a dealer's upcard, say), each
/// split into the segments, stacked from the bottom in the given order, so
/// that every bar reaches 100%.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBarChart {
    /// The title above the chart.
    pub title: String,
    /// The x axis description, e.g. `dealer's upcard`.
    pub x_label: String,
    /// The y axis description, e.g. `percent of hands`.
    pub y_label: String,
    /// Category labels along the x axis, one bar each, e.g. `2`, ..., `A`.
    pub categories: Vec<String>,
    /// The segments, from the bottom of the stack to its top.
    pub segments: Vec<Segment>,
}

/// One outcome of a [`ZPanel`].
#[derive(Clone, Debug, PartialEq)]
pub struct ZPoint {
    /// The outcome label under the x axis, e.g. `17` or `bust`.
    pub label: String,
    /// The outcome's z-score; `None` where it is undefined or was not
    /// tested. Such an outcome keeps its place on the x axis but gets no
    /// point.
    pub z: Option<f64>,
    /// True when the outcome was pooled with others for the chi-square test
    /// (too small an expected count), so its own z-score deserves less
    /// weight; it is drawn hollow.
    pub pooled: bool,
}

/// One compared distribution of a [`ZScorePlot`]: its outcomes in order.
#[derive(Clone, Debug, PartialEq)]
pub struct ZPanel {
    /// The heading above the panel, e.g. `K=1: χ² = 1146315.32, df 52, p <
    /// 0.0001: disagree`; empty for none. A heading too long for the panel
    /// is split after its first `": "`.
    pub title: String,
    /// The outcomes, in x order.
    pub points: Vec<ZPoint>,
}

/// The z-scores of a comparison: per outcome, `(observed - expected) /
/// standard error`, with one panel per compared distribution (each with its
/// own symmetric y range), and reference lines at 0, ±2 and, if given, the
/// critical value.
#[derive(Clone, Debug, PartialEq)]
pub struct ZScorePlot {
    /// The title above the plot.
    pub title: String,
    /// The x axis description, e.g. `outcome`.
    pub x_label: String,
    /// The y axis description, e.g. `z = (observed - expected) / standard
    /// error`.
    pub y_label: String,
    /// The critical `|z|`, if the comparison has one: drawn as a reference
    /// line, and points beyond it are drawn as vermillion triangles.
    pub critical: Option<CriticalValue>,
    /// The panels, laid out in reading order.
    pub panels: Vec<ZPanel>,
}

/// A critical `|z|` of a [`ZScorePlot`].
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalValue {
    /// The critical `|z|`, finite and positive.
    pub z: f64,
    /// How it was chosen, for the legend, e.g. `Bonferroni over 83 cells,
    /// level 0.05`; empty for nothing.
    pub description: String,
}

/// One panel of a [`PanelChart`]: one distribution's outcomes as bars.
#[derive(Clone, Debug, PartialEq)]
pub struct BarPanel {
    /// The heading above the panel, e.g. `cards left, K = 1`; empty for
    /// none. A heading too long for the panel is split after its first
    /// `": "`, else set smaller.
    pub title: String,
    /// Category labels along the x axis, e.g. `0`, `1`, ..., `52`.
    pub categories: Vec<String>,
    /// Probabilities in `[0, 1]`, one per category, drawn as bars.
    pub values: Vec<f64>,
    /// Optional 95% intervals `(low, high)`, one per category, drawn as
    /// error bars.
    pub intervals: Option<Vec<(f64, f64)>>,
}

/// Small multiples: several distributions of one report, each as a bar
/// chart in a panel of its own, with its own y scale, under one title and
/// one legend.
#[derive(Clone, Debug, PartialEq)]
pub struct PanelChart {
    /// The title above the panels.
    pub title: String,
    /// Every panel's y axis description, e.g. `percent of games`.
    pub y_label: String,
    /// The legend entry of the bars, e.g. `estimate from 10,000,000
    /// games` or `exact probability`.
    pub bars_name: String,
    /// The panels, laid out in reading order.
    pub panels: Vec<BarPanel>,
}

/// Width of the SVG in pixels.
const WIDTH: u32 = 900;
/// Height of the SVG in pixels.
const HEIGHT: u32 = 500;
/// Space around the whole picture, in pixels.
const MARGIN: i32 = 12;
const FONT: &str = "sans-serif";
/// Font sizes in pixels (CSS `font-size`).
const TITLE_SIZE: f64 = 20.0;
const LABEL_SIZE: f64 = 14.0;
const AXIS_DESC_SIZE: f64 = 16.0;
/// The smallest title size, for very long titles.
const MIN_TITLE_SIZE: f64 = 12.0;
/// Height of one legend row, in pixels.
const LEGEND_ROW: i32 = 22;
/// Width of a legend swatch, in pixels.
const SWATCH: i32 = 26;
/// Fraction of a category's width that its bar covers.
const BAR_WIDTH: f64 = 0.8;

/// Okabe–Ito sky blue, the bars' fill.
const BAR_FILL: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
/// Okabe–Ito blue, the bars' outline.
const BAR_EDGE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// Colours of the overlaid series, in order (Okabe–Ito vermillion, bluish
/// green, reddish purple, orange, black); they repeat after the last.
const OVERLAY_COLOURS: [RGBColor; 5] = [
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x00, 0x00),
];
/// Light grey for the horizontal grid lines.
const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
/// Dark grey for the bars' error bars and the legend's error-bar swatch.
const NOTE: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// Renders the chart as a standalone SVG document (y axis in percent).
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors: no category, no series, a series
/// without exactly one value (and, if given, one interval) per category, a
/// value outside `[0, 1]`, or an interval that is not `0 <= low <= high <=
/// 1`.
pub fn render_svg(chart: &BarChart) -> Result<String> {
    validate(chart)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, chart)
            .and_then(|()| root.present().map_err(Into::into))
            // Drawing into a string has no way to fail on validated input;
            // should plotters report something anyway, the user hears it
            // against the chart.
            .map_err(|e| Error::invalid("chart", &chart.title, format!("cannot be drawn: {e}")))?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------
// Validation.

fn validate(chart: &BarChart) -> Result<()> {
    let n = chart.categories.len();
    if n == 0 {
        return Err(Error::invalid(
            "chart",
            "without categories",
            "needs at least one category",
        ));
    }
    if chart.series.is_empty() {
        return Err(Error::invalid(
            "chart",
            "without series",
            "needs at least one series",
        ));
    }
    for series in &chart.series {
        validate_bars(
            &format!("series \"{}\"", series.name),
            &chart.categories,
            &series.values,
            series.intervals.as_deref(),
        )?;
    }
    Ok(())
}

/// Checks one set of bars, named `name` in errors (`series "x"`, `panel
/// "y"`): a value per category, each a probability, and if given an
/// interval per category with `0 <= low <= high <= 1`.
fn validate_bars(
    name: &str,
    categories: &[String],
    values: &[f64],
    intervals: Option<&[(f64, f64)]>,
) -> Result<()> {
    let n = categories.len();
    let probability = |x: f64| (0.0..=1.0).contains(&x);
    if values.len() != n {
        return Err(Error::invalid(
            "chart",
            format!("{name} has {} values for {n} categories", values.len()),
            "needs one value per category",
        ));
    }
    if let Some((value, category)) = values
        .iter()
        .zip(categories)
        .find(|(v, _)| !probability(**v))
    {
        return Err(Error::invalid(
            "chart",
            format!("{name}, category \"{category}\": value {value}"),
            "must be a probability in [0, 1]",
        ));
    }
    if let Some(intervals) = intervals {
        if intervals.len() != n {
            return Err(Error::invalid(
                "chart",
                format!(
                    "{name} has {} intervals for {n} categories",
                    intervals.len()
                ),
                "needs one interval per category",
            ));
        }
        if let Some(((low, high), category)) = intervals
            .iter()
            .zip(categories)
            .find(|((low, high), _)| !(probability(*low) && probability(*high) && low <= high))
        {
            return Err(Error::invalid(
                "chart",
                format!("{name}, category \"{category}\": interval [{low}, {high}]"),
                "must satisfy 0 <= low <= high <= 1",
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Layout helpers.

/// The whole picture, in pixels.
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The outcome of a drawing step.
type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

/// A plotters font of `px` pixels. Plotters sizes are nominal: its SVG
/// backend writes `size / 1.24` as the CSS `font-size`.
fn font(px: f64) -> FontDesc<'static> {
    (FONT, px * 1.24).into_font()
}

/// A generous estimate of the width in pixels of `text` at `px` pixels:
/// 0.6 em per character, wider than the average sans-serif glyph, so that
/// estimated layouts do not overlap in the viewer's font.
fn text_width(text: &str, px: f64) -> i32 {
    (0.6 * px * text.chars().count() as f64).ceil() as i32
}

/// The height in pixels of a line of text at `px` pixels.
fn text_height(px: f64) -> i32 {
    (px * 1.2).ceil() as i32
}

/// The largest title size, down to [`MIN_TITLE_SIZE`], at which `title`
/// fits the width.
fn title_size(title: &str) -> f64 {
    let room = WIDTH as i32 - 2 * MARGIN;
    let mut size = TITLE_SIZE;
    while size > MIN_TITLE_SIZE && text_width(title, size) > room {
        size -= 1.0;
    }
    size
}

/// A y tick label: the percentage with at most three decimals, trailing
/// zeros removed.
fn percent_label(value: f64) -> String {
    if value.abs() < 5e-4 {
        return "0".to_string();
    }
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The colour of series `index` (0 is the bars).
fn colour(index: usize) -> RGBColor {
    match index {
        0 => BAR_EDGE,
        i => OVERLAY_COLOURS[(i - 1) % OVERLAY_COLOURS.len()],
    }
}

/// What a legend entry's swatch shows.
enum Swatch {
    /// The bars.
    Bar,
    /// Overlay series `index`.
    Marker(usize),
    /// An error bar.
    ErrorBar,
}

/// One legend entry, placed.
struct LegendEntry {
    swatch: Swatch,
    name: String,
    /// The entry's top-left pixel.
    at: (i32, i32),
}

/// The legend entries, laid out in rows from pixel row `top` so that they
/// fit the width, and the legend's height.
fn legend_layout(chart: &BarChart, top: i32) -> (Vec<LegendEntry>, i32) {
    let mut entries: Vec<(Swatch, String)> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let swatch = if i == 0 {
                Swatch::Bar
            } else {
                Swatch::Marker(i)
            };
            (swatch, s.name.clone())
        })
        .collect();
    if chart.series.iter().any(|s| s.intervals.is_some()) {
        entries.push((Swatch::ErrorBar, "95% intervals".to_string()));
    }
    let right = WIDTH as i32 - MARGIN;
    let (mut x, mut y) = (MARGIN, top);
    let mut placed = Vec::with_capacity(entries.len());
    for (swatch, name) in entries {
        let width = SWATCH + 8 + text_width(&name, LABEL_SIZE);
        if x > MARGIN && x + width > right {
            x = MARGIN;
            y += LEGEND_ROW;
        }
        placed.push(LegendEntry {
            swatch,
            name,
            at: (x, y),
        });
        x += width + 24;
    }
    (placed, y + LEGEND_ROW - top)
}

/// Draws the marker of overlay series `index` centred at pixel `at`.
fn draw_marker(area: &Area<'_>, index: usize, at: (i32, i32), radius: i32) -> Drawn {
    let fill = colour(index).filled();
    let outline = ShapeStyle {
        color: WHITE.to_rgba(),
        filled: false,
        stroke_width: 1,
    };
    // Shapes cycle with the colours, offset so that colour and shape repeat
    // at different periods.
    match (index - 1) % 4 {
        0 => {
            area.draw(&Circle::new(at, radius, fill))?;
            area.draw(&Circle::new(at, radius, outline))?;
        }
        1 => {
            area.draw(&TriangleMarker::new(at, radius + 1, fill))?;
        }
        2 => {
            let (x, y) = at;
            area.draw(&Rectangle::new(
                [(x - radius, y - radius), (x + radius, y + radius)],
                fill,
            ))?;
        }
        _ => {
            area.draw(&Cross::new(at, radius, colour(index).stroke_width(2)))?;
        }
    }
    Ok(())
}

/// Draws a vertical error bar at pixel column `x` from pixel row `top` to
/// `bottom`, with caps `cap` pixels either side.
fn draw_error_bar(
    area: &Area<'_>,
    x: i32,
    (top, bottom): (i32, i32),
    cap: i32,
    style: ShapeStyle,
) -> Drawn {
    area.draw(&PathElement::new(vec![(x, top), (x, bottom)], style))?;
    for y in [top, bottom] {
        area.draw(&PathElement::new(vec![(x - cap, y), (x + cap, y)], style))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Drawing.

fn draw(root: &Area<'_>, chart: &BarChart) -> Drawn {
    root.fill(&WHITE)?;
    let n = chart.categories.len();
    let label_font = font(LABEL_SIZE).color(&BLACK);

    // Title, centred.
    let size = title_size(&chart.title);
    root.draw(&Text::new(
        chart.title.clone(),
        (WIDTH as i32 / 2, MARGIN),
        font(size)
            .style(FontStyle::Bold)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;

    // Legend rows under the title, outside the plot so they hide no bar.
    let legend_top = MARGIN + text_height(size) + 8;
    let (legend, legend_height) = legend_layout(chart, legend_top);
    let row_middle = text_height(LABEL_SIZE) / 2;
    for LegendEntry {
        swatch,
        name,
        at: (x, y),
    } in &legend
    {
        let middle = y + row_middle;
        match swatch {
            Swatch::Bar => {
                let corners = [(*x, middle - 6), (x + SWATCH, middle + 6)];
                root.draw(&Rectangle::new(corners, BAR_FILL.filled()))?;
                root.draw(&Rectangle::new(corners, BAR_EDGE.stroke_width(1)))?;
            }
            Swatch::Marker(index) => {
                root.draw(&PathElement::new(
                    vec![(*x, middle), (x + SWATCH, middle)],
                    colour(*index).stroke_width(2),
                ))?;
                draw_marker(root, *index, (x + SWATCH / 2, middle), 4)?;
            }
            Swatch::ErrorBar => {
                draw_error_bar(
                    root,
                    x + SWATCH / 2,
                    (middle - 7, middle + 7),
                    4,
                    NOTE.stroke_width(1),
                )?;
            }
        }
        root.draw(&Text::new(
            name.clone(),
            (x + SWATCH + 8, middle),
            label_font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    let header = legend_top + legend_height + 6;
    let (_, body) = root.split_vertically(header);

    // The plot. The x axis is drawn by hand below (plotters would place
    // category labels at "nice" numbers, not at every category).
    let tick_height = text_height(LABEL_SIZE);
    let desc_height = text_height(AXIS_DESC_SIZE);
    let x_area = 8 + tick_height + 10 + desc_height;
    let y_max = chart
        .series
        .iter()
        .flat_map(|s| {
            s.values
                .iter()
                .copied()
                .chain(s.intervals.iter().flatten().map(|&(_, high)| high))
        })
        .fold(0.0, f64::max)
        * 100.0;
    let y_top = if y_max > 0.0 { y_max * 1.08 } else { 1.0 };
    let x_range = -0.5..n as f64 - 0.5;
    let mut plot = ChartBuilder::on(&body)
        .margin_left(MARGIN)
        .margin_right(MARGIN + 8)
        .margin_bottom(MARGIN)
        .margin_top(4)
        .set_label_area_size(LabelAreaPosition::Left, 64)
        .set_label_area_size(LabelAreaPosition::Bottom, x_area)
        .build_cartesian_2d(x_range.clone(), 0.0..y_top)?;
    plot.configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_labels(8)
        .max_light_lines(0)
        .bold_line_style(GRID.stroke_width(1))
        .axis_style(BLACK.stroke_width(1))
        .y_label_formatter(&|v| percent_label(*v))
        .y_desc(chart.y_label.as_str())
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(AXIS_DESC_SIZE))
        .draw()?;

    // Pixel geometry of one category.
    let slot = f64::from(plot.plotting_area().dim_in_pixel().0) / n as f64;
    let radius = (slot * 0.16).round().clamp(2.0, 5.0) as i32;
    let cap = (slot * 0.12).round().clamp(2.0, 5.0) as i32;
    let half = BAR_WIDTH / 2.0;

    // Series that need an x position inside a category: the bars' error
    // bars (if any) and every overlay. They share the bar's width, spread
    // evenly, so that no error bar hides another.
    let positioned: Vec<usize> = (0..chart.series.len())
        .filter(|&i| i > 0 || chart.series[0].intervals.is_some())
        .collect();
    let step = (BAR_WIDTH / positioned.len().max(1) as f64).min(0.3);
    let offset = |index: usize| {
        let k = positioned.iter().position(|&i| i == index).unwrap_or(0) as f64;
        (k - (positioned.len() as f64 - 1.0) / 2.0) * step
    };

    // Bars.
    let bars = &chart.series[0];
    plot.draw_series(bars.values.iter().enumerate().map(|(i, v)| {
        let c = i as f64;
        Rectangle::new([(c - half, 0.0), (c + half, v * 100.0)], BAR_FILL.filled())
    }))?;
    plot.draw_series(bars.values.iter().enumerate().map(|(i, v)| {
        let c = i as f64;
        Rectangle::new(
            [(c - half, 0.0), (c + half, v * 100.0)],
            BAR_EDGE.stroke_width(1),
        )
    }))?;
    // The x axis line, over the bars' bottom edges.
    plot.draw_series(std::iter::once(PathElement::new(
        vec![(x_range.start, 0.0), (x_range.end, 0.0)],
        BLACK.stroke_width(1),
    )))?;

    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));

    // Error bars and overlays, drawn on the root so markers near the top are
    // not clipped by the plotting area.
    for (index, series) in chart.series.iter().enumerate() {
        // The bars' error bars in dark grey, which stands out on the fill.
        let style = match index {
            0 => NOTE.stroke_width(1),
            _ => colour(index).stroke_width(2),
        };
        for (i, value) in series.values.iter().enumerate() {
            let c = i as f64;
            let x = c + offset(index);
            if let Some(intervals) = &series.intervals {
                let (low, high) = intervals[i];
                let (px, top) = pixel(x, high * 100.0);
                let (_, bottom) = pixel(x, low * 100.0);
                draw_error_bar(root, px, (top, bottom), cap, style)?;
            }
            if index > 0 {
                let y = value * 100.0;
                root.draw(&PathElement::new(
                    vec![pixel(c - half, y), pixel(c + half, y)],
                    colour(index).stroke_width(2),
                ))?;
                draw_marker(root, index, pixel(x, y), radius)?;
            }
        }
    }

    // Category labels: every one if they fit, else every second, third, ...
    let widest = chart
        .categories
        .iter()
        .map(|c| text_width(c, LABEL_SIZE))
        .max()
        .unwrap_or(0);
    let every = ((f64::from(widest + 8) / slot).ceil() as usize).max(1);
    let tick_font = label_font.pos(Pos::new(HPos::Center, VPos::Top));
    for (i, category) in chart.categories.iter().enumerate().step_by(every) {
        let (x, y) = pixel(i as f64, 0.0);
        root.draw(&PathElement::new(
            vec![(x, y), (x, y + 5)],
            BLACK.stroke_width(1),
        ))?;
        root.draw(&Text::new(category.clone(), (x, y + 8), tick_font.clone()))?;
    }
    let (left, bottom) = pixel(x_range.start, 0.0);
    let (right, _) = pixel(x_range.end, 0.0);
    root.draw(&Text::new(
        chart.x_label.clone(),
        ((left + right) / 2, bottom + 8 + tick_height + 10),
        font(AXIS_DESC_SIZE)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Pieces shared by the stacked bar chart and the z-score plot.

/// Okabe–Ito colours in the order segments take them: blue, orange, bluish
/// green, reddish purple, sky blue, vermillion, yellow, black. Neighbours
/// differ in hue and lightness, so adjacent segments stay apart.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xF0, 0xE4, 0x42),
    RGBColor(0x00, 0x00, 0x00),
];
/// Okabe–Ito vermillion: points beyond the critical value, and its line.
const ALARM: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
/// Font size of the percentages inside stacked segments and of the z-score
/// plot's tick labels, in pixels.
const SMALL_SIZE: f64 = 12.0;
/// The least room, in pixels, between two neighbouring x labels.
const LABEL_GAP: f64 = 6.0;
/// Height of a row of panels of a z-score plot with several rows, in
/// pixels.
const PANEL_HEIGHT: i32 = 230;
/// Height of the only row of panels, in pixels: taller, so that the y axis
/// description fits beside it.
const SINGLE_PANEL_HEIGHT: i32 = 400;
/// Horizontal room between panels, in pixels.
const PANEL_GAP: i32 = 18;
/// The most panels side by side.
const MAX_COLUMNS: usize = 3;
/// The least half-height of a z-score panel's y range.
const MIN_Z_RANGE: f64 = 4.0;

/// Draws `draw` into a fresh SVG document of `size` pixels.
fn render_with(
    size: (u32, u32),
    title: &str,
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root)
            .and_then(|()| root.present().map_err(Into::into))
            // As in `render_svg`: validated input cannot fail to draw.
            .map_err(|e| Error::invalid("chart", title, format!("cannot be drawn: {e}")))?;
    }
    Ok(svg)
}

/// The size of a title wrapped onto several lines.
const WRAPPED_TITLE_SIZE: f64 = 16.0;

/// A title's size and lines: one line as large as fits, down to
/// [`WRAPPED_TITLE_SIZE`]; a longer title is wrapped at spaces, at that
/// size, onto as few lines as it needs, of lengths as even as can be (a
/// single word wider than the picture keeps a line of its own).
fn title_lines(title: &str) -> (f64, Vec<String>) {
    let room = WIDTH as i32 - 2 * MARGIN;
    let size = title_size(title);
    if size >= WRAPPED_TITLE_SIZE && text_width(title, size) <= room {
        return (size, vec![title.to_string()]);
    }
    let fewest = wrap(title, room).len();
    // Narrow the measure as far as keeps that many lines, so that the last
    // line is not a stray word.
    let mut measure = room;
    while measure > 0 && wrap(title, measure - 10).len() == fewest {
        measure -= 10;
    }
    (WRAPPED_TITLE_SIZE, wrap(title, measure))
}

/// `text` broken at spaces into lines at most `room` pixels wide at
/// [`WRAPPED_TITLE_SIZE`], each as full as it can be.
fn wrap(text: &str, room: i32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), WRAPPED_TITLE_SIZE) <= room => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The pixel row just under the title drawn by [`draw_title`], with room
/// to spare.
fn title_bottom(title: &str) -> i32 {
    let (size, lines) = title_lines(title);
    MARGIN + lines.len() as i32 * text_height(size) + 8
}

/// Draws `title` centred at the top (see [`title_lines`]) and returns
/// [`title_bottom`].
fn draw_title(
    root: &Area<'_>,
    title: &str,
) -> std::result::Result<i32, Box<dyn std::error::Error>> {
    let (size, lines) = title_lines(title);
    for (i, line) in lines.into_iter().enumerate() {
        root.draw(&Text::new(
            line,
            (WIDTH as i32 / 2, MARGIN + i as i32 * text_height(size)),
            font(size)
                .style(FontStyle::Bold)
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }
    Ok(title_bottom(title))
}

/// The largest size from `largest` down to `smallest` at which `text` is
/// at most `room` pixels wide (`smallest` if none is).
fn fitting_size(text: &str, room: i32, largest: f64, smallest: f64) -> f64 {
    let mut size = largest;
    while size > smallest && text_width(text, size) > room {
        size -= 1.0;
    }
    size
}

/// What a legend key of the newer charts shows.
#[derive(Clone, Copy)]
enum Key {
    /// A filled box, as a segment.
    Fill(RGBColor),
    /// A z-score point.
    Point(PointKind),
    /// A horizontal reference line.
    Line { colour: RGBColor, dashed: bool },
    /// A bar: sky blue, outlined in blue.
    Bar,
    /// A grey error bar.
    ErrorBar,
}

/// How a z-score point is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PointKind {
    /// A filled blue circle.
    Plain,
    /// A hollow blue circle: the outcome was pooled for the test.
    Pooled,
    /// A vermillion triangle: beyond the critical value.
    Beyond,
}

/// Lays out legend entries `(key, name)` in rows from pixel row `top` so
/// that they fit the width; returns each entry's top-left pixel and the
/// legend's height.
fn legend_rows(entries: &[(Key, String)], top: i32) -> (Vec<(i32, i32)>, i32) {
    let right = WIDTH as i32 - MARGIN;
    let (mut x, mut y) = (MARGIN, top);
    let mut placed = Vec::with_capacity(entries.len());
    for (_, name) in entries {
        let width = SWATCH + 8 + text_width(name, LABEL_SIZE);
        if x > MARGIN && x + width > right {
            x = MARGIN;
            y += LEGEND_ROW;
        }
        placed.push((x, y));
        x += width + 24;
    }
    (placed, y + LEGEND_ROW - top)
}

/// Draws one legend entry with its top-left corner at `(x, y)`.
fn draw_key(root: &Area<'_>, key: Key, name: &str, (x, y): (i32, i32)) -> Drawn {
    let middle = y + text_height(LABEL_SIZE) / 2;
    match key {
        Key::Fill(colour) => {
            root.draw(&Rectangle::new(
                [(x, middle - 7), (x + SWATCH, middle + 7)],
                colour.filled(),
            ))?;
        }
        Key::Point(kind) => draw_point(root, kind, (x + SWATCH / 2, middle), 4)?,
        Key::Line { colour, dashed } => {
            draw_line(root, (x, x + SWATCH), middle, colour, dashed)?;
        }
        Key::Bar => {
            let corners = [(x, middle - 6), (x + SWATCH, middle + 6)];
            root.draw(&Rectangle::new(corners, BAR_FILL.filled()))?;
            root.draw(&Rectangle::new(corners, BAR_EDGE.stroke_width(1)))?;
        }
        Key::ErrorBar => {
            let centre = x + SWATCH / 2;
            draw_error_bar(
                root,
                centre,
                (middle - 7, middle + 7),
                4,
                NOTE.stroke_width(1),
            )?;
        }
    }
    root.draw(&Text::new(
        name.to_string(),
        (x + SWATCH + 8, middle),
        font(LABEL_SIZE)
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}

/// Draws a horizontal line at pixel row `y` from column `left` to `right`,
/// dashed (6 pixels on, 4 off) or solid.
fn draw_line(
    root: &Area<'_>,
    (left, right): (i32, i32),
    y: i32,
    colour: RGBColor,
    dashed: bool,
) -> Drawn {
    let style = colour.stroke_width(1);
    if !dashed {
        root.draw(&PathElement::new(vec![(left, y), (right, y)], style))?;
        return Ok(());
    }
    let mut x = left;
    while x < right {
        let end = (x + 6).min(right);
        root.draw(&PathElement::new(vec![(x, y), (end, y)], style))?;
        x += 10;
    }
    Ok(())
}

/// Draws a z-score point of `kind` centred at pixel `at`.
fn draw_point(root: &Area<'_>, kind: PointKind, at: (i32, i32), radius: i32) -> Drawn {
    match kind {
        PointKind::Plain => {
            root.draw(&Circle::new(at, radius, BAR_EDGE.filled()))?;
        }
        PointKind::Pooled => {
            root.draw(&Circle::new(at, radius, WHITE.filled()))?;
            root.draw(&Circle::new(at, radius, BAR_EDGE.stroke_width(1)))?;
        }
        PointKind::Beyond => {
            // Larger than the circles, as a triangle's area is smaller at
            // the same radius.
            root.draw(&TriangleMarker::new(at, radius + 2, ALARM.filled()))?;
        }
    }
    Ok(())
}

/// The smallest step among 1, 2, 5, 10, 20, 50, ... at which every
/// `step`-th label, from the first, clears its shown neighbours by
/// [`LABEL_GAP`] when labels are `slot` pixels apart at `px` pixels.
fn label_step(labels: &[String], slot: f64, px: f64) -> usize {
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

/// Draws category labels under the x axis at the pixel columns `xs`, every
/// `step`-th one, hanging from pixel row `y` at `px` pixels; every category
/// gets a tick mark, the labelled ones a longer one.
fn draw_x_labels(
    root: &Area<'_>,
    labels: &[String],
    xs: &[i32],
    y: i32,
    step: usize,
    px: f64,
) -> Drawn {
    let tick_font = font(px)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, (label, &x)) in labels.iter().zip(xs).enumerate() {
        let shown = i % step == 0;
        let length = if shown { 5 } else { 3 };
        root.draw(&PathElement::new(
            vec![(x, y), (x, y + length)],
            BLACK.stroke_width(1),
        ))?;
        if shown {
            root.draw(&Text::new(label.clone(), (x, y + 8), tick_font.clone()))?;
        }
    }
    Ok(())
}

/// Whether text on `colour` reads better in black than in white, by the
/// WCAG contrast ratio of the two.
fn dark_text_on(colour: RGBColor) -> bool {
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
// Stacked bar chart.

/// Renders the stacked bar chart as a standalone SVG document (y axis in
/// percent, 0 to 100).
///
/// Each bar stacks its category's segment values from the bottom, in the
/// order of [`StackedBarChart::segments`], each in its own Okabe–Ito colour
/// (repeating after eight segments). A segment tall and wide enough to hold
/// its percentage (one decimal) shows it inside. The legend names the
/// segments from the top of the stack down, as they appear in the bars: in
/// a column to the right of the plot, or in rows under the title when the
/// names are too long for a column.
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors: no category, no segment, a segment
/// without exactly one value per category, a value outside `[0, 1]`, or a
/// category whose values do not sum to 1 within `1e-9`.
pub fn render_stacked_svg(chart: &StackedBarChart) -> Result<String> {
    validate_stacked(chart)?;
    render_with((WIDTH, HEIGHT), &chart.title, |root| {
        draw_stacked(root, chart)
    })
}

fn validate_stacked(chart: &StackedBarChart) -> Result<()> {
    let n = chart.categories.len();
    if n == 0 {
        return Err(Error::invalid(
            "chart",
            "without categories",
            "needs at least one category",
        ));
    }
    if chart.segments.is_empty() {
        return Err(Error::invalid(
            "chart",
            "without segments",
            "needs at least one segment",
        ));
    }
    for segment in &chart.segments {
        let name = &segment.name;
        if segment.values.len() != n {
            return Err(Error::invalid(
                "chart",
                format!(
                    "segment \"{name}\" has {} values for {n} categories",
                    segment.values.len()
                ),
                "needs one value per category",
            ));
        }
        if let Some((value, category)) = segment
            .values
            .iter()
            .zip(&chart.categories)
            .find(|(v, _)| !(0.0..=1.0).contains(*v))
        {
            return Err(Error::invalid(
                "chart",
                format!("segment \"{name}\", category \"{category}\": value {value}"),
                "must be a probability in [0, 1]",
            ));
        }
    }
    for (i, category) in chart.categories.iter().enumerate() {
        let sum: f64 = chart.segments.iter().map(|s| s.values[i]).sum();
        if (sum - 1.0).abs() > 1e-9 {
            return Err(Error::invalid(
                "chart",
                format!("category \"{category}\": segments sum to {sum}"),
                "must sum to 1 (within 1e-9)",
            ));
        }
    }
    Ok(())
}

/// The colour of segment `index`.
fn segment_colour(index: usize) -> RGBColor {
    PALETTE[index % PALETTE.len()]
}

fn draw_stacked(root: &Area<'_>, chart: &StackedBarChart) -> Drawn {
    root.fill(&WHITE)?;
    let n = chart.categories.len();
    let legend_top = draw_title(root, &chart.title)?;

    // The legend lists the top of the stack first, so that it reads like
    // the bars; in a column on the right when that leaves the plot most of
    // the width, else in rows under the title.
    let entries: Vec<(Key, String)> = chart
        .segments
        .iter()
        .enumerate()
        .rev()
        .map(|(i, s)| (Key::Fill(segment_colour(i)), s.name.clone()))
        .collect();
    let widest = entries
        .iter()
        .map(|(_, name)| text_width(name, LABEL_SIZE))
        .max()
        .unwrap_or(0);
    let column = SWATCH + 8 + widest;
    let (body, legend_at) = if column <= WIDTH as i32 / 4 {
        let x = WIDTH as i32 - MARGIN - column;
        let at = (0..entries.len())
            .map(|k| (x, legend_top + 4 + LEGEND_ROW * k as i32))
            .collect::<Vec<_>>();
        let body = root.margin(legend_top, 0, 0, column + MARGIN + 8);
        (body, at)
    } else {
        // In rows the legend reads left to right from the bottom segment.
        let bottom_first: Vec<(Key, String)> = entries.iter().rev().cloned().collect();
        let (mut at, height) = legend_rows(&bottom_first, legend_top);
        at.reverse();
        (root.margin(legend_top + height + 6, 0, 0, 0), at)
    };
    for ((key, name), at) in entries.iter().zip(&legend_at) {
        draw_key(root, *key, name, *at)?;
    }

    let tick_height = text_height(LABEL_SIZE);
    let x_area = 8 + tick_height + 10 + text_height(AXIS_DESC_SIZE);
    let x_range = -0.5..n as f64 - 0.5;
    let mut plot = ChartBuilder::on(&body)
        .margin_left(MARGIN)
        .margin_right(MARGIN)
        .margin_bottom(MARGIN)
        .margin_top(8)
        .set_label_area_size(LabelAreaPosition::Left, 64)
        .set_label_area_size(LabelAreaPosition::Bottom, x_area)
        .build_cartesian_2d(x_range.clone(), 0.0..100.0)?;
    plot.configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_labels(11)
        .max_light_lines(0)
        .bold_line_style(GRID.stroke_width(1))
        .axis_style(BLACK.stroke_width(1))
        .y_label_formatter(&|v| percent_label(*v))
        .y_desc(chart.y_label.as_str())
        .label_style(font(LABEL_SIZE))
        .axis_desc_style(font(AXIS_DESC_SIZE))
        .draw()?;

    // The segments, each outlined in white so that neighbours stay apart.
    let half = BAR_WIDTH / 2.0;
    let mut bottoms = vec![0.0; n];
    let mut labels = Vec::new();
    for (index, segment) in chart.segments.iter().enumerate() {
        let colour = segment_colour(index);
        for (i, &value) in segment.values.iter().enumerate() {
            if value <= 0.0 {
                continue;
            }
            let c = i as f64;
            let bottom = bottoms[i];
            // Rounding may carry the last sum a hair past 100.
            let top = (bottom + value * 100.0).min(100.0);
            bottoms[i] = top;
            let corners = [(c - half, bottom), (c + half, top)];
            plot.draw_series(std::iter::once(Rectangle::new(corners, colour.filled())))?;
            plot.draw_series(std::iter::once(Rectangle::new(
                corners,
                WHITE.stroke_width(1),
            )))?;
            labels.push((c, (bottom + top) / 2.0, bottom, top, value, colour));
        }
    }
    plot.draw_series(std::iter::once(PathElement::new(
        vec![(x_range.start, 0.0), (x_range.end, 0.0)],
        BLACK.stroke_width(1),
    )))?;
    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));

    // Percentages inside the segments that hold them.
    for (c, middle, bottom, top, value, colour) in labels {
        let text = format!("{:.1}", value * 100.0);
        let (left, low) = pixel(c - half, bottom);
        let (right, high) = pixel(c + half, top);
        let fits_height = low - high >= text_height(SMALL_SIZE) + 2;
        let fits_width = right - left >= text_width(&text, SMALL_SIZE) + 4;
        if fits_height && fits_width {
            let ink = if dark_text_on(colour) { BLACK } else { WHITE };
            root.draw(&Text::new(
                text,
                pixel(c, middle),
                font(SMALL_SIZE)
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
    }

    // Category labels and the x axis description, as in the bar chart.
    let slot = f64::from(plot.plotting_area().dim_in_pixel().0) / n as f64;
    let step = label_step(&chart.categories, slot, LABEL_SIZE);
    let (left, bottom) = pixel(x_range.start, 0.0);
    let (right, _) = pixel(x_range.end, 0.0);
    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64, 0.0).0).collect();
    draw_x_labels(root, &chart.categories, &xs, bottom, step, LABEL_SIZE)?;
    root.draw(&Text::new(
        chart.x_label.clone(),
        ((left + right) / 2, bottom + 8 + tick_height + 10),
        font(AXIS_DESC_SIZE)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(())
}

// ---------------------------------------------------------------------------
// z-score plot.

/// Renders the z-score plot as a standalone SVG document, 900 pixels wide
/// and as tall as its rows of panels need.
///
/// Each panel plots its outcomes in order along x, one point per outcome
/// with a z-score (outcomes without one keep their place and get none):
/// a filled blue circle, a hollow one if the outcome was pooled, and a
/// vermillion triangle if `|z|` exceeds the critical value. Its y
/// range is symmetric about 0, at least ±4, and covers every point and the
/// critical value; the panels of one plot may differ in range. Reference
/// lines: z = 0 (solid), ±2 (grey, dashed) and ± the critical value
/// (vermillion, dashed), all named in the legend under the title. Panels go side by side
/// (up to three) when each panel's outcome labels then all fit; otherwise
/// one per row, with every second, fifth, tenth, ... label shown as room
/// allows (tick marks stay at every outcome).
///
/// Guarantees: deterministic output (the same plot gives the same bytes),
/// no I/O, no fonts needed. Errors: no panel, a panel without outcomes, a
/// z-score that is not finite, or a critical value that is not finite and
/// positive.
pub fn render_z_scores_svg(plot: &ZScorePlot) -> Result<String> {
    validate_z_scores(plot)?;
    let layout = ZLayout::new(plot);
    render_with((WIDTH, layout.height as u32), &plot.title, |root| {
        draw_z_scores(root, plot, &layout)
    })
}

fn validate_z_scores(plot: &ZScorePlot) -> Result<()> {
    if plot.panels.is_empty() {
        return Err(Error::invalid(
            "chart",
            "without panels",
            "needs at least one panel",
        ));
    }
    if let Some(CriticalValue { z, .. }) = plot.critical
        && !(z.is_finite() && z > 0.0)
    {
        return Err(Error::invalid(
            "chart",
            format!("critical value {z}"),
            "must be a finite positive |z|",
        ));
    }
    for (i, panel) in plot.panels.iter().enumerate() {
        let name = if panel.title.is_empty() {
            format!("panel {}", i + 1)
        } else {
            format!("panel \"{}\"", panel.title)
        };
        if panel.points.is_empty() {
            return Err(Error::invalid(
                "chart",
                format!("{name} without outcomes"),
                "needs at least one outcome",
            ));
        }
        if let Some(point) = panel
            .points
            .iter()
            .find(|p| p.z.is_some_and(|z| !z.is_finite()))
        {
            return Err(Error::invalid(
                "chart",
                format!(
                    "{name}, outcome \"{}\": z-score {}",
                    point.label,
                    point.z.unwrap_or_default()
                ),
                "must be finite (leave an undefined z-score out)",
            ));
        }
    }
    Ok(())
}

/// Where the z-score plot's pieces go, in pixels.
struct ZLayout {
    /// The legend entries.
    legend: Vec<(Key, String)>,
    /// Their top-left corners.
    legend_at: Vec<(i32, i32)>,
    /// The first pixel row of the panels.
    top: i32,
    /// Panels side by side.
    columns: usize,
    /// The height of a row of panels.
    row_height: i32,
    /// The width of the y tick labels' area of every panel.
    label_area: i32,
    /// Lines of every panel's heading, with their sizes.
    headings: Vec<Vec<(String, f64)>>,
    /// The height of the panels' headings (of the one with most lines).
    heading_height: i32,
    /// The whole picture's height.
    height: i32,
}

/// Left of the panels: a strip for the y axis description, written once
/// for all of them.
fn y_desc_strip() -> i32 {
    text_height(AXIS_DESC_SIZE) + 10
}

impl ZLayout {
    fn new(plot: &ZScorePlot) -> ZLayout {
        let mut legend = vec![(
            Key::Point(PointKind::Plain),
            "z-score of one outcome".to_string(),
        )];
        if plot
            .panels
            .iter()
            .flat_map(|p| &p.points)
            .any(|p| p.pooled && p.z.is_some())
        {
            legend.push((
                Key::Point(PointKind::Pooled),
                "outcome pooled for the chi-square test (expected count below 5)".to_string(),
            ));
        }
        if let Some(critical) = &plot.critical {
            legend.push((
                Key::Point(PointKind::Beyond),
                format!("beyond ±{:.2}", critical.z),
            ));
        }
        legend.push((
            Key::Line {
                colour: BLACK,
                dashed: false,
            },
            "z = 0".to_string(),
        ));
        legend.push((
            Key::Line {
                colour: NOTE,
                dashed: true,
            },
            "z = ±2".to_string(),
        ));
        if let Some(critical) = &plot.critical {
            let name = match critical.description.as_str() {
                "" => format!("z = ±{:.2}, the critical value", critical.z),
                how => format!("z = ±{:.2}, the critical value ({how})", critical.z),
            };
            legend.push((
                Key::Line {
                    colour: ALARM,
                    dashed: true,
                },
                name,
            ));
        }
        let legend_top = title_bottom(&plot.title);
        let (legend_at, legend_height) = legend_rows(&legend, legend_top);
        let top = legend_top + legend_height + 6;

        // Every panel gets the tick-label area of the widest range.
        let widest_range = plot
            .panels
            .iter()
            .map(|p| z_range(p, z_critical(plot)))
            .fold(MIN_Z_RANGE, f64::max);
        let label_area = text_width(&format!("-{:.0}.5", widest_range.ceil()), SMALL_SIZE) + 12;

        // As many columns as keep every label of every panel.
        let most = plot.panels.len().min(MAX_COLUMNS);
        let columns = (1..=most)
            .rev()
            .find(|&columns| {
                let slot = f64::from(panel_plot_width(columns, label_area));
                plot.panels.iter().all(|panel| {
                    let labels: Vec<String> =
                        panel.points.iter().map(|p| p.label.clone()).collect();
                    label_step(&labels, slot / labels.len() as f64, SMALL_SIZE) == 1
                })
            })
            .unwrap_or(1);
        let rows = plot.panels.len().div_ceil(columns) as i32;
        let row_height = if rows == 1 {
            SINGLE_PANEL_HEIGHT
        } else {
            PANEL_HEIGHT
        };
        let room = panel_plot_width(columns, label_area);
        let headings: Vec<Vec<(String, f64)>> = plot
            .panels
            .iter()
            .map(|p| heading_lines(&p.title, room))
            .collect();
        let lines = headings.iter().map(Vec::len).max().unwrap_or(0) as i32;
        let heading_height = lines * text_height(HEADING_SIZE) + 6;
        let bottom = 10 + text_height(AXIS_DESC_SIZE) + MARGIN;
        ZLayout {
            headings,
            heading_height,
            legend,
            legend_at,
            top,
            columns,
            row_height,
            label_area,
            height: top + rows * row_height + bottom,
        }
    }

    /// The panel at `index`'s top-left pixel and size.
    fn panel(&self, index: usize) -> ((i32, i32), (i32, i32)) {
        let (row, column) = (index / self.columns, index % self.columns);
        let width = panel_width(self.columns);
        let x = MARGIN + y_desc_strip() + column as i32 * (width + PANEL_GAP);
        let y = self.top + row as i32 * self.row_height;
        ((x, y), (width, self.row_height))
    }
}

/// The largest size of a panel's heading.
const HEADING_SIZE: f64 = 13.0;

/// A panel heading's lines and their sizes, to fit `room` pixels: one line
/// at [`HEADING_SIZE`] down to 11 pixels if it fits; else two, split after
/// the first `": "` (the key, then the test), each as large as fits down to
/// 9 pixels. No lines for an empty heading.
fn heading_lines(title: &str, room: i32) -> Vec<(String, f64)> {
    if title.is_empty() {
        return Vec::new();
    }
    let size = fitting_size(title, room, HEADING_SIZE, 11.0);
    let split = title.split_once(": ");
    match split {
        Some((key, rest)) if text_width(title, size) > room => [key, rest]
            .into_iter()
            .map(|line| {
                (
                    line.to_string(),
                    fitting_size(line, room, HEADING_SIZE, 9.0),
                )
            })
            .collect(),
        _ => vec![(
            title.to_string(),
            fitting_size(title, room, HEADING_SIZE, 9.0),
        )],
    }
}

/// The width of one panel when `columns` share the row.
fn panel_width(columns: usize) -> i32 {
    let room = WIDTH as i32 - 2 * MARGIN - y_desc_strip();
    (room - (columns as i32 - 1) * PANEL_GAP) / columns as i32
}

/// The width of a panel's plotting area when `columns` share the row.
fn panel_plot_width(columns: usize, label_area: i32) -> i32 {
    panel_width(columns) - label_area - 8
}

/// The half-height of `panel`'s y range: at least [`MIN_Z_RANGE`], with
/// room above the largest `|z|` and the critical value.
fn z_range(panel: &ZPanel, z_critical: Option<f64>) -> f64 {
    let largest = panel
        .points
        .iter()
        .filter_map(|p| p.z)
        .map(f64::abs)
        .fold(z_critical.unwrap_or(0.0), f64::max);
    (largest * 1.1).max(MIN_Z_RANGE)
}

/// The critical `|z|` of `plot`, if any.
fn z_critical(plot: &ZScorePlot) -> Option<f64> {
    plot.critical.as_ref().map(|c| c.z)
}

/// A y tick label of the z-score plot: whole numbers without decimals,
/// others with at most two, trailing zeros removed.
fn z_label(value: f64) -> String {
    if value.abs() < 5e-3 {
        return "0".to_string();
    }
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn draw_z_scores(root: &Area<'_>, plot: &ZScorePlot, layout: &ZLayout) -> Drawn {
    root.fill(&WHITE)?;
    draw_title(root, &plot.title)?;
    for ((key, name), at) in layout.legend.iter().zip(&layout.legend_at) {
        draw_key(root, *key, name, *at)?;
    }
    for (index, panel) in plot.panels.iter().enumerate() {
        draw_z_panel(root, plot, layout, index, panel)?;
    }

    // The axis descriptions, once for all panels.
    let panels_bottom = layout.height - (10 + text_height(AXIS_DESC_SIZE) + MARGIN);
    let left = MARGIN + y_desc_strip();
    let right = WIDTH as i32 - MARGIN;
    root.draw(&Text::new(
        plot.x_label.clone(),
        ((left + right) / 2, panels_bottom + 10),
        font(AXIS_DESC_SIZE)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    root.draw(&Text::new(
        plot.y_label.clone(),
        (
            MARGIN + text_height(AXIS_DESC_SIZE) / 2,
            (layout.top + panels_bottom) / 2,
        ),
        font(AXIS_DESC_SIZE)
            .color(&BLACK)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(())
}

fn draw_z_panel(
    root: &Area<'_>,
    plot: &ZScorePlot,
    layout: &ZLayout,
    index: usize,
    panel: &ZPanel,
) -> Drawn {
    let ((x, y), (width, height)) = layout.panel(index);
    let area = root.clone().shrink((x, y), (width, height));
    let n = panel.points.len();
    let range = z_range(panel, z_critical(plot));

    // The heading, centred over the plotting area.
    let plot_left = x + layout.label_area;
    let plot_right = x + width - 8;
    for (i, (line, size)) in layout.headings[index].iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (
                (plot_left + plot_right) / 2,
                y + 2 + i as i32 * text_height(HEADING_SIZE),
            ),
            font(*size)
                .style(FontStyle::Bold)
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }

    let tick_area = 8 + text_height(SMALL_SIZE) + 8;
    let x_range = -0.5..n as f64 - 0.5;
    let mut chart = ChartBuilder::on(&area)
        .margin_top(layout.heading_height + 4)
        .margin_right(8)
        .set_label_area_size(LabelAreaPosition::Left, layout.label_area)
        .set_label_area_size(LabelAreaPosition::Bottom, tick_area)
        .build_cartesian_2d(x_range.clone(), -range..range)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .disable_x_axis()
        .y_labels(9)
        .axis_style(BLACK.stroke_width(1))
        .y_label_formatter(&|v| z_label(*v))
        .label_style(font(SMALL_SIZE))
        .draw()?;
    let pixel = |x: f64, y: f64| chart.backend_coord(&(x, y));
    let (left, bottom) = pixel(x_range.start, -range);
    let (right, _) = pixel(x_range.end, -range);

    // Reference lines, the critical value's over the ±2 ones.
    draw_line(root, (left, right), pixel(0.0, 0.0).1, BLACK, false)?;
    for z in [2.0, -2.0] {
        draw_line(root, (left, right), pixel(0.0, z).1, NOTE, true)?;
    }
    if let Some(critical) = z_critical(plot) {
        for z in [critical, -critical] {
            draw_line(root, (left, right), pixel(0.0, z).1, ALARM, true)?;
        }
    }
    root.draw(&PathElement::new(
        vec![(left, bottom), (right, bottom)],
        BLACK.stroke_width(1),
    ))?;

    // The points, the ones beyond the critical value last so that they
    // stay on top.
    let slot = f64::from(right - left) / n as f64;
    let radius = (slot * 0.3).round().clamp(2.0, 4.0) as i32;
    let kind = |point: &ZPoint, z: f64| match z_critical(plot) {
        Some(critical) if z.abs() > critical => PointKind::Beyond,
        _ if point.pooled => PointKind::Pooled,
        _ => PointKind::Plain,
    };
    for beyond in [false, true] {
        for (i, point) in panel.points.iter().enumerate() {
            let Some(z) = point.z else { continue };
            let kind = kind(point, z);
            if (kind == PointKind::Beyond) == beyond {
                draw_point(root, kind, pixel(i as f64, z), radius)?;
            }
        }
    }

    let labels: Vec<String> = panel.points.iter().map(|p| p.label.clone()).collect();
    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64, -range).0).collect();
    let step = label_step(&labels, slot, SMALL_SIZE);
    draw_x_labels(root, &labels, &xs, bottom, step, SMALL_SIZE)?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Small multiples: one bar panel per distribution.

/// Renders the small multiples as a standalone SVG document, 900 pixels
/// wide and as tall as its rows of panels need.
///
/// Layout: the title (wrapped when long) and a legend line under it (the
/// bars, named by [`PanelChart::bars_name`], and, when any panel has
/// intervals, the error bars), then the panels in reading order, two side
/// by side (one per row when a panel's text labels would not fit half the
/// width, or when there is a single panel). Every panel has its heading,
/// its own y axis in percent from 0 to a little above its largest value
/// or interval end (so a panel of small probabilities is not flattened by
/// its neighbours), described by [`PanelChart::y_label`], and its
/// categories along x. Labels that are all numbers are thinned to every
/// 2nd, 5th, 10th, ... when crowded (every category keeps a tick mark);
/// text labels are wrapped onto two lines at a space first, and thinned
/// only if even one panel per row cannot hold them.
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors: no panel, a panel without categories,
/// a panel without exactly one value (and, if given, one interval) per
/// category, a value outside `[0, 1]`, or an interval that is not `0 <=
/// low <= high <= 1`; the message names the panel and category.
pub fn render_panels_svg(chart: &PanelChart) -> Result<String> {
    validate_panels(chart)?;
    let layout = PanelLayout::new(chart);
    render_with((WIDTH, layout.height as u32), &chart.title, |root| {
        draw_panels(root, chart, &layout)
    })
}

fn validate_panels(chart: &PanelChart) -> Result<()> {
    if chart.panels.is_empty() {
        return Err(Error::invalid(
            "chart",
            "without panels",
            "needs at least one panel",
        ));
    }
    for (i, panel) in chart.panels.iter().enumerate() {
        let name = if panel.title.is_empty() {
            format!("panel {}", i + 1)
        } else {
            format!("panel \"{}\"", panel.title)
        };
        if panel.categories.is_empty() {
            return Err(Error::invalid(
                "chart",
                format!("{name} without categories"),
                "needs at least one category",
            ));
        }
        validate_bars(
            &name,
            &panel.categories,
            &panel.values,
            panel.intervals.as_deref(),
        )?;
    }
    Ok(())
}

/// The most panels side by side in a [`PanelChart`].
const PANEL_COLUMNS: usize = 2;
/// Height of a bar panel's plotting area, in pixels.
const PANEL_PLOT_HEIGHT: i32 = 170;
/// Vertical room between rows of bar panels, in pixels.
const PANEL_ROW_GAP: i32 = 14;
/// The widest bar of a panel with few categories, in pixels.
const WIDEST_BAR: f64 = 56.0;

/// Where the small multiples' pieces go, in pixels.
struct PanelLayout {
    /// The legend entries and their top-left corners.
    legend: Vec<(Key, String)>,
    legend_at: Vec<(i32, i32)>,
    /// The first pixel row of the panels.
    top: i32,
    /// Panels side by side.
    columns: usize,
    /// The height of a row of panels, its gap included.
    row_height: i32,
    /// The width of every panel's y axis area (description and ticks).
    label_area: i32,
    /// Lines of every panel's heading, with their sizes.
    headings: Vec<Vec<(String, f64)>>,
    /// The height of the panels' headings (of the one with most lines).
    heading_height: i32,
    /// Every panel's x labels, each as its lines (see [`x_label_lines`]).
    labels: Vec<XLabels>,
    /// The height under a panel's x axis for its labels.
    tick_area: i32,
    /// The whole picture's height.
    height: i32,
}

impl PanelLayout {
    fn new(chart: &PanelChart) -> PanelLayout {
        let mut legend = vec![(Key::Bar, chart.bars_name.clone())];
        if chart.panels.iter().any(|p| p.intervals.is_some()) {
            legend.push((Key::ErrorBar, "95% interval".to_string()));
        }
        let legend_top = title_bottom(&chart.title);
        let (legend_at, legend_height) = legend_rows(&legend, legend_top);
        let top = legend_top + legend_height + 6;

        // Room for the y description and the widest plausible tick label.
        let label_area = text_height(SMALL_SIZE) + 6 + text_width("00.005", SMALL_SIZE) + 8;

        // Two columns unless some panel's text labels would then be
        // thinned; numbers may be.
        let most = chart.panels.len().min(PANEL_COLUMNS);
        let labels_at = |columns: usize| -> Vec<XLabels> {
            let room = f64::from(panel_width_of(columns) - label_area - 8);
            chart
                .panels
                .iter()
                .map(|panel| {
                    let slot = room / panel.categories.len() as f64;
                    x_label_lines(&panel.categories, slot)
                })
                .collect()
        };
        let columns = (1..=most)
            .rev()
            .find(|&columns| {
                labels_at(columns)
                    .iter()
                    .zip(&chart.panels)
                    .all(|(labels, panel)| labels.step == 1 || all_numbers(&panel.categories))
            })
            .unwrap_or(1);
        let labels = labels_at(columns);
        let most_lines = labels
            .iter()
            .flat_map(|labels| labels.lines.iter().map(Vec::len))
            .max()
            .unwrap_or(1) as i32;
        let tick_area = 8 + most_lines * text_height(SMALL_SIZE) + 4;

        let room = panel_width_of(columns) - label_area - 8;
        let headings: Vec<Vec<(String, f64)>> = chart
            .panels
            .iter()
            .map(|p| heading_lines(&p.title, room))
            .collect();
        let lines = headings.iter().map(Vec::len).max().unwrap_or(0) as i32;
        let heading_height = lines * text_height(HEADING_SIZE) + 6;
        let row_height = heading_height + 4 + PANEL_PLOT_HEIGHT + tick_area + PANEL_ROW_GAP;
        let rows = chart.panels.len().div_ceil(columns) as i32;
        PanelLayout {
            legend,
            legend_at,
            top,
            columns,
            row_height,
            label_area,
            headings,
            heading_height,
            labels,
            tick_area,
            height: top + rows * row_height - PANEL_ROW_GAP + MARGIN,
        }
    }

    /// The panel at `index`'s top-left pixel and size (its gap below
    /// excluded).
    fn panel(&self, index: usize) -> ((i32, i32), (i32, i32)) {
        let (row, column) = (index / self.columns, index % self.columns);
        let width = panel_width_of(self.columns);
        let x = MARGIN + column as i32 * (width + PANEL_GAP);
        let y = self.top + row as i32 * self.row_height;
        ((x, y), (width, self.row_height - PANEL_ROW_GAP))
    }
}

/// The width of one bar panel when `columns` share the row.
fn panel_width_of(columns: usize) -> i32 {
    let room = WIDTH as i32 - 2 * MARGIN;
    (room - (columns as i32 - 1) * PANEL_GAP) / columns as i32
}

/// Whether every label reads as a number (an axis a reader can follow
/// with some labels left out).
fn all_numbers(labels: &[String]) -> bool {
    labels
        .iter()
        .all(|label| label.trim().parse::<f64>().is_ok())
}

/// A bar panel's x labels, laid out.
struct XLabels {
    /// Every label as its lines.
    lines: Vec<Vec<String>>,
    /// Every `step`-th label is shown...
    step: usize,
    /// ... from this one.
    first: usize,
}

impl XLabels {
    /// Whether label `index` is shown.
    fn shown(&self, index: usize) -> bool {
        index >= self.first && (index - self.first).is_multiple_of(self.step)
    }
}

/// The x labels of a panel whose categories are `slot` pixels apart, each
/// as its lines at [`SMALL_SIZE`], and which of them are shown: every one
/// when they fit, else every `step`-th (see [`label_step`]), from the
/// first whole number that is a multiple of the step (so `5, 10, 15`, not
/// `1, 6, 11`) if there is one among the first `step`, else from the
/// first. A text label too wide for its slot is split at the space that
/// best balances two lines; numbers stay whole.
fn x_label_lines(labels: &[String], slot: f64) -> XLabels {
    let lines: Vec<Vec<String>> = labels
        .iter()
        .map(|label| {
            let too_wide = f64::from(text_width(label, SMALL_SIZE)) + LABEL_GAP > slot;
            if !too_wide || all_numbers(std::slice::from_ref(label)) {
                return vec![label.clone()];
            }
            label
                .match_indices(' ')
                .map(|(at, _)| (label[..at].trim_end(), label[at..].trim_start()))
                .min_by_key(|(first, second)| {
                    text_width(first, SMALL_SIZE).max(text_width(second, SMALL_SIZE))
                })
                .map_or_else(
                    || vec![label.clone()],
                    |(first, second)| vec![first.to_string(), second.to_string()],
                )
        })
        .collect();
    let widest: Vec<String> = lines
        .iter()
        .map(|lines| {
            lines
                .iter()
                .max_by_key(|line| text_width(line, SMALL_SIZE))
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    let step = label_step(&widest, slot, SMALL_SIZE);
    let first = labels
        .iter()
        .take(step)
        .position(|label| {
            label
                .trim()
                .parse::<i64>()
                .is_ok_and(|number| number.rem_euclid(step as i64) == 0)
        })
        .unwrap_or(0);
    XLabels { lines, step, first }
}

fn draw_panels(root: &Area<'_>, chart: &PanelChart, layout: &PanelLayout) -> Drawn {
    root.fill(&WHITE)?;
    draw_title(root, &chart.title)?;
    for ((key, name), at) in layout.legend.iter().zip(&layout.legend_at) {
        draw_key(root, *key, name, *at)?;
    }
    for (index, panel) in chart.panels.iter().enumerate() {
        draw_bar_panel(root, chart, layout, index, panel)?;
    }
    Ok(())
}

fn draw_bar_panel(
    root: &Area<'_>,
    chart: &PanelChart,
    layout: &PanelLayout,
    index: usize,
    panel: &BarPanel,
) -> Drawn {
    let ((x, y), (width, height)) = layout.panel(index);
    let area = root.clone().shrink((x, y), (width, height));
    let n = panel.categories.len();

    // The heading, centred over the plotting area.
    let plot_left = x + layout.label_area;
    let plot_right = x + width - 8;
    for (i, (line, size)) in layout.headings[index].iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (
                (plot_left + plot_right) / 2,
                y + 2 + i as i32 * text_height(HEADING_SIZE),
            ),
            font(*size)
                .style(FontStyle::Bold)
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }

    // The panel's own y range, in percent.
    let y_max = panel
        .values
        .iter()
        .copied()
        .chain(panel.intervals.iter().flatten().map(|&(_, high)| high))
        .fold(0.0, f64::max)
        * 100.0;
    let y_top = if y_max > 0.0 { y_max * 1.08 } else { 1.0 };
    let x_range = -0.5..n as f64 - 0.5;
    let mut plot = ChartBuilder::on(&area)
        .margin_top(layout.heading_height + 4)
        .margin_right(8)
        .set_label_area_size(LabelAreaPosition::Left, layout.label_area)
        .set_label_area_size(LabelAreaPosition::Bottom, layout.tick_area)
        .build_cartesian_2d(x_range.clone(), 0.0..y_top)?;
    plot.configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_labels(5)
        .max_light_lines(0)
        .bold_line_style(GRID.stroke_width(1))
        .axis_style(BLACK.stroke_width(1))
        .y_label_formatter(&|v| percent_label(*v))
        .label_style(font(SMALL_SIZE))
        .draw()?;
    // Bars, at most `WIDEST_BAR` pixels wide, outlined.
    let slot = f64::from(plot.plotting_area().dim_in_pixel().0) / n as f64;
    let half = (BAR_WIDTH / 2.0).min(WIDEST_BAR / 2.0 / slot);
    for style in [BAR_FILL.filled(), BAR_EDGE.stroke_width(1)] {
        plot.draw_series(panel.values.iter().enumerate().map(|(i, v)| {
            let c = i as f64;
            Rectangle::new([(c - half, 0.0), (c + half, v * 100.0)], style)
        }))?;
    }
    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));
    let (left, bottom) = pixel(x_range.start, 0.0);
    let (right, top) = pixel(x_range.end, y_top);
    root.draw(&PathElement::new(
        vec![(left, bottom), (right, bottom)],
        BLACK.stroke_width(1),
    ))?;

    // The y description, beside the tick labels.
    root.draw(&Text::new(
        chart.y_label.clone(),
        (x + text_height(SMALL_SIZE) / 2, (top + bottom) / 2),
        font(SMALL_SIZE)
            .color(&BLACK)
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;

    // Error bars, on the root so that caps at the top are not clipped.
    if let Some(intervals) = &panel.intervals {
        let cap = (slot * 0.12).round().clamp(1.0, 5.0) as i32;
        for (i, &(low, high)) in intervals.iter().enumerate() {
            let (px, high) = pixel(i as f64, high * 100.0);
            let (_, low) = pixel(i as f64, low * 100.0);
            draw_error_bar(root, px, (high, low), cap, NOTE.stroke_width(1))?;
        }
    }

    // Category labels: ticks at every one, labels as room allows, each
    // line under the last.
    let labels = &layout.labels[index];
    let tick_font = font(SMALL_SIZE)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, label) in labels.lines.iter().enumerate() {
        let (px, _) = pixel(i as f64, 0.0);
        let shown = labels.shown(i);
        root.draw(&PathElement::new(
            vec![(px, bottom), (px, bottom + if shown { 5 } else { 3 })],
            BLACK.stroke_width(1),
        ))?;
        if shown {
            for (k, line) in label.iter().enumerate() {
                root.draw(&Text::new(
                    line.clone(),
                    (px, bottom + 8 + k as i32 * text_height(SMALL_SIZE)),
                    tick_font.clone(),
                ))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The contents of every `<text>` element, trimmed (the backend puts
    /// them on lines of their own), with XML entities left as written.
    /// Shared with the tests of `figures`.
    pub(crate) fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text")
            .skip(1)
            .filter_map(|element| {
                let (_, rest) = element.split_once('>')?;
                let (content, _) = rest.split_once("</text>")?;
                Some(content.trim())
            })
            .collect()
    }

    fn has_text(svg: &str, text: &str) -> bool {
        texts(svg).contains(&text)
    }

    /// The category labels under the x axis: the texts hung from their top
    /// at the label size (the y tick labels are anchored at their end).
    fn x_tick_labels(svg: &str) -> Vec<&str> {
        let attributes =
            r#"dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="14""#;
        svg.split("<text")
            .skip(1)
            .filter(|element| element.contains(attributes))
            .filter_map(|element| {
                let (_, rest) = element.split_once('>')?;
                let (content, _) = rest.split_once("</text>")?;
                Some(content.trim())
            })
            .collect()
    }

    fn small_chart() -> BarChart {
        BarChart {
            title: "Cards left at the end".to_string(),
            x_label: "cards left".to_string(),
            y_label: "percent of games".to_string(),
            categories: vec!["0".to_string(), "2".to_string(), "4".to_string()],
            series: vec![
                Series {
                    name: "deckodds, uniform shuffle (1,000 games)".to_string(),
                    values: vec![0.2, 0.5, 0.3],
                    intervals: Some(vec![(0.18, 0.23), (0.47, 0.53), (0.27, 0.33)]),
                },
                Series {
                    name: "published table".to_string(),
                    values: vec![0.25, 0.45, 0.3],
                    intervals: None,
                },
            ],
        }
    }

    /// 27 categories 0, 2, ..., 52 and two plausible distributions.
    fn cards_left_chart() -> BarChart {
        let categories: Vec<String> = (0..27).map(|i| (2 * i).to_string()).collect();
        let shape = |i: usize, peak: f64| {
            let x = i as f64;
            (-(x - peak).powi(2) / 18.0).exp() + if i == 0 { 0.4 } else { 0.0 }
        };
        let normalise = |raw: Vec<f64>| {
            let sum: f64 = raw.iter().sum();
            raw.into_iter().map(|v| v / sum).collect::<Vec<f64>>()
        };
        let ours = normalise((0..27).map(|i| shape(i, 6.0)).collect());
        let theirs = normalise((0..27).map(|i| shape(i, 6.6)).collect());
        let intervals = ours
            .iter()
            .map(|&p| {
                let h = 1.96 * (p * (1.0 - p) / 1_000_000.0).sqrt() * 20.0;
                ((p - h).max(0.0), (p + h).min(1.0))
            })
            .collect();
        BarChart {
            title: "Idiot's Delight: cards left at the end of the game".to_string(),
            x_label: "cards left".to_string(),
            y_label: "percent of games".to_string(),
            categories,
            series: vec![
                Series {
                    name: "deckodds, uniform shuffle (1,000,000 games)".to_string(),
                    values: ours,
                    intervals: Some(intervals),
                },
                Series {
                    name: "published table (Smith 1998)".to_string(),
                    values: theirs,
                    intervals: None,
                },
            ],
        }
    }

    #[test]
    fn renders_title_categories_and_legend() {
        let chart = small_chart();
        let svg = render_svg(&chart).unwrap();
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
        assert!(has_text(&svg, "Cards left at the end"), "{svg}");
        assert_eq!(x_tick_labels(&svg), ["0", "2", "4"], "{svg}");
        for text in [
            "deckodds, uniform shuffle (1,000 games)",
            "published table",
            "95% intervals",
            "cards left",
            "percent of games",
        ] {
            assert!(has_text(&svg, text), "{text} in {svg}");
        }
        assert!(svg.contains(r#"width="900" height="500""#), "{svg}");
    }

    #[test]
    fn output_is_deterministic() {
        for chart in [small_chart(), cards_left_chart()] {
            assert_eq!(render_svg(&chart).unwrap(), render_svg(&chart).unwrap());
        }
    }

    #[test]
    fn needs_no_font_files() {
        // Text is left to the viewer: plain <text> elements, no glyph paths
        // and no embedded or linked font.
        let svg = render_svg(&cards_left_chart()).unwrap();
        assert!(svg.contains(r#"font-family="sans-serif""#));
        assert!(!svg.contains("@font-face") && !svg.contains("<font"));
    }

    #[test]
    fn text_is_escaped() {
        let mut chart = small_chart();
        chart.title = "hearts < spades & <b>clubs</b>".to_string();
        let svg = render_svg(&chart).unwrap();
        assert!(has_text(
            &svg,
            "hearts &lt; spades &amp; &lt;b&gt;clubs&lt;/b&gt;"
        ));
        assert!(!svg.contains("<b>"));
    }

    #[test]
    fn all_labels_shown_when_they_fit_else_every_other() {
        let chart = cards_left_chart();
        let svg = render_svg(&chart).unwrap();
        assert_eq!(x_tick_labels(&svg), chart.categories);
        let mut crowded = chart.clone();
        crowded.categories = (0..80).map(|i| format!("{}", 1000 + i)).collect();
        for series in &mut crowded.series {
            series.values = vec![1.0 / 80.0; 80];
            series.intervals = None;
        }
        let svg = render_svg(&crowded).unwrap();
        let shown = x_tick_labels(&svg);
        assert_eq!(shown.first(), Some(&"1000"), "{shown:?}");
        assert!(!shown.contains(&"1001"), "{shown:?}");
        assert!(shown.len() >= 10, "{shown:?}");
    }

    #[test]
    fn overlays_and_error_bars_are_drawn() {
        let svg = render_svg(&small_chart()).unwrap();
        // Vermillion for the overlay, blue for the bars' error bars.
        assert!(svg.contains("#D55E00"), "{svg}");
        assert!(svg.contains("#0072B2"), "{svg}");
        assert!(svg.contains("#56B4E9"), "{svg}");
    }

    #[test]
    fn mismatched_lengths_are_named() {
        let mut chart = small_chart();
        chart.series[1].values.pop();
        let message = render_svg(&chart).unwrap_err().to_string();
        assert_eq!(
            message,
            "chart series \"published table\" has 2 values for 3 categories: \
             needs one value per category"
        );

        let mut chart = small_chart();
        chart.series[0].intervals.as_mut().unwrap().push((0.0, 1.0));
        let message = render_svg(&chart).unwrap_err().to_string();
        assert!(
            message.contains("has 4 intervals for 3 categories"),
            "{message}"
        );
    }

    #[test]
    fn empty_and_invalid_input_is_refused() {
        let mut chart = small_chart();
        chart.categories.clear();
        for series in &mut chart.series {
            series.values.clear();
            series.intervals = None;
        }
        let message = render_svg(&chart).unwrap_err().to_string();
        assert!(message.contains("at least one category"), "{message}");

        let mut chart = small_chart();
        chart.series.clear();
        let message = render_svg(&chart).unwrap_err().to_string();
        assert!(message.contains("at least one series"), "{message}");

        for bad in [f64::NAN, -0.1, 1.5, f64::INFINITY] {
            let mut chart = small_chart();
            chart.series[1].values[2] = bad;
            let message = render_svg(&chart).unwrap_err().to_string();
            assert!(message.contains("category \"4\""), "{message}");
            assert!(message.contains("probability"), "{message}");
        }

        let mut chart = small_chart();
        chart.series[0].intervals.as_mut().unwrap()[1] = (0.6, 0.4);
        let message = render_svg(&chart).unwrap_err().to_string();
        assert!(message.contains("interval [0.6, 0.4]"), "{message}");
    }

    #[test]
    fn edge_cases_render() {
        // All zero, a single category, many overlays, a very long title.
        let mut chart = small_chart();
        chart.title = "x".repeat(300);
        chart.categories = vec!["only".to_string()];
        chart.series = (0..8)
            .map(|i| Series {
                name: format!("series {i} with a fairly long legend name"),
                values: vec![0.0],
                intervals: (i % 2 == 0).then(|| vec![(0.0, 0.0)]),
            })
            .collect();
        let svg = render_svg(&chart).unwrap();
        assert_eq!(x_tick_labels(&svg), ["only"]);
        assert!(has_text(&svg, "series 7 with a fairly long legend name"));
    }

    #[test]
    fn y_labels_are_trimmed_percentages() {
        assert_eq!(percent_label(0.0), "0");
        assert_eq!(percent_label(-0.0), "0");
        assert_eq!(percent_label(12.0), "12");
        assert_eq!(percent_label(2.5), "2.5");
        assert_eq!(percent_label(0.30000000000000004), "0.3");
    }
    // -----------------------------------------------------------------------
    // Stacked bar chart.

    fn dealer_like_chart() -> StackedBarChart {
        let segment = |name: &str, values: [f64; 3]| Segment {
            name: name.to_string(),
            values: values.to_vec(),
        };
        StackedBarChart {
            title: "Blackjack dealer: final hand by upcard".to_string(),
            x_label: "dealer's upcard".to_string(),
            y_label: "percent of hands".to_string(),
            categories: vec!["2".to_string(), "10".to_string(), "A".to_string()],
            segments: vec![
                segment("bust", [0.35, 0.21, 0.116]),
                segment("17", [0.14, 0.11, 0.128]),
                segment("18+", [0.51, 0.602, 0.446]),
                segment("natural", [0.0, 0.078, 0.31]),
            ],
        }
    }

    /// The fill colours of the `<rect>` elements, in document order.
    fn rect_fills(svg: &str) -> Vec<&str> {
        svg.split("<rect")
            .skip(1)
            .filter_map(|element| {
                let (_, rest) = element.split_once(r#"fill=""#)?;
                Some(rest.split_once('"')?.0)
            })
            .collect()
    }

    #[test]
    fn stacked_bars_show_legend_segments_and_percentages() {
        let chart = dealer_like_chart();
        let svg = render_stacked_svg(&chart).unwrap();
        for text in [
            "Blackjack dealer: final hand by upcard",
            "dealer&apos;s upcard",
            "percent of hands",
            "bust",
            "17",
            "18+",
            "natural",
            "100",
        ] {
            assert!(has_text(&svg, text), "{text} in {svg}");
        }
        assert_eq!(x_tick_labels(&svg), ["2", "10", "A"], "{svg}");
        // Percentages inside the segments tall enough: all but the 7.8%
        // natural and the... every one here is tall enough.
        for text in ["35.0", "14.0", "51.0", "7.8", "31.0", "11.6"] {
            assert!(has_text(&svg, text), "{text} in {svg}");
        }
        // The legend lists the top of the stack first.
        let position = |text: &str| svg.find(&format!(">\n{text}\n<")).unwrap_or(usize::MAX);
        assert!(position("natural") < position("18+"), "{svg}");
        assert!(position("18+") < position("bust"), "{svg}");
        // One filled rectangle per nonzero segment (11), plus the
        // background and four legend swatches; zero segments are not drawn.
        let fills = rect_fills(&svg);
        let filled = fills.iter().filter(|f| **f != "none").count();
        assert_eq!(filled, 1 + 4 + 11, "{fills:?}");
    }

    #[test]
    fn small_segments_go_unlabelled() {
        let mut chart = dealer_like_chart();
        chart.segments[1].values[0] = 0.01;
        chart.segments[2].values[0] = 0.64;
        let svg = render_stacked_svg(&chart).unwrap();
        assert!(!has_text(&svg, "1.0"), "{svg}");
        assert!(has_text(&svg, "64.0"), "{svg}");
    }

    #[test]
    fn stacked_output_is_deterministic() {
        let chart = dealer_like_chart();
        assert_eq!(
            render_stacked_svg(&chart).unwrap(),
            render_stacked_svg(&chart).unwrap()
        );
    }

    /// The `x` and `y` of the `<text>` element showing `text`.
    fn text_at(svg: &str, text: &str) -> (i32, i32) {
        let element = svg
            .split("<text")
            .find(|element| element.contains(&format!(">\n{text}\n<")))
            .unwrap_or_else(|| panic!("{text} in {svg}"));
        let number = |name: &str| {
            let (_, rest) = element.split_once(&format!(" {name}=\"")).unwrap();
            rest.split_once('"').unwrap().0.parse().unwrap()
        };
        (number("x"), number("y"))
    }

    #[test]
    fn legends_read_like_the_stack() {
        // In a column, the top of the stack first.
        let svg = render_stacked_svg(&dealer_like_chart()).unwrap();
        let (x, y) = text_at(&svg, "natural");
        assert_eq!(text_at(&svg, "18+"), (x, y + LEGEND_ROW), "{svg}");
        assert_eq!(text_at(&svg, "bust"), (x, y + 3 * LEGEND_ROW), "{svg}");

        // In a row, the bottom of the stack first.
        let mut chart = dealer_like_chart();
        chart.segments[0].name = "the dealer busts, going over 21 points".to_string();
        let svg = render_stacked_svg(&chart).unwrap();
        let (x, y) = text_at(&svg, "the dealer busts, going over 21 points");
        let (natural_x, natural_y) = text_at(&svg, "natural");
        assert!(x < natural_x && y == natural_y, "{svg}");
    }

    #[test]
    fn stacked_input_is_validated() {
        let check = |change: &dyn Fn(&mut StackedBarChart), expected: &str| {
            let mut chart = dealer_like_chart();
            change(&mut chart);
            let message = render_stacked_svg(&chart).unwrap_err().to_string();
            assert_eq!(message, expected);
        };
        check(
            &|c| {
                c.categories.clear();
                c.segments.iter_mut().for_each(|s| s.values.clear());
            },
            "chart without categories: needs at least one category",
        );
        check(
            &|c| c.segments.clear(),
            "chart without segments: needs at least one segment",
        );
        check(
            &|c| {
                c.segments[1].values.pop();
            },
            "chart segment \"17\" has 2 values for 3 categories: needs one value per category",
        );
        check(
            &|c| c.segments[3].values[0] = -0.0625,
            "chart segment \"natural\", category \"2\": value -0.0625: \
             must be a probability in [0, 1]",
        );
        check(
            &|c| c.segments[3].values[0] = f64::NAN,
            "chart segment \"natural\", category \"2\": value NaN: \
             must be a probability in [0, 1]",
        );
        check(
            &|c| c.segments[3].values[2] = 0.25,
            "chart category \"A\": segments sum to 0.94: must sum to 1 (within 1e-9)",
        );
        // Rounding noise well within 1e-9 is accepted.
        let mut chart = dealer_like_chart();
        chart.segments[0].values[0] += 1e-12;
        assert!(render_stacked_svg(&chart).is_ok());
    }

    #[test]
    fn text_colour_follows_contrast() {
        assert!(!dark_text_on(RGBColor(0x00, 0x72, 0xB2)));
        assert!(!dark_text_on(RGBColor(0, 0, 0)));
        assert!(dark_text_on(RGBColor(0xF0, 0xE4, 0x42)));
        assert!(dark_text_on(RGBColor(0xE6, 0x9F, 0x00)));
    }

    // -----------------------------------------------------------------------
    // z-score plot.

    fn points(labels_and_z: &[(&str, Option<f64>)]) -> Vec<ZPoint> {
        labels_and_z
            .iter()
            .map(|&(label, z)| ZPoint {
                label: label.to_string(),
                z,
                pooled: false,
            })
            .collect()
    }

    fn z_plot() -> ZScorePlot {
        ZScorePlot {
            title: "Roll-Call: Monte Carlo vs exact".to_string(),
            x_label: "outcome".to_string(),
            y_label: "z = (observed - expected) / standard error".to_string(),
            critical: None,
            panels: vec![
                ZPanel {
                    title: "K=1: χ² = 3.10, df 3, p = 0.3765: agree".to_string(),
                    points: points(&[
                        ("0", Some(0.5)),
                        ("1", Some(-1.25)),
                        ("2", None),
                        ("3", Some(2.5)),
                    ]),
                },
                ZPanel {
                    title: "passes".to_string(),
                    points: points(&[("1", Some(-9.0)), ("2", Some(9.0))]),
                },
            ],
        }
    }

    /// The number of `<circle` elements filled with `colour`.
    fn circles(svg: &str, colour: &str) -> usize {
        svg.split("<circle")
            .skip(1)
            .filter(|element| element.contains(&format!(r#"fill="{colour}""#)))
            .count()
    }

    #[test]
    fn z_scores_show_points_lines_and_legend() {
        let plot = z_plot();
        let svg = render_z_scores_svg(&plot).unwrap();
        for text in [
            "Roll-Call: Monte Carlo vs exact",
            "K=1: χ² = 3.10, df 3, p = 0.3765: agree",
            "passes",
            "outcome",
            "z = (observed - expected) / standard error",
            "z-score of one outcome",
            "z = 0",
            "z = ±2",
        ] {
            assert!(has_text(&svg, text), "{text} in {svg}");
        }
        assert!(!has_text(&svg, "beyond ±2.50"), "{svg}");
        // Five points with a z, plus the legend's; the undefined one skipped.
        assert_eq!(circles(&svg, "#0072B2"), 5 + 1, "{svg}");
        assert!(!svg.contains("<polygon"), "{svg}");
        assert_eq!(render_z_scores_svg(&plot).unwrap(), svg);
    }

    #[test]
    fn points_beyond_the_critical_value_stand_out() {
        let mut plot = z_plot();
        plot.critical = Some(CriticalValue {
            z: 2.4,
            description: "Bonferroni over 5 cells, level 0.05".to_string(),
        });
        plot.panels[0].points[0].pooled = true;
        let svg = render_z_scores_svg(&plot).unwrap();
        for text in [
            "beyond ±2.40",
            "z = ±2.40, the critical value (Bonferroni over 5 cells, level 0.05)",
            "outcome pooled for the chi-square test (expected count below 5)",
        ] {
            assert!(has_text(&svg, text), "{text} in {svg}");
        }
        // 2.5, -9 and 9 are beyond: three triangles and the legend's.
        assert_eq!(svg.matches("<polygon").count(), 3 + 1, "{svg}");
        // -1.25 alone stays a plain point (the pooled 0.5 is hollow).
        assert_eq!(circles(&svg, "#0072B2"), 1 + 1, "{svg}");
        assert_eq!(circles(&svg, "#FFFFFF"), 1 + 1, "{svg}");
    }

    #[test]
    fn z_ranges_are_symmetric_at_least_four_and_cover_everything() {
        let panel = |zs: &[Option<f64>]| ZPanel {
            title: String::new(),
            points: zs
                .iter()
                .map(|&z| ZPoint {
                    label: "x".to_string(),
                    z,
                    pooled: false,
                })
                .collect(),
        };
        assert_eq!(z_range(&panel(&[Some(0.5), None]), None), 4.0);
        assert_eq!(z_range(&panel(&[None]), None), 4.0);
        assert!(z_range(&panel(&[Some(-1388.5), Some(3.0)]), None) > 1388.5);
        assert!(z_range(&panel(&[Some(1.0)]), Some(5.2)) > 5.2);
    }

    #[test]
    fn many_outcomes_get_thinned_labels() {
        let mut plot = z_plot();
        plot.panels = vec![ZPanel {
            title: String::new(),
            points: (0..53)
                .map(|i| ZPoint {
                    label: i.to_string(),
                    z: Some(f64::from(i % 7) - 3.0),
                    pooled: false,
                })
                .collect(),
        }];
        let svg = render_z_scores_svg(&plot).unwrap();
        let tick = r#"dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="12""#;
        let shown: Vec<&str> = svg
            .split("<text")
            .filter(|element| element.contains(tick))
            .filter_map(|element| Some(element.split_once('>')?.1.split_once('<')?.0.trim()))
            .collect();
        let every_second: Vec<String> = (0..53).step_by(2).map(|i| i.to_string()).collect();
        assert_eq!(shown, every_second);
        assert_eq!(circles(&svg, "#0072B2"), 53 + 1);
    }

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
    fn panels_go_side_by_side_when_their_labels_fit() {
        let outcomes = ["bust", "17", "18", "19", "20", "21", "natural"];
        let mut plot = z_plot();
        plot.panels = (0..10)
            .map(|i| ZPanel {
                title: format!("upcard={i}"),
                points: points(&outcomes.map(|o| (o, Some(1.0)))),
            })
            .collect();
        let layout = ZLayout::new(&plot);
        assert_eq!(layout.columns, 2);
        assert_eq!(
            layout.height,
            layout.top + 5 * PANEL_HEIGHT + 10 + 20 + MARGIN
        );
        // Fifty-three outcomes need a whole row.
        plot.panels[3].points = (0..53)
            .map(|i| ZPoint {
                label: i.to_string(),
                z: None,
                pooled: false,
            })
            .collect();
        assert_eq!(ZLayout::new(&plot).columns, 1);
    }

    #[test]
    fn long_titles_and_headings_wrap() {
        let (size, lines) = title_lines(&"word ".repeat(60));
        assert_eq!(size, WRAPPED_TITLE_SIZE);
        assert_eq!(lines.len(), 4, "{lines:?}");
        let room = WIDTH as i32 - 2 * MARGIN;
        assert!(lines.iter().all(|l| text_width(l, size) <= room));
        // Balanced: no stray last word.
        let (_, lines) = title_lines(&format!("{} end", "word ".repeat(21).trim()));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].len() > 40, "{lines:?}");
        let (_, lines) = title_lines("short");
        assert_eq!(lines, ["short"]);
        let heading = heading_lines(
            "P(win), stack move reversed: χ² = 0.89, df 1, p = 0.3463: agree",
            300,
        );
        let texts: Vec<&str> = heading.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "P(win), stack move reversed",
                "χ² = 0.89, df 1, p = 0.3463: agree"
            ]
        );
        assert!(heading_lines("", 300).is_empty());
    }

    #[test]
    fn z_input_is_validated() {
        let check = |change: &dyn Fn(&mut ZScorePlot), expected: &str| {
            let mut plot = z_plot();
            change(&mut plot);
            let message = render_z_scores_svg(&plot).unwrap_err().to_string();
            assert_eq!(message, expected);
        };
        check(
            &|p| p.panels.clear(),
            "chart without panels: needs at least one panel",
        );
        check(
            &|p| p.panels[1].points.clear(),
            "chart panel \"passes\" without outcomes: needs at least one outcome",
        );
        check(
            &|p| {
                p.panels[1].title.clear();
                p.panels[1].points[1].z = Some(f64::INFINITY);
            },
            "chart panel 2, outcome \"2\": z-score inf: \
             must be finite (leave an undefined z-score out)",
        );
        for bad in [0.0, -1.0, f64::NAN] {
            check(
                &|p| {
                    p.critical = Some(CriticalValue {
                        z: bad,
                        description: String::new(),
                    })
                },
                &format!("chart critical value {bad}: must be a finite positive |z|"),
            );
        }
    }

    fn bar_panel(title: &str, categories: &[&str], values: &[f64]) -> BarPanel {
        BarPanel {
            title: title.to_string(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            values: values.to_vec(),
            intervals: Some(
                values
                    .iter()
                    .map(|&v| ((v - 0.01).max(0.0), (v + 0.01).min(1.0)))
                    .collect(),
            ),
        }
    }

    fn panel_chart() -> PanelChart {
        let numbers: Vec<String> = (0..53).map(|i| i.to_string()).collect();
        let numbers: Vec<&str> = numbers.iter().map(String::as_str).collect();
        let spread: Vec<f64> = (0..53).map(|i| if i < 10 { 0.1 } else { 0.0 }).collect();
        PanelChart {
            title: "Roll-Call (ranks 13; Monte Carlo, 1,000 games, seed 1)".to_string(),
            y_label: "percent of games".to_string(),
            bars_name: "estimate from 1,000 games".to_string(),
            panels: vec![
                bar_panel("cards left, K = 1", &numbers, &spread),
                bar_panel("won without a strike", &["yes", "no"], &[0.003, 0.997]),
                bar_panel("passes", &["1", "2", "3"], &[0.5, 0.25, 0.25]),
            ],
        }
    }

    #[test]
    fn panels_have_headings_legend_and_axes() {
        let chart = panel_chart();
        let svg = render_panels_svg(&chart).unwrap();
        let shown = texts(&svg);
        for text in [
            "Roll-Call (ranks 13; Monte Carlo, 1,000 games, seed 1)",
            "estimate from 1,000 games",
            "95% interval",
            "cards left, K = 1",
            "won without a strike",
            "passes",
            "yes",
            "no",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        // One y description per panel; three panels in two rows.
        assert_eq!(
            shown.iter().filter(|t| **t == "percent of games").count(),
            3
        );
        let layout = PanelLayout::new(&chart);
        assert_eq!(layout.columns, 2);
        assert!(svg.contains(&format!(r#"width="900" height="{}""#, layout.height)));
        // 53 numbers in half the width are thinned, from the first.
        let step = layout.labels[0].step;
        assert!(step > 1, "{step}");
        assert!(shown.contains(&"0") && shown.contains(&"50"), "{shown:?}");
        assert!(!shown.contains(&"51"), "{shown:?}");
        // Without intervals, no interval legend.
        let mut exact = chart.clone();
        for panel in &mut exact.panels {
            panel.intervals = None;
        }
        let svg = render_panels_svg(&exact).unwrap();
        assert!(!texts(&svg).contains(&"95% interval"));
    }

    #[test]
    fn panels_grow_with_their_number() {
        let mut chart = panel_chart();
        let three = PanelLayout::new(&chart).height;
        chart.panels.truncate(2);
        let two = PanelLayout::new(&chart).height;
        chart.panels.truncate(1);
        let one = PanelLayout::new(&chart);
        assert!(three > two, "{three} {two}");
        assert_eq!(one.columns, 1);
    }

    #[test]
    fn long_text_labels_wrap_and_keep_every_outcome() {
        let labels = [
            "sweep won, winnable",
            "sweep won, unwinnable",
            "sweep won, undecided",
            "sweep lost, winnable",
            "sweep lost, unwinnable",
            "sweep lost, undecided",
        ];
        let chart = PanelChart {
            title: "t".to_string(),
            y_label: "percent of games".to_string(),
            bars_name: "exact probability".to_string(),
            panels: vec![
                bar_panel("a", &["won", "lost"], &[0.0, 1.0]),
                bar_panel("b", &labels, &[0.0, 0.0, 0.0, 0.1, 0.2, 0.7]),
            ],
        };
        let layout = PanelLayout::new(&chart);
        let labels = &layout.labels[1];
        assert_eq!(labels.step, 1);
        assert_eq!(labels.lines[4], ["sweep lost,", "unwinnable"]);
        let shown_svg = render_panels_svg(&chart).unwrap();
        let shown = texts(&shown_svg);
        assert_eq!(shown.iter().filter(|t| **t == "sweep lost,").count(), 3);
    }

    #[test]
    fn thinned_numbers_are_multiples_of_the_step() {
        let passes: Vec<String> = (1..80).map(|i| i.to_string()).collect();
        let labels = x_label_lines(&passes, 4.0);
        let shown: Vec<&str> = (0..passes.len())
            .filter(|&i| labels.shown(i))
            .map(|i| passes[i].as_str())
            .collect();
        assert_eq!(shown[..3], ["10", "20", "30"], "{}", labels.step);
        let words: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let labels = x_label_lines(&words, 4.0);
        assert!(labels.shown(0));
    }

    #[test]
    fn panels_output_is_deterministic() {
        let chart = panel_chart();
        assert_eq!(
            render_panels_svg(&chart).unwrap(),
            render_panels_svg(&chart).unwrap()
        );
    }

    #[test]
    fn panel_input_is_validated() {
        let check = |chart: PanelChart, expected: &str| {
            let message = render_panels_svg(&chart).unwrap_err().to_string();
            assert!(message.contains(expected), "{message}");
        };
        let mut chart = panel_chart();
        chart.panels.clear();
        check(chart, "without panels");
        let mut chart = panel_chart();
        chart.panels[1].categories.clear();
        check(chart, "panel \"won without a strike\" without categories");
        let mut chart = panel_chart();
        chart.panels[2].values.pop();
        check(chart, "panel \"passes\" has 2 values for 3 categories");
        let mut chart = panel_chart();
        chart.panels[2].values[1] = f64::NAN;
        check(chart, "panel \"passes\", category \"2\": value NaN");
        let mut chart = panel_chart();
        chart.panels[2].intervals = Some(vec![(0.0, 0.1)]);
        check(chart, "has 1 intervals for 3 categories");
        let mut chart = panel_chart();
        chart.panels[1].intervals = Some(vec![(0.0, 0.1), (0.9, 0.8)]);
        check(chart, "category \"no\": interval [0.9, 0.8]");
        let mut chart = panel_chart();
        chart.panels[0].title.clear();
        chart.panels[0].values[0] = 1.5;
        check(chart, "panel 1, category \"0\": value 1.5");
    }
}
