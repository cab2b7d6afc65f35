//! `--mpi` (cargo feature `mpi`): a Monte-Carlo run spread over the ranks
//! of an MPI job, `mpirun -n N deckodds COMMAND... --mpi`.
//!
//! Each rank runs the command as part `rank/N` (`--shard`'s parts: the
//! same chunks, so the same counts), writing nothing; the tallies of every
//! sampling run are summed on rank 0 with one `MPI_Reduce`, and rank 0 runs
//! the command again with the sums handed back, as `merge` does: its output
//! is byte for byte the one run's.

use mpi::collective::SystemOperation;
use mpi::traits::*;

use clap::Parser;

use super::context::{Context, RunIn};
use super::ledger::{Prior, PriorSource, Sample};
use crate::cli::{Cli, LongRunArgs};
use crate::engine::Shard;
use crate::error::{Error, Result};

/// Runs `cli` as this process's rank of the MPI job, through `run_in`.
pub(super) fn run(cli: Cli, long_runs: &LongRunArgs, run_in: RunIn) -> Result<()> {
    let run = &long_runs.run;
    for (option, given) in [
        ("--shard", run.parts.shard.is_some()),
        ("--checkpoint", run.checkpoint.is_some()),
        ("--resume", run.resume.is_some()),
        (
            "--until-halfwidth",
            long_runs.precision.until_halfwidth.is_some(),
        ),
    ] {
        if given {
            return Err(Error::invalid(
                option,
                "with --mpi",
                "--mpi cuts the run into the job's ranks itself: leave it out",
            ));
        }
    }
    let universe = mpi::initialize()
        .ok_or_else(|| Error::invalid("--mpi", "given", "MPI could not be initialised"))?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let mut part = Context::new(&cli.global, long_runs)?;
    let (quiet, threads) = (part.quiet, part.threads);
    // Only rank 0 speaks.
    part.quiet |= rank != 0;
    part.shard = Some(Shard {
        index: rank as u64,
        count: size as u64,
    });
    part.collect_only = true;
    // The command line again, for rank 0's run over the summed counts.
    let again = Cli::try_parse_from(std::env::args_os())
        .map_err(|e| Error::invalid("--mpi", "given", e.to_string().trim()))?;
    run_in(cli, &part)?;
    if part.enumerated.lock().is_ok_and(|e| !e.is_empty()) {
        return Err(Error::invalid(
            "--mpi",
            "given",
            "sums Monte-Carlo counts only: cut an exhaustive enumeration with --shard, then merge",
        ));
    }
    let samples: Vec<Sample> = part.sampled.lock().map(|s| s.clone()).unwrap_or_default();
    // Every rank made the same sampling runs (the same command), so the
    // tallies line up. A bin's sum over the ranks is its count in the one
    // run, at most the run's trials: it cannot overflow 64 bits.
    let local: Vec<u64> = samples
        .iter()
        .flat_map(|s| s.tally.iter().copied())
        .collect();
    let root = world.process_at_rank(0);
    if rank != 0 {
        root.reduce_into(&local[..], SystemOperation::sum());
        return Ok(());
    }
    let mut total = vec![0u64; local.len()];
    root.reduce_into_root(&local[..], &mut total[..], SystemOperation::sum());
    let mut sums = total.into_iter();
    let summed = samples
        .iter()
        .map(|sample| Sample {
            plan: sample.plan,
            chunks: 0..sample.plan.n_chunks(),
            tally: sums.by_ref().take(sample.tally.len()).collect(),
        })
        .collect();
    let mut whole = Context::plain(quiet, threads);
    whole.prior = Some(Prior {
        source: PriorSource::Merge,
        samples: std::sync::Mutex::new(summed),
        enumerations: std::sync::Mutex::new(Default::default()),
        parts: Vec::new(),
        inputs: part.inputs(),
    });
    run_in(again, &whole)
}
