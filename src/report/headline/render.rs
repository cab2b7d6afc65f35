//! Rendering of headlines (the answer a report leads with, see
//! [`crate::report::headline`]) and of version tables (one headline per version
//! of a game, side by side).
//!
//! Percentages here are the terminal table's: `percent_decimals` places,
//! but a probability that is not zero never prints as zero.

use serde_json::{Map, Value, json};

use crate::report::distributions::{
    Grid, fraction_text, header_line, interval95, json_head, latex_tabular, markdown_escape,
    markdown_table, one_line, readable_exact_percent, readable_float_percent,
    round_up_two_significant, tabled_text_with_labels,
};
use crate::report::figures::thousands;
use crate::report::headline::{Headline, HeadlineFigure, HeadlineValue, VersionTable};
use crate::report::{Format, RenderOptions, Report, RunBlocks};
use crate::stats::Z95;

/// The headline as lines for the terminal table: one per figure, labels
/// aligned, e.g. `P(win) = P(0 cards left): 0.69% (95% interval [0.67%,
/// 0.71%]; 6,910 of 1,000,000)`.
pub(crate) fn lines(headline: &Headline, decimals: usize) -> Vec<String> {
    let width = headline
        .figures
        .iter()
        .map(|f| f.label.chars().count() + 1)
        .max()
        .unwrap_or(0);
    headline
        .figures
        .iter()
        .map(|figure| {
            let label = format!("{}:", figure.label);
            format!("{label:<width$} {}", figure_text(figure, decimals))
        })
        .collect()
}

/// A figure's value, with its interval or exact fraction, and its note.
fn figure_text(figure: &HeadlineFigure, decimals: usize) -> String {
    let note = figure.note.as_deref();
    match &figure.value {
        HeadlineValue::Exact(p) => {
            let why = note.map_or_else(
                || format!("exactly {}", fraction_text(p)),
                |note| format!("exactly {}: {note}", fraction_text(p)),
            );
            format!("{}% ({why})", readable_exact_percent(p, decimals))
        }
        HeadlineValue::Estimate { count, trials } => {
            let interval = interval95(*count, *trials);
            let mut text = format!(
                "{}% (95% interval [{}%, {}%]; {} of {})",
                readable_float_percent(proportion(*count, *trials), decimals),
                readable_float_percent(interval.low, decimals),
                readable_float_percent(interval.high, decimals),
                thousands(*count),
                thousands(*trials)
            );
            if let Some(note) = note {
                text.push_str(&format!(" ({note})"));
            }
            text
        }
        HeadlineValue::Mean {
            estimate,
            standard_error,
        } => format!(
            "{estimate:.4} (standard error {standard_error:.4}, 95% interval [{:.4}, {:.4}])",
            estimate - Z95 * standard_error,
            estimate + Z95 * standard_error
        ),
        HeadlineValue::ByKey(values) => {
            let listed: Vec<String> = values
                .iter()
                .map(|(key, value)| format!("{key} {}%", plain_percent(value, decimals)))
                .collect();
            let mut text = listed.join(", ");
            let widest = values
                .iter()
                .filter_map(|(_, value)| half_width_points(value))
                .fold(0.0, f64::max);
            if widest > 0.0 {
                text.push_str(&format!(
                    " (95% intervals ±{} points at most)",
                    round_up_two_significant(widest)
                ));
            } else if values
                .iter()
                .all(|(_, value)| matches!(value, HeadlineValue::Exact(_)))
                && !values.is_empty()
            {
                text.push_str(" (exact)");
            }
            text
        }
    }
}

/// A value as a bare percentage, without interval or fraction.
fn plain_percent(value: &HeadlineValue, decimals: usize) -> String {
    match value {
        HeadlineValue::Exact(p) => readable_exact_percent(p, decimals),
        HeadlineValue::Estimate { count, trials } => {
            readable_float_percent(proportion(*count, *trials), decimals)
        }
        HeadlineValue::Mean { estimate, .. } => readable_float_percent(estimate / 100.0, decimals),
        HeadlineValue::ByKey(_) => String::new(),
    }
}

