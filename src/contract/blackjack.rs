//! The blackjack player's and table's documents (RULES.md section 6):
//! what `blackjack player`, `strategy`, `house-edge`, `house-edge-grid`,
//! `player compare`, `table`, `table compare` and `cut-card-effect` write
//! with `--format json`. The dealer's reports (`blackjack exact`, `mc`,
//! `compare`, `eor`) are distributions reports and comparisons, in
//! `contract::report` and `contract::comparison`.
//!
//! Field names, order and meaning are those the JSON had before the
//! contract (docs/CONTRACTS.md), with `"schema"` first.
//!
//! Numbers: a statistic of sampled rounds that is undefined for too few of
//! them (a standard deviation of one shoe, a z-score over a zero standard
//! error, an infinite chi-square) is an `Option<f64>`, written `null` when
//! it is not a finite number ([`finite`]); every other `f64` is finite by
//! construction (a mean of at least one round, a share, an exact value's
//! nearest `f64`).
//!
//! `params` objects stay ordered JSON objects (the rules by their RULES.md
//! names, the values strings, `removed` a list), as in every other report:
//! each command adds its own entries (the table's dealing and count, the
//! cut-card table's penetration), in an order readers see.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::{Document, Tag};
use crate::contract_kind;

/// A report's `"params"`: an ordered object of the rules and settings by
/// name.
pub type Params = Map<String, Value>;

// A long run's `"shard"` block (`--shard`, for `merge`).
pub use super::shard::ShardBlock;

/// `Some(x)` for a finite `x`, else `None` (written `null`).
pub fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A JSON object whose keys are labels, kept in the order written (an
/// outcome's name, a chart row's total): `{"win": 3, "loss": 5}`. Reading
/// refuses a label given twice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelMap<T>(pub Vec<(String, T)>);

impl<T> LabelMap<T> {
    /// The entry under `label`, if any.
    pub fn get(&self, label: &str) -> Option<&T> {
        self.0
            .iter()
            .find(|(name, _)| name == label)
            .map(|(_, value)| value)
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> FromIterator<(String, T)> for LabelMap<T> {
    fn from_iter<I: IntoIterator<Item = (String, T)>>(entries: I) -> LabelMap<T> {
        LabelMap(entries.into_iter().collect())
    }
}

impl<T: Serialize> Serialize for LabelMap<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (label, value) in &self.0 {
            map.serialize_entry(label, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for LabelMap<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LabelMap<T>, D::Error> {
        struct LabelVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for LabelVisitor<T> {
            type Value = LabelMap<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of labelled entries")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<LabelMap<T>, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some(label) = access.next_key::<String>()? {
                    if entries.iter().any(|(name, _)| *name == label) {
                        return Err(serde::de::Error::custom(format!(
                            "label \"{label}\" given twice"
                        )));
                    }
                    let value = access.next_value::<T>()?;
                    entries.push((label, value));
                }
                Ok(LabelMap(entries))
            }
        }

        deserializer.deserialize_map(LabelVisitor(PhantomData))
    }
}

impl<T: JsonSchema> JsonSchema for LabelMap<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("LabelMap_of_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "additionalProperties": generator.subschema_for::<T>(),
        })
    }
}

// ---------------------------------------------------------------------------
// Values of the player's engine.

/// A value per unit bet (or a probability): the exact reduced fraction
/// `"p/q"` when computed exactly, and its nearest `f64`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerValue {
    /// The exact fraction, absent when computed in `f64` (`--float`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The value as the nearest `f64`.
    pub decimal: f64,
}

/// The round's value off the top, and the house edge (its negative) in
/// percent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverallValue {
    /// The exact fraction, absent when computed in `f64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The value per round as the nearest `f64`.
    pub decimal: f64,
    /// `-100 × value`, from the fraction when exact.
    pub house_edge_percent: f64,
}

// ---------------------------------------------------------------------------
// `blackjack player`.

contract_kind!(
    PlayerKind,
    "blackjack-player",
    "the blackjack player's value of every action for every two-card hand against every upcard, the round's value and insurance's (blackjack player)"
);

/// `blackjack player`: every two-card hand's actions against every upcard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerDocument {
    /// `deckodds.blackjack-player/v1`.
    pub schema: Tag<PlayerKind>,
    /// `blackjack-player`.
    pub game: String,
    /// `exact` or `float`.
    pub method: String,
    /// The rules by name, then `split_model`, then `removed` if any.
    pub params: Params,
    /// The round's value off the top.
    pub overall: OverallValue,
    /// Insurance off the top with an ace up, per unit insured; `null` when
    /// not offered (ENHC has it too; `null` only where no ace can be up).
    pub insurance: Option<PlayerValue>,
    /// One entry per hand and upcard: hands in name order (AA, A2, .., TT),
    /// each against 2..9, T, A.
    pub hands: Vec<HandValues>,
}

/// One two-card hand against one upcard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandValues {
    /// The hand's name (`A7`, `TT`).
    pub hand: String,
    /// The upcard: `2`..`9`, `T`, `A`.
    pub upcard: String,
    /// The probability of this hand against this upcard off the top.
    pub probability: PlayerValue,
    /// Standing's value.
    pub stand: PlayerValue,
    /// Hitting's (then playing on at best).
    pub hit: PlayerValue,
    /// Doubling's, `null` where the rules forbid it.
    pub double: Option<PlayerValue>,
    /// Splitting's, `null` for a non-pair (or where forbidden).
    pub split: Option<PlayerValue>,
    /// Surrender's, `null` without surrender.
    pub surrender: Option<PlayerValue>,
    /// The action of highest value: `stand`, `hit`, `double`, `split` or
    /// `surrender`.
    pub best: String,
    /// Insurance's value with this hand out of the shoe, against an ace
    /// only.
    pub insurance: Option<PlayerValue>,
}

