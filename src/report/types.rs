//! The report as data: what every renderer takes ([`Report`], its
//! distributions and summary figures) and the choices it is rendered with
//! ([`Format`], [`RenderOptions`]). Plain data with no rendering, so every
//! file of the report layer may import it.

use serde_json::{Map, Value};

use super::run_blocks::RunBlocks;
use crate::distribution::{CountDistribution, ExactDistribution};
use crate::error::{Error, Result};

/// An output format, as named by `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A boxed human table for the terminal (the default).
    Table,
    /// A GitHub-flavoured Markdown table.
    Md,
    /// Comma-separated values in long form (one row per key and outcome).
    Csv,
    /// The JSON machine contract of docs/CONTRACTS.md.
    Json,
    /// A LaTeX `booktabs` table.
    Latex,
}

impl Format {
    /// Every format name `--format` accepts.
    pub const NAMES: &'static str = "table, md, csv, json, latex";

    /// Parses a `--format` value.
    pub fn parse(text: &str) -> Result<Format> {
        match text {
            "table" => Ok(Format::Table),
            "md" | "markdown" => Ok(Format::Md),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "latex" | "tex" => Ok(Format::Latex),
            _ => Err(Error::invalid(
                "format",
                text,
                format!("must be one of {}", Format::NAMES),
            )),
        }
    }
}

/// How a result was obtained: the contract's type, so that a report and
/// its document cannot disagree on the names.
pub use crate::contract::report::Method;

/// One distribution inside a report.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportDistribution {
    /// Exact probabilities.
    Exact(ExactDistribution),
    /// Monte-Carlo counts.
    Counts(CountDistribution),
}

impl ReportDistribution {
    /// The distribution's key, e.g. `upcard=2`.
    pub fn key(&self) -> &str {
        match self {
            ReportDistribution::Exact(d) => &d.key,
            ReportDistribution::Counts(d) => &d.key,
        }
    }

    /// The distribution's outcome labels.
    pub fn outcomes(&self) -> &[String] {
        match self {
            ReportDistribution::Exact(d) => &d.outcomes,
            ReportDistribution::Counts(d) => &d.outcomes,
        }
    }
}

/// A complete result: what was computed, how, with which parameters, and the
/// distributions. This is what every renderer takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The game's name, e.g. `blackjack-dealer`.
    pub game: String,
    /// Exact or Monte Carlo.
    pub method: Method,
    /// The parameters that made the result, in a stable order.
    pub params: Map<String, Value>,
    /// The master seed (Monte Carlo only).
    pub seed: Option<u64>,
    /// Trials per distribution (Monte Carlo only).
    pub trials: Option<u64>,
    /// The distributions, in display order.
    pub distributions: Vec<ReportDistribution>,
    /// Figures derived from the distributions, shown under them (a game's
    /// money, say); empty for most reports, which then render exactly as
    /// before the field existed.
    pub summary: Vec<SummaryItem>,
}

/// A figure derived from a report's distributions and shown under them.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryItem {
    /// A machine name, e.g. `net-per-game` (the JSON `key`).
    pub key: String,
    /// What it is, for people, with its unit: `net winnings per game ($)`.
    pub label: String,
    /// The figure.
    pub figure: SummaryFigure,
}

/// The kinds of summary figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SummaryFigure {
    /// A Monte-Carlo mean and its standard error, shown with the normal 95%
    /// interval `estimate ± 1.96 standard_error`.
    Mean { estimate: f64, standard_error: f64 },
    /// An exact whole number, such as a total over the games played.
    Total(i64),
    /// `count` successes in `trials`, shown with the 95% Wilson interval.
    Proportion { count: u64, trials: u64 },
}

/// Presentation choices that do not change the numbers, and the blocks a
/// long run adds to the JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Decimal places of percentages in the table, Markdown and LaTeX
    /// formats (CSV and JSON always carry full precision).
    pub percent_decimals: usize,
    /// What the JSON carries after the report's own keys (see
    /// [`RunBlocks`]); the other formats leave them out.
    pub blocks: RunBlocks,
    /// The width, in characters, the terminal table must fit (the
    /// terminal's, or `COLUMNS`, when the table goes to standard output):
    /// wider tables are cut into tables of fewer columns. `None` (files,
    /// pipes without `COLUMNS`, every other format): tables as wide as they
    /// are, the same bytes on every machine.
    pub width: Option<usize>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            percent_decimals: 2,
            blocks: RunBlocks::default(),
            width: None,
        }
    }
}
