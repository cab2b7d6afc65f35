//! The `deckodds.comparison/v1` documents: agreement tests between
//! distributions (chi-square goodness of fit or homogeneity, one row per
//! key) and checks of published tables (one row per table row, one cell
//! per outcome). One kind, two shapes, told apart by the `"comparison"`
//! field: `"published-table"` for a check, a test's name (or `null` when
//! the rows mix tests) for agreements. [`read`] picks the shape.
//!
//! Key order is the order of the fields here, the order the files of
//! results/ have always had. Statistics that can be non-finite (an
//! infinite chi-square when a count falls in an outcome of probability 0,
//! an undefined z-score) are `Option<f64>`: written `null` when absent or
//! not finite (see [`finite`]).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::report::PrecisionBlock;
use super::shard::ShardBlock;
use super::{Document, Kind, ReadError, Tag};

crate::contract_kind!(
    ComparisonKind,
    "comparison",
    "agreement tests between distributions (chi-square goodness of fit or homogeneity, z-scores, verdicts), or the check of a published table against exact values"
);

/// `Some(x)` if `x` is finite: how a statistic that may be infinite or
/// NaN goes into a comparison (JSON has neither, and writes `null`).
pub fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Either shape of comparison document.
#[derive(Clone, Debug, PartialEq)]
pub enum Comparison {
    /// Agreement tests, one row per key.
    Agreements(Agreements),
    /// The check of a published table.
    Published(PublishedCheck),
}

impl Document for Comparison {
    type Kind = ComparisonKind;
}

impl Serialize for Comparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Comparison::Agreements(document) => document.serialize(serializer),
            Comparison::Published(document) => document.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Comparison {
    /// Through a JSON value, so errors lose the field's path: [`read`]
    /// is the reader that names it, and the one deckodds uses.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Comparison, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let published = is_published(value.get("comparison"));
        let result = if published {
            PublishedCheck::deserialize(value).map(Comparison::Published)
        } else {
            Agreements::deserialize(value).map(Comparison::Agreements)
        };
        result.map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Comparison {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Comparison".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let agreements = generator.subschema_for::<Agreements>();
        let published = generator.subschema_for::<PublishedCheck>();
        schemars::json_schema!({
            "oneOf": [agreements, published],
        })
    }
}

fn is_published(comparison: Option<&Value>) -> bool {
    comparison.and_then(Value::as_str) == Some(PublishedTag::NAME)
}

/// Reads a comparison document of either shape, refusing unknown fields
/// and wrong types with the field's path (as [`super::read`] does).
pub fn read(text: &str) -> Result<Comparison, ReadError> {
    /// Only the field that tells the shapes apart.
    #[derive(Deserialize)]
    struct Peek {
        #[serde(default)]
        comparison: Option<Value>,
    }
    let peek: Peek = serde_json::from_str(text)
        .map_err(|error| ReadError(format!("{}: {error}", ComparisonKind::ID)))?;
    if is_published(peek.comparison.as_ref()) {
        super::read::<PublishedCheck>(text).map(Comparison::Published)
    } else {
        super::read::<Agreements>(text).map(Comparison::Agreements)
    }
}

/// Agreement tests between distributions, one row per key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Agreements {
    /// Always `deckodds.comparison/v1`.
    pub schema: Tag<ComparisonKind>,
    /// The test of every row, or `null` when the rows mix tests.
    pub comparison: Option<TestName>,
    /// What was compared, for people.
    pub title: String,
    /// The level of every row's verdict, or `null` when they differ.
    pub level: Option<f64>,
    /// One test per key.
    pub rows: Vec<AgreementRow>,
    /// What `--until-halfwidth` did; absent without a precision target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionBlock>,
    /// A part's counts for `merge` (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

impl Document for Agreements {
    type Kind = ComparisonKind;
}

/// A chi-square test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TestName {
    /// Counts against exact probabilities.
    GoodnessOfFit,
    /// Counts against counts.
    Homogeneity,
}

/// The plain answer of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictName {
    /// The p-value is at or above the level.
    Agree,
    /// The p-value is below the level.
    Disagree,
}