impl Document for PlayerDocument {
    type Kind = PlayerKind;
}

// ---------------------------------------------------------------------------
// `blackjack strategy`.

contract_kind!(
    StrategyKind,
    "blackjack-strategy",
    "the blackjack basic-strategy chart: the best action for each class of hand against each upcard, with composition exceptions (blackjack strategy)"
);

/// `blackjack strategy`: the basic-strategy chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategyDocument {
    /// `deckodds.blackjack-strategy/v1`.
    pub schema: Tag<StrategyKind>,
    /// `blackjack-player`: the engine the chart is of.
    pub game: String,
    /// `exact` or `float`.
    pub method: String,
    /// The rules by name, then `split_model`, then `removed` (value names,
    /// `10` for a ten) if any.
    pub params: Params,
    /// The chart's sections.
    pub chart: Chart,
    /// The cells where some hand of the class plays otherwise.
    pub exceptions: Vec<ChartException>,
}

/// The chart's sections: rows by label (`"16"`, soft `"18"`, pair `"88"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chart {
    /// Hard totals, two cards.
    pub hard: LabelMap<UpcardCells>,
    /// Soft totals, two cards, by total.
    pub soft: LabelMap<UpcardCells>,
    /// Pairs, by the pair's name.
    pub pairs: LabelMap<UpcardCells>,
    /// Totals of three or more cards.
    pub multi_card: MultiCardChart,
}

/// The rows for three or more cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MultiCardChart {
    /// Hard totals.
    pub hard: LabelMap<UpcardCells>,
    /// Soft totals.
    pub soft: LabelMap<UpcardCells>,
}

/// A chart row's codes against the upcards `2`..`9`, `T`, `A` (S, H, D,
/// Ds, P, R, Rs, Rp), `null` where no hand of the row reaches the cell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpcardCells {
    /// Against a 2.
    #[serde(rename = "2")]
    pub two: Option<String>,
    /// Against a 3.
    #[serde(rename = "3")]
    pub three: Option<String>,
    /// Against a 4.
    #[serde(rename = "4")]
    pub four: Option<String>,
    /// Against a 5.
    #[serde(rename = "5")]
    pub five: Option<String>,
    /// Against a 6.
    #[serde(rename = "6")]
    pub six: Option<String>,
    /// Against a 7.
    #[serde(rename = "7")]
    pub seven: Option<String>,
    /// Against an 8.
    #[serde(rename = "8")]
    pub eight: Option<String>,
    /// Against a 9.
    #[serde(rename = "9")]
    pub nine: Option<String>,
    /// Against a ten-valued card.
    #[serde(rename = "T")]
    pub ten: Option<String>,
    /// Against an ace.
    #[serde(rename = "A")]
    pub ace: Option<String>,
}

impl UpcardCells {
    /// The cells from ten codes in the upcard order 2..9, T, A.
    pub fn from_cells(cells: [Option<String>; 10]) -> UpcardCells {
        let [two, three, four, five, six, seven, eight, nine, ten, ace] = cells;
        UpcardCells {
            two,
            three,
            four,
            five,
            six,
            seven,
            eight,
            nine,
            ten,
            ace,
        }
    }

    /// The ten codes in the upcard order 2..9, T, A.
    pub fn cells(&self) -> [&Option<String>; 10] {
        [
            &self.two,
            &self.three,
            &self.four,
            &self.five,
            &self.six,
            &self.seven,
            &self.eight,
            &self.nine,
            &self.ten,
            &self.ace,
        ]
    }
}

/// A cell where some hand of the class plays otherwise than the chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChartException {
    /// `hard`, `soft` or `pairs`.
    pub section: String,
    /// The row's label.
    pub row: String,
    /// The upcard: `2`..`9`, `T`, `A`.
    pub upcard: String,
    /// The hand (`2T`).
    pub hand: String,
    /// The chart's code in the cell.
    pub chart: String,
    /// The hand's own best action.
    pub best: String,
}

impl Document for StrategyDocument {
    type Kind = StrategyKind;
}

// ---------------------------------------------------------------------------
// `blackjack house-edge` and `house-edge-grid`.

contract_kind!(
    HouseEdgeKind,
    "blackjack-house-edge",
    "the blackjack house edge off the top, insurance's value and the effect of removal on the house edge (blackjack house-edge)"
);

/// `blackjack house-edge`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HouseEdgeDocument {
    /// `deckodds.blackjack-house-edge/v1`.
    pub schema: Tag<HouseEdgeKind>,
    /// `blackjack-house-edge`.
    pub game: String,
    /// `exact` or `float`: how the overall value was computed.
    pub method: String,
    /// The rules by name, then `split_model`.
    pub params: Params,
    /// The round's value off the top.
    pub overall: OverallValue,
    /// Insurance off the top with an ace up.
    pub insurance: Option<PlayerValue>,
    /// The effect of removal, `null` for an infinite deck.
    pub effect_of_removal: Option<EffectOfRemoval>,
    /// Notes for people.
    pub notes: Vec<String>,
}

