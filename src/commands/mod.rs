//! The glue between the command line and the engines: validates arguments,
//! runs engines, renders reports, draws progress, writes files.
//!
//! Architecture invariant: this is the only layer that does I/O (apart from
//! `main`, which prints errors). It computes nothing itself.

mod blackjack;
mod checkpoint;
mod docs;
mod files;
mod idiots_delight;
mod klondike;
mod ledger;
mod merge;
#[cfg(feature = "mpi")]
mod mpi_ranks;
mod prisoners_patience;
mod reproduce;
mod roll_call;
mod sampling;

use std::collections::VecDeque;
use std::fs;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::analysis::Profile;
use crate::cli::{Cli, Command, GlobalArgs, LongRunArgs, OutputArgs, PrecisionArgs};
use crate::engine::ArrangementCounts;
use crate::engine::Progress;
use crate::engine::Shard;
use crate::engine::precision::PrecisionTarget;
use crate::error::{Error, Result};
use crate::report::{Format, RenderOptions};
use checkpoint::Checkpointing;
use files::{Destination, write_atomically};
use ledger::{Prior, PriorSource};
use sampling::Until;

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
    run_at_top(cli, true)
}

/// Runs a parsed command line inside another command (`reproduce`): the
/// same work and output, without hints about the command line, which is
/// not the user's.
fn run_nested(cli: Cli) -> Result<Outcome> {
    run_at_top(cli, false)
}

fn run_at_top(cli: Cli, top_level: bool) -> Result<Outcome> {
    let long_runs = cli.command.long_run_args();
    if long_runs.run.mpi {
        return run_mpi(cli, &long_runs).map(|()| Outcome::Complete);
    }
    let mut context = Context::new(&cli.global, &long_runs)?;
    context.top_level = top_level;
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
    Ok(context.outcome())
}

/// `--mpi`: this process is one rank of an MPI job.
#[cfg(feature = "mpi")]
fn run_mpi(cli: Cli, long_runs: &LongRunArgs) -> Result<()> {
    mpi_ranks::run(cli, long_runs)
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
    check_files(&cli)?;
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
        Command::Rules { game } => docs::rules(game.as_deref(), context),
        Command::Completions { shell } => docs::completions(&shell, context),
        Command::Man { out } => docs::man(out.as_deref(), context),
    }
}

