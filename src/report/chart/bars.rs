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

use std::ops::Range;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::frame::{
    Frame, YAxis, draw_baseline, draw_x_axis, percent_label, slot, trimmed, x_axis_area,
};
use super::layout::{
    AXIS_DESC_SIZE, Area, Drawn, Header, Key, LABEL_SIZE, MARGIN, NOTE, SMALL_SIZE, Title, XLabels,
    colour, ink, text_height, text_width,
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
    let desc = format!(
        "Bar chart of {} by {}: {}.",
        chart.y_label,
        chart.x_label,
        chart
            .series
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    let height = chart.size.plot_height();
    render_with(chart.size, height, (&chart.title, &desc), |root| {
        draw(root, chart)
    })
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

/// Every probability a set of bars places on the y axis: `values`, and
/// both ends of each interval.
pub(super) fn placed(
    values: &[f64],
    intervals: Option<&[(f64, f64)]>,
) -> impl Iterator<Item = f64> {
    let ends = intervals
        .into_iter()
        .flatten()
        .flat_map(|&(low, high)| [low, high]);
    values.iter().copied().chain(ends)
}

/// The largest of `values` and of the intervals' upper ends (0 for none).
pub(super) fn highest(values: &[f64], intervals: Option<&[(f64, f64)]>) -> f64 {
    placed(values, intervals).fold(0.0, f64::max)
}

/// The top of a y axis in percent over probabilities up to `highest`: 8%
/// above it, or 1% when everything is zero.
pub(super) fn percent_top(highest: f64) -> f64 {
    let y_max = highest * 100.0;
    if y_max > 0.0 { y_max * 1.08 } else { 1.0 }
}

/// How a bar chart's y axis places a probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Scale {
    /// Percent, from 0.
    Linear,
    /// log10 of percent, from `floor` (a whole power of ten below the
    /// smallest non-zero value or interval end), where zero goes too.
    Log { floor: f64 },
}

impl Scale {
    /// The scale of `chart`: linear, or log with its floor at the power of
    /// ten at least a tenth of a decade under the smallest non-zero value
    /// or interval end (so that the smallest bar still shows).
    pub(super) fn of(chart: &BarChart) -> Scale {
        let probabilities = chart
            .series
            .iter()
            .flat_map(|s| placed(&s.values, s.intervals.as_deref()));
        Scale::over(chart.log_y, probabilities)
    }

    /// The scale of bars of `probabilities` (values and interval ends):
    /// linear, or if `log_y`, log as [`Scale::of`] says.
    pub(super) fn over(log_y: bool, probabilities: impl Iterator<Item = f64>) -> Scale {
        if !log_y {
            return Scale::Linear;
        }
        let smallest = probabilities
            .filter(|&p| p > 0.0)
            .fold(f64::INFINITY, f64::min);
        if !smallest.is_finite() {
            return Scale::Linear;
        }
        Scale::Log {
            floor: ((smallest * 100.0).log10() - 0.1).floor(),
        }
    }

    /// Where probability `p` goes on the y axis.
    pub(super) fn y(self, p: f64) -> f64 {
        match self {
            Scale::Linear => p * 100.0,
            Scale::Log { floor } if p > 0.0 => (p * 100.0).log10().max(floor),
            Scale::Log { floor } => floor,
        }
    }

    /// The y range drawn for bars up to `highest` (a probability or an
    /// interval's end), about how many ticks, and their labels: linear
    /// from 0 to a little above it with `linear_ticks` ticks; log from the
    /// floor to a little above it (room for an error bar's cap), a tick at
    /// every power of ten (more would allow half decades).
    pub(super) fn axis(
        self,
        highest: f64,
        linear_ticks: usize,
    ) -> (Range<f64>, usize, fn(&f64) -> String) {
        match self {
            Scale::Linear => (0.0..percent_top(highest), linear_ticks, percent_label),
            Scale::Log { floor } => {
                let top = (self.y(highest) + 0.15).max(floor + 1.0);
                let ticks = (top - floor).ceil() as usize + 1;
                (floor..top, ticks, log_percent_label)
            }
        }
    }

    /// The y axis description `y_label`, saying so when the axis is log.
    pub(super) fn describe(self, y_label: &str) -> String {
        match self {
            Scale::Linear => y_label.to_string(),
            Scale::Log { .. } => format!("{y_label} (log scale)"),
        }
    }

    /// The bottom of the y axis, where bars start.
    pub(super) fn base(self) -> f64 {
        match self {
            Scale::Linear => 0.0,
            Scale::Log { floor } => floor,
        }
    }
}

/// A y tick label of a log axis at `y` (log10 of percent): the percentage,
/// to as many decimals as it needs (`0.0001`, `0.01`, `1`, `10`).
pub(super) fn log_percent_label(y: &f64) -> String {
    let decimals = (-y.floor()).max(0.0) as u32 + 1;
    trimmed(10f64.powf(*y), decimals)
}

/// The legend: the bars, each overlay, and the error bars if any series
/// has intervals. With a single series, whose name says what its error
/// bars are, the bars are its one entry.
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
    if chart.series.len() > 1 && chart.series.iter().any(|s| s.intervals.is_some()) {
        entries.push((Key::ErrorBar, "95% intervals".to_string()));
    }
    entries
}

