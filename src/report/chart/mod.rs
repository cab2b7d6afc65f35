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
//! decides where it goes. This module holds the data types, the four
//! `render_*` functions and what they share: `render_with` (a white SVG
//! document of a given size, drawn by a closure) and the validation of
//! labels and values. Each chart kind is validated, laid out and drawn in
//! a file of its own (`bars`, `stacked`, `zscores`, `panels`), with the
//! text layout of `layout` (text measurement, fonts, titles, legends, x
//! labels, colours), the plotting frame and panel grid of `frame`, and the
//! marks of `marks` (bars, markers, points, lines, error bars, legend
//! keys).
//!
//! Text is left to the viewer: no font file is read at build or run time,
//! and the layout estimates text widths generously (see `layout`).
//!
//! Colours are from the Okabe–Ito palette, which stays distinguishable under
//! the common colour-vision deficiencies; overlaid series also differ in
//! marker shape, so the chart reads in grey too.

mod bars;
mod frame;
mod layout;
mod marks;
mod panels;
mod stacked;
mod zscores;

use plotters::prelude::*;

use crate::error::{Error, Result};
use layout::{Area, Drawn, HEIGHT, WIDTH};

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

/// Renders the chart as a standalone SVG document, 900 × 500 pixels (y
/// axis in percent; see `bars` for the layout).
///
/// Guarantees: deterministic output (the same chart gives the same bytes),
/// no I/O, no fonts needed. Errors: no category, no series, a series
/// without exactly one value (and, if given, one interval) per category, a
/// value outside `[0, 1]`, or an interval that is not `0 <= low <= high <=
/// 1`.
pub fn render_svg(chart: &BarChart) -> Result<String> {
    bars::validate(chart)?;
    render_with((WIDTH, HEIGHT), &chart.title, |root| {
        bars::draw(root, chart)
    })
}

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
    stacked::validate(chart)?;
    render_with((WIDTH, HEIGHT), &chart.title, |root| {
        stacked::draw(root, chart)
    })
}

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
    zscores::validate(plot)?;
    let grid = zscores::layout(plot);
    render_with((WIDTH, grid.height() as u32), &plot.title, |root| {
        zscores::draw(root, plot, &grid)
    })
}

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
    panels::validate(chart)?;
    let layout = panels::PanelLayout::new(chart);
    render_with((WIDTH, layout.grid.height() as u32), &chart.title, |root| {
        panels::draw(root, chart, &layout)
    })
}

/// Draws `draw` into a fresh SVG document of `size` pixels on a white
/// ground; an error is reported against the chart titled `title`.
fn render_with(
    size: (u32, u32),
    title: &str,
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn: Drawn = (|| {
            root.fill(&WHITE)?;
            draw(&root)?;
            root.present()?;
            Ok(())
        })();
        // Drawing into a string has no way to fail on validated input;
        // should plotters report something anyway, the user hears it
        // against the chart.
        drawn.map_err(|e| Error::invalid("chart", title, format!("cannot be drawn: {e}")))?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------
// Validation shared by the chart kinds.

/// Refuses `count` zero: `chart {missing}: needs at least one {item}`.
fn at_least_one(count: usize, missing: &str, item: &str) -> Result<()> {
    if count == 0 {
        return Err(Error::invalid(
            "chart",
            missing,
            format!("needs at least one {item}"),
        ));
    }
    Ok(())
}

/// The rows of a chart over one set of categories (a bar chart's series,
/// a stacked chart's segments): each one's name, values and, if any,
/// intervals.
type Rows<'r> = [(&'r str, &'r [f64], Option<&'r [(f64, f64)]>)];

/// Checks a chart of `rows` over `categories`: at least one category and
/// one row (`kind` names them, plural then singular: `("segments",
/// "segment")`), and every row by [`validate_values`], named `segment
/// "bust"`.
fn validate_rows(categories: &[String], kind: (&str, &str), rows: &Rows<'_>) -> Result<()> {
    let (plural, singular) = kind;
    at_least_one(categories.len(), "without categories", "category")?;
    at_least_one(rows.len(), &format!("without {plural}"), singular)?;
    for &(name, values, intervals) in rows {
        let name = format!("{singular} \"{name}\"");
        validate_values(&name, categories, values, intervals)?;
    }
    Ok(())
}

