//! The options several commands share, each defined once and flattened
//! (`#[command(flatten)]`) into the commands it applies to, so that each
//! command's `--help` lists only the options it takes and clap refuses the
//! others.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::values::{
    parse_count, parse_digits, parse_half_width, parse_level, parse_seconds, parse_seed,
};
use crate::engine::Shard;
use crate::error::{Error, Result};

/// The help heading of the options that cut, save, resume and stop long
/// runs: they belong to how a run is carried out, not to what it computes
/// (so analysis specs do not take them).
pub const LONG_RUNS: &str = "Long runs";

/// `--shard`: a run cut into parts. Exhaustive enumerations take it alone
/// (see [`RunArgs`] for sampling runs).
#[derive(Clone, Debug, Default, Args)]
pub struct PartArgs {
    /// Run only part k of n (counted from 0: 0/4 .. 3/4). With --out
    /// FILE.json each part writes a count file; `deckodds merge` sums the
    /// parts into exactly the one run's output.
    #[arg(long, value_name = "K/N", help_heading = LONG_RUNS, value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// The long-run options of a command that samples: parts, checkpoints and
/// MPI.
#[derive(Clone, Debug, Default, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub parts: PartArgs,

    /// Save the run's counts to FILE every few seconds (atomically, and
    /// synced to disk). Ctrl-C or SIGTERM then finishes the chunks in flight, saves, prints
    /// how to resume, and exits with status 130. The file is removed when
    /// the run finishes. FILE must not exist yet.
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub checkpoint: Option<PathBuf>,

    /// Continue the run saved in FILE by --checkpoint: give the same
    /// command line (the checkpoint refuses any other). The counts at the
    /// end are exactly those of a run never interrupted. Saves to FILE
    /// again as it goes (or to --checkpoint's file).
    #[arg(long, value_name = "FILE", help_heading = LONG_RUNS)]
    pub resume: Option<PathBuf>,

    /// Seconds between saves of --checkpoint (default 5). Saves come
    /// between blocks of chunks, about a second of work each.
    #[arg(long, value_name = "SECONDS", help_heading = LONG_RUNS, value_parser = parse_seconds)]
    pub checkpoint_every: Option<Duration>,

    /// Run as one rank of an MPI job (`mpirun -n N deckodds COMMAND ...
    /// --mpi`): rank r runs part r/N of the run, the ranks' counts are
    /// summed on rank 0, which writes the one run's output. Needs a build
    /// with `--features mpi`.
    #[arg(long, help_heading = LONG_RUNS)]
    pub mpi: bool,
}

/// A precision target, for a Monte-Carlo run of one version (`mc`, `solve
/// --trials`).
#[derive(Clone, Debug, Default, Args)]
pub struct PrecisionArgs {
    /// Sample until the 95% interval of every outcome (or of the outcome
    /// --for names) is narrower than X either side of the estimate: a
    /// proportion (0.0005) or percentage points (0.05%). Adds chunks of
    /// trials in order and stops at the first chunk that meets the target,
    /// so the result is that of --trials N for the N it reports, and the
    /// same for a seed on any machine.
    #[arg(long, value_name = "X", help_heading = LONG_RUNS, value_parser = parse_half_width)]
    pub until_halfwidth: Option<f64>,

    /// The outcome --until-halfwidth watches: a label as the report prints
    /// it (52: Klondike's going out; 1: Prisoner's patience's one stack, a
    /// win; bust), in every distribution that has it, or
    /// DISTRIBUTION/LABEL for one (upcard=A/bust).
    #[arg(long = "for", value_name = "OUTCOME", help_heading = LONG_RUNS)]
    pub for_outcome: Option<String>,

    /// The most trials --until-halfwidth runs (default 1e9); it takes the
    /// place of --trials.
    #[arg(long, value_name = "N", help_heading = LONG_RUNS, value_parser = parse_count)]
    pub max_trials: Option<u64>,
}

/// Every long-run option a command line gave, gathered from wherever its
/// command takes them (empty for a command that takes none).
#[derive(Clone, Debug, Default)]
pub struct LongRunArgs {
    pub run: RunArgs,
    pub precision: PrecisionArgs,
}

