//! The glue between the command line and the engines: validates arguments,
//! runs engines, renders reports, draws progress, writes files.
//!
//! Architecture invariant: this is the only layer that does I/O (apart from
//! `main`, which prints errors). It computes nothing itself.
//!
//! This file dispatches a parsed command line to its command. Nothing in
//! `commands/` imports it: the commands that run a command line of their
//! own making (`merge`, `--mpi`, `reproduce`) are handed the dispatch as a
//! function. What a command needs besides its arguments is in
//! `context.rs`, how it writes in `output.rs` (through `files.rs`, the one
//! place that writes a file), how it samples in `sampling.rs`, what it
//! shows as it runs in `progress.rs`, and the records of its runs that
//! count files and checkpoints keep in `ledger.rs`.

mod blackjack;
mod checkpoint;
mod context;
mod docs;
mod files;
mod idiots_delight;
mod klondike;
mod ledger;
mod merge;
#[cfg(feature = "mpi")]
mod mpi_ranks;
mod output;
mod prisoners_patience;
mod progress;
mod reproduce;
mod roll_call;
mod sampling;

use crate::analysis::Profile;
use crate::cli::{Cli, Command, LongRunArgs};
use crate::error::{Error, Result};
use context::{Context, Invocation};

/// The parsers of user input that live in this layer (values of options,
/// and the files `--resume` and `merge` read), public so that the tests can feed them
/// damaged input from outside (tests/integration/parsers.rs). Each returns
/// a value or a one-line error.
pub mod input {
    pub use super::checkpoint::check as check_checkpoint;
    pub use super::klondike::parse_deal as parse_card_deal;
    pub use super::merge::check as check_count_file;
    pub use super::{parse_count, parse_level, parse_rank_deal, parse_seed};
}

/// How a command that ran to its end ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did its work; any comparison it made found agreement.
    Complete,
    /// It did its work and wrote its whole output, and a comparison it made
    /// found disagreement (Monte Carlo against exact, a published table
    /// with inconsistent cells, ...): `main` exits with status 1, as `diff`
    /// and `cmp` do, so that a script can act on the verdict.
    Disagreement,
}

/// Runs a parsed command line, as the binary does: a long Monte-Carlo run
/// without `--checkpoint` says on stderr how to make it resumable.
pub fn run(cli: Cli) -> Result<Outcome> {
    run_as(cli, Invocation::User)
}

/// Runs a parsed command line inside another command (`reproduce`): the
/// same work and output, without hints about the command line, which is
/// not the user's. A comparison's verdict is left to the caller, which
/// reads it from the output.
fn run_nested(cli: Cli) -> Result<()> {
    run_as(cli, Invocation::Nested).map(drop)
}

/// Runs a parsed command line in a context of its own, made from its
/// options, as `invocation`'s.
fn run_as(cli: Cli, invocation: Invocation) -> Result<Outcome> {
    let long_runs = cli.command.long_run_args();
    if long_runs.run.mpi {
        return run_mpi(cli, &long_runs).map(|()| Outcome::Complete);
    }
    let mut context = Context::new(&cli.global, &long_runs)?;
    context.invocation = invocation;
    run_in(cli, &context)?;
    // The run is complete and written: its checkpoint is spent.
    if let Some(checkpointing) = &context.checkpointing
        && files::remove_checkpoint(&checkpointing.path)?
    {
        context.note(&format!(
            "removed the checkpoint {}: the run is complete",
            checkpointing.path.display()
        ));
    }
    Ok(if context.disagreed() {
        Outcome::Disagreement
    } else {
        Outcome::Complete
    })
}

/// `--mpi`: this process is one rank of an MPI job.
#[cfg(feature = "mpi")]
fn run_mpi(cli: Cli, long_runs: &LongRunArgs) -> Result<()> {
    mpi_ranks::run(cli, long_runs, run_in)
}

/// `--mpi` in a build without MPI.
#[cfg(not(feature = "mpi"))]
fn run_mpi(_cli: Cli, _long_runs: &LongRunArgs) -> Result<()> {
    Err(Error::invalid(
        "--mpi",
        "given",
        "this deckodds was built without MPI: build it with `cargo build --release --features mpi` (needs an MPI library and libclang, e.g. Debian's libopenmpi-dev and libclang-dev), or cut the run with --shard and merge",
    ))
}

/// Runs a parsed command line in `context`.
fn run_in(cli: Cli, context: &Context) -> Result<()> {
    output::check_files(&cli)?;
    match cli.command {
        Command::Blackjack(command) => blackjack::run(command, context),
        Command::IdiotsDelight(command) => idiots_delight::run(command, context),
        Command::RollCall(command) => roll_call::run(command, context),
        Command::PrisonersPatience(command) => prisoners_patience::run(command, context),
        Command::Klondike(command) => klondike::run(command, context),
        Command::Reproduce {
            specs,
            quick,
            check,
            slow,
            results,
        } => reproduce::run(
            reproduce::Request {
                names: specs,
                profile: if quick { Profile::Quick } else { Profile::Full },
                check,
                slow,
                results,
            },
            context,
            run_nested,
        ),
        Command::Merge { files, output } => merge::run(&files, &output, context, run_in),
        Command::Rules { game } => docs::rules(game.as_deref(), context),
        Command::Completions { shell } => docs::completions(&shell, context),
        Command::Man { out } => docs::man(out.as_deref(), context),
    }
}

