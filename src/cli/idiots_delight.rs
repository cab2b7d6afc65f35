//! `deckodds idiots-delight ...`: the distribution of cards left.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::common::{Engine, LevelArgs, OutputArgs, PartArgs, PrecisionArgs, SamplingArgs};
use super::values::{parse_count_or_zero, parse_level, whole_number_in};
use crate::cards::{MAX_RANKS, MAX_SUITS};
use crate::error::{Error, Result};
use crate::rng::Shuffle;

/// Idiot's Delight commands.
#[derive(Debug, Subcommand)]
pub enum IdiotsDelightCommand {
    /// Exact distribution of cards left on a small deck, as reduced
    /// fractions: every arrangement counted.
    Exact {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        /// Which enumerator: "memo" (memoised deal by deal, canonical up to
        /// renaming suits and ranks) or "exhaustive" (every arrangement
        /// played by the Monte-Carlo runner's play function; the
        /// independent cross-check, for decks up to about 13 cards).
        #[arg(long, value_name = "ENGINE", default_value = "memo", value_parser = Engine::parse)]
        engine: Engine,
        /// The shuffle: "uniform" (every order equally likely), "naive",
        /// the SAS paper's biased shuffle applied to the sorted deck (exact
        /// for decks of at most 10 cards), or "both" (one table, a row
        /// each).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform", value_parser = parse_exact_shuffles)]
        shuffle: ::std::vec::Vec<Shuffle>,
        /// Run even when the estimated time or memory is over the limits.
        #[arg(long)]
        force: bool,
        /// Memory the memo may use, in GiB; beyond it results stay exact
        /// but slower.
        #[arg(long, value_name = "GIB", default_value = "16", value_parser = parse_memory)]
        memory: u64,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distribution of cards left, with 95% intervals and the
    /// mean with its standard error.
    Mc {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// The shuffle before each game: uniform, naive (the SAS paper's
        /// biased shuffle of the sorted deck) or naive-carry (of the
        /// previous game's deck, as the SAS program does).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform", value_parser = Shuffle::parse)]
        shuffle: Shuffle,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement report: Monte Carlo against the exact distribution (decks
    /// of at most 20 cards), or against the SAS paper's table of 1,000,000
    /// games (52 cards, or --published).
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// The shuffle(s) to run: uniform, naive, naive-carry, or all (one
        /// row each).
        #[arg(long, value_name = "SHUFFLE", default_value = "uniform", value_parser = parse_compared_shuffles)]
        shuffle: ::std::vec::Vec<Shuffle>,
        /// Compare with a published table instead of the exact
        /// distribution: "sas" (the paper's counts, built in), or a CSV file
        /// with a header and rows `cards_left,count`.
        #[arg(long, value_name = "sas|FILE.csv", value_parser = parse_published)]
        published: Option<PublishedCounts>,
        #[command(flatten)]
        level: LevelArgs,
        /// Also draw the distributions as an SVG bar chart (the first
        /// shuffle's estimates as bars with 95% intervals, the published
        /// table and any other shuffles as markers). Needs --published.
        #[arg(long, value_name = "FILE.svg", requires = "published")]
        chart: Option<PathBuf>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// How many games it takes to detect the naive shuffle's bias: the
    /// power of a chi-square test of naive-shuffle counts against the
    /// uniform distribution, from deckodds' own runs.
    Power {
        #[command(flatten)]
        deck: IdiotsDelightDeck,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// The biased shuffle to measure: naive or naive-carry.
        #[arg(long, value_name = "SHUFFLE", default_value = "naive", value_parser = parse_biased_shuffle)]
        shuffle: Shuffle,
        /// Significance level of the test whose power is computed.
        #[arg(long, value_name = "ALPHA", default_value = "0.001", value_parser = parse_level)]
        level: f64,
        /// Replicate experiments run at the predicted 90%-power size to
        /// check the prediction (0 to skip).
        #[arg(long, value_name = "N", default_value = "100", value_parser = parse_count_or_zero)]
        replicates: u64,
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// The deck of an Idiot's Delight game.
#[derive(Debug, Args)]
pub struct IdiotsDelightDeck {
    /// Suits in the deck, 1..=16 (at most 64 cards in all).
    #[arg(long, value_name = "S", default_value = "4", value_parser = whole_number_in(1..=MAX_SUITS))]
    pub suits: u8,
    /// Ranks in each suit, 1..=13.
    #[arg(long, value_name = "R", default_value = "13", value_parser = whole_number_in(1..=MAX_RANKS))]
    pub ranks: u8,
}

/// What `compare --published` compares with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublishedCounts {
    /// The SAS paper's counts, built in.
    Sas,
    /// A CSV file of counts.
    File(PathBuf),
}

fn parse_published(text: &str) -> Result<PublishedCounts> {
    Ok(match text {
        "sas" => PublishedCounts::Sas,
        path => PublishedCounts::File(PathBuf::from(path)),
    })
}

/// `exact --shuffle`: uniform, naive (or naive-carry, which `exact` then
/// refuses, saying why), or both: uniform and naive.
fn parse_exact_shuffles(text: &str) -> Result<Vec<Shuffle>> {
    match text {
        "both" => Ok(vec![Shuffle::Uniform, Shuffle::Naive]),
        _ => Shuffle::parse(text)
            .map(|shuffle| vec![shuffle])
            .map_err(|_| Error::invalid("shuffle", text, "must be uniform, naive or both")),
    }
}

/// `compare --shuffle`: one shuffle, or all of them.
fn parse_compared_shuffles(text: &str) -> Result<Vec<Shuffle>> {
    match text {
        "all" => Ok(Shuffle::ALL.to_vec()),
        _ => Shuffle::parse(text)
            .map(|shuffle| vec![shuffle])
            .map_err(|_| {
                Error::invalid(
                    "shuffle",
                    text,
                    "must be uniform, naive, naive-carry or all",
                )
            }),
    }
}

/// `power --shuffle`: a biased shuffle, whose power against the uniform
/// one is measured.
fn parse_biased_shuffle(text: &str) -> Result<Shuffle> {
    match Shuffle::parse(text)? {
        Shuffle::Uniform => Err(Error::invalid(
            "shuffle",
            text,
            "must be naive or naive-carry: the power is that of detecting a biased shuffle against the uniform one",
        )),
        biased => Ok(biased),
    }
}

/// `--memory` in GiB (fractions allowed), into bytes.
fn parse_memory(text: &str) -> Result<u64> {
    const GIB: f64 = (1u64 << 30) as f64;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|gib| *gib > 0.0 && *gib <= 1024.0)
        .map(|gib| (gib * GIB) as u64)
        .ok_or_else(|| {
            Error::invalid(
                "memory",
                text,
                "must be a number of GiB, more than 0 and at most 1024",
            )
        })
}
