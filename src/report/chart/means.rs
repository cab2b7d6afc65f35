//! The chart of means ([`MeanChart`], drawn by [`render_means_svg`]):
//! signed means over categories (the value per round of blackjack by true
//! count), one blue point per category with its 95% interval as a grey
//! error bar, 900 pixels wide. The y axis covers every mean, every
//! interval, zero and the reference line, with a little room (it need not
//! be symmetric); a solid line marks zero and a dashed one the reference.
//! When the chart has frequencies, a shorter panel underneath shows them
//! as bars in percent over the same categories, so that the reader sees
//! where the observations are (and so which means deserve weight); the
//! category labels and the x axis description go once, under the lowest
//! panel.
//!
//! Guarantees: as [`render_means_svg`]'s; a category without a mean keeps
//! its place on the x axis.

use std::ops::Range;

use plotters::prelude::*;

use super::bars::{highest, percent_top};
use super::frame::{Frame, Plot, YAxis, draw_baseline, draw_x_axis, percent_label, slot};
use super::frame::{trimmed, x_axis_area, x_range};
use super::layout::{
    AXIS_DESC_SIZE, Area, Drawn, Header, Key, LABEL_SIZE, MARGIN, NOTE, PointKind, Title, XLabels,
    colour, draw_x_description, draw_y_description_fitted, text_height, text_width,
};
use super::marks::{BAR_WIDTH, draw_bars, draw_error_bar, draw_line, draw_point};
use super::scaffold::{render_with, validate_values};
use super::types::MeanChart;
use crate::error::{Error, Result};

/// Renders the chart of means as a standalone SVG document, 900 pixels
/// wide and as tall as its title and legend need plus the panels (633
/// pixels with a one-line title and legend and frequencies; 164 fewer
/// without frequencies).
///
/// Each category with a mean gets a filled blue point and, if it has an
/// interval, a grey error bar from its low to its high end; a category
/// without a mean keeps its place and gets neither. The y axis is in the
/// chart's units, with light grid lines; it covers every mean, every
/// interval end, zero and the reference value. Zero is a solid black line,
/// the reference a dashed bluish-green line named in the legend. The
/// frequencies, if given, are bars in percent in a panel underneath, over
/// the same x positions. Category labels are all shown when they fit,
/// else every second, fifth, tenth, ... (tick marks stay at every
/// category).
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors (one line naming the value): no
/// category; means, intervals or frequencies not one per category; a mean
/// or interval end that is not finite; an interval with `low > high`, one
/// without a mean, or one that does not contain its mean; a frequency
/// outside `[0, 1]`; a reference value that is not finite.
pub fn render_means_svg(chart: &MeanChart) -> Result<String> {
    validate(chart)?;
    let layout = MeanLayout::new(chart);
    let desc = format!(
        "Means with 95% intervals of {} by {}.",
        chart.y_label, chart.x_label
    );
    render_with(
        chart.size,
        layout.height as u32,
        (&chart.title, &desc),
        |root| draw(root, chart, &layout),
    )
}

