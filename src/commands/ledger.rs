//! The ledger of a command's runs: the record of each finished sampling
//! run ([`Sample`]: its plan, the chunks run and their tally), which the
//! commands that keep or hand back counts share: a shard's count file
//! (`merge`), a checkpoint (`checkpoint`), `--mpi`'s ranks, and the runner
//! that records and replays them (`sampling`). Also here: what a record
//! names its maker by ([`program`], [`run_arguments`]) and the checksum
//! that guards it.
//!
//! It imports nothing else of `commands`, so that the commands that share
//! these records do not import one another.

use std::collections::VecDeque;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;

use crate::contract::shard::{InputFingerprint, SampleCounts};
use crate::distribution::CountDistribution;
use crate::engine::ArrangementCounts;
use crate::engine::montecarlo::RunPlan;

/// One sampling run of a command: its plan, the chunks run, and their
/// summed histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sample {
    pub plan: RunPlan,
    pub chunks: Range<u64>,
    pub tally: Vec<u64>,
}

impl Sample {
    /// The sample as a count file or a checkpoint holds it.
    pub(super) fn to_record(&self) -> SampleCounts {
        SampleCounts {
            trials: self.plan.n_trials,
            seed: self.plan.seed,
            stream: self.plan.stream,
            chunk_size: self.plan.chunk_size,
            chunks: [self.chunks.start, self.chunks.end],
            tally: self.tally.clone(),
        }
    }

    /// The sample a count file or a checkpoint holds, or `None` for a
    /// chunk size of 0 (which plans no chunk).
    pub(super) fn from_record(record: &SampleCounts) -> Option<Sample> {
        let [start, end] = record.chunks;
        Some(Sample {
            plan: RunPlan {
                n_trials: record.trials,
                seed: record.seed,
                stream: record.stream,
                chunk_size: Some(record.chunk_size).filter(|&c| c > 0)?,
            },
            chunks: start..end,
            tally: record.tally.clone(),
        })
    }

    /// Checks that the tally counts each trial of its chunks once in
    /// every distribution `outcomes` reads from it, so that summed parts
    /// give the one run's counts; the error says which distribution is
    /// off. Every sum is checked for overflow (a sum that fits covers every
    /// partial sum `outcomes` may take).
    pub(super) fn check_tally(
        &self,
        outcomes: &dyn Fn(&[u64]) -> Vec<CountDistribution>,
    ) -> std::result::Result<(), String> {
        let checked_sum = |counts: &[u64]| {
            counts
                .iter()
                .try_fold(0u64, |sum, &count| sum.checked_add(count))
        };
        let trials: u64 = self
            .chunks
            .clone()
            .map(|chunk| self.plan.chunk_trials(chunk))
            .sum();
        if checked_sum(&self.tally).is_none() {
            return Err(format!(
                "the tally of its {trials} trials overflows 64 bits"
            ));
        }
        for distribution in outcomes(&self.tally) {
            let counted = checked_sum(&distribution.counts);
            if counted != Some(trials) {
                return Err(format!(
                    "its tallies do not add up to its trials: distribution {} counts {} in chunks {}..{}, which hold {trials} trials",
                    distribution.key,
                    counted.map_or("more than 2^64".into(), |n| n.to_string()),
                    self.chunks.start,
                    self.chunks.end,
                ));
            }
        }
        Ok(())
    }
}

/// Samples already done, handed back in order instead of sampling again:
/// the summed parts of `merge`, or the counts saved in a checkpoint.
pub(super) struct Prior {
    /// Where they come from.
    pub source: PriorSource,
    /// The samples, in the order the command makes them.
    pub samples: Mutex<VecDeque<Sample>>,
    /// `merge`: the summed counts of the exhaustive enumerations, in
    /// order.
    pub enumerations: Mutex<VecDeque<ArrangementCounts>>,
    /// `merge`: each count file and its own samples, in the order of
    /// `samples` (their sums), handed back in step with them so that each
    /// part's tallies are checked against the distributions the command
    /// reads, and a bad part is named. Empty otherwise.
    pub parts: Vec<(PathBuf, Mutex<VecDeque<Sample>>)>,
    /// The files that decided the counts, as the checkpoint or the parts
    /// recorded them: the run handed these counts must read the same.
    pub inputs: Vec<InputFingerprint>,
}

