//! Where plots go: the plotting frame of a chart or panel (categories one
//! unit apart along x, a y axis with its ticks and grid lines, the x axis
//! drawn by hand with its labels and description) and the grid of panels
//! of the small multiples and the z-score plot (columns, rows, headings).
//!
//! Guarantees: every function is deterministic and pure but for the
//! elements it draws; sizes are in pixels; a heading never runs wider than
//! its panel's plotting area unless it cannot be set smaller.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::layout::{
    AXIS_DESC_SIZE, Area, Drawn, Header, LABEL_SIZE, MARGIN, SMALL_SIZE, XLabels, draw_bold,
    draw_x_description, draw_y_description_fitted, fitting_size, font, text_height, text_width,
};

/// A plot drawn by [`Frame::draw`]: categories along x, numbers along y.
pub(super) type Plot<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The largest size of a panel's heading.
const HEADING_SIZE: f64 = 13.0;
/// Horizontal room between panels, in pixels.
const PANEL_GAP: i32 = 18;
/// Room right of a panel's plotting area, in pixels.
const PANEL_RIGHT: i32 = 8;
/// Light grey for the horizontal grid lines.
const GRID: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);

// ---------------------------------------------------------------------------
// Panels.

/// The width of one panel when `columns` share the row from pixel column
/// `left` to the right margin of a picture `width` wide.
fn panel_width(width: u32, left: i32, columns: usize) -> i32 {
    let room = width as i32 - MARGIN - left;
    (room - (columns as i32 - 1) * PANEL_GAP) / columns as i32
}

/// The width of a panel's plotting area when `columns` share the row from
/// pixel column `left` of a picture `width` wide, the panel's y axis
/// taking `label_area` pixels.
pub(super) fn panel_plot_width(width: u32, left: i32, columns: usize, label_area: i32) -> i32 {
    panel_width(width, left, columns) - label_area - PANEL_RIGHT
}

/// The most columns, from `most` down to 1, for which `fits` holds (1 if
/// it holds for none).
pub(super) fn most_columns(most: usize, fits: impl Fn(usize) -> bool) -> usize {
    (1..=most).rev().find(|&columns| fits(columns)).unwrap_or(1)
}

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

/// Where the panels of a chart of small multiples go: in rows under the
/// header, `columns` side by side from pixel column `left`, each with its
/// heading over its plotting area.
pub(super) struct PanelGrid {
    /// The title and legend above the panels.
    pub(super) header: Header,
    /// The first pixel column of the first column of panels.
    pub(super) left: i32,
    /// Panels side by side.
    pub(super) columns: usize,
    /// The width of every panel's y axis area, left of its plotting area.
    pub(super) label_area: i32,
    /// Lines of every panel's heading, with their sizes.
    pub(super) headings: Vec<Vec<(String, f64)>>,
    /// The height of the panels' headings (of the one with most lines).
    pub(super) heading_height: i32,
    /// The rows' heights.
    pub(super) rows: Rows,
}

/// The heights of the rows of a [`PanelGrid`], in pixels.
pub(super) struct Rows {
    /// The height of a row of panels, its gap included.
    pub(super) height: i32,
    /// The gap under every row of panels.
    pub(super) gap: i32,
    /// The room under the last row (without its gap) to the bottom of the
    /// picture.
    pub(super) footer: i32,
}