/// The change in the round's value when one card of each value is taken
/// out, strategy re-optimised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EffectOfRemoval {
    /// `exact` or `float` (`--exact-eor`).
    pub method: String,
    /// `percentage points of the bet`.
    pub unit: String,
    /// One entry per value A, 2, .., 10.
    pub removals: Vec<Removal>,
    /// The changes weighted by the cards in the shoe, summed, in points.
    pub weighted_sum_points: PlayerValue,
}

/// One card's removal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Removal {
    /// The value removed: `A`, `2`..`9`, `T`.
    pub removed: String,
    /// Cards of that value in the full shoe.
    pub cards_in_shoe: u64,
    /// The round's value with it out.
    pub overall: PlayerValue,
    /// The change from the full shoe's value, in percentage points.
    pub change_points: PlayerValue,
}

impl Document for HouseEdgeDocument {
    type Kind = HouseEdgeKind;
}

contract_kind!(
    HouseEdgeGridKind,
    "blackjack-house-edge-grid",
    "the blackjack house edge across a grid of rule sets (blackjack house-edge-grid)"
);

/// `blackjack house-edge-grid`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HouseEdgeGridDocument {
    /// `deckodds.blackjack-house-edge-grid/v1`.
    pub schema: Tag<HouseEdgeGridKind>,
    /// `blackjack-house-edge-grid`.
    pub game: String,
    /// `exact` or `float`.
    pub method: String,
    /// The split model of every row.
    pub split_model: String,
    /// One row per rule set, in the grid's order.
    pub rows: Vec<GridRow>,
}

/// One rule set of the grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridRow {
    /// The rules by name, then `split_model`.
    pub params: Params,
    /// The round's value off the top.
    pub overall: OverallValue,
}

impl Document for HouseEdgeGridDocument {
    type Kind = HouseEdgeGridKind;
}

// ---------------------------------------------------------------------------
// `blackjack player compare`.

contract_kind!(
    PlayerCompareKind,
    "blackjack-player-compare",
    "Monte-Carlo blackjack rounds played with the exact engine's decisions against the round's exact value (blackjack player compare)"
);

/// `blackjack player compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerCompareDocument {
    /// `deckodds.blackjack-player-compare/v1`.
    pub schema: Tag<PlayerCompareKind>,
    /// `blackjack-player`.
    pub game: String,
    /// `monte-carlo-vs-exact` or `monte-carlo-vs-float`.
    pub method: String,
    /// The rules by name, then `split_model`.
    pub params: Params,
    /// Rounds played.
    pub trials: u64,
    /// The master seed.
    pub seed: u64,
    /// The round's value off the top.
    pub exact: OverallValue,
    /// The rounds' statistics.
    pub monte_carlo: RoundStatistics,
    /// The mean against the value.
    pub agreement: RoundAgreement,
    /// `agree` or `disagree`.
    pub verdict: String,
    /// Rounds by net result (units, `-8`..`+8` in steps of a half), only
    /// results that occurred.
    pub net: LabelMap<u64>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// A sample of rounds' mean net result and its spread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundStatistics {
    /// The mean net result per round.
    pub mean: f64,
    /// A round's standard deviation (`null` for a single round).
    pub standard_deviation: Option<f64>,
    /// The mean's standard error.
    pub standard_error: Option<f64>,
}

/// A z-test of the rounds' mean against the exact value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundAgreement {
    /// `(mean - exact) / standard_error`, `null` when undefined.
    pub z: Option<f64>,
    /// Its two-sided p-value.
    pub p_value: Option<f64>,
    /// The significance level.
    pub level: f64,
    /// The largest `|z|` that agrees at `level`.
    pub z_critical: f64,
    /// Whether `|z| <= z_critical`.
    pub agrees: bool,
}

impl Document for PlayerCompareDocument {
    type Kind = PlayerCompareKind;
}

// ---------------------------------------------------------------------------
// `blackjack table` and `table compare`.

contract_kind!(
    TableKind,
    "blackjack-table",
    "blackjack at the table: one player's rounds down a shoe, the mean value per round, the net results, events and the value by true count (blackjack table)"
);

contract_kind!(
    TableCompareKind,
    "blackjack-table-compare",
    "blackjack at the table against the exact value of a round off the top, or a published claim (blackjack table compare)"
);