/// The larger side of an estimate's 95% Wilson interval, in percentage
/// points; `None` for anything else.
fn half_width_points(value: &HeadlineValue) -> Option<f64> {
    match value {
        HeadlineValue::Estimate { count, trials } => {
            let interval = interval95(*count, *trials);
            let estimate = proportion(*count, *trials);
            Some((estimate - interval.low).max(interval.high - estimate) * 100.0)
        }
        _ => None,
    }
}

/// `count / trials`, 0 for no trials.
fn proportion(count: u64, trials: u64) -> f64 {
    if trials == 0 {
        0.0
    } else {
        count as f64 / trials as f64
    }
}

/// Renders a [`VersionTable`] in `format`: what the versions were asked,
/// answered side by side.
///
/// - Table and Md: `report`'s description (its parameters, seed and
///   trials), `what` (one line saying what the cells are), and a grid with
///   one row per version and one column per question, each cell the
///   percentage with its 95% interval (`1.69 [1.61, 1.77]`) or exact
///   fraction.
/// - Csv: long form, one row per version and question: the version
///   (`count=continuous order=same`), the question, count, trials,
///   estimate and interval (or the exact probability).
/// - Json: `report`'s `game`, `method`, `params`, `seed` and `trials`,
///   then `versions`: each version's parts (under `version`), its
///   figures (`question`,
///   `count`, `trials`, `estimate`, `ci95`, or `probability` and `value`),
///   and its whole report under `report`, as `render` writes it in JSON;
///   then `options.blocks`.
/// - Latex: a booktabs table of the grid.
///
/// `reports` holds each version's full report, in the table's row order.
/// The text ends with a newline.
pub fn render_version_table(
    report: &Report,
    what: &str,
    table: &VersionTable,
    reports: &[Report],
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals;
    let grid = || {
        let mut head = table.version_names.clone();
        head.extend(table.columns.iter().cloned());
        let rows = table
            .rows
            .iter()
            .map(|(version, cells)| {
                let mut row = version.clone();
                row.extend(cells.iter().map(|cell| match cell {
                    Some(value) => cell_text(value, decimals),
                    None => String::new(),
                }));
                row
            })
            .collect();
        Grid { head, rows }
    };
    let mut text = match format {
        Format::Table => format!(
            "{}\n{}\n{}\n",
            header_line(report),
            one_line(what),
            tabled_text_with_labels(&grid(), table.version_names.len())
        ),
        Format::Md => format!(
            "{}\n\n{}\n\n{}",
            markdown_escape(&header_line(report)),
            markdown_escape(what),
            markdown_table(&grid())
        ),
        Format::Csv => version_csv(table),
        Format::Json => version_json(report, table, reports, &options.blocks),
        Format::Latex => format!(
            "% generated by deckodds\n% requires \\usepackage{{booktabs}}\n% {}\n\n{}",
            one_line(&header_line(report)),
            latex_tabular(&grid(), Some((0, one_line(what))))
        ),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// A cell of a version table: `1.69 [1.61, 1.77]`, or `0.14 (1/720)`.
fn cell_text(value: &HeadlineValue, decimals: usize) -> String {
    match value {
        HeadlineValue::Estimate { count, trials } => {
            let interval = interval95(*count, *trials);
            format!(
                "{} [{}, {}]",
                readable_float_percent(proportion(*count, *trials), decimals),
                readable_float_percent(interval.low, decimals),
                readable_float_percent(interval.high, decimals)
            )
        }
        HeadlineValue::Exact(p) => format!(
            "{} ({})",
            readable_exact_percent(p, decimals),
            fraction_text(p)
        ),
        other => plain_percent(other, decimals),
    }
}

fn version_csv(table: &VersionTable) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let head = [
        "version",
        "question",
        "count",
        "trials",
        "estimate",
        "ci95_low",
        "ci95_high",
        "probability",
    ];
    let mut ok = writer.write_record(head).is_ok();
    for (version, cells) in &table.rows {
        for (question, cell) in table.columns.iter().zip(cells) {
            let figures: Vec<String> = match cell {
                Some(HeadlineValue::Estimate { count, trials }) => {
                    let interval = interval95(*count, *trials);
                    vec![
                        count.to_string(),
                        trials.to_string(),
                        proportion(*count, *trials).to_string(),
                        interval.low.to_string(),
                        interval.high.to_string(),
                        String::new(),
                    ]
                }
                Some(HeadlineValue::Exact(p)) => {
                    let mut blank = vec![String::new(); 5];
                    blank.push(fraction_text(p));
                    blank
                }
                _ => vec![String::new(); 6],
            };
            let mut record = vec![version_text(table, version), question.clone()];
            record.extend(figures);
            ok &= writer.write_record(&record).is_ok();
        }
    }
    match (ok, writer.into_inner()) {
        (true, Ok(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
        // Unreachable in practice: the writer is in memory and every
        // record has the header's length.
        _ => "error: cannot write CSV\n".to_string(),
    }
}

/// A version as `count=continuous order=same`.
fn version_text(table: &VersionTable, version: &[String]) -> String {
    table
        .version_names
        .iter()
        .zip(version)
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn version_json(
    report: &Report,
    table: &VersionTable,
    reports: &[Report],
    blocks: &RunBlocks,
) -> String {
    let mut root = json_head(report);
    let versions: Vec<Value> = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, (version, cells))| {
            let mut parts = Map::new();
            for (name, value) in table.version_names.iter().zip(version) {
                parts.insert(name.clone(), Value::from(value.clone()));
            }
            let mut entry = Map::new();
            entry.insert("version".into(), Value::Object(parts));
            let figures: Vec<Value> = table
                .columns
                .iter()
                .zip(cells)
                .map(|(question, cell)| {
                    let mut figure = Map::new();
                    figure.insert("question".into(), Value::from(question.clone()));
                    match cell {
                        Some(HeadlineValue::Estimate { count, trials }) => {
                            let interval = interval95(*count, *trials);
                            figure.insert("count".into(), json!(count));
                            figure.insert("trials".into(), json!(trials));
                            figure.insert("estimate".into(), json!(proportion(*count, *trials)));
                            figure.insert("ci95".into(), json!([interval.low, interval.high]));
                        }
                        Some(HeadlineValue::Exact(p)) => {
                            figure.insert("probability".into(), json!(fraction_text(p)));
                        }
                        _ => {}
                    }
                    Value::Object(figure)
                })
                .collect();
            entry.insert("figures".into(), Value::Array(figures));
            if let Some(full) = reports.get(i) {
                entry.insert("report".into(), crate::report::to_json(full));
            }
            Value::Object(entry)
        })
        .collect();
    root.insert("versions".into(), Value::Array(versions));
    blocks.append_to(&mut root);
    // Serialising a `Value` cannot fail.
    serde_json::to_string_pretty(&Value::Object(root)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Method;
    use num_bigint::BigInt;
    use num_rational::BigRational;

    fn q(numer: i64, denom: i64) -> BigRational {
        BigRational::new(BigInt::from(numer), BigInt::from(denom))
    }

    fn figure(label: &str, value: HeadlineValue) -> HeadlineFigure {
        HeadlineFigure {
            label: label.into(),
            value,
            note: None,
        }
    }

    #[test]
    fn figures_line_up_with_intervals_and_fractions() {
        let headline = Headline::of([
            figure("P(win), K=1", HeadlineValue::Exact(q(1, 6))),
            figure(
                "P(win), unlimited",
                HeadlineValue::Estimate {
                    count: 6_910,
                    trials: 1_000_000,
                },
            ),
        ]);
        let lines = lines(&headline, 2);
        assert_eq!(lines[0], "P(win), K=1:       16.67% (exactly 1/6)");
        let interval = interval95(6_910, 1_000_000);
        assert_eq!(
            lines[1],
            format!(
                "P(win), unlimited: 0.69% (95% interval [{:.2}%, {:.2}%]; 6,910 of 1,000,000)",
                interval.low * 100.0,
                interval.high * 100.0
            )
        );
    }

    #[test]
    fn rare_events_never_print_as_zero() {
        let rare = HeadlineValue::Estimate {
            count: 50,
            trials: 10_000_000,
        };
        let line = &lines(&Headline::of([figure("zero-strike", rare)]), 2)[0];
        assert!(line.starts_with("zero-strike: 0.00050% (95% interval [0.00038%, 0.00066%]"));
        let exact = &lines(
            &Headline::of([figure("p", HeadlineValue::Exact(q(1, 720_000)))]),
            2,
        )[0];
        assert_eq!(exact, "p: 0.00014% (exactly 1/720000)");
        let impossible = HeadlineFigure::impossible("P(win)", "an odd deck always leaves a card");
        assert_eq!(
            lines(&Headline::of([impossible]), 2)[0],
            "P(win): 0.00% (exactly 0: an odd deck always leaves a card)"
        );
    }

    #[test]
    fn by_key_is_one_line_with_its_widest_interval() {
        let values = vec![
            (
                "2".to_string(),
                HeadlineValue::Estimate {
                    count: 3533,
                    trials: 10_000,
                },
            ),
            (
                "A".to_string(),
                HeadlineValue::Estimate {
                    count: 1159,
                    trials: 10_000,
                },
            ),
        ];
        let line = &lines(
            &Headline::of([figure("dealer busts", HeadlineValue::ByKey(values))]),
            2,
        )[0];
        assert!(
            line.starts_with("dealer busts: 2 35.33%, A 11.59% (95% intervals ±0."),
            "{line}"
        );
        let exact = vec![("2".to_string(), HeadlineValue::Exact(q(1, 3)))];
        let line = &lines(
            &Headline::of([figure("busts", HeadlineValue::ByKey(exact))]),
            2,
        )[0];
        assert_eq!(line, "busts: 2 33.33% (exact)");
    }

    fn version_table() -> (Report, VersionTable) {
        let report = Report {
            game: "roll-call".into(),
            method: Method::MonteCarlo,
            params: Map::new(),
            seed: Some(1),
            trials: Some(1000),
            distributions: Vec::new(),
            summary: Vec::new(),
        };
        let estimate = |count| HeadlineValue::Estimate {
            count,
            trials: 1000,
        };
        let table = VersionTable {
            version_names: vec!["count".into(), "order".into()],
            columns: vec!["K=1".into(), "unlimited".into()],
            rows: vec![
                (
                    vec!["continuous".into(), "same".into()],
                    vec![Some(estimate(17)), Some(estimate(606))],
                ),
                (
                    vec!["restart".into(), "same".into()],
                    vec![Some(estimate(0)), None],
                ),
            ],
        };
        (report, table)
    }

    #[test]
    fn version_tables_render_in_every_format() {
        let (report, table) = version_table();
        let options = RenderOptions::default();
        let text = render_version_table(
            &report,
            "P(win), percent",
            &table,
            &[],
            Format::Table,
            &options,
        );
        assert!(
            text.starts_with("roll-call (monte-carlo); seed 1; 1000 trials\nP(win), percent\n")
        );
        assert!(text.contains("│ continuous │ same  │"), "{text}");
        assert!(text.contains("│ restart    │ same  │"), "{text}");
        let interval = interval95(17, 1000);
        assert!(
            text.contains(&format!(
                "1.70 [{:.2}, {:.2}]",
                interval.low * 100.0,
                interval.high * 100.0
            )),
            "{text}"
        );
        let csv = render_version_table(&report, "w", &table, &[], Format::Csv, &options);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "version,question,count,trials,estimate,ci95_low,ci95_high,probability"
        );
        assert_eq!(lines.len(), 5);
        assert!(lines[1].starts_with("count=continuous order=same,K=1,17,1000,0.017,"));
        assert_eq!(lines[4], "count=restart order=same,unlimited,,,,,,");
        let json: Value = serde_json::from_str(&render_version_table(
            &report,
            "w",
            &table,
            std::slice::from_ref(&report),
            Format::Json,
            &options,
        ))
        .unwrap();
        assert_eq!(json["versions"][0]["version"]["count"], "continuous");
        assert_eq!(json["versions"][0]["figures"][1]["count"], 606);
        assert_eq!(json["versions"][0]["report"]["game"], "roll-call");
        assert!(json["versions"][1]["report"].is_null());
        for format in [Format::Md, Format::Latex] {
            let text = render_version_table(&report, "w", &table, &[], format, &options);
            assert!(
                text.ends_with('\n') && text.contains("continuous"),
                "{text}"
            );
        }
    }
}