impl PanelGrid {
    /// The grid of panels headed by `titles` under `header`, with the
    /// headings laid out for the plotting areas; `rows` gives the rows'
    /// heights from the height of the headings.
    pub(super) fn new<'t>(
        header: Header,
        (left, columns): (i32, usize),
        label_area: i32,
        titles: impl Iterator<Item = &'t str>,
        rows: impl FnOnce(i32) -> Rows,
    ) -> PanelGrid {
        let room = panel_plot_width(header.title.width as u32, left, columns, label_area);
        let headings: Vec<Vec<(String, f64)>> =
            titles.map(|title| heading_lines(title, room)).collect();
        let lines = headings.iter().map(Vec::len).max().unwrap_or(0) as i32;
        let heading_height = lines * text_height(HEADING_SIZE) + 6;
        PanelGrid {
            header,
            left,
            columns,
            label_area,
            headings,
            heading_height,
            rows: rows(heading_height),
        }
    }

    /// The first pixel row of the panels.
    pub(super) fn top(&self) -> i32 {
        self.header.bottom()
    }

    /// The pixel row under the last panel, gap excluded.
    pub(super) fn bottom(&self) -> i32 {
        let rows = self.headings.len().div_ceil(self.columns) as i32;
        self.top() + rows * self.rows.height - self.rows.gap
    }

    /// The whole picture's height.
    pub(super) fn height(&self) -> i32 {
        self.bottom() + self.rows.footer
    }

    /// The panel at `index`'s top-left pixel and size (its gap below
    /// excluded).
    pub(super) fn panel(&self, index: usize) -> ((i32, i32), (i32, i32)) {
        let (row, column) = (index / self.columns, index % self.columns);
        let width = panel_width(self.header.title.width as u32, self.left, self.columns);
        let x = self.left + column as i32 * (width + PANEL_GAP);
        let y = self.top() + row as i32 * self.rows.height;
        ((x, y), (width, self.rows.height - self.rows.gap))
    }

    /// Draws panel `index`'s heading centred over its plotting area, and
    /// returns the panel's drawing area with its top-left pixel.
    pub(super) fn open<'b>(
        &self,
        root: &Area<'b>,
        index: usize,
    ) -> std::result::Result<(Area<'b>, (i32, i32)), Box<dyn std::error::Error>> {
        let ((x, y), (width, height)) = self.panel(index);
        let centre = (x + self.label_area + x + width - PANEL_RIGHT) / 2;
        for (i, (line, size)) in self.headings[index].iter().enumerate() {
            let top = y + 2 + i as i32 * text_height(HEADING_SIZE);
            draw_bold(root, line, (centre, top), *size)?;
        }
        Ok((root.clone().shrink((x, y), (width, height)), (x, y)))
    }

    /// The frame of a panel's plot, under its heading, with `tick_area`
    /// pixels under the x axis for its labels.
    pub(super) fn frame<'a>(&self, tick_area: i32, y: YAxis<'a>) -> Frame<'a> {
        Frame {
            margins: [self.heading_height + 4, PANEL_RIGHT, 0, 0],
            label_areas: (self.label_area, tick_area),
            tick_size: SMALL_SIZE,
            y,
        }
    }
}

// ---------------------------------------------------------------------------
// Plots.

/// The x range of `n` categories: one unit each, centred on `0..n`.
pub(super) fn x_range(n: usize) -> Range<f64> {
    -0.5..n as f64 - 0.5
}

/// The height under a plot's x axis for one line of category labels at
/// [`LABEL_SIZE`] and the axis description.
pub(super) fn x_axis_area() -> i32 {
    8 + text_height(LABEL_SIZE) + 10 + text_height(AXIS_DESC_SIZE)
}

/// The y axis of a [`Frame`].
pub(super) struct YAxis<'a> {
    /// The range drawn, bottom to top.
    pub(super) range: Range<f64>,
    /// About how many ticks.
    pub(super) ticks: usize,
    /// A tick's label.
    pub(super) label: &'a dyn Fn(&f64) -> String,
    /// The description beside the tick labels, if plotters writes it.
    pub(super) description: Option<&'a str>,
    /// Light grey grid lines at the ticks, else none.
    pub(super) grid: bool,
}

/// The frame of one plot: categories along x (the x axis is drawn by hand,
/// since plotters would label "nice" numbers rather than every category)
/// and a y axis with its ticks.
pub(super) struct Frame<'a> {
    /// Room around the frame: top, right, bottom, left.
    pub(super) margins: [i32; 4],
    /// The width of the y axis' label area and the height of the x axis'.
    pub(super) label_areas: (i32, i32),
    /// The size of the tick labels.
    pub(super) tick_size: f64,
    /// The y axis.
    pub(super) y: YAxis<'a>,
}

