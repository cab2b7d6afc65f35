//! What every command needs besides its own arguments: [`Context`], made
//! once from the global and long-run options (`--quiet`, `--threads`,
//! `--shard`, `--checkpoint`, `--resume`, `--until-halfwidth`), and what
//! the command's runs leave in it (the samplings and enumerations done,
//! for count files and checkpoints; the precision reached; the verdict).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::checkpoint::{self, Checkpointing};
use super::files::NamedPath;
use super::ledger::{self, Prior, PriorSource, Sample};
use super::progress::{ProgressReporter, RunControl};
use crate::cli::{Cli, GlobalArgs, LongRunArgs, PrecisionArgs};
use crate::contract::shard::InputFingerprint;
use crate::engine::ArrangementCounts;
use crate::engine::Shard;
use crate::engine::precision::PrecisionTarget;
use crate::error::{Error, Result};
use crate::report::PrecisionRun;

/// Whose command line a context runs, so that hints which quote the
/// command line back (how to make a long run resumable) go to the user's
/// own only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Invocation {
    /// The command line the user typed.
    User,
    /// One deckodds made and runs inside another command: a spec's
    /// (`reproduce`), a count file's (`merge`), an MPI rank's.
    Nested,
}

/// Runs a parsed command line in a given context: the dispatch of
/// `commands`, handed to the commands that run a command line of their
/// own making in a context they prepare (`merge` and `--mpi`, with counts
/// handed back), so that they need not import the dispatch, which imports
/// them.
pub(super) type RunIn = fn(Cli, &Context) -> Result<()>;

/// Runs a parsed command line in a context of its own, as one command
/// inside another (`reproduce`'s specs); handed down as [`RunIn`] is.
pub(super) type RunNested = fn(Cli) -> Result<()>;

/// A command run in process by a caller (see `commands::embed`): what it
/// would print on standard output is kept here, and the caller follows
/// and stops it through `control`.
pub(super) struct Embedded {
    pub control: Arc<RunControl>,
    /// The bytes the command wrote to standard output.
    pub output: Mutex<Vec<u8>>,
}

/// `--until-halfwidth X [--for OUTCOME] [--max-trials N]`.
pub(super) struct Until {
    pub target: PrecisionTarget,
    pub max_trials: u64,
}

/// What every command needs besides its own arguments.
pub(super) struct Context {
    pub(super) quiet: bool,
    pub(super) threads: Option<usize>,
    /// `--shard k/n`: run only part k of a Monte-Carlo run or exhaustive
    /// enumeration.
    pub(super) shard: Option<Shard>,
    /// Whether the command read `shard` (so that a command that can do
    /// nothing with it says so instead of quietly running whole).
    pub(super) shard_read: AtomicBool,
    /// The sampling runs finished, in the order the command made them:
    /// for a shard's count file, and for checkpoints.
    pub(super) sampled: Mutex<Vec<Sample>>,
    /// The exhaustive enumerations of a shard, in order, for its count
    /// file.
    pub(super) enumerated: Mutex<Vec<ArrangementCounts>>,
    /// `merge` and `--resume`: the tallies done before, handed back in
    /// order instead of sampling again.
    pub(super) prior: Option<Prior>,
    /// `--checkpoint` (or `--resume`): where and how often to save.
    pub(super) checkpointing: Option<Checkpointing>,
    /// `--until-halfwidth`: the precision target.
    pub(super) until: Option<Until>,
    /// Each sampling run's precision when a target was set, for the JSON.
    pub(super) precision: Mutex<Vec<PrecisionRun>>,
    /// `--mpi`: a rank's run, whose counts are summed on rank 0; it writes
    /// no output.
    pub(super) collect_only: bool,
    /// The test hook `DECKODDS_INTERRUPT_AFTER_CHUNKS`, and the chunks
    /// counted towards it.
    pub(super) interrupt_after: Option<u64>,
    pub(super) chunks_run: AtomicU64,
    /// Whether a comparison of this command found disagreement (see
    /// [`Outcome::Disagreement`]).
    disagreed: AtomicBool,
    /// Whose command line this is: hints may quote back the user's own
    /// only.
    pub(super) invocation: Invocation,
    /// Whether a long run was already told how to be resumable (once a
    /// command is enough).
    pub(super) checkpoint_suggested: AtomicBool,
    /// A run in process: its standard output kept, its progress and stop
    /// in the caller's hands.
    pub(super) embedded: Option<Embedded>,
    /// The files read that decide the run's results, by their contents'
    /// fingerprints (see [`Context::fingerprint_inputs`]): recorded in
    /// checkpoints and count files.
    inputs: Mutex<Vec<InputFingerprint>>,
}