pub(super) fn draw(root: &Area<'_>, chart: &BarChart) -> Drawn {
    let n = chart.categories.len();
    let mut title = Title::wrapped(&chart.title, chart.size.width());
    if !chart.annotation.is_empty() {
        title.lines.push(chart.annotation.clone());
    }
    let title = title.with_caption(&chart.caption);
    let header = Header::new(title, legend(chart));
    header.draw(root)?;
    let (_, body) = root.split_vertically(header.bottom());

    let highest = chart
        .series
        .iter()
        .map(|s| highest(&s.values, s.intervals.as_deref()))
        .fold(0.0, f64::max);
    let scale = Scale::of(chart);
    let (range, ticks, label) = scale.axis(highest, 8);
    let y_label = scale.describe(&chart.y_label);
    // Room for the widest tick label (a log axis' `0.0001`) and the
    // description beside it.
    let widest_tick = match scale {
        Scale::Linear => 0,
        Scale::Log { floor } => text_width(&log_percent_label(&floor), LABEL_SIZE),
    };
    let label_area = (widest_tick + text_height(AXIS_DESC_SIZE) + 22).max(64);
    let frame = Frame {
        margins: [4, MARGIN + 8, MARGIN, MARGIN],
        label_areas: (label_area, x_axis_area()),
        tick_size: LABEL_SIZE,
        y: YAxis {
            range,
            ticks,
            label: &label,
            description: Some(&y_label),
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

    let bar_tops: Vec<f64> = chart.series[0].values.iter().map(|&p| scale.y(p)).collect();
    draw_bars(&mut plot, &bar_tops, scale.base(), half)?;
    draw_baseline(&mut plot, n, scale.base())?;

    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));

    // On a log axis a bar of zero has no top: it is written as `0` on the
    // axis, so that it reads as none rather than as a missing value.
    if let Scale::Log { floor } = scale {
        for (i, _) in chart.series[0]
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v == 0.0)
        {
            let (x, y) = pixel(i as f64, floor);
            root.draw(&Text::new(
                "0".to_string(),
                (x, y - 3),
                ink(SMALL_SIZE, HPos::Center, VPos::Bottom),
            ))?;
        }
    }

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
                // On a log axis an interval from 0 runs to the floor.
                let (low, high) = intervals[i];
                let (px, top) = pixel(x, scale.y(high));
                let (_, bottom) = pixel(x, scale.y(low));
                draw_error_bar(root, px, (top, bottom), cap, style)?;
            }
            if index > 0 {
                let y = scale.y(*value);
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
    draw_x_axis(root, (&plot, scale.base()), &labels, &chart.x_label)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        assert_deterministic, assert_shows, attribute, has_text, refusal, x_tick_labels,
    };
    use super::super::types::{BarChart, Series};
    use super::{Scale, render_svg};

    fn small_chart() -> BarChart {
        BarChart {
            title: "Cards left at the end".to_string(),
            caption: String::new(),
            size: Default::default(),
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
            log_y: false,
            annotation: String::new(),
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
            caption: String::new(),
            size: Default::default(),
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
            log_y: false,
            annotation: String::new(),
        }
    }

    #[test]
    fn a_log_axis_shows_rare_outcomes_and_writes_zero() {
        // 90 %, 10 %, 0.001 % and none: on a linear axis the third would
        // be an empty bar.
        let chart = BarChart {
            title: "rare".to_string(),
            caption: String::new(),
            size: Default::default(),
            x_label: "outcome".to_string(),
            y_label: "percent of games".to_string(),
            categories: ["a", "b", "c", "d"].map(String::from).to_vec(),
            series: vec![Series {
                name: "exact".to_string(),
                values: vec![0.9, 0.09999, 0.00001, 0.0],
                intervals: None,
            }],
            log_y: true,
            annotation: "P(win) = 0.001 %".to_string(),
        };
        // The floor is the power of ten under 0.001 %.
        assert_eq!(Scale::of(&chart), Scale::Log { floor: -4.0 });
        assert_eq!(Scale::of(&chart).y(0.00001), -3.0);
        assert_eq!(Scale::of(&chart).y(0.0), -4.0);
        let svg = render_svg(&chart).unwrap();
        assert_shows(
            &svg,
            &[
                "percent of games (log scale)",
                "P(win) = 0.001 %",
                "0.0001",
                "0.001",
                "0.01",
                "0.1",
                "1",
                "10",
                "0",
            ],
        );
        // The bar of 0.001 % is a decade tall.
        let heights: Vec<f64> = svg
            .split("<rect ")
            .filter(|r| r.contains(r##"fill="#56B4E9""##))
            .filter_map(|r| attribute(r, "height")?.parse().ok())
            .collect();
        // The legend's swatch first, then the bars.
        assert_eq!(heights.len(), 1 + 4, "{heights:?}");
        let decade = heights[3];
        assert!(decade > 20.0, "{heights:?}");
        // 10 % is five decades above the floor of 0.0001 %.
        assert!((heights[2] - 5.0 * decade).abs() <= 2.0, "{heights:?}");
        assert_eq!(heights[4], 0.0, "{heights:?}");
        // Nothing to place on a log axis: linear.
        let mut zeros = chart.clone();
        zeros.series[0].values = vec![0.0; 4];
        assert_eq!(Scale::of(&zeros), Scale::Linear);
        let mut linear = chart;
        linear.log_y = false;
        assert_eq!(Scale::of(&linear), Scale::Linear);
    }

    #[test]
    fn one_series_has_one_legend_entry() {
        let mut chart = small_chart();
        chart.series.truncate(1);
        assert!(!has_text(&render_svg(&chart).unwrap(), "95% intervals"));
        assert!(has_text(
            &render_svg(&small_chart()).unwrap(),
            "95% intervals"
        ));
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
        assert!(svg.contains(r#"font-family="DejaVu Sans, sans-serif""#));
        // Titled and described for screen readers and indexes.
        assert!(
            svg.contains("<title>Idiot's Delight: cards left at the end of the game</title>"),
            "{svg}"
        );
        assert!(
            svg.contains("<desc>Bar chart of percent of games by cards left"),
            "{svg}"
        );
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