/// Refuses what [`render_means_svg`] says it refuses, in that order.
pub(super) fn validate(chart: &MeanChart) -> Result<()> {
    let n = chart.categories.len();
    if n == 0 {
        return Err(Error::invalid(
            "chart",
            "without categories",
            "needs at least one category",
        ));
    }
    let per_category = |name: &str, len: usize, item: &str| {
        if len == n {
            return Ok(());
        }
        Err(Error::invalid(
            "chart",
            format!("{name} has {len} values for {n} categories"),
            format!("needs one {item} per category"),
        ))
    };
    per_category("means", chart.means.len(), "mean (or none)")?;
    per_category("intervals", chart.intervals.len(), "interval (or none)")?;
    for ((category, mean), interval) in chart
        .categories
        .iter()
        .zip(&chart.means)
        .zip(&chart.intervals)
    {
        if let Some(mean) = mean
            && !mean.is_finite()
        {
            return Err(Error::invalid(
                "chart",
                format!("category \"{category}\": mean {mean}"),
                "must be finite (leave an undefined mean out)",
            ));
        }
        let Some((low, high)) = *interval else {
            continue;
        };
        let at = format!("category \"{category}\": interval [{low}, {high}]");
        if !(low.is_finite() && high.is_finite() && low <= high) {
            return Err(Error::invalid(
                "chart",
                at,
                "must be finite with low <= high",
            ));
        }
        match mean {
            None => {
                return Err(Error::invalid(
                    "chart",
                    format!("{at} without a mean"),
                    "an interval needs the mean it surrounds",
                ));
            }
            Some(mean) if !(low..=high).contains(mean) => {
                return Err(Error::invalid(
                    "chart",
                    format!("{at} around mean {mean}"),
                    "must contain its mean",
                ));
            }
            Some(_) => {}
        }
    }
    if let Some(frequencies) = &chart.frequencies {
        validate_values("frequencies", &chart.categories, &frequencies.values, None)?;
    }
    if let Some(reference) = &chart.reference
        && !reference.value.is_finite()
    {
        return Err(Error::invalid(
            "chart",
            format!(
                "reference line \"{}\": value {}",
                reference.name, reference.value
            ),
            "must be finite",
        ));
    }
    Ok(())
}

/// The height of the means' panel, its y tick labels' overhang included,
/// in pixels.
const MEANS_HEIGHT: i32 = 330;
/// The height of the frequencies' panel, in pixels: enough to read where
/// the observations are, small beside the means, which are the point.
const FREQUENCIES_HEIGHT: i32 = 150;
/// Room between the two panels, in pixels.
const PANEL_GAP: i32 = 14;
/// Room above and below a plotting area for the halves of the end tick
/// labels, in pixels.
const TICK_OVERHANG: i32 = 8;
/// Fraction of the means' span added above and below it.
const Y_PADDING: f64 = 0.08;

/// The reference line's colour: bluish green, apart from the blue points,
/// the grey error bars and the black zero line, also in grey print (it is
/// dashed).
fn reference_colour() -> RGBColor {
    colour(2)
}

/// Where the chart of means' pieces go, in pixels.
pub(super) struct MeanLayout {
    /// The title and legend.
    header: Header,
    /// The width of the y tick labels' area of both panels, so that their
    /// plotting areas line up.
    label_area: i32,
    /// The y range of the means.
    y_range: Range<f64>,
    /// The pixel rows of the means' panel (its x axis area included when
    /// it is the only panel).
    means_rows: Range<i32>,
    /// The pixel rows of the frequencies' panel with its x axis area, if
    /// any.
    frequencies_rows: Option<Range<i32>>,
    /// The whole picture's height.
    pub(super) height: i32,
}

impl MeanLayout {
    pub(super) fn new(chart: &MeanChart) -> MeanLayout {
        let header = Header::new(
            Title::wrapped(&chart.title, chart.size.width()).with_caption(&chart.caption),
            legend(chart),
        );
        let y_range = y_range(chart);
        let widest = y_range.start.abs().max(y_range.end.abs());
        let label_area = text_width(&format!("-{widest:.2}"), LABEL_SIZE)
            .max(text_width("100.0", LABEL_SIZE))
            + 12;
        let top = header.bottom();
        let (means_rows, frequencies_rows) = match chart.frequencies {
            Some(_) => {
                let means = top..top + MEANS_HEIGHT;
                let lower = means.end + PANEL_GAP;
                (
                    means,
                    Some(lower..lower + FREQUENCIES_HEIGHT + x_axis_area()),
                )
            }
            None => (top..top + MEANS_HEIGHT + x_axis_area(), None),
        };
        let bottom = frequencies_rows
            .as_ref()
            .map_or(means_rows.end, |rows| rows.end);
        MeanLayout {
            header,
            label_area,
            y_range,
            means_rows,
            frequencies_rows,
            height: bottom + MARGIN,
        }
    }

