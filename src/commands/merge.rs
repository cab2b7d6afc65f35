//! Shards and `deckodds merge`: a Monte-Carlo run or an exhaustive
//! enumeration cut into parts that run anywhere (`--shard k/n`), each
//! writing a count file, summed afterwards into exactly the one run's
//! output.
//!
//! A shard runs the chunks [`Shard::chunk_range`] gives it of every
//! sampling run of its command (or its share of the arrangements of an
//! exhaustive enumeration), and its JSON output carries a `"shard"` block:
//! the command line (without the options that only say where and how to
//! write), the program version, the part, for each sampling run its plan
//! (trials, seed, stream, chunk size), its chunk range and its tally, and
//! for each enumeration its counts of arrangements (decimal strings), and
//! last a checksum of the rest of the block. `merge` checks each file (its
//! checksum; each tally counts every trial of its chunks once in each
//! distribution the command reads, each enumeration's counts add up to a
//! whole number of its totals), checks that the files belong together (same command, program
//! and plans; parts `0..n` each exactly once), sums the counts, and runs
//! the command line again with the sums handed back in place of sampling
//! or enumerating, so every figure derived from the counts (intervals,
//! means, money, comparisons, exact fractions) is the one run's, byte for
//! byte.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use clap::Parser;
use serde::Deserialize;
use serde_json::Value;

use super::context::{Context, RunIn};
use super::files::read_user_text;
use super::ledger::{Prior, PriorSource, Sample, checksum, program, run_arguments};
use crate::cli::{Cli, OutputArgs};
use crate::contract::shard::{CountFile, EnumerationCounts, InputFingerprint, ShardBlock};
use crate::contract::{self, Tag};
use crate::engine::ArrangementCounts;
use crate::engine::Shard;
use crate::error::{Error, Result};
use num_bigint::BigUint;

/// Marks a count file, and its layout's version (2: with a checksum).
const FORMAT: &str = "deckodds shard count file 2";

/// The mark of count files written before they carried a checksum.
const FORMAT_WITHOUT_CHECKSUM: &str = "deckodds shard count file 1";

/// The `"shard"` block of part `shard`'s JSON output, which makes it a
/// count file: the samples and enumerations it counted, under the command
/// line, program and part that made them, and a checksum of the rest.
pub(super) fn shard_block(
    shard: Shard,
    inputs: Vec<InputFingerprint>,
    samples: &[Sample],
    enumerations: &[ArrangementCounts],
) -> ShardBlock {
    let mut block = ShardBlock {
        schema: Tag::new(),
        format: FORMAT.into(),
        program: program(),
        command: run_arguments(),
        part: shard.to_string(),
        inputs,
        samples: samples.iter().map(Sample::to_record).collect(),
        enumerations: enumerations
            .iter()
            .map(|counts| EnumerationCounts {
                counts: counts.counts.iter().map(BigUint::to_string).collect(),
                total: counts.total.to_string(),
            })
            .collect(),
        checksum: None,
    };
    // Last, so that reading it back and leaving it out gives the block as
    // it was summed.
    block.checksum = Some(checksum(&block));
    block
}

/// One exhaustive enumeration's counts, from their decimal strings.
fn enumeration_from_record(record: &EnumerationCounts) -> Option<ArrangementCounts> {
    let big = |text: &String| text.parse::<BigUint>().ok();
    Some(ArrangementCounts {
        counts: record.counts.iter().map(big).collect::<Option<_>>()?,
        total: big(&record.total)?,
    })
}

/// The marks of a file given to `merge`, whatever else it holds.
#[derive(Deserialize)]
struct Layout {
    #[serde(default)]
    shard: Option<BlockMarks>,
}

/// The marks of a `"shard"` block, whatever else it holds.
#[derive(Deserialize)]
struct BlockMarks {
    #[serde(default)]
    format: Option<Value>,
    #[serde(default)]
    schema: Option<Value>,
}

/// One count file, read and checked on its own.
struct Part {
    path: PathBuf,
    command: Vec<String>,
    inputs: Vec<InputFingerprint>,
    shard: Shard,
    samples: Vec<Sample>,
    enumerations: Vec<ArrangementCounts>,
}

/// The whole run, summed from its parts.
struct Summed {
    command: Vec<String>,
    inputs: Vec<InputFingerprint>,
    samples: Vec<Sample>,
    enumerations: Vec<ArrangementCounts>,
}

fn read_part(path: &Path) -> Result<Part> {
    let text = read_user_text(
        path,
        "a count file (the JSON a part writes with --shard k/n --out FILE.json)",
    )?;
    parse_part(path, &text).map_err(|message| Error::BadInputFile {
        path: path.to_path_buf(),
        message,
    })
}

/// Checks the text of a count file as `merge` reads it: a one-line message
/// for whatever is wrong. Public for the tests that feed it damaged count
/// files.
pub fn check(text: &str) -> std::result::Result<(), String> {
    parse_part(Path::new("count file"), text).map(drop)
}

