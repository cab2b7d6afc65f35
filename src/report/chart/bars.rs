//! The bar chart ([`BarChart`], drawn by [`render_svg`]): one
//! distribution as bars, 900 × 500 pixels, any further series overlaid as
//! a short line across each bar with a marker (each series its own colour
//! and shape), and 95% intervals as error bars spread across the bar's
//! width so that none hides another. The title is one line (set smaller
//! when long), the legend in rows under it, outside the plot so that it
//! hides no bar; the y axis is in percent, from 0 to a little above the
//! largest value or interval end; every category is labelled when the
//! labels fit, else every second, third, ...
//!
//! Guarantees: as [`render_svg`]'s; overlays and error bars are
//! drawn over the plot's edge rather than clipped by it.

use plotters::prelude::*;

use super::frame::{Frame, YAxis, draw_baseline, draw_x_axis, percent_label, slot, x_axis_area};
use super::layout::{
    Area, Drawn, HEIGHT, Header, Key, LABEL_SIZE, MARGIN, NOTE, Title, WIDTH, XLabels, colour,
    text_width,
};
use super::marks::{BAR_WIDTH, draw_bars, draw_error_bar, draw_marker};
use super::scaffold::{render_with, validate_rows};
use super::types::BarChart;
use crate::error::Result;

/// Renders the chart as a standalone SVG document, 900 × 500 pixels (y
/// axis in percent; laid out as this file's module documentation says).
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors: no category, no series, a series
/// without exactly one value (and, if given, one interval) per category, a
/// value outside `[0, 1]`, or an interval that is not `0 <= low <= high <=
/// 1`.
pub fn render_svg(chart: &BarChart) -> Result<String> {
    validate(chart)?;
    render_with((WIDTH, HEIGHT), &chart.title, |root| draw(root, chart))
}

/// Refuses a chart without categories or series, and series that are not
/// a probability (and, if given, an interval) per category.
pub(super) fn validate(chart: &BarChart) -> Result<()> {
    let rows: Vec<_> = chart
        .series
        .iter()
        .map(|s| (s.name.as_str(), s.values.as_slice(), s.intervals.as_deref()))
        .collect();
    validate_rows(&chart.categories, ("series", "series"), &rows)
}

/// The largest of `values` and of the intervals' upper ends (0 for none).
pub(super) fn highest(values: &[f64], intervals: Option<&[(f64, f64)]>) -> f64 {
    values
        .iter()
        .copied()
        .chain(intervals.into_iter().flatten().map(|&(_, high)| high))
        .fold(0.0, f64::max)
}

/// The top of a y axis in percent over probabilities up to `highest`: 8%
/// above it, or 1% when everything is zero.
pub(super) fn percent_top(highest: f64) -> f64 {
    let y_max = highest * 100.0;
    if y_max > 0.0 { y_max * 1.08 } else { 1.0 }
}

/// The legend: the bars, each overlay, and the error bars if any series
/// has intervals.
fn legend(chart: &BarChart) -> Vec<(Key, String)> {
    let mut entries: Vec<(Key, String)> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let key = if i == 0 { Key::Bar } else { Key::Marker(i) };
            (key, s.name.clone())
        })
        .collect();
    if chart.series.iter().any(|s| s.intervals.is_some()) {
        entries.push((Key::ErrorBar, "95% intervals".to_string()));
    }
    entries
}

pub(super) fn draw(root: &Area<'_>, chart: &BarChart) -> Drawn {
    let n = chart.categories.len();
    let header = Header::new(Title::one_line(&chart.title), legend(chart));
    header.draw(root)?;
    let (_, body) = root.split_vertically(header.bottom());

    let highest = chart
        .series
        .iter()
        .map(|s| highest(&s.values, s.intervals.as_deref()))
        .fold(0.0, f64::max);
    let frame = Frame {
        margins: [4, MARGIN + 8, MARGIN, MARGIN],
        label_areas: (64, x_axis_area()),
        tick_size: LABEL_SIZE,
        y: YAxis {
            range: 0.0..percent_top(highest),
            ticks: 8,
            label: &percent_label,
            description: Some(&chart.y_label),
            grid: true,
        },
    };
    let mut plot = frame.draw(&body, n)?;

    // Pixel geometry of one category.
    let slot = slot(&plot, n);
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

    draw_bars(&mut plot, &chart.series[0].values, half)?;
    draw_baseline(&mut plot, n)?;

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

    // Category labels: every one if they fit, else every second, third,
    // ...; only the labelled ones get a tick.
    let widest = chart
        .categories
        .iter()
        .map(|c| text_width(c, LABEL_SIZE))
        .max()
        .unwrap_or(0);
    let labels = XLabels {
        lines: chart.categories.iter().map(|c| vec![c.clone()]).collect(),
        step: ((f64::from(widest + 8) / slot).ceil() as usize).max(1),
        first: 0,
        minor_ticks: false,
    };
    draw_x_axis(root, &plot, &labels, &chart.x_label)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        assert_deterministic, assert_shows, has_text, refusal, x_tick_labels,
    };
    use super::super::types::{BarChart, Series};
    use super::render_svg;

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
        assert_eq!(x_tick_labels(&svg, 14), ["0", "2", "4"], "{svg}");
        assert_shows(
            &svg,
            &[
                "deckodds, uniform shuffle (1,000 games)",
                "published table",
                "95% intervals",
                "cards left",
                "percent of games",
            ],
        );
        assert!(svg.contains(r#"width="900" height="500""#), "{svg}");
    }

    #[test]
    fn output_is_deterministic() {
        for chart in [small_chart(), cards_left_chart()] {
            assert_deterministic(render_svg, &chart);
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
        assert_eq!(x_tick_labels(&svg, 14), chart.categories);
        let mut crowded = chart.clone();
        crowded.categories = (0..80).map(|i| format!("{}", 1000 + i)).collect();
        for series in &mut crowded.series {
            series.values = vec![1.0 / 80.0; 80];
            series.intervals = None;
        }
        let svg = render_svg(&crowded).unwrap();
        let shown = x_tick_labels(&svg, 14);
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
        let message = refusal(render_svg, &small_chart(), |c| {
            c.series[1].values.pop();
        });
        assert_eq!(
            message,
            "chart series \"published table\" has 2 values for 3 categories: \
             needs one value per category"
        );

        let message = refusal(render_svg, &small_chart(), |c| {
            c.series[0].intervals.as_mut().unwrap().push((0.0, 1.0));
        });
        assert!(
            message.contains("has 4 intervals for 3 categories"),
            "{message}"
        );
    }

    #[test]
    fn empty_and_invalid_input_is_refused() {
        let message = refusal(render_svg, &small_chart(), |c| {
            c.categories.clear();
            for series in &mut c.series {
                series.values.clear();
                series.intervals = None;
            }
        });
        assert!(message.contains("at least one category"), "{message}");

        let message = refusal(render_svg, &small_chart(), |c| c.series.clear());
        assert!(message.contains("at least one series"), "{message}");

        for bad in [f64::NAN, -0.1, 1.5, f64::INFINITY] {
            let message = refusal(render_svg, &small_chart(), |c| c.series[1].values[2] = bad);
            assert!(message.contains("category \"4\""), "{message}");
            assert!(message.contains("probability"), "{message}");
        }

        let message = refusal(render_svg, &small_chart(), |c| {
            c.series[0].intervals.as_mut().unwrap()[1] = (0.6, 0.4);
        });
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
        assert_eq!(x_tick_labels(&svg, 14), ["only"]);
        assert!(has_text(&svg, "series 7 with a fairly long legend name"));
    }
}
