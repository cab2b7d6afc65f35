//! The `deckodds.report/v1` document: a report of distributions, what
//! every game's commands print with `--format json` (docs/CONTRACTS.md,
//! "Output"), and the `"precision"` block a long run adds to it and to
//! other documents.
//!
//! Key order is the order of the fields here, and it is the order the
//! files of results/ have always had; fields that a document may lack
//! (`mean`, `summary`, `precision`, `shard`, and the figures of the other
//! method) are left out when absent, never written as `null`, so that a
//! report without them is byte for byte what it was before they existed.
//!
//! Numbers that cannot be finite here (estimates, intervals, means of
//! counts) are plain `f64`. The one float that can be non-finite is an
//! exact outcome's `value` when its fraction has a zero denominator (a
//! caller's mark of a figure that does not exist): it is written `null`
//! and read back as absent.

use std::fmt;

use schemars::JsonSchema;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::shard::ShardBlock;
use super::{Document, Tag};

crate::contract_kind!(
    ReportKind,
    "report",
    "a game's distributions over named outcomes, exact or Monte-Carlo, with the parameters, seed and trials that made them"
);

/// A report of distributions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Always `deckodds.report/v1`.
    pub schema: Tag<ReportKind>,
    /// The game's report name, e.g. `blackjack-dealer`.
    pub game: String,
    /// Exact or Monte Carlo.
    pub method: Method,
    /// The parameters that made the result, in the game's order (per
    /// game: `decks`, `soft17`, ... for the dealer; `ranks`, `copies`,
    /// ... for Roll-Call).
    pub params: Map<String, Value>,
    /// The master seed (Monte Carlo), or `null`.
    pub seed: Option<u64>,
    /// Trials per distribution (Monte Carlo), or `null`.
    pub trials: Option<u64>,
    /// The distributions, in display order.
    pub distributions: Vec<Distribution>,
    /// Figures derived from the distributions (Klondike's money, say);
    /// absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<SummaryEntry>,
    /// The cells the report leaves without a figure, one line each saying
    /// why (`blackjack eor`: a removal that leaves no such hand); absent
    /// when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_computed: Vec<String>,
    /// What `--until-halfwidth` did; absent without a precision target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionBlock>,
    /// A part's counts for `merge` (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

impl Document for Report {
    type Kind = ReportKind;
}

crate::contract_kind!(
    VersionsKind,
    "versions",
    "one game's figures for each of its versions side by side (`roll-call mc --count all --order all`), each version with its question's figures and its full report"
);

/// A table of versions: the head of a report, then one entry per version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionsDocument {
    /// Always `deckodds.versions/v1`.
    pub schema: Tag<VersionsKind>,
    /// The game's report name, e.g. `roll-call`.
    pub game: String,
    /// Exact or Monte Carlo.
    pub method: Method,
    /// The parameters common to every version.
    pub params: Map<String, Value>,
    /// The master seed (Monte Carlo), or `null`.
    pub seed: Option<u64>,
    /// Trials per distribution (Monte Carlo), or `null`.
    pub trials: Option<u64>,
    /// One entry per version, in the table's order.
    pub versions: Vec<VersionEntry>,
    /// What `--until-halfwidth` did; absent without a precision target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionBlock>,
    /// A part's counts for `merge` (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

impl Document for VersionsDocument {
    type Kind = VersionsKind;
}

/// One version of a game: which (`{"count": "continuous", "order":
/// "same"}`), its figures, and its full report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionEntry {
    /// The version's settings by name, as strings.
    pub version: KeyParams,
    /// One figure per question of the table, in its order.
    pub figures: Vec<VersionFigure>,
    /// The version's whole report; absent where the table has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
}

/// One question's figure for a version: a proportion (`count`, `trials`,
/// `estimate`, `ci95`) or an exact `probability`; neither where the
/// version has no such figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionFigure {
    /// The question, e.g. `P(win)`.
    pub question: String,
    /// Monte Carlo: the trials that answered yes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Monte Carlo: the trials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// Monte Carlo: the proportion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// Monte Carlo: its 95% Wilson interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
    /// Exact: the probability as a reduced fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<String>,
}

/// How a result was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Exact enumeration: probabilities are exact rationals (`"exact"`).
    Exact,
    /// Monte-Carlo sampling: counts with Wilson intervals
    /// (`"monte-carlo"`).
    MonteCarlo,
}

