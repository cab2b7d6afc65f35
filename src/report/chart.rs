//! SVG bar charts of distributions: one distribution as bars, any others
//! (a published table, another shuffle) overlaid as markers on top, and
//! 95% intervals as error bars.
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
    let probability = |x: f64| (0.0..=1.0).contains(&x);
    for series in &chart.series {
        let name = &series.name;
        if series.values.len() != n {
            return Err(Error::invalid(
                "chart",
                format!(
                    "series \"{name}\" has {} values for {n} categories",
                    series.values.len()
                ),
                "needs one value per category",
            ));
        }
        if let Some((value, category)) = series
            .values
            .iter()
            .zip(&chart.categories)
            .find(|(v, _)| !probability(**v))
        {
            return Err(Error::invalid(
                "chart",
                format!("series \"{name}\", category \"{category}\": value {value}"),
                "must be a probability in [0, 1]",
            ));
        }
        if let Some(intervals) = &series.intervals {
            if intervals.len() != n {
                return Err(Error::invalid(
                    "chart",
                    format!(
                        "series \"{name}\" has {} intervals for {n} categories",
                        intervals.len()
                    ),
                    "needs one interval per category",
                ));
            }
            if let Some(((low, high), category)) = intervals
                .iter()
                .zip(&chart.categories)
                .find(|((low, high), _)| !(probability(*low) && probability(*high) && low <= high))
            {
                return Err(Error::invalid(
                    "chart",
                    format!("series \"{name}\", category \"{category}\": interval [{low}, {high}]"),
                    "must satisfy 0 <= low <= high <= 1",
                ));
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The contents of every `<text>` element, trimmed (the backend puts
    /// them on lines of their own), with XML entities left as written.
    fn texts(svg: &str) -> Vec<&str> {
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
}
