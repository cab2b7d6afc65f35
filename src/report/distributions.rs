//! Rendering of reports of distributions in every output format.
//!
//! One [`View`] is computed from the [`Report`] first (fractions, values,
//! estimates, intervals, the table orientation), and each format only lays
//! it out, so the formats cannot disagree about a number.
//!
//! Orientation: two or more distributions with the same outcome labels are
//! shown as one matrix (rows = keys, columns = outcomes, cells = percent);
//! otherwise each distribution gets its own table with one row per outcome.
//!
//! Robustness: a `Report` is plain data, so nothing here assumes it is well
//! formed. Outcome labels and numbers are paired up to the shorter of the
//! two lists, zero trials give estimate 0 and the interval `[0, 1]`, and a
//! rational with a zero denominator prints as `n/0` with value NaN (`null`
//! in JSON, `n/a` in the terminal table) instead of panicking; a caller
//! may use one to mark a figure that does not exist.

use std::fmt::Write as _;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::{Map, Value};

use super::table::{
    Grid, LONGTABLE_ROWS, exact_percent, float_percent, fraction_text, interval95, latex_tabular,
    markdown_escape, markdown_table, one_line, rational_percent_value, rational_value,
    readable_exact_percent, readable_float_percent, round_up_two_significant, tabled_text_fitted,
};
use super::{
    Format, Method, RenderOptions, Report, ReportDistribution, RunBlocks, SummaryFigure,
    SummaryItem,
};
use crate::contract::report::{
    Distribution, KeyParams, MeanEntry, OutcomeEntry, Report as ReportDocument, SummaryEntry,
};
use crate::contract::{self, Tag};
use crate::report::headline::Headline;
use crate::report::key_columns::KeyColumns;
use crate::stats::{Interval, Z95};

/// Percentages never get more decimals than this. Beyond it an `f64`
/// estimate carries no information, exact values are better read as
/// fractions, and an absurd `percent_decimals` must not allocate without
/// bound.
const MAX_PERCENT_DECIMALS: usize = 30;

/// Renders `report` in `format`.
///
/// Guarantees: the text ends with a newline; no I/O; never panics, whatever
/// the report holds. JSON follows the machine contract of docs/CONTRACTS.md (key
/// order `game`, `method`, `params`, `seed`, `trials`, `distributions`;
/// exact probabilities as reduced fraction strings, `"0"` and `"1"` for
/// integers). CSV and JSON carry full precision; the table, Markdown and
/// LaTeX formats round percentages to `options.percent_decimals` places
/// (exact probabilities are rounded from the rational, half away from
/// zero, not from a float).
pub fn render(report: &Report, format: Format, options: &RenderOptions) -> String {
    render_with(report, None, format, options)
}

/// Renders `report` in `format` as [`render`] does, and in the terminal
/// table leads with `headline` (the answer the reader came for: the odds
/// of winning, say), under the one-line description and above the full
/// tables. The other formats are exactly [`render`]'s: files made from
/// them do not change.
pub fn render_with_headline(
    report: &Report,
    headline: &Headline,
    format: Format,
    options: &RenderOptions,
) -> String {
    render_with(report, Some(headline), format, options)
}

fn render_with(
    report: &Report,
    headline: Option<&Headline>,
    format: Format,
    options: &RenderOptions,
) -> String {
    let view = View::new(report);
    let decimals = options.percent_decimals.min(MAX_PERCENT_DECIMALS);
    let mut text = match format {
        Format::Table => render_table(&view, headline, decimals, options.width),
        Format::Md => render_markdown(&view, decimals),
        Format::Csv => render_csv(&view),
        Format::Json => render_json(&view, &options.blocks),
        Format::Latex => render_latex(&view, decimals),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

// ---------------------------------------------------------------------------
// The view: every number and label, computed once.

/// The figures of one outcome.
enum Figure<'a> {
    /// An exact probability and its nearest `f64`.
    Exact {
        probability: &'a BigRational,
        value: f64,
    },
    /// A Monte-Carlo count with its estimate and 95% Wilson interval.
    Count {
        count: u64,
        estimate: f64,
        interval: Interval,
    },
}

impl Figure<'_> {
    /// The percentage with `decimals` places (or, with
    /// [`Percents::Readable`], as many as a rare outcome needs to show).
    /// Exact probabilities are rounded from the rational so a published
    /// table never inherits a float's rounding.
    fn percent(&self, decimals: usize, percents: Percents) -> String {
        match self {
            Figure::Exact { probability, .. } => match percents {
                Percents::Fixed => exact_percent(probability, decimals),
                Percents::Readable => readable_exact_percent(probability, decimals),
            },
            Figure::Count { estimate, .. } => percents.float(*estimate, decimals),
        }
    }
}

/// How percentages are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Percents {
    /// Always `decimals` places: the files (md, LaTeX), whose columns
    /// line up and whose bytes `reproduce` checks.
    Fixed,
    /// `decimals` places, except that a value that is not zero never
    /// prints as zero: it gets two significant digits (`0.00050`, or
    /// `1.2e-15` when that needs more than [`MAX_READABLE_DECIMALS`]
    /// places). The terminal table, where a rare event must not read as
    /// an impossible one.
    Readable,
}

impl Percents {
    /// `100 p` written this way.
    fn float(self, p: f64, decimals: usize) -> String {
        match self {
            Percents::Fixed => float_percent(p, decimals),
            Percents::Readable => readable_float_percent(p, decimals),
        }
    }
}

/// One outcome of one distribution.
struct OutcomeView<'a> {
    outcome: &'a str,
    figure: Figure<'a>,
}

/// One distribution, ready to print.
struct DistView<'a> {
    key: &'a str,
    /// Trials behind the counts (0 for an exact distribution).
    trials: u64,
    is_exact: bool,
    outcomes: Vec<OutcomeView<'a>>,
    /// The mean outcome, when every outcome label is a number (cards left,
    /// say).
    mean: Option<Mean>,
}

/// The mean of a distribution whose outcomes are numbers.
enum Mean {
    /// The exact mean.
    Exact(BigRational),
    /// A Monte-Carlo mean with the standard error of the mean (sample
    /// standard deviation over the square root of the trials) and the
    /// normal 95% interval `mean ± 1.96 se`.
    Estimate {
        mean: f64,
        standard_error: f64,
        interval: (f64, f64),
    },
}