/// The part that the count file at `path`, whose text is `text`, holds;
/// or what is wrong, in one line.
fn parse_part(path: &Path, text: &str) -> std::result::Result<Part, String> {
    // What the file says it is, read leniently first, so that a report
    // without a block, or a block of an older layout, is named as such
    // rather than by a missing field.
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("not a count file: not JSON ({e})"))?;
    let marks = Layout::deserialize(&value)
        .ok()
        .and_then(|layout| layout.shard);
    let format = marks
        .as_ref()
        .and_then(|block| block.format.as_ref())
        .and_then(Value::as_str);
    if format == Some(FORMAT_WITHOUT_CHECKSUM) {
        return Err(
            "a count file of an older layout, without a checksum: run its part again".into(),
        );
    }
    if format != Some(FORMAT) {
        return Err(
            "not a count file: no \"shard\" block (write one with --shard k/n --out FILE.json)"
                .into(),
        );
    }
    if marks.is_some_and(|block| block.schema.is_none()) {
        return Err(
            "a count file of an older layout, without its \"schema\": run its part again".into(),
        );
    }
    let corrupt = |what: &str| format!("corrupt count file: {what}");
    let CountFile { shard: mut block } =
        contract::read::<CountFile>(text).map_err(|e| corrupt(&e.to_string()))?;
    let recorded = block
        .checksum
        .take()
        .ok_or_else(|| corrupt("no checksum"))?;
    if recorded != checksum(&block) {
        return Err(corrupt(
            "its checksum does not match its contents (changed since its part wrote it)",
        ));
    }
    if block.program != program() {
        return Err(format!(
            "made by {}, and this is {}: merge with the program that made it",
            block.program,
            program()
        ));
    }
    let shard =
        Shard::parse(&block.part).map_err(|_| corrupt(&format!("part {:?}", block.part)))?;
    let samples = block
        .samples
        .iter()
        .map(Sample::from_record)
        .collect::<Option<Vec<Sample>>>()
        .ok_or_else(|| corrupt("the samples"))?;
    let enumerations = block
        .enumerations
        .iter()
        .map(enumeration_from_record)
        .collect::<Option<Vec<ArrangementCounts>>>()
        .ok_or_else(|| corrupt("the enumerations"))?;
    let command = block.command;
    let inputs = block.inputs;
    // An enumeration counts each arrangement once in each of the
    // distributions it lays side by side (one, or Roll-Call's eight): no
    // count exceeds the total, and the counts sum to a whole number of
    // totals (none, for an empty part).
    for (i, enumeration) in enumerations.iter().enumerate() {
        let total = &enumeration.total;
        let sum: BigUint = enumeration.counts.iter().sum();
        let adds_up = if *total == BigUint::ZERO {
            sum == BigUint::ZERO
        } else {
            enumeration.counts.iter().all(|count| count <= total)
                && sum.clone() % total == BigUint::ZERO
        };
        if !adds_up {
            return Err(corrupt(&format!(
                "enumeration {}'s counts (summing to {sum}) do not count its {total} arrangements a whole number of times",
                i + 1,
            )));
        }
    }
    for sample in &samples {
        if sample.chunks != shard.chunk_range(sample.plan.n_chunks()) {
            return Err(corrupt(&format!(
                "chunks {:?} are not part {shard}'s of {} chunks",
                sample.chunks,
                sample.plan.n_chunks()
            )));
        }
    }
    Ok(Part {
        path: path.to_path_buf(),
        command,
        inputs,
        shard,
        samples,
        enumerations,
    })
}

