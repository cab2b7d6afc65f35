//! The glue between the command line and the engines: validates arguments,
//! runs engines, renders reports, draws progress, writes files.
//!
//! Architecture invariant: this is the only layer that does I/O (apart from
//! `main`, which prints errors). It computes nothing itself.

mod blackjack;
mod checkpoint;
mod idiots_delight;
mod klondike;
mod merge;
#[cfg(feature = "mpi")]
mod mpi_ranks;
mod prisoners_patience;
mod reproduce;
mod roll_call;
mod sampling;

use std::collections::VecDeque;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::analysis::Profile;
use crate::cli::{Cli, Command, GlobalArgs, OutputArgs};
use crate::error::{Error, Result};
use crate::exact::ArrangementCounts;
use crate::exact::arrangements::Shard;
use crate::montecarlo::Progress;
use crate::montecarlo::precision::PrecisionTarget;
use crate::report::{Format, RenderOptions};
use checkpoint::Checkpointing;
use sampling::{Prior, PriorSource, Until};

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
    run_at_top(cli, true)
}

/// Runs a parsed command line inside another command (`reproduce`): the
/// same work and output, without hints about the command line, which is
/// not the user's.
fn run_nested(cli: Cli) -> Result<Outcome> {
    run_at_top(cli, false)
}

fn run_at_top(cli: Cli, top_level: bool) -> Result<Outcome> {
    if cli.global.mpi {
        return run_mpi(cli).map(|()| Outcome::Complete);
    }
    let mut context = Context::new(&cli.global)?;
    context.top_level = top_level;
    run_in(cli, &context)?;
    if let Some(checkpointing) = &context.checkpointing
        && checkpointing.path.exists()
    {
        // The run is complete and written: its checkpoint is spent.
        fs::remove_file(&checkpointing.path).map_err(|source| Error::Io {
            path: checkpointing.path.clone(),
            source,
        })?;
        context.note(&format!(
            "removed the checkpoint {}: the run is complete",
            checkpointing.path.display()
        ));
    }
    Ok(context.outcome())
}

/// `--mpi`: this process is one rank of an MPI job.
#[cfg(feature = "mpi")]
fn run_mpi(cli: Cli) -> Result<()> {
    mpi_ranks::run(cli)
}

/// `--mpi` in a build without MPI.
#[cfg(not(feature = "mpi"))]
fn run_mpi(_cli: Cli) -> Result<()> {
    Err(Error::invalid(
        "--mpi",
        "given",
        "this deckodds was built without MPI: build it with `cargo build --release --features mpi` (needs an MPI library and libclang, e.g. Debian's libopenmpi-dev and libclang-dev), or cut the run with --shard and merge",
    ))
}

/// Runs a parsed command line in `context`.
fn run_in(cli: Cli, context: &Context) -> Result<()> {
    if !has_parts(&cli.command) {
        context.refuse_parts("this command")?;
    }
    if context.until.is_some() && !takes_precision_target(&cli.command) {
        return Err(Error::invalid(
            "--until-halfwidth",
            context.until.as_ref().map_or(0.0, |u| u.target.half_width),
            "only a Monte-Carlo run of one version takes a precision target: `mc`, or `prisoners-patience solve --trials`",
        ));
    }
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
        ),
        Command::Merge { files, output } => merge::run(&files, &output, context),
    }
}

/// Whether `command` can run a part of itself (`--shard`): it samples, or
/// enumerates exhaustively. (An exact command on the memoised engine, or a
/// comparison with a published table, still refuses `--shard` when it
/// finds it has nothing to cut.)
fn has_parts(command: &Command) -> bool {
    use crate::cli::{
        BlackjackCommand as B, IdiotsDelightCommand as I, KlondikeCommand as K,
        PrisonersCommand as P, RollCallCommand as R,
    };
    matches!(
        command,
        Command::Blackjack(B::Mc { .. } | B::Compare { .. })
            | Command::IdiotsDelight(
                I::Exact { .. } | I::Mc { .. } | I::Compare { .. } | I::Power { .. }
            )
            | Command::RollCall(R::Exact { .. } | R::Mc { .. } | R::Compare { .. })
            | Command::PrisonersPatience(
                P::Exact { .. } | P::Mc { .. } | P::Compare { .. } | P::Solve { .. }
            )
            | Command::Klondike(K::Mc { .. })
    )
}

