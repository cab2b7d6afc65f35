//! `deckodds klondike ...`: the fixed policy's odds and money, readable
//! records of games, and which deals can be won with every card seen.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};

use super::common::{OutputArgs, PrecisionArgs, RunArgs, SamplingArgs};
use super::values::{byte, parse_count, parse_seed};
use crate::cards::Card;
use crate::error::{Error, Result};
use crate::games::klondike::free_play::Passes;
use crate::games::klondike::parse_deal;
use crate::games::klondike::solve::DEFAULT_MAX_NODES;

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
        /// Record this deal instead: the 52 cards in dealing order, e.g.
        /// "7C 10D AS ..." (ranks A 2..10 J Q K or T, suits C D H S or
        /// ♣ ♦ ♥ ♠), separated by spaces or commas. The first 28 go to the
        /// piles round by round (one to each of piles 1-7, then piles
        /// 2-7, ..., each round's first card face up), the last 24 are the
        /// stock, card 29 turned first (RULES.md section 4).
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
    /// Which deals can be won with every card seen (RULES.md section 7):
    /// a solver decides each deal won (with its line of play), lost
    /// (proved) or undecided (its budget ran out). One deal (--deal): the
    /// verdict, with the line of play or the proof. A file of deals
    /// (--deals) or random deals (--trials): the winnable fraction with a
    /// 95% interval that counts the undecided deals both ways, and the
    /// fixed policy (section 4) on the same deals when the rules solved
    /// are its own (draw 1, one pass).
    Solve {
        #[command(flatten)]
        rules: FreePlayArgs,
        #[command(flatten)]
        source: DealSource,
        /// The most states the solver expands per deal before it calls the
        /// deal undecided: the budget that gives the same verdicts on any
        /// machine.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES, value_parser = parse_count)]
        max_nodes: u64,
        /// The most seconds the solver spends per deal, as well (> 0). A
        /// time budget makes the verdicts depend on the machine and its
        /// load: leave it out for reproducible counts.
        #[arg(long, value_name = "SECONDS", value_parser = parse_max_seconds)]
        max_seconds: Option<Duration>,
        /// Also write each deal's verdict to FILE (CSV, `-`: standard
        /// output), a row a deal in order, under the header
        /// deal,verdict,states,seconds,moves,stock_turns: the deal's
        /// number (its place in --deals' file, or the random deal's, from
        /// 0), won, lost or undecided, the states the solver expanded,
        /// the seconds it took, and the moves and stock turns of the win
        /// found (0 otherwise). A run resumed from a checkpoint or merged
        /// from parts lists only the deals this process solved.
        #[arg(long, value_name = "FILE", help_heading = "Output")]
        verdicts: Option<PathBuf>,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        runs: RunArgs,
        #[command(flatten)]
        precision: PrecisionArgs,
    },
    /// Deals written out, to run through other solvers: the random deals
    /// `klondike solve --trials N --seed S` solves (the same deals, in the
    /// same order), or the deals of a file or of --deal. In Solvitaire's
    /// JSON deal format by default: each pile bottom first, its cards
    /// face down in lower case ("7c") under its top card face up ("QD"),
    /// and the stock with its last card turned first (Solvitaire's
    /// preset klondike is draw 3, klondike-deal-1 draw 1, both with
    /// unlimited passes). `klondike solve --deals` reads what this
    /// writes.
    Deals {
        #[command(flatten)]
        source: DealSource,
        /// solvitaire (JSON: with --out, one deal object a line; with
        /// --out-dir, a file each) or cards (one deal a line, as --deal
        /// takes it, after a # line saying what they are). Default: from
        /// --out's extension (.json or .jsonl: solvitaire; .txt: cards),
        /// else solvitaire.
        #[arg(long = "format", value_name = "FORMAT", value_parser = DealFormat::parse)]
        deal_format: Option<DealFormat>,
        /// Write the deals to FILE instead of standard output (`-`),
        /// replaced atomically (complete or not at all).
        #[arg(long, value_name = "FILE", conflicts_with = "out_dir")]
        out: Option<PathBuf>,
        /// Write each deal to a file of its own in DIR, an existing
        /// directory, as Solvitaire's command line reads one deal a file:
        /// deal-00000.json, deal-00001.json, ... (.txt for cards), named
        /// by the deal's number; files of those names are replaced.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

/// The deals `klondike solve` solves and `klondike deals` writes, defined
/// once for both, so that `deals` writes what `solve` solves: one given
/// deal, the deals of a file, or random deals.
#[derive(Debug, Args)]
pub struct DealSource {
    /// This deal: the 52 cards in dealing order, e.g. "7C 10D AS ..." (as
    /// `klondike record --deal` takes them: the first 28 to the piles
    /// round by round, one to each of piles 1-7, then 2-7, ..., each
    /// round's first card face up; the last 24 the stock, card 29 turned
    /// first; RULES.md section 4).
    #[arg(
        long,
        value_name = "CARDS",
        conflicts_with_all = ["deals", "trials"],
        value_parser = parse_deal
    )]
    pub deal: Option<[Card; 52]>,
    /// The deals in FILE: one a line, as --deal takes them (blank lines
    /// and lines starting with # are skipped), or Solvitaire's JSON deal
    /// format (a file whose first character other than white space is {
    /// or [: one deal object, an array of them, or one a line; see
    /// `klondike deals`). Deals are numbered from 0 in the file's order.
    #[arg(long, value_name = "FILE", conflicts_with = "trials")]
    pub deals: Option<PathBuf>,
    /// This many random deals (accepts 1000, 1e3), numbered from 0. The
    /// same --seed and --trials deal the same deals on any machine with
    /// any number of threads, to `klondike solve` and `klondike deals`
    /// alike (not the games of `klondike mc`, which cuts its runs into
    /// other chunks).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub trials: Option<u64>,
    /// Master seed of the random deals.
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,
}