/// The samples of the whole run: the parts' tallies summed, after checking
/// that `parts` are the parts `0..n` of one run, each once.
fn summed(parts: &[Part]) -> Result<Summed> {
    let first = &parts[0];
    let mismatch = |part: &Part, what: String| Error::BadInputFile {
        path: part.path.clone(),
        message: format!("does not belong with {}: {what}", first.path.display()),
    };
    let n = first.shard.count;
    let mut seen: Vec<Option<&Path>> = vec![None; n as usize];
    for part in parts {
        if part.command != first.command {
            return Err(mismatch(
                part,
                format!(
                    "another run (`{}`, not `{}`)",
                    part.command.join(" "),
                    first.command.join(" ")
                ),
            ));
        }
        let other_contents = part
            .inputs
            .iter()
            .find(|input| !first.inputs.contains(input))
            .or_else(|| {
                first
                    .inputs
                    .iter()
                    .find(|input| !part.inputs.contains(input))
            });
        if let Some(input) = other_contents {
            return Err(mismatch(
                part,
                format!(
                    "played with other contents of {} {} (the file changed between the parts)",
                    input.option, input.path
                ),
            ));
        }
        if part.shard.count != n {
            return Err(mismatch(
                part,
                format!("part {} of a run cut into {n}", part.shard),
            ));
        }
        let plans = |p: &Part| p.samples.iter().map(|s| s.plan).collect::<Vec<_>>();
        if plans(part) != plans(first) {
            return Err(mismatch(part, "other trials, seed or chunking".into()));
        }
        let shapes = |p: &Part| {
            p.enumerations
                .iter()
                .map(|e| e.counts.len())
                .collect::<Vec<_>>()
        };
        if shapes(part) != shapes(first) {
            return Err(mismatch(part, "other enumerations".into()));
        }
        let slot = &mut seen[part.shard.index as usize];
        if let Some(other) = slot {
            return Err(Error::BadInputFile {
                path: part.path.clone(),
                message: format!(
                    "part {} twice (also {}): the parts overlap",
                    part.shard,
                    other.display()
                ),
            });
        }
        *slot = Some(&part.path);
    }
    let missing: Vec<String> = (0..n)
        .filter(|&k| seen[k as usize].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::invalid(
            "merge",
            format!(
                "{} file{}",
                parts.len(),
                if parts.len() == 1 { "" } else { "s" }
            ),
            format!(
                "{} {} {} missing: a run cut into {n} needs every part 0/{n} .. {}/{n}",
                if missing.len() == 1 { "part" } else { "parts" },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" },
                n - 1
            ),
        ));
    }
    let mut samples: Vec<Sample> = first
        .samples
        .iter()
        .map(|s| Sample {
            plan: s.plan,
            chunks: 0..s.plan.n_chunks(),
            tally: vec![0; s.tally.len()],
        })
        .collect();
    for part in parts {
        for (total, sample) in samples.iter_mut().zip(&part.samples) {
            if sample.tally.len() != total.tally.len() {
                return Err(mismatch(part, "tallies of another length".into()));
            }
            for (t, &c) in total.tally.iter_mut().zip(&sample.tally) {
                *t = t.checked_add(c).ok_or_else(|| Error::BadInputFile {
                    path: part.path.clone(),
                    message: "the summed counts overflow 64 bits".into(),
                })?;
            }
        }
    }
    let mut enumerations: Vec<ArrangementCounts> = first
        .enumerations
        .iter()
        .map(|e| ArrangementCounts::zero(e.counts.len()))
        .collect();
    for part in parts {
        for (total, counts) in enumerations.iter_mut().zip(&part.enumerations) {
            total.add(counts);
        }
    }
    Ok(Summed {
        command: first.command.clone(),
        inputs: first.inputs.clone(),
        samples,
        enumerations,
    })
}

/// `deckodds merge FILES...`: checks the count files, sums them, and
/// writes the one run's output.
/// The command line recorded in the parts runs again through `run_in`.
pub(super) fn run(
    files: &[PathBuf],
    output: &OutputArgs,
    context: &Context,
    run_in: RunIn,
) -> Result<()> {
    context.refuse_parts("merge")?;
    if files.is_empty() {
        return Err(Error::invalid(
            "merge",
            "(no files)",
            "name the count files of every part (written with --shard k/n --out FILE.json)",
        ));
    }
    let parts = files
        .iter()
        .map(|path| read_part(path))
        .collect::<Result<Vec<Part>>>()?;
    let Summed {
        command,
        inputs,
        samples,
        enumerations,
    } = summed(&parts)?;
    let mut args = vec!["deckodds".to_string()];
    if context.quiet {
        args.push("--quiet".into());
    }
    if let Some(threads) = context.threads {
        args.extend(["--threads".into(), threads.to_string()]);
    }
    args.extend(command.iter().cloned());
    if let Some(format) = &output.format {
        args.extend(["--format".into(), format.clone()]);
    }
    for path in &output.out {
        args.extend(["--out".into(), path.display().to_string()]);
    }
    if let Some(digits) = output.digits {
        args.extend(["--digits".into(), digits.to_string()]);
    }
    let cli = Cli::try_parse_from(&args).map_err(|e| Error::BadInputFile {
        path: parts[0].path.clone(),
        message: format!(
            "its command no longer parses: {}",
            e.render().to_string().lines().next().unwrap_or_default()
        ),
    })?;
    let mut replaying = Context::plain(context.quiet, context.threads);
    let n_samples = samples.len() + enumerations.len();
    let first_path = parts[0].path.clone();
    replaying.prior = Some(Prior {
        source: PriorSource::Merge,
        samples: Mutex::new(VecDeque::from(samples)),
        enumerations: Mutex::new(VecDeque::from(enumerations)),
        parts: parts
            .into_iter()
            .map(|part| (part.path, Mutex::new(VecDeque::from(part.samples))))
            .collect(),
        inputs,
    });
    run_in(cli, &replaying)?;
    // The merged comparison's verdict is the command's.
    context.verdict(!replaying.disagreed());
    let left = replaying.prior.as_ref().map_or(0, |prior| {
        prior.samples.lock().map_or(0, |q| q.len())
            + prior.enumerations.lock().map_or(0, |q| q.len())
    });
    if left > 0 {
        return Err(Error::BadInputFile {
            path: first_path,
            message: format!(
                "holds {n_samples} sampling runs and enumerations, and its command used {}",
                n_samples - left
            ),
        });
    }
    Ok(())
}