/// The test of one key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgreementRow {
    /// The distribution's key, e.g. `upcard=2`.
    pub key: String,
    /// The test.
    pub test: TestName,
    /// The outcome labels, in order.
    pub outcomes: Vec<String>,
    /// Trials of the (first) sample.
    pub trials: u64,
    /// Trials of the second sample (homogeneity), else `null`.
    pub trials_b: Option<u64>,
    /// The statistic (`null` when infinite: a count in an outcome of
    /// exact probability 0).
    pub chi_square: Option<f64>,
    /// Its degrees of freedom.
    pub degrees_of_freedom: usize,
    /// The p-value.
    pub p_value: Option<f64>,
    /// Outcomes pooled because their expected count was below 5, by index.
    pub pooled_bins: Vec<Vec<usize>>,
    /// The same groups by label.
    pub pooled_outcomes: Vec<Vec<String>>,
    /// Each outcome's z-score, `null` where undefined.
    pub z_scores: Vec<Option<f64>>,
    /// The largest |z| over the outcomes the test kept whole, `null` if
    /// none has one.
    pub max_abs_z: Option<f64>,
    /// The total variation distance.
    pub total_variation: Option<f64>,
    /// The level of the verdict.
    pub level: Option<f64>,
    /// The verdict.
    pub verdict: VerdictName,
}

/// The check of a published table of rounded percentages (or counts)
/// against exact values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedCheck {
    /// Always `deckodds.comparison/v1`.
    pub schema: Tag<ComparisonKind>,
    /// Always `"published-table"`.
    pub comparison: PublishedTag,
    /// What was checked, for people.
    pub title: String,
    /// The level of the test.
    pub level: Option<f64>,
    /// How the table's figures were made.
    pub sample: Sample,
    /// The critical |z| of each cell (Bonferroni over the cells tested).
    pub z_critical: Option<f64>,
    /// The cells tested.
    pub cells_tested: usize,
    /// Whether every cell is consistent.
    pub consistent: bool,
    /// The inconsistent cells, as `row/outcome`.
    pub inconsistent: Vec<String>,
    /// One entry per row of the table.
    pub rows: Vec<PublishedRow>,
    /// The exact distributions no row stands for; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_rows: Vec<String>,
    /// What the caller advises (checking the rules, say); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What `--until-halfwidth` did; absent without a precision target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionBlock>,
    /// A part's counts for `merge` (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

impl Document for PublishedCheck {
    type Kind = ComparisonKind;
}

/// The `"comparison"` of a published table's check: always
/// `"published-table"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PublishedTag {
    /// `"published-table"`.
    #[default]
    #[serde(rename = "published-table")]
    PublishedTable,
}

impl PublishedTag {
    /// Its name in JSON.
    pub const NAME: &'static str = "published-table";
}

/// How a published table's figures were made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    /// `exact` (the cells are exact values rounded), `per-row` (each row
    /// simulated with `hands` hands) or `total` (`hands` over the table).
    pub kind: SampleKind,
    /// The hands simulated, `null` for an exact table.
    pub hands: Option<f64>,
}

/// The kinds of [`Sample`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SampleKind {
    /// Exact values, rounded.
    Exact,
    /// A simulation of `hands` hands per row.
    PerRow,
    /// A simulation of `hands` hands in all.
    Total,
}

/// One row of a published table's check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedRow {
    /// The row's label in the table.
    pub label: String,
    /// The key of the exact distribution it stands for.
    pub key: String,
    /// The hands behind the row (a simulated table), else `null`.
    pub hands: Option<f64>,
    /// The row's chi-square (a simulated table), else `null`.
    pub chi_square: Option<f64>,
    /// Its degrees of freedom.
    pub degrees_of_freedom: Option<usize>,
    /// Its p-value.
    pub p_value: Option<f64>,
    /// One cell per outcome the table prints.
    pub cells: Vec<PublishedCell>,
}

