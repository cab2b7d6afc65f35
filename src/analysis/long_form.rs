//! Each game's tables as one long-form CSV, `GAME-tables.csv`, read from
//! the tables' JSON outputs (as the web pages are): a row per figure, so
//! that `pandas.read_csv` or R's `read.csv` gets every game's published
//! figures without parsing Markdown. Distributions (exact or Monte Carlo),
//! comparisons (a z per outcome, a verdict per row; a published table's
//! cells, as printed there beside deckodds' exact value) and Klondike solver runs (verdicts, the fixed policy beside
//! them, states searched); documents of other kinds (the blackjack
//! player's, strategy, house-edge and table documents) have a CSV output
//! of their own.
//!
//! No I/O; the caller hands the JSON over and writes the files. A table
//! whose JSON does not read as the kind it names is an error, never a
//! table left out of the file.

use std::fmt::{self, Write as _};

use super::Spec;
use crate::contract::comparison::{self, Comparison, VerdictName};
use crate::contract::klondike_solve::{KlondikeSolveDocument, KlondikeSolveKind};
use crate::contract::report::{Report, ReportKind};
use crate::contract::{self, Kind, ReadError};
use crate::games::registry::GameEntry;

/// The columns, in order.
pub const COLUMNS: [&str; 15] = [
    "table",
    "document",
    "distribution",
    "outcome",
    "count",
    "trials",
    "probability",
    "value",
    "ci95_low",
    "ci95_high",
    "published",
    "z",
    "p_value",
    "verdict",
    "method",
];

/// The document kinds (their `"schema"`) whose figures this file holds;
/// every other kind a table writes has a CSV output of its own.
pub const KINDS: [&str; 3] = [
    ReportKind::ID,
    comparison::ComparisonKind::ID,
    KlondikeSolveKind::ID,
];

/// The long-form CSV file of `game`'s tables.
pub fn file_of(game: &GameEntry) -> String {
    format!("{}-tables.csv", game.id)
}

/// A table whose JSON output did not read, and why: the long-form CSV is
/// not made without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadTable {
    /// The table's name (its files are `TABLE.json`, ...).
    pub table: String,
    pub error: ReadError,
}

impl fmt::Display for UnreadTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.json: {}", self.table, self.error)
    }
}

/// One row: its cells by column, empty where a column does not apply.
#[derive(Default)]
struct Row {
    table: String,
    document: &'static str,
    distribution: String,
    outcome: String,
    count: Option<u64>,
    trials: Option<u64>,
    probability: Option<String>,
    value: Option<f64>,
    ci95: Option<[f64; 2]>,
    /// A published table's cell, as printed there.
    published: Option<String>,
    z: Option<f64>,
    p_value: Option<f64>,
    verdict: Option<String>,
    method: String,
}

/// `text` as a CSV field: quoted when it holds a comma, a quote or a line
/// break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

impl Row {
    fn line(&self) -> String {
        let number = |x: Option<f64>| x.map_or_else(String::new, |x| x.to_string());
        let count = |x: Option<u64>| x.map_or_else(String::new, |x| x.to_string());
        let [low, high] = self.ci95.map_or([None, None], |[a, b]| [Some(a), Some(b)]);
        [
            field(&self.table),
            self.document.to_string(),
            field(&self.distribution),
            field(&self.outcome),
            count(self.count),
            count(self.trials),
            field(self.probability.as_deref().unwrap_or("")),
            number(self.value),
            number(low),
            number(high),
            field(self.published.as_deref().unwrap_or("")),
            number(self.z),
            number(self.p_value),
            field(self.verdict.as_deref().unwrap_or("")),
            self.method.clone(),
        ]
        .join(",")
    }
}

