//! The chart for a report: [`svg_for_report`] reads a report's JSON (the
//! machine contract of docs/CONTRACTS.md, or a comparison's JSON) and draws the
//! chart that suits its shape with [`super::chart`].
//!
//! Architecture invariant: like the rest of `report`, this only builds a
//! string. It computes no statistics: every number drawn is one the JSON
//! already holds.

use serde_json::{Map, Value};

use super::chart::{
    self, BarChart, BarPanel, CriticalValue, FigureSize, Frequencies, MeanChart, PanelChart,
    ReferenceLine, Segment, Series, StackedBarChart, ZPanel, ZPoint, ZScorePlot,
};
use super::strategy_chart;
use crate::contract::blackjack::{
    Params, TableCompareDocument, TableCompareKind, TableDistribution, TableDocument, TableKind,
    TableValue, TrueCountRow,
};
use crate::contract::comparison::{
    AgreementRow, Comparison, ComparisonKind, PublishedRow, PublishedTag, TestName, VerdictName,
};
use crate::contract::klondike_solve::{KlondikeSolveDocument, KlondikeSolveKind};
use crate::contract::report::{
    Distribution, KeyParams, Method, OutcomeEntry, Report as ReportDocument, ReportKind,
};
use crate::contract::{self, Kind, ReadError};
use crate::error::{Error, Result};
use crate::games::registry;

// Counts are grouped in `report::table`; their users outside the report
// layer (commands, analysis, tests) know the function here.
pub use super::table::thousands;

/// The shapes [`svg_for_report`] draws, for its error message.
const DRAWABLE: &str = "svg draws a report with one distribution (as bars), \
                        with several (as one panel of bars each), \
                        a blackjack-dealer report with one distribution per upcard \
                        (as stacked bars), a comparison whose rows carry z-scores \
                        (as a z-score plot), a blackjack strategy chart (as a strategy card), \
                        a blackjack-table report with values by true count \
                        (as means with their intervals), \
                        or a klondike-solve document (the solver's work per deal, as panels)";

/// How a chart is drawn, beside what it shows: its size and the y axis
/// of its bars. The default is what `reproduce` draws for results/.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FigureOptions {
    /// For the screen, or at a journal's column width.
    pub size: FigureSize,
    /// The y axis of probabilities drawn as bars.
    pub y_scale: YScale,
}

/// The y axis of probabilities drawn as bars: a one-distribution bar
/// chart, and each panel of small multiples. (Stacked bars always reach
/// 100 %, and z-scores and means may be negative: their axes are linear
/// whatever this says.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum YScale {
    /// Logarithmic when the smallest non-zero value is under
    /// [`LOG_Y_BELOW`] of the largest, so that it would be an empty bar
    /// on a linear axis; else linear.
    #[default]
    Auto,
    /// Logarithmic (powers of ten of percent).
    Log,
    /// Linear from 0.
    Linear,
}

impl YScale {
    /// Whether bars of `values` go on a log axis.
    pub fn is_log(self, values: &[f64]) -> bool {
        match self {
            YScale::Log => true,
            YScale::Linear => false,
            YScale::Auto => {
                let smallest = values.iter().copied().filter(|&v| v > 0.0);
                let largest = values.iter().copied().fold(0.0, f64::max);
                smallest.fold(f64::INFINITY, f64::min) < LOG_Y_BELOW * largest
            }
        }
    }
}

/// Draws the chart for a report's JSON, chosen by its shape:
///
/// - a `blackjack-table` report with a non-empty `by_true_count` (a
///   counting system was given): a [`MeanChart`] of the value per round
///   by true count, in percent of the bet, with 95% intervals, the mean of
///   all rounds as the reference line and the share of rounds at each
///   true count as bars underneath (a table report without a count falls
///   through to the shapes below);
/// - a `klondike-solve` document: the solver's work per deal as two
///   panels of bars, the share of deals by states searched and (when it
///   lists deals) by solve time ([`solve_work_svg`]);
/// - a blackjack basic-strategy chart (a `"chart"` with hard, soft and
///   pair rows): the coloured strategy card of
///   [`strategy_chart::svg_from_chart_json`], the same function that draws
///   a chart rendered directly;
/// - a comparison (a `"comparison"` key), whose rows carry per-outcome
///   `z_scores` (goodness of fit, or homogeneity of two samples) or cells
///   with a `z` (a published table's check): a [`ZScorePlot`] with one
///   panel per row, headed by the row's key and test result; the critical
///   value is drawn when the JSON gives one (`z_critical`);
/// - a report with exactly one distribution: a [`BarChart`] of its
///   probabilities (exact `value`s, or Monte-Carlo `estimate`s with their
///   95% intervals), the same chart `deckodds reproduce` has always drawn;
/// - a `blackjack-dealer` report with one distribution per upcard (keys
///   `upcard=...`): a [`StackedBarChart`] of the dealer's final hand by
///   upcard;
/// - any other report with several distributions (Roll-Call's cards left
///   for each K, passes, strikes, ...; Prisoner's patience's winnability
///   folds): a [`PanelChart`], one panel of bars per distribution in the
///   report's order, headed by its key made readable (a few known keys get words), with
///   the 95% intervals of Monte-Carlo estimates.
///
/// Guarantees: deterministic (the same JSON gives the same bytes), no I/O.
/// Errors: any other shape (the message says which shapes can be drawn), a
/// comparison without any z-score, or values the chart refuses (see
/// [`chart::render_svg`] and its siblings).
pub fn svg_for_report(json: &str, options: FigureOptions) -> Result<String> {
    match read_drawable(json)? {
        Drawable::Report(report) => distributions_svg(&report, options),
        Drawable::Comparison(comparison) => z_scores_svg(&comparison, options),
        Drawable::Table(table) => {
            let TableFigure {
                game,
                distributions,
                by_true_count,
            } = *table;
            if by_true_count.by_true_count.is_empty() {
                let TrueCountTable { params, seed, .. } = by_true_count;
                distributions_svg(&table_report(game, params, seed, distributions), options)
            } else {
                means_svg(&by_true_count, options)
            }
        }
        Drawable::KlondikeSolve(document) => solve_work_svg(&document, options),
        Drawable::Other(document) if strategy_chart::is_chart_json(&document) => {
            strategy_chart::svg_from_chart_json(&document)
        }
        Drawable::Other(_) => Err(Error::invalid("document", "of another kind", DRAWABLE)),
    }
}

/// The count distributions of a blackjack table document (one without
/// a counting system, so no values by true count), drawn as a report's
/// would be. Their counts are of rounds or of shoes, not of one kind of
/// trial, so no trial count is named.
fn table_report(
    game: String,
    params: Params,
    seed: u64,
    distributions: Vec<TableDistribution>,
) -> ReportDocument {
    ReportDocument {
        schema: contract::Tag::new(),
        game,
        method: Method::MonteCarlo,
        params,
        seed: Some(seed),
        trials: None,
        distributions: distributions
            .into_iter()
            .map(|d| Distribution {
                params: KeyParams::of_key(&d.key),
                key: d.key,
                outcomes: d
                    .outcomes
                    .into_iter()
                    .map(|o| OutcomeEntry {
                        outcome: o.outcome,
                        probability: None,
                        value: None,
                        count: Some(o.count),
                        estimate: Some(o.estimate),
                        ci95: Some(o.ci95),
                    })
                    .collect(),
                mean: None,
            })
            .collect(),
        summary: Vec::new(),
        not_computed: Vec::new(),
        precision: None,
        shard: None,
    }
}

/// What a blackjack table document's charts read: its values by true
/// count (empty without a counting system), else its count
/// distributions.
struct TableFigure {
    game: String,
    distributions: Vec<TableDistribution>,
    by_true_count: TrueCountTable,
}

/// Both table documents hold the fields the charts read, under the same
/// names.
macro_rules! table_figure_from {
    ($document:ty) => {
        impl From<$document> for TableFigure {
            fn from(document: $document) -> TableFigure {
                TableFigure {
                    game: document.game,
                    distributions: document.distributions,
                    by_true_count: TrueCountTable {
                        params: document.params,
                        seed: document.seed,
                        rounds: document.rounds,
                        value: document.value,
                        by_true_count: document.by_true_count,
                    },
                }
            }
        }
    };
}
table_figure_from!(TableDocument);
table_figure_from!(TableCompareDocument);

