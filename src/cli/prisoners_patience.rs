//! `deckodds prisoners-patience ...`: the odds of Prisoner's patience under
//! either stack-move rule, and which deals can be won at all.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::common::{
    Engine, LevelArgs, OutputArgs, PartArgs, PrecisionArgs, RunArgs, SamplingArgs,
};
use super::values::{byte, parse_count, parse_seed};
use crate::cards::parse_rank_deal;
use crate::error::{Error, Result};
use crate::games::prisoners_patience::StackMove;

/// Prisoner's patience commands. The outcome is the number of stacks left
/// when the deck is exhausted (1 = won).
#[derive(Debug, Subcommand)]
pub enum PrisonersCommand {
    /// The exact distribution of stacks left on a small deck, as reduced
    /// fractions: every arrangement counted.
    Exact {
        #[command(flatten)]
        version: PrisonersVersion,
        /// Which enumerator: "memo" (memoised card by card, states merged
        /// under the rank cycle's symmetries) or "exhaustive" (every
        /// arrangement played; the independent cross-check, for decks up to
        /// about 13 cards).
        #[arg(long, value_name = "ENGINE", default_value = "memo", value_parser = Engine::parse)]
        engine: Engine,
        /// Run a deck estimated at over 10 minutes anyway.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distribution of stacks left, with 95% intervals.
    Mc {
        #[command(flatten)]
        version: PrisonersVersion,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// Keep the deals of the first N games won, one a line, in FILE.
        // Two values of two kinds, which one value parser cannot tell
        // apart: `commands` reads N as a count.
        #[arg(long, num_args = 2, value_names = ["N", "FILE"])]
        save_wins: Option<Vec<String>>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement reports: Monte Carlo against exact ("exact", decks of at
    /// most 24 cards), the seed's 661 wins in 16,000,000 games against
    /// deckodds' estimate under each stack-move rule ("seed"), or the two
    /// stack-move rules against each other ("rules").
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        version: PrisonersVersion,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// What to compare with: exact, seed or rules.
        #[arg(long = "with", value_name = "WHAT", default_value = "exact", value_parser = PrisonersBaseline::parse)]
        with: PrisonersBaseline,
        #[command(flatten)]
        level: LevelArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Plays one deal step by step: each card dealt, each move made, the
    /// row of stacks after each card.
    Replay {
        #[command(flatten)]
        version: PrisonersVersion,
        /// The deal, first card first: ranks A, 2..10, J, Q, K (or 1..13),
        /// separated by spaces or commas, each rank exactly --suits times
        /// (suits do not matter).
        #[arg(long, value_name = "CARDS", value_parser = parse_rank_deal)]
        deal: ::std::vec::Vec<u8>,
    },
    /// Which deals can be won at all when the player chooses the moves
    /// freely (after each card any number of moves, each a stack onto the
    /// stack 1 or 3 to its left whose top fits): one deal (--deal, with a
    /// winning line of play), random deals (--trials) or every arrangement
    /// of a small deck (--every), beside what the seed's fixed sweep wins.
    Solve {
        #[command(flatten)]
        version: PrisonersVersion,
        /// Solve this deal (ranks, first card first).
        #[arg(
            long,
            value_name = "CARDS",
            conflicts_with_all = ["trials", "every"],
            value_parser = parse_rank_deal
        )]
        deal: Option<::std::vec::Vec<u8>>,
        /// Solve this many random deals (accepts 1000, 1e3).
        #[arg(long, value_name = "N", conflicts_with = "every", value_parser = parse_count)]
        trials: Option<u64>,
        /// Master seed of the random deals.
        #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
        seed: u64,
        /// With --trials: write the deals a player choosing freely can win
        /// to FILE, one a line with its game number (from 0), as
        /// --save-wins does.
        #[arg(long, value_name = "FILE")]
        save_winnable: Option<PathBuf>,
        /// Solve every distinct arrangement of the deck, exactly (decks of
        /// at most 12 cards).
        #[arg(long)]
        every: bool,
        /// States the search may visit per deal before it calls the deal
        /// undecided (--every always searches to the end).
        #[arg(long, value_name = "N", default_value = "4000000", value_parser = parse_count)]
        max_nodes: u64,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        runs: RunArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
    },
}

/// A version of Prisoner's patience: the deck and how stacks move.
#[derive(Debug, Args)]
pub struct PrisonersVersion {
    /// Suits: copies of each rank, at least 1 (at most 64 cards in all).
    #[arg(long, value_name = "S", default_value = "4", value_parser = byte("must be at least 1"))]
    pub suits: u8,
    /// Ranks, 3..=13; they wrap round (R fits 1).
    #[arg(long, value_name = "R", default_value = "13", value_parser = byte("must be 3 to 13"))]
    pub ranks: u8,
    /// "reversed" (a stack moves card by card, as the seed's program does,
    /// so its bottom card ends on top) or "kept" (it moves as a unit, as a
    /// person plays).
    #[arg(long, value_name = "RULE", default_value = "reversed", value_parser = StackMove::parse)]
    pub stack_move: StackMove,
}

/// What `prisoners-patience compare` compares Monte Carlo with (`--with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrisonersBaseline {
    /// The exact distribution.
    Exact,
    /// The seed's 661 wins in 16,000,000 games.
    Seed,
    /// The other stack-move rule, on its own games.
    Rules,
}

impl PrisonersBaseline {
    /// Parses `exact`, `seed` or `rules`.
    pub fn parse(text: &str) -> Result<PrisonersBaseline> {
        match text {
            "exact" => Ok(PrisonersBaseline::Exact),
            "seed" => Ok(PrisonersBaseline::Seed),
            "rules" => Ok(PrisonersBaseline::Rules),
            _ => Err(Error::invalid("with", text, "must be exact, seed or rules")),
        }
    }
}
