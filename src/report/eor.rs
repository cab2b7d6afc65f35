//! Rendering of effects of removal (`blackjack eor`): one report per
//! dealer outcome, and the cells a removal leaves without meaning.

use serde_json::{Value, json};

use super::{Format, RenderOptions, Report, distributions};

/// Renders `reports` (one per outcome asked for) in `format`, with
/// `not_computed` (one line per undefined cell, saying why):
///
/// - Json: the report (or an array of them, for several), each with
///   `not_computed` after its own keys when there are any, then
///   `options.blocks`.
/// - Csv: the header once, then every report's rows.
/// - Table, Md, Latex: the reports one after another, then (but in LaTeX)
///   the `not_computed` lines.
///
/// The text ends with a newline.
pub fn render_removal_effects(
    reports: &[Report],
    not_computed: &[String],
    format: Format,
    options: &RenderOptions,
) -> String {
    match format {
        Format::Json => {
            let mut values: Vec<Value> = reports
                .iter()
                .map(|r| {
                    let mut value = distributions::to_json(r);
                    if let Some(object) = value.as_object_mut()
                        && !not_computed.is_empty()
                    {
                        object.insert("not_computed".into(), json!(not_computed));
                    }
                    value
                })
                .collect();
            let mut value = match values.len() {
                1 => values.remove(0),
                _ => json!(values),
            };
            if let Some(root) = value.as_object_mut() {
                options.blocks.append_to(root);
            }
            format!("{value:#}\n")
        }
        Format::Csv => {
            // One CSV: the header once, then every report's rows.
            let mut text = String::new();
            for (i, r) in reports.iter().enumerate() {
                let rendered = distributions::render(r, Format::Csv, options);
                let skip = usize::from(i > 0);
                for line in rendered.lines().skip(skip) {
                    text.push_str(line);
                    text.push('\n');
                }
            }
            text
        }
        _ => {
            let mut text = reports
                .iter()
                .map(|r| distributions::render(r, format, options))
                .collect::<Vec<_>>()
                .join("\n");
            if !not_computed.is_empty() && format != Format::Latex {
                text.push('\n');
                for line in not_computed {
                    text.push_str(line);
                    text.push('\n');
                }
            }
            text
        }
    }
}