/// The rows of one table's JSON output; none for a kind this file does
/// not hold (those have CSV outputs of their own) or a JSON written before
/// documents named their schema (as its headline row is left out of the
/// pages). An error for text that is not a JSON object, or a document that
/// does not read as the kind it names.
fn rows_of(table: &str, json: &str) -> Result<Vec<Row>, ReadError> {
    let Some(kind) = contract::schema_id(json)? else {
        return Ok(Vec::new());
    };
    let base = || Row {
        table: table.to_string(),
        ..Row::default()
    };
    let mut rows = Vec::new();
    match kind.as_str() {
        ReportKind::ID => {
            let report = contract::read::<Report>(json)?;
            let method = report.method.name().to_string();
            for distribution in &report.distributions {
                for outcome in &distribution.outcomes {
                    rows.push(Row {
                        document: "distribution",
                        distribution: distribution.key.clone(),
                        outcome: outcome.outcome.clone(),
                        count: outcome.count,
                        trials: outcome.count.and(report.trials),
                        probability: outcome.probability.clone(),
                        value: outcome.value.or(outcome.estimate),
                        ci95: outcome.ci95,
                        method: method.clone(),
                        ..base()
                    });
                }
                if let Some(mean) = &distribution.mean {
                    rows.push(Row {
                        document: "mean",
                        distribution: distribution.key.clone(),
                        probability: mean.probability.clone(),
                        value: mean.value.or(mean.estimate),
                        ci95: mean.ci95,
                        method: method.clone(),
                        ..base()
                    });
                }
            }
            for entry in &report.summary {
                rows.push(Row {
                    document: "summary",
                    distribution: entry.key.clone(),
                    outcome: entry.label.clone(),
                    count: entry.count,
                    trials: entry.trials,
                    value: entry.estimate.or(entry.value.map(|v| v as f64)),
                    ci95: entry.ci95,
                    method: method.clone(),
                    ..base()
                });
            }
        }
        comparison::ComparisonKind::ID => match comparison::read(json)? {
            Comparison::Agreements(agreements) => {
                for row in &agreements.rows {
                    let verdict = Some(
                        match row.verdict {
                            VerdictName::Agree => "agree",
                            VerdictName::Disagree => "disagree",
                        }
                        .to_string(),
                    );
                    for (outcome, z) in row.outcomes.iter().zip(&row.z_scores) {
                        rows.push(Row {
                            document: "comparison",
                            distribution: row.key.clone(),
                            outcome: outcome.clone(),
                            trials: Some(row.trials),
                            z: *z,
                            p_value: row.p_value,
                            verdict: verdict.clone(),
                            method: "compare".into(),
                            ..base()
                        });
                    }
                }
            }
            Comparison::Published(check) => {
                for row in &check.rows {
                    for cell in &row.cells {
                        rows.push(Row {
                            document: "published-cell",
                            distribution: row.key.clone(),
                            outcome: cell.outcome.clone(),
                            value: cell.exact_percent.map(|percent| percent / 100.0),
                            published: Some(cell.text.clone()),
                            z: cell.z,
                            p_value: row.p_value,
                            verdict: Some(
                                if cell.consistent {
                                    "consistent"
                                } else {
                                    "inconsistent"
                                }
                                .into(),
                            ),
                            method: "compare".into(),
                            ..base()
                        });
                    }
                }
            }
        },
        KlondikeSolveKind::ID => {
            let solved = contract::read::<KlondikeSolveDocument>(json)?;
            let summary = &solved.summary;
            let deals = Some(summary.deals);
            for (verdict, count) in [
                ("won", summary.won),
                ("lost", summary.lost),
                ("undecided", summary.undecided),
            ] {
                rows.push(Row {
                    document: "solver-verdict",
                    distribution: "verdict".into(),
                    outcome: verdict.into(),
                    count: Some(count),
                    trials: deals,
                    method: "solve".into(),
                    ..base()
                });
            }
            // The estimate counts the undecided deals as the decided
            // ones go; its interval allows for them whatever they are.
            rows.push(Row {
                document: "solver-estimate",
                distribution: "winnable".into(),
                outcome: "winnable".into(),
                trials: deals,
                value: summary.winnable.estimate,
                ci95: Some(summary.winnable.ci95),
                method: "solve".into(),
                ..base()
            });
            let policy = &summary.policy;
            for (outcome, count) in [("went-out", policy.went_out), ("stuck", policy.stuck)] {
                rows.push(Row {
                    document: "fixed-policy",
                    distribution: format!("policy draw {} passes {}", policy.draw, policy.passes),
                    outcome: outcome.into(),
                    count: Some(count),
                    trials: deals,
                    method: "solve".into(),
                    ..base()
                });
            }
            for bin in &summary.nodes {
                rows.push(Row {
                    document: "states-searched",
                    distribution: "states searched".into(),
                    outcome: match bin.max {
                        Some(max) => format!("{}..={max}", bin.min),
                        None => format!("{}..", bin.min),
                    },
                    count: Some(bin.deals),
                    trials: deals,
                    method: "solve".into(),
                    ..base()
                });
            }
        }
        _ => {}
    }
    Ok(rows)
}

/// Whether `game` has a long-form CSV: whether any of its tables among
/// `specs` writes JSON (decided from the specs alone, so that the index
/// can list the file).
pub fn has_csv(game: &GameEntry, specs: &[Spec]) -> bool {
    specs
        .iter()
        .any(|spec| spec.game == game.id && spec.outputs.iter().any(|kind| kind == "json"))
}

/// The long-form CSV of `game`'s tables among `tables` (each spec with
/// its JSON output, if made): a header line, then every figure of every
/// table in spec order.
///
/// Guarantee: depends only on its arguments (the same JSON, the same
/// bytes); every row of every table whose JSON is given, or an error
/// naming the first table whose JSON does not read.
pub fn game_csv(game: &GameEntry, tables: &[(&Spec, Option<&str>)]) -> Result<String, UnreadTable> {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for (spec, json) in tables.iter().filter(|(spec, _)| spec.game == game.id) {
        let Some(json) = json else { continue };
        let rows = rows_of(&spec.name, json).map_err(|error| UnreadTable {
            table: spec.name.clone(),
            error,
        })?;
        for row in rows {
            let _ = writeln!(out, "{}", row.line());
        }
    }
    Ok(out)
}
