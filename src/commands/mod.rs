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
mod blackjack_counts;
mod blackjack_indices;
mod blackjack_player;
mod blackjack_table;
mod checkpoint;
mod context;
mod docs;
mod embed;
mod files;
mod idiots_delight;
mod klondike;
mod klondike_deals;
mod klondike_solve;
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
use crate::error::Result;
use context::{Context, Invocation};

pub use embed::{CommandSpec, EMBEDDED_SETS, OptionSpec, ValueKind, clap_error_line, commands};
pub use progress::RunControl;

/// The parsers of user input that live in this layer (the files
/// `--resume` and `merge` read; the values of options are parsed by
/// `cli`), public so that the tests can feed them damaged input from
/// outside (tests/integration/parsers.rs). Each returns a value or a
/// one-line error.
pub mod input {
    pub use super::checkpoint::check as check_checkpoint;
    pub use super::merge::check as check_count_file;
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
    apply_simd_cap()?;
    run_as(cli, Invocation::User)
}

/// Caps the vector instructions the engines may use at
/// `DECKODDS_SIMD`'s level, if set ([`crate::simd`]): before any work,
/// as engines choose their kernels once.
fn apply_simd_cap() -> Result<()> {
    if let Some(value) = std::env::var_os(crate::simd::SIMD_VARIABLE) {
        let text = value.to_string_lossy();
        crate::simd::set_cap(crate::simd::SimdLevel::parse(&text)?);
    }
    Ok(())
}

/// Runs a parsed command line in process for a caller that embeds
/// deckodds (the Python package): its standard output captured and
/// returned, nothing printed, its progress and stop in `control`'s
/// hands (see `embed.rs`).
pub fn run_captured(cli: Cli, control: &std::sync::Arc<RunControl>) -> Result<Captured> {
    apply_simd_cap()?;
    let ran = embed::run(cli, control, run_in)?;
    Ok(Captured {
        output: ran.output,
        outcome: if ran.disagreed {
            Outcome::Disagreement
        } else {
            Outcome::Complete
        },
    })
}

/// What a command run in process ([`run_captured`]) gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// What the binary would have printed on standard output (with
    /// `--format json`, the JSON document).
    pub output: String,
    /// How the command ended (a comparison that found disagreement is not
    /// an error: its output is whole).
    pub outcome: Outcome,
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
    Err(crate::error::Error::invalid(
        "--mpi",
        "given",
        "this deckodds was built without MPI: build it with `cargo build --release --features mpi` (needs an MPI library and libclang, e.g. Debian's libopenmpi-dev and libclang-dev), or cut the run with --shard and merge",
    ))
}

/// Runs a parsed command line in `context`.
fn run_in(cli: Cli, context: &Context) -> Result<()> {
    let inputs = output::check_files(&cli)?;
    context.fingerprint_inputs(&inputs)?;
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
            recomputed_in,
        } => reproduce::run(
            reproduce::Request {
                names: specs,
                profile: if quick { Profile::Quick } else { Profile::Full },
                check,
                slow,
                results,
                recomputed_in,
            },
            context,
            run_nested,
        ),
        Command::Merge { files, output } => merge::run(&files, &output, context, run_in),
        Command::Rules { game } => docs::rules(game, context),
        Command::Completions { shell } => docs::completions(shell, context),
        Command::Man { out } => docs::man(out.as_deref(), context),
        Command::Schema { kind, dir } => docs::schema(kind.as_deref(), dir.as_deref(), context),
    }
}