/// Whether `command` can sample until a precision target is met: a
/// Monte-Carlo run of one version, whose size is the user's to choose.
fn takes_precision_target(command: &Command) -> bool {
    use crate::cli::{
        BlackjackCommand as B, IdiotsDelightCommand as I, KlondikeCommand as K,
        PrisonersCommand as P, RollCallCommand as R,
    };
    matches!(
        command,
        Command::Blackjack(B::Mc { .. })
            | Command::IdiotsDelight(I::Mc { .. })
            | Command::RollCall(R::Mc { .. })
            | Command::PrisonersPatience(P::Mc { .. } | P::Solve { .. })
            | Command::Klondike(K::Mc { .. })
    )
}

/// What every command needs besides its own arguments.
struct Context {
    quiet: bool,
    threads: Option<usize>,
    /// `--shard k/n`: run only part k of a Monte-Carlo run or exhaustive
    /// enumeration.
    shard: Option<Shard>,
    /// Whether the command read `shard` (so that a command that can do
    /// nothing with it says so instead of quietly running whole).
    shard_read: AtomicBool,
    /// The sampling runs finished, in the order the command made them:
    /// for a shard's count file, and for checkpoints.
    sampled: Mutex<Vec<merge::Sample>>,
    /// The exhaustive enumerations of a shard, in order, for its count
    /// file.
    enumerated: Mutex<Vec<ArrangementCounts>>,
    /// `merge` and `--resume`: the tallies done before, handed back in
    /// order instead of sampling again.
    prior: Option<Prior>,
    /// `--checkpoint` (or `--resume`): where and how often to save.
    checkpointing: Option<Checkpointing>,
    /// `--until-halfwidth`: the precision target.
    until: Option<Until>,
    /// Each sampling run's precision when a target was set, for the JSON.
    precision: Mutex<Vec<serde_json::Value>>,
    /// `--mpi`: a rank's run, whose counts are summed on rank 0; it writes
    /// no output.
    collect_only: bool,
    /// The test hook `DECKODDS_INTERRUPT_AFTER_CHUNKS`, and the chunks
    /// counted towards it.
    interrupt_after: Option<u64>,
    chunks_run: AtomicU64,
    /// Whether a comparison of this command found disagreement (see
    /// [`Outcome::Disagreement`]).
    disagreed: AtomicBool,
    /// Whether the command line is the user's own (not one `reproduce`
    /// made), so that hints may quote it.
    top_level: bool,
    /// Whether a long run was already told how to be resumable (once a
    /// command is enough).
    checkpoint_suggested: AtomicBool,
}

