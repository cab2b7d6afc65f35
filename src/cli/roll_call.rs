//! `deckodds roll-call ...`: the odds of winning every version of
//! Roll-Call.

use clap::{Arg, Args, Subcommand};

use super::common::{LevelArgs, OneOrAll, OutputArgs, PartArgs, PrecisionArgs, SamplingArgs};
use super::values::{byte, parse_seed};
use crate::cards::parse_rank_deal;
use crate::error::{Error, Result};
use crate::games::roll_call::{Count, PassOrder};

/// Roll-Call commands. Every command reports all versions at once: cards
/// left when the game is lost after K = 1, 2 or 3 strikes (passes without a
/// match) in a row, and in unlimited play, which is decided exactly.
#[derive(Debug, Subcommand)]
pub enum RollCallCommand {
    /// Exact distributions on a small deck: every distinct arrangement
    /// played (13 x 1, 6.2e9 arrangements, takes about six minutes on two
    /// idle cores).
    Exact {
        #[command(flatten)]
        version: RollCallVersion,
        /// Run a deck estimated at over 10 minutes anyway.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        parts: PartArgs,
    },
    /// Monte-Carlo distributions with 95% intervals.
    Mc {
        #[command(flatten)]
        version: RollCallVersion,
        #[command(flatten)]
        sampling: SamplingArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
        /// Keep the deals of the first N games won (unlimited play), one a
        /// line, in FILE.
        // Two values of two kinds, which one value parser cannot tell
        // apart: `commands` reads N as a count.
        #[arg(long, num_args = 2, value_names = ["N", "FILE"])]
        save_wins: Option<Vec<String>>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Agreement reports: Monte Carlo against exact ("exact": every
    /// distribution on a deck of at most 13 cards, the first pass on any
    /// deck), or one version against another on the same deals ("order":
    /// same vs reversed; "count": continuous vs restart).
    ///
    /// Exit status: 0 when every comparison agrees, 1 when any disagrees
    /// (after the whole report is written, as `diff` and `cmp` do), 2 for
    /// bad input.
    Compare {
        #[command(flatten)]
        version: RollCallVersion,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// What to compare with: exact, order or count.
        #[arg(long = "with", value_name = "WHAT", default_value = "exact", value_parser = RollCallBaseline::parse)]
        with: RollCallBaseline,
        #[command(flatten)]
        level: LevelArgs,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The exact distribution of matches in the first pass (rook
    /// polynomials; instant for any deck). No match at all is Frustration
    /// solitaire's loss.
    #[command(mut_args = first_pass_ranks)]
    FirstPass {
        #[command(flatten)]
        deck: RollCallDeck,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Plays one deal pass by pass: every card turned, the count, matched
    /// or not.
    Replay {
        #[command(flatten)]
        version: RollCallVersion,
        /// The deal, first card first: ranks A, 2..10, J, Q, K (or 1..13),
        /// separated by spaces, each rank exactly --copies times.
        #[arg(long, value_name = "CARDS", value_parser = parse_rank_deal)]
        deal: ::std::vec::Vec<u8>,
    },
    /// Searches for the deal won without a single strike that takes the
    /// most passes, verifies it by replay, and states the best upper bound
    /// it can prove.
    LongestZeroStrike {
        #[command(flatten)]
        version: RollCallVersion,
        /// Seed of the search's choices (the same seed, the same deal).
        #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
        seed: u64,
    },
}

/// `first-pass --ranks`, where no count runs (`mut_args`, which keeps the
/// options' order, unlike `mut_arg`).
fn first_pass_ranks(arg: Arg) -> Arg {
    match arg.get_id().as_str() {
        "ranks" => arg.help("Ranks, 2..=13"),
        _ => arg,
    }
}

/// The deck of Roll-Call: ranks, and copies of each.
#[derive(Debug, Args)]
pub struct RollCallDeck {
    /// Ranks, 2..=13 (the count runs 1..=R).
    #[arg(long, value_name = "R", default_value = "13", value_parser = byte("must be 2 to 13"))]
    pub ranks: u8,
    /// Copies of each rank, at least 1 (at most 64 cards in all).
    #[arg(long, value_name = "S", default_value = "4", value_parser = byte("must be at least 1"))]
    pub copies: u8,
}

/// A version of Roll-Call: the deck and the two rule variants.
#[derive(Debug, Args)]
pub struct RollCallVersion {
    #[command(flatten)]
    pub deck: RollCallDeck,
    /// "continuous" (the count runs on across passes) or "restart" (back
    /// to 1 every pass); `mc` also takes "all": every version side by
    /// side, on the same deals.
    #[arg(long, value_name = "RULE", default_value = "continuous", value_parser = parse_count_rule)]
    pub count: OneOrAll<Count>,
    /// "same" (each pass sees the cards left in the same order) or
    /// "reversed" (reversed every pass); `mc` also takes "all".
    #[arg(long, value_name = "ORDER", default_value = "same", value_parser = parse_order)]
    pub order: OneOrAll<PassOrder>,
}

fn parse_count_rule(text: &str) -> Result<OneOrAll<Count>> {
    OneOrAll::parse(
        text,
        Count::parse,
        "must be continuous, restart or all (mc)",
    )
}

fn parse_order(text: &str) -> Result<OneOrAll<PassOrder>> {
    OneOrAll::parse(text, PassOrder::parse, "must be same, reversed or all (mc)")
}

/// What `roll-call compare` compares Monte Carlo with (`--with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollCallBaseline {
    /// The exact distributions.
    Exact,
    /// The version with the other pass order, on its own games.
    Order,
    /// The version with the other count rule, on its own games.
    Count,
}

impl RollCallBaseline {
    /// Parses `exact`, `order` or `count`.
    pub fn parse(text: &str) -> Result<RollCallBaseline> {
        match text {
            "exact" => Ok(RollCallBaseline::Exact),
            "order" => Ok(RollCallBaseline::Order),
            "count" => Ok(RollCallBaseline::Count),
            _ => Err(Error::invalid(
                "with",
                text,
                "must be exact, order or count",
            )),
        }
    }
}