impl Method {
    /// The name used in JSON (`"exact"`, `"monte-carlo"`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        }
    }
}

/// One distribution of a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Distribution {
    /// What it is a distribution of, e.g. `upcard=2` or `cards-left`.
    pub key: String,
    /// The key's `name=value` pairs as an object of strings
    /// (`{"upcard": "2"}`), so that a reader need not split the key; `{}`
    /// for a key that is a plain label (see
    /// [`crate::distribution::key_params`]).
    pub params: KeyParams,
    /// One entry per outcome, in order.
    pub outcomes: Vec<OutcomeEntry>,
    /// The mean outcome, when every outcome label is a whole number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<MeanEntry>,
}

/// One outcome: exact (`probability` and `value`) or Monte Carlo
/// (`count`, `estimate` and `ci95`). The fields of the other method are
/// absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeEntry {
    /// The outcome's label, e.g. `bust` or `17`.
    pub outcome: String,
    /// Exact: the probability as a reduced fraction, `"6311/17850"`
    /// (`"0"` and `"1"` for integers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<String>,
    /// Exact: the fraction's nearest `f64` (derived from it, display
    /// only; a non-finite one, from a fraction with a zero denominator,
    /// is written `null` and reads back as absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Monte Carlo: the number of trials with this outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Monte Carlo: the proportion of trials (0 when there were none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// Monte Carlo: the 95% Wilson interval of the proportion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
}

impl OutcomeEntry {
    /// The figure a chart or a headline shows: the Monte-Carlo estimate,
    /// else the exact value.
    pub fn shown_value(&self) -> Option<f64> {
        self.estimate.or(self.value)
    }
}

/// The mean of a distribution whose outcomes are numbers: exact
/// (`probability`, a fraction, and its `value`) or Monte Carlo
/// (`estimate`, `standard_error` and the normal 95% interval `ci95`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeanEntry {
    /// Exact: the mean as a reduced fraction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<String>,
    /// Exact: the fraction's nearest `f64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Monte Carlo: the sample mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// Monte Carlo: the sample standard deviation over the square root of
    /// the trials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_error: Option<f64>,
    /// Monte Carlo: `estimate ± 1.96 standard_error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
}

/// A figure derived from the distributions: a mean (`estimate`,
/// `standard_error`, `ci95`), a total (`value`) or a proportion (`count`,
/// `trials`, `estimate`, `ci95`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummaryEntry {
    /// A machine name, e.g. `net-per-game`.
    pub key: String,
    /// What it is, for people, with its unit.
    pub label: String,
    /// A proportion's successes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// A proportion's trials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// A mean, or a proportion's share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// A mean's standard error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard_error: Option<f64>,
    /// An exact whole number (a total).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// The 95% interval of a mean or a proportion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
}

/// What a precision target did: the `"precision"` block a long run adds
/// after a document's own keys.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrecisionBlock {
    /// The target: the widest 95% interval's half-width, as a proportion.
    pub until_halfwidth: f64,
    /// The outcome the target watched (`--for`, JSON `"for"`), or `null`
    /// for every one.
    #[serde(rename = "for")]
    pub outcome: Option<String>,
    /// The most trials a sampling run could take (`--max-trials`).
    pub max_trials: u64,
    /// Each sampling run of the command, in order.
    pub runs: Vec<PrecisionRun>,
}

/// Where one sampling run under a precision target stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrecisionRun {
    /// The trials it ran.
    pub trials: u64,
    /// The outcome with the widest 95% interval, as `KEY/LABEL`.
    pub widest: String,
    /// That interval's half-width, as a proportion.
    pub half_width: f64,
    /// Whether the target was met (or `--max-trials` reached first).
    pub met: bool,
}

/// A distribution key's `name=value` pairs, in the key's order, written
/// as a JSON object of strings. Guarantee: a name appears at most once
/// (a document repeating one is refused).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyParams(pub Vec<(String, String)>);

impl KeyParams {
    /// The pairs of `key` ([`crate::distribution::key_params`]).
    pub fn of_key(key: &str) -> KeyParams {
        KeyParams(
            crate::distribution::key_params(key)
                .into_iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
        )
    }

    /// The value of parameter `name`, if the key has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_str())
    }
}