    /// The left edge of the y tick labels' area: the margin and a strip for
    /// the y axis description, which is drawn by hand so that both panels'
    /// descriptions share a column.
    fn plot_left() -> i32 {
        MARGIN + text_height(AXIS_DESC_SIZE) + 10
    }
}

/// The legend: the points, the error bars if any category has an
/// interval, the reference line if any, and the frequency bars if any.
fn legend(chart: &MeanChart) -> Vec<(Key, String)> {
    let mut entries = vec![(Key::Point(PointKind::Plain), "mean".to_string())];
    if chart.intervals.iter().any(Option::is_some) {
        entries.push((Key::ErrorBar, "95% interval".to_string()));
    }
    if let Some(reference) = &chart.reference {
        let key = Key::Line {
            colour: reference_colour(),
            dashed: true,
        };
        entries.push((key, reference.name.clone()));
    }
    if let Some(frequencies) = &chart.frequencies {
        entries.push((Key::Bar, frequencies.y_label.clone()));
    }
    entries
}

/// The y range of the means: from the least to the greatest of every mean,
/// interval end, zero and the reference value, widened by [`Y_PADDING`]
/// of that span either side (by 1 when the span is empty: everything is
/// zero).
pub(super) fn y_range(chart: &MeanChart) -> Range<f64> {
    let (low, high) = chart
        .means
        .iter()
        .flatten()
        .copied()
        .chain(chart.intervals.iter().flatten().flat_map(|&(l, h)| [l, h]))
        .chain(chart.reference.as_ref().map(|r| r.value))
        .fold((0.0_f64, 0.0_f64), |(low, high), v| {
            (low.min(v), high.max(v))
        });
    let pad = if high > low {
        (high - low) * Y_PADDING
    } else {
        1.0
    };
    low - pad..high + pad
}

/// A y tick label of the means: at most three decimals, trailing zeros
/// removed.
fn mean_label(value: &f64) -> String {
    trimmed(*value, 3)
}

fn draw(root: &Area<'_>, chart: &MeanChart, layout: &MeanLayout) -> Drawn {
    layout.header.draw(root)?;
    draw_means(root, chart, layout)?;
    if let (Some(frequencies), Some(rows)) = (&chart.frequencies, &layout.frequencies_rows) {
        let area = panel_area(root, rows);
        let y_top = percent_top(highest(&frequencies.values, None));
        let frame = Frame {
            margins: [TICK_OVERHANG, MARGIN + 8, 0, MeanLayout::plot_left()],
            label_areas: (layout.label_area, x_axis_area()),
            tick_size: LABEL_SIZE,
            y: YAxis {
                range: 0.0..y_top,
                ticks: 4,
                label: &percent_label,
                description: None,
                grid: true,
            },
        };
        let n = chart.categories.len();
        let mut plot = frame.draw(&area, n)?;
        let tops: Vec<f64> = frequencies.values.iter().map(|f| f * 100.0).collect();
        draw_bars(&mut plot, &tops, 0.0, BAR_WIDTH / 2.0)?;
        draw_baseline(&mut plot, n, 0.0)?;
        draw_y_label(root, &plot, &frequencies.y_label, 0.0..y_top)?;
        draw_x_axis(root, (&plot, 0.0), &x_labels(chart, &plot), &chart.x_label)?;
    }
    Ok(())
}

/// The part of the picture at pixel `rows`, the whole width.
fn panel_area<'b>(root: &Area<'b>, rows: &Range<i32>) -> Area<'b> {
    let width = root.dim_in_pixel().0;
    root.clone()
        .shrink((0, rows.start), (width, (rows.end - rows.start) as u32))
}

/// The category labels under the lowest panel: all when they fit, else
/// thinned.
fn x_labels(chart: &MeanChart, plot: &Plot<'_, '_>) -> XLabels {
    let slot = slot(plot, chart.categories.len());
    XLabels::thinned(&chart.categories, slot, LABEL_SIZE)
}