impl Frame<'_> {
    /// Draws the y axis and its ticks for `n` categories on `area` and
    /// returns the plot.
    pub(super) fn draw<'a, 'b>(
        &self,
        area: &'a Area<'b>,
        n: usize,
    ) -> std::result::Result<Plot<'a, 'b>, Box<dyn std::error::Error>> {
        let [top, right, bottom, left] = self.margins;
        let mut plot = ChartBuilder::on(area)
            .margin_top(top)
            .margin_right(right)
            .margin_bottom(bottom)
            .margin_left(left)
            .set_label_area_size(LabelAreaPosition::Left, self.label_areas.0)
            .set_label_area_size(LabelAreaPosition::Bottom, self.label_areas.1)
            .build_cartesian_2d(x_range(n), self.y.range.clone())?;
        let mut mesh = plot.configure_mesh();
        mesh.disable_x_mesh()
            .disable_x_axis()
            .y_labels(self.y.ticks)
            .axis_style(BLACK.stroke_width(1))
            .y_label_formatter(self.y.label)
            .label_style(font(self.tick_size));
        if self.y.grid {
            mesh.max_light_lines(0)
                .bold_line_style(GRID.stroke_width(1));
        } else {
            mesh.disable_y_mesh();
        }
        mesh.draw()?;
        // The description is drawn by hand, fitted to the plot's height
        // (plotters would let a long one run past a short plot).
        if let Some(description) = self.y.description {
            // Pixel ranges are the picture's; the area draws from its own
            // top-left corner.
            let (_, rows) = plot.plotting_area().get_pixel_range();
            let (_, area_top) = area.get_base_pixel();
            let x = left + text_height(AXIS_DESC_SIZE) / 2;
            let rows = (rows.start - area_top, rows.end - area_top);
            draw_y_description_fitted(area, description, x, rows)?;
        }
        Ok(plot)
    }
}

/// A y tick label in percent: at most three decimals, trailing zeros
/// removed.
pub(super) fn percent_label(value: &f64) -> String {
    trimmed(*value, 3)
}

/// `value` with at most `decimals` decimals, trailing zeros removed, and
/// `0` for what rounds to zero.
pub(super) fn trimmed(value: f64, decimals: u32) -> String {
    // Half the last decimal's unit, as exact as a literal such as `5e-4`.
    if value.abs() < 0.5 / f64::from(10u32.pow(decimals)) {
        return "0".to_string();
    }
    let text = format!("{value:.*}", decimals as usize);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The pixels between neighbouring categories of a plot of `n`.
pub(super) fn slot(plot: &Plot<'_, '_>, n: usize) -> f64 {
    f64::from(plot.plotting_area().dim_in_pixel().0) / n as f64
}

/// Draws a plot's category `labels` under its x axis, the line `y = base`
/// (0, or a log axis' floor), at [`LABEL_SIZE`], and, under them, the
/// axis `description`.
pub(super) fn draw_x_axis(
    root: &Area<'_>,
    (plot, base): (&Plot<'_, '_>, f64),
    labels: &XLabels,
    description: &str,
) -> Drawn {
    let n = labels.lines.len();
    let pixel = |x: f64| plot.backend_coord(&(x, base));
    let (left, bottom) = pixel(x_range(n).start);
    let (right, _) = pixel(x_range(n).end);
    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64).0).collect();
    labels.draw(root, &xs, bottom, LABEL_SIZE)?;
    let y = bottom + 8 + text_height(LABEL_SIZE) + 10;
    draw_x_description(root, description, (left, right), y)
}

/// Draws the x axis line, at `y = base` (0, or a log axis' floor), over the
/// bottom edges of the bars of `n` categories.
pub(super) fn draw_baseline(plot: &mut Plot<'_, '_>, n: usize, base: f64) -> Drawn {
    let x_range = x_range(n);
    plot.draw_series(std::iter::once(PathElement::new(
        vec![(x_range.start, base), (x_range.end, base)],
        BLACK.stroke_width(1),
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn y_labels_are_trimmed_percentages() {
        assert_eq!(percent_label(&0.0), "0");
        assert_eq!(percent_label(&-0.0), "0");
        assert_eq!(percent_label(&12.0), "12");
        assert_eq!(percent_label(&2.5), "2.5");
        assert_eq!(percent_label(&0.30000000000000004), "0.3");
        // The z-score plot's ticks: two decimals at most.
        assert_eq!(trimmed(0.004, 2), "0");
        assert_eq!(trimmed(-1.5, 2), "-1.5");
        assert_eq!(trimmed(2.0, 2), "2");
    }

    #[test]
    fn long_headings_split_after_the_key() {
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
}
