//! `deckodds klondike ...`: the fixed policy's odds and money, and
//! readable records of games.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::common::{OutputArgs, PrecisionArgs, SamplingArgs};
use super::values::{byte, parse_count, parse_seed};
use crate::cards::Card;
use crate::error::{Error, Result};
use crate::games::klondike::parse_deal;

/// `record` refuses more games than this: records are for reading.
const MAX_RECORDS: u64 = 1000;

/// Klondike commands. The outcome is the number of cards on the
/// foundations when the game ends (52 = went out); the net winnings of a
/// game are 5 x cards - 52 dollars.
#[derive(Debug, Subcommand)]
pub enum KlondikeCommand {
    /// Monte Carlo: the distribution of cards on the foundations with 95%
    /// intervals, the mean net winnings per game with its standard error,
    /// the total over the games played, and the chance of going out.
    Mc {
        #[command(flatten)]
        rules: KlondikeRules,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Complete, readable records of games: the deal (face-down cards
    /// marked), every move with the rule that made it, every stock turn,
    /// the foundations at the end and the money. By default the first
    /// --games games of `klondike mc` with the same --seed and rules.
    Record {
        #[command(flatten)]
        rules: KlondikeRules,
        /// Games to record (at most 1000).
        #[arg(long, value_name = "N", default_value = "2", value_parser = parse_record_games)]
        games: u64,
        /// Master seed, as for `klondike mc`: game k is the k-th game that
        /// run plays.
        #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
        seed: u64,
        /// Record only games that went out: the first --games of them in
        /// the run (searching at most its first 100,000,000 games).
        #[arg(long, conflicts_with = "deal")]
        went_out: bool,
        /// Record this deal instead: the 52 cards, first dealt first, e.g.
        /// "7C 10D AS ..." (ranks A 2..10 J Q K or T, suits C D H S or
        /// ♣ ♦ ♥ ♠), separated by spaces or commas.
        #[arg(
            long,
            value_name = "CARDS",
            conflicts_with_all = ["games", "seed"],
            value_parser = parse_deal
        )]
        deal: Option<[Card; 52]>,
        /// Write suits as the letters C D H S instead of ♣ ♦ ♥ ♠.
        #[arg(long)]
        ascii: bool,
        /// Write the records to this file (FILE.txt, atomically) instead
        /// of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// The rule variants of Klondike (defaults: the exercise's).
#[derive(Debug, Args)]
pub struct KlondikeRules {
    /// Cards turned from the stock at a time: 1 or 3.
    #[arg(long, value_name = "N", default_value = "1", value_parser = byte("must be 1 or 3"))]
    pub draw: u8,
    /// Passes through the stock, at least 1 (1 = no redeal; each further
    /// pass turns the waste over into a new stock).
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        value_parser = byte("must be 1..=255 (passes through the stock; 1 = no redeal)")
    )]
    pub passes: u8,
}

/// `record --games`: a count of at most [`MAX_RECORDS`].
fn parse_record_games(text: &str) -> Result<u64> {
    parse_count(text)
        .ok()
        .filter(|&n| n <= MAX_RECORDS)
        .ok_or_else(|| {
            Error::invalid(
                "games",
                text,
                format!(
                    "must be a whole number 1..={MAX_RECORDS}: records are for reading; use `klondike mc` for odds"
                ),
            )
        })
}
