//! Checkpoints: a Monte-Carlo run that survives interruption
//! (`--checkpoint FILE`, `--resume FILE`).
//!
//! A checkpoint is the counts of the chunks done so far, in the layout of
//! a count file's samples (see `merge`): for each sampling run of the
//! command, its plan, the chunks done (always a prefix of its chunks, or of
//! its part's with `--shard`) and their tally. It also names the command
//! line, the program and the part, and carries a checksum, so that a file
//! damaged or edited, or one saved by another run, is refused rather than
//! used. Resuming runs the chunks still missing and adds them to the saved
//! tallies: integer addition, so the counts are exactly those of a run
//! never interrupted.
//!
//! SIGINT and SIGTERM set a flag (see [`catch_interrupts`]); the runner
//! starts no new chunk once it is set, lets the chunks in flight finish,
//! saves, and stops with [`Error::Interrupted`].

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;
use serde_json::Value;

use super::ledger::{Sample, checksum, program, run_arguments};
use crate::contract::shard::InputFingerprint;
use crate::contract::{self, Tag, checkpoint::Checkpoint};
use crate::engine::Shard;
use crate::error::{Error, Result};

/// Marks a checkpoint, and its layout's version.
const FORMAT: &str = "deckodds checkpoint 1";

/// Set by SIGINT or SIGTERM once [`catch_interrupts`] has run.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether SIGINT or SIGTERM has asked the run to stop.
pub(super) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Asks the run to stop, as a signal would (the test hook
/// `DECKODDS_INTERRUPT_AFTER_CHUNKS` uses it).
pub(super) fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Set once a run with a checkpoint catches signals (see
/// [`catch_interrupts`]).
static SAVING: AtomicBool = AtomicBool::new(false);

/// Whether `--quiet` keeps the handler's note to itself.
static QUIET: AtomicBool = AtomicBool::new(false);

/// What to say, for a sampling run without a checkpoint under way, when a
/// signal stops it (see [`say_if_interrupted`]).
type LostRunNote = Box<dyn Fn() + Send>;

/// The note of the sampling run under way without a checkpoint, if any.
static LOST_RUN_NOTE: Mutex<Option<LostRunNote>> = Mutex::new(None);

/// From now on, SIGINT and SIGTERM ask the run to stop at the next chunk
/// instead of killing it; a second signal kills it at once, unsaved.
/// Installed only for runs with a checkpoint: without one, Ctrl-C stops a
/// run at once, as users expect (see [`say_if_interrupted`]).
pub(super) fn catch_interrupts(quiet: bool) -> Result<()> {
    QUIET.store(quiet, Ordering::Relaxed);
    SAVING.store(true, Ordering::Relaxed);
    install_handler().map_err(|e| Error::invalid("--checkpoint", "(signal handler)", e))
}

/// Until the returned guard is dropped, SIGINT and SIGTERM stop this run
/// without a checkpoint at once, as they would without a handler, but
/// first run `note` (one line on stderr: what was done, that nothing is
/// kept, and how to make the run resumable), and exit with status 130.
/// If no handler can be installed (a caller of the library has its own),
/// the signals keep their own effect and say nothing.
pub(super) fn say_if_interrupted(note: LostRunNote) -> LostRunGuard {
    if let Ok(mut slot) = LOST_RUN_NOTE.lock() {
        *slot = Some(note);
    }
    let _ = install_handler();
    LostRunGuard
}

/// Clears the note of [`say_if_interrupted`] when dropped: the run it
/// spoke of is over.
pub(super) struct LostRunGuard;

impl Drop for LostRunGuard {
    fn drop(&mut self) {
        if let Ok(mut slot) = LOST_RUN_NOTE.lock() {
            *slot = None;
        }
    }
}

/// The one signal handler (a process has one): a run with a checkpoint
/// stops at the next chunk and saves; any other stops at once, saying
/// what it lost if it is a sampling run.
fn install_handler() -> std::result::Result<(), String> {
    static INSTALLED: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(move || {
                if !SAVING.load(Ordering::Relaxed) {
                    if let Ok(slot) = LOST_RUN_NOTE.lock()
                        && let Some(note) = slot.as_ref()
                    {
                        note();
                    }
                    std::process::exit(130);
                }
                if INTERRUPTED.swap(true, Ordering::Relaxed) {
                    eprintln!("interrupted again: stopping at once, without saving");
                    std::process::exit(130);
                }
                if !QUIET.load(Ordering::Relaxed) {
                    eprintln!(
                        "interrupt: finishing the chunks in flight, then saving the checkpoint (interrupt again to stop at once, unsaved)"
                    );
                }
            })
            .map_err(|e| e.to_string())
        })
        .clone()
}

/// A checkpoint of the samples done so far, made with the files
/// `inputs`, sealed with its checksum.
fn sealed(part: Option<Shard>, inputs: Vec<InputFingerprint>, samples: &[Sample]) -> Checkpoint {
    let mut checkpoint = Checkpoint {
        schema: Tag::new(),
        format: FORMAT.into(),
        program: program(),
        command: run_arguments(),
        part: part.map(|shard| shard.to_string()),
        inputs,
        samples: samples.iter().map(Sample::to_record).collect(),
        checksum: None,
    };
    checkpoint.checksum = Some(checksum(&checkpoint));
    checkpoint
}

/// Saves the samples done so far (the last one possibly partial) to `path`,
/// atomically and durably: the file is always a whole checkpoint, old or
/// new, even after a crash of the machine (it is synced to disk before it
/// replaces the old one, and the directory after).
pub(super) fn save(
    path: &Path,
    part: Option<Shard>,
    inputs: Vec<InputFingerprint>,
    samples: &[Sample],
) -> Result<()> {
    let text = contract::write(&sealed(part, inputs, samples)) + "\n";
    super::files::write_durably(path, text.as_bytes())
}