/// A document [`svg_for_report`] draws, read through its type.
enum Drawable {
    /// A report of distributions.
    Report(ReportDocument),
    /// A comparison.
    Comparison(Comparison),
    /// A blackjack table's simulation, alone (`blackjack table`) or
    /// checked against the exact value (`table compare`).
    Table(Box<TableFigure>),
    /// Which Klondike deals can be won: the search's work per deal.
    KlondikeSolve(Box<KlondikeSolveDocument>),
    /// Another document (a strategy chart), read by its own chart's
    /// reader.
    Other(Value),
}

/// Reads `json` as the type its `"schema"` names (a report, a
/// comparison, a blackjack table document), refused in one line naming
/// the field at fault (an unknown one, or one of the wrong type); any
/// other document as JSON for the charts that read it themselves. A
/// JSON object without a `schema` is a file written before deckodds
/// documents had one: it is refused with the advice to make it again.
fn read_drawable(json: &str) -> Result<Drawable> {
    let refused = |error: ReadError| {
        Error::invalid(
            "document",
            error,
            "refused; a file deckodds wrote is read as it was written (make it again with this version)",
        )
    };
    let schema = contract::schema_id(json).map_err(refused)?;
    match schema.as_deref() {
        Some(ReportKind::ID) => contract::read::<ReportDocument>(json)
            .map(Drawable::Report)
            .map_err(refused),
        Some(ComparisonKind::ID) => contract::comparison::read(json)
            .map(Drawable::Comparison)
            .map_err(refused),
        Some(TableKind::ID) => contract::read::<TableDocument>(json)
            .map(|table| Drawable::Table(Box::new(TableFigure::from(table))))
            .map_err(refused),
        Some(TableCompareKind::ID) => contract::read::<TableCompareDocument>(json)
            .map(|table| Drawable::Table(Box::new(TableFigure::from(table))))
            .map_err(refused),
        Some(KlondikeSolveKind::ID) => contract::read::<KlondikeSolveDocument>(json)
            .map(|document| Drawable::KlondikeSolve(Box::new(document)))
            .map_err(refused),
        Some(_) => Ok(Drawable::Other(parse_json(json)?)),
        None => Err(Error::invalid(
            "document",
            "without a \"schema\"",
            "written before deckodds documents carried one: make it again with this version",
        )),
    }
}

fn parse_json(json: &str) -> Result<Value> {
    serde_json::from_str(json)
        .map_err(|e| Error::invalid("document", "that is not JSON", e.to_string()))
}

/// A report's chart, chosen by its distributions (see [`svg_for_report`]).
fn distributions_svg(report: &ReportDocument, options: FigureOptions) -> Result<String> {
    let distributions = &report.distributions;
    let game = report.game.as_str();
    match distributions.as_slice() {
        [distribution] => bar_chart_svg(report, distribution, options),
        [_, _, ..]
            if registry::by_report_name(game).is_some_and(|entry| entry.stacks_upcards)
                && distributions.iter().all(|d| upcard(d).is_some()) =>
        {
            stacked_svg(report, distributions, options)
        }
        [_, _, ..] => panels_svg(report, distributions, options),
        [] => Err(Error::invalid(
            "report",
            format!(
                "of {} with {} distributions",
                if game.is_empty() { "no game" } else { game },
                distributions.len()
            ),
            DRAWABLE,
        )),
    }
}

/// The seed as a caption writes it (`null` for none, as the JSON has it).
fn seed_text(report: &ReportDocument) -> String {
    report
        .seed
        .map_or_else(|| "null".to_string(), |seed| seed.to_string())
}

// ---------------------------------------------------------------------------
// One distribution: bars.

/// The bar chart of a report's only distribution: titled by the game and
/// what is counted, the parameters in the caption, the win annotated.
fn bar_chart_svg(
    report: &ReportDocument,
    distribution: &Distribution,
    options: FigureOptions,
) -> Result<String> {
    let outcomes = &distribution.outcomes;
    let values: Vec<f64> = outcomes
        .iter()
        .map(|o| o.shown_value().unwrap_or(0.0))
        .collect();
    let intervals: Option<Vec<(f64, f64)>> = outcomes
        .iter()
        .map(|o| o.ci95.map(|[low, high]| (low, high)))
        .collect();
    let key = distribution.key.replace('-', " ");
    let series_name = match report.trials {
        Some(trials) => format!(
            "deckodds, {} games (seed {}), with 95% intervals",
            thousands(trials),
            seed_text(report)
        ),
        None => "deckodds, exact".to_string(),
    };
    let chart = BarChart {
        title: format!("{}: {key}", game_name(&report.game)),
        caption: params_words(&report.params),
        size: options.size,
        log_y: options.y_scale.is_log(&values),
        annotation: win_annotation(report, outcomes),
        x_label: key,
        y_label: "percent of games".into(),
        categories: outcomes.iter().map(|o| o.outcome.clone()).collect(),
        series: vec![Series {
            name: series_name,
            values,
            intervals,
        }],
    };
    chart::render_svg(&chart)
}

/// A one-distribution chart's y axis is logarithmic when its smallest
/// non-zero outcome is under this share of its largest: on a linear axis
/// it would be an empty bar (a win of 4 in 100,000 beside a mode of 10 %).
pub const LOG_Y_BELOW: f64 = 0.01;

/// `P(win) = x % [lo, hi]` for a report of a game whose registry entry
/// names its win outcome, if the distribution has it: the exact value, or
/// the estimate with its 95% interval; empty otherwise.
fn win_annotation(report: &ReportDocument, outcomes: &[OutcomeEntry]) -> String {
    let Some(win) = registry::by_report_name(&report.game).and_then(|entry| entry.win_outcome)
    else {
        return String::new();
    };
    let Some(outcome) = outcomes.iter().find(|o| o.outcome == win) else {
        return String::new();
    };
    let percent = |p: f64| significant(p * 100.0, 3);
    match (outcome.estimate, outcome.value) {
        (Some(estimate), _) => match outcome.ci95 {
            Some([low, high]) => format!(
                "P(win) = {} % [{}, {}]",
                percent(estimate),
                percent(low),
                percent(high)
            ),
            None => format!("P(win) = {} %", percent(estimate)),
        },
        (None, Some(value)) => format!("P(win) = {} % (exact)", percent(value)),
        (None, None) => String::new(),
    }
}

/// `x` to `digits` significant digits (at most 12 decimals), without
/// float noise: `0.7047` for 0.70470001, `0.0000402` for 4.02e-5.
fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 12) as usize;
    format!("{x:.decimals$}")
}

/// A game's name for people, from the name of its report (the registry's
/// display name), or the report's name itself for any other report.
fn game_name(report_name: &str) -> &str {
    registry::by_report_name(report_name).map_or(report_name, |entry| entry.display_name)
}

// ---------------------------------------------------------------------------
// Blackjack at the table: the value per round by true count.

/// What the chart by true count draws of a `blackjack-table` or
/// `blackjack-table-compare` document.
struct TrueCountTable {
    params: Params,
    seed: u64,
    rounds: u64,
    value: TableValue,
    by_true_count: Vec<TrueCountRow>,
}

/// Upper ends (exclusive) of the solve-time classes of [`solve_work_svg`],
/// in seconds, with their labels; the last class is open.
const SOLVE_TIME_CLASSES: [(f64, &str); 6] = [
    (0.001, "< 1 ms"),
    (0.01, "1-10 ms"),
    (0.1, "10-100 ms"),
    (1.0, "0.1-1 s"),
    (10.0, "1-10 s"),
    (f64::INFINITY, "≥ 10 s"),
];

