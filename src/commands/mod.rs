//! The glue between the command line and the engines: validates arguments,
//! runs engines, renders reports, draws progress, writes files.
//!
//! Architecture invariant: this is the only layer that does I/O (apart from
//! `main`, which prints errors). It computes nothing itself.

mod blackjack;
mod idiots_delight;
mod klondike;
mod merge;
mod prisoners_patience;
mod reproduce;
mod roll_call;

use std::collections::VecDeque;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::analysis::Profile;
use crate::cli::{Cli, Command, GlobalArgs, OutputArgs};
use crate::error::{Error, Result};
use crate::exact::arrangements::Shard;
use crate::montecarlo::{Progress, RunPlan};
use crate::report::{Format, RenderOptions};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let context = Context::new(&cli.global)?;
    run_in(cli, &context)
}

/// Runs a parsed command line in `context`.
fn run_in(cli: Cli, context: &Context) -> Result<()> {
    if context.shard.is_some() && !has_parts(&cli.command) {
        context.refuse_shard("this command")?;
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
    /// The sampling runs of a shard, in the order the command sampled, for
    /// its count file.
    sampled: Mutex<Vec<merge::Sample>>,
    /// `merge`: the summed tallies, handed back in order instead of
    /// sampling.
    replay: Option<Mutex<VecDeque<merge::Sample>>>,
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
            replay: None,
        }
    }

    /// Refuses `--shard` for a command that runs no parts of its own.
    fn refuse_shard(&self, command: &str) -> Result<()> {
        match self.shard {
            Some(shard) => Err(Error::invalid(
                "--shard",
                shard,
                format!(
                    "{command} has no parts (only a Monte-Carlo run or an exhaustive enumeration has): leave --shard out"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The shard of an exhaustive enumeration, if `--shard` gave one.
    fn shard_of_enumeration(&self) -> Option<Shard> {
        self.shard_read.store(true, Ordering::Relaxed);
        self.shard
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

    /// Runs the chunks of the Monte-Carlo run `plan` (all of them, or with
    /// `--shard` this part's) through `work` on the pool of `--threads`,
    /// with a progress bar, and reports the throughput on stderr (unless
    /// `--quiet`), so that users can plan the size of a run. A trial is
    /// `units_per_trial` of `unit` (a blackjack trial is a hand for each
    /// upcard).
    ///
    /// Every Monte-Carlo run of a command goes through here, in order: a
    /// shard records each tally for its count file, and `merge` hands back
    /// the summed tallies in the same order instead of sampling.
    fn sample(
        &self,
        plan: &RunPlan,
        units_per_trial: u64,
        message: &str,
        unit: &str,
        work: impl FnOnce(&ProgressReporter, Range<u64>) -> Result<Vec<u64>> + Send,
    ) -> Result<Vec<u64>> {
        self.shard_read.store(true, Ordering::Relaxed);
        if let Some(replay) = &self.replay {
            let next = replay.lock().ok().and_then(|mut queue| queue.pop_front());
            return match next {
                Some(sample) if sample.plan == *plan => Ok(sample.tally),
                _ => Err(Error::invalid(
                    "merge",
                    "the count files",
                    "do not hold the sampling runs their command makes (trials, seed or chunking differ)",
                )),
            };
        }
        let n_chunks = plan.n_chunks();
        let chunks = self
            .shard
            .map_or(0..n_chunks, |shard| shard.chunk_range(n_chunks));
        let n_trials: u64 = chunks.clone().map(|chunk| plan.chunk_trials(chunk)).sum();
        let n_units = n_trials.saturating_mul(units_per_trial);
        let progress = self.progress(n_units, message, unit);
        let started = Instant::now();
        let (tally, threads) = self.with_threads(|| {
            (
                work(&progress, chunks.clone()),
                rayon::current_num_threads(),
            )
        })?;
        let tally = tally?;
        let seconds = started.elapsed().as_secs_f64();
        drop(progress);
        self.note(&throughput(n_units, unit, seconds, threads));
        if self.shard.is_some()
            && let Ok(mut sampled) = self.sampled.lock()
        {
            sampled.push(merge::Sample {
                plan: *plan,
                chunks,
                tally: tally.clone(),
            });
        }
        Ok(tally)
    }

    /// A note for the user on stderr, unless `--quiet`.
    fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
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
        if let Some(shard) = context.shard {
            // A shard's JSON is its count file, for `merge`.
            let samples = context
                .sampled
                .lock()
                .map(|s| s.clone())
                .unwrap_or_default();
            if !samples.is_empty() && !self.targets.iter().any(|(_, f)| *f == Format::Json) {
                context.note(&format!(
                    "note: part {shard} writes no count file to merge: add --out FILE.json"
                ));
            }
            for (path, format) in &self.targets {
                let text = render(*format, &self.options);
                let text = match format {
                    Format::Json if !samples.is_empty() => {
                        merge::with_shard_block(&text, shard, &samples)?
                    }
                    _ => text,
                };
                emit(&text, path.as_deref(), context)?;
            }
            return Ok(());
        }
        for (path, format) in &self.targets {
            emit(&render(*format, &self.options), path.as_deref(), context)?;
        }
        Ok(())
    }
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
    if let Some(shard) = context.shard
        && !context.shard_read.load(Ordering::Relaxed)
    {
        return Err(Error::invalid(
            "--shard",
            shard,
            "this command neither samples nor enumerates exhaustively, so it has no parts",
        ));
    }
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

/// Writes won deals (game number, then the deal's ranks) to `path` under a
/// one-line `title`.
fn save_deals(path: &str, title: &str, deals: &[(u64, Vec<u8>)], context: &Context) -> Result<()> {
    let mut text = format!("# {title}; game number, then the deal\n");
    for (number, deal) in deals {
        text.push_str(&format!("{number}: {}\n", deal_text(deal)));
    }
    write_atomically(Path::new(path), text.as_bytes())?;
    context.note(&format!("wrote {} winning deals to {path}", deals.len()));
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