impl Context {
    /// A context with no shard and nothing to replay.
    fn plain(quiet: bool, threads: Option<usize>) -> Context {
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
            top_level: false,
            checkpoint_suggested: AtomicBool::new(false),
        }
    }

    /// Records a comparison's verdict once its output is written: any
    /// disagreement makes the command's [`Outcome`] a disagreement.
    fn verdict(&self, agreed: bool) {
        if !agreed {
            self.disagreed.store(true, Ordering::Relaxed);
        }
    }

    /// How the command ended, once it has run.
    fn outcome(&self) -> Outcome {
        if self.disagreed.load(Ordering::Relaxed) {
            Outcome::Disagreement
        } else {
            Outcome::Complete
        }
    }

    /// Refuses `--shard`, `--checkpoint` and `--resume` for a command
    /// that runs no parts of its own.
    fn refuse_parts(&self, command: &str) -> Result<()> {
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
    fn shard_of_enumeration(&self) -> Option<Shard> {
        self.shard_read.store(true, Ordering::Relaxed);
        self.shard
    }

    /// An exhaustive enumeration that `--shard` cuts: `work` runs it (or,
    /// with `--shard`, its part, whose counts are kept for the count
    /// file). `merge` hands back the parts' summed counts instead of
    /// running it, so that the one run's report follows from them.
    fn enumerate(
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

    fn new(global: &GlobalArgs) -> Result<Context> {
        let threads = match &global.threads {
            None => None,
            Some(text) => Some(
                text.parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=1024).contains(&n))
                    .ok_or_else(|| Error::invalid("--threads", text, "must be 1..=1024"))?,
            ),
        };
        let mut context = Context::plain(global.quiet, threads);
        context.shard = global.shard.as_deref().map(Shard::parse).transpose()?;
        context.until = until(global)?;
        if let (Some(shard), Some(_)) = (context.shard, &context.until) {
            return Err(Error::invalid(
                "--shard",
                shard,
                "cannot cut a run that stops at a precision target (where it stops depends on every chunk before): run it whole, or give the parts --trials",
            ));
        }
        let checkpoint_every = match &global.checkpoint_every {
            None => Duration::from_secs(5),
            Some(text) => text
                .parse::<f64>()
                .ok()
                .filter(|s| (0.0..=86_400.0).contains(s))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    Error::invalid("--checkpoint-every", text, "must be seconds, 0..=86400")
                })?,
        };
        if global.checkpoint_every.is_some()
            && global.checkpoint.is_none()
            && global.resume.is_none()
        {
            return Err(Error::invalid(
                "--checkpoint-every",
                global.checkpoint_every.as_deref().unwrap_or_default(),
                "says how often --checkpoint saves: give --checkpoint FILE too",
            ));
        }
        if let Some(path) = &global.checkpoint
            && path.exists()
            && global.resume.as_ref() != Some(path)
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
        if let Some(path) = &global.resume {
            let samples = checkpoint::load(path, context.shard)?;
            context.prior = Some(Prior {
                source: PriorSource::Checkpoint(path.clone()),
                samples: Mutex::new(VecDeque::from(samples)),
                enumerations: Mutex::new(VecDeque::new()),
            });
        }
        if let Some(path) = global.checkpoint.as_ref().or(global.resume.as_ref()) {
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
    fn with_threads<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T> {
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
    fn progress(&self, total: u64, message: &str, unit: &str) -> ProgressReporter {
        let visible = !self.quiet && io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            &format!("{{msg}} {{bar:40}} {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, {{rate}}, eta {{eta}}"),
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let rate = state.per_sec();
                let _ = match rate {
                    r if r >= 1e6 => write!(w, "{:.1} M/s", r / 1e6),
                    r if r >= 1e3 => write!(w, "{:.1} k/s", r / 1e3),
                    r => write!(w, "{r:.1}/s"),
                };
            },
        );
        bar.set_style(style);
        bar.set_message(message.to_string());
        ProgressReporter {
            bar,
            visible,
            started: Instant::now(),
        }
    }

    /// A note for the user on stderr, unless `--quiet`.
    fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }
}