/// The work of `klondike solve` per deal, as small multiples: the share
/// of deals by states searched (the document's powers-of-two classes, the
/// empty ones at either end left out; deterministic under a node budget),
/// and, when the document lists deals, by solve time (classes of a factor
/// of 10, measured on the machine that ran it).
fn solve_work_svg(document: &KlondikeSolveDocument, options: FigureOptions) -> Result<String> {
    let summary = &document.summary;
    let share = |count: u64, total: u64| {
        if total == 0 {
            0.0
        } else {
            count as f64 / total as f64
        }
    };
    let counted: u64 = summary.nodes.iter().map(|bucket| bucket.deals).sum();
    let first = summary.nodes.iter().position(|bucket| bucket.deals > 0);
    let last = summary.nodes.iter().rposition(|bucket| bucket.deals > 0);
    let (Some(first), Some(last)) = (first, last) else {
        return Err(Error::invalid(
            "document",
            "of klondike solve with no deal counted",
            "a chart needs at least one deal",
        ));
    };
    let buckets = &summary.nodes[first..=last];
    let mut panels = vec![BarPanel {
        title: "states searched per deal (from the number shown to just under twice it)".into(),
        categories: buckets.iter().map(|bucket| si_count(bucket.min)).collect(),
        values: buckets
            .iter()
            .map(|bucket| share(bucket.deals, counted))
            .collect(),
        intervals: None,
        log_y: false,
    }];
    if !document.deals.is_empty() {
        let mut per_class = [0u64; SOLVE_TIME_CLASSES.len()];
        for deal in &document.deals {
            let class = SOLVE_TIME_CLASSES
                .iter()
                .position(|&(below, _)| deal.seconds < below)
                .unwrap_or(SOLVE_TIME_CLASSES.len() - 1);
            per_class[class] += 1;
        }
        let listed = document.deals.len() as u64;
        panels.push(BarPanel {
            title: format!(
                "time per deal ({} deals, each on one thread)",
                thousands(listed)
            ),
            categories: SOLVE_TIME_CLASSES
                .iter()
                .map(|&(_, label)| label.to_string())
                .collect(),
            values: per_class.iter().map(|&n| share(n, listed)).collect(),
            intervals: None,
            log_y: false,
        });
    }
    let params = &document.params;
    let how = match (document.trials, document.seed) {
        (Some(trials), Some(seed)) => format!("{} random deals, seed {seed}", thousands(trials)),
        _ => format!("{} deals given", thousands(summary.deals)),
    };
    let chart = PanelChart {
        title: "Klondike, which deals can be won: the solver's work per deal".into(),
        caption: format!(
            "draw {}, passes {}, at most {} states a deal; {how}",
            params.draw,
            params.passes,
            thousands(params.max_nodes)
        ),
        size: options.size,
        y_label: "percent of deals".into(),
        bars_name: "share of the deals".into(),
        panels,
    };
    chart::render_panels_svg(&chart)
}

/// A count for an axis label: `512`, `1k`, `32k`, `1M`, `16M`, `1G`
/// (binary multiples, as the powers of two of the node classes are).
fn si_count(n: u64) -> String {
    match n {
        n if n >= 1 << 30 => format!("{}G", n >> 30),
        n if n >= 1 << 20 => format!("{}M", n >> 20),
        n if n >= 1 << 10 => format!("{}k", n >> 10),
        n => n.to_string(),
    }
}

/// The chart of the value per round by true count: one mean (in percent
/// of the bet) with its 95% interval per row, in the report's order, the
/// mean of all rounds as the reference line, and each row's share of the
/// rounds as bars underneath. A row's `mean` and `ci95` are `null` when it
/// has too few rounds: it keeps its place without a point. The count is
/// named in the title, the other parameters and the method in the
/// caption.
fn means_svg(table: &TrueCountTable, options: FigureOptions) -> Result<String> {
    let rows = &table.by_true_count;
    let categories = rows
        .iter()
        .map(|row| row.true_count.replace("<=", "≤").replace(">=", "≥"))
        .collect();
    // Percent of the bet, as the y axis says.
    let means = rows.iter().map(|row| row.mean.map(|m| m * 100.0)).collect();
    let intervals = rows
        .iter()
        .map(|row| row.ci95.map(|[low, high]| (low * 100.0, high * 100.0)))
        .collect();
    let frequencies = rows.iter().map(|row| row.frequency).collect();

    let mean = table.value.mean;
    let reference = Some(ReferenceLine {
        value: mean * 100.0,
        name: match table.value.ci95 {
            [Some(low), Some(high)] => format!(
                "all rounds: {:.2} % (95% interval {:.2} to {:.2} %)",
                mean * 100.0,
                low * 100.0,
                high * 100.0
            ),
            _ => format!("all rounds: {:.2} %", mean * 100.0),
        },
    });

    // The count's entry of the open `params` object.
    let count = table.params.get("count").and_then(Value::as_str);
    let mut params = table.params.clone();
    params.remove("count");
    // A named system's tags are its name's; only custom tags need
    // spelling out.
    if count.is_some_and(|count| count != "custom") {
        params.remove("count_tags");
    }
    let how = format!(
        "Monte Carlo, {} rounds, seed {}",
        thousands(table.rounds),
        table.seed
    );
    let details: Vec<String> = [params_text(&serde_json::json!({ "params": params })), how]
        .into_iter()
        .filter(|text| !text.is_empty())
        .collect();
    let title = match count {
        Some(count) => format!("Value per round by true count, {count}"),
        None => "Value per round by true count".to_string(),
    };

    let chart = MeanChart {
        title,
        caption: details.join("; "),
        size: options.size,
        x_label: "true count (running count per deck left to deal, rounded down)".to_string(),
        y_label: "value per round (% of the bet)".to_string(),
        categories,
        means,
        intervals,
        reference,
        frequencies: Some(Frequencies {
            y_label: "percent of rounds".to_string(),
            values: frequencies,
        }),
    };
    chart::render_means_svg(&chart)
}

// ---------------------------------------------------------------------------
// Several distributions: small multiples.