impl Context {
    /// A context with no shard and nothing to replay.
    pub(super) fn plain(quiet: bool, threads: Option<usize>) -> Context {
        Context {
            quiet,
            threads,
            shard: None,
            shard_read: AtomicBool::new(false),
            sampled: Mutex::new(Vec::new()),
            enumerated: Mutex::new(Vec::new()),
            prior: None,
            checkpointing: None,
            until: None,
            precision: Mutex::new(Vec::new()),
            collect_only: false,
            interrupt_after: None,
            chunks_run: AtomicU64::new(0),
            disagreed: AtomicBool::new(false),
            invocation: Invocation::Nested,
            checkpoint_suggested: AtomicBool::new(false),
            embedded: None,
            inputs: Mutex::new(Vec::new()),
        }
    }

    /// Records a comparison's verdict once its output is written: any
    /// disagreement makes the command's `Outcome` a disagreement (exit
    /// status 1).
    pub(super) fn verdict(&self, agreed: bool) {
        if !agreed {
            self.disagreed.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a comparison of the command found disagreement, once it
    /// has run.
    pub(super) fn disagreed(&self) -> bool {
        self.disagreed.load(Ordering::Relaxed)
    }

    /// Takes the fingerprints of the files `inputs` (those the command
    /// reads that decide its results) before any work, and refuses counts
    /// done before (a checkpoint's, or merged parts') that were made with
    /// other contents of any of them: a chart edited between a run and
    /// its resumption would otherwise mix two charts' rounds under one
    /// label.
    pub(super) fn fingerprint_inputs(&self, inputs: &[NamedPath]) -> Result<()> {
        let now: Vec<InputFingerprint> = inputs
            .iter()
            .filter_map(|input| ledger::fingerprint(input.option, &input.path))
            .collect();
        if let Some(prior) = &self.prior {
            let (since, instead) = match &prior.source {
                PriorSource::Checkpoint(path) => (
                    format!("the checkpoint {} was saved", path.display()),
                    "delete the checkpoint and run afresh",
                ),
                PriorSource::Merge => ("the parts were counted".to_string(), "run the parts again"),
            };
            ledger::check_inputs(&prior.inputs, &now, &since, instead)?;
        }
        if let Ok(mut inputs) = self.inputs.lock() {
            *inputs = now;
        }
        Ok(())
    }

    /// The fingerprints [`Context::fingerprint_inputs`] took.
    pub(super) fn inputs(&self) -> Vec<InputFingerprint> {
        self.inputs.lock().map(|i| i.clone()).unwrap_or_default()
    }

    /// Refuses `--shard`, `--checkpoint` and `--resume` for a command
    /// that runs no parts of its own.
    pub(super) fn refuse_parts(&self, command: &str) -> Result<()> {
        if let Some(shard) = self.shard {
            return Err(Error::invalid(
                "--shard",
                shard,
                format!(
                    "{command} has no parts (only a Monte-Carlo run or an exhaustive enumeration has): leave --shard out"
                ),
            ));
        }
        if let Some(checkpointing) = &self.checkpointing {
            return Err(Error::invalid(
                "--checkpoint",
                checkpointing.path.display(),
                format!("{command} samples nothing to save: leave --checkpoint and --resume out"),
            ));
        }
        Ok(())
    }

    /// The shard of an exhaustive enumeration, if `--shard` gave one.
    pub(super) fn shard_of_enumeration(&self) -> Option<Shard> {
        self.shard_read.store(true, Ordering::Relaxed);
        self.shard
    }

    /// An exhaustive enumeration that `--shard` cuts: `work` runs it (or,
    /// with `--shard`, its part, whose counts are kept for the count
    /// file). `merge` hands back the parts' summed counts instead of
    /// running it, so that the one run's report follows from them.
    pub(super) fn enumerate(
        &self,
        work: impl FnOnce() -> Result<ArrangementCounts>,
    ) -> Result<ArrangementCounts> {
        if let Some(prior) = &self.prior {
            let next = prior
                .enumerations
                .lock()
                .ok()
                .and_then(|mut q| q.pop_front());
            if let Some(counts) = next {
                return Ok(counts);
            }
        }
        let counts = work()?;
        if self.shard.is_some()
            && let Ok(mut enumerated) = self.enumerated.lock()
        {
            enumerated.push(counts.clone());
        }
        Ok(counts)
    }

    /// The context the global and long-run options of a command line ask
    /// for, validated (a checkpoint to resume is read and checked here).
    pub(super) fn new(global: &GlobalArgs, long_runs: &LongRunArgs) -> Result<Context> {
        let run = &long_runs.run;
        let mut context = Context::plain(global.quiet, global.threads);
        context.shard = run.parts.shard;
        context.until = until(&long_runs.precision)?;
        if let (Some(shard), Some(_)) = (context.shard, &context.until) {
            return Err(Error::invalid(
                "--shard",
                shard,
                "cannot cut a run that stops at a precision target (where it stops depends on every chunk before): run it whole, or give the parts --trials",
            ));
        }
        if let Some(every) = run.checkpoint_every
            && run.checkpoint.is_none()
            && run.resume.is_none()
        {
            return Err(Error::invalid(
                "--checkpoint-every",
                every.as_secs_f64(),
                "says how often --checkpoint saves: give --checkpoint FILE too",
            ));
        }
        let checkpoint_every = run.checkpoint_every.unwrap_or(Duration::from_secs(5));
        if let Some(path) = &run.checkpoint
            && path.exists()
            && run.resume.as_ref() != Some(path)
        {
            return Err(Error::invalid(
                "--checkpoint",
                path.display(),
                format!(
                    "the file exists, and a checkpoint is a new file: to continue the run saved there use --resume {}, or delete it to start afresh",
                    path.display()
                ),
            ));
        }
        if let Some(path) = &run.resume {
            let (samples, inputs) = checkpoint::load(path, context.shard)?;
            context.prior = Some(Prior {
                source: PriorSource::Checkpoint(path.clone()),
                samples: Mutex::new(VecDeque::from(samples)),
                enumerations: Mutex::new(VecDeque::new()),
                parts: Vec::new(),
                inputs,
            });
        }
        if let Some(path) = run.checkpoint.as_ref().or(run.resume.as_ref()) {
            checkpoint::catch_interrupts(global.quiet)?;
            context.checkpointing = Some(Checkpointing {
                path: path.clone(),
                every: checkpoint_every,
                last_saved: Mutex::new(Instant::now()),
            });
            context.interrupt_after = std::env::var("DECKODDS_INTERRUPT_AFTER_CHUNKS")
                .ok()
                .and_then(|n| n.parse().ok());
        }
        Ok(context)
    }

    /// Runs `work` on a rayon pool of the requested size (or the global
    /// pool, one thread per core, if none was requested).
    pub(super) fn with_threads<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T> {
        match self.threads {
            None => Ok(work()),
            Some(threads) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| Error::invalid("--threads", threads, e))?;
                Ok(pool.install(work))
            }
        }
    }

