//! The marks the charts draw, in their plots and in their legends: bars,
//! the bar chart's overlay markers, z-score points, reference lines, error
//! bars, and the legend keys that show each of them beside its name; and
//! so the drawing of the legends and headers that [`super::layout`] lays
//! out.
//!
//! Guarantees: every mark reads in grey too (overlays and points differ in
//! shape as well as colour), and a legend key is drawn with the same code
//! as the mark it names.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::Plot;
use super::layout::{
    ALARM, Area, BAR_EDGE, BAR_FILL, Drawn, Header, Key, LABEL_SIZE, Legend, NOTE, PointKind,
    SWATCH, colour, ink, text_height,
};

/// Fraction of a category's width that its bar covers.
pub(super) const BAR_WIDTH: f64 = 0.8;

/// Draws one legend entry with its top-left corner at `(x, y)`: its key,
/// then its name.
pub(super) fn draw_key(root: &Area<'_>, key: Key, name: &str, (x, y): (i32, i32)) -> Drawn {
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
        Key::Marker(index) => {
            root.draw(&PathElement::new(
                vec![(x, middle), (x + SWATCH, middle)],
                colour(index).stroke_width(2),
            ))?;
            draw_marker(root, index, (x + SWATCH / 2, middle), 4)?;
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
    // A long name comes wrapped (see `Legend::in_rows`): its lines under
    // the first.
    for (i, line) in name.lines().enumerate() {
        root.draw(&Text::new(
            line.to_string(),
            (x + SWATCH + 8, middle + i as i32 * text_height(LABEL_SIZE)),
            ink(LABEL_SIZE, HPos::Left, VPos::Center),
        ))?;
    }
    Ok(())
}

/// Draws bars from `base` up to `tops` (in the plot's y units: percent, or
/// log10 of percent), `half` a category wide either side of each category,
/// filled sky blue, then outlined in blue.
pub(super) fn draw_bars(plot: &mut Plot<'_, '_>, tops: &[f64], base: f64, half: f64) -> Drawn {
    for style in [BAR_FILL.filled(), BAR_EDGE.stroke_width(1)] {
        plot.draw_series(tops.iter().enumerate().map(|(i, &top)| {
            let c = i as f64;
            Rectangle::new([(c - half, base), (c + half, top)], style)
        }))?;
    }
    Ok(())
}

/// Draws the marker of a bar chart's overlay series `index` centred at
/// pixel `at`.
pub(super) fn draw_marker(area: &Area<'_>, index: usize, at: (i32, i32), radius: i32) -> Drawn {
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

/// Draws a z-score point of `kind` centred at pixel `at`.
pub(super) fn draw_point(root: &Area<'_>, kind: PointKind, at: (i32, i32), radius: i32) -> Drawn {
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

/// Draws a horizontal line at pixel row `y` from column `left` to `right`,
/// dashed (6 pixels on, 4 off) or solid.
pub(super) fn draw_line(
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

/// Draws a vertical error bar at pixel column `x` from pixel row `top` to
/// `bottom`, with caps `cap` pixels either side.
pub(super) fn draw_error_bar(
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
// Legends: laid out by `layout`, drawn here with the marks they name.

impl Legend {
    /// Draws every entry, in order.
    pub(super) fn draw(&self, root: &Area<'_>) -> Drawn {
        for ((key, name), at) in self.entries.iter().zip(&self.at) {
            draw_key(root, *key, name, *at)?;
        }
        Ok(())
    }
}

impl Header {
    /// Draws the title, then the legend.
    pub(super) fn draw(&self, root: &Area<'_>) -> Drawn {
        self.title.draw(root)?;
        self.legend.draw(root)
    }
}