/// `blackjack table`: rounds at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableDocument {
    /// `deckodds.blackjack-table/v1`.
    pub schema: Tag<TableKind>,
    /// `blackjack-table`.
    pub game: String,
    /// `monte-carlo`.
    pub method: String,
    /// The rules by name, `split_model`, the dealing (`shoe_cards`,
    /// `penetration`, `cut_card_after`, or `rounds_per_shoe`), `strategy`,
    /// and `count` and `count_tags` with a counting system (and its true
    /// count's `true_count` rounding and `deck_estimation` when they are
    /// not `floor` over `perfect` decks left).
    pub params: Params,
    /// The master seed.
    pub seed: u64,
    /// Shoes dealt.
    pub shoes: u64,
    /// Rounds played.
    pub rounds: u64,
    /// The value per round.
    pub value: TableValue,
    /// `-100 × mean`.
    pub house_edge_percent: f64,
    /// Rounds won, lost and pushed.
    pub outcomes: TableOutcomes,
    /// Rounds with each event (`natural`, `dealer_natural`, `bust`, ...).
    pub events: LabelMap<u64>,
    /// Rounds per shoe.
    pub rounds_per_shoe: RoundsPerShoe,
    /// The value by true count, empty without a counting system.
    pub by_true_count: Vec<TrueCountRow>,
    /// The money of betting a ramp (`--bet-ramp`), absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub betting: Option<TableBetting>,
    /// The index plays made (`--indices`), absent without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_plays: Option<TableIndexPlays>,
    /// The insurance bets, absent unless an index play takes insurance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insurance: Option<TableInsurance>,
    /// `net per round` and `rounds per shoe` as count distributions.
    pub distributions: Vec<TableDistribution>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// `blackjack table compare`: a table run, then the comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableCompareDocument {
    /// `deckodds.blackjack-table-compare/v1`.
    pub schema: Tag<TableCompareKind>,
    /// `blackjack-table`.
    pub game: String,
    /// `monte-carlo`.
    pub method: String,
    /// As [`TableDocument::params`].
    pub params: Params,
    /// The master seed.
    pub seed: u64,
    /// Shoes dealt.
    pub shoes: u64,
    /// Rounds played.
    pub rounds: u64,
    /// The value per round.
    pub value: TableValue,
    /// `-100 × mean`.
    pub house_edge_percent: f64,
    /// Rounds won, lost and pushed.
    pub outcomes: TableOutcomes,
    /// Rounds with each event.
    pub events: LabelMap<u64>,
    /// Rounds per shoe.
    pub rounds_per_shoe: RoundsPerShoe,
    /// The value by true count, empty without a counting system.
    pub by_true_count: Vec<TrueCountRow>,
    /// The money of betting a ramp (`--bet-ramp`), absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub betting: Option<TableBetting>,
    /// The index plays made (`--indices`), absent without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_plays: Option<TableIndexPlays>,
    /// The insurance bets, absent unless an index play takes insurance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insurance: Option<TableInsurance>,
    /// The exact (f64 solve) value of a round off the top.
    pub exact_off_the_top: f64,
    /// The mean less the exact value, and what it is.
    pub difference: TableDifference,
    /// The mean against the exact value.
    pub agreement: MeanAgreement,
    /// A published claim checked (`--published`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<PublishedCheck>,
    /// `agree` or `disagree`.
    pub verdict: String,
    /// `net per round` and `rounds per shoe` as count distributions.
    pub distributions: Vec<TableDistribution>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// The mean value per round, with its 95% interval by shoe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableValue {
    /// The mean net result per round.
    pub mean: f64,
    /// Its 95% interval (by shoe), ends `null` for a single shoe.
    pub ci95: [Option<f64>; 2],
    /// A round's standard deviation.
    pub sd: Option<f64>,
    /// The mean's standard error (by shoe).
    pub standard_error: Option<f64>,
}

/// The money of betting a ramp by the true count, in units (one unit =
/// a ramp bet of 1), every rate per round *played*. Definitions
/// (`docs/GUIDE.md`, "Betting"; Schlesinger's Blackjack Attack and CVCX):
/// `win_rate_per_100 = 100 win_rate`, `sd_per_100 = 10 sd` (100
/// independent rounds), `di = 1000 win_rate / sd`, `n0 = (sd /
/// win_rate)^2`, `score = 10^6 (win_rate / sd)^2 = di^2 = 10^6 / n0`.
/// The index plays a table's player made: basic strategy's chart with
/// each play in its cell at the true counts where it holds (RULES.md
/// section 6, "Index plays"), the round's count taken once its first
/// three cards are seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableIndexPlays {
    /// The index file read, or `generated` (found by an index run first).
    pub source: String,
    /// Each play, as the index file gives it.
    pub plays: Vec<TableIndexPlay>,
}

/// One index play, in the index file's terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableIndexPlay {
    /// `hard`, `soft`, `pairs` or `insurance`.
    pub section: String,
    /// The total (`16`), the pair (`TT`), or empty for insurance.
    pub row: String,
    /// `A`, `2`..`9`, `T`.
    pub upcard: String,
    /// `S`, `H`, `D`, `P`, `R`, or `I` (take insurance).
    pub deviation: String,
    /// `>=` or `<`.
    pub direction: String,
    /// The true count.
    pub index: i32,
}

/// The insurance bets of a run: half a unit against an ace, paid 2 to 1
/// when the hole card makes a natural; their net is part of every figure
/// above (the value, the net distribution, the money).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableInsurance {
    /// Rounds insured.
    pub rounds: u64,
    /// Of them, those the bet won.
    pub won: u64,
    /// The bets' net per round dealt, in units (part of `value.mean`).
    pub net_per_round: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableBetting {
    /// The ramp as played (within the table limits), inline:
    /// `<=1:1,2:2,...,>=5:12`.
    pub ramp: String,
    /// Its rows: each true count's bet and the rounds played at it.
    pub rows: Vec<RampRow>,
    /// `--wong-in`, if given.
    pub wong_in: Option<i32>,
    /// `--wong-out`, if given.
    pub wong_out: Option<i32>,
    /// Rounds dealt, played or not.
    pub rounds_observed: u64,
    /// Rounds played (with a bet).
    pub rounds_played: u64,
    /// The mean bet per round played, units.
    pub average_bet: f64,
    /// The bet off the top (a shoe's first round), `null` when wonging
    /// sits it out.
    pub initial_bet: Option<u32>,
    /// The mean money per round played, units.
    pub win_rate: f64,
    /// Its standard error, by shoe.
    pub win_rate_standard_error: Option<f64>,
    /// Its 95% interval, by shoe.
    pub win_rate_ci95: [Option<f64>; 2],
    /// Units per 100 rounds played.
    pub win_rate_per_100: f64,
    /// A round's standard deviation, units.
    pub sd: Option<f64>,
    /// 100 rounds' standard deviation, `10 sd`.
    pub sd_per_100: Option<f64>,
    /// The desirability index.
    pub di: Option<f64>,
    /// SCORE, `null` unless the win rate is positive.
    pub score: Option<f64>,
    /// N0, `null` with no win rate.
    pub n0: Option<f64>,
    /// With `--bankroll`: Kelly scaling and risk of ruin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bankroll: Option<BankrollFigures>,
}

