//! Rendering of effects of removal (`blackjack eor`): one report per
//! dealer outcome, and the cells a removal leaves without meaning.

use super::{Format, RenderOptions, Report, RunBlocks, distributions};
use crate::contract;
use crate::contract::report::Report as ReportDocument;

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
            // One report is a document; several are an array of documents,
            // each a report with its `schema` (the long-run blocks go with
            // one report only, as a part or a precision run has one).
            let document = |report: &Report, blocks: &RunBlocks| {
                let mut document = distributions::document(report, blocks);
                document.not_computed = not_computed.to_vec();
                document
            };
            match reports {
                [report] => format!("{}\n", contract::write(&document(report, &options.blocks))),
                _ => {
                    let documents: Vec<ReportDocument> = reports
                        .iter()
                        .map(|report| document(report, &RunBlocks::default()))
                        .collect();
                    // Serialising the contract's types cannot fail (see
                    // `contract::write`).
                    let text = serde_json::to_string_pretty(&documents)
                        .unwrap_or_else(|_| "null".to_string());
                    format!("{text}\n")
                }
            }
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
