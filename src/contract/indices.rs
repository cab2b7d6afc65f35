//! Index plays (`blackjack indices --format json`): for each decision,
//! the true count at which another action becomes better than basic
//! strategy, and its gain by true count. Floats as in [`super::blackjack`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::blackjack::Params;
use super::{Document, Tag};
use crate::contract_kind;

contract_kind!(
    IndicesKind,
    "blackjack-indices",
    "index plays: for each decision of basic strategy, the true count at which another action becomes better, with its 95% interval, and the gain by true count (blackjack indices)"
);

/// `blackjack indices`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndicesDocument {
    /// `deckodds.blackjack-indices/v1`.
    pub schema: Tag<IndicesKind>,
    /// The game's report name (`blackjack-indices`).
    pub game: String,
    /// The command's parameters by name (the rules, the count, the
    /// penetration, the precision asked for).
    pub params: Params,
    /// The count's tags, ace first, ten last.
    pub tags: Vec<i8>,
    /// The master seed.
    pub seed: u64,
    /// Shoes dealt in all, the pilot's included.
    pub shoes: u64,
    /// Runs made, the pilot included.
    pub runs: u32,
    /// Every index found, decision by decision.
    pub plays: Vec<IndexPlayEntry>,
    /// The standard short lists, each play beside its published index.
    pub lists: Vec<ListedPlay>,
    /// Every decision's mean gain by true count.
    pub gains: Vec<GainCurve>,
}

/// One index play: a row of the index file `--indices` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndexPlayEntry {
    /// `hard`, `soft`, `pairs` or `insurance`.
    pub section: String,
    /// The total (`16`), the pair (`TT`), or empty for insurance.
    pub row: String,
    /// `A`, `2`..`9`, `T`.
    pub upcard: String,
    /// Basic strategy's action code (`S`, `H`, `D`, `P`, `R`; `N`, no
    /// insurance).
    pub basic: String,
    /// The action taken on the index's side (`I`: take insurance).
    pub deviation: String,
    /// `>=`: the deviation at and above `index`; `<`: below it.
    pub direction: String,
    /// The least whole true count of the upper side.
    pub index: i32,
    /// Where the mean gain crosses zero, on the scale of the floored true
    /// count's bins.
    pub crossing: f64,
    /// The crossing's 95% interval.
    pub ci95: [f64; 2],
    /// Shoes the decision was watched on.
    pub shoes: u64,
}

/// A play of a published short list beside the index found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListedPlay {
    /// `I18` or `Fab 4`.
    pub list: String,
    /// Its place in the list, from 1.
    pub number: u32,
    /// `hard 16 v T`.
    pub decision: String,
    /// The listed action, taken at and above the index.
    pub action: String,
    /// The published index.
    pub published: i32,
    /// The index found, `null` if none was (the rules make the play moot,
    /// or its crossing is out of the counts reached).
    pub found: Option<i32>,
    /// The crossing found and its 95% interval.
    pub crossing: Option<f64>,
    pub ci95: Option<[f64; 2]>,
}

/// A decision's mean gain of one alternative over basic strategy, by true
/// count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GainCurve {
    /// `hard 16 v T`.
    pub decision: String,
    /// Basic strategy's action code.
    pub basic: String,
    /// The alternative's code.
    pub alternative: String,
    /// Per true count (`<=-10`, `-9`, .., `>=+10`), the mean gain in units
    /// per hand dealt and its standard error, `null` where too few shoes
    /// saw the hand.
    pub by_true_count: Vec<GainAt>,
}

/// A mean gain at one true count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GainAt {
    pub true_count: String,
    pub mean: Option<f64>,
    pub standard_error: Option<f64>,
}

impl Document for IndicesDocument {
    type Kind = IndicesKind;
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::contract::blackjack::tests::round_trips_and_refuses_unknown_fields;

    #[test]
    fn an_indices_document_round_trips() {
        let document = IndicesDocument {
            schema: Tag::new(),
            game: "blackjack-indices".into(),
            params: json!({"count": "hi-lo"}).as_object().unwrap().clone(),
            tags: vec![-1, 1, 1, 1, 1, 1, 0, 0, 0, -1],
            seed: 1,
            shoes: 1000,
            runs: 2,
            plays: vec![IndexPlayEntry {
                section: "hard".into(),
                row: "16".into(),
                upcard: "T".into(),
                basic: "H".into(),
                deviation: "S".into(),
                direction: ">=".into(),
                index: 0,
                crossing: -0.1,
                ci95: [-0.2, 0.0],
                shoes: 1000,
            }],
            lists: vec![ListedPlay {
                list: "I18".into(),
                number: 2,
                decision: "hard 16 v T".into(),
                action: "S".into(),
                published: 0,
                found: Some(0),
                crossing: Some(-0.1),
                ci95: Some([-0.2, 0.0]),
            }],
            gains: vec![GainCurve {
                decision: "hard 16 v T".into(),
                basic: "H".into(),
                alternative: "S".into(),
                by_true_count: vec![GainAt {
                    true_count: "0".into(),
                    mean: Some(-0.001),
                    standard_error: None,
                }],
            }],
        };
        round_trips_and_refuses_unknown_fields(&document, "", ".");
        round_trips_and_refuses_unknown_fields(&document, "/plays/0", "plays[0]");
    }
}