/// One row of a ramp.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RampRow {
    /// `<=1`, `2`, .., `>=5`.
    pub true_count: String,
    /// The bet, units.
    pub bet: u32,
    /// Rounds played at it.
    pub rounds: u64,
}

/// A bankroll's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BankrollFigures {
    /// The bankroll, units.
    pub bankroll: u64,
    /// `bankroll x win_rate / sd^2`, `null` unless the win rate is
    /// positive.
    pub kelly_multiplier: Option<f64>,
    /// The ramp's bets times it (empty without it).
    pub kelly_bets: Vec<f64>,
    /// `exp(-2 win_rate bankroll / sd^2)` (1 when the win rate is not
    /// positive): betting the ramp forever, normal approximation.
    pub risk_of_ruin: f64,
    /// Simulated trips (`--trip-rounds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trip: Option<TripFigures>,
}

/// Simulated trips with a finite bankroll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TripFigures {
    /// Rounds dealt per trip.
    pub rounds: u64,
    /// Trips simulated.
    pub trips: u64,
    /// Trips that lost the bankroll.
    pub ruined: u64,
    /// Their share.
    pub risk: f64,
    /// Its 95% Wilson interval.
    pub ci95: [f64; 2],
}

/// Rounds won, lost and pushed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableOutcomes {
    /// Rounds with a positive net result.
    pub win: u64,
    /// With a negative one.
    pub loss: u64,
    /// With none.
    pub push: u64,
}

/// Rounds per shoe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundsPerShoe {
    /// The mean.
    pub mean: f64,
    /// Shoes reshuffled before the cut card (too few cards for a round).
    pub reshuffled_shoes: u64,
}

/// The value per round at one true count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrueCountRow {
    /// The true count (`<=-5`, `-4`, .., `>=5`).
    pub true_count: String,
    /// Rounds played at it.
    pub rounds: u64,
    /// Their share of all rounds.
    pub frequency: f64,
    /// The mean net result, `null` with too few rounds.
    pub mean: Option<f64>,
    /// A round's standard deviation, `null` with too few rounds.
    pub sd: Option<f64>,
    /// The mean's 95% interval, `null` with too few rounds.
    pub ci95: Option<[f64; 2]>,
}

/// A count distribution, as the other reports write a Monte-Carlo one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableDistribution {
    /// `net per round` or `rounds per shoe`.
    pub key: String,
    /// Every outcome, in order.
    pub outcomes: Vec<CountOutcome>,
}

/// One outcome's count, share and 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountOutcome {
    /// The outcome's label.
    pub outcome: String,
    /// Its count.
    pub count: u64,
    /// Its share (0 when nothing was counted).
    pub estimate: f64,
    /// The 95% Wilson interval of the share.
    pub ci95: [f64; 2],
}

/// The mean less the exact value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableDifference {
    /// What the difference is (`cut-card effect`, ..), or `none expected`.
    pub what: String,
    /// Its estimate.
    pub mean: f64,
    /// Its 95% interval.
    pub ci95: [Option<f64>; 2],
}

/// A z-test of a mean against an expectation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeanAgreement {
    /// The expectation.
    pub exact: f64,
    /// The mean.
    pub mean: f64,
    /// The mean's standard error.
    pub standard_error: Option<f64>,
    /// `(mean - exact) / standard_error`, `null` when undefined.
    pub z: Option<f64>,
    /// Its two-sided p-value.
    pub p_value: Option<f64>,
    /// The significance level.
    pub level: f64,
    /// The largest `|z|` that agrees at `level`.
    pub z_critical: f64,
    /// Whether `|z| <= z_critical`.
    pub agrees: bool,
}

/// A simulator's published house edge, checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishedCheck {
    /// Where it was published, if given.
    pub source: Option<String>,
    /// The published house edge in percent.
    pub house_edge_percent: f64,
    /// The rounds it was simulated from.
    pub rounds: u64,
    /// Its standard error, in units per round.
    pub standard_error: Option<f64>,
    /// Against the exact value.
    pub against_exact: MeanAgreement,
    /// Against this simulation.
    pub against_simulation: MeanAgreement,
    /// Published win and loss rates against this simulation's.
    pub rates: Vec<RateCheck>,
    /// Whether the claim is consistent with the exact value.
    pub consistent_with_exact: bool,
    /// Whether it is consistent with this simulation.
    pub consistent_with_simulation: bool,
}

/// A published rate against this simulation's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateCheck {
    /// `win` or `loss`.
    pub rate: String,
    /// The test.
    pub agreement: MeanAgreement,
}

impl Document for TableDocument {
    type Kind = TableKind;
}