/// Where samples done before come from.
pub(super) enum PriorSource {
    /// `merge`'s summed parts: every sampling run of the command, whole.
    Merge,
    /// A checkpoint (this path): the sampling runs begun before it was
    /// saved, the last one perhaps partly done.
    Checkpoint(PathBuf),
}

/// The program, as count files and checkpoints name it.
pub(super) fn program() -> String {
    format!("deckodds {}", env!("CARGO_PKG_VERSION"))
}

/// The command line of this process without the options that say only
/// where and how to write or how many threads to use (`--out`, `--format`,
/// `--digits`, `--threads`, `--quiet`), without `--shard`, and without
/// the checkpoint's options: what the shards of one run share, and what a
/// resumed run must repeat.
pub(super) fn run_arguments() -> Vec<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let with_value = [
        "--shard",
        "--out",
        "--format",
        "--digits",
        "--threads",
        "--checkpoint",
        "--resume",
        "--checkpoint-every",
    ];
    let mut kept = Vec::new();
    let mut skip_next = false;
    for arg in args {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        if with_value.contains(&arg.as_str()) {
            skip_next = true;
        } else if !(arg == "--quiet"
            || arg == "-q"
            || with_value
                .iter()
                .any(|option| arg.starts_with(&format!("{option}="))))
        {
            kept.push(arg);
        }
    }
    kept
}

/// The fingerprint of the file at `path`, which `option` names, or `None`
/// if it cannot be read (its reader then says why): FNV-1a of its bytes
/// after a UTF-8 byte-order mark, which a reader skips.
pub(super) fn fingerprint(option: &str, path: &Path) -> Option<InputFingerprint> {
    let bytes = std::fs::read(path).ok()?;
    let contents = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    Some(InputFingerprint {
        option: option.to_string(),
        path: path.display().to_string(),
        contents: fnv1a64(contents),
    })
}

/// Refuses to hand counts recorded with the file fingerprints `recorded`
/// (`since` when: "the checkpoint FILE was saved") to a run that reads
/// `now`: the first file whose contents differ, or that the record lacks,
/// named by its option and path, with what to do (`instead`: "delete the
/// checkpoint and run afresh").
pub(super) fn check_inputs(
    recorded: &[InputFingerprint],
    now: &[InputFingerprint],
    since: &str,
    instead: &str,
) -> std::result::Result<(), crate::error::Error> {
    for input in now {
        let same = recorded
            .iter()
            .find(|r| r.option == input.option && r.path == input.path);
        match same {
            Some(recorded) if recorded.contents == input.contents => {}
            Some(_) => {
                return Err(crate::error::Error::invalid(
                    &input.option,
                    &input.path,
                    format!(
                        "the file changed since {since} (its contents are not those the counts were made with): restore it as it was, or {instead}"
                    ),
                ));
            }
            None => {
                return Err(crate::error::Error::invalid(
                    &input.option,
                    &input.path,
                    format!(
                        "{since} without a record of this file's contents (by a deckodds that kept none), so they cannot be checked: {instead}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The checksum of a checkpoint (or a count file's `"shard"` block)
/// without its checksum: FNV-1a of the compact JSON of the typed body,
/// which is the file's own text up to whitespace when the file is as
/// written.
pub(super) fn checksum(body: &impl Serialize) -> String {
    // Serialising a contract type cannot fail (string keys, finite
    // integers); an empty text would only make the checksum not match.
    fnv1a64(serde_json::to_string(body).unwrap_or_default().as_bytes())
}

/// FNV-1a, 64 bits, as `fnv1a64:` and 16 hex digits: a fingerprint for
/// spotting a changed file, not a defence against a forged one.
pub(super) fn fnv1a64(bytes: &[u8]) -> String {
    // Wrapping is the hash's definition, not an overflow.
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}
