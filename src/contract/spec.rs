//! An analysis spec (`analysis/NAME.toml`): the keys a spec file may set,
//! as a type, for its JSON Schema (`deckodds schema spec`), which editors
//! that read JSON Schema for TOML (Taplo, Even Better TOML) use to check
//! and complete a spec as it is typed.
//!
//! deckodds itself reads specs with the hand-written parser of
//! `src/analysis.rs`, whose errors name the line and which checks what a
//! schema cannot (`[params]` against the command's options, `expect`
//! against the command, `quick-trials` at most `trials`). This type is the
//! shape only; a test reads every `analysis/*.toml` with it, so that the
//! two cannot drift apart. A spec carries no `schema` key (the files are
//! written by hand, and the parser refuses unknown keys).

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Document;

crate::contract_kind!(
    SpecKind,
    "spec",
    "an analysis spec, analysis/NAME.toml (a TOML file): the table deckodds reproduce makes"
);

/// The keys of a spec file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// One line on what the table shows, for the results index
    /// (`{param}` placeholders filled for each table of a family).
    pub description: String,
    /// The family's web page title, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The game: a top-level command (`blackjack`, `klondike`, ...).
    pub game: String,
    /// The game's subcommand: the method (`exact`, `mc`, `compare`, ...).
    pub command: String,
    /// The files to write, in order.
    pub outputs: Vec<OutputKind>,
    /// The command's options, named without dashes (`decks = 6`, `h17 =
    /// true`); which ones the command takes is checked by deckodds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<IndexMap<String, serde_json::Value>>,
    /// The sampling, for a command that samples.
    #[serde(
        rename = "monte-carlo",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub monte_carlo: Option<MonteCarlo>,
    /// A family: one table per entry, and per combination of an entry's
    /// list values (`{ decks = [1, 2], h17 = [false, true] }`: four).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub each: Option<Vec<IndexMap<String, serde_json::Value>>>,
    /// A family's table names: `NAME-` and this, with `{param}`
    /// placeholders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// The full run takes minutes: `reproduce` runs it only when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow: Option<bool>,
    /// The verdict a comparison is declared to reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Verdict>,
    /// A row of the front page's answers table (`[headline]`), or
    /// several (`[[headline]]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<Headlines>,
    /// One sentence on what the table found, `{/json/pointer}`
    /// placeholders filled from its JSON output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    /// Families whose tables this family's web page shows after its own.
    #[serde(
        rename = "also-shows",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub also_shows: Option<Vec<String>>,
    /// The chart's size (with an `svg` output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<FigureName>,
    /// A log y axis (`true`), a linear one (`false`), or left out to let
    /// the values choose (with an `svg` output).
    #[serde(rename = "log-y", default, skip_serializing_if = "Option::is_none")]
    pub log_y: Option<bool>,
}

impl Document for SpecFile {
    type Kind = SpecKind;
}

/// `[monte-carlo]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MonteCarlo {
    /// The committed tables' trials.
    #[schemars(range(min = 1))]
    pub trials: u64,
    /// The quick profile's trials, at most `trials` (by default the
    /// smaller of `trials` and 100,000).
    #[serde(
        rename = "quick-trials",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(range(min = 1))]
    pub quick_trials: Option<u64>,
    /// The master seed.
    pub seed: u64,
}

/// `[headline]` or `[[headline]]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Headlines {
    /// One row.
    One(Headline),
    /// Several rows: a family's tables, or figures of one table.
    Many(Vec<Headline>),
}

/// What a row of the answers table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HeadlineRole {
    /// The usual game (one row per game, shown first).
    Usual,
    /// Another variant (the default).
    Variant,
    /// A seed question's figure (fixed policies, a seed program's rules).
    Seed,
}

/// A row of the front page's answers table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Headline {
    /// The game variant, in words (`{param}` placeholders).
    pub variant: String,
    /// What the figure is: `P(win)`, `house edge`.
    pub label: String,
    /// The usual game, a variant (the default) or a seed question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<HeadlineRole>,
    /// In a family, the one table the row is of (by default every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Show minus the figure (a house edge from the player's
    /// expectation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negate: Option<bool>,
    /// A few words beside the figure, `{/json/pointer}` placeholders
    /// filled from the JSON output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The key of the distribution whose `outcome` is the figure (by
    /// default the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distribution: Option<String>,
    /// The outcome whose probability is the figure (or give `figure`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// A JSON pointer to the figure in the JSON output (or give
    /// `outcome`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
}

/// A kind of output file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// Markdown.
    Md,
    /// Long-form CSV.
    Csv,
    /// JSON, every figure.
    Json,
    /// A LaTeX (booktabs) table.
    Tex,
    /// Text (game records).
    Txt,
    /// A chart, with its PDF and PNG.
    Svg,
}

/// A verdict a comparison reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Monte Carlo and exact agree.
    Agree,
    /// They disagree.
    Disagree,
    /// A published table is consistent with the exact values.
    Consistent,
    /// It is not.
    Inconsistent,
}

/// A chart's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FigureName {
    /// For the screen (the default).
    Screen,
    /// A single column of a paper.
    Single,
    /// Both columns of a paper.
    Double,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every committed spec has the shape the schema describes, and
    /// spelling a key wrong is caught by it.
    #[test]
    fn every_spec_in_analysis_reads_as_a_spec_file() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
        let mut read = 0;
        for entry in std::fs::read_dir(&folder).expect("analysis/") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "toml") {
                let text = std::fs::read_to_string(&path).expect("a spec");
                if let Err(error) = toml::from_str::<SpecFile>(&text) {
                    panic!("{}: {error}", path.display());
                }
                read += 1;
                let misspelt = text.replacen("description =", "descripton =", 1);
                assert!(toml::from_str::<SpecFile>(&misspelt).is_err());
            }
        }
        assert!(read > 10, "only {read} specs in {}", folder.display());
    }

    #[test]
    fn a_wrong_type_or_value_is_refused() {
        let good = "description = \"d\"\ngame = \"g\"\ncommand = \"mc\"\noutputs = [\"md\"]\n[monte-carlo]\ntrials = 10\nseed = 1\n";
        assert!(toml::from_str::<SpecFile>(good).is_ok());
        for (from, to) in [
            ("[\"md\"]", "[\"pdf\"]"),
            ("trials = 10", "trials = \"10\""),
            ("seed = 1", "seed = 1\nsead = 2"),
        ] {
            let bad = good.replacen(from, to, 1);
            assert!(toml::from_str::<SpecFile>(&bad).is_err(), "{bad}");
        }
    }
}
