//! Rendering results for people and programs: a human table (tabled),
//! Markdown, CSV, JSON (the machine contract of docs/CONTRACTS.md) and LaTeX.
//!
//! Architecture invariant: renderers return strings and never do I/O; the
//! `commands` layer decides where the text goes.
//!
//! The files, bottom up (each imports only files before it in this list):
//! `types` (the report as data: [`Report`], [`Format`], [`RenderOptions`],
//! ...); `table` (numbers written for people and a grid written as a
//! terminal, Markdown or LaTeX table); `chart/` (SVG charts from chart
//! data); `headline/` (the answer a report leads with, and its lines);
//! `run_blocks` (the `"precision"` and `"shard"` blocks a long run adds to
//! the JSON);
//! `player` (the blackjack player's values and house edge, from the
//! engine's tables); `distributions` (a report in every format, led by
//! its headline in the terminal table); `strategy_chart` (blackjack's
//! basic-strategy chart in every format, and its SVG card from its JSON);
//! `headline::versions` (one headline per version of a
//! game, with each version's report); `comparison` (agreement and
//! published-table checks); `count_systems` (the card counter's reports,
//! after `player` and `comparison`); `figures` (charts drawn from a report's JSON);
//! `solvitaire` (Klondike deals as the JSON of Solvitaire's deal files,
//! written and read back).
//! This file only declares them and re-exports, so that `report::Report`
//! and `report::render` name what they always did.

pub mod blackjack_table;
pub mod chart;
pub mod comparison;
pub mod convert;
pub mod count_systems;
pub mod distributions;
pub mod eor;
pub mod figures;
pub mod headline;
pub mod indices;
pub mod key_columns;
pub mod klondike_solve;
pub mod player;
pub mod power;
pub mod run_blocks;
pub mod site;
pub mod solvitaire;
pub mod strategy_chart;
mod table;
mod types;

pub use distributions::render;
pub use run_blocks::{PrecisionBlock, PrecisionRun, RunBlocks};
pub use types::{
    Format, Method, RenderOptions, Report, ReportDistribution, SummaryFigure, SummaryItem,
};