/// One cell of a published table's check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedCell {
    /// The outcome.
    pub outcome: String,
    /// The cell as printed.
    pub text: String,
    /// The exact percentage.
    pub exact_percent: Option<f64>,
    /// The distance to the cell's rounding interval in standard errors (a
    /// simulated table), else `null`.
    pub z: Option<f64>,
    /// Whether the cell is consistent with the exact value.
    pub consistent: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::write;

    fn agreements() -> Agreements {
        Agreements {
            schema: Tag::new(),
            comparison: Some(TestName::GoodnessOfFit),
            title: "t".into(),
            level: Some(0.001),
            rows: vec![AgreementRow {
                key: "upcard=2".into(),
                test: TestName::GoodnessOfFit,
                outcomes: vec!["a".into(), "b".into()],
                trials: 10,
                trials_b: None,
                chi_square: None,
                degrees_of_freedom: 1,
                p_value: Some(0.5),
                pooled_bins: vec![],
                pooled_outcomes: vec![],
                z_scores: vec![Some(1.0), None],
                max_abs_z: Some(1.0),
                total_variation: Some(0.1),
                level: Some(0.001),
                verdict: VerdictName::Agree,
            }],
            precision: None,
            shard: None,
        }
    }

    fn published() -> PublishedCheck {
        PublishedCheck {
            schema: Tag::new(),
            comparison: PublishedTag::PublishedTable,
            title: "p".into(),
            level: Some(0.05),
            sample: Sample {
                kind: SampleKind::PerRow,
                hands: Some(1e6),
            },
            z_critical: Some(3.0),
            cells_tested: 1,
            consistent: false,
            inconsistent: vec!["2/bust".into()],
            rows: vec![PublishedRow {
                label: "2".into(),
                key: "upcard=2".into(),
                hands: Some(1e6),
                chi_square: Some(1.5),
                degrees_of_freedom: Some(0),
                p_value: Some(0.2),
                cells: vec![PublishedCell {
                    outcome: "bust".into(),
                    text: "35.3".into(),
                    exact_percent: Some(35.36),
                    z: Some(4.5),
                    consistent: false,
                }],
            }],
            missing_rows: vec![],
            notes: vec!["n".into()],
            precision: None,
            shard: None,
        }
    }

    #[test]
    fn both_shapes_read_back_equal_through_read_and_serde() {
        for document in [
            Comparison::Agreements(agreements()),
            Comparison::Published(published()),
        ] {
            let text = write(&document);
            assert!(
                text.starts_with("{\n  \"schema\": \"deckodds.comparison/v1\",\n"),
                "{text}"
            );
            assert_eq!(read(&text), Ok(document.clone()));
            assert_eq!(crate::contract::read::<Comparison>(&text), Ok(document));
        }
    }

    #[test]
    fn keys_keep_their_order_and_absent_lists_are_left_out() {
        let value: Value = serde_json::from_str(&write(&published())).unwrap();
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "schema",
                "comparison",
                "title",
                "level",
                "sample",
                "z_critical",
                "cells_tested",
                "consistent",
                "inconsistent",
                "rows",
                "notes"
            ]
        );
        let value: Value = serde_json::from_str(&write(&agreements())).unwrap();
        assert_eq!(value["rows"][0]["chi_square"], Value::Null);
        assert_eq!(value["rows"][0]["trials_b"], Value::Null);
    }

    #[test]
    fn errors_name_the_field_in_either_shape() {
        let text = write(&published()).replace("\"z\": 4.5", "\"z\": \"x\"");
        let error = read(&text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.comparison/v1 field rows[0].cells[0].z: invalid type"),
            "{error}"
        );
        let text = write(&agreements()).replace("\"trials\": 10", "\"trials\": 10, \"hands\": 1");
        let error = read(&text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.comparison/v1 field rows[0].hands: unknown field `hands`"),
            "{error}"
        );
    }

    #[test]
    fn finite_drops_what_json_cannot_hold() {
        assert_eq!(finite(1.5), Some(1.5));
        assert_eq!(finite(f64::INFINITY), None);
        assert_eq!(finite(f64::NAN), None);
    }
}