/// One panel of bars per distribution, under a title naming the game, its
/// parameters and how the numbers were found.
fn panels_svg(
    report: &ReportDocument,
    distributions: &[Distribution],
    options: FigureOptions,
) -> Result<String> {
    let game = report.game.as_str();
    let panels = distributions
        .iter()
        .map(|distribution| {
            let key = distribution.key.as_str();
            let outcomes = &distribution.outcomes;
            // Exact values, or Monte-Carlo estimates.
            let values = outcomes
                .iter()
                .map(|outcome| {
                    outcome.shown_value().ok_or_else(|| {
                        Error::invalid(
                            "report",
                            format!("distribution {key}, outcome \"{}\"", outcome.outcome),
                            "needs a numeric \"value\" or \"estimate\"",
                        )
                    })
                })
                .collect::<Result<Vec<f64>>>()?;
            let intervals: Option<Vec<(f64, f64)>> = outcomes
                .iter()
                .map(|o| o.ci95.map(|[low, high]| (low, high)))
                .collect();
            Ok(BarPanel {
                title: heading(game, key),
                log_y: options.y_scale.is_log(&values),
                categories: outcomes.iter().map(|o| o.outcome.clone()).collect(),
                values,
                intervals,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let (how, bars_name) = match report.trials {
        Some(trials) => (
            format!(
                "Monte Carlo, {} games, seed {}",
                thousands(trials),
                seed_text(report)
            ),
            format!("estimate from {} games", thousands(trials)),
        ),
        None => ("exact".to_string(), "exact probability".to_string()),
    };
    let params = params_words(&report.params);
    let chart = PanelChart {
        title: game_name(game).to_string(),
        caption: if params.is_empty() {
            how
        } else {
            format!("{params}; {how}")
        },
        size: options.size,
        y_label: "percent of games".to_string(),
        bars_name,
        panels,
    };
    chart::render_panels_svg(&chart)
}

/// A distribution's key as a panel heading. Keys the game's registry
/// entry knows get words (Roll-Call's `K=1` is `cards left, K = 1`,
/// `zero-strike` is `won without a strike`, `first-pass-matches` is
/// `matches in the first pass`; Prisoner's patience's
/// `sweep-x-free-choice` is `fixed sweep × free choice`); any other key is
/// shown as given with `-` as a space and `name=value` as `name = value`.
fn heading(report_name: &str, key: &str) -> String {
    if let Some(words) =
        registry::by_report_name(report_name).and_then(|entry| entry.panel_heading(key))
    {
        return words;
    }
    match key.split_once('=') {
        Some((name, value)) => format!("{} = {value}", name.replace('-', " ")),
        None => key.replace('-', " "),
    }
}

// ---------------------------------------------------------------------------
// The dealer's table: stacked bars.

/// The upcard of a distribution keyed `upcard=...` (its only parameter).
fn upcard(distribution: &Distribution) -> Option<&str> {
    match distribution.params.0.as_slice() {
        [(name, card)] if name == "upcard" => Some(card),
        _ => None,
    }
}

/// The stacked bars of a blackjack dealer's table: one bar per upcard, one
/// segment per outcome, in the outcome order of the first distribution.
fn stacked_svg(
    report: &ReportDocument,
    distributions: &[Distribution],
    options: FigureOptions,
) -> Result<String> {
    fn outcome_labels(d: &Distribution) -> Vec<&str> {
        d.outcomes.iter().map(|o| o.outcome.as_str()).collect()
    }
    let names = outcome_labels(&distributions[0]);
    let mut segments: Vec<Segment> = names
        .iter()
        .map(|name| Segment {
            name: name.to_string(),
            values: Vec::with_capacity(distributions.len()),
        })
        .collect();
    let mut categories = Vec::with_capacity(distributions.len());
    for distribution in distributions {
        let card = upcard(distribution).unwrap_or_default();
        if outcome_labels(distribution) != names {
            return Err(Error::invalid(
                "report",
                format!(
                    "distribution upcard={card}: outcomes differ from upcard={}",
                    { upcard(&distributions[0]).unwrap_or_default() }
                ),
                "every upcard needs the same outcomes to stack them",
            ));
        }
        for (segment, outcome) in segments.iter_mut().zip(&distribution.outcomes) {
            // Exact values, or Monte-Carlo estimates.
            let value = outcome.shown_value().ok_or_else(|| {
                Error::invalid(
                    "report",
                    format!("upcard={card}, outcome \"{}\"", segment.name),
                    "needs a numeric \"value\" or \"estimate\"",
                )
            })?;
            segment.values.push(value);
        }
        categories.push(card.to_string());
    }
    let how = match report.trials {
        Some(trials) => format!(
            "Monte Carlo, {} hands per upcard, seed {}",
            thousands(trials),
            seed_text(report)
        ),
        None => "exact".to_string(),
    };
    let chart = StackedBarChart {
        title: format!("{}: final hand by upcard", game_name(&report.game)),
        caption: format!("{}; {how}", params_words(&report.params)),
        size: options.size,
        x_label: "dealer's upcard".to_string(),
        y_label: "percent of hands".to_string(),
        categories,
        segments,
    };
    chart::render_stacked_svg(&chart)
}

/// The parameters of a document read as a JSON tree (the blackjack
/// table's), as [`params_words`] writes them.
fn params_text(report: &Value) -> String {
    match report.get("params") {
        Some(Value::Object(params)) => params_words(params),
        _ => String::new(),
    }
}

/// A report's parameters as `name value, ...`, leaving out empty lists and
/// nulls (which say "nothing of this"), strings without quotes, lists of
/// strings joined by `/`. (A game's parameters are its own: they stay a
/// JSON object in the contract, and each value is written by its JSON
/// type.)
fn params_words(params: &Map<String, Value>) -> String {
    params
        .iter()
        .filter(|(_, value)| !(value.is_null() || value.as_array().is_some_and(Vec::is_empty)))
        .map(|(name, value)| match value {
            Value::String(text) => format!("{name} {text}"),
            // Several shuffles, say: `shuffle uniform/naive`.
            Value::Array(items) if items.iter().all(Value::is_string) => {
                let items: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                format!("{name} {}", items.join("/"))
            }
            // Counts read with thousands separators: `shoe_cards 312`,
            // `hands 1,000,000`.
            Value::Number(number) => match number.as_u64() {
                Some(count) => format!("{name} {}", thousands(count)),
                None => format!("{name} {number}"),
            },
            other => format!("{name} {other}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A title given whole (a comparison's, say `Roll-Call 4 ranks x 2
/// copies: Monte Carlo (1,000,000 games, seed 1) vs exact`) as the chart's
/// title and caption: what is compared before the first `": "`, how after
/// it; all title when it has none.
fn split_title(title: &str) -> (String, String) {
    match title.split_once(": ") {
        Some((what, how)) => (what.to_string(), how.to_string()),
        None => (title.to_string(), String::new()),
    }
}

// ---------------------------------------------------------------------------
// Comparisons: z-scores.

/// The z-score plot of a comparison (agreement tests, or the check of a
/// published table).
fn z_scores_svg(comparison: &Comparison, options: FigureOptions) -> Result<String> {
    let (kind, title, panels, critical) = match comparison {
        Comparison::Agreements(agreements) => {
            let kind = match agreements.comparison {
                Some(TestName::GoodnessOfFit) => "goodness-of-fit",
                Some(TestName::Homogeneity) => "homogeneity",
                None => "mixed",
            };
            let panels = agreements.rows.iter().map(agreement_panel).collect();
            (kind, &agreements.title, panels, None)
        }
        Comparison::Published(check) => {
            let panels: Vec<ZPanel> = check.rows.iter().map(published_panel).collect();
            if !panels.iter().flat_map(|p| &p.points).any(|p| p.z.is_some()) {
                return Err(Error::invalid(
                    "report",
                    format!("comparison \"{}\" without any z-score", PublishedTag::NAME),
                    "has nothing to plot (a table checked as exact has no z-scores; give its sample size)",
                ));
            }
            // The critical value is Bonferroni's over the cells with a
            // z-score (and unused when there are none).
            let cells = check.cells_tested;
            let critical = check
                .z_critical
                .filter(|_| cells > 0)
                .map(|z| CriticalValue {
                    z,
                    description: match check.level {
                        Some(level) => format!("Bonferroni over {cells} cells, level {level}"),
                        None => format!("Bonferroni over {cells} cells"),
                    },
                });
            (PublishedTag::NAME, &check.title, panels, critical)
        }
    };
    let y_label = match kind {
        "homogeneity" => "z = (first - second) / standard error",
        "published-table" => "z = (published - exact) / standard error",
        _ => "z = (observed - expected) / standard error",
    };
    let (title, caption) = split_title(title);
    let plot = ZScorePlot {
        title,
        caption,
        size: options.size,
        x_label: "outcome".to_string(),
        y_label: y_label.to_string(),
        critical,
        panels,
    };
    chart::render_z_scores_svg(&plot)
}

/// A panel for one agreement test (goodness of fit or homogeneity): its
/// outcomes' z-scores, pooled outcomes marked, headed by the key and the
/// chi-square result.
fn agreement_panel(row: &AgreementRow) -> ZPanel {
    let pooled: Vec<&str> = row
        .pooled_outcomes
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let points = row
        .outcomes
        .iter()
        .enumerate()
        .map(|(i, label)| ZPoint {
            pooled: pooled.contains(&label.as_str()),
            z: row.z_scores.get(i).copied().flatten(),
            label: label.clone(),
        })
        .collect();
    let verdict = match row.verdict {
        VerdictName::Agree => "agree",
        VerdictName::Disagree => "disagree",
    };
    // A distribution with no z at all is certain: one outcome has
    // probability 1 (Prisoner's patience 3 x 4 is always won), so no
    // outcome varies; the panel says so rather than stand empty.
    let certain = row.z_scores.iter().all(Option::is_none);
    let test = if certain {
        "one outcome certain, no z to plot".to_string()
    } else {
        chi_square_text(Some(row.degrees_of_freedom), row.p_value, row.chi_square)
    };
    let title = if test.is_empty() {
        row.key.clone()
    } else {
        format!("{}: {test}: {verdict}", row.key)
    };
    ZPanel { title, points }
}

/// A panel for one row of a published table's check: its cells' z-scores,
/// headed by the row label and its chi-square result, if any.
fn published_panel(row: &PublishedRow) -> ZPanel {
    let points = row
        .cells
        .iter()
        .map(|cell| ZPoint {
            label: cell.outcome.clone(),
            z: cell.z,
            pooled: false,
        })
        .collect();
    let (label, key) = (row.label.as_str(), row.key.as_str());
    let mut title = match key.split_once('=') {
        // `upcard=10` checked from a row labelled `K`: say both.
        Some((_, value)) if value != label => format!("{key} (row {label})"),
        _ if key.is_empty() => label.to_string(),
        _ => key.to_string(),
    };
    let test = chi_square_text(row.degrees_of_freedom, row.p_value, row.chi_square);
    if !test.is_empty() {
        title = format!("{title}: {test}");
    }
    ZPanel { title, points }
}

/// `χ² = 12.34, df 5, p = 0.0312`, or empty when the row has no statistic.
/// An infinite statistic (a count where the exact probability is 0) is
/// `null` in the JSON, with p = 0.
fn chi_square_text(
    degrees_of_freedom: Option<usize>,
    p_value: Option<f64>,
    chi_square: Option<f64>,
) -> String {
    let (Some(df), Some(p)) = (degrees_of_freedom, p_value) else {
        return String::new();
    };
    let chi = match chi_square {
        Some(chi) => format!("{chi:.2}"),
        None => "∞".to_string(),
    };
    format!("χ² = {chi}, df {df}, {}", p_text(p))
}

/// A p-value for a heading: `p < 0.0001` when that small, else four
/// significant digits at most.
fn p_text(p: f64) -> String {
    if p <= 0.0 {
        return "p < 0.0001".to_string();
    }
    // A tiny p in scientific notation, so that 4.5e-33 reads as far past
    // 1e-4 as it is.
    if p < 1e-4 {
        return format!("p = {p:.1e}");
    }
    let decimals = (3.0 - p.log10().floor()).max(0.0) as usize;
    let text = format!("{p:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    format!("p = {text}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::chart::testing::texts;
    use serde_json::json;

    fn results(name: &str) -> String {
        let path = format!("{}/results/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn report(name: &str) -> Value {
        serde_json::from_str(&results(name)).unwrap()
    }

    /// `value` as deckodds writes it now, if it is a report or a
    /// comparison written before documents carried a `schema` (the files
    /// of results/ until they are made again): the `schema` first, and
    /// each distribution's key's `params` after its `key`.
    fn upgraded(value: &Value) -> Value {
        let Value::Object(old) = value else {
            return value.clone();
        };
        let kind = if old.contains_key("schema") || old.contains_key("by_true_count") {
            return value.clone();
        } else if old.contains_key("comparison") {
            ComparisonKind::ID
        } else if old.contains_key("distributions") {
            ReportKind::ID
        } else {
            return value.clone();
        };
        let mut new = Map::new();
        new.insert("schema".into(), json!(kind));
        for (name, field) in old {
            let field = match (name.as_str(), field) {
                ("distributions", Value::Array(distributions)) => Value::Array(
                    distributions
                        .iter()
                        .map(|distribution| {
                            let mut entry = Map::new();
                            for (name, field) in distribution.as_object().unwrap() {
                                entry.insert(name.clone(), field.clone());
                                if name == "key" {
                                    let params = KeyParams::of_key(field.as_str().unwrap());
                                    entry.insert("params".into(), json!(params));
                                }
                            }
                            Value::Object(entry)
                        })
                        .collect(),
                ),
                _ => field.clone(),
            };
            new.insert(name.clone(), field);
        }
        Value::Object(new)
    }

    /// The chart of `value`, given as its JSON text.
    fn draw(value: &Value, options: FigureOptions) -> Result<String> {
        svg_for_report(&upgraded(value).to_string(), options)
    }

    #[test]
    fn significant_digits_without_float_noise() {
        assert_eq!(significant(0.7047000000000001, 3), "0.705");
        assert_eq!(significant(0.00402, 3), "0.00402");
        assert_eq!(significant(13.000000000000002, 3), "13.0");
        assert_eq!(significant(0.0, 3), "0");
    }

    #[test]
    fn the_win_is_annotated_and_rare_outcomes_get_a_log_axis() {
        // Idiot's Delight's win is 0 cards left (about 0.70 %), the 52
        // cards' tail far under 1 % of the mode.
        let value = report("idiots-delight-52-uniform.json");
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        let win = shown
            .iter()
            .find(|t| t.starts_with("P(win) = "))
            .unwrap_or_else(|| panic!("{shown:?}"));
        assert!(win.starts_with("P(win) = 0.70"), "{win}");
        assert!(win.ends_with(']') && win.contains(" % ["), "{win}");
        assert!(shown.contains(&"percent of games (log scale)"), "{shown:?}");

        // Exact: the value, marked so.
        let exact = json!({"game": "klondike", "method": "exact", "params": {},
            "seed": null, "trials": null, "distributions": [{"key": "foundation-cards", "outcomes": [
                {"outcome": "0", "value": 0.5}, {"outcome": "52", "value": 0.5}]}]});
        let shown_svg = draw(&exact, FigureOptions::default()).unwrap();
        let shown = texts(&shown_svg);
        assert!(shown.contains(&"P(win) = 50.0 % (exact)"), "{shown:?}");
        // Even outcomes: linear.
        assert!(shown.contains(&"percent of games"), "{shown:?}");

        // A game without one win outcome gets no annotation.
        let mut other = exact.clone();
        other["game"] = json!("roll-call");
        let shown_svg = draw(&other, FigureOptions::default()).unwrap();
        assert!(!texts(&shown_svg).iter().any(|t| t.starts_with("P(win)")));
    }

    #[test]
    fn bar_charts_are_the_committed_ones_byte_for_byte() {
        // Every committed chart drawn from a JSON beside it, as
        // `deckodds reproduce` writes them.
        let directory = format!("{}/results", env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        let mut names: Vec<String> = std::fs::read_dir(&directory)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".svg"))
            .collect();
        names.sort();
        for svg_name in names {
            let json_name = svg_name.replace(".svg", ".json");
            let json_path = format!("{directory}/{json_name}");
            // A chart is drawn from the table's JSON (strategy cards too).
            if !std::path::Path::new(&json_path).exists() {
                continue;
            }
            let drawn = draw(&report(&json_name), FigureOptions::default()).unwrap();
            assert!(drawn == results(&svg_name), "{svg_name} differs");
            checked += 1;
        }
        assert!(checked >= 9, "only {checked} charts checked");
    }

    #[test]
    fn the_dealer_table_is_stacked() {
        let value = report("blackjack-dealer-2-decks-s17.json");
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        for text in [
            "bust",
            "17",
            "21",
            "natural",
            "dealer&apos;s upcard",
            "percent of hands",
            // The title in words, the parameters in the caption.
            "Blackjack dealer: final hand by upcard",
            "decks 2, soft17 stand, scoring correct, peek false; exact",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        // Upcard 2 busts 35.33% of the time.
        assert!(shown.contains(&"35.3"), "{shown:?}");
        assert_eq!(svg, draw(&value, FigureOptions::default()).unwrap());
    }

    #[test]
    fn comparisons_are_z_score_plots() {
        let value = report("roll-call-52-same-vs-reversed.json");
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        assert!(shown.contains(&"z = (first - second) / standard error"));
        // One panel per compared distribution.
        let headings = shown.iter().filter(|t| t.contains("χ² = ")).count();
        assert_eq!(headings, 8, "{shown:?}");
        assert!(
            shown.contains(&"zero-strike: χ² = 8.19, df 1, p = 0.004217: agree"),
            "{shown:?}"
        );

        let value = report("roll-call-52-first-pass-vs-exact.json");
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        assert!(shown.contains(&"z = (observed - expected) / standard error"));
        assert!(
            shown.iter().any(|t| t.starts_with("outcome pooled")),
            "{shown:?}"
        );
    }

    #[test]
    fn a_published_check_has_its_critical_value() {
        let value = json!({
            "comparison": "published-table",
            "title": "a table",
            "level": 0.05,
            "sample": {"kind": "per-row", "hands": 1000.0},
            "z_critical": 2.5,
            "cells_tested": 3,
            "consistent": false,
            "inconsistent": ["K/bust"],
            "rows": [
                {"label": "K", "key": "upcard=10", "hands": 1000.0, "chi_square": 9.5,
                 "degrees_of_freedom": 2, "p_value": 0.00865,
                 "cells": [
                     {"outcome": "bust", "text": "1", "exact_percent": 1.0, "z": 3.0,
                      "consistent": false},
                     {"outcome": "17", "text": "1", "exact_percent": 1.0, "z": -1.0,
                      "consistent": true},
                     {"outcome": "natural", "text": "1", "exact_percent": 1.0, "z": 0.5,
                      "consistent": true},
                 ]},
                {"label": "A", "key": "upcard=A", "hands": null, "chi_square": null,
                 "degrees_of_freedom": null, "p_value": null,
                 "cells": [{"outcome": "bust", "text": "1", "exact_percent": 1.0, "z": null,
                            "consistent": true}]},
            ],
        });
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        for text in [
            "upcard=10 (row K): χ² = 9.50, df 2, p = 0.00865",
            "upcard=A",
            "z = ±2.50, the critical value (Bonferroni over 3 cells, level 0.05)",
            "beyond ±2.50",
            "z = (published - exact) / standard error",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        // One point beyond (a vermillion triangle), two inside.
        assert_eq!(svg.matches("<polygon").count(), 2, "{svg}"); // and the legend's
        assert_eq!(svg.matches(r##"fill="#0072B2""##).count(), 3, "{svg}"); // and the legend's
    }

    /// The printed size in points of every text of `svg`, from its width in
    /// inches and its view box (a chart for print).
    fn printed_text_points(svg: &str) -> Vec<f64> {
        let head = &svg[..svg.find('>').unwrap()];
        let value = |name: &str| {
            let (_, rest) = head.split_once(&format!(" {name}=\"")).unwrap();
            rest.split_once('"').unwrap().0.to_string()
        };
        let inches: f64 = value("width").strip_suffix("in").unwrap().parse().unwrap();
        let units: f64 = value("viewBox").split(' ').nth(2).unwrap().parse().unwrap();
        let points_per_unit = inches * 72.0 / units;
        svg.split(" font-size=\"")
            .skip(1)
            .map(|rest| rest.split_once('"').unwrap().0.parse::<f64>().unwrap() * points_per_unit)
            .collect()
    }

    #[test]
    fn print_sizes_are_inches_wide_with_text_at_8_to_9_points() {
        let charts = [
            "idiots-delight-52-uniform.json",
            "klondike-52.json",
            "roll-call-52-continuous-same.json",
            "blackjack-dealer-2-decks-s17.json",
            "blackjack-dealer-2-decks-s17-mc-vs-exact.json",
            "idiots-delight-52-vs-sas.json",
            "blackjack-table-6-decks-hi-lo.json",
        ];
        for name in charts {
            let value = report(name);
            for (size, inches) in [(FigureSize::Single, "3.5in"), (FigureSize::Double, "7in")] {
                let options = FigureOptions {
                    size,
                    ..FigureOptions::default()
                };
                let svg = draw(&value, options).unwrap();
                assert!(
                    svg.starts_with(&format!("<svg width=\"{inches}\" height=\"")),
                    "{name}: {}",
                    &svg[..100]
                );
                assert!(
                    svg.contains(&format!("viewBox=\"0 0 {} ", size.width())),
                    "{name}"
                );
                // Tick labels and legends (the bulk of the text) print at 8
                // to 9.5 points; titles larger; nothing under 6.
                let points = printed_text_points(&svg);
                let body = points
                    .iter()
                    .filter(|&&p| (7.99..=9.5).contains(&p))
                    .count();
                assert!(
                    body * 10 >= points.len() * 7,
                    "{name} {size:?}: {body} of {} texts at 8-9.5 pt: {points:?}",
                    points.len()
                );
                assert!(
                    points.iter().all(|&p| p >= 6.0),
                    "{name} {size:?}: {points:?}"
                );
                // The PDF is that wide, in points.
                #[cfg(feature = "figures")]
                {
                    let pdf = crate::report::convert::svg_to_pdf(&svg).unwrap();
                    let wide = if size == FigureSize::Single {
                        "252"
                    } else {
                        "504"
                    };
                    let pdf_text = String::from_utf8_lossy(&pdf);
                    assert!(
                        pdf_text.contains(&format!("/MediaBox [0 0 {wide} ")),
                        "{name}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_y_scale_can_be_chosen() {
        // Idiot's Delight's 52 cards go on a log axis by themselves...
        let value = report("idiots-delight-52-uniform.json");
        let log = "percent of games (log scale)";
        let drawn = |y_scale| {
            let options = FigureOptions {
                y_scale,
                ..FigureOptions::default()
            };
            draw(&value, options).unwrap()
        };
        assert!(texts(&drawn(YScale::Auto)).contains(&log));
        assert!(texts(&drawn(YScale::Log)).contains(&log));
        // ...and on a linear one when asked.
        let linear = drawn(YScale::Linear);
        assert!(!texts(&linear).contains(&log));
        assert!(texts(&linear).contains(&"percent of games"));
        // Two even outcomes are linear unless log is asked for.
        let even = json!({"game": "klondike", "method": "exact", "params": {},
            "seed": null, "trials": null, "distributions": [{"key": "won", "outcomes": [
                {"outcome": "no", "value": 0.5}, {"outcome": "yes", "value": 0.5}]}]});
        for (y_scale, is_log) in [
            (YScale::Auto, false),
            (YScale::Log, true),
            (YScale::Linear, false),
        ] {
            let options = FigureOptions {
                y_scale,
                ..FigureOptions::default()
            };
            let svg = draw(&even, options).unwrap();
            assert_eq!(
                texts(&svg).contains(&"percent of games (log scale)"),
                is_log,
                "{y_scale:?}"
            );
        }
    }

    #[test]
    fn no_attribute_carries_float_noise() {
        for name in [
            "blackjack-table-6-decks-hi-lo.json",
            "roll-call-52-continuous-same.json",
        ] {
            let svg = draw(&report(name), FigureOptions::default()).unwrap();
            let noisy = svg
                .split('"')
                .filter(|part| {
                    part.split_once('.').is_some_and(|(whole, decimals)| {
                        !whole.is_empty()
                            && whole.chars().all(|c| c.is_ascii_digit() || c == '-')
                            && decimals.len() > 3
                            && decimals.chars().all(|c| c.is_ascii_digit())
                    })
                })
                .count();
            assert_eq!(noisy, 0, "{name}");
        }
    }

    #[test]
    fn several_distributions_are_panels() {
        let value = report("roll-call-52-continuous-same.json");
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        // One heading per distribution, in the report's order.
        let headings = [
            "cards left, K = 1",
            "cards left, K = 2",
            "cards left, K = 3",
            "cards left, K = unlimited",
            "passes",
            "strikes",
            "won without a strike",
            "matches in the first pass",
        ];
        let at: Vec<usize> = headings
            .iter()
            .map(|h| {
                shown
                    .iter()
                    .position(|t| t == h)
                    .unwrap_or_else(|| panic!("{h} in {shown:?}"))
            })
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
        // Every panel has its y axis, log where its rare outcomes would
        // otherwise make no bar.
        let y_axes = |label: &str| shown.iter().filter(|t| **t == label).count();
        assert_eq!(
            y_axes("percent of games") + y_axes("percent of games (log scale)"),
            8
        );
        assert!(y_axes("percent of games (log scale)") >= 1, "{shown:?}");
        for text in [
            "estimate from 10,000,000 games",
            "95% interval",
            "yes",
            "no",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        assert_eq!(shown[0], "Roll-Call");
        assert!(shown[1].starts_with("ranks 13, copies 4"), "{shown:?}");
        assert_eq!(svg, draw(&value, FigureOptions::default()).unwrap());

        // Exact: no intervals.
        let value = report("roll-call-exact-4x3.json");
        let shown_svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&shown_svg);
        assert!(shown.contains(&"exact probability"), "{shown:?}");
        assert!(!shown.contains(&"95% interval"), "{shown:?}");
    }

    #[test]
    fn headings_read_well() {
        assert_eq!(
            heading("roll-call", "K=unlimited"),
            "cards left, K = unlimited"
        );
        assert_eq!(
            heading("roll-call", "first-pass-matches"),
            "matches in the first pass"
        );
        assert_eq!(heading("prisoners-patience", "free-choice"), "free choice");
        assert_eq!(heading("other", "some-key=3"), "some key = 3");
        assert_eq!(heading("other", "K=1"), "K = 1");
    }

    #[test]
    fn p_values_read_well() {
        assert_eq!(p_text(0.0), "p < 0.0001");
        assert_eq!(p_text(4.4698965943280104e-33), "p = 4.5e-33");
        assert_eq!(p_text(0.8312865474187479), "p = 0.8313");
        assert_eq!(p_text(0.004219), "p = 0.004219");
        assert_eq!(p_text(1.0), "p = 1");
        assert_eq!(p_text(0.5), "p = 0.5");
    }

    #[test]
    fn a_strategy_chart_is_its_card() {
        // A chart's JSON (the shape `report::strategy_chart` writes) is drawn
        // by the strategy card's own function, the same picture as a chart
        // rendered directly.
        let row = |code: &str| {
            json!({"2": code, "3": code, "4": code, "5": code, "6": code,
                   "7": "H", "8": "H", "9": "H", "T": "H", "A": null})
        };
        let value = json!({
            "schema": "deckodds.blackjack-strategy/v1",
            "game": "a-chart",
            "method": "exact",
            "params": {"decks": "inf", "soft17": "hit"},
            "chart": {
                "hard": {"16": row("S")},
                "soft": {"18": row("Ds")},
                "pairs": {"88": row("P")},
                "multi_card": {"hard": {"16": row("S")}, "soft": {}},
            },
            "exceptions": [{"section": "hard", "row": "16", "upcard": "T",
                            "hand": "79", "chart": "H", "best": "stand"}],
        });
        let svg = draw(&value, FigureOptions::default()).unwrap();
        assert_eq!(svg, strategy_chart::svg_from_chart_json(&value).unwrap());
        let shown = texts(&svg);
        for text in [
            "Basic strategy",
            "infinite deck, H17 (exact)",
            "A7 (18)",
            "8,8",
            "Ds",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        // The exception's corner, and the legend's.
        assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
    }

    /// A `blackjack-table` report as `deckodds blackjack table --count
    /// hi-lo` writes it: 21 true-count rows, `<=-10` to `>=+10`, the two
    /// ends with too few rounds for a mean; the means rise by 0.5% of the
    /// bet per true count from -0.5% at 0.
    fn table_document() -> TableDocument {
        use crate::contract::Tag;
        use crate::contract::blackjack::{
            CountOutcome, LabelMap, RoundsPerShoe, TableDistribution, TableOutcomes,
        };
        let by_true_count = (-10..=10)
            .map(|tc: i32| {
                let true_count = match tc {
                    -10 => "<=-10".to_string(),
                    10 => ">=+10".to_string(),
                    tc if tc > 0 => format!("+{tc}"),
                    tc => tc.to_string(),
                };
                if tc.abs() == 10 {
                    return TrueCountRow {
                        true_count,
                        rounds: 1,
                        frequency: 0.0001,
                        mean: None,
                        sd: None,
                        ci95: None,
                    };
                }
                let rounds = 1000 / (1 + u64::from(tc.unsigned_abs()));
                let mean = (f64::from(tc) - 1.0) * 0.005;
                TrueCountRow {
                    true_count,
                    rounds,
                    frequency: rounds as f64 / 4000.0,
                    mean: Some(mean),
                    sd: Some(1.1),
                    ci95: Some([mean - 0.02, mean + 0.02]),
                }
            })
            .collect();
        let params = json!({"decks": "6", "soft17": "stand", "penetration": 0.75,
                            "strategy": "cd", "count": "hi-lo",
                            "count_tags": "-1,1,1,1,1,1,0,0,0,-1"});
        let outcome = |outcome: &str| CountOutcome {
            outcome: outcome.into(),
            count: 500_000,
            estimate: 0.5,
            ci95: [0.49, 0.51],
        };
        TableDocument {
            schema: Tag::new(),
            game: "blackjack-table".into(),
            method: "monte-carlo".into(),
            params: params.as_object().unwrap().clone(),
            seed: 7,
            shoes: 20_000,
            rounds: 1_000_000,
            value: TableValue {
                mean: -0.0041,
                ci95: [Some(-0.0050), Some(-0.0032)],
                sd: Some(1.15),
                standard_error: Some(0.0004),
            },
            house_edge_percent: 0.41,
            outcomes: TableOutcomes {
                win: 430_000,
                loss: 480_000,
                push: 90_000,
            },
            events: LabelMap(vec![("bust".into(), 160_000)]),
            rounds_per_shoe: RoundsPerShoe {
                mean: 50.0,
                reshuffled_shoes: 0,
            },
            by_true_count,
            betting: None,
            index_plays: None,
            insurance: None,
            distributions: vec![TableDistribution {
                key: "net per round".into(),
                outcomes: vec![outcome("-1"), outcome("+1")],
            }],
            shard: None,
        }
    }

    fn table_report() -> Value {
        serde_json::to_value(table_document()).unwrap()
    }

    /// The chart of `rows` by hand, in percent, for the caption and
    /// reference of [`table_document`].
    fn means_by_hand(
        categories: &[&str],
        means: Vec<Option<f64>>,
        intervals: Vec<Option<(f64, f64)>>,
        frequencies: Vec<f64>,
    ) -> MeanChart {
        MeanChart {
            title: "Value per round by true count, hi-lo".to_string(),
            caption: "decks 6, soft17 stand, penetration 0.75, strategy cd; \
                      Monte Carlo, 1,000,000 rounds, seed 7"
                .to_string(),
            size: Default::default(),
            x_label: "true count (running count per deck left to deal, rounded down)".to_string(),
            y_label: "value per round (% of the bet)".to_string(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            means,
            intervals,
            reference: Some(ReferenceLine {
                value: -0.41,
                name: "all rounds: -0.41 % (95% interval -0.50 to -0.32 %)".to_string(),
            }),
            frequencies: Some(Frequencies {
                y_label: "percent of rounds".to_string(),
                values: frequencies,
            }),
        }
    }

    #[test]
    fn a_table_report_by_true_count_is_a_chart_of_means() {
        let value = table_report();
        let svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        // The title names the count; the caption under it the other
        // parameters and the method.
        assert_eq!(shown[0], "Value per round by true count, hi-lo");
        assert_eq!(
            shown[1],
            "decks 6, soft17 stand, penetration 0.75, strategy cd; Monte Carlo, 1,000,000 rounds, seed 7"
        );
        for text in [
            "value per round (% of the bet)",
            "percent of rounds",
            "all rounds: -0.41 % (95% interval -0.50 to -0.32 %)",
            "≤-10",
            "-9",
            "0",
            "+9",
            "≥+10",
        ] {
            assert!(shown.contains(&text), "{text} in {shown:?}");
        }
        // 19 means (the two ends have none), and the legend's point.
        assert_eq!(svg.matches("<circle").count(), 19 + 1, "{svg}");
        assert_eq!(svg, draw(&value, FigureOptions::default()).unwrap());
        // A table compare document is drawn the same way.
        let mut compare = value.clone();
        compare["schema"] = json!("deckodds.blackjack-table-compare/v1");
        let message = draw(&compare, FigureOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            message
                .contains("deckodds.blackjack-table-compare/v1: missing field `exact_off_the_top`"),
            "{message}"
        );
    }

    #[test]
    fn a_table_chart_is_in_percent_of_the_bet() {
        // Three rows drawn from the JSON, and the same drawn from a chart
        // written out by hand in percent.
        let mut document = table_document();
        document.by_true_count = vec![
            TrueCountRow {
                true_count: "<=-1".into(),
                rounds: 1,
                frequency: 0.25,
                mean: None,
                sd: None,
                ci95: None,
            },
            TrueCountRow {
                true_count: "0".into(),
                rounds: 50,
                frequency: 0.5,
                mean: Some(-0.01),
                sd: Some(1.0),
                ci95: Some([-0.03, 0.01]),
            },
            TrueCountRow {
                true_count: ">=+1".into(),
                rounds: 25,
                frequency: 0.25,
                mean: Some(0.02),
                sd: Some(1.0),
                ci95: Some([0.0, 0.04]),
            },
        ];
        let by_hand = means_by_hand(
            &["≤-1", "0", "≥+1"],
            vec![None, Some(-1.0), Some(2.0)],
            vec![None, Some((-3.0, 1.0)), Some((0.0, 4.0))],
            vec![0.25, 0.5, 0.25],
        );
        // Scaling by 100 in binary floating point may move the last bit;
        // the pictures agree to the pixel all the same.
        let value = serde_json::to_value(&document).unwrap();
        assert_eq!(
            draw(&value, FigureOptions::default()).unwrap(),
            chart::render_means_svg(&by_hand).unwrap()
        );
    }

    #[test]
    fn a_table_report_without_a_count_falls_through() {
        let mut value = table_report();
        value["by_true_count"] = json!([]);
        let shown_svg = draw(&value, FigureOptions::default()).unwrap();
        let shown = texts(&shown_svg);
        // The report's one distribution, as bars.
        assert!(shown.contains(&"percent of games"), "{shown:?}");
        assert!(!shown.contains(&"percent of rounds"), "{shown:?}");
        // A table document passed off as a report is refused by the
        // report's type, naming the first field a report has not.
        let mut value = table_report();
        value["schema"] = json!("deckodds.report/v1");
        let message = draw(&value, FigureOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("deckodds.report/v1 field shoes: unknown field `shoes`"),
            "{message}"
        );
    }

    #[test]
    fn bad_rows_by_true_count_are_refused() {
        let check = |change: &dyn Fn(&mut Value), expected: &str| {
            let mut value = table_report();
            change(&mut value);
            let message = draw(&value, FigureOptions::default())
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{message}");
            assert!(!message.contains('\n'), "{message}");
        };
        check(
            &|v| v["by_true_count"][3]["true_count"] = json!(null),
            "deckodds.blackjack-table/v1 field by_true_count[3].true_count: invalid type: null",
        );
        check(
            &|v| v["by_true_count"][3]["mean"] = json!("high"),
            "field by_true_count[3].mean: invalid type: string \"high\"",
        );
        check(
            &|v| v["by_true_count"][3]["ci95"] = json!([0.1]),
            "field by_true_count[3].ci95: invalid length 1",
        );
        check(
            &|v| {
                v["by_true_count"][3]
                    .as_object_mut()
                    .unwrap()
                    .remove("frequency");
            },
            "field by_true_count[3]: missing field `frequency`",
        );
        check(
            &|v| v["by_true_count"][3]["skew"] = json!(0.1),
            "field by_true_count[3].skew: unknown field `skew`",
        );
        // What the chart refuses, in the chart's words.
        check(
            &|v| v["by_true_count"][0]["ci95"] = json!([-0.1, 0.1]),
            "chart category \"≤-10\": interval [-10, 10] without a mean: \
             an interval needs the mean it surrounds",
        );
    }

    #[test]
    fn a_report_or_comparison_with_an_unknown_field_or_a_wrong_type_is_refused_naming_it() {
        let refused = |value: Value| {
            let message = draw(&value, FigureOptions::default())
                .unwrap_err()
                .to_string();
            assert!(!message.contains('\n'), "{message}");
            message
        };
        let mut dealer = report("blackjack-dealer-2-decks-s17.json");
        dealer["distributions"][1]["outcomes"][2]["colour"] = json!("red");
        let message = refused(dealer);
        assert!(
            message.starts_with(
                "document deckodds.report/v1 field distributions[1].outcomes[2].colour: unknown field `colour`"
            ),
            "{message}"
        );
        let mut dealer = report("blackjack-dealer-2-decks-s17.json");
        dealer["trials"] = json!("many");
        let message = refused(dealer);
        assert!(
            message.starts_with(
                "document deckodds.report/v1 field trials: invalid type: string \"many\""
            ),
            "{message}"
        );
        let mut comparison = report("roll-call-52-same-vs-reversed.json");
        comparison["rows"][0]["verdict_text"] = json!("agree");
        let message = refused(comparison);
        assert!(
            message.starts_with(
                "document deckodds.comparison/v1 field rows[0].verdict_text: unknown field `verdict_text`"
            ),
            "{message}"
        );
        let mut published = report("blackjack-dealer-1-deck-s17-vs-woo-2b.json");
        published["rows"][2]["cells"][1]["consistent"] = json!("yes");
        let message = refused(published);
        assert!(
            message.starts_with(
                "document deckodds.comparison/v1 field rows[2].cells[1].consistent: invalid type"
            ),
            "{message}"
        );
    }

    #[test]
    fn other_shapes_are_refused_with_what_can_be_drawn() {
        let check = |value: Value, expected: &str| {
            let message = draw(&value, FigureOptions::default())
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{message}");
        };
        check(
            json!({}),
            "document without a \"schema\": written before deckodds documents carried one",
        );
        let exact = |distributions: Value| {
            json!({"game": "roll-call", "method": "exact", "params": {}, "seed": null,
                   "trials": null, "distributions": distributions})
        };
        check(
            exact(json!([])),
            "report of roll-call with 0 distributions: svg draws a report with one",
        );
        check(
            exact(json!([
                {"key": "K=1", "outcomes": [{"outcome": "0", "value": 1.0}]},
                {"key": "passes", "outcomes": [{"outcome": "1"}]},
            ])),
            "distribution passes, outcome \"1\": needs a numeric",
        );
        check(
            report("blackjack-dealer-1-deck-s17-vs-woo-2b.json"),
            "without any z-score: has nothing to plot",
        );
        let mut dealer = report("blackjack-dealer-2-decks-s17.json");
        dealer["distributions"][3]["outcomes"][0]["value"] = json!(0.5);
        check(dealer, "category \"5\": segments sum to");
    }

    #[test]
    fn a_solve_document_is_drawn_as_the_work_per_deal() {
        use crate::contract::klondike_solve::{
            NodeBucket, PolicyByVerdict, PolicyCounts, PolicyResult, PolicySummary, SolveParams,
            SolveSummary, SolvedDealEntry, VerdictName, WinnableFraction,
        };
        let none = PolicyCounts {
            went_out: 0,
            stuck: 0,
        };
        // Three deals: 300 and 700 states (the 256 class), 1,500 (1k).
        let bucket = |min: u64, deals: u64| NodeBucket {
            min,
            max: Some(2 * min - 1),
            deals,
        };
        let deal = |index: u64, nodes: u64, seconds: f64| SolvedDealEntry {
            index,
            verdict: VerdictName::Won,
            moves: 100,
            stock_turns: 30,
            nodes,
            seconds,
            policy: PolicyResult::Stuck,
        };
        let document = KlondikeSolveDocument {
            schema: contract::Tag::new(),
            game: "klondike-solve".into(),
            params: SolveParams {
                draw: 3,
                passes: "unlimited".into(),
                max_nodes: 1000,
                max_seconds: None,
            },
            seed: Some(5),
            trials: Some(3),
            deals: vec![
                deal(0, 300, 0.0005),
                deal(1, 700, 0.002),
                deal(2, 1500, 0.003),
            ],
            summary: SolveSummary {
                deals: 3,
                won: 3,
                lost: 0,
                undecided: 0,
                winnable: WinnableFraction {
                    estimate: Some(1.0),
                    ci95: [0.4, 1.0],
                    bounds: [1.0, 1.0],
                },
                policy: PolicySummary {
                    draw: 1,
                    passes: 1,
                    went_out: 0,
                    stuck: 3,
                    by_verdict: PolicyByVerdict {
                        won: none.clone(),
                        lost: none.clone(),
                        undecided: none,
                    },
                },
                nodes: vec![
                    bucket(128, 0),
                    bucket(256, 2),
                    bucket(512, 0),
                    bucket(1024, 1),
                    bucket(2048, 0),
                ],
            },
            precision: None,
            shard: None,
        };
        let svg = svg_for_report(&contract::write(&document), FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        assert!(
            shown.contains(
                &"draw 3, passes unlimited, at most 1,000 states a deal; 3 random deals, seed 5"
            ),
            "{shown:?}"
        );
        // The empty classes at either end are left out, the one between kept.
        // (The SVG escapes `<`.)
        for label in ["256", "512", "1k", "&lt; 1 ms", "1-10 ms", "≥ 10 s"] {
            assert!(shown.contains(&label), "{label} in {shown:?}");
        }
        assert!(
            !shown.contains(&"128") && !shown.contains(&"2k"),
            "{shown:?}"
        );
        // Without listed deals (a merge) only the states are drawn.
        let merged = KlondikeSolveDocument {
            deals: Vec::new(),
            ..document
        };
        let svg = svg_for_report(&contract::write(&merged), FigureOptions::default()).unwrap();
        let shown = texts(&svg);
        assert!(
            shown.contains(&"1k") && !shown.contains(&"&lt; 1 ms"),
            "{shown:?}"
        );
    }
}
