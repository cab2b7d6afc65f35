//! The card counter's documents (issue 46): what `blackjack counts` and
//! `blackjack count-distribution` write with `--format json`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::blackjack::Params;
use super::comparison::AgreementRow;
use super::{Document, Tag};
use crate::contract_kind;

contract_kind!(
    CountSystemsKind,
    "blackjack-count-systems",
    "counting systems analysed exactly: betting correlation, playing efficiency and insurance correlation of each, beside the published figures (blackjack counts)"
);

/// `blackjack counts`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountSystemsDocument {
    /// `deckodds.blackjack-count-systems/v1`.
    pub schema: Tag<CountSystemsKind>,
    /// `blackjack-count-systems`.
    pub game: String,
    /// The rules of the effects of removal by name, `split_model`, then
    /// `cards_seen` (the playing efficiency's depth).
    pub params: Params,
    /// The strategy decisions the playing efficiency sums over.
    pub decisions: u64,
    /// The player's effects of removal the betting correlation uses, in
    /// percentage points of the bet, A first.
    pub effects_points: Vec<f64>,
    /// One row per system, in the order asked for.
    pub systems: Vec<CountSystemRow>,
    /// Definitions and sources, for people.
    pub notes: Vec<String>,
}

/// One system's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountSystemRow {
    /// Its name (`hi-lo`), or `custom`.
    pub system: String,
    /// Its tags, `A=-1,2=1,...,T=-1`.
    pub tags: String,
    /// Whether one deck's tags sum to zero.
    pub balanced: bool,
    /// Betting correlation; `null` for tags all equal.
    pub betting_correlation: Option<f64>,
    /// Playing efficiency; `null` when undefined.
    pub playing_efficiency: Option<f64>,
    /// Insurance correlation; `null` for tags all equal.
    pub insurance_correlation: Option<f64>,
    /// The published figures, for a built-in system.
    pub published: Option<PublishedCountFigures>,
}

/// A system's published figures and their source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedCountFigures {
    /// Betting correlation.
    pub betting_correlation: f64,
    /// Playing efficiency.
    pub playing_efficiency: f64,
    /// Insurance correlation.
    pub insurance_correlation: f64,
    /// Where they were published.
    pub source: String,
}

impl Document for CountSystemsDocument {
    type Kind = CountSystemsKind;
}

contract_kind!(
    CountDistributionKind,
    "blackjack-count-distribution",
    "the exact distribution of the running and true count after k cards of a shoe beside a Monte-Carlo deal, with chi-square tests (blackjack count-distribution)"
);

/// `blackjack count-distribution`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountDistributionDocument {
    /// `deckodds.blackjack-count-distribution/v1`.
    pub schema: Tag<CountDistributionKind>,
    /// `blackjack-count-distribution`.
    pub game: String,
    /// `count`, `tags`, `decks`, `after` (cards seen), `cards_left`.
    pub params: Params,
    /// Deals simulated.
    pub trials: u64,
    /// The master seed.
    pub seed: u64,
    /// The exact mean running count, a reduced fraction.
    pub mean_running_count: String,
    /// One cell per running count some subset makes, lowest first.
    pub running_count: Vec<CountCell>,
    /// One cell per true-count bin, `<=-10` first.
    pub true_count: Vec<CountCell>,
    /// The simulated running counts against the exact distribution.
    pub running_count_agreement: AgreementRow,
    /// The simulated true counts against the exact distribution.
    pub true_count_agreement: AgreementRow,
}

/// One running count or true-count bin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountCell {
    /// The count (`-3`, `0`, `+2`) or bin (`<=-10`, `>=+10`).
    pub outcome: String,
    /// Its exact probability, a reduced fraction.
    pub probability: String,
    /// The same, as the nearest `f64`.
    pub decimal: f64,
    /// Simulated deals that ended there.
    pub simulated: u64,
}

impl Document for CountDistributionDocument {
    type Kind = CountDistributionKind;
}