/// How `klondike deals` writes a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealFormat {
    /// Solvitaire's JSON deal format.
    Solvitaire,
    /// The 52 cards in dealing order on one line, as `--deal` takes them.
    Cards,
}

impl DealFormat {
    /// Parses `solvitaire` or `cards`.
    pub fn parse(text: &str) -> Result<DealFormat> {
        match text {
            "solvitaire" => Ok(DealFormat::Solvitaire),
            "cards" => Ok(DealFormat::Cards),
            _ => Err(Error::invalid(
                "format",
                text,
                "must be solvitaire (Solvitaire's JSON deal format) or cards (one deal a line, as --deal takes it)",
            )),
        }
    }

    /// The extension of a file of one deal in this format.
    pub fn extension(self) -> &'static str {
        match self {
            DealFormat::Solvitaire => "json",
            DealFormat::Cards => "txt",
        }
    }
}

/// The rules of Klondike played freely (defaults: the thoughtful game of
/// the literature, draw 3 with unlimited passes).
#[derive(Debug, Args)]
pub struct FreePlayArgs {
    /// Cards turned from the stock at a time: 1 or 3.
    #[arg(long, value_name = "N", default_value = "3", value_parser = byte("must be 1 or 3"))]
    pub draw: u8,
    /// Passes through the stock: a number of at least 1 (1 = the waste is
    /// never turned over) or "unlimited".
    #[arg(long, value_name = "N|unlimited", default_value = "unlimited", value_parser = parse_passes)]
    pub passes: Passes,
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

/// `solve --passes`: `unlimited`, or a whole number 1..=255.
pub fn parse_passes(text: &str) -> Result<Passes> {
    if text == "unlimited" {
        return Ok(Passes::Unlimited);
    }
    text.parse::<u8>()
        .ok()
        .filter(|&n| n >= 1)
        .map(Passes::Limited)
        .ok_or_else(|| {
            Error::invalid(
                "passes",
                text,
                "must be a whole number 1..=255 (1 = the waste is never turned over) or unlimited",
            )
        })
}

/// `solve --max-seconds`: seconds, more than 0 and at most a day.
fn parse_max_seconds(text: &str) -> Result<Duration> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            Error::invalid(
                "max-seconds",
                text,
                "must be seconds, more than 0 and at most 86400",
            )
        })
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
