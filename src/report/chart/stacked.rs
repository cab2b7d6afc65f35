//! The stacked bar chart ([`StackedBarChart`], drawn by
//! [`render_stacked_svg`]): one bar per category, 900 × 500
//! pixels, split into its segments from the bottom up, each segment in its
//! own Okabe–Ito colour and outlined in white, with its percentage inside
//! when it holds it. The legend reads like the bars: the top of the stack
//! first, in a column right of the plot, or in rows under the title when
//! the names are too long for a column.
//!
//! Guarantees: as [`render_stacked_svg`]'s; a percentage is written
//! only inside a segment tall and wide enough for it, in black or white,
//! whichever contrasts more with the segment's colour.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{Frame, YAxis, draw_baseline, draw_x_axis, percent_label, slot, x_axis_area};
use super::layout::{
    Area, Drawn, Key, LABEL_SIZE, LEGEND_ROW, Legend, MARGIN, SMALL_SIZE, SWATCH, Title, XLabels,
    dark_text_on, font, segment_colour, text_height, text_width,
};
use super::marks::BAR_WIDTH;
use super::scaffold::{render_with, validate_rows};
use super::types::StackedBarChart;
use crate::error::{Error, Result};

/// Renders the stacked bar chart as a standalone SVG document, 900 × 500
/// pixels (y axis in percent, 0 to 100).
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
    validate(chart)?;
    let desc = format!(
        "Stacked bar chart of {} by {}, each bar split into {}.",
        chart.y_label,
        chart.x_label,
        chart
            .segments
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let height = chart.size.plot_height();
    render_with(chart.size, height, (&chart.title, &desc), |root| {
        draw(root, chart)
    })
}

/// Refuses a chart without categories or segments, segments that are not
/// a probability per category, and categories whose segments do not sum
/// to 1 (within `1e-9`).
pub(super) fn validate(chart: &StackedBarChart) -> Result<()> {
    let rows: Vec<_> = chart
        .segments
        .iter()
        .map(|s| (s.name.as_str(), s.values.as_slice(), None))
        .collect();
    validate_rows(&chart.categories, ("segments", "segment"), &rows)?;
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

/// The legend under `title_bottom`, listing the top of the stack first, so
/// that it reads like the bars: in a column on the right when that leaves
/// the plot most of the width (then its height is 0: it takes no rows),
/// else in rows under the title, read left to right from the bottom
/// segment. Also the column's width, 0 for rows.
fn legend(chart: &StackedBarChart, title_bottom: i32) -> (Legend, i32) {
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
    let width = chart.size.width() as i32;
    if column <= width / 4 {
        let x = width - MARGIN - column;
        let at = (0..entries.len())
            .map(|k| (x, title_bottom + 4 + LEGEND_ROW * k as i32))
            .collect();
        let legend = Legend {
            entries,
            at,
            height: 0,
        };
        return (legend, column);
    }
    let bottom_first: Vec<(Key, String)> = entries.into_iter().rev().collect();
    let mut legend = Legend::in_rows(bottom_first, title_bottom, width);
    legend.entries.reverse();
    legend.at.reverse();
    (legend, 0)
}

pub(super) fn draw(root: &Area<'_>, chart: &StackedBarChart) -> Drawn {
    let n = chart.categories.len();
    let title = Title::wrapped(&chart.title, chart.size.width()).with_caption(&chart.caption);
    title.draw(root)?;
    let legend_top = title.bottom();
    let (legend, column) = legend(chart, legend_top);
    let body = if column > 0 {
        root.margin(legend_top, 0, 0, column + MARGIN + 8)
    } else {
        root.margin(legend_top + legend.height + 6, 0, 0, 0)
    };
    legend.draw(root)?;

    let frame = Frame {
        margins: [8, MARGIN, MARGIN, MARGIN],
        label_areas: (64, x_axis_area()),
        tick_size: LABEL_SIZE,
        y: YAxis {
            range: 0.0..100.0,
            ticks: 11,
            label: &percent_label,
            description: Some(&chart.y_label),
            grid: true,
        },
    };
    let mut plot = frame.draw(&body, n)?;

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
    draw_baseline(&mut plot, n, 0.0)?;
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

    let labels = XLabels::thinned(&chart.categories, slot(&plot, n), LABEL_SIZE);
    draw_x_axis(root, (&plot, 0.0), &labels, &chart.x_label)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        assert_deterministic, assert_shows, attribute, fills, has_text, refusal, x_tick_labels,
    };
    use super::super::types::{Segment, StackedBarChart};
    use super::LEGEND_ROW;
    use super::render_stacked_svg;

    fn dealer_like_chart() -> StackedBarChart {
        let segment = |name: &str, values: [f64; 3]| Segment {
            name: name.to_string(),
            values: values.to_vec(),
        };
        StackedBarChart {
            title: "Blackjack dealer: final hand by upcard".to_string(),
            caption: String::new(),
            size: Default::default(),
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

    #[test]
    fn stacked_bars_show_legend_segments_and_percentages() {
        let svg = render_stacked_svg(&dealer_like_chart()).unwrap();
        assert_shows(
            &svg,
            &[
                "Blackjack dealer: final hand by upcard",
                "dealer&apos;s upcard",
                "percent of hands",
                "bust",
                "17",
                "18+",
                "natural",
                "100",
            ],
        );
        assert_eq!(x_tick_labels(&svg, 14), ["2", "10", "A"], "{svg}");
        // Percentages inside the segments: here every one is tall enough
        // (upcard 2's natural, zero, is not drawn).
        assert_shows(&svg, &["35.0", "14.0", "51.0", "7.8", "31.0", "11.6"]);
        // The legend lists the top of the stack first.
        let position = |text: &str| svg.find(&format!(">\n{text}\n<")).unwrap_or(usize::MAX);
        assert!(position("natural") < position("18+"), "{svg}");
        assert!(position("18+") < position("bust"), "{svg}");
        // One filled rectangle per nonzero segment (11), plus the
        // background and four legend swatches; zero segments are not drawn.
        let fills = fills(&svg, "rect");
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
        assert_deterministic(render_stacked_svg, &dealer_like_chart());
    }

    /// The `x` and `y` of the `<text>` element showing `text`.
    fn text_at(svg: &str, text: &str) -> (i32, i32) {
        let element = svg
            .split("<text")
            .find(|element| element.contains(&format!(">\n{text}\n<")))
            .unwrap_or_else(|| panic!("{text} in {svg}"));
        let number = |name: &str| attribute(element, name).unwrap().parse().unwrap();
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
            let message = refusal(render_stacked_svg, &dealer_like_chart(), change);
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
}
