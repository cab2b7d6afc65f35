//! Idiot's Delight's power study (`idiots-delight power --format json`):
//! how many games a chi-square test needs to detect a biased shuffle.
//! Field names, order and meaning are those the JSON had before the
//! contract, with `"schema"` first; floats as in [`super::blackjack`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::blackjack::{Params, ShardBlock};
use super::{Document, Tag};
use crate::contract_kind;

contract_kind!(
    PowerKind,
    "power",
    "a power study: how many games it takes a chi-square test to detect a biased shuffle (idiots-delight power)"
);

/// `idiots-delight power`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PowerDocument {
    /// `deckodds.power/v1`.
    pub schema: Tag<PowerKind>,
    /// The game's report name.
    pub game: String,
    /// The command's parameters by name.
    pub params: Params,
    /// The master seed of the reference runs.
    pub seed: u64,
    /// Games in each reference run.
    pub trials: u64,
    /// The test's significance level.
    pub level: f64,
    /// The reference runs' test: the biased shuffle against uniform.
    pub reference: PowerReference,
    /// The chi-square noncentrality per game.
    pub lambda_per_game: f64,
    /// Games for 50% power, `null` when no bias was detectable.
    pub games_for_power_50: Option<u64>,
    /// Games for 90% power, `null` when no bias was detectable.
    pub games_for_power_90: Option<u64>,
    /// Independent samples tested at the predicted size, if run.
    pub replicate_check: Option<ReplicateCheck>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// The reference runs' chi-square test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PowerReference {
    /// The statistic, `null` when infinite (a count where none can fall).
    pub chi_square: Option<f64>,
    /// Its degrees of freedom.
    pub degrees_of_freedom: u64,
    /// Its p-value.
    pub p_value: f64,
    /// The largest `|z|` of the outcomes kept whole, `null` if none.
    pub max_abs_z: Option<f64>,
    /// The total variation distance.
    pub total_variation: f64,
}

/// Independent samples, each tested against the uniform reference run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplicateCheck {
    /// Samples.
    pub replicates: u64,
    /// Samples rejected.
    pub rejections: u64,
    /// Games in each.
    pub games_each: u64,
    /// The rejection rate the power predicts.
    pub predicted_rejection_rate: f64,
}

impl Document for PowerDocument {
    type Kind = PowerKind;
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::contract::blackjack::tests::round_trips_and_refuses_unknown_fields;

    #[test]
    fn a_power_document_round_trips() {
        let document = PowerDocument {
            schema: Tag::new(),
            game: "idiots-delight".into(),
            params: json!({"deck": "standard", "shuffle": "naive"})
                .as_object()
                .unwrap()
                .clone(),
            seed: 1,
            trials: 1000,
            level: 0.05,
            reference: PowerReference {
                chi_square: None,
                degrees_of_freedom: 3,
                p_value: 0.0,
                max_abs_z: Some(4.5),
                total_variation: 0.01,
            },
            lambda_per_game: 1e-4,
            games_for_power_50: Some(40_000),
            games_for_power_90: None,
            replicate_check: Some(ReplicateCheck {
                replicates: 10,
                rejections: 5,
                games_each: 40_000,
                predicted_rejection_rate: 0.5,
            }),
            shard: None,
        };
        round_trips_and_refuses_unknown_fields(&document, "/reference", "reference");
        round_trips_and_refuses_unknown_fields(&document, "/replicate_check", "replicate_check");
    }
}