/// Reads the checkpoint at `path` for a run of this command line as part
/// `part`, refusing a damaged file and one saved by another run: its
/// samples, and the fingerprints of the files they were made with (which
/// the run checks once it knows its own, see
/// `Context::fingerprint_inputs`).
pub(super) fn load(
    path: &Path,
    part: Option<Shard>,
) -> Result<(Vec<Sample>, Vec<InputFingerprint>)> {
    let refuse = |message: String| Error::BadInputFile {
        path: path.to_path_buf(),
        message,
    };
    if !path.exists() {
        return Err(Error::invalid(
            "--resume",
            path.display(),
            "no such checkpoint (a run removes its checkpoint when it completes): name the file --checkpoint wrote",
        ));
    }
    let text = super::files::read_user_text(path, "a checkpoint (the JSON --checkpoint writes)")?;
    parse(&text, &run_arguments(), part).map_err(refuse)
}

/// Checks the text of a checkpoint as `--resume` does for a run of
/// `command` (its words after `deckodds`, as [`run_arguments`] gives them)
/// run whole: a one-line message for whatever is wrong. Public for the
/// tests that feed it damaged checkpoints.
pub fn check(text: &str, command: &[String]) -> std::result::Result<(), String> {
    parse(text, command, None).map(drop)
}

/// The samples saved in the checkpoint `text`, for a run of `command` as
/// part `part`, and the fingerprints of the files they were made with; or
/// what is wrong, in one line.
fn parse(
    text: &str,
    command_now: &[String],
    part: Option<Shard>,
) -> std::result::Result<(Vec<Sample>, Vec<InputFingerprint>), String> {
    let corrupt = |what: &str| {
        format!("damaged checkpoint ({what}): refused; delete it and run afresh with --checkpoint")
    };
    // What the file says it is, read leniently first, so that another
    // kind of file is named as such rather than by its first unknown
    // field.
    let mark: Mark = serde_json::from_str(text).map_err(|e| corrupt(&format!("{e}")))?;
    if mark.format.as_ref().and_then(Value::as_str) != Some(FORMAT) {
        return Err("not a checkpoint (--resume takes a file written by --checkpoint)".into());
    }
    if mark.schema.is_none() {
        return Err(
            "a checkpoint of an older layout, without its \"schema\": refused; delete it and run afresh with --checkpoint"
                .into(),
        );
    }
    let mut checkpoint: Checkpoint = contract::read(text).map_err(|e| corrupt(&e.to_string()))?;
    let saved_sum = checkpoint
        .checksum
        .take()
        .ok_or_else(|| corrupt("no checksum"))?;
    if saved_sum != checksum(&checkpoint) {
        return Err(corrupt("its checksum does not match its contents"));
    }
    if checkpoint.program != program() {
        return Err(format!(
            "saved by {}, and this is {}: resume with the program that saved it",
            checkpoint.program,
            program()
        ));
    }
    if checkpoint.command != command_now {
        return Err(format!(
            "a checkpoint of another run: `deckodds {}`; resume it with that command line",
            checkpoint.command.join(" ")
        ));
    }
    if checkpoint.part != part.map(|shard| shard.to_string()) {
        return Err(format!(
            "a checkpoint of {}, and this run is {}: give the same --shard",
            checkpoint
                .part
                .map_or("a whole run".into(), |p| format!("part {p}")),
            part.map_or("whole".into(), |p| format!("part {p}"))
        ));
    }
    let samples = checkpoint
        .samples
        .iter()
        .map(Sample::from_record)
        .collect::<Option<Vec<Sample>>>()
        .ok_or_else(|| corrupt("its samples"))?;
    Ok((samples, checkpoint.inputs))
}

/// The marks of a file given to `--resume`, whatever else it holds.
#[derive(Deserialize)]
struct Mark {
    #[serde(default)]
    format: Option<Value>,
    #[serde(default)]
    schema: Option<Value>,
}

/// The command line that resumes this run from `path`: this process's,
/// with `--checkpoint`/`--resume` replaced by `--resume PATH` at the end
/// (where the command's own options go).
pub(super) fn resume_command(path: &Path) -> String {
    command_with("--resume", path)
}

/// This process's command line with `--checkpoint`/`--resume` replaced by
/// `option PATH` at the end, where the command's own options go
/// (`--checkpoint FILE`: the same run, made resumable).
pub(super) fn command_with(option: &str, path: &Path) -> String {
    let mut words = vec!["deckodds".to_string()];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--checkpoint" || arg == "--resume" {
            args.next();
        } else if !(arg.starts_with("--checkpoint=") || arg.starts_with("--resume=")) {
            words.push(quoted(&arg));
        }
    }
    words.extend([option.into(), quoted(&path.display().to_string())]);
    words.join(" ")
}

/// `word` as a POSIX shell reads it back.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,%+@".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Where a run saves its checkpoint, and how often.
pub(super) struct Checkpointing {
    /// The file.
    pub path: PathBuf,
    /// The time between saves.
    pub every: std::time::Duration,
    /// When it last saved (or the run began).
    pub last_saved: std::sync::Mutex<std::time::Instant>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_the_shell_needs_it() {
        assert_eq!(quoted("--trials"), "--trials");
        assert_eq!(quoted("out/x.json"), "out/x.json");
        assert_eq!(quoted("a b"), "'a b'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }
}