/// How a Monte-Carlo run samples: the trials (games; blackjack's commands
/// say hands per upcard), the seed, and the long-run options.
#[derive(Debug, Args)]
pub struct SamplingArgs {
    /// Games to play (accepts 1000000, 1_000_000 or 1e6).
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_count)]
    pub trials: u64,

    /// Master seed. The same seed and trials give the same counts on any
    /// machine with any number of threads.
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,

    #[command(flatten)]
    pub runs: RunArgs,
}

/// The significance level of a comparison's verdicts.
#[derive(Debug, Args)]
pub struct LevelArgs {
    /// Significance level of the verdicts.
    #[arg(long, value_name = "ALPHA", default_value = "0.001", value_parser = parse_level)]
    pub level: f64,
}

/// Where and how results are written.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format: table, md, csv, json, latex, or the chart as svg,
    /// pdf or png. Default: from --out's extension (.md .csv .json .tex,
    /// .txt for the table, .svg .pdf .png for the chart), else table.
    #[arg(long, value_name = "FORMAT", help_heading = "Output")]
    pub format: Option<String>,

    /// Write to this file instead of standard output (`-` is standard
    /// output): a regular file is replaced atomically (complete or not at
    /// all), a device or FIFO written in place. Repeat it to write several
    /// formats from one run (e.g. --out t.md --out t.json --out t.svg).
    /// Checked before the run: a known extension, an existing writable
    /// directory, no other output on the same file.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub out: Vec<PathBuf>,

    /// Decimal places of percentages in table, md and latex output, 0..=12
    /// (the table shows two significant digits where these would print a
    /// rare outcome as zero).
    #[arg(long, value_name = "N", help_heading = "Output", value_parser = parse_digits)]
    pub digits: Option<usize>,

    /// The chart's size: screen (900 px wide, for pages and slides),
    /// single (a journal's column, 3.5 in wide) or double (a page, 7 in);
    /// in print, text sets at 8-9 pt. Strategy cards keep their one size.
    // Checked here, made a `report::chart::FigureSize` by the commands
    // (the report layer is not the command line's to import).
    #[arg(
        long,
        value_name = "SIZE",
        help_heading = "Output",
        default_value = "screen",
        value_parser = ["screen", "single", "double"]
    )]
    pub figure: String,

    /// A logarithmic y axis for the chart's bars (one distribution, or
    /// each panel of several). Default: log where the smallest non-zero
    /// outcome is under 1 % of the largest, so that rare outcomes show,
    /// else linear. Stacked bars, z-scores and means stay linear.
    #[arg(long, help_heading = "Output", conflicts_with = "linear_y")]
    pub log_y: bool,

    /// A linear y axis for the chart's bars, from 0, even where rare
    /// outcomes then make no visible bar.
    #[arg(long, help_heading = "Output")]
    pub linear_y: bool,
}

/// Which exact enumerator a game's `exact` runs (`--engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The memoised sequential enumerator.
    Memo,
    /// Every arrangement through the play function.
    Exhaustive,
}

impl Engine {
    /// Parses `memo` or `exhaustive`.
    pub fn parse(text: &str) -> Result<Engine> {
        match text {
            "memo" => Ok(Engine::Memo),
            "exhaustive" => Ok(Engine::Exhaustive),
            _ => Err(Error::invalid("engine", text, "must be memo or exhaustive")),
        }
    }

    /// The name [`Engine::parse`] takes, as reports record it.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Memo => "memo",
            Engine::Exhaustive => "exhaustive",
        }
    }
}

/// A value of an option that also takes `all`: one value, or every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneOrAll<T> {
    /// The one value given.
    One(T),
    /// `all`.
    All,
}

impl<T> OneOrAll<T> {
    /// Parses `all`, or a value by `parse`; a value `parse` refuses is
    /// refused saying `allowed` (which should mention `all`).
    pub fn parse(
        text: &str,
        parse: impl FnOnce(&str) -> Result<T>,
        allowed: &str,
    ) -> Result<OneOrAll<T>> {
        match text {
            "all" => Ok(OneOrAll::All),
            _ => parse(text).map(OneOrAll::One).map_err(|error| match error {
                Error::InvalidValue { parameter, .. } => Error::invalid(&parameter, text, allowed),
                other => other,
            }),
        }
    }
}