impl Mean {
    /// The mean of `distribution`, or `None` if an outcome label is not an
    /// integer, or there are no trials.
    fn of(distribution: &ReportDistribution) -> Option<Mean> {
        let values: Vec<i64> = distribution
            .outcomes()
            .iter()
            .map(|label| label.trim().parse::<i64>().ok())
            .collect::<Option<_>>()?;
        match distribution {
            ReportDistribution::Exact(d) => Some(Mean::Exact(
                values
                    .iter()
                    .zip(&d.probabilities)
                    .map(|(&x, p)| p * BigInt::from(x))
                    .fold(BigRational::zero(), |sum, term| sum + term),
            )),
            ReportDistribution::Counts(d) => {
                let n: f64 = d.counts.iter().map(|&c| c as f64).sum();
                if n < 1.0 {
                    return None;
                }
                let pairs = || {
                    values
                        .iter()
                        .zip(&d.counts)
                        .map(|(&x, &c)| (x as f64, c as f64))
                };
                let mean = pairs().map(|(x, c)| x * c).sum::<f64>() / n;
                let variance = if n > 1.0 {
                    pairs().map(|(x, c)| c * (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
                } else {
                    0.0
                };
                let standard_error = (variance / n).sqrt();
                Some(Mean::Estimate {
                    mean,
                    standard_error,
                    interval: (mean - Z95 * standard_error, mean + Z95 * standard_error),
                })
            }
        }
    }

    /// One line for people: `mean 12.3457 (exact 1234/99)` or `mean
    /// 12.3457, standard error 0.0063, 95% interval [12.3334, 12.3580]`.
    fn text(&self) -> String {
        match self {
            Mean::Exact(mean) => format!(
                "mean {:.4} (exactly {})",
                rational_value(mean),
                fraction_text(mean)
            ),
            Mean::Estimate {
                mean,
                standard_error,
                interval,
            } => format!(
                "mean {mean:.4}, standard error {standard_error:.4}, 95% interval [{:.4}, {:.4}]",
                interval.0, interval.1
            ),
        }
    }

    /// The mean as the contract writes it: an exact `probability` and
    /// `value`, or an `estimate`, `standard_error` and `ci95`.
    fn entry(&self) -> MeanEntry {
        match self {
            Mean::Exact(mean) => MeanEntry {
                probability: Some(fraction_text(mean)),
                value: Some(rational_value(mean)),
                estimate: None,
                standard_error: None,
                ci95: None,
            },
            Mean::Estimate {
                mean,
                standard_error,
                interval,
            } => MeanEntry {
                probability: None,
                value: None,
                estimate: Some(*mean),
                standard_error: Some(*standard_error),
                ci95: Some([interval.0, interval.1]),
            },
        }
    }
}

impl<'a> DistView<'a> {
    fn new(distribution: &'a ReportDistribution) -> DistView<'a> {
        match distribution {
            ReportDistribution::Exact(d) => DistView {
                key: &d.key,
                trials: 0,
                is_exact: true,
                mean: Mean::of(distribution),
                outcomes: d
                    .outcomes
                    .iter()
                    .zip(&d.probabilities)
                    .map(|(outcome, probability)| OutcomeView {
                        outcome,
                        figure: Figure::Exact {
                            probability,
                            value: rational_value(probability),
                        },
                    })
                    .collect(),
            },
            ReportDistribution::Counts(d) => {
                // Saturating, because `CountDistribution::trials` would
                // overflow (and panic in debug builds) on absurd counts.
                let trials = d.counts.iter().fold(0u64, |sum, &c| sum.saturating_add(c));
                DistView {
                    key: &d.key,
                    trials,
                    is_exact: false,
                    mean: Mean::of(distribution),
                    outcomes: d
                        .outcomes
                        .iter()
                        .zip(&d.counts)
                        .map(|(outcome, &count)| OutcomeView {
                            outcome,
                            figure: Figure::Count {
                                count,
                                estimate: if trials == 0 {
                                    0.0
                                } else {
                                    count as f64 / trials as f64
                                },
                                interval: interval95(count, trials),
                            },
                        })
                        .collect(),
                }
            }
        }
    }

    fn labels(&self) -> impl Iterator<Item = &str> {
        self.outcomes.iter().map(|o| o.outcome)
    }
}

/// A report prepared for layout.
struct View<'a> {
    report: &'a Report,
    distributions: Vec<DistView<'a>>,
    /// True when the distributions form one matrix (2+ of them, same labels).
    matrix: bool,
    /// Head of the key column in a matrix: the common `name` of `name=value`
    /// keys, or `key`.
    row_head: String,
    /// Row labels in a matrix: keys with the common `name=` removed.
    row_labels: Vec<String>,
}

impl<'a> View<'a> {
    fn new(report: &'a Report) -> View<'a> {
        let distributions: Vec<DistView> = report.distributions.iter().map(DistView::new).collect();
        let matrix = distributions.len() >= 2
            && distributions
                .windows(2)
                .all(|pair| pair[0].labels().eq(pair[1].labels()));
        let (row_head, row_labels) = row_labels(&distributions);
        View {
            report,
            distributions,
            matrix,
            row_head,
            row_labels,
        }
    }

    fn has_counts(&self) -> bool {
        self.distributions.iter().any(|d| !d.is_exact)
    }

    fn has_exact(&self) -> bool {
        self.distributions.iter().any(|d| d.is_exact)
    }

    /// The outcome labels of the matrix columns.
    fn matrix_outcomes(&self) -> Vec<&'a str> {
        self.distributions
            .first()
            .map(|d| d.outcomes.iter().map(|o| o.outcome).collect())
            .unwrap_or_default()
    }

    /// The largest distance, in percentage points, from a Monte-Carlo
    /// estimate to either end of its 95% interval. Wilson intervals are not
    /// symmetric, so the larger side is taken: "± h at most" then holds for
    /// every cell.
    fn max_half_width_points(&self) -> f64 {
        self.distributions
            .iter()
            .flat_map(|d| &d.outcomes)
            .filter_map(|o| match o.figure {
                Figure::Count {
                    estimate, interval, ..
                } => Some((estimate - interval.low).max(interval.high - estimate) * 100.0),
                Figure::Exact { .. } => None,
            })
            .fold(0.0, f64::max)
    }

    /// The one-line description above every human table.
    fn header_parts(&self) -> Vec<String> {
        let report = self.report;
        let mut parts = vec![format!("{} ({})", report.game, report.method.name())];
        if !report.params.is_empty() {
            parts.push(params_text(&report.params));
        }
        if let Some(seed) = report.seed {
            parts.push(format!("seed {seed}"));
        }
        if let Some(trials) = report.trials {
            parts.push(format!("{trials} trials"));
        }
        if self.matrix {
            parts.push("cells in percent".to_string());
        }
        parts
    }

    /// The line under a Monte-Carlo matrix, or `None`.
    fn interval_note(&self) -> Option<String> {
        (self.matrix && self.has_counts()).then(|| {
            format!(
                "95% intervals: ±{} points at most; --format csv/json give each",
                round_up_two_significant(self.max_half_width_points())
            )
        })
    }

    /// One line per distribution that has a mean, under the tables.
    fn mean_lines(&self) -> Vec<String> {
        let named = self.distributions.len() > 1;
        self.distributions
            .iter()
            .filter_map(|d| {
                let text = d.mean.as_ref()?.text();
                Some(if named {
                    format!("{}: {text}", d.key)
                } else {
                    text
                })
            })
            .collect()
    }

    /// One line per summary figure, under the tables and means.
    fn summary_lines(&self, decimals: usize, percents: Percents) -> Vec<String> {
        self.report
            .summary
            .iter()
            .map(|item| {
                format!(
                    "{}: {}",
                    item.label,
                    summary_text(&item.figure, decimals, percents)
                )
            })
            .collect()
    }

    /// The title above a single-distribution table: its key, plus its trials
    /// when they differ from the report's (so no reader assumes the
    /// report's trial count for it).
    fn title(&self, distribution: &DistView) -> Option<String> {
        let mut title = distribution.key.to_string();
        if !distribution.is_exact && self.report.trials != Some(distribution.trials) {
            if !title.is_empty() {
                title.push_str(", ");
            }
            let _ = write!(title, "{} trials", distribution.trials);
        }
        (!title.is_empty()).then_some(title)
    }
}

/// The one-line description above a report's human table: the game and
/// method, its parameters, seed and trials.
pub(super) fn header_line(report: &Report) -> String {
    one_line(&View::new(report).header_parts().join("; "))
}

/// The matrix row head and labels: when every key is `name=value` with the
/// same `name`, the name heads the column and the values label the rows.
fn row_labels(distributions: &[DistView]) -> (String, Vec<String>) {
    let keys: Vec<&str> = distributions.iter().map(|d| d.key).collect();
    let name = keys
        .first()
        .and_then(|k| k.split_once('='))
        .map(|(name, _)| name);
    if let Some(name) = name.filter(|n| !n.is_empty()) {
        let stripped: Option<Vec<String>> = keys
            .iter()
            .map(|k| match k.split_once('=') {
                Some((n, value)) if n == name => Some(value.to_string()),
                _ => None,
            })
            .collect();
        if let Some(labels) = stripped {
            return (name.to_string(), labels);
        }
    }
    (
        "key".to_string(),
        keys.iter().map(|k| k.to_string()).collect(),
    )
}

/// Parameters as `k=v` pairs separated by spaces; strings print unquoted.
fn params_text(params: &Map<String, Value>) -> String {
    params
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------
// Grids: the table content, independent of the format's syntax.

/// How a confidence interval is written inside a cell.
#[derive(Clone, Copy)]
enum IntervalStyle {
    /// `[13.80, 14.00]`
    Brackets,
    /// `13.80--14.00` (a LaTeX en dash)
    LatexDash,
}

/// What a matrix cell shows.
#[derive(Clone, Copy)]
enum Cell {
    Percent,
    Fraction,
}

/// What a matrix cell of the files shows for an outcome whose exact
/// probability is zero: one that cannot happen.
pub const IMPOSSIBLE: &str = "—";

/// The matrix: rows = keys, columns = outcomes.
fn matrix_grid(view: &View, cell: Cell, decimals: usize, percents: Percents) -> Grid {
    let mut head = vec![view.row_head.clone()];
    head.extend(view.matrix_outcomes().iter().map(|o| o.to_string()));
    let rows = view
        .distributions
        .iter()
        .zip(&view.row_labels)
        .map(|(d, label)| {
            let mut row = vec![label.clone()];
            row.extend(d.outcomes.iter().map(|o| match (cell, &o.figure) {
                // An exact zero is an outcome that cannot happen (a natural
                // under a 2-9 upcard, or under peek): a dash, so that it
                // does not read as a value that rounds to zero.
                (_, Figure::Exact { probability, .. })
                    if percents == Percents::Fixed && probability.is_zero() =>
                {
                    IMPOSSIBLE.to_string()
                }
                (Cell::Percent, figure) => figure.percent(decimals, percents),
                (Cell::Fraction, Figure::Exact { probability, .. }) => fraction_text(probability),
                // A Monte-Carlo row in a mixed report has no fraction.
                (Cell::Fraction, Figure::Count { .. }) => String::new(),
            }));
            row
        })
        .collect();
    Grid { head, rows }
}

/// One distribution, one row per outcome.
fn single_grid(
    distribution: &DistView,
    decimals: usize,
    style: IntervalStyle,
    percents: Percents,
) -> Grid {
    let head: Vec<String> = if distribution.is_exact {
        vec!["outcome", "percent", "probability"]
    } else {
        vec!["outcome", "count", "percent", "95% CI"]
    }
    .into_iter()
    .map(String::from)
    .collect();
    let rows = distribution
        .outcomes
        .iter()
        .map(|o| match &o.figure {
            Figure::Exact { probability, .. } => vec![
                o.outcome.to_string(),
                o.figure.percent(decimals, percents),
                fraction_text(probability),
            ],
            Figure::Count {
                count, interval, ..
            } => {
                let low = percents.float(interval.low, decimals);
                let high = percents.float(interval.high, decimals);
                vec![
                    o.outcome.to_string(),
                    count.to_string(),
                    o.figure.percent(decimals, percents),
                    match style {
                        IntervalStyle::Brackets => format!("[{low}, {high}]"),
                        IntervalStyle::LatexDash => format!("{low}--{high}"),
                    },
                ]
            }
        })
        .collect();
    Grid { head, rows }
}

/// The tables of a report in display order, each with an optional title.
fn grids(
    view: &View,
    decimals: usize,
    style: IntervalStyle,
    percents: Percents,
) -> Vec<(Option<String>, Grid)> {
    if view.matrix {
        vec![(None, matrix_grid(view, Cell::Percent, decimals, percents))]
    } else {
        view.distributions
            .iter()
            .map(|d| (view.title(d), single_grid(d, decimals, style, percents)))
            .collect()
    }
}

// ---------------------------------------------------------------------------
// Table (tabled).

fn render_table(
    view: &View,
    headline: Option<&Headline>,
    decimals: usize,
    width: Option<usize>,
) -> String {
    let mut out = one_line(&view.header_parts().join("; "));
    out.push('\n');
    for line in headline.map_or_else(Vec::new, |h| super::headline::lines(h, decimals)) {
        out.push_str(&one_line(&line));
        out.push('\n');
    }
    for (title, grid) in grids(view, decimals, IntervalStyle::Brackets, Percents::Readable) {
        out.push('\n');
        if let Some(title) = title {
            out.push_str(&one_line(&title));
            out.push('\n');
        }
        out.push_str(&tabled_text_fitted(&grid, width));
        out.push('\n');
    }
    if let Some(note) = view.interval_note() {
        out.push_str(&note);
        out.push('\n');
    }
    for line in view
        .mean_lines()
        .into_iter()
        .chain(view.summary_lines(decimals, Percents::Readable))
    {
        out.push_str(&one_line(&line));
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------
// Markdown.

fn render_markdown(view: &View, decimals: usize) -> String {
    let mut parts: Vec<String> = view
        .header_parts()
        .iter()
        .map(|p| markdown_escape(p))
        .collect();
    if let Some(first) = parts.first_mut() {
        *first = format!(
            "**{}** ({})",
            markdown_escape(&view.report.game),
            view.report.method.name()
        );
    }
    let mut out = parts.join("; ");
    out.push('\n');
    for (title, grid) in grids(view, decimals, IntervalStyle::Brackets, Percents::Fixed) {
        out.push('\n');
        if let Some(title) = title {
            out.push_str(&markdown_escape(&title));
            out.push_str("\n\n");
        }
        out.push_str(&markdown_table(&grid));
    }
    if let Some(note) = view.interval_note() {
        out.push('\n');
        out.push_str(&note);
        out.push('\n');
    }
    for line in view
        .mean_lines()
        .into_iter()
        .chain(view.summary_lines(decimals, Percents::Fixed))
    {
        out.push('\n');
        out.push_str(&markdown_escape(&line));
        out.push('\n');
    }
    // Matrix cells are percentages only, so the fractions follow in their
    // own table; a single-distribution table already has a probability
    // column.
    if view.matrix && view.has_exact() {
        out.push_str("\n**Exact probabilities**\n\n");
        out.push_str(&markdown_table(&matrix_grid(
            view,
            Cell::Fraction,
            decimals,
            Percents::Fixed,
        )));
    }
    out
}

// ---------------------------------------------------------------------------
// CSV.

fn render_csv(view: &View) -> String {
    match csv_bytes(view) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        // Unreachable in practice: the writer is in memory and every record
        // has the header's length.
        Err(error) => format!("error: cannot write CSV: {error}\n"),
    }
}

fn csv_bytes(view: &View) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let exact_layout = view.report.method == Method::Exact;
    let header: &[&str] = if exact_layout {
        &["key", "outcome", "probability", "value", "percent"]
    } else {
        &[
            "key",
            "outcome",
            "count",
            "trials",
            "estimate",
            "ci95_low",
            "ci95_high",
        ]
    };
    // One column per parameter of the keys (`upcard`, `K`, ...) after
    // `key`, for data frames; `key` stays for the readers of before.
    let key_columns = KeyColumns::of(view.distributions.iter().map(|d| d.key));
    writer.write_record(key_columns.spliced_header(header, 1))?;
    for d in &view.distributions {
        for o in &d.outcomes {
            // A distribution of the other kind (a mixed report) fills the
            // columns it can and leaves the others empty.
            let record: Vec<String> = match (exact_layout, &o.figure) {
                (true, Figure::Exact { probability, value }) => vec![
                    fraction_text(probability),
                    value.to_string(),
                    rational_percent_value(probability).to_string(),
                ],
                (true, Figure::Count { estimate, .. }) => vec![
                    String::new(),
                    estimate.to_string(),
                    (estimate * 100.0).to_string(),
                ],
                (
                    false,
                    Figure::Count {
                        count,
                        estimate,
                        interval,
                    },
                ) => vec![
                    count.to_string(),
                    d.trials.to_string(),
                    estimate.to_string(),
                    interval.low.to_string(),
                    interval.high.to_string(),
                ],
                (false, Figure::Exact { value, .. }) => vec![
                    String::new(),
                    String::new(),
                    value.to_string(),
                    String::new(),
                    String::new(),
                ],
            };
            let mut full = vec![d.key.to_string()];
            full.extend(key_columns.cells(d.key));
            full.push(o.outcome.to_string());
            full.extend(record);
            writer.write_record(&full)?;
        }
    }
    // Summary figures follow as rows keyed `summary`, the figure's key as
    // the outcome, in the same columns (a total in `estimate`).
    for item in &view.report.summary {
        let blank = String::new;
        let record: Vec<String> = match (exact_layout, item.figure) {
            (true, figure) => vec![blank(), summary_value(figure).to_string(), blank()],
            (false, figure) => {
                let (count, trials) = match figure {
                    SummaryFigure::Proportion { count, trials } => {
                        (count.to_string(), trials.to_string())
                    }
                    _ => (blank(), blank()),
                };
                let (low, high) = summary_interval(figure)
                    .map_or((blank(), blank()), |(low, high)| {
                        (low.to_string(), high.to_string())
                    });
                vec![count, trials, summary_value(figure).to_string(), low, high]
            }
        };
        let mut full = vec!["summary".to_string()];
        full.extend(key_columns.cells(""));
        full.push(item.key.clone());
        full.extend(record);
        writer.write_record(&full)?;
    }
    writer.into_inner().map_err(|e| e.into_error().into())
}

/// A summary figure's central value: the mean, the total or the proportion.
fn summary_value(figure: SummaryFigure) -> f64 {
    match figure {
        SummaryFigure::Mean { estimate, .. } => estimate,
        SummaryFigure::Total(total) => total as f64,
        SummaryFigure::Proportion { count, trials } if trials > 0 => count as f64 / trials as f64,
        SummaryFigure::Proportion { .. } => 0.0,
    }
}

/// A summary figure's 95% interval, if it has one.
fn summary_interval(figure: SummaryFigure) -> Option<(f64, f64)> {
    match figure {
        SummaryFigure::Mean {
            estimate,
            standard_error,
        } => Some((
            estimate - Z95 * standard_error,
            estimate + Z95 * standard_error,
        )),
        SummaryFigure::Total(_) => None,
        SummaryFigure::Proportion { count, trials } => {
            let interval = interval95(count, trials);
            Some((interval.low, interval.high))
        }
    }
}

/// A summary figure for people: `-12.0123 (standard error 0.0049, 95%
/// interval [-12.0219, -12.0027])`, `-120123456`, or `129000 of 10000000,
/// 1.29% (95% interval [1.28%, 1.30%])`.
fn summary_text(figure: &SummaryFigure, decimals: usize, percents: Percents) -> String {
    match *figure {
        SummaryFigure::Mean {
            estimate,
            standard_error,
        } => {
            let (low, high) = summary_interval(*figure).unwrap_or((estimate, estimate));
            format!(
                "{estimate:.4} (standard error {standard_error:.4}, 95% interval [{low:.4}, {high:.4}])"
            )
        }
        SummaryFigure::Total(total) => total.to_string(),
        SummaryFigure::Proportion { count, trials } => {
            let (low, high) = summary_interval(*figure).unwrap_or((0.0, 1.0));
            format!(
                "{count} of {trials}, {}% (95% interval [{}%, {}%])",
                percents.float(summary_value(*figure), decimals),
                percents.float(low, decimals),
                percents.float(high, decimals)
            )
        }
    }
}

/// One summary figure as the contract writes it: `key`, `label`, then
/// `estimate`, `standard_error` and `ci95` (a mean), `value` (a total),
/// or `count`, `trials`, `estimate` and `ci95` (a proportion).
fn summary_entry(item: &SummaryItem) -> SummaryEntry {
    let figure = item.figure;
    let mut entry = SummaryEntry {
        key: item.key.clone(),
        label: item.label.clone(),
        count: None,
        trials: None,
        estimate: None,
        standard_error: None,
        value: None,
        ci95: summary_interval(figure).map(|(low, high)| [low, high]),
    };
    match figure {
        SummaryFigure::Mean { standard_error, .. } => {
            entry.estimate = Some(summary_value(figure));
            entry.standard_error = Some(standard_error);
        }
        SummaryFigure::Total(total) => entry.value = Some(total),
        SummaryFigure::Proportion { count, trials } => {
            entry.count = Some(count);
            entry.trials = Some(trials);
            entry.estimate = Some(summary_value(figure));
        }
    }
    entry
}

// ---------------------------------------------------------------------------
// JSON.

/// The report's JSON: its contract document, with a long run's `blocks`
/// after its own keys.
fn render_json(view: &View, blocks: &RunBlocks) -> String {
    contract::write(&document_of(view, blocks))
}

/// The report as its contract document (docs/CONTRACTS.md), with a long
/// run's `blocks`: what [`render`] prints for `Format::Json`, for callers
/// that read the figures or assemble larger documents.
pub fn document(report: &Report, blocks: &RunBlocks) -> ReportDocument {
    document_of(&View::new(report), blocks)
}

fn document_of(view: &View, blocks: &RunBlocks) -> ReportDocument {
    let report = view.report;
    ReportDocument {
        schema: Tag::new(),
        game: report.game.clone(),
        method: report.method,
        params: report.params.clone(),
        seed: report.seed,
        trials: report.trials,
        distributions: view
            .distributions
            .iter()
            .map(|d| Distribution {
                key: d.key.to_string(),
                params: KeyParams::of_key(d.key),
                outcomes: d.outcomes.iter().map(outcome_entry).collect(),
                mean: d.mean.as_ref().map(Mean::entry),
            })
            .collect(),
        summary: report.summary.iter().map(summary_entry).collect(),
        not_computed: Vec::new(),
        precision: blocks.precision.clone(),
        shard: blocks.shard.clone(),
    }
}

/// One outcome per the contract: an exact `probability` and `value`, or
/// a `count`, `estimate` and `ci95`.
fn outcome_entry(o: &OutcomeView) -> OutcomeEntry {
    let mut entry = OutcomeEntry {
        outcome: o.outcome.to_string(),
        probability: None,
        value: None,
        count: None,
        estimate: None,
        ci95: None,
    };
    match &o.figure {
        Figure::Exact { probability, value } => {
            entry.probability = Some(fraction_text(probability));
            entry.value = Some(*value);
        }
        Figure::Count {
            count,
            estimate,
            interval,
        } => {
            entry.count = Some(*count);
            entry.estimate = Some(*estimate);
            entry.ci95 = Some([interval.low, interval.high]);
        }
    }
    entry
}

// ---------------------------------------------------------------------------
// LaTeX.

fn render_latex(view: &View, decimals: usize) -> String {
    let grids = grids(view, decimals, IntervalStyle::LatexDash, Percents::Fixed);
    let mut out = String::from("% generated by deckodds\n");
    if grids
        .iter()
        .any(|(_, grid)| grid.rows.len() > LONGTABLE_ROWS)
    {
        out.push_str("% requires \\usepackage{booktabs} and \\usepackage{longtable}\n");
    } else {
        out.push_str("% requires \\usepackage{booktabs}\n");
    }
    let _ = writeln!(out, "% {}", one_line(&view.header_parts().join("; ")));
    for (title, grid) in grids {
        out.push('\n');
        // Matrix cells carry no unit, so a spanner over the outcome columns
        // says what they are; a single table is titled with its key.
        let spanner = if view.matrix {
            Some((1, "percent".to_string()))
        } else {
            title.map(|t| (0, t))
        };
        out.push_str(&latex_tabular(&grid, spanner));
    }
    if let Some(note) = view.interval_note() {
        let _ = writeln!(out, "% {note}");
    }
    for line in view
        .mean_lines()
        .into_iter()
        .chain(view.summary_lines(decimals, Percents::Fixed))
    {
        let _ = writeln!(out, "% {}", one_line(&line));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distribution::{CountDistribution, ExactDistribution};
    use crate::stats::wilson_interval;
    use num_rational::Ratio;
    use num_traits::One;
    use serde_json::json;

    fn q(numer: i64, denom: i64) -> BigRational {
        BigRational::new(BigInt::from(numer), BigInt::from(denom))
    }

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn exact(key: &str, outcomes: &[&str], probabilities: Vec<BigRational>) -> ReportDistribution {
        ReportDistribution::Exact(ExactDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            probabilities,
        })
    }

    fn counts(key: &str, outcomes: &[&str], counts: &[u64]) -> ReportDistribution {
        ReportDistribution::Counts(CountDistribution {
            key: key.to_string(),
            outcomes: labels(outcomes),
            counts: counts.to_vec(),
        })
    }

    fn params() -> Map<String, Value> {
        let Value::Object(map) = json!({"decks": 2, "soft17": "stand", "peek": false}) else {
            unreachable!("a JSON object literal")
        };
        map
    }

    /// Two upcards over the same four outcomes: a matrix, with 0 and 1.
    fn exact_matrix_report() -> Report {
        let outcomes = ["bust", "17", "18", "natural"];
        Report {
            game: "blackjack-dealer".to_string(),
            method: Method::Exact,
            params: params(),
            seed: None,
            trials: None,
            distributions: vec![
                exact(
                    "upcard=2",
                    &outcomes,
                    vec![q(1, 3), q(1, 6), q(1, 2), q(0, 1)],
                ),
                exact(
                    "upcard=A",
                    &outcomes,
                    vec![q(0, 1), q(0, 1), q(0, 1), q(1, 1)],
                ),
            ],
            summary: Vec::new(),
        }
    }

    /// One distribution of 1000 trials.
    fn monte_carlo_report() -> Report {
        Report {
            game: "blackjack-dealer".to_string(),
            method: Method::MonteCarlo,
            params: params(),
            seed: Some(42),
            trials: Some(1000),
            distributions: vec![counts(
                "upcard=2",
                &["bust", "17", "natural"],
                &[354, 646, 0],
            )],
            summary: Vec::new(),
        }
    }

    fn monte_carlo_matrix_report() -> Report {
        let outcomes = ["win", "loss"];
        Report {
            game: "rook".to_string(),
            method: Method::MonteCarlo,
            params: Map::new(),
            seed: Some(7),
            trials: Some(400),
            distributions: vec![
                counts("decks=1", &outcomes, &[100, 300]),
                counts("decks=2", &outcomes, &[200, 200]),
            ],
            summary: Vec::new(),
        }
    }

    fn options() -> RenderOptions {
        RenderOptions::default()
    }

    fn json_of(report: &Report) -> Value {
        let text = render(report, Format::Json, &options());
        serde_json::from_str(&text).expect("the JSON output parses")
    }

    fn object_keys(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect()
    }

    // -- JSON ----------------------------------------------------------------

    #[test]
    fn json_exact_follows_the_contract() {
        let value = json_of(&exact_matrix_report());
        assert_eq!(
            object_keys(&value),
            [
                "schema",
                "game",
                "method",
                "params",
                "seed",
                "trials",
                "distributions"
            ]
        );
        assert_eq!(value["schema"], "deckodds.report/v1");
        assert_eq!(value["game"], "blackjack-dealer");
        assert_eq!(value["method"], "exact");
        assert_eq!(
            value["params"],
            json!({"decks": 2, "soft17": "stand", "peek": false})
        );
        assert_eq!(object_keys(&value["params"]), ["decks", "soft17", "peek"]);
        assert_eq!(value["seed"], Value::Null);
        assert_eq!(value["trials"], Value::Null);
        let distributions = value["distributions"].as_array().expect("an array");
        assert_eq!(distributions.len(), 2);
        assert_eq!(
            object_keys(&distributions[0]),
            ["key", "params", "outcomes"]
        );
        assert_eq!(distributions[0]["key"], "upcard=2");
        assert_eq!(distributions[1]["params"], json!({"upcard": "A"}));
        let first = &distributions[0]["outcomes"][0];
        assert_eq!(object_keys(first), ["outcome", "probability", "value"]);
        assert_eq!(
            *first,
            json!({"outcome": "bust", "probability": "1/3", "value": 1.0 / 3.0})
        );
        let probabilities: Vec<&Value> = distributions
            .iter()
            .flat_map(|d| d["outcomes"].as_array().expect("an array"))
            .map(|o| &o["probability"])
            .collect();
        assert_eq!(
            probabilities,
            ["1/3", "1/6", "1/2", "0", "0", "0", "0", "1"]
        );
        assert_eq!(distributions[1]["outcomes"][3]["value"], 1.0);
        assert_eq!(distributions[1]["outcomes"][0]["value"], 0.0);
    }

    #[test]
    fn the_json_reads_back_through_the_contract_as_the_document() {
        // Exact values only: serde_json without its `float_roundtrip`
        // feature may read a float's shortest text one unit in the last
        // place off.
        let report = exact_matrix_report();
        let text = render(&report, Format::Json, &options());
        let read = crate::contract::read::<ReportDocument>(&text).expect("a report");
        assert_eq!(read, document(&report, &RunBlocks::default()));
        assert_eq!(read.distributions[1].params.get("upcard"), Some("A"));
        let report = monte_carlo_report();
        let text = render(&report, Format::Json, &options());
        let read = crate::contract::read::<ReportDocument>(&text).expect("a report");
        let counts: Vec<Option<u64>> = read.distributions[0]
            .outcomes
            .iter()
            .map(|o| o.count)
            .collect();
        assert_eq!(counts, [Some(354), Some(646), Some(0)]);
    }

    #[test]
    fn json_monte_carlo_follows_the_contract() {
        let value = json_of(&monte_carlo_report());
        assert_eq!(value["method"], "monte-carlo");
        assert_eq!(value["seed"], 42);
        assert_eq!(value["trials"], 1000);
        let outcomes = value["distributions"][0]["outcomes"]
            .as_array()
            .expect("an array");
        assert_eq!(outcomes.len(), 3);
        let bust = &outcomes[0];
        assert_eq!(object_keys(bust), ["outcome", "count", "estimate", "ci95"]);
        let interval = wilson_interval(354, 1000, Z95);
        assert_eq!(
            *bust,
            json!({"outcome": "bust", "count": 354, "estimate": 0.354,
                   "ci95": [interval.low, interval.high]})
        );
        assert_eq!(outcomes[2]["count"], 0);
        assert_eq!(outcomes[2]["estimate"], 0.0);
        assert_eq!(outcomes[2]["ci95"][0], 0.0);
    }

    #[test]
    fn json_of_zero_trials_gives_the_uninformative_interval() {
        let mut report = monte_carlo_report();
        report.distributions = vec![counts("k", &["win", "loss"], &[0, 0])];
        let value = json_of(&report);
        assert_eq!(
            value["distributions"][0]["outcomes"][0],
            json!({"outcome": "win", "count": 0, "estimate": 0.0, "ci95": [0.0, 1.0]})
        );
    }

    #[test]
    fn intervals_of_none_and_all_end_exactly_at_0_and_1() {
        for (count, trials) in [(0, 1000), (1000, 1000), (0, 3), (3, 3), (0, 987_654_321)] {
            let interval = interval95(count, trials);
            if count == 0 {
                assert_eq!(interval.low, 0.0, "{count}/{trials}");
                assert!(interval.high > 0.0 && interval.high < 1.0);
            } else {
                assert_eq!(interval.high, 1.0, "{count}/{trials}");
                assert!(interval.low > 0.0 && interval.low < 1.0);
            }
        }
    }

    #[test]
    fn json_of_a_broken_rational_is_still_valid_json() {
        let mut report = exact_matrix_report();
        report.distributions = vec![exact(
            "k",
            &["a"],
            vec![Ratio::new_raw(BigInt::from(1), BigInt::from(0))],
        )];
        let value = json_of(&report);
        let outcome = &value["distributions"][0]["outcomes"][0];
        assert_eq!(outcome["probability"], "1/0");
        assert_eq!(outcome["value"], Value::Null);
    }

    // -- CSV -----------------------------------------------------------------

    #[test]
    fn csv_exact_is_long_form_at_full_precision() {
        let text = render(&exact_matrix_report(), Format::Csv, &options());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "key,upcard,outcome,probability,value,percent");
        assert_eq!(lines.len(), 1 + 8);
        assert_eq!(
            lines[1],
            // The percent is the nearest f64 to 100/3, not 100 * (1/3.0).
            "upcard=2,2,bust,1/3,0.3333333333333333,33.333333333333336"
        );
        assert_eq!(lines[3], "upcard=2,2,18,1/2,0.5,50");
        assert_eq!(lines[4], "upcard=2,2,natural,0,0,0");
        assert_eq!(lines[8], "upcard=A,A,natural,1,1,100");
    }

    #[test]
    fn csv_monte_carlo_carries_counts_and_intervals() {
        let text = render(&monte_carlo_report(), Format::Csv, &options());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "key,upcard,outcome,count,trials,estimate,ci95_low,ci95_high"
        );
        let interval = wilson_interval(354, 1000, Z95);
        assert_eq!(
            lines[1],
            format!(
                "upcard=2,2,bust,354,1000,0.354,{},{}",
                interval.low, interval.high
            )
        );
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn csv_quotes_labels_that_need_it() {
        let mut report = exact_matrix_report();
        report.distributions = vec![exact("a,b", &["say \"hi\""], vec![q(1, 1)])];
        let text = render(&report, Format::Csv, &options());
        assert_eq!(
            text.lines().nth(1),
            Some("\"a,b\",\"say \"\"hi\"\"\",1,1,100")
        );
    }

    /// One column per parameter of the keys, the union in first-seen
    /// order, empty where a key lacks one (a plain label, a summary row).
    #[test]
    fn csv_has_a_column_per_key_parameter_empty_where_a_key_lacks_it() {
        let mut report = exact_matrix_report();
        report.distributions = vec![
            exact("version=2 K=1", &["win", "loss"], vec![q(1, 4), q(3, 4)]),
            exact("stacks", &["win", "loss"], vec![q(1, 2), q(1, 2)]),
            exact("K=unlimited", &["win", "loss"], vec![q(1, 1), q(0, 1)]),
        ];
        let text = render(&report, Format::Csv, &options());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "key,version,K,outcome,probability,value,percent");
        assert_eq!(lines[1], "version=2 K=1,2,1,win,1/4,0.25,25");
        assert_eq!(lines[3], "stacks,,,win,1/2,0.5,50");
        assert_eq!(lines[6], "K=unlimited,,unlimited,loss,0,0,0");
    }

    /// deckodds reads its own CSV back as a published table
    /// (`compare --published`): the parameter columns do not disturb it,
    /// and every cell is the exact probability.
    #[test]
    fn csv_with_parameter_columns_reads_back_as_a_published_table() {
        let report = exact_matrix_report();
        let text = render(&report, Format::Csv, &options());
        assert!(text.starts_with("key,upcard,outcome,"), "{text}");
        let table = crate::compare::PublishedTable::parse_csv(&text, &|key| Some(key.to_string()))
            .expect("deckodds' CSV parses");
        assert_eq!(table.rows.len(), report.distributions.len());
        for (row, distribution) in table.rows.iter().zip(&report.distributions) {
            let ReportDistribution::Exact(distribution) = distribution else {
                panic!("an exact report");
            };
            assert_eq!(row.key, distribution.key);
            let outcomes: Vec<&str> = row.cells.iter().map(|c| c.outcome.as_str()).collect();
            assert_eq!(outcomes, distribution.outcomes, "{}", row.key);
            for (cell, probability) in row.cells.iter().zip(&distribution.probabilities) {
                assert!(cell.exact);
                assert_eq!(cell.percent, probability * q(100, 1), "{}", row.key);
            }
        }
    }

    // -- LaTeX ---------------------------------------------------------------

    /// Checks booktabs structure: rule counts, and that every row has as
    /// many cells as the column spec declares.
    fn check_latex(text: &str, tabulars: usize) {
        assert!(text.starts_with("% generated by deckodds\n"), "{text}");
        for rule in ["\\toprule", "\\midrule", "\\bottomrule", "\\end{tabular}"] {
            assert_eq!(text.matches(rule).count(), tabulars, "{rule} in\n{text}");
        }
        let mut columns = 0;
        for line in text.lines() {
            if let Some(spec) = line.strip_prefix("\\begin{tabular}{") {
                columns = spec.trim_end_matches('}').split_whitespace().count();
            } else if line.ends_with("\\\\") && !line.contains("\\multicolumn") {
                // Escaped `\&` in a label is not a column separator.
                let cells = line.replace("\\&", "").matches('&').count() + 1;
                assert_eq!(cells, columns, "{line}");
            }
        }
    }

    #[test]
    fn latex_matrix_has_one_booktabs_tabular() {
        let text = render(&exact_matrix_report(), Format::Latex, &options());
        check_latex(&text, 1);
        assert!(text.contains("\\begin{tabular}{l r r r r}"), "{text}");
        assert!(
            text.contains("upcard & bust & 17 & 18 & natural \\\\"),
            "{text}"
        );
        assert!(
            text.contains("2 & 33.33 & 16.67 & 50.00 & --- \\\\"),
            "{text}"
        );
        assert!(text.contains("A & --- & --- & --- & 100.00 \\\\"), "{text}");
        assert!(
            text.contains("& \\multicolumn{4}{c}{percent} \\\\"),
            "{text}"
        );
    }

    #[test]
    fn latex_single_tables_one_per_distribution() {
        let mut report = monte_carlo_report();
        report
            .distributions
            .push(counts("upcard=3", &["bust"], &[5]));
        let text = render(&report, Format::Latex, &options());
        check_latex(&text, 2);
        assert!(
            text.contains("outcome & count & percent & 95\\% CI \\\\"),
            "{text}"
        );
        assert!(
            text.contains("\\multicolumn{4}{l}{upcard=3, 5 trials}"),
            "{text}"
        );
    }

    #[test]
    fn latex_tables_longer_than_a_page_are_longtables() {
        let table = |n_outcomes: usize| {
            let names: Vec<String> = (0..n_outcomes).map(|i| i.to_string()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut report = monte_carlo_report();
            report.distributions = vec![counts("k", &names, &vec![1; n_outcomes])];
            render(&report, Format::Latex, &options())
        };
        let fits = table(LONGTABLE_ROWS);
        check_latex(&fits, 1);
        assert!(!fits.contains("longtable"), "{fits}");
        let long = table(LONGTABLE_ROWS + 1);
        assert!(long.contains("\\usepackage{longtable}"), "{long}");
        assert!(long.starts_with("% generated by deckodds\n"), "{long}");
        // The head (title, column names) repeats on every page; the bottom
        // rule closes the last one, before the rows in the source.
        let head_end = long.find("\\endhead").unwrap();
        assert!(
            long[..head_end].contains("outcome & count & percent"),
            "{long}"
        );
        let foot = long.find("\\bottomrule\n\\endlastfoot").unwrap();
        assert!(foot < long.find("\n0 & 1 &").unwrap(), "{long}");
        assert_eq!(long.matches("\\begin{longtable}{l r r r}").count(), 1);
        assert_eq!(long.matches("\\end{longtable}").count(), 1);
        assert!(!long.contains("{tabular}"), "{long}");
    }

    #[test]
    fn latex_escapes_specials_in_labels() {
        let mut report = exact_matrix_report();
        report.distributions = vec![exact(
            "x",
            &["a_b & c % d # $ {e} \\ ~^", "[first]"],
            vec![q(1, 2), q(1, 2)],
        )];
        let text = render(&report, Format::Latex, &options());
        check_latex(&text, 1);
        assert!(
            text.contains(
                "a\\_b \\& c \\% d \\# \\$ \\{e\\} \\textbackslash{} \
                 \\textasciitilde{}\\textasciicircum{} & 50.00 & 1/2 \\\\"
            ),
            "{text}"
        );
        assert!(text.contains("\n{}[first] & 50.00 & 1/2 \\\\"), "{text}");
    }

    // -- orientation and edge cases ---------------------------------------

    #[test]
    fn keys_lose_a_common_name_only() {
        let check = |keys: &[&str], head: &str, expected: &[&str]| {
            let report = Report {
                distributions: keys.iter().map(|k| counts(k, &["x"], &[1])).collect(),
                ..monte_carlo_report()
            };
            let view = View::new(&report);
            assert_eq!(view.row_head, head);
            assert_eq!(view.row_labels, expected);
        };
        check(&["upcard=2", "upcard=10"], "upcard", &["2", "10"]);
        check(&["upcard=2", "decks=1"], "key", &["upcard=2", "decks=1"]);
        check(&["upcard=2", "plain"], "key", &["upcard=2", "plain"]);
        check(&["=2", "=3"], "key", &["=2", "=3"]);
    }

    #[test]
    fn matrix_only_when_outcomes_agree() {
        let report = Report {
            distributions: vec![
                counts("a=1", &["x", "y"], &[1, 2]),
                counts("a=2", &["x", "z"], &[1, 2]),
            ],
            ..monte_carlo_report()
        };
        assert!(!View::new(&report).matrix);
        assert!(View::new(&monte_carlo_matrix_report()).matrix);
        assert!(!View::new(&monte_carlo_report()).matrix);
    }

    #[test]
    fn every_format_survives_odd_reports_and_ends_with_a_newline() {
        let empty = Report {
            distributions: Vec::new(),
            ..exact_matrix_report()
        };
        let ragged = Report {
            // More labels than numbers, numbers without labels, zero trials,
            // a zero denominator, huge counts and mixed kinds.
            distributions: vec![
                exact("k", &["a", "b"], vec![q(1, 2)]),
                exact("k", &[], vec![q(1, 2)]),
                counts("k", &["a", "b"], &[0, 0]),
                counts("k", &["a", "b"], &[u64::MAX, u64::MAX]),
                exact(
                    "k",
                    &["a"],
                    vec![Ratio::new_raw(BigInt::from(1), BigInt::from(0))],
                ),
            ],
            ..monte_carlo_report()
        };
        let huge = RenderOptions {
            percent_decimals: usize::MAX,
            ..RenderOptions::default()
        };
        for report in [
            &empty,
            &ragged,
            &exact_matrix_report(),
            &monte_carlo_report(),
        ] {
            for format in [
                Format::Table,
                Format::Md,
                Format::Csv,
                Format::Json,
                Format::Latex,
            ] {
                for options in [&options(), &huge] {
                    let text = render(report, format, options);
                    assert!(text.ends_with('\n'), "{format:?}: {text:?}");
                }
            }
        }
        assert_eq!(
            render(&empty, Format::Csv, &options()),
            "key,outcome,probability,value,percent\n"
        );
        assert_eq!(
            render(&empty, Format::Table, &options()),
            "blackjack-dealer (exact); decks=2 soft17=stand peek=false\n"
        );
        assert_eq!(json_of(&empty)["distributions"], json!([]));
    }

    #[test]
    fn markdown_escapes_pipes() {
        let report = Report {
            distributions: vec![exact("k", &["a|b"], vec![q(1, 1)])],
            ..exact_matrix_report()
        };
        let text = render(&report, Format::Md, &options());
        assert!(
            text.contains("| a\\|b    |  100.00 |           1 |"),
            "{text}"
        );
    }

    // -- snapshots -----------------------------------------------------------

    #[test]
    fn table_exact_matrix() {
        insta::assert_snapshot!(render(&exact_matrix_report(), Format::Table, &options()));
    }

    #[test]
    fn markdown_exact_matrix() {
        insta::assert_snapshot!(render(&exact_matrix_report(), Format::Md, &options()));
    }

    #[test]
    fn table_monte_carlo_single() {
        insta::assert_snapshot!(render(&monte_carlo_report(), Format::Table, &options()));
    }

    #[test]
    fn markdown_monte_carlo_single() {
        insta::assert_snapshot!(render(&monte_carlo_report(), Format::Md, &options()));
    }

    #[test]
    fn table_monte_carlo_matrix() {
        insta::assert_snapshot!(render(
            &monte_carlo_matrix_report(),
            Format::Table,
            &options()
        ));
    }

    #[test]
    fn latex_exact_matrix() {
        insta::assert_snapshot!(render(&exact_matrix_report(), Format::Latex, &options()));
    }

    /// A report with one of each kind of summary figure.
    fn summary_report() -> Report {
        Report {
            summary: vec![
                SummaryItem {
                    key: "net-per-game".into(),
                    label: "net per game ($)".into(),
                    figure: SummaryFigure::Mean {
                        estimate: -12.5,
                        standard_error: 0.25,
                    },
                },
                SummaryItem {
                    key: "total-net".into(),
                    label: "total net ($)".into(),
                    figure: SummaryFigure::Total(-12_500),
                },
                SummaryItem {
                    key: "went-out".into(),
                    label: "went out".into(),
                    figure: SummaryFigure::Proportion {
                        count: 10,
                        trials: 1000,
                    },
                },
            ],
            ..monte_carlo_report()
        }
    }

    #[test]
    fn summary_figures_render_in_every_format() {
        let report = summary_report();
        let table = render(&report, Format::Table, &options());
        assert!(table.contains(
            "net per game ($): -12.5000 (standard error 0.2500, 95% interval [-12.9900, -12.0100])"
        ));
        assert!(table.contains("total net ($): -12500\n"));
        let interval = wilson_interval(10, 1000, Z95);
        let expected = format!(
            "went out: 10 of 1000, 1.00% (95% interval [{:.2}%, {:.2}%])",
            interval.low * 100.0,
            interval.high * 100.0
        );
        assert!(table.contains(&expected), "{table}");
        assert!(render(&report, Format::Md, &options()).contains(&expected));
        assert!(render(&report, Format::Latex, &options()).contains(&format!("% {expected}")));
        let json: Value = serde_json::from_str(&render(&report, Format::Json, &options())).unwrap();
        let summary = json["summary"].as_array().unwrap();
        assert_eq!(summary[0]["key"], "net-per-game");
        assert_eq!(summary[0]["standard_error"], 0.25);
        assert_eq!(summary[1]["value"], -12_500);
        assert_eq!(summary[2]["count"], 10);
        assert_eq!(summary[2]["ci95"][0], interval.low);
        let csv = render(&report, Format::Csv, &options());
        // Summary rows leave the key's parameter columns (`upcard`) empty.
        assert!(csv.contains("summary,,total-net,,,-12500,,\n"), "{csv}");
        assert!(csv.contains(&format!("summary,,went-out,10,1000,0.01,{},", interval.low)));
    }

    // -- rare events and headlines --------------------------------------

    #[test]
    fn rare_events_never_print_as_zero_in_the_terminal_table() {
        let mut report = monte_carlo_report();
        report.distributions = vec![counts("zero-strike", &["yes", "no"], &[50, 9_999_950])];
        let table = render(&report, Format::Table, &options());
        // Wilson's interval for 50 in 10^7: 3.79e-6 to 6.59e-6.
        assert!(
            table.contains("│ yes     │      50 │ 0.00050 │ [0.00038, 0.00066] │"),
            "{table}"
        );
        // The files keep their fixed decimals (and their bytes).
        let md = render(&report, Format::Md, &options());
        assert!(md.contains("|    0.00 |     [0.00, 0.00] |"), "{md}");
        let latex = render(&report, Format::Latex, &options());
        assert!(
            latex.contains("yes & 50 & 0.00 & 0.00--0.00 \\\\"),
            "{latex}"
        );

        let mut exact_report = exact_matrix_report();
        exact_report.distributions = vec![exact(
            "k",
            &["rare", "tiny", "none", "common"],
            vec![
                q(1, 720_000),
                BigRational::new(BigInt::from(1), BigInt::from(10).pow(30)),
                q(0, 1),
                BigRational::one()
                    - q(1, 720_000)
                    - BigRational::new(BigInt::from(1), BigInt::from(10).pow(30)),
            ],
        )];
        let table = render(&exact_report, Format::Table, &options());
        assert!(table.contains("│ rare    │ 0.00014 │"), "{table}");
        // 10^-28 percent needs more places than the table gives: scientific.
        assert!(table.contains(" 1.0e-28 │"), "{table}");
        assert!(table.contains("│ none    │    0.00 │"), "{table}");
        assert!(table.contains("100.00"), "{table}");
        let md = render(&exact_report, Format::Md, &options());
        assert!(md.contains("| rare    |    0.00 |"), "{md}");
    }

    #[test]
    fn a_headline_leads_the_terminal_table_only() {
        let report = monte_carlo_report();
        let headline = Headline::of([crate::report::headline::HeadlineFigure::probability(
            "dealer busts",
            &report.distributions[0],
            "bust",
        )
        .unwrap()]);
        let table = render_with_headline(&report, &headline, Format::Table, &options());
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[0].starts_with("blackjack-dealer (monte-carlo)"),
            "{table}"
        );
        assert!(
            lines[1].starts_with("dealer busts: 35.40% (95% interval ["),
            "{table}"
        );
        assert!(lines[1].ends_with("; 354 of 1,000)"), "{table}");
        assert_eq!(lines[2], "");
        for format in [Format::Md, Format::Csv, Format::Json, Format::Latex] {
            assert_eq!(
                render_with_headline(&report, &headline, format, &options()),
                render(&report, format, &options()),
                "{format:?}"
            );
        }
    }

    #[test]
    fn an_empty_summary_changes_nothing() {
        let json = render(&monte_carlo_report(), Format::Json, &options());
        assert!(!json.contains("summary"));
        let csv = render(&monte_carlo_report(), Format::Csv, &options());
        assert!(!csv.contains("summary"));
    }
}