/// Parses a count such as `1000000`, `1_000_000` or `1e6` for `option`,
/// which must be at least 1.
pub fn parse_count(option: &str, text: &str) -> Result<u64> {
    let invalid = || {
        Error::invalid(
            option,
            text,
            "must be a whole number of at least 1 (e.g. 1000000, 1_000_000 or 1e6)",
        )
    };
    let cleaned = text.trim().replace('_', "");
    let value = match cleaned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let mantissa: u64 = mantissa.parse().map_err(|_| invalid())?;
            let exponent: u32 = exponent.parse().map_err(|_| invalid())?;
            10u64
                .checked_pow(exponent)
                .and_then(|power| power.checked_mul(mantissa))
                .ok_or_else(invalid)?
        }
        None => cleaned.parse().map_err(|_| invalid())?,
    };
    if value == 0 {
        return Err(invalid());
    }
    Ok(value)
}

/// Parses a seed: any unsigned 64-bit integer.
pub fn parse_seed(text: &str) -> Result<u64> {
    text.trim().replace('_', "").parse().map_err(|_| {
        Error::invalid(
            "--seed",
            text,
            "must be a whole number 0..=18446744073709551615",
        )
    })
}

/// Parses a significance level in (0, 1).
pub fn parse_level(text: &str) -> Result<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|level| *level > 0.0 && *level < 1.0)
        .ok_or_else(|| {
            Error::invalid(
                "--level",
                text,
                "must be a probability between 0 and 1, e.g. 0.001",
            )
        })
}

/// A small whole number for `option` (a deck dimension); the library then
/// checks its range. `allowed` says what is allowed, for the error.
fn parse_small(option: &str, text: &str, allowed: &str) -> Result<u8> {
    text.trim()
        .parse::<u8>()
        .map_err(|_| Error::invalid(option, text, allowed))
}

/// Validated sampling options of a game's Monte-Carlo run: (games, seed).
fn game_sampling(sampling: &crate::cli::GameSamplingArgs) -> Result<(u64, u64)> {
    Ok((
        parse_count("--trials", &sampling.trials)?,
        parse_seed(&sampling.seed)?,
    ))
}

/// Which exact enumerator a game's `exact` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// The memoised sequential enumerator.
    Memo,
    /// Every arrangement through the play function.
    Exhaustive,
}

impl Engine {
    fn parse(text: &str) -> Result<Engine> {
        match text {
            "memo" => Ok(Engine::Memo),
            "exhaustive" => Ok(Engine::Exhaustive),
            _ => Err(Error::invalid(
                "--engine",
                text,
                "must be memo or exhaustive",
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Engine::Memo => "memo",
            Engine::Exhaustive => "exhaustive",
        }
    }
}

/// `--save-wins N FILE`, validated: how many won deals to keep, and where.
fn save_wins_request(args: Option<Vec<String>>) -> Result<Option<(usize, String)>> {
    args.map(|args| -> Result<(usize, String)> {
        let n = parse_count("--save-wins", &args[0])? as usize;
        Ok((n, args[1].clone()))
    })
    .transpose()
}

/// Parses a deal: ranks A, 2..10, J, Q, K (or 1..13, T for ten), separated
/// by spaces or commas. The error names `--deal`.
pub fn parse_rank_deal(text: &str) -> Result<Vec<u8>> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|token| {
            let rank = match token.to_ascii_uppercase().as_str() {
                "A" => Some(1),
                "T" => Some(10),
                "J" => Some(11),
                "Q" => Some(12),
                "K" => Some(13),
                number => number.parse::<u8>().ok().filter(|r| (1..=13).contains(r)),
            };
            rank.ok_or_else(|| {
                Error::invalid(
                    "--deal",
                    token,
                    "cards must be ranks A, 2..10, J, Q, K (or 1..13), separated by spaces",
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_in_every_spelling() {
        assert_eq!(parse_count("--trials", "1000000").unwrap(), 1_000_000);
        assert_eq!(parse_count("--trials", "1_000_000").unwrap(), 1_000_000);
        assert_eq!(parse_count("--trials", "1e6").unwrap(), 1_000_000);
        assert_eq!(parse_count("--trials", "25E2").unwrap(), 2_500);
        for bad in ["0", "-1", "x", "1e99", "1.5", ""] {
            let message = parse_count("--trials", bad).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("--trials {bad}:")),
                "{message}"
            );
        }
    }
}
