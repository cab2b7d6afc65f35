//! A provenance record, `results/NAME.provenance.json`: how `deckodds
//! reproduce` made a spec's tables, which `reproduce --check` verifies
//! them against.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Document, Tag};

crate::contract_kind!(
    ProvenanceKind,
    "provenance",
    "how deckodds reproduce made a spec's tables (results/NAME.provenance.json), which reproduce --check verifies"
);

/// The provenance record of one spec's run.
///
/// Apart from `elapsed_seconds` and `cores`, the same spec, program,
/// profile and results folder give the same record on any machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// `deckodds.provenance/v1`.
    pub schema: Tag<ProvenanceKind>,
    /// The spec's path, `analysis/NAME.toml`.
    pub spec: String,
    /// The spec's description.
    pub description: String,
    /// The program that ran it, `deckodds 0.1.0`.
    pub program: String,
    /// The profile run: `full` (the committed tables) or `quick`.
    pub profile: ProfileName,
    /// The command line that wrote the tables.
    pub command: String,
    /// The Monte-Carlo seed, or `null` for a spec that does not sample.
    pub seed: Option<u64>,
    /// The trials of the profile run, or `null` for a spec that does not
    /// sample.
    pub trials: Option<u64>,
    /// Each file made, by name (in the order the spec lists its outputs),
    /// with the FNV-1a (64 bits) of its bytes.
    #[schemars(inner(pattern(r"^fnv1a64:[0-9a-f]{16}$")))]
    pub files: IndexMap<String, String>,
    /// FNV-1a (64 bits) of what the run counted (each distribution's
    /// counts or exact probabilities; a comparison's whole JSON).
    pub checksum: String,
    /// The quick profile's trials, or `null` for a spec that does not
    /// sample.
    pub quick_trials: Option<u64>,
    /// What the quick profile counts (`checksum` under it), which
    /// `--check` recomputes.
    pub quick_checksum: String,
    /// Wall-clock seconds the run took, to a tenth.
    pub elapsed_seconds: f64,
    /// The cores the machine offered.
    pub cores: usize,
    /// The spec file's text.
    pub spec_text: String,
}

impl Document for Provenance {
    type Kind = ProvenanceKind;
}

/// A profile, as a provenance record names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProfileName {
    /// The committed tables: the spec's `trials`.
    Full,
    /// The spec's `quick-trials`.
    Quick,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{read, write};

    #[test]
    fn a_record_keeps_its_files_in_order_and_reads_back_equal() {
        let record = Provenance {
            schema: Tag::new(),
            spec: "analysis/x.toml".into(),
            description: "x".into(),
            program: "deckodds 0.1.0".into(),
            profile: ProfileName::Quick,
            command: "deckodds x".into(),
            seed: None,
            trials: None,
            files: [("x.md", "fnv1a64:1"), ("x.csv", "fnv1a64:2")]
                .into_iter()
                .map(|(name, sum)| (name.to_string(), sum.to_string()))
                .collect(),
            checksum: "fnv1a64:3".into(),
            quick_trials: None,
            quick_checksum: "fnv1a64:3".into(),
            elapsed_seconds: 0.5,
            cores: 2,
            spec_text: "game = \"x\"\n".into(),
        };
        let text = write(&record);
        assert!(text.contains("\"profile\": \"quick\","), "{text}");
        assert!(text.find("x.md") < text.find("x.csv"), "{text}");
        assert_eq!(read::<Provenance>(&text), Ok(record));
        let error = read::<Provenance>(&text.replace("\"quick\"", "\"slow\""))
            .unwrap_err()
            .0;
        assert!(
            error.starts_with("deckodds.provenance/v1 field profile: unknown variant `slow`"),
            "{error}"
        );
    }
}
