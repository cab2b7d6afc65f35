//! The count file of one part of a sharded run (`--shard k/n --out
//! FILE.json`): its JSON output with a `"shard"` block, which `deckodds
//! merge` reads back and sums.
//!
//! The block is a document of its own (`deckodds.counts/v1`): the report
//! around it is the report's contract, and `merge` does not read it (it
//! makes the report again from the summed counts).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Document, Tag};

crate::contract_kind!(
    CountsKind,
    "counts",
    "the \"shard\" block of a part's JSON output (--shard k/n): what the part counted, for deckodds merge"
);

/// The `"shard"` block of a part's JSON output: the command line, program
/// and part that counted, each sampling run's counts, each exhaustive
/// enumeration's, and last a checksum of the rest of the block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShardBlock {
    /// `deckodds.counts/v1`.
    pub schema: Tag<CountsKind>,
    /// The layout's older mark, `deckodds shard count file 2`, kept beside
    /// `schema` for the readers of before it.
    pub format: String,
    /// The program that counted, `deckodds 0.1.0`: only the same program
    /// merges it.
    pub program: String,
    /// The command line after `deckodds`, without the options that say
    /// only where and how to write, and without `--shard`.
    pub command: Vec<String>,
    /// The part, `k/n`.
    pub part: String,
    /// The files the command read that decide its results, by their
    /// contents' fingerprints: the parts of one run read the same
    /// contents; absent when it read none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<InputFingerprint>,
    /// Each sampling run of the command, in the order it makes them.
    pub samples: Vec<SampleCounts>,
    /// Each exhaustive enumeration of the command, in order; absent when
    /// there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enumerations: Vec<EnumerationCounts>,
    /// FNV-1a (64 bits) of the block's compact JSON without this field,
    /// as `fnv1a64:` and 16 hex digits; absent only in the text it is
    /// computed over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(r"^fnv1a64:[0-9a-f]{16}$"))]
    pub checksum: Option<String>,
}

impl Document for ShardBlock {
    type Kind = CountsKind;
}

/// A file a run read that decides its results (a strategy chart, a list
/// of deals, a published table or claim): the option and path that named
/// it, and a fingerprint of its contents, so that a part played with
/// other contents (the file edited between parts, or before a run is
/// resumed) is refused rather than mixed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InputFingerprint {
    /// The option that names the file, `--strategy`.
    pub option: String,
    /// The path as given on the command line.
    pub path: String,
    /// FNV-1a (64 bits) of the file's bytes after a UTF-8 byte-order
    /// mark, as `fnv1a64:` and 16 hex digits.
    #[schemars(pattern(r"^fnv1a64:[0-9a-f]{16}$"))]
    pub contents: String,
}

/// One sampling run's plan, the chunks counted, and their summed
/// histogram: a `"samples"` entry of a count file or of a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleCounts {
    /// The run's trials (all of its chunks').
    pub trials: u64,
    /// Its seed.
    pub seed: u64,
    /// Its stream (one per sampling run of a command).
    pub stream: u64,
    /// Trials per chunk, at least 1.
    #[schemars(range(min = 1))]
    pub chunk_size: u64,
    /// The chunks counted, `[first, end)`.
    pub chunks: [u64; 2],
    /// The summed histogram of those chunks' trials, bin by bin.
    pub tally: Vec<u64>,
}

/// One exhaustive enumeration's counts of arrangements, as decimal strings
/// (they outgrow 64 bits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnumerationCounts {
    /// Arrangements per bin.
    #[schemars(inner(pattern(r"^[0-9]+$")))]
    pub counts: Vec<String>,
    /// The arrangements the part enumerated.
    #[schemars(pattern(r"^[0-9]+$"))]
    pub total: String,
}

/// A count file as `merge` reads it: its `"shard"` block, typed and
/// checked; the report's own keys beside it are not read here.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub struct CountFile {
    /// The block.
    pub shard: ShardBlock,
}

impl Document for CountFile {
    type Kind = CountsKind;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{read, write};

    fn block() -> ShardBlock {
        ShardBlock {
            schema: Tag::new(),
            format: "deckodds shard count file 2".into(),
            program: "deckodds 0.1.0".into(),
            command: vec!["roll-call".into(), "exact".into()],
            part: "1/2".into(),
            inputs: vec![InputFingerprint {
                option: "--strategy".into(),
                path: "my chart.csv".into(),
                contents: "fnv1a64:00000000000000ab".into(),
            }],
            samples: vec![SampleCounts {
                trials: 10,
                seed: 1,
                stream: 0,
                chunk_size: 4,
                chunks: [2, 3],
                tally: vec![1, 0, 1],
            }],
            enumerations: vec![EnumerationCounts {
                counts: vec!["340282366920938463463374607431768211457".into(), "0".into()],
                total: "340282366920938463463374607431768211457".into(),
            }],
            checksum: Some("fnv1a64:0123456789abcdef".into()),
        }
    }

    #[test]
    fn a_block_reads_back_equal_and_inside_a_report() {
        let text = write(&block());
        assert!(text.starts_with("{\n  \"schema\": \"deckodds.counts/v1\",\n  \"format\""));
        assert_eq!(read::<ShardBlock>(&text), Ok(block()));
        let report = format!("{{\"game\": \"g\", \"anything\": [1], \"shard\": {text}}}");
        assert_eq!(
            read::<CountFile>(&report).map(|file| file.shard),
            Ok(block())
        );
    }

    #[test]
    fn no_enumerations_and_no_checksum_leave_their_keys_out() {
        let mut block = block();
        block.enumerations.clear();
        block.inputs.clear();
        block.checksum = None;
        let text = serde_json::to_string(&block).unwrap();
        assert!(
            !text.contains("enumerations")
                && !text.contains("checksum")
                && !text.contains("inputs"),
            "{text}"
        );
        assert_eq!(read::<ShardBlock>(&text), Ok(block));
    }

    #[test]
    fn a_wrong_field_inside_the_block_is_named_by_its_path() {
        let text = write(&CountFile { shard: block() });
        let unknown = text.replacen("\"tally\"", "\"extra\": 1, \"tally\"", 1);
        let error = read::<CountFile>(&unknown).unwrap_err().0;
        assert!(
            error.starts_with(
                "deckodds.counts/v1 field shard.samples[0].extra: unknown field `extra`"
            ),
            "{error}"
        );
        let wrong = text.replacen("\"seed\": 1", "\"seed\": \"1\"", 1);
        let error = read::<CountFile>(&wrong).unwrap_err().0;
        assert!(
            error.starts_with(
                "deckodds.counts/v1 field shard.samples[0].seed: invalid type: string"
            ),
            "{error}"
        );
    }
}