/// `--until-halfwidth X [--for OUTCOME] [--max-trials N]`, validated.
fn until(global: &GlobalArgs) -> Result<Option<Until>> {
    let Some(text) = &global.until_halfwidth else {
        for (option, given) in [
            ("--for", &global.for_outcome),
            ("--max-trials", &global.max_trials),
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
    let (number, scale) = match text.strip_suffix('%') {
        Some(percent) => (percent, 0.01),
        None => (text.as_str(), 1.0),
    };
    let half_width = number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|x| x * scale)
        .filter(|x| *x > 0.0 && *x <= 0.5)
        .ok_or_else(|| {
            Error::invalid(
                "--until-halfwidth",
                text,
                "must be a proportion in (0, 0.5], such as 0.0005, or percentage points, such as 0.05%",
            )
        })?;
    let max_trials = match &global.max_trials {
        Some(text) => parse_count("--max-trials", text)?,
        None => DEFAULT_MAX_TRIALS,
    };
    Ok(Some(Until {
        target: PrecisionTarget {
            half_width,
            outcome: global.for_outcome.clone(),
        },
        max_trials,
    }))
}

/// The most trials `--until-halfwidth` runs unless `--max-trials` says.
const DEFAULT_MAX_TRIALS: u64 = 1_000_000_000;

/// A duration for people: `45 s`, `25 min`, `3 h`, `12 days`, `longer
/// than a century`.
fn human_seconds(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.0} h", s / 3600.0),
        s if s < 3.2e9 => format!("{:.0} days", s / 86_400.0),
        _ => "longer than a century".to_string(),
    }
}