impl Serialize for KeyParams {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for KeyParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KeyParams, D::Error> {
        struct PairsVisitor;

        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = KeyParams;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of strings")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<KeyParams, A::Error> {
                let mut pairs: Vec<(String, String)> = Vec::new();
                while let Some((name, value)) = access.next_entry::<String, String>()? {
                    if pairs.iter().any(|(n, _)| *n == name) {
                        return Err(serde::de::Error::custom(format!(
                            "parameter `{name}` appears twice"
                        )));
                    }
                    pairs.push((name, value));
                }
                Ok(KeyParams(pairs))
            }
        }

        deserializer.deserialize_map(PairsVisitor)
    }
}

impl JsonSchema for KeyParams {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "KeyParams".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The key's `name=value` pairs, in the key's order; {} for a key that is a plain label.",
            "type": "object",
            "additionalProperties": {"type": "string"},
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{read, write};

    fn report() -> Report {
        Report {
            schema: Tag::new(),
            game: "blackjack-dealer".into(),
            method: Method::MonteCarlo,
            params: serde_json::from_str(r#"{"decks": 2, "soft17": "stand"}"#).unwrap(),
            seed: Some(42),
            trials: Some(4),
            distributions: vec![Distribution {
                key: "upcard=2".into(),
                params: KeyParams::of_key("upcard=2"),
                outcomes: vec![OutcomeEntry {
                    outcome: "17".into(),
                    probability: None,
                    value: None,
                    count: Some(1),
                    estimate: Some(0.25),
                    ci95: Some([0.04, 0.7]),
                }],
                mean: Some(MeanEntry {
                    probability: None,
                    value: None,
                    estimate: Some(17.0),
                    standard_error: Some(0.0),
                    ci95: Some([17.0, 17.0]),
                }),
            }],
            summary: vec![SummaryEntry {
                key: "total".into(),
                label: "total ($)".into(),
                count: None,
                trials: None,
                estimate: None,
                standard_error: None,
                value: Some(-3),
                ci95: None,
            }],
            not_computed: Vec::new(),
            precision: Some(PrecisionBlock {
                until_halfwidth: 0.001,
                outcome: None,
                max_trials: 1000,
                runs: vec![PrecisionRun {
                    trials: 4,
                    widest: "upcard=2/17".into(),
                    half_width: 0.3,
                    met: false,
                }],
            }),
            shard: None,
        }
    }

    #[test]
    fn a_report_reads_back_equal_with_its_keys_in_the_contracts_order() {
        let text = write(&report());
        assert_eq!(read::<Report>(&text), Ok(report()));
        let value: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "schema",
                "game",
                "method",
                "params",
                "seed",
                "trials",
                "distributions",
                "summary",
                "precision"
            ]
        );
        let distribution = &value["distributions"][0];
        let keys: Vec<&String> = distribution.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["key", "params", "outcomes", "mean"]);
        assert_eq!(distribution["params"], serde_json::json!({"upcard": "2"}));
        assert_eq!(value["method"], "monte-carlo");
        assert_eq!(value["precision"]["for"], Value::Null);
    }

    #[test]
    fn a_non_finite_exact_value_is_null_and_reads_back() {
        let entry = OutcomeEntry {
            outcome: "a".into(),
            probability: Some("1/0".into()),
            value: Some(f64::NAN),
            count: None,
            estimate: None,
            ci95: None,
        };
        let text = serde_json::to_string(&entry).unwrap();
        assert_eq!(text, r#"{"outcome":"a","probability":"1/0","value":null}"#);
        let back: OutcomeEntry = serde_json::from_str(&text).unwrap();
        // Read back, `null` is absent: the figure does not exist either way.
        assert_eq!(back.value, None);
        assert_eq!(back.shown_value(), None);
    }

    #[test]
    fn key_params_refuse_a_repeated_name_and_a_value_that_is_not_text() {
        let text = write(&report()).replace(r#""upcard": "2""#, r#""upcard": "2", "upcard": "3""#);
        let error = read::<Report>(&text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.report/v1 field distributions[0].params"),
            "{error}"
        );
        assert!(error.contains("`upcard` appears twice"), "{error}");
        let text = write(&report()).replace(r#""upcard": "2""#, r#""upcard": 2"#);
        let error = read::<Report>(&text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.report/v1 field distributions[0].params"),
            "{error}"
        );
    }
}
