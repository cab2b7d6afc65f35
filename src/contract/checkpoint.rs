//! A checkpoint (`--checkpoint FILE`, read back by `--resume FILE`): the
//! counts of a Monte-Carlo run's chunks done so far.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::shard::{InputFingerprint, SampleCounts};
use super::{Document, Tag};

crate::contract_kind!(
    CheckpointKind,
    "checkpoint",
    "the counts of a run's chunks done so far (--checkpoint FILE), which --resume FILE continues"
);

/// A checkpoint: the command line, program and part that saved it, for
/// each sampling run begun its counts (the chunks done are a prefix of
/// the run's, or of its part's), and last a checksum of the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// `deckodds.checkpoint/v1`.
    pub schema: Tag<CheckpointKind>,
    /// The layout's older mark, `deckodds checkpoint 1`, kept beside
    /// `schema` for the readers of before it.
    pub format: String,
    /// The program that saved it, `deckodds 0.1.0`: only the same program
    /// resumes it.
    pub program: String,
    /// The command line after `deckodds`, without the options that say
    /// only where and how to write and without the checkpoint's: what the
    /// resumed run must repeat.
    pub command: Vec<String>,
    /// The part `k/n` of a sharded run, or `null` for a whole run.
    pub part: Option<String>,
    /// The files the command read that decide its results, by their
    /// contents' fingerprints: the resumed run must read the same
    /// contents; absent when it read none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<InputFingerprint>,
    /// Each sampling run begun, in the order the command makes them; the
    /// last may be partly done.
    pub samples: Vec<SampleCounts>,
    /// FNV-1a (64 bits) of the checkpoint's compact JSON without this
    /// field, as `fnv1a64:` and 16 hex digits; absent only in the text it
    /// is computed over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(r"^fnv1a64:[0-9a-f]{16}$"))]
    pub checksum: Option<String>,
}

impl Document for Checkpoint {
    type Kind = CheckpointKind;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{read, write};

    #[test]
    fn a_checkpoint_of_a_whole_run_writes_its_part_as_null_and_reads_back_equal() {
        let checkpoint = Checkpoint {
            schema: Tag::new(),
            format: "deckodds checkpoint 1".into(),
            program: "deckodds 0.1.0".into(),
            command: vec!["klondike".into(), "mc".into()],
            part: None,
            inputs: Vec::new(),
            samples: vec![SampleCounts {
                trials: 100,
                seed: 3,
                stream: 0,
                chunk_size: 10,
                chunks: [0, 4],
                tally: vec![30, 10],
            }],
            checksum: Some("fnv1a64:00000000000000ff".into()),
        };
        let text = write(&checkpoint);
        assert!(text.starts_with("{\n  \"schema\": \"deckodds.checkpoint/v1\",\n"));
        assert!(text.contains("\"part\": null,"), "{text}");
        assert_eq!(read::<Checkpoint>(&text), Ok(checkpoint));
        let error = read::<Checkpoint>(&text.replacen("\"chunks\": [", "\"chunks\": [\"0\", ", 1))
            .unwrap_err()
            .0;
        assert!(
            error.starts_with("deckodds.checkpoint/v1 field samples[0].chunks[0]: invalid type"),
            "{error}"
        );
    }
}
