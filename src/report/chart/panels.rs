//! The small multiples ([`PanelChart`], drawn by
//! [`render_panels_svg`]): several distributions of one report, one
//! bar panel each, 900 pixels wide and as tall as its rows of panels need.
//! Two panels go side by side unless a panel's text labels would then be
//! thinned; every panel has its heading, its own y axis in percent (so that
//! a panel of small probabilities is not flattened by its neighbours), its
//! bars (no wider than [`WIDEST_BAR`]) with their error bars, and its
//! categories along x: numbers thinned to multiples of a step when crowded,
//! text wrapped onto two lines first.
//!
//! Guarantees: as [`render_panels_svg`]'s; every category keeps a
//! tick mark, whether or not its label is shown.

use plotters::prelude::*;

use super::bars::{Scale, highest, placed};
use super::frame::{PanelGrid, Rows, YAxis, most_columns, panel_plot_width, slot, x_range};
use super::layout::{
    Area, Drawn, Header, Key, LABEL_GAP, MARGIN, NOTE, SMALL_SIZE, Title, XLabels,
    draw_y_description, label_step, text_height, text_width,
};
use super::marks::{BAR_WIDTH, draw_bars, draw_error_bar, draw_line};
use super::scaffold::{render_with, validate_panels, validate_values};
use super::types::{BarPanel, PanelChart};
use crate::error::Result;

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
    validate(chart)?;
    let layout = PanelLayout::new(chart);
    let desc = format!(
        "Bar charts of {}, one panel each: {}.",
        chart.y_label,
        chart
            .panels
            .iter()
            .map(|p| p.title.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    render_with(
        chart.size,
        layout.grid.height() as u32,
        (&chart.title, &desc),
        |root| draw(root, chart, &layout),
    )
}

/// Refuses a chart without panels, a panel without categories, and a
/// panel that is not a probability (and, if given, an interval) per
/// category; the message names the panel and category.
pub(super) fn validate(chart: &PanelChart) -> Result<()> {
    validate_panels(
        &chart.panels,
        |panel| (&panel.title, panel.categories.len()),
        ("categories", "category"),
        |name, panel| {
            let intervals = panel.intervals.as_deref();
            validate_values(name, &panel.categories, &panel.values, intervals)
        },
    )
}

/// The most panels side by side in a [`PanelChart`].
const PANEL_COLUMNS: usize = 2;
/// Height of a bar panel's plotting area, in pixels.
const PANEL_PLOT_HEIGHT: i32 = 170;
/// Vertical room between rows of bar panels, in pixels.
const PANEL_ROW_GAP: i32 = 14;
/// The widest bar of a panel with few categories, in pixels.
const WIDEST_BAR: f64 = 56.0;
/// The narrowest plotting area of panels side by side, in pixels: a
/// narrower one (a chart for a journal's column) would set its heading in
/// unreadably small type.
const NARROWEST_SIDE_BY_SIDE: i32 = 220;

/// Where the small multiples' pieces go, in pixels.
pub(super) struct PanelLayout {
    /// The title, the legend and the panels.
    pub(super) grid: PanelGrid,
    /// Every panel's x labels, each as its lines (see [`x_label_lines`]).
    pub(super) labels: Vec<XLabels>,
    /// The height under a panel's x axis for its labels.
    pub(super) tick_area: i32,
}

impl PanelLayout {
    pub(super) fn new(chart: &PanelChart) -> PanelLayout {
        let mut legend = vec![(Key::Bar, chart.bars_name.clone())];
        if chart.panels.iter().any(|p| p.intervals.is_some()) {
            legend.push((Key::ErrorBar, "95% interval".to_string()));
        }
        let width = chart.size.width();
        let title = Title::wrapped(&chart.title, width).with_caption(&chart.caption);
        let header = Header::new(title, legend);

        // Room for the y description and the widest plausible tick label.
        let label_area = text_height(SMALL_SIZE) + 6 + text_width("00.005", SMALL_SIZE) + 8;

        // Two columns unless some panel's text labels would then be
        // thinned; numbers may be.
        let labels_at = |columns: usize| -> Vec<XLabels> {
            let room = f64::from(panel_plot_width(width, MARGIN, columns, label_area));
            chart
                .panels
                .iter()
                .map(|panel| {
                    let slot = room / panel.categories.len() as f64;
                    x_label_lines(&panel.categories, slot)
                })
                .collect()
        };
        let columns = most_columns(chart.panels.len().min(PANEL_COLUMNS), |columns| {
            let wide_enough = columns == 1
                || panel_plot_width(width, MARGIN, columns, label_area) >= NARROWEST_SIDE_BY_SIDE;
            wide_enough
                && labels_at(columns)
                    .iter()
                    .zip(&chart.panels)
                    .all(|(labels, panel)| labels.step == 1 || all_numbers(&panel.categories))
        });
        let labels = labels_at(columns);
        let most_lines = labels
            .iter()
            .flat_map(|labels| labels.lines.iter().map(Vec::len))
            .max()
            .unwrap_or(1) as i32;
        let tick_area = 8 + most_lines * text_height(SMALL_SIZE) + 4;

        let titles = chart.panels.iter().map(|p| p.title.as_str());
        let grid = PanelGrid::new(header, (MARGIN, columns), label_area, titles, |heading| {
            Rows {
                height: heading + 4 + PANEL_PLOT_HEIGHT + tick_area + PANEL_ROW_GAP,
                gap: PANEL_ROW_GAP,
                footer: MARGIN,
            }
        });
        PanelLayout {
            grid,
            labels,
            tick_area,
        }
    }
}

/// Whether every label reads as a number (an axis a reader can follow
/// with some labels left out).
fn all_numbers(labels: &[String]) -> bool {
    labels
        .iter()
        .all(|label| label.trim().parse::<f64>().is_ok())
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
    XLabels {
        lines,
        step,
        first,
        minor_ticks: true,
    }
}

pub(super) fn draw(root: &Area<'_>, chart: &PanelChart, layout: &PanelLayout) -> Drawn {
    layout.grid.header.draw(root)?;
    for (index, panel) in chart.panels.iter().enumerate() {
        draw_panel(root, chart, layout, index, panel)?;
    }
    Ok(())
}

fn draw_panel(
    root: &Area<'_>,
    chart: &PanelChart,
    layout: &PanelLayout,
    index: usize,
    panel: &BarPanel,
) -> Drawn {
    let (area, (x, _)) = layout.grid.open(root, index)?;
    let n = panel.categories.len();

    // The panel's own y range, in percent, linear or log.
    let intervals = panel.intervals.as_deref();
    let scale = Scale::over(panel.log_y, placed(&panel.values, intervals));
    let highest = highest(&panel.values, intervals);
    let (range, ticks, label) = scale.axis(highest, 5);
    let y_top = range.end;
    let y = YAxis {
        range,
        ticks,
        label: &label,
        description: None,
        grid: true,
    };
    let base = scale.base();
    let mut plot = layout.grid.frame(layout.tick_area, y).draw(&area, n)?;
    // Bars, at most `WIDEST_BAR` pixels wide, outlined.
    let slot = slot(&plot, n);
    let half = (BAR_WIDTH / 2.0).min(WIDEST_BAR / 2.0 / slot);
    let tops: Vec<f64> = panel.values.iter().map(|&p| scale.y(p)).collect();
    draw_bars(&mut plot, &tops, base, half)?;
    let pixel = |x: f64, y: f64| plot.backend_coord(&(x, y));
    let (left, bottom) = pixel(x_range(n).start, base);
    let (right, top) = pixel(x_range(n).end, y_top);
    draw_line(root, (left, right), bottom, BLACK, false)?;

    // The y description, beside the tick labels.
    let at = (x + text_height(SMALL_SIZE) / 2, (top + bottom) / 2);
    draw_y_description(root, &scale.describe(&chart.y_label), at, SMALL_SIZE)?;

    // Error bars, on the root so that caps at the top are not clipped; on
    // a log axis an interval from 0 runs to the floor. There, outcomes
    // never seen get none: their upper ends are all alike (about 3.7 /
    // games) and say only how many games were played, which the caption
    // says, while a row of them would hide the tail that was seen.
    if let Some(intervals) = &panel.intervals {
        let cap = (slot * 0.12).round().clamp(1.0, 5.0) as i32;
        let never_seen = |i: usize| panel.values[i] == 0.0 && scale != Scale::Linear;
        for (i, &(low, high)) in intervals.iter().enumerate() {
            if never_seen(i) {
                continue;
            }
            let (px, high) = pixel(i as f64, scale.y(high));
            let (_, low) = pixel(i as f64, scale.y(low));
            draw_error_bar(root, px, (high, low), cap, NOTE.stroke_width(1))?;
        }
    }

    // Category labels: ticks at every one, labels as room allows, each
    // line under the last.
    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64, base).0).collect();
    layout.labels[index].draw(root, &xs, bottom, SMALL_SIZE)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_deterministic, assert_shows, refusal, texts};
    use super::super::types::{BarPanel, PanelChart};
    use super::{PanelLayout, render_panels_svg, x_label_lines};

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
            log_y: false,
        }
    }

    fn panel_chart() -> PanelChart {
        let numbers: Vec<String> = (0..53).map(|i| i.to_string()).collect();
        let numbers: Vec<&str> = numbers.iter().map(String::as_str).collect();
        let spread: Vec<f64> = (0..53).map(|i| if i < 10 { 0.1 } else { 0.0 }).collect();
        PanelChart {
            title: "Roll-Call (ranks 13; Monte Carlo, 1,000 games, seed 1)".to_string(),
            caption: String::new(),
            size: Default::default(),
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
        assert_shows(
            &svg,
            &[
                "Roll-Call (ranks 13; Monte Carlo, 1,000 games, seed 1)",
                "estimate from 1,000 games",
                "95% interval",
                "cards left, K = 1",
                "won without a strike",
                "passes",
                "yes",
                "no",
            ],
        );
        // One y description per panel; three panels in two rows.
        assert_eq!(
            shown.iter().filter(|t| **t == "percent of games").count(),
            3
        );
        let layout = PanelLayout::new(&chart);
        assert_eq!(layout.grid.columns, 2);
        assert!(svg.contains(&format!(r#"width="900" height="{}""#, layout.grid.height())));
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
        let three = PanelLayout::new(&chart).grid.height();
        chart.panels.truncate(2);
        let two = PanelLayout::new(&chart).grid.height();
        chart.panels.truncate(1);
        let one = PanelLayout::new(&chart);
        assert!(three > two, "{three} {two}");
        assert_eq!(one.grid.columns, 1);
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
            caption: String::new(),
            size: Default::default(),
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
        assert_deterministic(render_panels_svg, &panel_chart());
    }

    #[test]
    fn panel_input_is_validated() {
        let check = |change: &dyn Fn(&mut PanelChart), expected: &str| {
            let message = refusal(render_panels_svg, &panel_chart(), change);
            assert!(message.contains(expected), "{message}");
        };
        check(&|c| c.panels.clear(), "without panels");
        check(
            &|c| c.panels[1].categories.clear(),
            "panel \"won without a strike\" without categories",
        );
        check(
            &|c| {
                c.panels[2].values.pop();
            },
            "panel \"passes\" has 2 values for 3 categories",
        );
        check(
            &|c| c.panels[2].values[1] = f64::NAN,
            "panel \"passes\", category \"2\": value NaN",
        );
        check(
            &|c| c.panels[2].intervals = Some(vec![(0.0, 0.1)]),
            "has 1 intervals for 3 categories",
        );
        check(
            &|c| c.panels[1].intervals = Some(vec![(0.0, 0.1), (0.9, 0.8)]),
            "category \"no\": interval [0.9, 0.8]",
        );
        check(
            &|c| {
                c.panels[0].title.clear();
                c.panels[0].values[0] = 1.5;
            },
            "panel 1, category \"0\": value 1.5",
        );
    }
}