/// The throughput line of a run: `throughput: 10,000,000 games in 5.71 s:
/// 1.75 million games/s, 876 thousand games/s per core (2 threads on 2
/// cores)`.
fn throughput(n_trials: u64, unit: &str, seconds: f64, threads: usize) -> String {
    // Three significant figures are plenty for planning.
    let figures = |x: f64| {
        let decimals = match x {
            x if x >= 100.0 => 0,
            x if x >= 10.0 => 1,
            _ => 2,
        };
        format!("{x:.decimals$}")
    };
    let rate = |per_second: f64| match per_second {
        r if r >= 1e6 => format!("{} million ", figures(r / 1e6)),
        r if r >= 1e3 => format!("{} thousand ", figures(r / 1e3)),
        r => format!("{} ", figures(r)),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Threads beyond the cores share them, so per core is per busy core.
    let busy = threads.clamp(1, cores) as f64;
    let per_second = n_trials as f64 / seconds.max(1e-9);
    format!(
        "throughput: {} {unit} in {seconds:.2} s: {}{unit}/s, {}{unit}/s per core ({threads} thread{} on {cores} core{})",
        crate::report::figures::thousands(n_trials),
        rate(per_second),
        rate(per_second / busy),
        if threads == 1 { "" } else { "s" },
        if cores == 1 { "" } else { "s" },
    )
}

/// Progress for the Monte-Carlo runner, drawn with indicatif.
struct ProgressReporter {
    bar: ProgressBar,
    visible: bool,
    started: Instant,
}

impl Progress for ProgressReporter {
    fn advance(&self, trials: u64) {
        // Short runs finish without a flicker of a bar: it appears only once
        // the run has taken a second.
        if self.visible && self.bar.is_hidden() && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.inc(trials);
    }
}

impl Drop for ProgressReporter {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// The process's peak resident memory so far, in bytes (Linux: `VmHWM`
/// in `/proc/self/status`), or `None` where that is not available.
fn peak_memory_bytes() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Where and how a command writes, validated before any work: one
/// target per `--out` (each file's format from its extension, unless
/// `--format` names one), or standard output.
pub(super) struct Outputs {
    targets: Vec<(Option<PathBuf>, Format)>,
    options: RenderOptions,
}

/// The outputs an [`OutputArgs`] asks for.
fn output_format(output: &OutputArgs, default_digits: usize) -> Result<Outputs> {
    let named = output.format.as_deref().map(Format::parse).transpose()?;
    if named.is_some() && output.out.len() > 1 {
        return Err(Error::invalid(
            "--format",
            output.format.as_deref().unwrap_or_default(),
            "cannot be given with more than one --out: each file's format comes from its extension (.md .csv .json .tex)",
        ));
    }
    let targets = if output.out.is_empty() {
        vec![(None, named.unwrap_or(Format::Table))]
    } else {
        output
            .out
            .iter()
            .map(|path| {
                let format = named.unwrap_or_else(|| format_from_extension(path));
                (Some(path.clone()), format)
            })
            .collect()
    };
    let percent_decimals = match output.digits {
        Some(digits) if digits > 12 => {
            return Err(Error::invalid("--digits", digits, "must be 0..=12"));
        }
        Some(digits) => digits,
        None => default_digits,
    };
    Ok(Outputs {
        targets,
        options: RenderOptions { percent_decimals },
    })
}

impl Outputs {
    /// Renders the result in each target's format and writes it.
    fn emit(
        &self,
        context: &Context,
        render: impl Fn(Format, &RenderOptions) -> String,
    ) -> Result<()> {
        if context.collect_only {
            // A rank of an MPI job: its counts go to rank 0, which writes.
            return check_parts_used(context);
        }
        if context.checkpointing.is_some() && context.sampled.lock().map_or(true, |s| s.is_empty())
        {
            return Err(Error::invalid(
                "--checkpoint",
                context
                    .checkpointing
                    .as_ref()
                    .map_or(String::new(), |c| c.path.display().to_string()),
                "this run samples nothing to save (an exact computation): leave --checkpoint out, and cut a long enumeration into parts with --shard",
            ));
        }
        let render = |format: Format, options: &RenderOptions| -> Result<String> {
            let text = render(format, options);
            match (format, context.precision_block()) {
                (Format::Json, Some(block)) => with_block(&text, "precision", block),
                _ => Ok(text),
            }
        };
        if let Some(shard) = context.shard {
            // A shard's JSON is its count file, for `merge`.
            let samples = context
                .sampled
                .lock()
                .map(|s| s.clone())
                .unwrap_or_default();
            let enumerations = context
                .enumerated
                .lock()
                .map(|e| e.clone())
                .unwrap_or_default();
            let counted = !samples.is_empty() || !enumerations.is_empty();
            if counted && !self.targets.iter().any(|(_, f)| *f == Format::Json) {
                context.note(&format!(
                    "note: part {shard} writes no count file to merge: add --out FILE.json"
                ));
            }
            for (path, format) in &self.targets {
                let text = render(*format, &self.options)?;
                let text = match format {
                    Format::Json if counted => {
                        merge::with_shard_block(&text, shard, &samples, &enumerations)?
                    }
                    _ => text,
                };
                emit(&text, path.as_deref(), context)?;
            }
            return Ok(());
        }
        for (path, format) in &self.targets {
            emit(&render(*format, &self.options)?, path.as_deref(), context)?;
        }
        Ok(())
    }
}

/// `report` (a JSON object) with `block` added under `key`.
fn with_block(report: &str, key: &str, block: serde_json::Value) -> Result<String> {
    let mut value: serde_json::Value = serde_json::from_str(report).map_err(|e| Error::Io {
        path: PathBuf::from("<report>"),
        source: std::io::Error::other(e),
    })?;
    if let Some(object) = value.as_object_mut() {
        object.insert(key.into(), block);
    }
    Ok(serde_json::to_string_pretty(&value).unwrap_or_default() + "\n")
}

fn format_from_extension(path: &Path) -> Format {
    match path.extension().and_then(|e| e.to_str()) {
        Some("md") => Format::Md,
        Some("csv") => Format::Csv,
        Some("json") => Format::Json,
        Some("tex") => Format::Latex,
        _ => Format::Table,
    }
}

/// Writes `text` to `path` (atomically) or to standard output.
fn emit(text: &str, path: Option<&Path>, context: &Context) -> Result<()> {
    check_parts_used(context)?;
    match path {
        Some(path) => {
            write_atomically(path, text.as_bytes())?;
            context.note(&format!("wrote {}", path.display()));
            Ok(())
        }
        None => {
            let mut stdout = io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
            {
                // A closed pipe (`deckodds ... | head`) is a normal end.
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
                    path: PathBuf::from("<stdout>"),
                    source: e,
                }),
                _ => Ok(()),
            }
        }
    }
}