/// Checks a chart of `panels`: at least one panel, and in each panel, in
/// order, at least one outcome (`outline` gives a panel's heading and its
/// number of outcomes; `kind` names them, plural then singular), then
/// whatever `check` checks, which is given the name errors call the panel
/// by: `panel "heading"`, or `panel 3` when it has no heading.
fn validate_panels<P>(
    panels: &[P],
    outline: impl Fn(&P) -> (&str, usize),
    (plural, singular): (&str, &str),
    check: impl Fn(&str, &P) -> Result<()>,
) -> Result<()> {
    at_least_one(panels.len(), "without panels", "panel")?;
    for (index, panel) in panels.iter().enumerate() {
        let (title, outcomes) = outline(panel);
        let name = match title {
            "" => format!("panel {}", index + 1),
            title => format!("panel \"{title}\""),
        };
        at_least_one(outcomes, &format!("{name} without {plural}"), singular)?;
        check(&name, panel)?;
    }
    Ok(())
}

/// Checks one set of values, named `name` in errors (`series "x"`,
/// `segment "y"`, `panel "z"`): a value per category, each a probability,
/// and if given an interval per category with `0 <= low <= high <= 1`.
fn validate_values(
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

#[cfg(test)]
pub(crate) mod tests {
    /// Every `<text>` element's attributes and contents, the contents
    /// trimmed (the backend puts them on lines of their own), with XML
    /// entities left as written.
    fn text_elements(svg: &str) -> Vec<(&str, &str)> {
        svg.split("<text")
            .skip(1)
            .filter_map(|element| {
                let (attributes, rest) = element.split_once('>')?;
                let (content, _) = rest.split_once("</text>")?;
                Some((attributes, content.trim()))
            })
            .collect()
    }

    /// The contents of every `<text>` element (see [`text_elements`]).
    /// Shared with the tests of `figures`.
    pub(crate) fn texts(svg: &str) -> Vec<&str> {
        text_elements(svg)
            .into_iter()
            .map(|(_, content)| content)
            .collect()
    }

    /// The message with which `render` refuses `chart` after `change`.
    pub(super) fn refusal<T: Clone>(
        render: impl Fn(&T) -> crate::error::Result<String>,
        chart: &T,
        change: impl FnOnce(&mut T),
    ) -> String {
        let mut chart = chart.clone();
        change(&mut chart);
        render(&chart).unwrap_err().to_string()
    }

    /// Asserts that `svg` shows every one of `expected` as a text.
    pub(super) fn assert_shows(svg: &str, expected: &[&str]) {
        let shown = texts(svg);
        for text in expected {
            assert!(shown.contains(text), "{text} in {shown:?}");
        }
    }

    /// The fill colours of the `<name ...>` elements of `svg` (`rect`,
    /// `circle`), in document order.
    pub(super) fn fills<'s>(svg: &'s str, name: &str) -> Vec<&'s str> {
        svg.split(&format!("<{name} "))
            .skip(1)
            .filter_map(|element| attribute(element.split_once('>')?.0, "fill"))
            .collect()
    }

    /// The value of attribute `name` among an element's `attributes`.
    pub(super) fn attribute<'s>(attributes: &'s str, name: &str) -> Option<&'s str> {
        let (_, rest) = attributes.split_once(&format!(" {name}=\""))?;
        Some(rest.split_once('"')?.0)
    }

    /// Asserts that `render` draws `chart` to the same bytes twice.
    pub(super) fn assert_deterministic<T>(
        render: impl Fn(&T) -> crate::error::Result<String>,
        chart: &T,
    ) {
        assert_eq!(render(chart).unwrap(), render(chart).unwrap());
    }

    pub(super) fn has_text(svg: &str, text: &str) -> bool {
        texts(svg).contains(&text)
    }

    /// The category labels under the x axis: the texts hung from their top
    /// at `font_size` pixels (the y tick labels are anchored at their end).
    pub(super) fn x_tick_labels(svg: &str, font_size: u32) -> Vec<&str> {
        let attributes = format!(
            r#"dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="{font_size}""#
        );
        text_elements(svg)
            .into_iter()
            .filter(|(element, _)| element.contains(&attributes))
            .map(|(_, content)| content)
            .collect()
    }
}