/// Draws a panel's y axis description beside its tick labels, centred on
/// its plotting area (whose y range is `range`), fitted to its height
/// (see [`super::layout::description_lines`]).
fn draw_y_label(root: &Area<'_>, plot: &Plot<'_, '_>, text: &str, range: Range<f64>) -> Drawn {
    let (_, bottom) = plot.backend_coord(&(0.0, range.start));
    let (_, top) = plot.backend_coord(&(0.0, range.end));
    let x = MARGIN + text_height(AXIS_DESC_SIZE) / 2;
    draw_y_description_fitted(root, text, x, (top, bottom))
}

/// Draws the means' panel: its axis, the zero and reference lines, the
/// error bars and points, and, when it is the only panel, the x axis
/// labels and description (else tick marks at every category, the labels
/// being under the frequencies).
fn draw_means(root: &Area<'_>, chart: &MeanChart, layout: &MeanLayout) -> Drawn {
    let n = chart.categories.len();
    let alone = layout.frequencies_rows.is_none();
    let area = panel_area(root, &layout.means_rows);
    let range = layout.y_range.clone();
    let frame = Frame {
        margins: [
            TICK_OVERHANG,
            MARGIN + 8,
            if alone { 0 } else { TICK_OVERHANG },
            MeanLayout::plot_left(),
        ],
        label_areas: (layout.label_area, if alone { x_axis_area() } else { 0 }),
        tick_size: LABEL_SIZE,
        y: YAxis {
            range: range.clone(),
            ticks: 8,
            label: &mean_label,
            description: None,
            grid: true,
        },
    };
    let plot = frame.draw(&area, n)?;
    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));
    let (left, bottom) = pixel(x_range(n).start, range.start);
    let (right, _) = pixel(x_range(n).end, range.start);

    // Zero, then the reference over it, then the x axis line.
    draw_line(root, (left, right), pixel(0.0, 0.0).1, BLACK, false)?;
    if let Some(reference) = &chart.reference {
        let y = pixel(0.0, reference.value).1;
        draw_line(root, (left, right), y, reference_colour(), true)?;
    }
    draw_line(root, (left, right), bottom, BLACK, false)?;

    // Error bars, then the points over them; on the root, so that nothing
    // at the plot's edge is clipped.
    let slot = slot(&plot, n);
    let radius = (slot * 0.12).round().clamp(3.0, 4.0) as i32;
    let cap = (slot * 0.12).round().clamp(2.0, 5.0) as i32;
    for (i, interval) in chart.intervals.iter().enumerate() {
        if let Some((low, high)) = *interval {
            let (x, top) = pixel(i as f64, high);
            let (_, bottom) = pixel(i as f64, low);
            draw_error_bar(root, x, (top, bottom), cap, NOTE.stroke_width(1))?;
        }
    }
    for (i, mean) in chart.means.iter().enumerate() {
        if let Some(mean) = *mean {
            draw_point(root, PointKind::Plain, pixel(i as f64, mean), radius)?;
        }
    }
    draw_y_label(root, &plot, &chart.y_label, range.clone())?;

    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64, range.start).0).collect();
    if alone {
        x_labels(chart, &plot).draw(root, &xs, bottom, LABEL_SIZE)?;
        let y = bottom + 8 + text_height(LABEL_SIZE) + 10;
        return draw_x_description(root, &chart.x_label, (left, right), y);
    }
    for x in xs {
        root.draw(&PathElement::new(
            vec![(x, bottom), (x, bottom + 3)],
            BLACK.stroke_width(1),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{
        assert_deterministic, assert_shows, fills, has_text, refusal, x_tick_labels,
    };
    use super::super::types::{Frequencies, MeanChart, ReferenceLine};
    use super::{MeanLayout, render_means_svg, y_range};

    /// Five true counts, one without a mean, in percent of the bet.
    fn small_chart() -> MeanChart {
        MeanChart {
            title: "Value per round by true count (hi-lo)".to_string(),
            caption: String::new(),
            size: Default::default(),
            x_label: "true count".to_string(),
            y_label: "value per round (% of the bet)".to_string(),
            categories: ["≤-2", "-1", "0", "+1", "≥+2"].map(String::from).to_vec(),
            means: vec![None, Some(-1.5), Some(-0.5), Some(0.5), Some(2.0)],
            intervals: vec![
                None,
                Some((-2.5, -0.5)),
                Some((-0.75, -0.25)),
                Some((0.0, 1.0)),
                Some((0.5, 3.5)),
            ],
            reference: Some(ReferenceLine {
                value: -0.41,
                name: "all rounds: -0.41 %".to_string(),
            }),
            frequencies: Some(Frequencies {
                y_label: "percent of rounds".to_string(),
                values: vec![0.0, 0.2, 0.5, 0.25, 0.05],
            }),
        }
    }

    /// The number of `<circle` elements filled blue: the points and the
    /// legend's.
    fn points(svg: &str) -> usize {
        fills(svg, "circle")
            .into_iter()
            .filter(|fill| *fill == "#0072B2")
            .count()
    }

    #[test]
    fn means_chart_snapshot() {
        insta::assert_snapshot!(render_means_svg(&small_chart()).unwrap());
    }

    #[test]
    fn means_show_points_lines_panels_and_legend() {
        let chart = small_chart();
        let svg = render_means_svg(&chart).unwrap();
        assert_shows(
            &svg,
            &[
                "Value per round by true count (hi-lo)",
                "true count",
                "value per round (% of the bet)",
                "percent of rounds",
                "mean",
                "95% interval",
                "all rounds: -0.41 %",
            ],
        );
        // Labels once, under the frequencies.
        assert_eq!(x_tick_labels(&svg, 14), chart.categories);
        // Four means (the first category has none), and the legend's.
        assert_eq!(points(&svg), 4 + 1, "{svg}");
        // The reference line, dashed, in bluish green.
        assert!(svg.contains("#009E73"), "{svg}");
        // Five bars, and the legend's: filled sky blue.
        let bars = fills(&svg, "rect")
            .into_iter()
            .filter(|fill| *fill == "#56B4E9")
            .count();
        assert_eq!(bars, 5 + 1, "{svg}");
        let layout = MeanLayout::new(&chart);
        assert!(svg.contains(&format!(r#"width="900" height="{}""#, layout.height)));
        assert_deterministic(render_means_svg, &chart);
    }

    #[test]
    fn without_frequencies_or_intervals_the_chart_is_one_panel() {
        let mut chart = small_chart();
        let two_panels = MeanLayout::new(&chart).height;
        chart.frequencies = None;
        chart.intervals = vec![None; 5];
        chart.reference = None;
        let svg = render_means_svg(&chart).unwrap();
        assert!(MeanLayout::new(&chart).height < two_panels);
        assert_eq!(x_tick_labels(&svg, 14), chart.categories);
        assert_eq!(points(&svg), 4 + 1, "{svg}");
        for absent in ["percent of rounds", "95% interval", "all rounds: -0.41 %"] {
            assert!(!has_text(&svg, absent), "{absent} in {svg}");
        }
        assert!(
            !svg.contains("#009E73") && !svg.contains("#56B4E9"),
            "{svg}"
        );
    }

    #[test]
    fn the_y_range_covers_intervals_zero_and_the_reference() {
        let chart = small_chart();
        let range = y_range(&chart);
        // -2.5..3.5 widened by 8% of 6 either side.
        assert!((range.start - (-2.5 - 0.48)).abs() < 1e-12, "{range:?}");
        assert!((range.end - (3.5 + 0.48)).abs() < 1e-12, "{range:?}");

        // All positive: zero stays in; not symmetric.
        let mut positive = chart.clone();
        positive.means = vec![Some(10.0); 5];
        positive.intervals = vec![Some((9.0, 12.0)); 5];
        positive.reference = Some(ReferenceLine {
            value: 14.0,
            name: String::new(),
        });
        let range = y_range(&positive);
        assert!(range.start < 0.0 && range.start > -2.0, "{range:?}");
        assert!(range.end > 14.0, "{range:?}");

        // Nothing but zero: a unit either side.
        let mut empty = chart;
        empty.means = vec![None; 5];
        empty.intervals = vec![None; 5];
        empty.reference = None;
        assert_eq!(y_range(&empty), -1.0..1.0);
        let svg = render_means_svg(&empty).unwrap();
        assert_eq!(points(&svg), 1, "{svg}");
    }

    #[test]
    fn many_categories_get_thinned_labels() {
        let mut chart = small_chart();
        chart.categories = (0..80).map(|i| format!("{}", 1000 + i)).collect();
        chart.means = (0..80).map(|i| Some(f64::from(i % 7) - 3.0)).collect();
        chart.intervals = vec![None; 80];
        chart.frequencies = Some(Frequencies {
            y_label: "percent of rounds".to_string(),
            values: vec![1.0 / 80.0; 80],
        });
        let svg = render_means_svg(&chart).unwrap();
        let shown = x_tick_labels(&svg, 14);
        assert_eq!(shown.first(), Some(&"1000"), "{shown:?}");
        assert!(!shown.contains(&"1001"), "{shown:?}");
        assert!(shown.len() >= 10, "{shown:?}");
        assert_eq!(points(&svg), 80 + 1);
    }

    #[test]
    fn means_input_is_validated() {
        let check = |change: &dyn Fn(&mut MeanChart), expected: &str| {
            assert_eq!(refusal(render_means_svg, &small_chart(), change), expected);
        };
        check(
            &|c| {
                c.categories.clear();
                c.means.clear();
                c.intervals.clear();
            },
            "chart without categories: needs at least one category",
        );
        check(
            &|c| {
                c.means.pop();
            },
            "chart means has 4 values for 5 categories: needs one mean (or none) per category",
        );
        check(
            &|c| c.intervals.push(None),
            "chart intervals has 6 values for 5 categories: \
             needs one interval (or none) per category",
        );
        for bad in [f64::NAN, f64::INFINITY] {
            check(
                &|c| c.means[2] = Some(bad),
                &format!(
                    "chart category \"0\": mean {bad}: must be finite (leave an undefined mean out)"
                ),
            );
        }
        check(
            &|c| c.intervals[3] = Some((1.0, 0.0)),
            "chart category \"+1\": interval [1, 0]: must be finite with low <= high",
        );
        check(
            &|c| c.intervals[3] = Some((0.0, f64::NAN)),
            "chart category \"+1\": interval [0, NaN]: must be finite with low <= high",
        );
        check(
            &|c| c.intervals[0] = Some((0.0, 1.0)),
            "chart category \"≤-2\": interval [0, 1] without a mean: \
             an interval needs the mean it surrounds",
        );
        check(
            &|c| c.intervals[4] = Some((0.5, 1.5)),
            "chart category \"≥+2\": interval [0.5, 1.5] around mean 2: must contain its mean",
        );
        check(
            &|c| {
                c.frequencies.as_mut().unwrap().values.pop();
            },
            "chart frequencies has 4 values for 5 categories: needs one value per category",
        );
        check(
            &|c| c.frequencies.as_mut().unwrap().values[1] = 1.5,
            "chart frequencies, category \"-1\": value 1.5: must be a probability in [0, 1]",
        );
        check(
            &|c| c.reference.as_mut().unwrap().value = f64::NEG_INFINITY,
            "chart reference line \"all rounds: -0.41 %\": value -inf: must be finite",
        );
    }
}