    /// A progress bar over `total` units (trials, say) on stderr, drawn only
    /// if stderr is a terminal, `--quiet` is off, and the run lasts over a
    /// second.
    pub(super) fn progress(&self, total: u64, message: &str, unit: &str) -> ProgressReporter {
        let control = self.embedded.as_ref().map(|e| Arc::clone(&e.control));
        ProgressReporter::new(total, message, unit, self.quiet, control)
    }

    /// Whether the run was asked to stop: by SIGINT or SIGTERM (see
    /// `checkpoint::catch_interrupts`), or by an embedding caller.
    pub(super) fn stop_requested(&self) -> bool {
        checkpoint::interrupted()
            || self
                .embedded
                .as_ref()
                .is_some_and(|e| e.control.stop_requested())
    }

    /// A note for the user on stderr, unless `--quiet`.
    pub(super) fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// Refuses `--shard` for a command that turned out to have nothing to cut
    /// (it neither sampled nor enumerated exhaustively).
    pub(super) fn check_parts_used(&self) -> Result<()> {
        match self.shard {
            Some(shard) if !self.shard_read.load(Ordering::Relaxed) => Err(Error::invalid(
                "--shard",
                shard,
                "this command neither samples nor enumerates exhaustively, so it has no parts",
            )),
            _ => Ok(()),
        }
    }
}

/// `--until-halfwidth X [--for OUTCOME] [--max-trials N]`, validated.
fn until(precision: &PrecisionArgs) -> Result<Option<Until>> {
    let Some(half_width) = precision.until_halfwidth else {
        for (option, given) in [
            ("--for", precision.for_outcome.clone()),
            ("--max-trials", precision.max_trials.map(|n| n.to_string())),
        ] {
            if let Some(value) = given {
                return Err(Error::invalid(
                    option,
                    value,
                    "goes with --until-halfwidth X: give that too, or leave it out",
                ));
            }
        }
        return Ok(None);
    };
    let max_trials = precision.max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
    Ok(Some(Until {
        target: PrecisionTarget {
            half_width,
            outcome: precision.for_outcome.clone(),
        },
        max_trials,
    }))
}

/// The most trials `--until-halfwidth` runs unless `--max-trials` says.
const DEFAULT_MAX_TRIALS: u64 = 1_000_000_000;