impl Document for TableCompareDocument {
    type Kind = TableCompareKind;
}

// ---------------------------------------------------------------------------
// `blackjack cut-card-effect`.

contract_kind!(
    CutCardEffectKind,
    "blackjack-cut-card-effect",
    "the blackjack cut-card effect by decks: the exact house edge beside simulated ones with one round per shoe and to a cut card (blackjack cut-card-effect)"
);

/// `blackjack cut-card-effect`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CutCardEffectDocument {
    /// `deckodds.blackjack-cut-card-effect/v1`.
    pub schema: Tag<CutCardEffectKind>,
    /// `blackjack-cut-card-effect`.
    pub game: String,
    /// `monte-carlo-vs-float`.
    pub method: String,
    /// The rules every row shares by name, `penetration`, `strategy`.
    pub params: Params,
    /// The master seed.
    pub seed: u64,
    /// One row per rule set.
    pub rows: Vec<CutCardRow>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// One rule set: decks and the dealer's soft-17 rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CutCardRow {
    /// Decks in the shoe.
    pub decks: String,
    /// `S17` or `H17`.
    pub soft17: String,
    /// The house edge off the top (f64 solve), in percent.
    pub exact_house_edge_percent: f64,
    /// The simulation with one round per shoe.
    pub one_round_per_shoe: CutCardRun,
    /// The simulation to the cut card.
    pub cut_card: CutCardRun,
    /// The cut card's house edge less the exact one, in points.
    pub cut_card_effect_percent: CutCardEffect,
}

/// One simulation of a row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CutCardRun {
    /// The house edge in percent.
    pub house_edge_percent: f64,
    /// Its 95% interval (by shoe).
    pub ci95: [Option<f64>; 2],
    /// Rounds played.
    pub rounds: u64,
    /// Shoes dealt.
    pub shoes: u64,
    /// The mean rounds per shoe.
    pub rounds_per_shoe: f64,
    /// The mean against the exact value, `null` when undefined.
    pub z_against_exact: Option<f64>,
}

/// The cut-card effect with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CutCardEffect {
    /// Its estimate, in percentage points.
    pub estimate: f64,
    /// Its 95% interval.
    pub ci95: [Option<f64>; 2],
}

impl Document for CutCardEffectDocument {
    type Kind = CutCardEffectKind;
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fmt::Debug;

    use serde_json::json;

    use super::*;
    use crate::contract::{Kind, read, write};

