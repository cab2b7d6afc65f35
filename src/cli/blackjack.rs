//! `deckodds blackjack ...`: the dealer-outcome commands.

use std::path::PathBuf;

use clap::{Arg, Args, Subcommand};

use super::common::{OneOrAll, OutputArgs, PrecisionArgs, SamplingArgs};
use super::values::{parse_count, parse_level};
use crate::error::{Error, Result};
use crate::games::blackjack::{DealerParams, Decks, OUTCOME_LABELS, Scoring};

/// Blackjack dealer-outcome commands.
#[derive(Debug, Subcommand)]
pub enum BlackjackCommand {
    /// Exact outcome probabilities for every upcard, as reduced fractions.
    Exact {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Monte-Carlo outcome counts for every upcard, with 95% Wilson intervals.
    #[command(mut_args = hands_per_upcard)]
    Mc {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement report: Monte Carlo against the exact probabilities
    /// (default), or a published table (--published) against them.
    ///
    /// Exit status: 0 when they agree (every cell of a published table
    /// consistent; rows it lacks are named, not counted against it), 1
    /// when any disagrees (after the whole report is written, as `diff`
    /// and `cmp` do), 2 for bad input.
    #[command(mut_args = hands_per_upcard)]
    Compare {
        #[command(flatten)]
        rules: BlackjackRules,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// A published table to check instead of running Monte Carlo: a CSV
        /// with a header row (row label, then outcomes bust,17,18,19,20,21,
        /// natural) and one row of percentages per upcard (2..10, T, J, Q, K,
        /// A), or the CSV `blackjack exact` or `mc` writes. Without --hands
        /// it is checked as an exact table: every cell must equal the exact
        /// percentage rounded to its printed digits (an exact fraction must
        /// equal it).
        #[arg(long, value_name = "FILE.csv")]
        published: Option<PathBuf>,
        /// The published table's sample size in hands, in all, split equally
        /// over its rows.
        #[arg(
            long,
            value_name = "N",
            requires = "published",
            conflicts_with = "hands_per_row",
            value_parser = parse_count
        )]
        hands: Option<u64>,
        /// The published table's sample size in hands per row.
        #[arg(long, value_name = "N", requires = "published", value_parser = parse_count)]
        hands_per_row: Option<u64>,
        /// Significance level of the verdicts. For a published table it is
        /// family-wise over all cells (Bonferroni).
        #[arg(long, value_name = "ALPHA", default_value = "0.001", value_parser = parse_level)]
        level: f64,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Effect of removal: the exact change in every outcome probability when
    /// one card of each value is taken out of the shoe.
    Eor {
        #[command(flatten)]
        rules: BlackjackRules,
        /// Which outcome's changes to show: bust, 17, 18, 19, 20, 21,
        /// natural, or all.
        #[arg(long, value_name = "OUTCOME", default_value = "all", value_parser = parse_outcome)]
        outcome: OneOrAll<usize>,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// `--trials` of the blackjack commands, which deal hands for every
/// upcard (`mut_args`, which keeps the options' order, unlike `mut_arg`).
fn hands_per_upcard(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "trials" => arg.help("Hands per upcard (accepts 1000000, 1_000_000 or 1e6)"),
        _ => arg,
    }
}

/// `--outcome`: an outcome's index in [`OUTCOME_LABELS`], or all.
fn parse_outcome(text: &str) -> Result<OneOrAll<usize>> {
    let position = |label: &str| {
        OUTCOME_LABELS
            .iter()
            .position(|&l| l == label)
            .ok_or_else(|| Error::invalid("outcome", label, ""))
    };
    OneOrAll::parse(
        text,
        position,
        &format!("must be one of {}, or all", OUTCOME_LABELS.join(", ")),
    )
}

/// The rules of the dealer's game.
#[derive(Debug, Args)]
pub struct BlackjackRules {
    /// Decks in the shoe: 1..=64, or "inf" for an infinite deck (every draw
    /// independent).
    #[arg(long, value_name = "N|inf", default_value = "2", value_parser = Decks::parse)]
    pub decks: Decks,

    /// The dealer hits soft 17 (H17). Default: stands on all 17s (S17).
    #[arg(long)]
    pub h17: bool,

    /// How hand totals are scored: "correct", or "sorted-fold", the error
    /// the quiz write-up found in a published simulation (ten, ace, ace
    /// scored 22), to see what that error does to a table.
    #[arg(long, value_name = "RULE", default_value = "correct", value_parser = Scoring::parse)]
    pub scoring: Scoring,

    /// Condition on the dealer not holding a natural (the dealer peeked and
    /// play went on).
    #[arg(long)]
    pub peek: bool,

    /// Cards taken out of the shoe besides the upcard, e.g. the player's:
    /// "10 10 6". Values A, 2..10, or T, J, Q, K for ten-valued cards.
    // The field is named as `DealerParams` names it, so that the library's
    // errors about it (`removed`) find this flag; `::std::vec::Vec` makes
    // clap take the list as one value.
    #[arg(
        long = "remove",
        value_name = "CARDS",
        default_value = "",
        value_parser = DealerParams::parse_removed
    )]
    pub removed: ::std::vec::Vec<u8>,
}