/// What a command's report can be written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writes {
    /// Every format, and the chart.
    Everything,
    /// Every format but the chart: the command (named) draws none.
    NoChart(&'static str),
    /// Only text (the terminal table's place: `.txt`, or standard
    /// output): the command (named) writes a readable text and nothing
    /// else.
    TextOnly(&'static str),
}

/// Checks the files a command line writes and reads, before it runs (see
/// [`files::check_before_run`]): also that each output's format is known
/// and one the command writes (a chart only from a command that draws
/// one), so that a long run does not end in an error it could have had
/// at once.
fn check_files(cli: &Cli) -> Result<()> {
    use crate::cli::{
        BlackjackCommand as B, IdiotsDelightCommand as I, KlondikeCommand as K,
        PrisonersCommand as P, RollCallCommand as R,
    };
    let mut plan = files::Plan::default();
    let named = |option: &'static str, path: &Path| files::NamedPath {
        option,
        path: path.to_path_buf(),
    };
    let long_runs = cli.command.long_run_args();
    let run = &long_runs.run;
    if let Some(path) = run.checkpoint.as_ref().or(run.resume.as_ref()) {
        let option = if run.checkpoint.is_some() {
            "--checkpoint"
        } else {
            "--resume"
        };
        plan.outputs.push(named(option, path));
    }
    if let Some(path) = &run.resume {
        plan.inputs.push(named("--resume", path));
    }
    let report: Option<(&OutputArgs, Writes)> = match &cli.command {
        Command::Blackjack(B::Exact { output, .. } | B::Mc { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::Blackjack(B::Compare {
            published,
            hands,
            hands_per_row,
            output,
            ..
        }) => {
            if let Some(path) = published {
                plan.inputs.push(named("--published", path));
            }
            // A table checked as exact has no z-scores to plot.
            let exact_check = published.is_some() && hands.is_none() && hands_per_row.is_none();
            Some((
                output,
                if exact_check {
                    Writes::NoChart("blackjack compare --published without --hands")
                } else {
                    Writes::Everything
                },
            ))
        }
        Command::Blackjack(B::Eor { output, .. }) => {
            Some((output, Writes::NoChart("blackjack eor")))
        }
        Command::IdiotsDelight(I::Exact { output, .. } | I::Mc { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::IdiotsDelight(I::Compare {
            published,
            chart,
            output,
            ..
        }) => {
            if let Some(path) = published.as_deref().filter(|source| *source != "sas") {
                plan.inputs.push(named("--published", Path::new(path)));
            }
            if let Some(path) = chart {
                let is_svg = path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
                if !is_svg && Destination::of(path) != Destination::Stdout {
                    return Err(Error::invalid(
                        "--chart",
                        path.display(),
                        "the chart is SVG: name the file .svg",
                    ));
                }
                plan.outputs.push(named("--chart", path));
            }
            Some((output, Writes::Everything))
        }
        Command::IdiotsDelight(I::Power { output, .. }) => {
            Some((output, Writes::NoChart("idiots-delight power")))
        }
        Command::RollCall(R::Mc {
            save_wins, output, ..
        })
        | Command::PrisonersPatience(P::Mc {
            save_wins, output, ..
        }) => {
            if let Some([_, path]) = save_wins.as_deref() {
                plan.outputs.push(named("--save-wins", Path::new(path)));
            }
            Some((output, Writes::Everything))
        }
        Command::RollCall(
            R::Exact { output, .. } | R::Compare { output, .. } | R::FirstPass { output, .. },
        )
        | Command::PrisonersPatience(P::Exact { output, .. } | P::Compare { output, .. }) => {
            Some((output, Writes::Everything))
        }
        Command::PrisonersPatience(P::Solve { deal, output, .. }) => Some((
            output,
            if deal.is_some() {
                Writes::TextOnly("prisoners-patience solve --deal")
            } else {
                Writes::Everything
            },
        )),
        Command::Klondike(K::Mc { output, .. }) => Some((output, Writes::Everything)),
        Command::Klondike(K::Record { out, .. }) => {
            if let Some(path) = out {
                text_only(path, "klondike record")?;
                plan.outputs.push(named("--out", path));
            }
            None
        }
        Command::Merge { files, output } => {
            plan.inputs
                .extend(files.iter().map(|path| named("merge", path)));
            // The chart is checked when the parts' command runs again.
            Some((output, Writes::Everything))
        }
        Command::RollCall(R::Replay { .. } | R::LongestZeroStrike { .. })
        | Command::PrisonersPatience(P::Replay { .. })
        | Command::Reproduce { .. }
        | Command::Rules { .. }
        | Command::Completions { .. }
        | Command::Man { .. } => None,
    };
    if let Some((output, writes)) = report {
        let outputs = output_format(output, 0)?;
        for (destination, rendering) in &outputs.targets {
            let (option, value) = match destination {
                Destination::File(path) => ("--out", path.display().to_string()),
                Destination::Stdout => ("--format", output.format.clone().unwrap_or_default()),
            };
            match (writes, rendering) {
                (Writes::NoChart(command), Rendering::Chart) => {
                    return Err(Error::invalid(
                        option,
                        value,
                        format!(
                            "{command} draws no chart: name the file .md .csv .json .tex or .txt"
                        ),
                    ));
                }
                (Writes::TextOnly(command), rendering)
                    if *rendering != Rendering::Text(Format::Table) =>
                {
                    let instead = match destination {
                        Destination::File(_) => "name the file .txt",
                        Destination::Stdout => "leave --format out",
                    };
                    return Err(Error::invalid(
                        option,
                        value,
                        format!("{command} writes readable text only: {instead}"),
                    ));
                }
                _ => {}
            }
        }
        plan.outputs
            .extend(output.out.iter().map(|path| named("--out", path)));
    }
    plan.report_on_stdout = !plan.outputs.iter().any(|o| o.option == "--out");
    files::check_before_run(&plan)
}

/// Checks that `path` names a text file (`.txt`, or `-`) for `command`,
/// which writes readable text only.
fn text_only(path: &Path, command: &str) -> Result<()> {
    let is_text = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    if is_text || Destination::of(path) == Destination::Stdout {
        return Ok(());
    }
    Err(Error::invalid(
        "--out",
        path.display(),
        format!("{command} writes readable text only: name the file .txt"),
    ))
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
    sampled: Mutex<Vec<ledger::Sample>>,
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

    fn new(global: &GlobalArgs, long_runs: &LongRunArgs) -> Result<Context> {
        let run = &long_runs.run;
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
        context.shard = run.parts.shard.as_deref().map(Shard::parse).transpose()?;
        context.until = until(&long_runs.precision)?;
        if let (Some(shard), Some(_)) = (context.shard, &context.until) {
            return Err(Error::invalid(
                "--shard",
                shard,
                "cannot cut a run that stops at a precision target (where it stops depends on every chunk before): run it whole, or give the parts --trials",
            ));
        }
        let checkpoint_every = match &run.checkpoint_every {
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
        if run.checkpoint_every.is_some() && run.checkpoint.is_none() && run.resume.is_none() {
            return Err(Error::invalid(
                "--checkpoint-every",
                run.checkpoint_every.as_deref().unwrap_or_default(),
                "says how often --checkpoint saves: give --checkpoint FILE too",
            ));
        }
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
            let samples = checkpoint::load(path, context.shard)?;
            context.prior = Some(Prior {
                source: PriorSource::Checkpoint(path.clone()),
                samples: Mutex::new(VecDeque::from(samples)),
                enumerations: Mutex::new(VecDeque::new()),
                parts: Vec::new(),
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
fn until(precision: &PrecisionArgs) -> Result<Option<Until>> {
    let Some(text) = &precision.until_halfwidth else {
        for (option, given) in [
            ("--for", &precision.for_outcome),
            ("--max-trials", &precision.max_trials),
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
    let max_trials = match &precision.max_trials {
        Some(text) => parse_count("--max-trials", text)?,
        None => DEFAULT_MAX_TRIALS,
    };
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

/// What one output holds: a rendering of the result, or its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rendering {
    /// The result in a text format (the terminal table, md, csv, json,
    /// latex).
    Text(Format),
    /// The chart of the result: SVG drawn from its JSON by
    /// [`crate::report::figures::svg_for_report`], as `reproduce` draws it.
    Chart,
}

/// The file extensions `--out` knows, for errors.
const EXTENSIONS: &str = ".md .csv .json .tex .txt (the terminal table) or .svg (the chart)";

impl Rendering {
    /// The rendering `--format` names: a format of [`Format::parse`], or
    /// `svg`.
    fn parse(text: &str) -> Result<Rendering> {
        if text == "svg" {
            return Ok(Rendering::Chart);
        }
        Format::parse(text).map(Rendering::Text).map_err(|_| {
            Error::invalid(
                "--format",
                text,
                format!("must be one of {}, svg", Format::NAMES),
            )
        })
    }

    /// The rendering a file's extension names (in any case); an unknown
    /// extension, or none, is an error naming the known ones.
    fn of_extension(path: &Path) -> Result<Rendering> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        Ok(Rendering::Text(match extension.as_deref() {
            Some("md") => Format::Md,
            Some("csv") => Format::Csv,
            Some("json") => Format::Json,
            Some("tex") => Format::Latex,
            Some("txt") => Format::Table,
            Some("svg") => return Ok(Rendering::Chart),
            other => {
                let what = match other {
                    Some(other) => format!("unknown extension .{other}"),
                    None => "no extension to tell the format".to_string(),
                };
                return Err(Error::invalid(
                    "--out",
                    path.display(),
                    format!("{what}: name the file {EXTENSIONS}, or give --format"),
                ));
            }
        }))
    }
}

/// Where and how a command writes, validated before any work: one
/// target per `--out` (each file's format from its extension, unless
/// `--format` names one; `-` is standard output), or standard output.
pub(super) struct Outputs {
    targets: Vec<(Destination, Rendering)>,
    options: RenderOptions,
}

/// The outputs an [`OutputArgs`] asks for.
fn output_format(output: &OutputArgs, default_digits: usize) -> Result<Outputs> {
    let named = output.format.as_deref().map(Rendering::parse).transpose()?;
    if named.is_some() && output.out.len() > 1 {
        return Err(Error::invalid(
            "--format",
            output.format.as_deref().unwrap_or_default(),
            format!(
                "cannot be given with more than one --out: each file's format comes from its extension ({EXTENSIONS})"
            ),
        ));
    }
    let targets = if output.out.is_empty() {
        vec![(
            Destination::Stdout,
            named.unwrap_or(Rendering::Text(Format::Table)),
        )]
    } else {
        output
            .out
            .iter()
            .map(|path| {
                let destination = Destination::of(path);
                let rendering = match (named, &destination) {
                    (Some(named), _) => named,
                    (None, Destination::Stdout) => Rendering::Text(Format::Table),
                    (None, Destination::File(_)) => Rendering::of_extension(path)?,
                };
                Ok((destination, rendering))
            })
            .collect::<Result<_>>()?
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
    /// Renders the result in each target's format (a chart from its JSON)
    /// and writes it. Every target is rendered before any is written, so
    /// that an error in one leaves none written.
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
        check_parts_used(context)?;
        let render = |format: Format| -> Result<String> {
            let text = render(format, &self.options);
            match (format, context.precision_block()) {
                (Format::Json, Some(block)) => with_block(&text, "precision", block),
                _ => Ok(text),
            }
        };
        // A shard's JSON is its count file, for `merge`.
        let shard_block = match context.shard {
            Some(shard) => {
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
                let json = Rendering::Text(Format::Json);
                if counted && !self.targets.iter().any(|(_, r)| *r == json) {
                    context.note(&format!(
                        "note: part {shard} writes no count file to merge: add --out FILE.json"
                    ));
                }
                counted.then_some((shard, samples, enumerations))
            }
            None => None,
        };
        let mut rendered = Vec::with_capacity(self.targets.len());
        for (destination, rendering) in &self.targets {
            let text = match rendering {
                Rendering::Text(Format::Json) => match &shard_block {
                    Some((shard, samples, enumerations)) => merge::with_shard_block(
                        &render(Format::Json)?,
                        *shard,
                        samples,
                        enumerations,
                    )?,
                    None => render(Format::Json)?,
                },
                Rendering::Text(format) => render(*format)?,
                Rendering::Chart => chart(&render(Format::Json)?, destination)?,
            };
            rendered.push((destination, text));
        }
        for (destination, text) in rendered {
            write_to(destination, text.as_bytes(), context)?;
        }
        Ok(())
    }
}

/// The chart of a report's JSON, for `destination`.
fn chart(json: &str, destination: &Destination) -> Result<String> {
    let report: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::Io {
        path: PathBuf::from("<report>"),
        source: std::io::Error::other(e),
    })?;
    crate::report::figures::svg_for_report(&report).map_err(|e| {
        let (option, value) = match destination {
            Destination::Stdout => ("--format", "svg".to_string()),
            Destination::File(path) => ("--out", path.display().to_string()),
        };
        Error::invalid(option, value, format!("this report has no chart: {e}"))
    })
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

/// Writes `text` to `path` (`-`, or no path: standard output).
fn emit(text: &str, path: Option<&Path>, context: &Context) -> Result<()> {
    check_parts_used(context)?;
    let destination = path.map_or(Destination::Stdout, Destination::of);
    write_to(&destination, text.as_bytes(), context)
}

/// Writes `bytes` to `destination`, a file saying so (unless `--quiet`).
fn write_to(destination: &Destination, bytes: &[u8], context: &Context) -> Result<()> {
    match destination {
        Destination::Stdout => files::write_stdout(bytes),
        Destination::File(path) => {
            write_atomically(path, bytes)?;
            context.note(&format!("wrote {}", path.display()));
            Ok(())
        }
    }
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

/// Writes deals (game number, then the deal's ranks: the games won, or
/// the deals that can be won) to `path` (`-`: standard output) under a
/// one-line `title`.
fn save_deals(path: &str, title: &str, deals: &[(u64, Vec<u8>)], context: &Context) -> Result<()> {
    let mut text = format!("# {title}; game number, then the deal\n");
    for (number, deal) in deals {
        text.push_str(&format!("{number}: {}\n", deal_text(deal)));
    }
    match Destination::of(Path::new(path)) {
        Destination::Stdout => files::write_stdout(text.as_bytes()),
        Destination::File(file) => {
            write_atomically(&file, text.as_bytes())?;
            context.note(&format!("wrote {} deals to {path}", deals.len()));
            Ok(())
        }
    }
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
}