    /// `document` is written with its schema first and reads back equal;
    /// an unknown field added to the object at `pointer` (a JSON pointer)
    /// is refused, naming the field by its path (`path` is the object's,
    /// `.` for the document itself).
    pub(crate) fn round_trips_and_refuses_unknown_fields<D>(document: &D, pointer: &str, path: &str)
    where
        D: Document + PartialEq + Debug,
    {
        let text = write(document);
        let first_line = format!("{{\n  \"schema\": \"{}\",\n", D::Kind::ID);
        assert!(text.starts_with(&first_line), "{text}");
        assert_eq!(read::<D>(&text).as_ref(), Ok(document));
        let mut value: Value = serde_json::from_str(&text).unwrap();
        value
            .pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| panic!("{pointer} is an object"))
            .insert("colour".into(), json!("red"));
        let error = read::<D>(&value.to_string()).unwrap_err().0;
        let field = if path == "." {
            "colour".to_string()
        } else {
            format!("{path}.colour")
        };
        let expected = format!("{} field {field}: unknown field `colour`", D::Kind::ID);
        assert!(error.starts_with(&expected), "{error}");
        assert!(!error.contains('\n'), "{error}");
    }

    fn params() -> Params {
        json!({"decks": "6", "soft17": "stand", "split_model": "cdz"})
            .as_object()
            .unwrap()
            .clone()
    }

    fn exact(value: &str, decimal: f64) -> PlayerValue {
        PlayerValue {
            value: Some(value.into()),
            decimal,
        }
    }

    fn overall() -> OverallValue {
        OverallValue {
            value: Some("-1/250".into()),
            decimal: -0.004,
            house_edge_percent: 0.4,
        }
    }

    #[test]
    fn a_player_document_round_trips() {
        let hand = HandValues {
            hand: "88".into(),
            upcard: "6".into(),
            probability: exact("1/2000", 0.0005),
            stand: exact("-1/6", -1.0 / 6.0),
            hit: PlayerValue {
                value: None,
                decimal: -0.4,
            },
            double: None,
            split: Some(exact("2/5", 0.4)),
            surrender: None,
            best: "split".into(),
            insurance: None,
        };
        let document = PlayerDocument {
            schema: Tag::new(),
            game: "blackjack-player".into(),
            method: "exact".into(),
            params: params(),
            overall: overall(),
            insurance: Some(exact("-1/13", -1.0 / 13.0)),
            hands: vec![hand],
        };
        round_trips_and_refuses_unknown_fields(&document, "", ".");
        round_trips_and_refuses_unknown_fields(&document, "/hands/0/split", "hands[0].split");
        // A value absent in f64 is no key at all, not `null`.
        let text = write(&document);
        assert!(!text.contains("\"value\": null"), "{text}");
    }

    #[test]
    fn a_strategy_document_round_trips_its_rows_in_order() {
        let row = |code: &str| {
            UpcardCells::from_cells(std::array::from_fn(|i| (i < 9).then(|| code.to_string())))
        };
        let rows = |labels: &[&str]| labels.iter().map(|l| (l.to_string(), row("H"))).collect();
        let document = StrategyDocument {
            schema: Tag::new(),
            game: "blackjack-player".into(),
            method: "float".into(),
            params: params(),
            chart: Chart {
                // Not in key order: the order written is kept.
                hard: rows(&["9", "10", "16"]),
                soft: rows(&["18"]),
                pairs: rows(&["TT", "88"]),
                multi_card: MultiCardChart {
                    hard: rows(&["16"]),
                    soft: LabelMap::default(),
                },
            },
            exceptions: vec![ChartException {
                section: "hard".into(),
                row: "12".into(),
                upcard: "4".into(),
                hand: "2T".into(),
                chart: "S".into(),
                best: "hit".into(),
            }],
        };
        round_trips_and_refuses_unknown_fields(&document, "/chart/pairs/88", "chart.pairs.88");
        round_trips_and_refuses_unknown_fields(&document, "/exceptions/0", "exceptions[0]");
        let text = write(&document);
        let hard = &text[text.find("\"hard\"").unwrap()..];
        assert!(hard.find("\"9\": {").unwrap() < hard.find("\"10\": {").unwrap());
        assert!(text.contains("\"A\": null"), "{text}");
        // A label given twice is refused, naming the section.
        let twice = text.replacen("\"10\": {", "\"9\": {", 1);
        let error = read::<StrategyDocument>(&twice).unwrap_err().0;
        assert!(
            error.contains("field chart.hard: label \"9\" given twice"),
            "{error}"
        );
    }

    #[test]
    fn house_edge_documents_round_trip() {
        let document = HouseEdgeDocument {
            schema: Tag::new(),
            game: "blackjack-house-edge".into(),
            method: "exact".into(),
            params: params(),
            overall: overall(),
            insurance: None,
            effect_of_removal: Some(EffectOfRemoval {
                method: "float".into(),
                unit: "percentage points of the bet".into(),
                removals: vec![Removal {
                    removed: "A".into(),
                    cards_in_shoe: 24,
                    overall: exact("-1/100", -0.01),
                    change_points: exact("-3/5", -0.6),
                }],
                weighted_sum_points: exact("1/10", 0.1),
            }),
            notes: vec!["a note".into()],
        };
        round_trips_and_refuses_unknown_fields(
            &document,
            "/effect_of_removal/removals/0",
            "effect_of_removal.removals[0]",
        );
        let grid = HouseEdgeGridDocument {
            schema: Tag::new(),
            game: "blackjack-house-edge-grid".into(),
            method: "float".into(),
            split_model: "cdz".into(),
            rows: vec![GridRow {
                params: params(),
                overall: overall(),
            }],
        };
        round_trips_and_refuses_unknown_fields(&grid, "/rows/0/overall", "rows[0].overall");
    }

    #[test]
    fn a_player_compare_document_round_trips() {
        let document = PlayerCompareDocument {
            schema: Tag::new(),
            game: "blackjack-player".into(),
            method: "monte-carlo-vs-exact".into(),
            params: params(),
            trials: 1000,
            seed: 1,
            exact: overall(),
            monte_carlo: RoundStatistics {
                mean: -0.01,
                standard_deviation: Some(1.1),
                standard_error: None,
            },
            agreement: RoundAgreement {
                z: None,
                p_value: None,
                level: 0.05,
                z_critical: 1.96,
                agrees: false,
            },
            verdict: "disagree".into(),
            net: LabelMap(vec![("-1".into(), 600), ("+1".into(), 400)]),
            shard: Some(ShardBlock {
                part: "0/2".into(),
                ..ShardBlock::default()
            }),
        };
        round_trips_and_refuses_unknown_fields(&document, "/monte_carlo", "monte_carlo");
    }

    fn agreement() -> MeanAgreement {
        MeanAgreement {
            exact: -0.005,
            mean: -0.004,
            standard_error: Some(0.001),
            z: Some(1.0),
            p_value: Some(0.32),
            level: 0.05,
            z_critical: 1.96,
            agrees: true,
        }
    }

    fn distributions() -> Vec<TableDistribution> {
        vec![TableDistribution {
            key: "net per round".into(),
            outcomes: vec![CountOutcome {
                outcome: "-1".into(),
                count: 3,
                estimate: 1.0,
                ci95: [0.4, 1.0],
            }],
        }]
    }

    fn true_counts() -> Vec<TrueCountRow> {
        vec![TrueCountRow {
            true_count: "<=-5".into(),
            rounds: 1,
            frequency: 0.5,
            mean: None,
            sd: None,
            ci95: None,
        }]
    }

    #[test]
    fn table_documents_round_trip() {
        let value = TableValue {
            mean: -0.004,
            ci95: [None, None],
            sd: None,
            standard_error: None,
        };
        let outcomes = TableOutcomes {
            win: 1,
            loss: 2,
            push: 0,
        };
        let rounds_per_shoe = RoundsPerShoe {
            mean: 1.5,
            reshuffled_shoes: 0,
        };
        let events = LabelMap(vec![("bust".into(), 1), ("dealer_natural".into(), 0)]);
        let table = TableDocument {
            schema: Tag::new(),
            game: "blackjack-table".into(),
            method: "monte-carlo".into(),
            params: params(),
            seed: 3,
            shoes: 2,
            rounds: 3,
            value: value.clone(),
            house_edge_percent: 0.4,
            outcomes: outcomes.clone(),
            events: events.clone(),
            rounds_per_shoe: rounds_per_shoe.clone(),
            by_true_count: true_counts(),
            betting: None,
            index_plays: Some(TableIndexPlays {
                source: "generated".into(),
                plays: vec![TableIndexPlay {
                    section: "insurance".into(),
                    row: String::new(),
                    upcard: "A".into(),
                    deviation: "I".into(),
                    direction: ">=".into(),
                    index: 3,
                }],
            }),
            insurance: Some(TableInsurance {
                rounds: 1,
                won: 0,
                net_per_round: -0.5 / 3.0,
            }),
            distributions: distributions(),
            shard: None,
        };
        round_trips_and_refuses_unknown_fields(&table, "/by_true_count/0", "by_true_count[0]");
        let compare = TableCompareDocument {
            schema: Tag::new(),
            game: "blackjack-table".into(),
            method: "monte-carlo".into(),
            params: params(),
            seed: 3,
            shoes: 2,
            rounds: 3,
            value,
            house_edge_percent: 0.4,
            outcomes,
            events,
            rounds_per_shoe,
            by_true_count: Vec::new(),
            index_plays: None,
            insurance: None,
            betting: Some(TableBetting {
                ramp: "<=1:1,>=2:4".into(),
                rows: vec![RampRow {
                    true_count: "<=1".into(),
                    bet: 1,
                    rounds: 3,
                }],
                wong_in: None,
                wong_out: Some(-1),
                rounds_observed: 3,
                rounds_played: 3,
                average_bet: 1.0,
                initial_bet: Some(1),
                win_rate: 0.01,
                win_rate_standard_error: Some(0.1),
                win_rate_ci95: [None, None],
                win_rate_per_100: 1.0,
                sd: Some(1.0),
                sd_per_100: Some(10.0),
                di: Some(10.0),
                score: Some(100.0),
                n0: Some(10_000.0),
                bankroll: Some(BankrollFigures {
                    bankroll: 100,
                    kelly_multiplier: Some(1.0),
                    kelly_bets: vec![1.0],
                    risk_of_ruin: 0.13,
                    trip: Some(TripFigures {
                        rounds: 10,
                        trips: 2,
                        ruined: 1,
                        risk: 0.5,
                        ci95: [0.1, 0.9],
                    }),
                }),
            }),
            exact_off_the_top: -0.005,
            difference: TableDifference {
                what: "cut-card effect".into(),
                mean: 0.001,
                ci95: [Some(-0.001), Some(0.003)],
            },
            agreement: agreement(),
            claim: Some(PublishedCheck {
                source: None,
                house_edge_percent: 0.5,
                rounds: 1_000_000,
                standard_error: Some(0.001),
                against_exact: agreement(),
                against_simulation: agreement(),
                rates: vec![RateCheck {
                    rate: "win".into(),
                    agreement: agreement(),
                }],
                consistent_with_exact: true,
                consistent_with_simulation: true,
            }),
            verdict: "agree".into(),
            distributions: distributions(),
            shard: Some(ShardBlock {
                part: "1/2".into(),
                ..ShardBlock::default()
            }),
        };
        round_trips_and_refuses_unknown_fields(
            &compare,
            "/claim/rates/0/agreement",
            "claim.rates[0].agreement",
        );
        // Each kind refuses the other's document.
        let error = read::<TableDocument>(&write(&compare)).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.blackjack-table/v1 field schema: is \""),
            "{error}"
        );
    }

    #[test]
    fn a_cut_card_document_round_trips() {
        let run = CutCardRun {
            house_edge_percent: 0.5,
            ci95: [Some(0.3), Some(0.7)],
            rounds: 1000,
            shoes: 1000,
            rounds_per_shoe: 1.0,
            z_against_exact: None,
        };
        let document = CutCardEffectDocument {
            schema: Tag::new(),
            game: "blackjack-cut-card-effect".into(),
            method: "monte-carlo-vs-float".into(),
            params: params(),
            seed: 1,
            rows: vec![CutCardRow {
                decks: "1".into(),
                soft17: "S17".into(),
                exact_house_edge_percent: 0.01,
                one_round_per_shoe: run.clone(),
                cut_card: run,
                cut_card_effect_percent: CutCardEffect {
                    estimate: 0.2,
                    ci95: [Some(0.1), Some(0.3)],
                },
            }],
            shard: None,
        };
        round_trips_and_refuses_unknown_fields(&document, "/rows/0/cut_card", "rows[0].cut_card");
    }

    #[test]
    fn a_wrong_type_is_refused_naming_the_field() {
        let text = r#"{"schema": "deckodds.blackjack-house-edge-grid/v1", "game": "g",
            "method": "exact", "split_model": "cdz",
            "rows": [{"params": {}, "overall": {"decimal": "x", "house_edge_percent": 1}}]}"#;
        let error = read::<HouseEdgeGridDocument>(text).unwrap_err().0;
        assert!(
            error.starts_with(
                "deckodds.blackjack-house-edge-grid/v1 field rows[0].overall.decimal: invalid type: string \"x\""
            ),
            "{error}"
        );
    }

    #[test]
    fn finite_is_none_for_what_json_cannot_hold() {
        assert_eq!(finite(1.5), Some(1.5));
        assert_eq!(finite(f64::NAN), None);
        assert_eq!(finite(f64::INFINITY), None);
    }
}
