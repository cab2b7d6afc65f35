//! The z-score plot ([`ZScorePlot`], drawn by
//! [`render_z_scores_svg`]): the per-outcome z-scores of a
//! comparison, one panel per compared distribution, 900 pixels wide and as
//! tall as its rows of panels need. Each panel has its own symmetric y
//! range (at least ±4, covering every point and the critical value) and
//! reference lines at 0, ±2 and ± the critical value; points beyond the
//! critical value are vermillion triangles drawn last, pooled outcomes
//! hollow circles. Panels go up to three side by side when every outcome
//! label then fits, else one per row with the labels thinned; the axis
//! descriptions are written once for all panels.
//!
//! Guarantees: as [`render_z_scores_svg`]'s; an outcome without a
//! z-score keeps its place on the x axis.

use plotters::prelude::*;

use super::frame::{PanelGrid, Rows, YAxis, most_columns, panel_plot_width, trimmed, x_range};
use super::layout::{
    ALARM, AXIS_DESC_SIZE, Area, Drawn, Header, Key, MARGIN, NOTE, PointKind, SMALL_SIZE, Title,
    XLabels, draw_x_description, draw_y_description, label_step, text_height, text_width,
};
use super::marks::{draw_line, draw_point};
use super::scaffold::{render_with, validate_panels};
use super::types::{CriticalValue, ZPanel, ZPoint, ZScorePlot};
use crate::error::{Error, Result};

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
    validate(plot)?;
    let grid = layout(plot);
    let desc = format!(
        "Per-outcome z-scores, {}, one panel each: {}.",
        plot.y_label,
        plot.panels
            .iter()
            .map(|p| p.title.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    render_with(
        plot.size,
        grid.height() as u32,
        (&plot.title, &desc),
        |root| draw(root, plot, &grid),
    )
}

/// Refuses a critical value that is not finite and positive, a plot
/// without panels, a panel without outcomes, and a z-score that is not
/// finite.
pub(super) fn validate(plot: &ZScorePlot) -> Result<()> {
    if let Some(CriticalValue { z, .. }) = plot.critical
        && !(z.is_finite() && z > 0.0)
    {
        return Err(Error::invalid(
            "chart",
            format!("critical value {z}"),
            "must be a finite positive |z|",
        ));
    }
    validate_panels(
        &plot.panels,
        |panel| (&panel.title, panel.points.len()),
        ("outcomes", "outcome"),
        |name, panel| {
            let not_finite = |p: &&ZPoint| p.z.is_some_and(|z| !z.is_finite());
            match panel.points.iter().find(not_finite) {
                Some(point) => Err(Error::invalid(
                    "chart",
                    format!(
                        "{name}, outcome \"{}\": z-score {}",
                        point.label,
                        point.z.unwrap_or_default()
                    ),
                    "must be finite (leave an undefined z-score out)",
                )),
                None => Ok(()),
            }
        },
    )
}

/// Height of a row of panels of a z-score plot with several rows, in
/// pixels.
const PANEL_HEIGHT: i32 = 230;
/// Height of the only row of panels, in pixels: taller, so that the y axis
/// description fits beside it.
const SINGLE_PANEL_HEIGHT: i32 = 400;
/// The most panels side by side.
const MAX_COLUMNS: usize = 3;
/// The least half-height of a z-score panel's y range.
const MIN_Z_RANGE: f64 = 4.0;

/// Left of the panels: a strip for the y axis description, written once
/// for all of them.
fn y_desc_strip() -> i32 {
    text_height(AXIS_DESC_SIZE) + 10
}

/// Under the panels: room for the x axis description.
fn x_desc_area() -> i32 {
    10 + text_height(AXIS_DESC_SIZE) + MARGIN
}

/// The legend: the kinds of point the plot shows, then its reference
/// lines.
fn legend(plot: &ZScorePlot) -> Vec<(Key, String)> {
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
    legend
}

/// Where the z-score plot's pieces go: the title, the legend and the
/// panels, as many side by side as keep every outcome label.
pub(super) fn layout(plot: &ZScorePlot) -> PanelGrid {
    let title = Title::wrapped(&plot.title, plot.size.width()).with_caption(&plot.caption);
    let header = Header::new(title, legend(plot));

    // Every panel gets the tick-label area of the widest range.
    let widest_range = plot
        .panels
        .iter()
        .map(|p| z_range(p, z_critical(plot)))
        .fold(MIN_Z_RANGE, f64::max);
    let label_area = text_width(&format!("-{:.0}.5", widest_range.ceil()), SMALL_SIZE) + 12;

    // As many columns as keep every label of every panel.
    let left = MARGIN + y_desc_strip();
    let columns = most_columns(plot.panels.len().min(MAX_COLUMNS), |columns| {
        let slot = f64::from(panel_plot_width(
            plot.size.width(),
            left,
            columns,
            label_area,
        ));
        plot.panels.iter().all(|panel| {
            let labels = outcome_labels(panel);
            label_step(&labels, slot / labels.len() as f64, SMALL_SIZE) == 1
        })
    });
    let row_height = if plot.panels.len() <= columns {
        SINGLE_PANEL_HEIGHT
    } else {
        PANEL_HEIGHT
    };
    let titles = plot.panels.iter().map(|p| p.title.as_str());
    PanelGrid::new(header, (left, columns), label_area, titles, |_| Rows {
        height: row_height,
        gap: 0,
        footer: x_desc_area(),
    })
}

/// A panel's outcome labels, in x order.
fn outcome_labels(panel: &ZPanel) -> Vec<String> {
    panel.points.iter().map(|p| p.label.clone()).collect()
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
fn z_label(value: &f64) -> String {
    trimmed(*value, 2)
}

pub(super) fn draw(root: &Area<'_>, plot: &ZScorePlot, grid: &PanelGrid) -> Drawn {
    grid.header.draw(root)?;
    for (index, panel) in plot.panels.iter().enumerate() {
        draw_panel(root, plot, grid, index, panel)?;
    }

    // The axis descriptions, once for all panels.
    let panels_bottom = grid.bottom();
    let left = MARGIN + y_desc_strip();
    let right = grid.header.title.width - MARGIN;
    draw_x_description(root, &plot.x_label, (left, right), panels_bottom + 10)?;
    let at = (
        MARGIN + text_height(AXIS_DESC_SIZE) / 2,
        (grid.top() + panels_bottom) / 2,
    );
    draw_y_description(root, &plot.y_label, at, AXIS_DESC_SIZE)
}

fn draw_panel(
    root: &Area<'_>,
    plot: &ZScorePlot,
    grid: &PanelGrid,
    index: usize,
    panel: &ZPanel,
) -> Drawn {
    let (area, _) = grid.open(root, index)?;
    let n = panel.points.len();
    let range = z_range(panel, z_critical(plot));
    let y = YAxis {
        range: -range..range,
        ticks: 9,
        label: &z_label,
        description: None,
        grid: false,
    };
    let tick_area = 8 + text_height(SMALL_SIZE) + 8;
    let chart = grid.frame(tick_area, y).draw(&area, n)?;
    let pixel = |x: f64, y: f64| chart.backend_coord(&(x, y));
    let (left, bottom) = pixel(x_range(n).start, -range);
    let (right, _) = pixel(x_range(n).end, -range);

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
    draw_line(root, (left, right), bottom, BLACK, false)?;

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

    let xs: Vec<i32> = (0..n).map(|i| pixel(i as f64, -range).0).collect();
    let labels = XLabels::thinned(&outcome_labels(panel), slot, SMALL_SIZE);
    labels.draw(root, &xs, bottom, SMALL_SIZE)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assert_shows, fills, has_text, refusal, x_tick_labels};
    use super::super::types::{CriticalValue, ZPanel, ZPoint, ZScorePlot};
    use super::{MARGIN, PANEL_HEIGHT, layout, render_z_scores_svg, z_range};

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
            caption: String::new(),
            size: Default::default(),
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
        fills(svg, "circle")
            .into_iter()
            .filter(|fill| *fill == colour)
            .count()
    }

    #[test]
    fn z_scores_show_points_lines_and_legend() {
        let plot = z_plot();
        let svg = render_z_scores_svg(&plot).unwrap();
        assert_shows(
            &svg,
            &[
                "Roll-Call: Monte Carlo vs exact",
                "K=1: χ² = 3.10, df 3, p = 0.3765: agree",
                "passes",
                "outcome",
                "z = (observed - expected) / standard error",
                "z-score of one outcome",
                "z = 0",
                "z = ±2",
            ],
        );
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
        assert_shows(
            &svg,
            &[
                "beyond ±2.40",
                "z = ±2.40, the critical value (Bonferroni over 5 cells, level 0.05)",
                "outcome pooled for the chi-square test (expected count below 5)",
            ],
        );
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
        let every_second: Vec<String> = (0..53).step_by(2).map(|i| i.to_string()).collect();
        assert_eq!(x_tick_labels(&svg, 12), every_second);
        assert_eq!(circles(&svg, "#0072B2"), 53 + 1);
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
        let grid = layout(&plot);
        assert_eq!(grid.columns, 2);
        assert_eq!(
            grid.height(),
            grid.top() + 5 * PANEL_HEIGHT + 10 + 20 + MARGIN
        );
        // Fifty-three outcomes need a whole row.
        plot.panels[3].points = (0..53)
            .map(|i| ZPoint {
                label: i.to_string(),
                z: None,
                pooled: false,
            })
            .collect();
        assert_eq!(layout(&plot).columns, 1);
    }

    #[test]
    fn z_input_is_validated() {
        let check = |change: &dyn Fn(&mut ZScorePlot), expected: &str| {
            assert_eq!(refusal(render_z_scores_svg, &z_plot(), change), expected);
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
}