/// FNV-1a, 64 bits, as `fnv1a64:` and 16 hex digits: a fingerprint for
/// spotting a changed file, not a defence against a forged one.
fn fnv1a64(bytes: &[u8]) -> String {
    // Wrapping is the hash's definition, not an overflow.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}

/// Refuses `--shard` for a command that turned out to have nothing to cut
/// (it neither sampled nor enumerated exhaustively).
fn check_parts_used(context: &Context) -> Result<()> {
    match context.shard {
        Some(shard) if !context.shard_read.load(Ordering::Relaxed) => Err(Error::invalid(
            "--shard",
            shard,
            "this command neither samples nor enumerates exhaustively, so it has no parts",
        )),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` so that the file is either complete or absent:
/// a temporary file beside it, then a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| Error::invalid("--out", path.display(), "must name a file"))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(file_name);
    temporary_name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary_name);
    let result = fs::write(&temporary, bytes).and_then(|_| fs::rename(&temporary, path));
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result.map_err(io_error)
}

/// Parses a count such as `1000000`, `1_000_000` or `1e6` for `option`,
/// which must be at least 1.
fn parse_count(option: &str, text: &str) -> Result<u64> {
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
fn parse_seed(text: &str) -> Result<u64> {
    text.trim().replace('_', "").parse().map_err(|_| {
        Error::invalid(
            "--seed",
            text,
            "must be a whole number 0..=18446744073709551615",
        )
    })
}

/// Parses a significance level in (0, 1).
fn parse_level(text: &str) -> Result<f64> {
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

/// Writes deals (game number, then the deal's ranks: the games won, or
/// the deals that can be won) to `path` under a one-line `title`.
fn save_deals(path: &str, title: &str, deals: &[(u64, Vec<u8>)], context: &Context) -> Result<()> {
    let mut text = format!("# {title}; game number, then the deal\n");
    for (number, deal) in deals {
        text.push_str(&format!("{number}: {}\n", deal_text(deal)));
    }
    write_atomically(Path::new(path), text.as_bytes())?;
    context.note(&format!("wrote {} deals to {path}", deals.len()));
    Ok(())
}

/// Parses a deal: ranks A, 2..10, J, Q, K (or 1..13, T for ten), separated
/// by spaces or commas. The error names `--deal`.
pub(super) fn parse_rank_deal(text: &str) -> Result<Vec<u8>> {
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

pub(super) fn rank_text(rank: u8) -> String {
    crate::cards::rank_name(rank).to_string()
}

pub(super) fn deal_text(deal: &[u8]) -> String {
    deal.iter()
        .map(|&r| rank_text(r))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_is_per_second_in_all_and_per_busy_core() {
        let line = throughput(10_000_000, "games", 4.0, 1);
        assert!(
            line.starts_with("throughput: 10,000,000 games in 4.00 s: 2.50 million games/s, 2.50 million games/s per core (1 thread on "),
            "{line}"
        );
        let line = throughput(3_000, "deals", 2.0, 1);
        assert!(
            line.contains(": 1.50 thousand deals/s, 1.50 thousand deals/s per core"),
            "{line}"
        );
        // Threads beyond the cores do not make more cores.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let line = throughput(600, "hands", 1.0, 64);
        assert!(
            line.contains("600 hands/s, ") && line.contains("(64 threads on "),
            "{line}"
        );
        let per_core: f64 = line
            .split("hands/s, ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|number| number.parse().ok())
            .unwrap();
        let expected = 600.0 / cores.min(64) as f64;
        assert!((per_core - expected).abs() <= expected * 0.01, "{line}");
    }

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

    #[test]
    fn atomic_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        write_atomically(&path, b"a,b\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "a,b\n");
        let entries: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(entries.len(), 1);
        let missing = dir.path().join("no-such-dir").join("x.csv");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
    }
}
